"""Chunked execution of a game kernel on local threads.

Games are played in chunks; each chunk's output rows are folded into running sums (and,
when asked, streamed to a file), so memory is flat in the number of games. Because every
game draws from its own stream (rng.py), results do not depend on the chunk size or on
the number of threads. Ctrl-C stops after the chunk in flight and returns what was done.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.errors import AnalyzerError, StrategyError, StrategyTimeout
from analyzer.stats import Accumulator

#: a chunk aims at this many seconds, so progress and Ctrl-C stay responsive
CHUNK_SECONDS = 0.25
MIN_CHUNK, MAX_CHUNK = 256, 1 << 17


class _KernelThread:
    """The long-lived helper thread kernel calls run on (``call_interruptibly``).

    One thread serves every call of the process, one call at a time. A fresh thread per
    call cost the second core a quarter of its work in ``compare`` (Ninety-Nine 1.65x on
    two cores against 1.94x on one long-lived thread): each new thread starts a new
    OpenMP team, whose threads the scheduler first places beside the busy ones. A call
    abandoned by Ctrl-C or ``--timeout`` keeps this thread until it ends; the thread then
    stops, and the next call starts a new one.
    """

    def __init__(self) -> None:
        import queue
        import threading

        self.pid = os.getpid()
        self.abandoned = False
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="analyzer-kernel", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.abandoned:
            self.jobs.get()()

    def usable(self) -> bool:
        """Alive, in this process (a forked child has none of its parent's threads), not abandoned."""
        return not self.abandoned and self.pid == os.getpid() and self.thread.is_alive()


_KERNEL_THREAD: _KernelThread | None = None
_ABANDONED: list[_KernelThread] = []


def _kernel_thread() -> _KernelThread:
    global _KERNEL_THREAD
    if _KERNEL_THREAD is None or not _KERNEL_THREAD.usable():
        _KERNEL_THREAD = _KernelThread()
    return _KERNEL_THREAD


def call_interruptibly(fn: Callable, *args, timeout: float | None = None, what: str = "a chunk"):
    """``fn(*args)`` on the kernel thread (_KernelThread), waited for here in small steps.

    Compiled kernels run without Python's attention, so a Ctrl-C (or SIGTERM) would wait
    for the whole chunk, and for ever behind a user strategy stuck in a loop. Waiting here
    keeps the main thread free to take the signal at once: the interrupt is raised in the
    caller while the abandoned chunk finishes (or spins) on its own; nothing of it is used.
    ``timeout`` (seconds) raises StrategyError when the call takes longer (``what`` it
    plays names it in the message), not counting the time numba spends compiling in it.
    """
    import threading

    from analyzer.jit import numba

    box: dict[str, object] = {}
    done = threading.Event()
    # numba's thread count is per calling thread: the kernel's thread takes this one's
    # (set_workers), or --workers 1 would still run on every core
    threads = numba.get_num_threads()

    def job() -> None:
        try:
            numba.set_num_threads(threads)
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed over to the caller
            box["error"] = exc
        finally:
            box["played"] = _played_for(started)
            done.set()

    while BEFORE_KERNEL:  # e.g. the CLI's "compiling ..." notice, once the input has been checked
        BEFORE_KERNEL.pop()()
    helper = _kernel_thread()
    started = time.perf_counter()
    helper.jobs.put(job)
    too_long = f"{what} took longer than --timeout {timeout or 0:g} s: a strategy may be stuck in a loop"
    try:
        while not done.wait(0.05):
            if timeout is not None and _played_for(started) > timeout:
                raise StrategyTimeout(too_long)
        # a call that ended between two looks is held to the same limit (a --timeout under
        # the 0.05 s between looks was never enforced)
        if timeout is not None and box["played"] > timeout and "error" not in box:
            raise StrategyTimeout(too_long)
    finally:
        if not done.is_set():  # interrupted or timed out: the call runs on, on its own
            helper.abandoned = True
            helper.jobs.put(lambda: None)  # wakes the thread to stop, should the call end
            _ABANDONED.append(helper)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


def check_timeout(timeout: float | None) -> None:
    """A ``--timeout`` is a positive number of seconds (or None: no limit)."""
    if timeout is not None and not timeout > 0:
        raise AnalyzerError(f"--timeout must be a positive number of seconds, not {timeout}")


def _played_for(started: float) -> float:
    """Seconds a kernel call begun at ``started`` has played since numba last compiled (0
    while it compiles)."""
    from analyzer.jit import compile_ended

    ended = compile_ended()
    return 0.0 if ended is None else time.perf_counter() - max(started, ended)


#: callbacks run once, just before the next kernel call
BEFORE_KERNEL: list[Callable[[], None]] = []


def kernel_left_running() -> bool:
    """Whether a kernel call was abandoned (Ctrl-C, --timeout) and still runs on its thread:
    then the process must end at once rather than wait for it or tear it down."""
    return any(helper.thread.is_alive() and helper.pid == os.getpid() for helper in _ABANDONED)


@dataclass
class RunResult:
    acc: Accumulator
    games: int
    elapsed: float
    interrupted: bool


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def set_workers(workers: int | None) -> int:
    """Set numba's thread count; ``None`` means all cores."""
    from analyzer.jit import numba

    limit = numba.config.NUMBA_NUM_THREADS
    if workers is None:
        workers = min(available_cores(), limit)
    if not 1 <= workers <= limit:
        raise AnalyzerError(f"--workers must be between 1 and {limit} on this machine, not {workers}")
    numba.set_num_threads(workers)
    return workers


class Progress:
    """A rich progress bar that only appears once a run looks longer than ~2 s."""

    def __init__(self, total: int, label: str, enabled: bool, unit: str = "games") -> None:
        self.total, self.label, self.enabled, self.unit = total, label, enabled, unit
        self.bar = None
        self.task = None
        self.started = time.perf_counter()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.started
        if self.bar is None:
            remaining = elapsed / max(done, 1) * (self.total - done)
            if elapsed < 0.3 or elapsed + remaining < 2.0:
                return
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                       TaskProgressColumn, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)
            from rich.console import Console

            self.bar = RichProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TaskProgressColumn(), TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total, rate="")
        rate = done / elapsed if elapsed > 0 else 0.0
        self.bar.update(self.task, completed=done, rate=f"{rate:,.0f} {self.unit}/s")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@dataclass
class Arm:
    """One way of playing every deal: a kernel, its rule parameters and strategy array."""

    run_chunk: Callable
    params: np.ndarray
    strat: np.ndarray
    ncols: int
    seating: list[int] = field(default_factory=list)
    #: ``describe(seed, game index, err row)``: the illegal-move message naming the strategy
    describe: Callable[[int, int, np.ndarray], str] | None = None
    #: False once its comparison is decided (compare's ``each_pair``): run_arms plays it no more
    active: bool = True


def _check_errors(arm: Arm, seed: int, first: int, err: np.ndarray) -> None:
    """Raise StrategyError for the first game of the chunk (game ``first`` + row) in which a
    strategy returned an illegal move (``err`` rows: decision, seat, move; -1 when fine)."""
    bad = np.flatnonzero(err[:, 0] >= 0)
    if bad.size:
        g = int(bad[0])
        if arm.describe is not None:
            raise StrategyError(arm.describe(seed, first + g, err[g]))
        raise StrategyError(f"a strategy returned an illegal move {int(err[g, 2])} in game {first + g}, "
                            f"decision {int(err[g, 0])} (seat {int(err[g, 1])})")


def run_arms(arms: list[Arm], seed: int, n_games: int, on_chunk: Callable[[int, list[np.ndarray]], bool], *,
             workers: int | None = None, progress: bool = False, label: str = "games",
             boundaries: list[int] | None = None, first_index: int = 0, chunk: int | None = None,
             timeout: float | None = None) -> tuple[int, float, bool]:
    """The one chunk executor (simulate, compare, variant studies, batch chunks): play games
    ``first_index .. first_index + n_games - 1`` under every arm, chunk by chunk, on the same
    streams, checking every arm's strategy errors.

    ``chunk`` fixes the chunk size (default: about CHUNK_SECONDS per chunk). Chunks never
    straddle a value of ``boundaries`` (the looks of a sequential test). ``on_chunk(done,
    rows_per_arm)`` folds the rows of the games up to ``done``; returning True stops early.
    ``timeout``: a chunk taking longer raises StrategyError. An arm that ``on_chunk`` made
    inactive (``arm.active = False``) is played no more: its rows are None. Returns (games
    played, seconds of play, interrupted): the time excludes compiling (each kernel is first
    called on an empty chunk).
    """
    threads = set_workers(workers)
    for arm in arms:
        call_interruptibly(arm.run_chunk, np.uint64(seed), np.int64(first_index), arm.params, arm.strat,
                           np.zeros((0, arm.ncols), dtype=np.int64), np.full((0, 4), -1, dtype=np.int64), np.int64(1))
    bar = Progress(n_games, label, progress)
    started = time.perf_counter()
    done, size, interrupted = 0, chunk or MIN_CHUNK * 4, False
    stops = sorted(set(boundaries or []) | {n_games})
    try:
        while done < n_games:
            n = min(size, next(b for b in stops if b > done) - done)
            t0 = time.perf_counter()
            rows = []
            for arm in arms:
                if not arm.active:
                    rows.append(None)
                    continue
                out = np.zeros((n, arm.ncols), dtype=np.int64)
                err = np.full((n, 4), -1, dtype=np.int64)
                call_interruptibly(arm.run_chunk, np.uint64(seed), np.int64(first_index + done), arm.params,
                                   arm.strat, out, err, np.int64(min(n, 4 * threads)), timeout=timeout)
                _check_errors(arm, seed, first_index + done, err)
                rows.append(out)
            spent = time.perf_counter() - t0
            done += n
            bar.update(done)
            if on_chunk(done, rows):
                break
            if chunk is None:
                size = int(min(MAX_CHUNK, max(MIN_CHUNK, n / max(spent, 1e-6) * CHUNK_SECONDS)))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    return done, time.perf_counter() - started, interrupted


def run_games(
    kernel: Callable,
    seed: int,
    n_games: int,
    params: np.ndarray,
    strat: np.ndarray,
    acc: Accumulator,
    *,
    workers: int | None = None,
    describe_error: Callable[[int, int, np.ndarray], str] | None = None,
    on_rows: Callable[[int, np.ndarray], None] | None = None,
    progress: bool = False,
    label: str = "games",
    chunk: int | None = None,
    first_index: int = 0,
    timeout: float | None = None,
) -> RunResult:
    """Play games ``first_index .. first_index + n_games - 1`` of run ``seed`` (one arm of
    ``run_arms``). ``kernel`` is a game's ``run_chunk``; rows go to ``acc`` and
    ``on_rows(start, rows)``. A strategy's illegal move raises :class:`StrategyError` with
    ``describe_error``'s text.
    """
    acc.warm()
    arm = Arm(kernel, params, strat, len(acc.columns), describe=describe_error)

    def fold(done: int, rows: list[np.ndarray]) -> bool:
        acc.add(rows[0])
        if on_rows is not None:
            on_rows(first_index + done - len(rows[0]), rows[0])
        return False

    done, elapsed, interrupted = run_arms([arm], seed, n_games, fold, workers=workers, progress=progress,
                                          label=label, first_index=first_index, chunk=chunk, timeout=timeout)
    return RunResult(acc, done, elapsed, interrupted)
