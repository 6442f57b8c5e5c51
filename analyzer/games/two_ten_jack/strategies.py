"""Two-Ten-Jack built-in strategies (compiled). Each reads only what its seat may see: its
own hand, the card led (when following), the cards already played and how many cards are
left in the stock. They return a legal move code (rules.py).

- ``random``: uniform over the legal moves of every decision (leading AS as a spade and as
  a trump are two moves).
- ``heuristic``: a rule-of-thumb player. Card points: 2H TH JH +5, 2C TC JC -5,
  2S TS JS AS +1, 6D +1.

  Following, it scores every legal card and plays the best:
  ``16 * (points of the trick, plus if it wins, minus if the opponent takes it)
  - keep value of the card + 2 if it wins``. So it
  1. wins tricks that hold +5 cards (or any positive trick) with the cheapest winning card,
  2. gives away tricks worth nothing as cheaply as it can (lowest card),
  3. avoids taking the clubs 2/T/J, and dumps them on the opponent's tricks when void,
  4. saves AS for a trick worth it: its keep value (64 while the stock lasts, 40 after)
     lets it take a trick only when that trick holds 5 points or more;
  5. draw-aware: while the stock lasts trumps are worth keeping (a heart's keep value is
     8 + 2*rank, halved to 4 + rank once the stock is gone, when it spends them freely).
     Other cards keep their rank (0..12 for 2..A), the -5 clubs nothing.

  Leading, it plays the card of lowest lead cost: 2C first (-20: whoever takes it takes
  -5), then plain low cards (cost = rank), +1 cards (30 + rank), TC/JC (40), hearts
  (60 + rank while the stock lasts, 20 + rank after), +5 hearts (100 + rank). It leads AS
  as a trump once the stock is gone while a +5 heart is still unseen (it pulls the
  opponent's hearts), otherwise only as a last resort (as a trump while any heart is
  unseen, else as a spade).
- ``mc`` (in kernel.py, ``mc_move``): Monte Carlo. At each decision with more than one
  legal move it samples the hidden cards K times (``k``, default 32) consistently with
  what its seat has seen, rolls every legal move out to the end of the round with the
  ``base`` strategy (default heuristic) for both seats, the same sample and random numbers
  for every move, and plays the move with the most points for itself on average.
- ``pimc`` (in kernel.py, ``pimc_move``): perfect-information Monte Carlo. In the last
  ``tricks`` tricks of the round (default 6: the stock gone; ``codes.PIMC_TRICKS``), K
  worlds of the hidden cards (the other hand and the stock's order), each solved exactly
  with every card open (solver.py), the move with the best mean value played; before
  them it plays as ``mc``.
- ``ismcts`` (in kernel.py, ``ismcts_move``): information-set Monte Carlo tree search
  (analyzer.ismcts holds the tree): each iteration samples the hidden cards as ``mc`` does,
  walks a tree of what its seat knows through the rest of the round, and plays out with the
  ``base`` strategy to the end of the game (or ``rounds`` rounds), a game won scoring 1;
  it plays the root's most visited move.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import lowest, popcount
from analyzer.games.two_ten_jack.rules import (
    ACE_SPADES,
    AS_BIT,
    AS_SPADE,
    AS_TRUMP,
    CARD_POINTS,
    HEARTS,
    PLUS5_MASK,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    follower_wins,
    nth_move,
)
from analyzer.jit import njit
from analyzer.rng import randbelow_w

RANDOM, HEURISTIC, MC, PIMC, ISMCTS = 0, 1, 2, 3, 4
#: ids from here on are search strategies, compiled only into runs that use one (engine.search_tier)
SEARCH = MC

#: what the heuristic gives up by spending a card (stock lasting, stock gone)
AS_KEEP_STOCK, AS_KEEP_END = 64, 40
TWO_CLUBS = 0  # card code of 2C
HEARTS_MASK = SUIT_MASK[HEARTS]
PLUS5_HEARTS = np.int64(PLUS5_MASK & SUIT_MASK[HEARTS])


@njit(cache=True, inline="always")
def random_move(mask: np.int64, words: tuple) -> tuple:
    """A uniformly chosen move of the legal move mask (no coin flip when forced), from the
    PLAY stream held as words (rng.load_words): (move, the advanced words)."""
    n = popcount(mask)
    k, w = randbelow_w(words, n)  # n == 1: k == 0
    # a forced move keeps the old words: a select, not a branch (forced or not is no
    # pattern the CPU could learn)
    return nth_move(mask, k), (words if n == 1 else w)


def keep_value(card: int, stock_left: int) -> int:
    """What spending ``card`` gives up (tabled in ``KEEP_VALUE``)."""
    if card == ACE_SPADES:
        return AS_KEEP_STOCK if stock_left > 0 else AS_KEEP_END
    if SUIT_OF[card] == HEARTS:
        if stock_left > 0:
            return 8 + 2 * RANK_OF[card]
        return 4 + RANK_OF[card]
    if CARD_POINTS[card] < 0:
        return 0
    return RANK_OF[card]


#: a value per card, for the stock gone (row 0) and lasting (row 1), flat: ``row * 52 + card``.
#: Looked up, not computed: branches on the cards would mispredict on most moves.
N_CARDS = 52
KEEP_VALUE = np.array([keep_value(c, s) for s in (0, 1) for c in range(N_CARDS)], dtype=np.int64)


@njit(cache=True, inline="always")
def stock_row(stock_left: np.int64) -> np.int64:
    """Offset of the row of a per-card table (``KEEP_VALUE``, ``LEAD_COST``)."""
    return N_CARDS * np.int64(stock_left > 0)


@njit(cache=True)
def heuristic_follow(mask: np.int64, lead: np.int64, stock_left: np.int64) -> np.int64:
    if mask & (mask - 1) == 0:
        return lowest(mask)
    t = CARD_POINTS[lead]
    row = stock_row(stock_left)
    best, best_score = -1, -(1 << 30)
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        v = t + CARD_POINTS[c]
        score = (16 * v + 2 if follower_wins(lead, c) else -16 * v) - KEEP_VALUE[row + c]
        better = score > best_score  # ties: the lower card (selects, not a branch)
        best = c if better else best
        best_score = score if better else best_score
    return best


def lead_cost(card: int, stock_left: int) -> int:
    """What leading ``card`` costs (tabled in ``LEAD_COST``)."""
    suit = SUIT_OF[card]
    rank = RANK_OF[card]
    p = CARD_POINTS[card]
    if suit == HEARTS:
        if p > 0:
            return 100 + rank
        return (60 if stock_left > 0 else 20) + rank
    if card == TWO_CLUBS:
        return -20
    if p < 0:
        return 40
    if p > 0:
        return 30 + rank
    return rank


LEAD_COST = np.array([lead_cost(c, s) for s in (0, 1) for c in range(N_CARDS)], dtype=np.int64)


@njit(cache=True)
def heuristic_lead(hand: np.int64, played: np.int64, stock_left: np.int64) -> np.int64:
    unseen_hearts = HEARTS_MASK & ~hand & ~played
    if hand & AS_BIT:
        if stock_left == 0 and unseen_hearts & PLUS5_HEARTS:
            return AS_TRUMP
        if hand == AS_BIT:
            return AS_TRUMP if unseen_hearts else AS_SPADE
    row = stock_row(stock_left)
    best, best_cost = -1, 1 << 30
    m = hand & ~AS_BIT
    while m:
        c = lowest(m)
        m &= m - 1
        cost = LEAD_COST[row + c]
        better = cost < best_cost  # ties: the lower card (selects, not a branch)
        best = c if better else best
        best_cost = cost if better else best_cost
    return best
