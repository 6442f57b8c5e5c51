"""Twenty-Two built-in strategies (compiled). Each reads only what its seat may see: its
own hand (a packed count vector, see rules.py), the stock size, the set size and the best
set of the trick so far. They return a legal move (a packed set).

- ``random``: uniform over the legal moves of every decision, discards included, drawn
  from the PLAY stream. Discards and follows can have hundreds of legal sets (an
  11-card hand has up to 2048 sub-multisets), so no move is drawn from a list: the
  legal sets are *counted* (leads per rank held; discards and follows by a small
  dynamic programme over the ranks held, ``rules.count_subsets``) and the set with a
  uniformly drawn number is built directly (``rules.unrank_subset``; a discard that may
  take the whole hand draws each rank's count uniformly). Every legal move has the same
  chance, exactly as if it were drawn from the list, at a fraction of the cost. The
  records still list every legal move.
- ``heuristic``: a rule-of-thumb player that wants a low card for the final trick:
  1. *discard*: throws away its high cards (T, J, Q, K, A), highest first, as many as the
     stock allows, to fish for lower ones;
  2. *lead*: leads its highest rank, as many of that rank as it holds (keeping at least
     one card): the others must beat it or give up their lowest cards, and its own lowest
     card stays in hand for the final trick (with two cards left it leads the higher one);
  3. *follow*: sheds its highest cards when they match or beat the best set (they leave
     its lowest cards in hand), otherwise plays its lowest cards (the only legal move).
- ``mc`` (kernel.py, ``mc_move``): Monte Carlo over the hidden cards, rolled out with a
  base strategy; see docs/twenty-two.md, "Evaluate and mc".
- ``ismcts`` (kernel.py, ``ismcts_move``): information-set Monte Carlo tree search over
  sampled worlds of the hidden cards, played out with a base strategy to the game's end;
  see docs/twenty-two.md, "The ismcts strategy".
"""

from __future__ import annotations

import numpy as np


from analyzer.bits import lowest, nth_bit
from analyzer.games.twenty_two.codes import KIND_DISCARD, KIND_LEAD
from analyzer.games.twenty_two.rules import (
    M_RANK_BITS,
    beats,
    count_subsets,
    discard_limit,
    highest_rank,
    highest_set,
    lowest_set,
    nib,
    one,
    presence,
    set_size,
    unrank_subset,
)
from analyzer.jit import njit
from analyzer.rng import randbelow

#: built-in strategy ids (spec.SPEC's StrategyInfo reads them)
RANDOM, HEURISTIC, MC, ISMCTS = 0, 1, 2, 3
#: ids from here on are search strategies, compiled only into runs that use one (engine.search_tier)
SEARCH = MC
#: the heuristic discards cards of this rank (T) and higher
DISCARD_FROM = 8


@njit(cache=True)
def random_discard(hand: np.int64, stock_left: np.int64, rng: np.ndarray, scr: np.ndarray) -> np.int64:
    """Uniform over the sets of at most ``stock_left`` cards of the hand."""
    limit = discard_limit(hand, stock_left)
    if limit == set_size(hand):
        # any sub-multiset: each rank's count is independent and uniform
        move = np.int64(0)
        for r in range(13):
            c = nib(hand, r)
            if c:
                move += randbelow(rng, c + 1) << (4 * r)
        return move
    total = count_subsets(hand, 0, limit, 0, scr)
    return unrank_subset(randbelow(rng, total), limit, scr)




@njit(cache=True)
def random_follow(hand: np.int64, s: np.int64, best: np.int64, lowest_only_if_unable: bool,
                  rng: np.ndarray, scr: np.ndarray) -> np.int64:
    """Uniform over the legal follows (rules.legal_follows) without listing them."""
    if s == 1:
        # singles: one rank held from the best card's rank up, or the lowest card
        b = highest_rank(best)
        pres = presence(hand)
        above = (pres >> (4 * b)) << (4 * b)
        n = ((above * M_RANK_BITS) >> 48) & 15  # how many ranks held from b up
        low_rank = lowest(pres) >> 2
        if low_rank >= b or (lowest_only_if_unable and n > 0):
            u = randbelow(rng, n)
        elif n == 0:
            return one(low_rank)
        else:
            u = randbelow(rng, n + 1)
            if u == n:
                return one(low_rank)
        return one(nth_bit(above, u) >> 2)
    n = count_subsets(hand, s, s, best, scr)
    low = lowest_set(hand, s)
    if lowest_only_if_unable:
        if n == 0:
            return low
        return unrank_subset(randbelow(rng, n), s, scr)
    if beats(low, best):  # already one of the n sets that match or beat
        return unrank_subset(randbelow(rng, n), s, scr)
    u = randbelow(rng, n + 1)
    if u == n:
        return low
    return unrank_subset(u, s, scr)


@njit(cache=True)
def random_lead(hand: np.int64, hand_size: np.int64, rng: np.ndarray) -> np.int64:
    """Uniform over the legal leads (rules.legal_leads): k cards of one rank held,
    1 <= k <= min(held, hand size - 1)."""
    cap = hand_size - 1
    total = 0
    pres = presence(hand)
    rest = pres
    while rest != 0:
        b = lowest(rest)
        rest ^= np.int64(1) << b
        c = (hand >> b) & 15
        total += c if c < cap else cap
    u = randbelow(rng, total)
    rest = pres
    while True:
        b = lowest(rest)
        rest ^= np.int64(1) << b
        c = (hand >> b) & 15
        if c > cap:
            c = cap
        if u < c:
            return (u + 1) << b
        u -= c


@njit(cache=True)
def random_move(kind: np.int64, hand: np.int64, hand_size: np.int64, s: np.int64, best: np.int64, stock_left: np.int64,
                lowest_only_if_unable: bool, legal: np.ndarray, n: np.int64, rng: np.ndarray,
                scr: np.ndarray) -> np.int64:
    if kind == KIND_DISCARD:
        return random_discard(hand, stock_left, rng, scr)
    if kind == KIND_LEAD:
        return random_lead(hand, hand_size, rng)
    return random_follow(hand, s, best, lowest_only_if_unable, rng, scr)


@njit(cache=True)
def heuristic_discard(hand: np.int64, stock_left: np.int64) -> np.int64:
    move = np.int64(0)
    left = stock_left
    for r in range(12, DISCARD_FROM - 1, -1):
        if left == 0:
            break
        c = nib(hand, r)
        if c > left:
            c = left
        move += c << (4 * r)
        left -= c
    return move


@njit(cache=True)
def heuristic_lead(hand: np.int64, hand_size: np.int64) -> np.int64:
    r = highest_rank(hand)
    c = nib(hand, r)
    if c > hand_size - 1:
        c = hand_size - 1
    return c << (4 * r)


@njit(cache=True)
def heuristic_follow(hand: np.int64, s: np.int64, best: np.int64) -> np.int64:
    high = highest_set(hand, s)
    if beats(high, best):
        return high
    return lowest_set(hand, s)


@njit(cache=True)
def heuristic_move(kind: np.int64, hand: np.int64, hand_size: np.int64, s: np.int64,
                   best: np.int64, stock_left: np.int64) -> np.int64:
    if kind == KIND_DISCARD:
        return heuristic_discard(hand, stock_left)
    if kind == KIND_LEAD:
        return heuristic_lead(hand, hand_size)
    return heuristic_follow(hand, s, best)
