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

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from analyzer.jit import njit

WIDTH = 5
LIST = -1
#: the last event of a traced game stopped by a user strategy's illegal move (``emit_refused``);
#: the games' own event codes are positive
REFUSED = -2


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


@njit(cache=True)
def emit_refused(trace: np.ndarray, seat: np.int64, move: np.int64, legal: np.ndarray, n: np.int64) -> None:
    """End the trace of a game stopped by an illegal move: ``[REFUSED, seat, move, 0, 0]``
    and the legal moves ``legal[:n]`` (tag 0), as the engine made them, so that the error can
    name them (``refused_legal``)."""
    emit(trace, REFUSED, seat, move, 0, 0)
    emit_list(trace, 0, legal, n)


def refused_legal(rows: np.ndarray) -> list[int] | None:
    """The legal moves of the decision at which a traced game stopped on an illegal move
    (its trace rows ending with ``emit_refused``), or None if it did not stop so."""
    rows = np.asarray(rows)
    refused = np.flatnonzero(rows[:, 0] == REFUSED)
    if not refused.size:
        return None
    tail = rows[refused[-1] + 1:]
    return tail[tail[:, 0] == LIST, 2].tolist()


#: the lists of an event that has none (shared, read-only)
_NO_LISTS: Mapping[int, list[int]] = MappingProxyType({})


def split_lists(events: np.ndarray) -> list[tuple[list[int], Mapping[int, list[int]]]]:
    """Group rows into (event row, {tag: list values}) pairs, each list in the order written.

    Vectorized: a record's rows are mostly LIST rows (hands, legal moves), and a Python loop
    over every row was most of the time ``play`` took (Pitch: 5 ms of a game's 7)."""
    events = np.asarray(events)
    is_event = events[:, 0] != LIST
    rows = events[is_event].tolist()
    listed = ~is_event
    lists_of: dict[int, dict[int, list[int]]] = {}
    if listed.any():
        owner = np.cumsum(is_event)[listed] - 1  # the event each LIST row follows
        tags, values = events[listed, 1], events[listed, 2]
        low = tags.min()
        key = owner * (tags.max() - low + 1) + (tags - low)
        order = np.argsort(key, kind="stable")  # stable: each list in the order it was written
        key, values = key[order], values[order].tolist()
        cuts = (np.flatnonzero(key[1:] != key[:-1]) + 1).tolist()
        starts = [0, *cuts]
        for event, tag, start, end in zip(owner[order][starts].tolist(), tags[order][starts].tolist(), starts,
                                          [*cuts, len(values)]):
            lists_of.setdefault(event, {})[tag] = values[start:end]
    return [(row, lists_of.get(i, _NO_LISTS)) for i, row in enumerate(rows)]
