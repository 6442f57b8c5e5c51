"""What a Two-Ten-Jack user strategy sees: the layout of its ``view`` array, card and move
codes, and small helpers (docs/two-ten-jack.md, "Writing a strategy").

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``: ``legal[:n]`` are
the legal move codes, ``rng`` the game's PLAY stream (``analyzer.rng.randbelow(rng, k)``
for reproducible coin flips) and ``view`` an int64 array indexed by the names below::

    from numba import njit
    from analyzer.games.two_ten_jack.view import points_of

    @njit
    def greedy(view, legal, n, rng):
        best = legal[0]
        for i in range(n):
            if points_of(legal[i]) > points_of(best):
                best = legal[i]
        return best

The kernel fills the view with these very constants (it imports them), so they cannot drift.
A move is a card code (``suit * 13 + rank``, suits C D H S = 0..3, ranks 2..A = 0..12), or,
to lead the ace of spades, one of its two declarations ``AS_SPADE`` ("AS:spade") and
``AS_TRUMP`` ("AS:trump"). Card sets (``view[HAND]``, ...) are masks: bit ``code`` set.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount  # also there for strategy authors
from analyzer.cards import CardError, parse_card, token
from analyzer.games.two_ten_jack.rules import (  # noqa: F401  (re-exported names)
    ACE_SPADES,
    AS_SPADE,
    AS_TRUMP,
    CARD_POINTS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    TRUMP_MASK,
    follower_wins,
    lead_card,
)
from analyzer.games.two_ten_jack.rules import mask_points as _rules_mask_points
from analyzer.jit import njit

# ACE_SPADES, AS_SPADE, AS_TRUMP and the suits are imported from rules.py for strategy authors
# (defined once there)

# ---- the view: index of each field ---------------------------------------------------------
SEAT = 0          # the deciding seat, 0 or 1
DEALER = 1        # the dealer of this round
TARGET = 2        # points to win
STOCK = 3         # cards left in the stock (0: the stock is gone)
TRICK = 4         # number of this trick in the round, 1..26
LEAD = 5          # card led to this trick (AS for either declaration), -1 when the seat leads
SUIT = 6          # suit led (the declared one for AS), -1 when the seat leads
HAND = 7          # own cards (mask)
PLAYED = 8        # cards of the earlier tricks of this round (mask)
TAKEN = 9         # TAKEN + s: cards seat s took this round (mask)
SCORE = 11        # SCORE + s: seat s's score before this round
ROUND = 13        # round number, from 1
VIEW_SIZE = 14

_DECLARATIONS = {"AS:SPADE": AS_SPADE, "AS:TRUMP": AS_TRUMP}


def card_code(name: str) -> int:
    """The code of a card: ``card_code("KS") == 50``. Raises ValueError for a malformed
    token or a joker (not in this deck)."""
    code = parse_card(name)
    if code >= 52:
        raise CardError(f"{name} is not in the 52-card deck")
    return code


def card_name(code: int) -> str:
    """The token of a card code: ``card_name(50) == "KS"``."""
    return token(int(code))


def move_code(name: str) -> int:
    """The code of a move: a card token (``"7H"``; ``"AS"`` when following) or a lead
    declaration of the ace of spades (``"AS:spade"``, ``"AS:trump"``)."""
    return _DECLARATIONS.get(name.strip().upper()) or card_code(name)


def move_name(code: int) -> str:
    """The record text of a move: ``move_name(AS_TRUMP) == "AS:trump"``, else its card's token."""
    name = MOVE_NAMES.get(int(code))
    return card_name(code) if name is None else name


#: ``move_name`` of every move code: the cards and the two declarations of the ace of spades
#: (the records' decoder indexes it directly)
MOVE_NAMES = {c: card_name(c) for c in range(52)} | {AS_SPADE: "AS:spade", AS_TRUMP: "AS:trump"}


def mask_of(names: str) -> int:
    """The mask of space-separated card tokens: ``mask_of("2H TH JH")``."""
    mask = 0
    for name in names.split():
        mask |= 1 << card_code(name)
    return mask


# ---- compiled helpers a strategy may call -----------------------------------------------------

@njit(cache=True)
def suit_of(card):
    """The suit of a card code (CLUBS, DIAMONDS, HEARTS or SPADES; AS is a spade)."""
    return card // 13


@njit(cache=True)
def rank_of(card):
    """The rank index of a card code: 0 for a 2 ... 12 for an ace."""
    return card % 13


@njit(cache=True)
def card_of(move):
    """The card a move plays (AS for both declarations)."""
    return lead_card(move)


@njit(cache=True)
def points_of(move):
    """The points of the card a move plays: +5 2H TH JH, -5 2C TC JC, +1 2S TS JS AS 6D."""
    return CARD_POINTS[lead_card(move)]


@njit(cache=True)
def is_trump(move):
    """Whether the card a move plays is a trump (a heart, or AS however it is declared)."""
    return (TRUMP_MASK >> lead_card(move)) & 1 == 1


@njit(cache=True)
def wins_trick(led, card):
    """Whether ``card``, played to a trick led with card ``led`` (``view[LEAD]``), takes it:
    the highest trump if any trump is in it (AS is the highest, however declared), else the
    higher card of the suit led (the rules' own function)."""
    return follower_wins(led, card)


@njit(cache=True)
def holds(mask, card):
    """Whether ``card`` is in the card mask ``mask``."""
    return (mask >> card) & 1 == 1


@njit(cache=True)
def count(mask):
    """How many cards ``mask`` holds."""
    return popcount(mask)


@njit(cache=True)
def mask_points(mask):
    """The points of the cards in ``mask`` (e.g. ``view[TAKEN + view[SEAT]]``): the rules'
    own count (``rules.mask_points``)."""
    return _rules_mask_points(np.int64(mask))
