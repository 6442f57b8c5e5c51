"""The compiled side of the user strategy slots (analyzer.engine): their one signature,
how many a kernel receives, and the empty slot. Apart from engine.py, whose Python side
(binding, notices) can then change without recompiling any kernel (analyzer.jit keys the
kernels' cache on the shared files that compile cached code)."""

from __future__ import annotations

from analyzer.jit import njit, numba

#: the type of every user strategy slot: ``(view, legal, n, rng) -> move``
USER_SIGNATURE = numba.types.int64(numba.types.int64[::1], numba.types.int64[::1], numba.types.int64,
                                   numba.types.uint64[::1])
#: what an illegal user move raises where no ``err`` row can say it (the evaluation kernels,
#: a search strategy's user base): ValueError(ILLEGAL_MARK, move, seat, n, the first
#: NAMED_LEGAL legal codes, -1 past n) from ``refuse_move``; api.user_guard reads it
ILLEGAL_MARK = "analyzer: user strategy returned an illegal move"
#: legal moves an illegal-move error names (the rest are counted)
NAMED_LEGAL = 12
#: user strategy slots a kernel receives (a tuple of this length, the unused ones empty): one
#: length for every run, so that the kernels compile (and cache) once
SLOTS = 10


@njit(USER_SIGNATURE, cache=True)
def empty_slot(view, legal, n, rng):
    """A slot no seat plays (a seat with user strategy ``-1 - slot`` only reaches filled ones)."""
    return -1


@njit(forceinline=True)
def _legal_at(legal, n, i):
    return legal[i] if i < n else -1


# with reference counting whatever its caller's flags: the exception's values are held in
# memory numba's runtime allocates
@njit(cache=True, _nrt=True)
def refuse_move(move, seat, legal, n):
    """Raise ValueError(ILLEGAL_MARK, move, seat, n, legal[0], ..., legal[NAMED_LEGAL - 1])
    for a user strategy's ``move`` outside ``legal[:n]`` (the engine's own list, codes) at
    ``seat``'s decision, the codes past ``n`` given as -1 (api.user_guard names them)."""
    raise ValueError(ILLEGAL_MARK, move, seat, n, _legal_at(legal, n, 0), _legal_at(legal, n, 1),
                     _legal_at(legal, n, 2), _legal_at(legal, n, 3), _legal_at(legal, n, 4),
                     _legal_at(legal, n, 5), _legal_at(legal, n, 6), _legal_at(legal, n, 7),
                     _legal_at(legal, n, 8), _legal_at(legal, n, 9), _legal_at(legal, n, 10),
                     _legal_at(legal, n, 11))
