"""Speed of the solvers and of the search strategies (issue "Strong play", item 7), one core.

- Solvers: nodes per second and the median and 95th percentile CPU time of a solve, over
  ``--deals`` deals (scripts/bench_solver_<game>.py measure them: a Hearts hand from its first
  lead, a Pitch play phase from its first lead, a Two-Ten-Jack round from the point its stock
  is empty).
- Search strategies (``mc``, ``pimc``, ``ismcts``) at their default budget: decisions per second
  of one seat playing it (the others ``heuristic``; the time of the same games played by
  ``heuristic`` alone subtracted), counting the decisions with a choice (analyzer.speed,
  which the reports' search ladder uses too).

    python scripts/bench_search.py                    # every game, a Markdown table of each
    python scripts/bench_search.py --game hearts2 --deals 200 --games 4

``bench.py`` prints these tables too. Timings are CPU time of this process on whatever else
the machine is doing; nothing here is asserted in tests.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402

from analyzer import api  # noqa: E402
from analyzer import games as registry  # noqa: E402
from analyzer.speed import DecisionSpeed, decision_speeds  # noqa: E402
from solver_times import SolverTimes  # noqa: E402

#: the search strategies, each at its default budget, where a game has them
SEARCH = ("mc", "pimc", "ismcts")


def solver_timings(games: list[str], deals: int) -> list[SolverTimes]:
    """Each solver game's measure (deals for Hearts and Two-Ten-Jack; Pitch solves every round
    of recorded games, about 14 rounds a game, so it plays ``deals // 14`` games)."""
    import bench_solver_hearts2
    import bench_solver_pitch10
    import bench_solver_two_ten_jack

    runs = {"hearts2": lambda: bench_solver_hearts2.measure(deals),
            "two-ten-jack": lambda: bench_solver_two_ten_jack.measure(deals, stock_left=0),
            "pitch10": lambda: bench_solver_pitch10.measure(max(1, deals // 14))}
    return [runs[g]() for g in games if g in runs]


def solver_table(rows: list[SolverTimes]) -> str:
    head = ("| solver | what is solved | nodes/s | median | 95th percentile |\n"
            "|---|---|---|---|---|\n")
    return head + "".join(
        f"| {r.game} | {r.what} | {r.nodes_per_second / 1e6:.1f}M | {np.median(r.cpu) * 1e3:.3f} ms | "
        f"{np.percentile(r.cpu, 95) * 1e3:.3f} ms |\n" for r in rows)


def search_speeds(games: list[str], per_run: int) -> list[DecisionSpeed]:
    return [x for g in games
            for x in decision_speeds(g, [s for s in SEARCH if s in registry.get(g).strategies], per_run)]


def search_table(rows: list[DecisionSpeed]) -> str:
    head = ("| game | strategy (default budget) | decisions timed | decisions/s | ms per decision |\n"
            "|---|---|---|---|---|\n")
    return head + "".join(
        f"| {r.game} | `{r.strategy}` | {r.decisions:,} | "
        f"{f'{r.per_second:,.0f}' if math.isfinite(r.per_second) else 'no slower than heuristic'} | "
        f"{r.ms_per_decision:.2f} |\n"
        for r in rows)


def report(games: list[str], deals: int, per_run: int) -> str:
    """Both tables as Markdown, with a line on how they were measured."""
    solvers = solver_timings(games, deals)
    text = ""
    if solvers:
        text += (f"\nSolvers, one core, CPU time ({deals:,} deals; Pitch: every round of recorded "
                 "heuristic games):\n\n" + solver_table(solvers))
    text += (f"\nSearch strategies at their default budget, one seat (the others `heuristic`), one core, "
             f"CPU time of {per_run} games less that of the same games played by `heuristic` alone:\n\n" + search_table(search_speeds(games, per_run)))
    return text


def main() -> None:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", type=script_cli.game, help="only this game (repeatable)")
    parser.add_argument("--deals", type=script_cli.positive, default=1000, help="deals per solver")
    parser.add_argument("--games", type=script_cli.positive, default=10, help="games per search strategy")
    args = parser.parse_args()
    print(report(args.game or registry.names(), args.deals, args.games))


if __name__ == "__main__":
    script_cli.run(main)
