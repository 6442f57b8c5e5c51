"""User strategies for tests/test_user_strategies.py.

``uniform`` draws a uniform legal move from the game's strategy stream exactly as the
built-in ``random`` of Hearts (two players) does (a forced move draws no number), and
``uniform_always`` as Ninety-Nine's does (a number even for a forced move): a game played
with it is the very game ``random`` plays.
"""

from numba import njit

from analyzer.rng import randbelow


@njit
def uniform(view, legal, n, rng):
    if n == 1:
        return legal[0]
    return legal[randbelow(rng, n)]


@njit
def uniform_always(view, legal, n, rng):
    return legal[randbelow(rng, n)]


@njit
def last_legal(view, legal, n, rng):
    return legal[n - 1]


@njit
def never_legal(view, legal, n, rng):
    return -7


@njit
def raises(view, legal, n, rng):
    if n > 1:
        raise ValueError("no move for you")
    return legal[0]
