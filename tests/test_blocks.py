"""blocks.in_blocks: a chunk's pieces on the worker threads give the rows one call gives.

The entry points here are plain Python functions with a chunk's arguments (``start``,
``nblocks``, row arrays): BlockEntry calls whatever it wraps. The games' own chunks are
checked across thread counts and chunk sizes by test_conformance."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from analyzer.blocks import in_blocks
from analyzer.jit import numba

THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


@pytest.fixture
def threads():
    before = numba.get_num_threads()
    numba.set_num_threads(THREADS)
    yield THREADS
    numba.set_num_threads(before)


def test_every_row_is_played_once_from_its_own_index_however_cut(threads):
    calls = []

    @in_blocks("rows", "twice")
    def chunk(seed, start, rows, twice, nblocks):
        calls.append((int(start), rows.shape[0], int(nblocks), threading.get_ident()))
        time.sleep(0.02)  # both pieces run at once
        for j in range(rows.shape[0]):
            rows[j] += start + j + seed
            twice[j, :] += 2 * (start + j)

    for n, nblocks in [(1, 1), (7, 1), (7, 3), (10, 4), (10, 10), (3, 8)]:
        calls.clear()
        rows = np.zeros(n, dtype=np.int64)
        twice = np.zeros((n, 2), dtype=np.int64)
        chunk(np.int64(100), np.int64(5), rows, twice, np.int64(nblocks))
        assert rows.tolist() == [105 + j for j in range(n)]
        assert twice.tolist() == [[2 * (5 + j)] * 2 for j in range(n)]
        pieces = min(threads, nblocks, n)  # one per thread
        if pieces == 1:
            assert [c[:3] for c in calls] == [(5, n, nblocks)]  # one call, as given
        else:
            assert sorted(c[:3] for c in calls) == [(5 + p * n // pieces, (p + 1) * n // pieces - p * n // pieces, 1)
                                                    for p in range(pieces)]
            assert len({c[3] for c in calls}) == pieces


def test_the_first_pieces_exception_is_raised_after_every_thread_is_done(threads):
    started = []

    @in_blocks("rows")
    def chunk(seed, start, rows, nblocks):
        started.append(int(start))
        if start == 0:
            time.sleep(0.05)  # the first piece fails last
        raise ValueError(f"piece from {int(start)}")

    with pytest.raises(ValueError, match="^piece from 0$"):
        chunk(np.int64(0), np.int64(0), np.zeros(8, dtype=np.int64), np.int64(4))
    assert sorted(started) == [0, 4][:threads]


def test_an_empty_chunk_is_one_call_as_given(threads):
    calls = []

    @in_blocks("rows")
    def chunk(seed, start, rows, nblocks):
        calls.append((int(start), rows.shape[0], int(nblocks)))

    chunk(np.int64(0), np.int64(9), np.zeros((0, 3), dtype=np.int64), np.int64(8))
    assert calls == [(9, 0, 8)]


_TWICE = """
import numpy as np
from numba.core import codegen
import analyzer.jit
from analyzer.blocks import in_blocks
from analyzer.jit import njit

runs = []
plain = codegen.CPUCodeLibrary._optimize_final_module
def counted(self):
    runs.append(self.name)
    return plain(self)
codegen.CPUCodeLibrary._optimize_final_module = counted

@njit
def add(rows, j, v):
    rows[j] += v

@in_blocks("rows", optimized_twice=True)
@njit(entry=True, nogil=True)
def twice(seed, start, rows, nblocks):
    for j in range(rows.shape[0]):
        add(rows, j, start + j)

@in_blocks("rows")
@njit(entry=True, nogil=True)
def once(seed, start, rows, nblocks):
    for j in range(rows.shape[0]):
        add(rows, j, start + j)

for chunk in (twice, once):
    rows = np.zeros(4, dtype=np.int64)
    chunk(np.int64(0), np.int64(3), rows, np.int64(2))
    assert rows.tolist() == [3, 4, 5, 6], rows
print(runs.count("twice"), runs.count("once"), runs.count("add"))
"""


def test_a_chunk_that_asks_is_optimized_twice_and_only_it():
    """jit.OPTIMIZED_TWICE: the library of an ``in_blocks(optimized_twice=True)`` entry is
    optimized twice when made into machine code, another entry's once, and a callee's (linked
    into both, kept as IR) never on its own."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _TWICE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2", "1", "0"]


def test_the_user_slots_keep_the_type_numba_gives_their_tuple():
    """engine.Slots: typed once, as the plain tuple of the same slots (the same compiled code
    and cache entries), and a kernel called with it plays as with the plain tuple."""
    from analyzer import api
    from analyzer.engine import Slots
    from analyzer.slots import SLOTS, empty_slot

    plain = tuple([empty_slot] * SLOTS)
    slots = Slots(plain)
    assert numba.typeof(slots) == numba.typeof(plain)
    assert "numba_type" in vars(slots)  # kept on the tuple, not typed again at the next call
    s = api.setup("hearts2")
    from analyzer.games.hearts2 import kernel

    rows = [np.zeros((50, len(s.spec.columns(s.rules))), dtype=np.int64) for _ in range(2)]
    for out, users in zip(rows, (plain, slots)):
        kernel.run_chunk(np.uint64(3), np.int64(0), s.params, s.strat, out, np.full((50, 4), -1, dtype=np.int64),
                         np.int64(2), users, ())
    assert rows[0].tolist() == rows[1].tolist() and rows[0][:, 0].any()
