"""Folding per-game output rows into running sums, compiled and on all threads.

``Accumulator.add`` used to do this with numpy: one pass per statistic plus temporaries,
run on one thread while the game threads waited. For fast games (Pitch plays half a
million games per second per core) that serial step was a sixth of the run and kept two
cores from doubling the speed. Here one pass per block of rows fills per-block partial
sums in parallel; the partials are then added up. All sums are exact int64, so the result
is identical to numpy's whatever the blocking.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import ix, njit, prange


@njit(entry=True, cache=True, parallel=True)
def fold_rows(rows, players, pair_i, pair_j, nblocks, sums, sumsq, wins, cross):
    """Add ``rows`` (int64[n, ncols], column 0 the winners bit mask) into the running sums.

    Writes (adds to): sums, sumsq int64[ncols] (per column), wins int64[players] (games
    each seat won), cross int64[npairs] (sum of rows[:, pair_i[k]] * rows[:, pair_j[k]]).
    """
    n, ncols = rows.shape
    npairs = pair_i.shape[0]
    part_sums = np.zeros((nblocks, ncols), dtype=np.int64)
    part_sumsq = np.zeros((nblocks, ncols), dtype=np.int64)
    part_wins = np.zeros((nblocks, players), dtype=np.int64)
    part_cross = np.zeros((nblocks, max(npairs, 1)), dtype=np.int64)
    for b in prange(nblocks):
        for g in range(b * n // nblocks, (b + 1) * n // nblocks):
            for c in range(ncols):
                v = rows[g, c]
                part_sums[b, c] += v
                part_sumsq[b, c] += v * v
            winners = rows[g, 0]
            for s in range(players):
                part_wins[b, s] += (winners >> s) & 1
            for k in range(npairs):
                part_cross[b, k] += rows[g, ix(pair_i[k])] * rows[g, ix(pair_j[k])]
    for b in range(nblocks):
        for c in range(ncols):
            sums[c] += part_sums[b, c]
            sumsq[c] += part_sumsq[b, c]
        for s in range(players):
            wins[s] += part_wins[b, s]
        for k in range(npairs):
            cross[k] += part_cross[b, k]
