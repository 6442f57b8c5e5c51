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
#: the escapes, the dearest first: K (the total becomes 99), T+10, T-10, 4 (+0, reverses),
#: 9 (+0); among escapes it plays the cheapest, the one latest here
ESCAPES_DEAREST_FIRST = (MOVE_KING, MOVE_TEN_UP, MOVE_TEN_DOWN, MOVE_FOUR, MOVE_NINE)


@njit
def is_escape_rank(rank):
    """K, 4, 9 and T: cards that can be played on any total."""
    return rank == RANK_KING or rank == RANK_FOUR or rank == RANK_NINE or rank == RANK_TEN


@njit
def cheapness(move):
    """An escape's place in ESCAPES_DEAREST_FIRST: the higher, the cheaper."""
    for place in range(len(ESCAPES_DEAREST_FIRST)):
        if ESCAPES_DEAREST_FIRST[place] == move:
            return place
    return -1


@njit
def saver(view, legal, n, rng):
    """Keep the escape cards for later: play an ordinary card when one is legal, the one that
    lands highest without passing SAFE_TOTAL (else the one that lands lowest); with only
    escapes left, play K while holding another escape (the next player faces 99), else the
    cheapest escape."""
    total = view[TOTAL]
    escapes = 0
    for i in range(HAND_LEN):
        if is_escape_rank(view[HAND + i]):
            escapes += 1
    best, best_key = legal[0], (-1, 0)
    for i in range(n):
        move = legal[i]
        landing = total_after(total, move)
        if not is_escape_rank(MOVE_RANK[move]):
            key = (3, landing) if landing <= SAFE_TOTAL else (2, -landing)
        elif move == MOVE_KING and escapes >= 2:
            key = (1, 0)  # K with another escape in hand: above every other escape
        else:
            key = (0, cheapness(move))
        if key > best_key:
            best, best_key = move, key
    return best
