"""Run ``analyzer ARGS`` commands as real processes, forked from one interpreter that has
already imported the engine (tests/test_robustness.py's corpus: about 40 commands).

A new ``python -m analyzer`` pays seconds of imports for each command; a process forked
from this one pays none, and is still a process of its own: its own working folder and
file descriptors 1 and 2, its exit status, a traceback printed as the interpreter prints
it, a crash or a hang seen from outside (the parent kills it at the timeout).

As a program (``python forkrun.py``) it serves requests: one JSON line on stdin
``{"args": [...], "cwd": "...", "timeout": 120}`` -> one JSON line on stdout
``{"returncode": int, "stdout": str, "stderr": str}`` (returncode -9: killed at the timeout).
``Runner`` is the test side. Nothing runs a kernel before a fork, so no thread pool is
inherited by the children.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(args: list[str], cwd: str, out_path: str, err_path: str) -> None:
    """In the forked child: the interpreter's own ``python -m analyzer ARGS``, then exit."""
    import atexit
    import traceback

    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # not the parent's stream of requests
    os.dup2(os.open(out_path, os.O_WRONLY), 1)
    os.dup2(os.open(err_path, os.O_WRONLY), 2)
    code = 1
    try:
        os.chdir(cwd)
        sys.argv = ["analyzer", *args]
        from analyzer.cli import entry

        entry()  # as python -m analyzer runs it
        code = 0
    except SystemExit as exc:  # as the interpreter maps sys.exit's argument
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - an uncaught exception: a traceback and status 1
        traceback.print_exc()
    try:
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _serve_one(request: dict) -> dict:
    # plain files, removed here: no tempfile finalizer that the child's exit would run
    paths = [tempfile.mkstemp(prefix="forkrun-")[1] for _ in range(2)]
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request["args"], request["cwd"], *paths)
        deadline = time.monotonic() + request.get("timeout", 120)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                _, status = os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        out, err = (Path(p).read_text(encoding="utf-8", errors="replace") for p in paths)
        return {"returncode": os.waitstatus_to_exitcode(status), "stdout": out, "stderr": err}
    finally:
        for path in paths:
            os.unlink(path)


def serve() -> None:
    import analyzer.api  # noqa: F401 - the imports every command needs, paid once
    import analyzer.cli  # noqa: F401
    from analyzer import games as registry

    for name in registry.names():  # and each game's modules (imports only: nothing compiles or runs)
        registry.get(name).module("kernel")

    for line in sys.stdin:
        reply = _serve_one(json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


class Runner:
    """The test side: ``Runner(env).run(*args, cwd=..., timeout=...)`` ->
    ``subprocess.CompletedProcess`` with text stdout and stderr. The server starts at the
    first ``run`` (a module's runner costs nothing until one of its tests runs a command);
    ``close`` stops it, if it started."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.proc: subprocess.Popen | None = None

    def run(self, *args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
        if self.proc is None:
            self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, env=self.env)
        self.proc.stdin.write(json.dumps({"args": list(args), "cwd": str(cwd), "timeout": timeout}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        return subprocess.CompletedProcess(list(args), reply["returncode"], reply["stdout"], reply["stderr"])

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
            self.proc = None


if __name__ == "__main__":
    serve()
