"""The trace buffer: how a compiled game writes its record events.

A trace is an ``int64[rows, 5]`` array. Row 0 is a header: ``[rows used, overflow flag,
0, 0, 0]``. Every other row is ``[event code, a, b, c, d]``; the meaning of the codes and
fields belongs to each game (its ``spec.py`` decodes them into docs/record.md events). A list
(a hand, a stock, the legal moves) is written as consecutive rows ``[LIST, tag, value, 0, 0]``
right after the event that owns it.

Kernels take the trace as an argument and a flag ``tracing``; with the flag off they never
touch it, so the fast runs and the records come from the same compiled code.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

WIDTH = 5
LIST = -1


def new_trace(rows: int) -> np.ndarray:
    trace = np.zeros((max(rows, 2), WIDTH), dtype=np.int64)
    trace[0, 0] = 1
    return trace


@njit(cache=True)
def emit(trace: np.ndarray, code: np.int64, a: np.int64, b: np.int64, c: np.int64, d: np.int64) -> None:
    """Append one event row; on overflow set the flag and drop the row."""
    row = trace[0, 0]
    if row >= trace.shape[0]:
        trace[0, 1] = 1
        return
    trace[row, 0] = code
    trace[row, 1] = a
    trace[row, 2] = b
    trace[row, 3] = c
    trace[row, 4] = d
    trace[0, 0] = row + 1


@njit(cache=True)
def emit_list(trace: np.ndarray, tag: np.int64, values: np.ndarray, n: np.int64) -> None:
    """Append ``values[:n]`` as LIST rows tagged ``tag``."""
    for i in range(n):
        emit(trace, LIST, tag, values[i], 0, 0)


def split_lists(events: np.ndarray) -> list[tuple[list[int], dict[int, list[int]]]]:
    """Group rows into (event row, {tag: list values}) pairs."""
    grouped: list[tuple[list[int], dict[int, list[int]]]] = []
    for row in events.tolist():
        if row[0] == LIST:
            grouped[-1][1].setdefault(row[1], []).append(row[2])
        else:
            grouped.append((row, {}))
    return grouped
