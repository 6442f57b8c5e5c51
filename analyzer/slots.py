"""The compiled side of the user strategy slots (analyzer.engine): their one signature,
how many a kernel receives, and the empty slot. Apart from engine.py, whose Python side
(binding, notices) can then change without recompiling any kernel (analyzer.jit keys the
kernels' cache on the shared files that compile cached code)."""

from __future__ import annotations

from analyzer.jit import njit, numba

#: the type of every user strategy slot: ``(view, legal, n, rng) -> move``
USER_SIGNATURE = numba.types.int64(numba.types.int64[::1], numba.types.int64[::1], numba.types.int64,
                                   numba.types.uint64[::1])
#: user strategy slots a kernel receives (a tuple of this length, the unused ones empty): one
#: length for every run, so that the kernels compile (and cache) once
SLOTS = 10


@njit(USER_SIGNATURE, cache=True)
def empty_slot(view, legal, n, rng):
    """A slot no seat plays (a seat with user strategy ``-1 - slot`` only reaches filled ones)."""
    return -1
