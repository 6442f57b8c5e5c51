"""Hostile user strategies: each tries to hurt the engine in its own way (tests/test_robustness.py)."""

import numpy as np
from numba import njit


@njit
def smuggle(view, legal, n, rng):
    """Writes a move that is not legal into the list it was given, and returns it."""
    c = 0
    while True:
        found = False
        for i in range(n):
            if legal[i] == c:
                found = True
        if not found:
            break
        c += 1
    legal[0] = c
    return c


@njit
def out_of_bounds(view, legal, n, rng):
    """Reads far past the end of its array."""
    return legal[n + 100_000]


@njit
def raises(view, legal, n, rng):
    if n > 0:
        raise ValueError("this strategy gives up")
    return legal[0]


@njit
def returns_float(view, legal, n, rng):
    return legal[0] + 0.5


@njit
def loops(view, legal, n, rng):
    """Never returns."""
    i = 0
    while i >= 0:
        i = (i + 1) & 0xFFFF
    return legal[0]


@njit
def _past_the_end(legal, n):
    legal[n + 100_000] = 0  # a write far outside the array
    return legal[0]


@njit
def out_of_bounds_in_helper(view, legal, n, rng):
    """Writes far past the end of its array, in a helper of its own."""
    return _past_the_end(legal, n)


@njit
def _deeper(k, legal):
    if k < 0:  # never: k only grows
        return legal[0]
    return _deeper(k + 1, legal) + 0  # not a tail call: each level keeps its frame


@njit
def recurses(view, legal, n, rng):
    """Recurses without end: compiled code overflows the stack (SIGSEGV)."""
    return _deeper(0, legal)


@njit
def hogs_memory(view, legal, n, rng):
    """Asks for 8 PB: more than a 64-bit process can address, whatever the system lends."""
    table = np.zeros(10**15, dtype=np.int64)
    return legal[0] + table[0]


class GaveUp(Exception):
    """An exception of the strategy's own."""


@njit
def raises_a_kind(view, legal, n, rng, kind=0):
    """Raises an exception class of its own (``kind`` 0) or a RuntimeError (1)."""
    if n > 0 and kind == 0:
        raise GaveUp("no idea what to play")
    if n > 0:
        raise RuntimeError("stuck")
    return legal[0]
