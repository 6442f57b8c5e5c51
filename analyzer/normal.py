"""Compiled sums over the normal distribution, for ``stats`` (which stays plain numpy).

``stats.prob_best`` integrates, for each option, a product of normal CDFs over a grid: some
k^2 x 1701 values of ``erfc``. numpy could only call Python's ``math.erfc`` once per value
(``np.vectorize``), which took 6.7 of the 19.7 s of a 96-option evaluation (Twenty-Two's
discard, 20,000 samples). Compiled, with the same ``erfc`` (the C library's, bit for bit)
and the same order of products, it gives the same numbers.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit


@njit(entry=True, cache=True)
def cdf_products(means, a, z):
    """float64[k, len(z)]: row i is ``prod_{j != i} Phi((means[i] - means[j]) / a + z[t])``
    over the grid ``z`` (Phi the standard normal CDF, ``0.5 erfc(-x / sqrt 2)``), the factors
    multiplied in the order of j. A product that reaches 0 stays 0: its loop stops there."""
    k = means.shape[0]
    out = np.empty((k, z.shape[0]))
    root2 = math.sqrt(2.0)
    for i in range(k):
        for t in range(z.shape[0]):
            p = 1.0
            for j in range(k):
                if j != i:
                    p *= 0.5 * math.erfc(-((means[i] - means[j]) / a + z[t]) / root2)
                    if p == 0.0:
                        break
            out[i, t] = p
    return out
