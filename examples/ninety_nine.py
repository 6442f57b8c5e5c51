"""Example Ninety-Nine strategies written against the named view (analyzer.games.ninety_nine.view).

Run them with:

    analyzer simulate ninety-nine --games 20000 --seat 0=examples/ninety_nine.py:saver
    analyzer compare ninety-nine examples/ninety_nine.py:saver random --until-significant
    analyzer compare ninety-nine examples/ninety_nine.py:saver heuristic --games 64000
    analyzer evaluate ninety-nine --hand "KS 4D 7C" --total 92 --rollout examples/ninety_nine.py:saver

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``: ``view`` is what the
seat sees (fields named in view.py and docs/ninety-nine.md, "Writing a strategy"),
``legal[:n]`` the legal move codes; it returns one of them.

``saver`` is the built-in ``heuristic`` written against the named view: it plays the same
moves (the second compare above: every game alike, 0.500 of the wins, difference 0), and
takes 0.926 of the wins against ``random`` [0.919, 0.932] (the first: 1,000 duplicate deals,
seed 0).
"""

from numba import njit

from analyzer.games.ninety_nine.view import (
    HAND,
    HAND_LEN,
    LIMIT,
    MOVE_FOUR,
    MOVE_KING,
    MOVE_NINE,
    MOVE_RANK,
    MOVE_TEN_DOWN,
    MOVE_TEN_UP,
    RANK_FOUR,
    RANK_KING,
    RANK_NINE,
    RANK_TEN,
    TOTAL,
    total_after,
)

#: an ordinary card may take the total up to here; above it the next player is squeezed,
#: but so are we when play comes back
SAFE_TOTAL = 88


@njit
def _is_escape_rank(rank):
    """K, 4, 9 and T: cards that can be played on any total."""
    return rank == RANK_KING or rank == RANK_FOUR or rank == RANK_NINE or rank == RANK_TEN


@njit
def _escape_preference(move):
    """Among escapes, the cheapest first: 9 (+0), 4 (+0, reverses), T-10, T+10, K (99)."""
    if move == MOVE_NINE:
        return 5
    if move == MOVE_FOUR:
        return 4
    if move == MOVE_TEN_DOWN:
        return 3
    if move == MOVE_TEN_UP:
        return 2
    return 1


@njit
def saver(view, legal, n, rng):
    """Keep the escape cards for later: play an ordinary card when one is legal, the one that
    lands highest without passing SAFE_TOTAL (else the one that lands lowest); with only
    escapes left, play K while holding another escape (the next player faces 99), else the
    cheapest escape."""
    total = view[TOTAL]
    best, best_score = legal[0], -1_000_000
    for i in range(n):
        move = legal[i]
        if _is_escape_rank(MOVE_RANK[move]):
            continue
        landing = total_after(total, move)
        score = 1000 + landing if landing <= SAFE_TOTAL else LIMIT - landing
        if score > best_score:
            best, best_score = move, score
    if best_score > -1_000_000:
        return best
    escapes = 0
    for i in range(HAND_LEN):
        if _is_escape_rank(view[HAND + i]):
            escapes += 1
    for i in range(n):
        move = legal[i]
        score = _escape_preference(move)
        if move == MOVE_KING and escapes >= 2:
            score = 10
        if score > best_score:
            best, best_score = move, score
    return best
