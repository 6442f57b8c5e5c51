"""Shared test helpers: run the real CLI entry point and capture what it prints; load a
script of ``scripts/`` as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


def load_script(name: str):
    """``scripts/<name>.py`` as a module (scripts are not a package)."""
    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def exit_status_of_main() -> int:
    """Run the CLI's entry point on the ``sys.argv`` set by the caller: its exit status."""
    from analyzer.cli import main

    try:
        main()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


@pytest.fixture
def cli(capsys, monkeypatch):
    """``cli("simulate", "ninety-nine", ...)`` -> (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["analyzer", *map(str, args)])
        code = exit_status_of_main()
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
