"""User strategies for tests/test_user_strategies.py.

``uniform`` draws a uniform legal move from the game's strategy stream exactly as the
built-in ``random`` of Hearts (two players) does (a forced move draws no number), and
``uniform_always`` as Ninety-Nine's does (a number even for a forced move): a game played
with it is the very game ``random`` plays.
"""

from numba import njit

from analyzer.games.hearts2 import view as H2
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


@njit
def hearts2_view_checked(view, legal, n, rng):
    """``uniform``, after checking the view it is given against what a hearts2 seat sees
    (tests/test_user_strategies.py: an ``mc`` base sees what a seat sees): its legal cards
    in its hand, no card both held and played, the tricks won summing to the tricks played,
    the game's target (100) and a hand number. A view short of these raises."""
    hand, played = view[H2.HAND], view[H2.PLAYED]
    for i in range(n):
        if not (hand >> legal[i]) & 1:
            raise ValueError("a legal card not in view[HAND]")
    if hand & played:
        raise ValueError("a card both held and played")
    if view[H2.TRICKS_WON] + view[H2.TRICKS_WON + 1] != view[H2.TRICK] or view[H2.TRICK] > 12:
        raise ValueError("tricks won do not add up to the tricks played")
    if view[H2.TARGET] != 100 or view[H2.HAND_NO] < 1 or view[H2.SEAT] < 0 or view[H2.SEAT] > 1:
        raise ValueError("the game's facts are missing from the view")
    if n == 1:
        return legal[0]
    return legal[randbelow(rng, n)]
