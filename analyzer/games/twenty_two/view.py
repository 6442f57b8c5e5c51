"""What a Twenty-Two strategy sees: the layout of the ``view`` array, the move and card
codes, and small helpers for strategy authors (docs/twenty-two.md, "Writing a strategy").

A user strategy is an ``@njit`` function ``f(view, legal, n, rng) -> move``: ``view`` is
an int64 array laid out as below (the kernel fills it with these very constants),
``legal[:n]`` are the legal moves, ``rng`` the game's random state
(``analyzer.rng.randbelow(rng, k)``). It returns one of ``legal[:n]``.

**Moves** are sets of cards by rank (suits never matter): a *packed set*, 4 bits per rank,
rank r = 0..12 for 2..A holding ``(move >> 4 r) & 15`` cards. ``"QQ"`` is ``2 << 40``,
``"45"`` is ``(1 << 8) | (1 << 12)``; ``""`` (0) is "discard nothing". A hand is packed
the same way (``view[HAND]``). ``move_code("QQ")`` and ``move_name(code)`` convert.

**Cards** (only in records and positions; strategies see ranks) are codes
``suit * 13 + rank`` with suits C, D, H, S: ``card_code("KS")`` is 50.

The ``@njit`` helpers below (and those of rules.py they re-export) can be called from a
strategy; the Python converters cannot (call them outside, e.g. to build constants).
"""

from __future__ import annotations

import numpy as np

from analyzer.cards import parse_card, token
from analyzer.games.twenty_two.codes import KIND_DISCARD, KIND_FOLLOW, KIND_LEAD, RANKS
from analyzer.games.twenty_two.rules import (  # noqa: F401  (re-exported for strategies)
    RANK_OF,
    RANK_POINTS,
    beats,
    highest_rank,
    highest_set,
    lowest_rank,
    lowest_set,
    nib,
    one,
    set_size,
)
from analyzer.jit import njit

__all__ = [
    "SEAT", "PLAYERS", "DEALER", "KIND", "STOCK", "HAND_SIZE", "HAND", "SET_SIZE", "BEST", "BEST_SEAT",
    "LEADER", "HAND_NO", "TARGET", "COUNTS", "PLAYED", "SCORES", "ACTIVE", "VIEW_SIZE", "MAX_PLAYERS",
    "KIND_DISCARD", "KIND_LEAD", "KIND_FOLLOW", "RANKS", "NOTHING",
    "card_code", "card_name", "rank_code", "rank_name", "move_code", "move_name",
    "count", "rank_of", "points_of", "one", "set_size", "lowest_rank", "highest_rank", "lowest_set",
    "highest_set", "beats",
]

# ---- the view layout (int64 indices) -------------------------------------------------------
SEAT = 0         #: the seat deciding (0..players-1)
PLAYERS = 1      #: number of seats
DEALER = 2       #: this hand's dealer
KIND = 3         #: the decision: KIND_DISCARD (0), KIND_LEAD (1) or KIND_FOLLOW (2)
STOCK = 4        #: cards left in the stock (a discard may hold at most this many)
HAND_SIZE = 5    #: cards in the seat's hand
HAND = 6         #: the seat's hand, a packed set
SET_SIZE = 7     #: follow: how many cards to play (the lead's size); 0 otherwise
BEST = 8         #: follow: the best set of the trick so far (packed); 0 otherwise
BEST_SEAT = 9    #: follow: the seat that played BEST; -1 otherwise
LEADER = 10      #: lead and follow: the trick's leader; -1 for a discard
HAND_NO = 11     #: the hand number in the game (1 for the first hand)
TARGET = 12      #: the rule option ``target``: a player at this score or more is out
COUNTS = 13      #: 13 entries: the seat's cards per rank (COUNTS + r for rank r)
PLAYED = 26      #: 13 entries: cards per rank played to this hand's ordinary tricks so far
SCORES = 39      #: MAX_PLAYERS entries: points per seat (SCORES + s)
ACTIVE = 45      #: MAX_PLAYERS entries: 1 if seat s is still in the game
MAX_PLAYERS = 6
VIEW_SIZE = ACTIVE + MAX_PLAYERS

#: the empty set: "discard nothing"
NOTHING = 0


# ---- Python converters --------------------------------------------------------------------
def card_code(name: str) -> int:
    """The code of a card token: ``card_code("KS") == 50`` (``suit * 13 + rank``)."""
    return parse_card(name)


def card_name(code: int) -> str:
    """The token of a card code: ``card_name(50) == "KS"``."""
    return token(code)


def rank_code(letter: str) -> int:
    """The rank of a letter: ``rank_code("2") == 0``, ``rank_code("A") == 12`` (``10`` is ``T``)."""
    letter = letter.strip().upper().replace("10", "T")
    if len(letter) != 1 or letter not in RANKS:
        raise ValueError(f"bad rank {letter!r} (ranks: {', '.join(RANKS)})")
    return RANKS.index(letter)


def rank_name(rank: int) -> str:
    """The letter of a rank: ``rank_name(11) == "K"``."""
    return RANKS[rank]


def move_code(text: str) -> int:
    """The packed set of a rank string: ``move_code("QQ") == 2 << 40``; ``""`` is 0."""
    code = 0
    for ch in text.upper():
        if ch not in RANKS:
            raise ValueError(f"bad rank {ch!r} in move {text!r}")
        code += 1 << (4 * RANKS.index(ch))
    return code


_NAMES: dict[int, str] = {}


def move_name(code: int) -> str:
    """The rank string of a packed set, low to high: ``move_name(2 << 40) == "QQ"``."""
    text = _NAMES.get(code)
    if text is None:
        text = "".join(RANKS[r] * ((code >> (4 * r)) & 15) for r in range(13))
        if len(_NAMES) < 200_000:  # decoding a record names the same legal sets many times
            _NAMES[code] = text
    return text


# ---- compiled helpers (callable from a strategy) ------------------------------------------
@njit(cache=True)
def count(packed, rank):
    """How many cards of ``rank`` a packed set (a move, ``view[HAND]``, ``view[BEST]``) holds."""
    return nib(packed, rank)


@njit(cache=True)
def rank_of(card):
    """The rank (0..12 for 2..A) of a card code."""
    return RANK_OF[card]


@njit(cache=True)
def points_of(rank):
    """What a card of ``rank`` scores when it takes the final trick (2..10 face, J Q K 10,
    A 11); also the size of the next hand."""
    return RANK_POINTS[rank]
