"""Shared test helpers: run the real CLI entry point and capture what it prints."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture
def cli(capsys, monkeypatch):
    """``cli("simulate", "ninety-nine", ...)`` -> (exit code, stdout, stderr)."""
    from analyzer.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["analyzer", *map(str, args)])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
