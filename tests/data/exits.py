"""A user strategy module that ends the process while it is being loaded."""

import sys

from numba import njit

sys.exit(0)


@njit
def never(view, legal, n, rng):
    return legal[0]
