"""Two-player Hearts built-in strategies (compiled). Each reads only what its seat may
see: its own hand, the card led to the current trick, the points each player has taken
in this hand's tricks (tricks are public), and the legal moves (a mask). They return a
card code from the legal mask.

- ``random``: uniform over the legal cards (a forced card draws no random number).
- ``heuristic``: a rule-of-thumb player. With two players a hand in which one player
  takes no point card is a moon for the other (20 points to the player who took none),
  so "moon on" means: this seat has taken no point yet and the opponent has. Then:
  - *moon on*: it tries to take a trick with points: following, it wins with its lowest
    winning card when the trick holds a point card (a led heart or QS), and trumps a
    non-heart lead with its lowest heart when void; leading, it leads its highest heart
    (if hearts may be led).
  - *following suit*: it ducks under the opponent's card with its highest card that
    still loses; when every card of the suit wins, it plays the highest one (never QS
    while another card wins as well).
  - *void in the suit led*: it discards QS when it holds it (the opponent takes 13);
    else, on a non-heart lead, the highest-ranked non-heart card (a future winner), or,
    holding only hearts, its highest heart (it wins the trick anyway: shed the high
    heart); on a heart lead (every card loses) the highest-ranked card.
  - *leading*: the lowest card of its shortest non-heart suit (never QS while it has
    another choice); with only hearts and QS legal, its lowest heart; QS last.
- ``mc`` (id ``MC``): Monte Carlo over the hidden cards with rollouts by a base strategy;
  it lives in kernel.py (``mc_move``), next to the play loops it rolls out with.
- ``pimc`` (id ``PIMC``): perfect-information Monte Carlo: sampled worlds of the hidden
  cards, each solved exactly (solver.py); it lives in kernel.py (``pimc_move``).
- ``ismcts`` (id ``ISMCTS``): information-set Monte Carlo tree search (analyzer.ismcts for
  the tree), playouts by a base strategy; it lives in kernel.py (``ismcts_move``).
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import highest, lowest, nth_bit, popcount
from analyzer.games.hearts2.rules import (
    CARD_POINTS,
    HEART_MASK,
    HEARTS,
    NON_HEART_MASK,
    QS,
    QS_BIT,
    RANK_MASK,
    SUIT_MASK,
    SUIT_MASK_OF,
    SUIT_OF,
    randbelow_state,
)
from analyzer.jit import njit

RANDOM, HEURISTIC, MC, PIMC, ISMCTS = 0, 1, 2, 3, 4
#: ids from here on are search strategies, compiled only into runs that use one (engine.search_tier)
SEARCH = MC


@njit(cache=True, inline="always")
def random_move(legal: np.int64, s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64) -> tuple:
    """A uniform legal card, from the PLAY stream held in scalars: (card, s0, s1, s2, s3).
    A forced card (a single legal one) draws no random number."""
    if legal & (legal - 1) == 0:
        return lowest(legal), s0, s1, s2, s3
    k, s0, s1, s2, s3 = randbelow_state(popcount(legal), s0, s1, s2, s3)
    return nth_bit(legal, k), s0, s1, s2, s3


@njit(cache=True, inline="always")
def highest_rank(x: np.int64) -> np.int64:
    """A card of the highest rank in the non-empty mask ``x`` (lowest suit on ties)."""
    for r in (12, 10, 8, 6, 4, 2, 0):
        m = x & RANK_MASK[r]
        if m:
            return lowest(m)
    return lowest(x)


@njit(cache=True)
def heuristic_move(hand: np.int64, legal: np.int64, led: np.int64, mine: np.int64,
                   theirs: np.int64) -> np.int64:
    """``led`` is the card led to this trick (-1 when leading); ``mine``/``theirs`` the
    points taken in this hand's tricks so far by this seat and by the opponent."""
    if legal & (legal - 1) == 0:
        return lowest(legal)
    moon_on = mine == 0 and theirs > 0
    if led < 0:
        if moon_on and legal & HEART_MASK:
            return highest(legal & HEART_MASK)
        plain = legal & NON_HEART_MASK & ~QS_BIT
        if plain:
            best_suit, best_len = -1, 99
            for s in range(4):
                if s == HEARTS:
                    continue
                m = plain & SUIT_MASK[s]
                if m:
                    n = popcount(hand & SUIT_MASK[s])
                    if n < best_len:
                        best_suit, best_len = s, n
            return lowest(plain & SUIT_MASK[best_suit])
        if legal & HEART_MASK:
            return lowest(legal & HEART_MASK)
        return QS
    if legal & SUIT_MASK_OF[led]:
        # following suit: ``legal`` holds only cards of the suit led
        below = legal & ((1 << led) - 1)
        above = legal ^ below
        if moon_on and (CARD_POINTS[led] > 0) and above:
            return lowest(above)
        if below:
            return highest(below)
        rest = above & ~QS_BIT
        return highest(rest) if rest else QS
    # void in the suit led
    if SUIT_OF[led] != HEARTS:
        hearts = legal & HEART_MASK
        if moon_on and hearts:
            return lowest(hearts)
        if legal & QS_BIT:
            return QS
        plain = legal & NON_HEART_MASK
        if plain:
            return highest_rank(plain)
        return highest(hearts)
    if legal & QS_BIT:
        return QS
    return highest_rank(legal)
