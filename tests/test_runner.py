"""The runner: chunking, running sums, Ctrl-C, and flat memory by construction."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.runner import run_games
from analyzer.stats import Accumulator


def fake_kernel(calls: list[int], interrupt_at: int | None = None):
    """A stand-in kernel: game g gets winners mask 1 << (g % 2) and g as its hand count."""

    def kernel(seed, start, params, strat, out, err, nblocks):
        calls.append(out.shape[0])
        if interrupt_at is not None and len(calls) == interrupt_at:
            raise KeyboardInterrupt
        idx = np.arange(start, start + out.shape[0])
        out[:, 0] = 1 << (idx % 2)
        out[:, 1] = idx
        out[:, 2] = 1

    return kernel


def test_chunks_fold_into_running_sums():
    calls: list[int] = []
    acc = Accumulator(["winners", "hands", "decisions"], players=2)
    result = run_games(fake_kernel(calls), 1, 1000, np.zeros(1, np.int64), np.zeros((2, 4), np.int64),
                       acc, workers=1, chunk=300)
    assert calls == [0, 300, 300, 300, 100]  # an empty chunk first: the compile, apart from the timing
    assert result.games == 1000 and not result.interrupted
    assert acc.n == 1000 and list(acc.wins) == [500, 500]
    assert acc.col("hands")[0] == sum(range(1000))


def test_ctrl_c_stops_cleanly_and_keeps_what_was_done():
    calls: list[int] = []
    acc = Accumulator(["winners", "hands", "decisions"], players=2)
    result = run_games(fake_kernel(calls, interrupt_at=4), 1, 1000, np.zeros(1, np.int64),
                       np.zeros((2, 4), np.int64), acc, workers=1, chunk=300)
    assert result.interrupted and result.games == 600 and acc.n == 600


@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_fold_matches_plain_numpy_sums(threads):
    """Accumulator.add folds rows in compiled pieces, one per worker thread (one piece on one
    thread, two on two); check it against numpy."""
    from analyzer.jit import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        rng = np.random.default_rng(5)
        columns = ["winners", "hands", "a", "b", "c"]
        acc = Accumulator(columns, 3, [("a", "hands"), ("c", "b")])
        chunks = [rng.integers(-50, 1000, size=(n, len(columns))) for n in (1, 700, 5000, 33333)]
        for rows in chunks:
            rows[:, 0] = rng.integers(0, 8, size=rows.shape[0])  # winners: a bit mask of 3 seats
            acc.add(rows)
    finally:
        numba.set_num_threads(before)
    every = np.concatenate(chunks)
    assert acc.n == every.shape[0]
    assert acc.sums.tolist() == every.sum(axis=0).tolist()
    assert acc.sumsq.tolist() == (every * every).sum(axis=0).tolist()
    assert acc.wins.tolist() == [int(((every[:, 0] >> s) & 1).sum()) for s in range(3)]
    assert acc.cross.tolist() == [int((every[:, 2] * every[:, 1]).sum()), int((every[:, 4] * every[:, 3]).sum())]


def test_the_kernel_thread_runs_on_the_workers_asked_for():
    """numba's thread count is per thread, and kernels run on a helper thread: it must take
    the count set_workers gave the caller (--workers 1 ran on every core before)."""
    from analyzer.jit import numba
    from analyzer.runner import call_interruptibly, set_workers

    before = numba.get_num_threads()
    try:
        for workers in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            set_workers(workers)
            assert call_interruptibly(numba.get_num_threads) == workers
    finally:
        numba.set_num_threads(before)


def test_kernel_calls_share_one_long_lived_thread():
    """A fresh thread per call started a fresh OpenMP team each time, which cost the second
    core a quarter of its work in compare: calls reuse one helper thread."""
    import threading

    from analyzer.runner import call_interruptibly

    first = call_interruptibly(threading.current_thread)
    assert call_interruptibly(threading.current_thread) is first is not threading.current_thread()


def test_a_call_abandoned_at_its_timeout_keeps_its_thread_and_the_next_call_gets_another():
    import threading
    import time

    from analyzer import runner
    from analyzer.errors import StrategyError

    release = threading.Event()
    with pytest.raises(StrategyError, match="--timeout"):
        runner.call_interruptibly(release.wait, 30.0, timeout=0.1)
    abandoned = runner._ABANDONED[-1]
    assert abandoned.thread.is_alive() and runner.kernel_left_running()
    assert runner.call_interruptibly(threading.current_thread) is not abandoned.thread
    release.set()  # the abandoned call returns: its thread ends
    abandoned.thread.join(5.0)
    assert not abandoned.thread.is_alive()


def test_a_timeout_does_not_count_the_compiling():
    """A first run compiles its kernels (up to a minute) inside the call a --timeout
    watches: that must not read as a strategy stuck in a loop. A function compiled at its
    first call, whose compile alone takes longer than the timeout, passes; the same time
    spent playing does not."""
    import time

    from analyzer import runner
    from analyzer.errors import StrategyError
    from analyzer.jit import njit

    @njit
    def freshly_compiled(n):
        total = 0.0
        for i in range(n):
            a = np.arange(i + 1) * 1.5
            total += np.sort(a)[::-1].sum() + np.cumsum(a).max() + np.linalg.norm(a)
        return total

    timeout = 0.05
    started = time.perf_counter()
    assert runner.call_interruptibly(freshly_compiled, 3, timeout=timeout) > 0
    assert time.perf_counter() - started > 4 * timeout  # the compile alone outlasted the timeout
    with pytest.raises(StrategyError, match="--timeout"):
        runner.call_interruptibly(time.sleep, 4 * timeout, timeout=timeout)
    # a call that ends between two of the caller's looks (every 0.05 s) is held to it too:
    # a --timeout shorter than that was never enforced
    with pytest.raises(StrategyError, match="--timeout 0.005 s"):
        runner.call_interruptibly(time.sleep, 0.03, timeout=0.005)
    assert runner.call_interruptibly(time.sleep, 0.001, timeout=5.0) is None
