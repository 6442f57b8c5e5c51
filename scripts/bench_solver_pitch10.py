"""Speed of the 10-Point Pitch play-phase solver (analyzer/games/pitch10/solver.py), one core.

The deals are real: ``--games`` games recorded by ``analyzer.api.play`` (seed ``--seed``,
the given seat strategies: bidding, trump, refill and discards as they play them); every
round's first lead (the whole play phase: every trump of every seat) is solved, the value
of every card of the leader included, and the nodes per second and the median and 95th
percentile time per round are printed (CPU time of this process, which a busy machine
disturbs less than wall time; both are printed). One table (2**``--bits`` rows) serves
every round (its entries stay valid from call to call); ``--fresh`` gives each round an
empty table instead (the cost of clearing it is not timed). The first solve (compiling or
loading the cache) is not timed.

    .venv/bin/python scripts/bench_solver_pitch10.py --games 40 --seed 1
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import script_cli  # noqa: E402

from analyzer import api
from analyzer.games.pitch10 import solver
from solver_times import SolverTimes


def first_leads(games: int, seed: int, seats: list[str]) -> list[dict]:
    """The position at the first play decision of every round of the recorded games."""
    out = []
    for events in api.play("pitch10", seed=seed, index=0, games=games, seats=seats):
        decisions = [ev for ev in events if ev["ev"] == "decide"]
        hands_seen = set()
        for at, ev in enumerate(decisions, start=1):
            if ev["kind"] != "play":
                continue
            position = solver.position_at(events, at)
            if position["hand"] not in hands_seen:
                hands_seen.add(position["hand"])
                out.append(solver.parse_position(position))
    return out


def measure(games: int = 80, seed: int = 1, seats: str = "heuristic", bits: int = solver.DEFAULT_TT_BITS,
            fresh: bool = False) -> SolverTimes:
    """Solve every round's first lead of ``games`` recorded games: CPU and wall seconds per round."""
    rounds = first_leads(games, seed, [seats] * 4)
    tt = solver.new_table(bits)
    moves = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)

    def solve(pos):
        """solve_moves at the round's first lead: (cards of the leader, nodes)."""
        return solver.solve_moves(np.array(pos["h16"], dtype=np.int64), np.int64(pos["leader"]),
                                  np.int64(pos["turn"]), np.int64(pos["win_k"]), np.int64(pos["win_seat"]),
                                  np.int64(pos["trick_points"]), np.int64(pos["taken0"]), np.int64(pos["taken1"]),
                                  tt, moves, values)

    solve(rounds[0])  # compile or load, warm the table's pages
    tt[:] = 0
    times, walls, nodes, vals = [], [], 0, []
    for pos in rounds:
        if fresh:
            tt[:] = 0
        start, cpu = time.perf_counter(), time.process_time()
        _, k = solve(pos)
        times.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
        nodes += k
        vals.append(int(values[0]))
    return SolverTimes("pitch10", f"a play phase from its first lead ({len(rounds):,} rounds of {games:,} "
                       f"{seats} games)", np.array(times), np.array(walls), nodes, np.array(vals))


def main() -> None:
    """Parse the options, solve the rounds, print the figures."""
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--games", type=script_cli.positive, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="heuristic", help="the strategy of every seat")
    parser.add_argument("--bits", type=int, default=solver.DEFAULT_TT_BITS)
    parser.add_argument("--fresh", action="store_true", help="an empty table for every round")
    args = parser.parse_args()
    m = measure(args.games, args.seed, args.seats, args.bits, args.fresh)
    print(f"{m.what}; table 2**{args.bits} rows{' (fresh each round)' if args.fresh else ' (shared)'}")
    print(m.summary())


if __name__ == "__main__":
    script_cli.run(main)
