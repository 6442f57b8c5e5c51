"""A command that runs a user strategy runs in a child process, watched by this one, so that
a crash of the compiled code is said in one line rather than as the shell's "Segmentation
fault" and status 139.

Compiled code has no stack limit a strategy can meet gracefully: a user strategy that
recurses without end (or too deep) overflows the stack, and the process dies of SIGSEGV with
no word (reads and writes outside an array are bounds-checked: engine.bounds_checked). The
command line (``analyzer``, ``python -m analyzer``) forks before it imports the engine; the
parent waits, and if the child died of a signal of a crash it says so, removes the partial
files the child left (the temporary files of ``io.atomic_path``, noted in a list file the
child appends to) and exits 3, as for any fault of a strategy. Otherwise it exits with the
child's status. The child writes no core file, and dies with the parent (Linux: a parent
killed with SIGKILL cannot pass it on).

Signals: Ctrl-C at a terminal reaches both processes (one process group): the child stops as
it does alone, the parent only waits. A signal sent to the parent's pid alone (``kill``,
``Popen.send_signal``) is passed on to the child. Only commands that name a user strategy
(``path.py:function`` in an argument, or in a batch job file) are watched, and only where the
system has ``fork`` and ``sigwaitinfo`` (Linux); the others run in this process as before.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

#: the environment variable that gives the child the file to note its temporary files in
PARTS_FILE = "ANALYZER_PARTS_FILE"

def _signals(*names: str) -> tuple:
    """The signals of ``names`` this system has (Windows lacks most)."""
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


#: the signals of a crash of compiled code
CRASHES = _signals("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT")
#: passed on to the child when sent to the parent's pid alone
PASSED_ON = _signals("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
#: a signal a process sent with kill() (si_code <= 0: SI_USER, SI_QUEUE, SI_TKILL); one from
#: the terminal (SI_KERNEL) reached the child too
_SENT_BY_A_PROCESS = 0

#: exit status of a fault of a strategy (cli.main)
STRATEGY_FAULT = 3


#: a user strategy as named on a command line or in a job file: ``path.py:function``, a
#: stretch of text between two of these characters (at most one strategy in each)
_BETWEEN = re.compile(r"[=,'\"\n]")
_USER_STRATEGY = re.compile(r".+\.py:[A-Za-z_]\w*")


#: bytes of a batch job file read for user strategies (a job file is a few lines)
_JOB_FILE_AT_MOST = 1 << 20


def user_strategies_named(args: list[str]) -> list[str]:
    """The user strategies (``path.py:function``) a command line runs: in its arguments (a
    seat, a compared strategy, a rollout, a search strategy's base, a report's strategies),
    or in the text of a ``batch`` job file; in order, once each."""
    texts = list(args)
    if "batch" in args:  # the job file: whatever its name, a small file among the arguments
        for arg in args[args.index("batch") + 1:]:
            try:
                if Path(arg).is_file() and Path(arg).stat().st_size <= _JOB_FILE_AT_MOST:
                    texts.append(Path(arg).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                pass
    # each stretch matched on its own, and only where it holds ".py:": a search of the whole
    # text tried every start of a long stretch (a 90,000-character --hand: 14 s)
    stretches = (s for text in texts if ".py:" in text for s in _BETWEEN.split(text) if ".py:" in s)
    found = (_USER_STRATEGY.match(s) for s in stretches)
    return list(dict.fromkeys(m.group().strip() for m in found if m))


def run_watched(strategies: list[str]) -> int | None:
    """Fork: in the child, return None (the caller runs the command); in the parent, wait
    for the child and return the exit status to end with (``strategies``: the user
    strategies it runs, named if it crashes). Where the system lacks ``fork`` or
    ``sigwaitinfo`` (Windows, macOS) it returns None at once: the command runs unwatched."""
    if not hasattr(os, "fork") or not hasattr(signal, "sigwaitinfo"):
        return None
    import tempfile

    fd, parts = tempfile.mkstemp(prefix="analyzer-parts-", suffix=".txt")
    os.close(fd)
    watched = {*PASSED_ON, signal.SIGCHLD}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, watched)  # none lost between fork and wait
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        _die_with(parent)
        _no_core_file()
        os.environ[PARTS_FILE] = parts
        return None
    try:
        return _exit_status(_wait(pid, watched), strategies, parts)
    finally:
        Path(parts).unlink(missing_ok=True)


def _exit_status(status: int, strategies: list[str], parts: str) -> int:
    """The command's exit status from its child's wait ``status``: the child's own; after a
    crash, the strategy fault's, said in one line, its partial files removed."""
    if not os.WIFSIGNALED(status):
        return os.WEXITSTATUS(status)
    _remove_parts(parts)
    if os.WTERMSIG(status) not in CRASHES:  # killed (SIGKILL: out of memory?), as a shell says it
        return 128 + os.WTERMSIG(status)
    name = signal.Signals(os.WTERMSIG(status)).name
    who = f"user strateg{'ies' if len(strategies) > 1 else 'y'} {', '.join(strategies)}"
    print(f"error: the engine crashed ({name}) while {who} played: a strategy that recurses "
          "without end (or too deep) overflows the stack", file=sys.stderr)
    return STRATEGY_FAULT


def compiled_prints_to_stderr() -> None:
    """Send what compiled code prints to stderr: a user strategy's ``print`` (numba writes it
    through ``sys.stdout``) runs on the kernels' threads, never on the main one, which
    alone writes the command's output (a table, ``--json``) and keeps ``sys.stdout``. Once
    per process."""
    if not isinstance(sys.stdout, _MainThreadOnly):
        sys.stdout = _MainThreadOnly(sys.stdout, sys.stderr)


class _MainThreadOnly:
    """``sys.stdout`` for the main thread; what other threads write goes to ``elsewhere``."""

    def __init__(self, stream, elsewhere) -> None:
        self._stream = stream
        self._elsewhere = elsewhere

    def write(self, text: str) -> int:
        import threading

        main = threading.current_thread() is threading.main_thread()
        return (self._stream if main else self._elsewhere).write(text)

    def flush(self) -> None:
        self._stream.flush()
        self._elsewhere.flush()

    def __getattr__(self, name: str):  # encoding, isatty, fileno, ...: the stream's own
        return getattr(self._stream, name)


def _die_with(parent: int) -> None:
    """In the child: be killed when the watching process dies (Linux; a SIGKILL it cannot
    pass on), so that no strategy spins on unwatched."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the child outlives a killed parent
        return
    if os.getppid() != parent:  # it died before the call
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def _no_core_file() -> None:
    """In the child: a crash writes no core file into the working folder (nothing is written
    by a failed command; the parent says what happened)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    except (ImportError, OSError, ValueError):
        pass


def _wait(pid: int, watched: set) -> int:
    """The child's wait status, passing on what was sent to this process alone."""
    while True:
        info = signal.sigwaitinfo(watched)
        if info.si_signo == signal.SIGCHLD:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
        elif info.si_code <= _SENT_BY_A_PROCESS:
            try:
                os.kill(pid, info.si_signo)
            except ProcessLookupError:
                pass


def note_part(path: str, done: bool = False) -> None:
    """In a watched child: note a temporary file made (or, ``done``, gone), for the parent to
    remove after a crash."""
    parts = os.environ.get(PARTS_FILE)
    if not parts:
        return
    try:
        with open(parts, "a", encoding="utf-8") as file:
            file.write(f"{'-' if done else '+'}{path}\n")
    except OSError:
        pass


def note_folder(path: str, kept: str = "", done: bool = False) -> None:
    """In a watched child: note a folder made for the command's output (or, ``done``, dealt
    with by the command), for the parent to remove after a crash unless it holds a file
    matching ``kept`` (a glob, e.g. ``*.pkl``: a batch job's saved chunks; none: removed)."""
    note_part(f"{kept}\t{path}", done)


def _remove_parts(parts: str) -> None:
    """Remove the temporary files the crashed child made and did not finish, and the folders
    it made that hold nothing to keep (``note_folder``)."""
    import shutil

    left: dict[str, None] = {}
    try:
        lines = Path(parts).read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    for line in lines:
        if line.startswith("+"):
            left[line[1:]] = None
        elif line.startswith("-"):
            left.pop(line[1:], None)
    for entry in left:
        kept, tab, path = entry.partition("\t")
        if not tab:
            Path(entry).unlink(missing_ok=True)
        elif not kept or not any(Path(path).rglob(kept)):
            shutil.rmtree(path, ignore_errors=True)
