"""What the Python scripts of scripts/ share (a helper module, not a script of its own).

- ``Parser(__doc__)``: argparse with the script's whole docstring (what it does, examples) as
  its ``--help``, and a bad argument refused in one line, ``error: ...`` and exit status 2
  (argparse's own prints its usage first);
- ``game``, ``positive``, ``at_least_zero``: argument types checked before any work starts;
- ``run(main)``: the script's ``main``, with an error a user can cause (``AnalyzerError``:
  an unknown game or strategy, a bad option of the engine) printed as one line and exit
  status 2, not a traceback; Ctrl-C exits 130;
- ``write_atomic(path, text)``: a file written whole or not at all (a temporary file beside
  it, then renamed over it).

Each script finds the repository from its own path, not the current folder, so it runs from
anywhere: ``python /path/to/scripts/warm.py`` as ``python scripts/warm.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analyzer.errors import AnalyzerError  # noqa: E402  (no numba: a cheap import)


def fail(message: str, status: int = 2) -> None:
    """``error: MESSAGE`` on stderr, one line, and exit with ``status``."""
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    sys.exit(status)


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose ``--help`` is ``doc`` as written, examples included,
    and whose errors are one line (``error: ...``, exit status 2)."""

    def __init__(self, doc: str | None, **kwargs) -> None:
        super().__init__(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)

    def error(self, message: str) -> None:  # argparse: usage + "prog: error: ..." on two lines
        fail(f"{message} (see {self.prog} --help)")


def game(text: str) -> str:
    """A registered game's name (an argparse type): an unknown one is refused before any work.
    Nothing of the game is imported (numba neither: a script may set numba's environment after
    parsing its arguments, as compile_events.py does)."""
    from analyzer import games as registry

    name = text.strip().lower()
    if name not in registry.names():
        raise argparse.ArgumentTypeError(f"unknown game {text!r} (games: {', '.join(registry.names())})")
    return name


def positive(text: str) -> int:
    """An integer of at least 1 (an argparse type)."""
    return _integer(text, 1)


def at_least_zero(text: str) -> int:
    """An integer of at least 0 (an argparse type)."""
    return _integer(text, 0)


def _integer(text: str, low: int) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
    return value


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same folder,
    then renamed over ``path`` (an interrupted write leaves the old file as it was)."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(main: Callable[[], int | None]) -> None:
    """Run a script's ``main`` and exit with its status: an ``AnalyzerError`` (bad input) as
    one line ``error: ...`` and status 2, Ctrl-C as status 130, never a traceback for either."""
    try:
        status = main()
    except AnalyzerError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(status or 0)
