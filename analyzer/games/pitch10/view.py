"""What a 10-Point Pitch user strategy sees: the layout of its ``view`` array, the move
codes, and small helpers (docs/pitch10.md, "Writing a strategy").

A strategy is an ``@njit`` function ``f(view, legal, n, rng) -> move``: ``view`` is the
int64 array laid out below (``view[SEAT]``, ``view[TRICK + s]``, ...), ``legal[:n]`` the legal
move codes, ``rng`` the game's random state (``analyzer.rng.randbelow(rng, k)``). The kernel
fills the view with these same constants (kernel.fill_view), so the names cannot drift.

Cards are codes ``suit * 13 + rank`` (suits C D H S = 0..3, ranks 2..A = 0..12) and 52 for
``LJ``, 53 for ``HJ``; a set of cards is a 54-bit mask (bit ``c`` = card ``c``). Helpers a
strategy may call from compiled code are ``@njit`` (``strength``, ``points``, ``holds``,
...); the converters (``card_code``, ``move_name``, ...) are plain Python, for setting up
tables and for tests. This file mentions njit: it is part of the game's cache key.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount  # also there for strategy authors (view.popcount)
from analyzer.cards import token
from analyzer.games.pitch10.codes import (  # noqa: F401 (re-exported for strategy authors)
    HIGH_JOKER,
    KEEP,
    KIND_BID,
    KIND_DISCARD,
    KIND_GIVE,
    KIND_PLAY,
    KIND_TRUMP,
    KINDS,
    LOW_JOKER,
    LOWEST_BID,
    MOON,
    MOVE_BID0,
    MOVE_GIVE,
    MOVE_KEEP,
    MOVE_MOON,
    MOVE_PASS,
    MOVE_TRUMP0,
    NCARDS,
    SUITS,
)
from analyzer.games.pitch10.rules import ACE16, POINTS16, STRENGTH  # noqa: F401 (ACE16 re-exported)
from analyzer.jit import njit

# ---- the view: int64[VIEW_SIZE] ------------------------------------------------------------
SEAT = 0        # the deciding seat (team = seat % 2: seats 0 and 2 against 1 and 3)
KIND = 1        # KIND_BID, KIND_TRUMP, KIND_GIVE, KIND_DISCARD or KIND_PLAY
DEALER = 2
PITCHER = 3     # the winning bidder; -1 while bidding
HIGH = 4        # highest bid so far (0 none; 4..10; MOON), then the winning bid
TRUMP = 5       # trump suit 0..3 (C D H S) from the give decision on; -1 before
HAND = 6        # own cards as a 54-bit mask: the nine dealt while bidding and naming trump,
#                 then the trumps held
SEEN = 7        # trumps played so far this hand, 54-bit mask (play decisions; else 0)
TRICK = 8       # TRICK + s: the card seat s played to the current trick, -1 none (4 entries)
LEADER = 12     # the seat that led the current trick (play decisions; else -1)
SCORES = 13     # SCORES + t: team t's score before this hand (2 entries)
TAKEN = 15      # TAKEN + t: points team t took so far this hand (2 entries)
REST = 17       # cards left in the stock at the give decision (else 0)
RECEIVED = 18   # RECEIVED + s: cards seat s was dealt in the refill, -1 before it (4 entries)
BIDS = 22       # BIDS + s: seat s's bid: -1 none yet, 0 pass, 4..10, MOON (4 entries)
TARGET = 26     # the score that wins the game
VIEW_SIZE = 27


# ---- converters (Python) ----------------------------------------------------------------------

def card_code(name: str) -> int:
    """``card_code("KS") == 50``; ``"LJ"`` 52, ``"HJ"`` 53; ``"10S"`` also reads as ``"TS"``."""
    from analyzer.cards import parse_card

    return parse_card(name)


def card_name(code: int) -> str:
    """``card_name(50) == "KS"``."""
    return token(int(code))


def cards_of(mask: int) -> list[str]:
    """The cards of a 54-bit mask, low codes first: ``cards_of(view[HAND])``."""
    return [card_name(c) for c in range(NCARDS) if int(mask) >> c & 1]


def bid_name(level: int) -> str:
    """A bid level as the records write it: 0 ``"pass"``, 4..10, 11 ``"moon"``."""
    return "moon" if level == MOON else ("pass" if level == 0 else str(level))


def move_name(code: int) -> str:
    """The record text of a move code: ``"pass"``, ``"6"``, ``"moon"``, ``"S"``, ``"keep"``,
    ``"give"`` or a card (``"KS"``)."""
    code = int(code)
    return MOVE_NAMES[code] if 0 <= code < len(MOVE_NAMES) else _move_name(code)


def _move_name(code: int) -> str:
    if 0 <= code < NCARDS:
        return card_name(code)
    if code == MOVE_PASS or LOWEST_BID <= code - MOVE_BID0 <= MOON:
        return bid_name(code - MOVE_BID0)
    if 0 <= code - MOVE_TRUMP0 < len(SUITS):
        return SUITS[code - MOVE_TRUMP0]
    if code in (MOVE_KEEP, MOVE_GIVE):
        return "keep" if code == MOVE_KEEP else "give"
    return f"<move code {code}>"


#: ``move_name`` of every move code, by code (the records' decoder indexes it directly)
MOVE_NAMES = tuple(_move_name(c) for c in range(max(MOVE_GIVE, MOVE_KEEP, MOVE_MOON, MOVE_TRUMP0 + 3) + 1))


def move_code(name: str) -> int:
    """The move code of a record text (inverse of ``move_name``): ``move_code("pass") == 60``,
    ``move_code("6") == 66``, ``move_code("S") == 83``, ``move_code("KS") == 50``."""
    if name == "pass":
        return MOVE_PASS
    if name == "moon":
        return MOVE_MOON
    if name.isdigit():
        return MOVE_BID0 + int(name)
    if len(name) == 1 and name in SUITS:
        return MOVE_TRUMP0 + SUITS.index(name)
    if name in ("keep", "give"):
        return MOVE_KEEP if name == "keep" else MOVE_GIVE
    return card_code(name)


# ---- helpers a strategy may call (compiled) ---------------------------------------------------

@njit(cache=True)
def bid_move(level):
    """The move code of bid ``level`` (0 pass, 4..10, MOON)."""
    return MOVE_BID0 + level


@njit(cache=True)
def trump_move(suit):
    """The move code that names ``suit`` (0..3, C D H S) trump."""
    return MOVE_TRUMP0 + suit


@njit(cache=True)
def partner(seat):
    """The partner of ``seat`` (seats 0 and 2 play against 1 and 3)."""
    return (seat + 2) & 3


@njit(cache=True)
def holds(mask, card):
    """Whether the 54-bit ``mask`` holds ``card``."""
    return ((mask >> card) & 1) == 1


@njit(cache=True)
def count(mask):
    """How many cards a 54-bit mask holds."""
    return popcount(mask)


@njit(cache=True)
def suit_of(card):
    """Suit 0..3 (C D H S) of a card, -1 for a joker (its suit is trump's, see ``strength``)."""
    return card // 13 if card < LOW_JOKER else -1


@njit(cache=True)
def rank_of(card):
    """Rank 0..12 (2..A) of a card, -1 for a joker."""
    return card % 13 if card < LOW_JOKER else -1


@njit(cache=True)
def strength(card, trump):
    """The card's rank among the 16 trumps of suit ``trump``: 0 (the 2) .. 15 (the ace), in
    the order 2 3 4 5 6 7 8 9 T LJ HJ off-jack J Q K A; -1 when it is not a trump. The
    higher strength wins a trick; ``ACE16`` (15) is the ace's."""
    return STRENGTH[trump, card]


@njit(cache=True)
def is_trump(card, trump):
    """Whether ``card`` is a trump when ``trump`` (0..3) is named (jokers and the off-jack are)."""
    return STRENGTH[trump, card] >= 0


@njit(cache=True)
def points(card, trump):
    """Points the card is worth when ``trump`` is named: 3 for the 3 of trump, 1 for the A,
    J, off-jack, HJ, LJ, T and 2 of trump, 0 otherwise."""
    k = STRENGTH[trump, card]
    return POINTS16[k] if k >= 0 else 0


@njit(cache=True)
def trumps_in(mask, trump):
    """How many trumps of suit ``trump`` a 54-bit mask holds."""
    n = 0
    for c in range(NCARDS):
        if (mask >> c) & 1 and STRENGTH[trump, c] >= 0:
            n += 1
    return n


def _check_layout() -> None:
    """The fields tile the view exactly (an import-time guard against editing one offset)."""
    widths = {SEAT: 1, KIND: 1, DEALER: 1, PITCHER: 1, HIGH: 1, TRUMP: 1, HAND: 1, SEEN: 1, TRICK: 4,
              LEADER: 1, SCORES: 2, TAKEN: 2, REST: 1, RECEIVED: 4, BIDS: 4, TARGET: 1}
    cells = np.zeros(VIEW_SIZE, dtype=np.int64)
    for start, width in widths.items():
        cells[start:start + width] += 1
    assert (cells == 1).all(), "pitch10 view fields overlap or leave a gap"


_check_layout()
