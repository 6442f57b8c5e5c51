"""A Hearts (two players) strategy that blunders at known decisions, for tests/test_review.py.

``thrower`` plays as examples/hearts2.py's ``ducker`` (take as few points as possible),
except that whenever it is on lead holding QS with another card it could lead, it leads
QS: the opponent ducks under it with any lower spade and leaves the 13 points to us. A
review of its games must find those leads among its costliest decisions.
"""

import sys
from pathlib import Path

from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from hearts2 import ducker  # noqa: E402

from analyzer.games.hearts2.view import LED, QUEEN_OF_SPADES  # noqa: E402


@njit
def thrower(view, legal, n, rng):
    if view[LED] < 0 and n > 1:
        for i in range(n):
            if legal[i] == QUEEN_OF_SPADES:
                return QUEEN_OF_SPADES
    return ducker(view, legal, n, rng)
