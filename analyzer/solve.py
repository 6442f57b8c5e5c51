"""``analyzer solve``: the value of every legal move with every card known.

A game with a perfect-information solver (``GameSpec.has_solver``; its package's
``solver.py``) values each legal move of a full-information position: everyone plays
optimally from there, seeing every card (the value's meaning is the game's: its guide says
it). The position comes from a record (decision N of game K, every card as the record has
it) or from a JSON file with every hand given (format in the game's ``solver.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analyzer.errors import AnalyzerError
from analyzer.results import Result


@dataclass
class SolveResult(Result):
    """The options' exact values (``tables['options']``, best first), the node count."""

    game: str
    position: dict[str, Any]
    best: list[str]
    nodes: int
    elapsed: float
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    value_meaning: str = ""

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "position": self.position, "best": self.best, "nodes": self.nodes,
                "elapsed_s": round(self.elapsed, 4), "value": self.value_meaning}

    def verdict(self) -> str:
        options = self.tables["options"]
        top = options.iloc[0]["value"]
        line = f"Best: {', '.join(self.best)} (value {top:g})"
        rest = options[options["value"] != top]
        if len(rest):
            nxt = rest.iloc[0]
            line += f"; next {nxt['option']} ({nxt['value']:g}, {nxt['value'] - top:+g})"
        return line + f". Exact, with every card known ({self.nodes:,} nodes, {self.elapsed:.3f} s)."


def solve(game: str, position: dict[str, Any] | None = None, *, record: str | None = None, game_index: int = 0,
          at: int | None = None, rules: dict[str, Any] | None = None) -> SolveResult:
    """Solve a full-information position, or decision ``at`` of game ``game_index`` of a
    record file; returns the value of every legal move (SolveResult)."""
    from analyzer import games as registry
    from analyzer.evaluate import _read_record

    spec = registry.get(game)
    if not spec.has_solver:
        have = ", ".join(n for n in registry.names() if registry.get(n).has_solver) or "none yet"
        raise AnalyzerError(f"solve is not available for {spec.name} (games with a solver: {have})")
    solver = spec.module("solver")
    if (position is None) == (record is None):
        raise AnalyzerError("give the position one way: --position FILE.json, or --record FILE --at N")
    if record is not None:
        events = _read_record(record, game_index, spec.name)
        resolved = spec.resolve_rules(events[0].get("rules"))
        try:
            position = solver.position_at(events, at)
        except AnalyzerError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            what = f"missing key {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            raise AnalyzerError(f"record file {record}, game {game_index}: not a valid {spec.name} record "
                                f"({what})"[:300]) from None
    else:
        if not isinstance(position, dict):
            raise AnalyzerError("a position is a JSON object (a dict)")
        resolved = spec.resolve_rules({**(position.get("rules") or {}), **(rules or {})})
    started = time.perf_counter()
    answer = solver.solve_position(position, resolved)
    elapsed = time.perf_counter() - started
    options = pd.DataFrame(answer["options"]).sort_values("value", ascending=False, kind="stable")
    return SolveResult(spec.name, position, list(answer["best"]), int(answer["nodes"]), elapsed,
                       {"options": options.reset_index(drop=True)}, solver.VALUE)
