"""Ninety-Nine built-in strategies (compiled). Each reads only what its seat may see:
its own hand, the pile total and direction. They return a legal move code.

- ``random``: uniform over the distinct legal moves.
- ``heuristic``: a rule-of-thumb player:
  1. it keeps its escape cards (K, 4, 9, T) and plays an ordinary card when one is legal,
     taking the one that pushes the total highest without passing 88 (so the next players
     face a high total), or, if every ordinary card would land above 88, the one that
     lands lowest (it stays as clear of 99 as it can); an ace counts 11 while that keeps
     the total at most 88, else 1;
  2. with only escapes legal, it plays K first when it holds another escape as well (the
     total becomes 99 and the next player must hold an escape), otherwise the cheapest
     escape: 9 (+0), then 4 (+0, reverses), then T-10, then K.
- ``mc`` (parameters ``k`` samples, ``base`` strategy): at each decision it redeals the
  cards it cannot see K times (consistently with its hand and the pile), plays each legal
  move on every sample and finishes the round with ``base`` for everyone, and plays the
  move that went over least often. Its search lives in kernel.py (``mc_move``).
"""

from __future__ import annotations

import numpy as np

from analyzer.games.ninety_nine.rules import (
    MOVE_RANK,
    MOVE_TEN_DOWN,
    MOVE_KING,
    RANK_FOUR,
    RANK_KING,
    RANK_NINE,
    RANK_OF,
    RANK_TEN,
    total_after,
)
from analyzer.jit import njit
from analyzer.rng import randbelow

RANDOM, HEURISTIC, MC = 0, 1, 2
SAFE_TOTAL = 88
MOVE_NINE, MOVE_FOUR, MOVE_TEN_UP = 7, 2, 8


@njit(cache=True, inline="always")
def is_escape_rank(rank: np.int64) -> bool:
    return rank == RANK_KING or rank == RANK_FOUR or rank == RANK_NINE or rank == RANK_TEN


@njit(cache=True, inline="always")
def random_move(legal: np.ndarray, n: np.int64, rng: np.ndarray) -> np.int64:
    return legal[randbelow(rng, n)]


@njit(cache=True)
def heuristic_move(hands: np.ndarray, seat: np.int64, total: np.int64, legal: np.ndarray, n: np.int64) -> np.int64:
    best_safe, best_safe_total = -1, -1
    best_over, best_over_total = -1, 1000
    for i in range(n):
        m = legal[i]
        if is_escape_rank(MOVE_RANK[m]):
            continue
        t = total_after(total, m)
        if t <= SAFE_TOTAL:
            if t > best_safe_total:
                best_safe, best_safe_total = m, t
        elif t < best_over_total:
            best_over, best_over_total = m, t
    if best_safe >= 0:
        return best_safe
    if best_over >= 0:
        return best_over
    # only escapes are legal
    escapes = 0
    for i in range(hands.shape[1]):
        if is_escape_rank(RANK_OF[hands[seat, i]]):
            escapes += 1
    has = 0
    for i in range(n):
        has |= 1 << legal[i]
    if has & (1 << MOVE_KING) and escapes >= 2:
        return MOVE_KING
    for m in (MOVE_NINE, MOVE_FOUR, MOVE_TEN_DOWN):
        if has & (1 << m):
            return m
    if has & (1 << MOVE_TEN_UP) and total_after(total, MOVE_TEN_UP) <= SAFE_TOTAL:
        return MOVE_TEN_UP
    if has & (1 << MOVE_KING):
        return MOVE_KING
    return legal[n - 1]
