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
- ``mc`` (parameters ``k`` samples, ``base`` strategy, ``rounds``): at each decision it
  redeals the cards it cannot see K times (consistently with its hand and the pile), plays
  each legal move on every sample and plays on with ``base`` for everyone for ``rounds``
  rounds (1000: to the end of the game), valuing the chip state reached as the seat's share
  of the lives left (1 won, 0 out); it leaves the base's move only for one that leads it by
  two standard errors over the paired samples. Its search lives in kernel.py (``mc_move``).
"""

from __future__ import annotations

import numpy as np

from analyzer.games.ninety_nine.codes import MOVE_FOUR, MOVE_NINE, MOVE_TEN_UP
from analyzer.games.ninety_nine.rules import (
    LIMIT,
    MOVE_DELTA,
    MOVE_KING,
    MOVE_RANK,
    MOVE_TEN_DOWN,
    RANK_FOUR,
    RANK_KING,
    RANK_NINE,
    RANK_OF,
    RANK_TEN,
)
from analyzer.jit import ix, njit
from analyzer.rng import randbelow

RANDOM, HEURISTIC, MC, ISMCTS = 0, 1, 2, 3
#: ids from here on are search strategies, compiled only into runs that use one (engine.search_tier)
SEARCH = MC
SAFE_TOTAL = 88


@njit(cache=True, inline="always")
def random_move(legal: np.ndarray, n: np.int64, rng: np.ndarray) -> np.int64:
    return legal[ix(randbelow(rng, n))]


def _escape_scores() -> np.ndarray:
    """Preference among escape moves (rule 2), higher first; 0 for ordinary moves."""
    scores = np.zeros(len(MOVE_RANK), dtype=np.int64)
    scores[MOVE_NINE], scores[MOVE_FOUR], scores[MOVE_TEN_DOWN] = 500, 400, 300
    scores[MOVE_TEN_UP], scores[MOVE_KING] = 200, 100
    return scores


ESCAPE_SCORE = _escape_scores()
_ESCAPE_RANKS = (RANK_KING, RANK_FOUR, RANK_NINE, RANK_TEN)
IS_ESCAPE_CARD = np.array([1 if RANK_OF[c] in _ESCAPE_RANKS else 0 for c in range(52)], dtype=np.int64)


def _heuristic_score(move: int, total: int) -> int:
    """How much the heuristic likes ``move`` on a pile of ``total`` (K's bonus apart).

    Ordinary moves outrank every escape: landing at most 88 scores 2000 + the new total
    (push it high), landing above scores 1000 - the new total (as low as possible).
    Escapes score ESCAPE_SCORE (9, 4, T-10, T+10, K), except that T+10 landing above 88
    scores 0; K gains 500 in the kernel when another escape is held.
    """
    new_total = LIMIT if move == MOVE_KING else total + int(MOVE_DELTA[move])
    if MOVE_RANK[move] not in _ESCAPE_RANKS:
        return 2000 + new_total if new_total <= SAFE_TOTAL else 1000 - new_total
    if move == MOVE_TEN_UP and new_total > SAFE_TOTAL:
        return 0
    return int(ESCAPE_SCORE[move])


#: SCORE_AT[total * 16 + move]: the heuristic's score table (the play loop looks scores up
#: instead of computing them: fewer instructions and no unpredictable branches)
SCORE_AT = np.array([_heuristic_score(m, t) if m < len(MOVE_RANK) else 0 for t in range(LIMIT + 1) for m in range(16)],
                    dtype=np.int64)
#: a hand of 3 cards has at most 6 legal moves (A and T give two each)
MAX_LEGAL = 6


@njit(cache=True, inline="always")
def heuristic_move(hands: np.ndarray, seat: np.int64, total: np.int64, legal: np.ndarray, n: np.int64) -> np.int64:
    """The first legal move of highest score (``_heuristic_score``; K + 500 with another escape).

    Scans a fixed MAX_LEGAL slots of ``legal`` and ignores those past ``n`` (they hold
    earlier move codes, harmless to look up): a loop of fixed length has no exit to
    mispredict. Selects are arithmetic for the same reason.
    """
    row = ix(seat)
    escapes = (IS_ESCAPE_CARD[ix(hands[row, 0])] + IS_ESCAPE_CARD[ix(hands[row, 1])]
               + IS_ESCAPE_CARD[ix(hands[row, 2])])
    king_bonus = 500 * np.int64(escapes >= 2)
    base = total * 16
    best, best_score = legal[0], np.int64(-1)
    for i in range(MAX_LEGAL):
        move = legal[ix(i)]
        score = SCORE_AT[ix(base + move)] + king_bonus * np.int64(move == MOVE_KING)
        better = np.int64(score > best_score) * np.int64(i < n)
        best += better * (move - best)
        best_score += better * (score - best_score)
    return best
