#!/usr/bin/env python3
"""Benchmark every game and strategy pair: hands per second on one core and on all cores,
games per second, cold and warm compile time, and the wall time of the CLI for 1M hands.

    python scripts/bench.py                      # all games, prints a Markdown table
    python scripts/bench.py --game ninety-nine   # one game
    python scripts/bench.py --update-readme      # also rewrite the tables in README.md
    python scripts/bench.py --memory             # peak memory of 10k vs 10M games (slow)
    python scripts/bench.py --no-search          # without the solver and search tables
    python scripts/bench.py --no-scaling         # without compare's and batch's two-core table

The solver and search-strategy tables come from scripts/bench_search.py (also runnable alone).
It prints a line per game and strategy as it goes, then the tables (Markdown, those of
README.md's "Benchmarks"). The quickest run, ``--game hearts2 --no-search --no-eval --no-mc
--no-scaling``, took 2.3 minutes on a busy 2-core machine (the first table, the ``mc:k=32``
rates, the C yardstick and the user-strategy price are always measured, the cold start in a
fresh cache); a full run measures every game and table, many times that. ``--update-readme`` replaces what lies between README.md's ``<!-- bench:start -->``
and ``<!-- bench:end -->`` (nothing else), so it needs every game and every table: it is
refused with ``--game`` or a ``--no-...`` option, before anything is measured.

Timings are wall-clock on whatever else the machine is doing: run it on a quiet machine.
Nothing here is asserted in tests (performance is measured, not asserted).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))  # bench_c, script_cli

import script_cli  # noqa: E402

from analyzer import api  # noqa: E402
from analyzer import games as registry  # noqa: E402
from analyzer.runner import available_cores  # noqa: E402

PAIRS = ("random", "heuristic")
TARGET_SECONDS = 2.0


def rate(game: str, strategy: str, workers: int, players: int | None) -> tuple[float, float, float]:
    """(hands/s, games/s, hands per game) for a run of about TARGET_SECONDS, best of two."""
    spec = registry.get(game)
    p = players or spec.default_players
    seats = [strategy] * p
    probe = api.simulate(game, games=200, seed=1, players=p, seats=seats, workers=workers)
    per_game = probe.hands / probe.games
    games = 1000
    while True:
        s = api.simulate(game, games=games, seed=1, players=p, seats=seats, workers=workers)
        if s.elapsed > 0.5 or games >= 50_000_000:
            break
        games *= 4
    games = max(1000, int(games * TARGET_SECONDS / max(s.elapsed, 1e-3)))
    best = None
    for seed in (2, 3):
        s = api.simulate(game, games=games, seed=seed, players=p, seats=seats, workers=workers)
        value = (s.hands / s.elapsed, s.games / s.elapsed)
        best = value if best is None or value[0] > best[0] else best
    return best[0], best[1], per_game


def timed_subprocess(code: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    return time.perf_counter() - started


def compile_times(game: str) -> tuple[float, float]:
    """(cold, warm) seconds for a fresh process to import, compile or load, and play 10 games."""
    code = (f"from analyzer import api; api.simulate({game!r}, games=10, seed=1, seats={{0: 'random'}})")
    with tempfile.TemporaryDirectory() as cache:
        cold = timed_subprocess(code, {**os.environ, "NUMBA_CACHE_DIR": cache})
    timed_subprocess(code, dict(os.environ))  # make sure the normal cache is filled
    warm = timed_subprocess(code, dict(os.environ))
    return cold, warm


def cli_wall(game: str, hands_per_game: float, hands: int = 1_000_000) -> float:
    games = max(1, int(hands / hands_per_game))
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "analyzer"), "simulate", game, "--games", str(games),
                    "--seed", "1", "--json"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def peak_memory_mb(game: str, games: int) -> float:
    out = subprocess.run(
        ["/usr/bin/env", "python3", "-c",
         "import resource, subprocess, sys;"
         f"subprocess.run([{str(Path(sys.executable).parent / 'analyzer')!r}, 'simulate', {game!r}, '--games', '{games}', '--json'],"
         " stdout=subprocess.DEVNULL, check=True);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"],
        check=True, capture_output=True, text=True)
    return int(out.stdout.strip()) / 1024


def mc_rate(game: str, k: int = 32) -> float:
    """Hands per second on one core with one ``mc:k=K`` seat (the others heuristic)."""
    api.simulate(game, games=5, seed=1, seats={0: f"mc:k={k}"}, workers=1)
    games = 50
    while True:
        s = api.simulate(game, games=games, seed=2, seats={0: f"mc:k={k}"}, workers=1)
        if s.elapsed > 2.0 or games > 100_000:
            return s.hands / s.elapsed
        games *= 2


#: a user strategy drawing a uniform legal move as the built-in ``random`` does (tests/data)
USER_RANDOM = ROOT / "tests" / "data" / "user_random.py"


def user_cost(game: str) -> tuple[float, float]:
    """(hands/s of built-in random, hands/s of a user strategy that reimplements it) on one
    core, every seat, CPU time, two run sizes (bench_c's method): the price of a user slot."""
    import bench_c

    spec = registry.get(game)
    p = spec.default_players
    rates = []
    for strategy in ("random", f"{USER_RANDOM}:uniform"):
        seats = [strategy] * p
        api.simulate(game, games=200, seed=1, players=p, seats=seats, workers=1)  # compile / load

        def run(games: int, seats=seats) -> tuple[float, float]:
            started = time.process_time()
            s = api.simulate(game, games=games, seed=1, players=p, seats=seats, workers=1)
            return s.hands, time.process_time() - started

        with bench_c.pinned_to_core0():
            rates.append(bench_c.two_size_rate(run, 1000, TARGET_SECONDS)[0])
    return rates[0], rates[1]


def yardsticks(games: list[str]) -> str:
    """The C yardstick (scripts/bench_c.py) and the user-strategy price, per game, as Markdown."""
    import bench_c

    rows = [bench_c.measure(game, seconds=TARGET_SECONDS) for game in games]
    text = "\n" + bench_c.table(rows)
    costs = [(game, *user_cost(game)) for game in games]
    text += ("\n| game | built-in random, 1 core | user strategy reimplementing it | cost |\n"
             "|---|---|---|---|\n"
             + "".join(f"| {g} | {a:,.0f} | {b:,.0f} | {a / b:.2f}x |\n" for g, a, b in costs))
    return text


#: a run of the scaling table takes about this long on one worker
SCALING_SECONDS = 3.0


def _wall(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def speedup(run, first: int = 1000) -> float:
    """One worker's time over all cores' for ``run(games, workers)`` (wall seconds): the run is
    grown until one worker takes about SCALING_SECONDS, then each side is timed three times,
    alternating, and the best of each kept (single runs move by a tenth on this machine)."""
    cores = available_cores()
    games = first
    while True:
        spent = run(games, 1)
        if spent > 0.5 or games >= 1 << 26:
            break
        games *= 4
    games = max(first, int(games * SCALING_SECONDS / max(spent, 1e-3)))
    one = every = float("inf")
    for _ in range(3):
        one = min(one, run(games, 1))
        every = min(every, run(games, cores))
    return one / every


def batch_job(game: str, games: int, seats: list[str] | None = None, strategies: list[str] | None = None) -> str:
    """A one-run job file (TOML): a simulate with ``seats`` for every seat, or a compare of
    ``strategies``; chunks of the default size."""
    head = f'[[run]]\nname = "bench"\ngame = "{game}"\ngames = {games}\nseed = 2026\n'
    if strategies:
        return head + 'kind = "compare"\nstrategies = [' + ", ".join(f'"{s}"' for s in strategies) + "]\n"
    return head + 'kind = "simulate"\nseats = { ' + ", ".join(f'{i} = "{s}"' for i, s in enumerate(seats)) + " }\n"


def batch_speedup(game: str, **job) -> float:
    """``speedup`` of ``analyzer batch`` (local threads) on the job ``batch_job(game, ...)``."""
    def run(games: int, workers: int) -> float:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "job.toml"
            path.write_text(batch_job(game, games, **job))
            return _wall(lambda: api.batch(str(path), str(Path(folder) / "out"), workers=workers))
    return speedup(run)


def scaling(game: str) -> dict[str, float]:
    """All cores against one in compare (heuristic against random, duplicate deals) and in
    batch (a simulate of every seat random, of every seat heuristic, and that compare)."""
    p = registry.get(game).default_players
    pair = ["heuristic", "random"]
    compare = speedup(lambda games, workers: _wall(
        lambda: api.compare(game, pair, games=games, seed=5, workers=workers)))
    return {"compare": compare,
            "batch random": batch_speedup(game, seats=["random"] * p),
            "batch heuristic": batch_speedup(game, seats=["heuristic"] * p),
            "batch compare": batch_speedup(game, strategies=pair)}


def scaling_table(rows: list[tuple[str, dict[str, float]]]) -> str:
    return (f"\n{available_cores()} cores against 1, wall time, best of three runs of about {SCALING_SECONDS:g} s on "
            "one worker (`compare GAME heuristic random`; `batch` of a simulate with every seat random, with "
            "every seat heuristic, and of that compare, local threads):\n\n"
            "| game | compare | batch, random | batch, heuristic | batch, compare |\n|---|---|---|---|---|\n"
            + "".join(f"| {g} | {r['compare']:.2f}x | {r['batch random']:.2f}x | {r['batch heuristic']:.2f}x | "
                      f"{r['batch compare']:.2f}x |\n" for g, r in rows))


def table(rows: list[dict]) -> str:
    """The first table of README.md's benchmark block, with the line above it (a row's ``cli``
    is NaN where the CLI was not timed: shown as ``-``)."""
    head = ("| game | players | strategies | hands/s 1 core | hands/s all cores | speed-up | games/s "
            "(all cores) | cold start s | warm start s | CLI 1M hands s |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(
        f"| {r['game']} | {r['players']} | {r['strategy']} | {r['one']:,.0f} | {r['all']:,.0f} | "
        f"{r['all'] / r['one']:.2f}x | {r['games']:,.0f} | {r['cold']:.1f} | {r['warm']:.2f} | {r['cli']:.1f} |\n"
        for r in rows)
    cpu = platform.processor() or platform.machine()
    return (f"Measured {dt.date.today().isoformat()} on {available_cores()} cores ({cpu}), "
            f"Python {platform.python_version()}; cold/warm start = a new process importing, "
            "compiling (or loading from cache) and playing 10 games.\n\n" + head + body.replace("| nan |", "| - |"))


#: README.md's benchmark block: what --update-readme replaces (the markers stay)
BLOCK = re.compile(r"(<!-- bench:start -->\n).*?(<!-- bench:end -->)", re.S)


def check_readme(readme: Path = ROOT / "README.md") -> None:
    """Refuse (AnalyzerError) a README without exactly one benchmark block."""
    found = len(BLOCK.findall(readme.read_text(encoding="utf-8")))
    if found != 1:
        raise script_cli.AnalyzerError(f"{readme} has {found} benchmark blocks (<!-- bench:start --> ... "
                                       "<!-- bench:end -->), not one: nothing to update")


def update_readme(text: str, readme: Path = ROOT / "README.md") -> None:
    """Replace what lies between the README's benchmark markers by ``text``, nothing else; the
    file written whole or not at all."""
    check_readme(readme)
    content = readme.read_text(encoding="utf-8")
    script_cli.write_atomic(readme, BLOCK.sub(lambda m: m.group(1) + text + m.group(2), content))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", type=script_cli.game, help="only this game (repeatable)")
    parser.add_argument("--update-readme", action="store_true",
                        help="also write the tables into README.md's benchmark block (every game and table)")
    parser.add_argument("--memory", action="store_true",
                        help="also the peak RSS of 10k vs 10M games of ninety-nine (slow)")
    parser.add_argument("--no-search", action="store_true", help="skip the solver and search-strategy tables")
    parser.add_argument("--no-eval", action="store_true", help="skip evaluation against its yardstick")
    parser.add_argument("--no-mc", action="store_true",
                        help="skip mc against its yardstick (bench_mc.py; the mc:k=32 rates stay)")
    parser.add_argument("--no-scaling", action="store_true", help="skip compare's and batch's two-core table")
    args = parser.parse_args(argv)
    if args.update_readme:
        partial = [flag for flag, on in (("--game", args.game), ("--no-search", args.no_search),
                                         ("--no-eval", args.no_eval), ("--no-mc", args.no_mc),
                                         ("--no-scaling", args.no_scaling)) if on]
        if partial:
            parser.error(f"--update-readme replaces every table of README.md's benchmark block: not with "
                         f"{' or '.join(partial)}")
        check_readme()
    return args


def main() -> None:
    args = parse_args()
    rows = []
    cores = available_cores()
    for game in args.game or registry.names():
        spec = registry.get(game)
        cold, warm = compile_times(game)
        for strategy in PAIRS:
            one, _, per_game = rate(game, strategy, 1, None)
            every, games_per_s, _ = rate(game, strategy, cores, None)
            cli = cli_wall(game, per_game) if strategy == "heuristic" else float("nan")
            row = dict(game=game, players=spec.default_players, strategy=f"all {strategy}", one=one,
                       all=every, games=games_per_s, cold=cold, warm=warm, cli=cli)
            rows.append(row)
            print(f"{game:14s} {strategy:10s} 1 core {one:12,.0f} hands/s   {cores} cores {every:12,.0f} "
                  f"({every / one:.2f}x)   cold {cold:.1f}s warm {warm:.2f}s", flush=True)
    text = table(rows)
    mc_rows = [(game, mc_rate(game)) for game in (args.game or registry.names())]
    text += ("\n| game | hands/s with one `mc:k=32` seat, 1 core |\n|---|---|\n"
             + "".join(f"| {g} | {r:,.0f} |\n" for g, r in mc_rows))
    text += yardsticks(args.game or registry.names())
    if not args.no_scaling:
        text += scaling_table([(g, scaling(g)) for g in args.game or registry.names()])
    if not args.no_search:
        import bench_search

        text += bench_search.report(args.game or registry.names(), deals=1000, per_run=10)
    if not args.no_eval:
        import bench_eval

        text += ("\nEvaluation against its yardstick, one core: an evaluation's playouts per second (the first "
                 "decision with a choice of a recorded game, every option played out to the game's end, 20,000 "
                 "samples) against simulate's heuristic games per second (`scripts/bench_eval.py`):\n\n"
                 + bench_eval.table([bench_eval.measure(g, 20_000, 20_000) for g in args.game or registry.names()]))
    if not args.no_mc:
        import bench_mc

        text += ("\n`mc` against its yardstick, one core: the moves of its rollouts per second of its decisions' "
                 "time (20 games with one `mc` seat, the others heuristic, less the same games all heuristic) "
                 "against simulate's moves per second, heuristic everywhere (`scripts/bench_mc.py`):\n\n"
                 + bench_mc.table([bench_mc.measure(g, 20) for g in args.game or registry.names()]))
    print()
    print(text)
    if args.memory:
        small, large = peak_memory_mb("ninety-nine", 10_000), peak_memory_mb("ninety-nine", 10_000_000)
        print(f"peak memory: 10k games {small:.0f} MB, 10M games {large:.0f} MB (difference {large - small:.0f} MB)")
    if args.update_readme:
        update_readme(text)


if __name__ == "__main__":
    script_cli.run(main)
