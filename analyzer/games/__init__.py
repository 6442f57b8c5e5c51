"""The game registry: name -> GameSpec, imported lazily (no numba at import)."""

from __future__ import annotations

import importlib
import importlib.util

from analyzer.errors import AnalyzerError
from analyzer.games.base import GameSpec, PositionFlag

#: Registered games and the package holding their ``spec.py``.
GAMES: dict[str, str] = {
    "twenty-two": "analyzer.games.twenty_two",
    "ninety-nine": "analyzer.games.ninety_nine",
    "hearts2": "analyzer.games.hearts2",
    "two-ten-jack": "analyzer.games.two_ten_jack",
    "pitch10": "analyzer.games.pitch10",
}

_loaded: dict[str, GameSpec] = {}


def _present(package: str) -> bool:
    try:
        return importlib.util.find_spec(package + ".spec") is not None
    except ModuleNotFoundError:
        return False


def names() -> list[str]:
    """The games whose package is present (all five once the project is complete)."""
    return [name for name, package in GAMES.items() if _present(package)]


def get(name: str) -> GameSpec:
    """The spec of a game by its name; a clear error for an unknown one."""
    key = name.strip().lower()
    if key not in names():
        raise AnalyzerError(f"unknown game {name!r} (games: {', '.join(names())})")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(GAMES[key] + ".spec").SPEC
    return _loaded[key]


def position_flags() -> list[PositionFlag]:
    """The position flags every game declares (``POSITION_FLAGS`` in its package, which every game has), one per
    name, for the CLI's ``evaluate``; importing them does not import a game's spec or kernels."""
    flags: dict[str, PositionFlag] = {}
    for name in names():
        for flag in importlib.import_module(GAMES[name]).POSITION_FLAGS:
            flags.setdefault(flag.name, flag)
    return list(flags.values())
