"""Compile every game's kernels into numba's cache, so that no later run waits for them.

``make warm`` runs it (and so ``make demo`` and ``make test``). Each game is warmed in a
process of its own, ``--jobs`` games at a time; within a game's process each step compiles
one entry point and tier, and the later steps reuse what the earlier ones typed:

1. simulate (``run_chunk``, base strategies),
2. play (``run_traced``) and evaluate at the first decision of that game (``evaluate_chunk``
   and the position's replay),
3. simulate and play with an ``mc`` seat (the search tier of ``run_chunk`` and ``run_traced``:
   records and a report's ladder timings need the latter), and evaluate with ``mc`` rollouts
   (the search tier of ``evaluate_chunk``).

    python scripts/warm.py                  # every game, two at a time
    python scripts/warm.py --jobs 1 hearts2 # only hearts2
    ANALYZER_CACHE_DIR=/tmp/cache python scripts/warm.py   # into another cache folder

It prints one line per game (``warm GAME: ok in N s``) and exits with status 0 when every
game warmed, 1 when one failed (its process's last output is shown), 2 on a bad argument.

A game whose kernels are already cached takes a second or two. The games are shared out
between ``--jobs`` lanes (each plays its games one after the other) so that the longest
lane is as short as it can be, by each game's ``warm_up_seconds`` (its GameSpec's): with two
lanes, the two longest warm-ups run one after the other, the three shorter ones beside them
(149 s against 166 s when the two longest started together, on an empty cache, one run after
the other, 2026-12-07).
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402


def warm_game(game: str) -> None:
    """The steps of the module docstring, in this process."""
    from analyzer import api, records

    api.simulate(game, games=2, seed=1, workers=1)
    played = api.play(game, seed=1)
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "warm.jsonl"
        record.write_text(records.to_jsonl(played))
        at = first_sampled(game, str(record), len([e for e in played[0] if e["ev"] == "decide"]))
        api.simulate(game, games=1, seed=1, seats={0: "mc:k=1"}, workers=1)
        api.play(game, seed=1, seats={0: "mc:k=1"})
        api.evaluate(game, record=str(record), at=at, samples=2, workers=1, rollout="mc:k=1")


def first_sampled(game: str, record: str, decisions: int) -> int:
    """The first decision of the record that ``evaluate`` samples (one whose options are all
    forced or equivalent is answered without the evaluation kernel), evaluated on the way."""
    from analyzer import api

    for at in range(1, decisions + 1):
        if api.evaluate(game, record=record, at=at, samples=20, workers=1).samples > 0:
            return at
    raise RuntimeError(f"{game}: no decision of the warm-up game is sampled")


def warm_up_seconds(game: str) -> float:
    """About how long ``game``'s warm-up takes: its spec's ``warm_up_seconds``."""
    from analyzer import games as registry

    return float(registry.get(game).warm_up_seconds)


def plan(seconds: dict[str, float], jobs: int) -> list[list[str]]:
    """The games shared out between ``jobs`` lanes so that the longest lane (the sum of its
    games' seconds) is as short as possible: every way tried when there are few (jobs ** games
    up to 100,000), else the longest game first into the lane that ends first. Each lane
    longest game first; no lane empty."""
    names = sorted(seconds, key=lambda g: -seconds[g])
    jobs = max(1, min(jobs, len(names)))
    if jobs ** len(names) > 100_000:
        return _greedy_lanes(names, seconds, jobs)

    def lanes_of(assignment: tuple[int, ...]) -> list[list[str]]:
        return [[g for g, k in zip(names, assignment) if k == lane] for lane in range(jobs)]

    def cost(assignment: tuple[int, ...]) -> tuple[float, float]:
        # the longest lane, then the most even split (no game waits behind another while a
        # lane is free)
        loads = [sum(seconds[g] for g in lane) for lane in lanes_of(assignment)]
        return max(loads), sum(x * x for x in loads)

    best = min(itertools.product(range(jobs), repeat=len(names)), key=cost)
    return [lane for lane in lanes_of(best) if lane]


def _greedy_lanes(names: list[str], seconds: dict[str, float], jobs: int) -> list[list[str]]:
    """``names`` (longest first) each into the lane that ends first so far."""
    lanes: list[list[str]] = [[] for _ in range(jobs)]
    for game in names:
        min(lanes, key=lambda lane: sum(seconds[g] for g in lane)).append(game)
    return lanes


def main() -> int:
    from analyzer import games as registry

    parser = script_cli.Parser(__doc__)
    parser.add_argument("games", nargs="*", type=script_cli.game, help="games to warm (default: every game)")
    parser.add_argument("--jobs", type=script_cli.positive, default=2, help="games compiled at a time (default 2)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a worker: warm here
    args = parser.parse_args()
    names = list(dict.fromkeys(args.games)) or registry.names()
    if args.one:
        for game in names:
            warm_game(game)
        return 0
    lanes = plan({game: warm_up_seconds(game) for game in names}, args.jobs)

    def run(game: str) -> int:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--one", game], capture_output=True, text=True)
        code = done.returncode
        status = "ok" if code == 0 else f"FAILED ({f'killed by signal {-code}' if code < 0 else f'exit status {code}'})"
        print(f"warm {game}: {status} in {time.perf_counter() - started:.0f} s", flush=True)
        if done.returncode:
            print(done.stderr[-3000:], file=sys.stderr)
        return done.returncode

    with ThreadPoolExecutor(len(lanes)) as pool:
        codes = [code for lane in pool.map(lambda games: [run(game) for game in games], lanes) for code in lane]
    # any failure fails the whole (a process killed by a signal has a negative status)
    return 1 if any(codes) else 0


if __name__ == "__main__":
    script_cli.run(main)
