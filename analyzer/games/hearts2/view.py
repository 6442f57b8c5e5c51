"""What a Two-player Hearts user strategy sees: the layout of its ``view`` array, card and
move codes, and small helpers (docs/hearts2.md, "Writing a strategy").

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``: ``legal[:n]`` are
the legal card codes, ``rng`` the game's PLAY stream (``analyzer.rng.randbelow(rng, k)``
for reproducible coin flips) and ``view`` an int64 array indexed by the names below::

    from numba import njit
    from analyzer.games.hearts2.view import HAND, LED, rank_of, suit_of

    @njit
    def lowest_rank(view, legal, n, rng):
        best = legal[0]
        for i in range(n):
            if rank_of(legal[i]) < rank_of(best):
                best = legal[i]
        return best

The kernel fills the view with these very constants (it imports them), so they cannot drift.
A move is a card code (``suit * 13 + rank``, suits C D H S = 0..3, ranks 2..A = 0..12); the
28-card deck holds ranks 2 4 6 8 T Q A only. Card sets (``view[HAND]``, ``view[PLAYED]``)
are masks: bit ``code`` set.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount
from analyzer.cards import CardError, hearts2_deck, parse_card, token
from analyzer.jit import njit

# ---- the view: index of each field ---------------------------------------------------------
SEAT = 0          # the deciding seat, 0 or 1
HAND_NO = 1       # hand number, from 1
DEALER = 2        # the dealer of this hand
TRICK = 3         # complete tricks so far this hand (0..12)
LEADER = 4        # the seat leading this trick
LED = 5           # card led to this trick, -1 when the seat leads
BROKEN = 6        # 1 once a heart was played to an earlier trick of this hand
HAND = 7          # own cards (mask)
PLAYED = 8        # cards of the complete tricks of this hand (mask; the card led is not in it)
TAKEN = 9         # TAKEN + s: points seat s took in tricks this hand
SCORES = 11       # SCORES + s: seat s's score before this hand
TARGET = 13       # the game ends after a hand in which a player reaches it
TRICKS_WON = 14   # TRICKS_WON + s: tricks seat s won this hand
VIEW_SIZE = 16

# ---- cards ------------------------------------------------------------------------------------
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
QUEEN_OF_SPADES = SPADES * 13 + 10
#: every card of the deck (mask)
DECK = sum(1 << c for c in hearts2_deck().codes)
_DECK = np.int64(DECK)
_SUIT = np.int64((1 << 13) - 1)


def card_code(name: str) -> int:
    """The code of a card of the 28-card deck: ``card_code("QS") == 49``. Raises
    ValueError for a malformed token or a card not in the deck (``"3H"``)."""
    code = parse_card(name)
    if not (DECK >> code) & 1:
        raise CardError(f"{name} is not in the 28-card hearts2 deck")
    return code


def card_name(code: int) -> str:
    """The token of a card code: ``card_name(49) == "QS"``."""
    return token(int(code))


def move_code(name: str) -> int:
    """The move that plays card ``name``: every move is a card, so its card code."""
    return card_code(name)


def move_name(code: int) -> str:
    """The record text of a move: its card's token."""
    return card_name(code)


def mask_of(names: str) -> int:
    """The mask of space-separated card tokens: ``mask_of("QS 2H")``."""
    mask = 0
    for name in names.split():
        mask |= 1 << card_code(name)
    return mask


# ---- compiled helpers a strategy may call -----------------------------------------------------

@njit(cache=True)
def suit_of(card):
    """The suit of a card code (CLUBS, DIAMONDS, HEARTS or SPADES)."""
    return card // 13


@njit(cache=True)
def rank_of(card):
    """The rank index of a card code: 0 for a 2 ... 12 for an ace (the deck has the even ones
    and T Q A: 0 2 4 6 8 10 12)."""
    return card % 13


@njit(cache=True)
def holds(mask, card):
    """Whether ``card`` is in the card mask ``mask``."""
    return (mask >> card) & 1 == 1


@njit(cache=True)
def suit_cards(mask, suit):
    """The cards of ``suit`` in ``mask`` (a mask)."""
    return mask & (_SUIT << np.int64(13 * suit))


@njit(cache=True)
def count(mask):
    """How many cards ``mask`` holds."""
    return popcount(mask)


@njit(cache=True)
def unseen(view):
    """The cards the seat cannot see (the opponent's hand and the 2 dead cards, with the card
    led to this trick taken out): a mask."""
    gone = view[HAND] | view[PLAYED]
    if view[LED] >= 0:
        gone |= np.int64(1) << view[LED]
    return _DECK & ~gone
