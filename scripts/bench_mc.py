#!/usr/bin/env python3
"""``mc`` against its yardstick (issue "Kernels at the limit", item 3), one core.

An ``mc`` decision plays rollouts: for each sample of the hidden cards, each move it tries
and then the base strategy for every seat to the end of the hand (Ninety-Nine: of its
``rounds``). Its yardstick is the same moves played by ``simulate``: moves per second of
games where every seat plays the base strategy (the rows' ``decisions`` column over the
time). ``mc`` keeps ``rollout moves per second of its decisions' time / simulate's moves per
second`` of the engine's speed; what it pays beyond the playouts is sampling the hidden
cards, copying the position and seeding each rollout's streams.

Each game's kernel counts, in ``mc_work`` (a bench-only entry point), the decisions ``mc``
searched (those with more than one distinct move) and the moves of their rollouts. The
time of those decisions is the CPU time of the games with one ``mc`` seat (the others
``heuristic``) less that of the same games played by ``heuristic`` alone, as
bench_search.py times them. Rates come from two run sizes where the games allow; CPU time of
this process, one worker; nothing here is asserted in tests.

    python scripts/bench_mc.py                  # every game, a Markdown table
    python scripts/bench_mc.py --game pitch10 --games 40
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402

import analyzer.jit  # noqa: E402,F401  (numba's set-up before any kernel)
from analyzer import api  # noqa: E402
from analyzer import games as registry  # noqa: E402

SEED = 11
BASE = "heuristic"  # mc's default base strategy, the yardstick's strategy too


@dataclass(frozen=True)
class MCSpeed:
    game: str
    decisions: int        # mc decisions searched
    rollout_moves: int    # moves played in their rollouts
    mc_cpu: float         # s: the games with the mc seat less the same games all heuristic
    sim_moves: int        # moves of simulate's all-heuristic games (the yardstick)
    sim_cpu: float        # s

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.mc_cpu

    @property
    def rollout_moves_per_second(self) -> float:
        return self.rollout_moves / self.mc_cpu

    @property
    def sim_moves_per_second(self) -> float:
        return self.sim_moves / self.sim_cpu

    @property
    def ratio(self) -> float:
        return self.rollout_moves_per_second / self.sim_moves_per_second


def _timed_games(game: str, seats: list[str], games: int, call) -> tuple[api.Setup, np.ndarray, float]:
    """(the run's set-up, out rows, CPU seconds) of ``games`` games, ``call(setup, out, err)`` playing them (after
    one game to compile or load the kernel); an illegal move fails the measure."""
    s = api.setup(game, None, seats, None)
    ncols = len(s.spec.columns(s.rules))

    def run(n: int) -> tuple[np.ndarray, float]:
        out = np.zeros((n, ncols), dtype=np.int64)
        err = np.full((n, 4), -1, dtype=np.int64)
        started = time.process_time()
        call(s, out, err)
        spent = time.process_time() - started
        if (err[:, 0] >= 0).any():
            raise RuntimeError(f"{game}: an illegal move in the run")
        return out, spent

    run(1)
    return (s, *run(games))


def _mc_run(game: str, seats: list[str], games: int) -> tuple[np.ndarray, float]:
    """(mc's counters, CPU seconds) of ``games`` games through the game's ``mc_work``."""
    work = np.zeros(2, dtype=np.int64)

    def call(s, out, err) -> None:
        s.spec.user_kernel([]).mc_work(np.uint64(SEED), np.int64(0), s.params, s.strat, out, err, work)

    _, _, spent = _timed_games(game, seats, games, call)
    return work.copy(), spent


def _plain_run(game: str, seats: list[str], games: int) -> tuple[int, float]:
    """(moves: the rows' ``decisions`` summed, CPU seconds) of ``games`` games of run_chunk,
    one block on one thread: ``simulate``'s kernel."""

    def call(s, out, err) -> None:
        s.run_chunk(np.uint64(SEED), np.int64(0), s.params, s.strat, out, err, np.int64(1))

    s, out, spent = _timed_games(game, seats, games, call)
    return int(out[:, s.spec.columns(s.rules).index("decisions")].sum()), spent


def measure(game: str, games: int, sim_games: int = 100_000) -> MCSpeed:
    spec = registry.get(game)
    players = spec.default_players
    work, with_mc = _mc_run(game, ["mc"] + [BASE] * (players - 1), games)
    _, alone = _plain_run(game, [BASE] * players, games)  # the same games, nobody searching
    moves, sim_cpu = _plain_run(game, [BASE] * players, sim_games)
    return MCSpeed(game, int(work[0]), int(work[1]), with_mc - alone, moves, sim_cpu)


def table(rows: list[MCSpeed]) -> str:
    head = ("| game | mc decisions | rollout moves | decisions/s | rollout moves/s | simulate moves/s | ratio |\n"
            "|---|---|---|---|---|---|---|\n")
    return head + "".join(
        f"| {r.game} | {r.decisions:,} | {r.rollout_moves:,} | {r.decisions_per_second:,.0f} | "
        f"{r.rollout_moves_per_second / 1e6:.2f}M | {r.sim_moves_per_second / 1e6:.2f}M | {r.ratio:.2f}x |\n"
        for r in rows)


def main() -> None:
    from analyzer.runner import set_workers

    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", type=script_cli.game, help="only this game (repeatable)")
    parser.add_argument("--games", type=script_cli.positive, default=20, help="games with the mc seat (default 20)")
    args = parser.parse_args()
    set_workers(1)
    print(table([measure(g, args.games) for g in args.game or registry.names()]))


if __name__ == "__main__":
    script_cli.run(main)
