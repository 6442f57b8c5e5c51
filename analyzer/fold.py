"""Folding per-game output rows into running sums, compiled and on all threads.

``Accumulator.add`` used to do this with numpy: one pass per statistic plus temporaries,
run on one thread while the game threads waited. For fast games (Pitch plays half a
million games per second per core) that serial step was a sixth of the run and kept two
cores from doubling the speed. Here one pass over a piece of the rows fills that piece's
partial sums, the pieces on the worker threads (``stats.Accumulator.add``,
``blocks.run_pieces``); the partials are then added up. All sums are exact int64, so the
result is identical to numpy's whatever the cutting.

Not numba's ``prange``: its OpenMP threads spin for a while after each parallel loop, and
they took the second core from the chunk's threads (``blocks``) that play the next games:
two workers played hearts2 7% slower (6.8M hands/s against 7.3M, 2026-12-05).
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import ix, njit


@njit(entry=True, nogil=True, cache=True)
def fold_rows(rows, players, pair_i, pair_j, sums, sumsq, wins, cross):
    """Add ``rows`` (int64[n, ncols], column 0 the winners bit mask) into the running sums.

    Writes (adds to): sums, sumsq int64[ncols] (per column), wins int64[players] (games
    each seat won), cross int64[npairs] (sum of rows[:, pair_i[k]] * rows[:, pair_j[k]]).
    """
    n, ncols = rows.shape
    npairs = pair_i.shape[0]
    # the sums in arrays of its own, added to the outputs at the end: numba cannot know that
    # the outputs and ``rows`` do not overlap, and writing them row by row ran at half speed
    part_sums = np.zeros(ncols, dtype=np.int64)
    part_sumsq = np.zeros(ncols, dtype=np.int64)
    part_wins = np.zeros(players, dtype=np.int64)
    part_cross = np.zeros(max(npairs, 1), dtype=np.int64)
    for g in range(n):
        for c in range(ncols):
            v = rows[g, c]
            part_sums[c] += v
            part_sumsq[c] += v * v
        winners = rows[g, 0]
        for s in range(players):
            part_wins[s] += (winners >> s) & 1
        for k in range(npairs):
            part_cross[k] += rows[g, ix(pair_i[k])] * rows[g, ix(pair_j[k])]
    for c in range(ncols):
        sums[c] += part_sums[c]
        sumsq[c] += part_sumsq[c]
    for s in range(players):
        wins[s] += part_wins[s]
    for k in range(npairs):
        cross[k] += part_cross[k]


@njit(cache=True)
def fold_pair_rows(out, is_x, share, margin, hands):
    """One pass over a chunk's rows (``out``: winners mask in column 0, hands in 1, seat
    scores from 3) for a seating where seat s plays X iff ``is_x[s]``: per game X's share of
    the winners (a shared win counts fractionally; 0 with no winner), the mean score of X's
    seats less that of Y's, and the hands. Compiled: on two cores the fold runs between the
    parallel chunks, and numpy's column passes made it a tenth of compare's time in Pitch.
    (Here, not in compare.py, so that compare's Python side compiles nothing: editing it
    recompiles no kernel.)"""
    players = is_x.shape[0]
    nx = 0
    for s in range(players):
        nx += is_x[s]
    ny = players - nx
    for g in range(out.shape[0]):
        winners = out[g, 0]
        won = 0
        won_x = 0
        score_x = 0.0
        score_y = 0.0
        for s in range(players):
            bit = (winners >> s) & 1
            won += bit
            if is_x[s]:
                won_x += bit
                score_x += out[g, 3 + s]
            else:
                score_y += out[g, 3 + s]
        share[g] = won_x / max(won, 1)
        margin[g] = score_x / nx - score_y / ny
        hands[g] = out[g, 1]
