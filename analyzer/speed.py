"""How long a strategy takes per decision: the search ladder's time column (report.py) and
``scripts/bench_search.py``.

One seat plays the strategy, the others ``heuristic``, on one worker; the time is the CPU
time of ``simulate`` (every thread of this process) less that of the same games with every
seat ``heuristic`` (the run's fixed costs and the other seats' play; so ``heuristic`` itself
and ``random`` show about 0), the decisions are the seat's decisions with a choice in the
records of the same games (``play`` records what ``simulate`` plays). A timing, not a result:
it depends on the machine and what else runs on it.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple


class DecisionSpeed(NamedTuple):
    game: str
    strategy: str
    games: int
    decisions: int       # the seat's decisions with more than one legal move
    cpu_seconds: float   # CPU time of the games
    base_seconds: float  # CPU time of the same games with every seat heuristic

    @property
    def ms_per_decision(self) -> float:
        return 1e3 * max(self.cpu_seconds - self.base_seconds, 0.0) / max(self.decisions, 1)

    @property
    def per_second(self) -> float:
        """Decisions per CPU second; inf when the games took no longer than heuristic's."""
        extra = self.cpu_seconds - self.base_seconds
        return self.decisions / extra if extra > 0 else math.inf


def decision_speeds(game: str, strategies: list[str], games: int, seed: int = 1,
                    rules: dict | None = None, timeout: float | None = None) -> list[DecisionSpeed]:
    """For each strategy: seat 0 plays it in ``games`` games of run ``seed`` (the others
    heuristic), against one timing of the same games played by heuristic alone. A game of
    another run is played first, untimed, with each strategy and with heuristic alone
    (compiling or loading both kernels' tiers). ``timeout``: as simulate's. A run stopped
    by Ctrl-C stops them all (KeyboardInterrupt): a timing of part of the games is none."""
    from analyzer import api

    def simulate(**options: Any) -> None:
        if api.simulate(game, workers=1, rules=rules, timeout=timeout, **options).interrupted:
            raise KeyboardInterrupt

    def cpu(seats: dict[int, str]) -> float:
        started = time.process_time()
        simulate(games=games, seed=seed, seats=seats)
        return time.process_time() - started

    for warm in [*strategies, "heuristic"]:  # each compile tier loaded before it is timed
        simulate(games=1, seed=seed + 1, seats={0: warm})
    base = cpu({0: "heuristic"})
    out = []
    for strategy in strategies:
        seats = {0: strategy}
        spent = cpu(seats)
        played = api.play(game, seed=seed, games=games, seats=seats, rules=rules, timeout=timeout)
        decisions = sum(1 for events in played
                        for ev in events if ev["ev"] == "decide" and ev["seat"] == 0 and len(ev["legal"]) > 1)
        out.append(DecisionSpeed(game, strategy, games, decisions, spent, base))
    return out

