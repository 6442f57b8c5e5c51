"""A user strategy that prints, as it loads and at each decision (tests/test_robustness.py)."""

from numba import njit

print("noisy.py loading")


@njit
def talks(view, legal, n, rng):
    print("choosing among", n)
    return legal[0]
