"""The game registry: name -> GameSpec, imported lazily (no numba at import)."""

from __future__ import annotations

import importlib

from analyzer.errors import AnalyzerError
from analyzer.games.base import GameSpec

#: Registered games and the package holding their ``spec.py``.
GAMES: dict[str, str] = {
    "ninety-nine": "analyzer.games.ninety_nine",
}

_loaded: dict[str, GameSpec] = {}


def names() -> list[str]:
    return list(GAMES)


def get(name: str) -> GameSpec:
    """The spec of a game by its name; a clear error for an unknown one."""
    key = name.strip().lower()
    if key not in GAMES:
        raise AnalyzerError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(GAMES[key] + ".spec").SPEC
    return _loaded[key]
