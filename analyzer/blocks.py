"""A chunk's games (or samples) played on the worker threads, a piece per call.

A chunk entry point (``run_chunk``, ``evaluate_chunk``, ...) plays rows ``0 .. n-1`` of its
row arrays, row ``j`` being game (or sample) ``start + j``, each drawn from its own random
streams (seed, start + j). So any piece of the rows, played on its own as rows ``lo .. hi-1``
from ``start + lo``, gives the very same rows: the result does not depend on how the chunk
is cut or on how many threads play it.

``in_blocks`` makes such an entry point parallel: its rows are cut in one piece per thread
(numba's thread count, ``numba.get_num_threads()`` of the calling thread, which
``runner.set_workers`` sets; at most ``nblocks``), each piece one call of the compiled entry
on a thread of its own, which releases the GIL (``nogil=True``). numba's own ``prange`` did
this inside the entry, but its parallel loop made numba link and optimize the whole game's
code again for the loop's body: a game's warm-up compiled 15-20% longer (Pitch 102 to 84
CPU-s, Twenty-Two 83 to 66, Two-Ten-Jack 87 to 69; 2026-12-05).

A chunk entry is declared with ``@in_blocks("out", "err")`` (its row arrays) over numba's
decorator with ``entry=True, nogil=True``; its body loops over ``range(nblocks)`` and plays
each block's rows (every game's ``run_chunk`` in its ``kernel.py``). This module compiles
nothing, so that editing it recompiles no kernel (jit._compiled_files).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import threading
from typing import Callable

import numpy as np


def threads_for(pieces: int) -> int:
    """How many threads play ``pieces`` pieces: numba's thread count of the calling thread
    (runner.set_workers), at most one per piece; one under ``--debug`` (plain Python)."""
    from analyzer.jit import DEBUG, numba

    return 1 if DEBUG else max(1, min(numba.get_num_threads(), pieces))


def run_pieces(n: int, pieces: int, play: Callable[[int, int, int], None]) -> None:
    """``play(p, lo, hi)`` for each piece ``p`` of rows ``0 .. n-1`` cut in ``pieces``
    (rows ``p * n // pieces`` up to the next piece's first), on ``threads_for(pieces)``
    threads, this one among them; each takes the next piece as it finishes. An exception
    in a piece is raised here once every thread is done: the first piece's, in row order."""
    bounds = [(p * n // pieces, (p + 1) * n // pieces) for p in range(pieces)]
    errors: dict[int, BaseException] = {}
    taken = itertools.count()  # next() is atomic under the GIL: each piece is taken once

    def work() -> None:
        while (p := next(taken)) < pieces:
            try:
                play(p, *bounds[p])
            except BaseException as exc:  # noqa: BLE001 - raised in the caller below
                errors[p] = exc
                return

    # daemon: a piece stuck in a user strategy's loop must not keep the process alive
    # (runner.call_interruptibly abandons the call, runner.kernel_left_running ends it)
    helpers = [threading.Thread(target=work, daemon=True) for _ in range(threads_for(pieces) - 1)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[min(errors)]


class BlockEntry:
    """A chunk entry point whose ``nblocks`` pieces are played on the worker threads.

    Called as the entry point itself (same arguments). With one thread (or ``nblocks`` 1,
    or one row) the compiled entry plays its ``nblocks`` blocks in this thread; otherwise
    the rows are cut in one piece per thread (``run_pieces``), each piece one call with its
    row arrays sliced, ``start`` moved on and ``nblocks`` 1. An exception in a piece is
    raised here once every thread is done: the first piece's, in row order."""

    def __init__(self, entry: Callable, rows: tuple[str, ...]) -> None:
        self.entry = entry
        self.py_func = getattr(entry, "py_func", entry)  # engine._python, inspect
        names = list(inspect.signature(self.py_func).parameters)
        self._rows = [names.index(name) for name in rows]
        self._start = names.index("start")
        self._nblocks = names.index("nblocks")
        functools.update_wrapper(self, self.py_func)

    def __getattr__(self, name: str):
        if name == "entry":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.entry, name)  # the dispatcher's own (stats, signatures, ...)

    def __call__(self, *args):
        n = args[self._rows[0]].shape[0]
        # one piece per thread, as prange's static schedule gave each thread one range: each
        # call costs numba's dispatch, 0.5 ms under the GIL (the typing of the user slots'
        # tuple), and eight pieces a chunk made two workers 3-5% slower
        threads = threads_for(min(int(args[self._nblocks]), n))
        if threads <= 1:
            return self.entry(*args)
        run_pieces(n, threads, lambda p, lo, hi: self.entry(*self._piece(args, lo, hi)))

    def _piece(self, args: tuple, lo: int, hi: int) -> list:
        piece = list(args)
        for at in self._rows:
            piece[at] = args[at][lo:hi]
        piece[self._start] = np.int64(args[self._start] + lo)
        piece[self._nblocks] = np.int64(1)
        return piece


def in_blocks(*rows: str, optimized_twice: bool = False) -> Callable[[Callable], BlockEntry]:
    """Decorator: the compiled chunk entry point below it, played in pieces on the worker
    threads (``BlockEntry``). ``rows``: its arguments holding one row per game or sample
    (the first gives the number of rows); it must also take ``start`` and ``nblocks``.

    ``optimized_twice``: LLVM optimizes the entry's code (with everything it calls) twice, as
    numba's ``prange`` did (its loop's body, then the entry around it; jit.OPTIMIZED_TWICE).
    Only where it pays: Pitch's heuristic played 6% slower optimized once, while hearts2
    played 3% faster and the other games alike (paired runs, 2026-12-05); it costs some
    seconds of compiling per entry."""
    from analyzer.jit import OPTIMIZED_TWICE

    def wrap(entry: Callable) -> BlockEntry:
        wrapped = BlockEntry(entry, rows)
        if optimized_twice:
            OPTIMIZED_TWICE.add((wrapped.py_func.__module__, wrapped.py_func.__qualname__))
        return wrapped

    return wrap
