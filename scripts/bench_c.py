#!/usr/bin/env python3
"""C yardsticks beside the analyzer: random play on one core, hands (or rounds) per second.

    python scripts/bench_c.py                        # every game: C, analyzer, ratio (a table)
    python scripts/bench_c.py --game hearts2         # one game (repeatable)
    python scripts/bench_c.py --check                # same rules? column means of C vs analyzer
    python scripts/bench_c.py --check --games 20000  # a smaller check

The C programs are bench/c/*.c (bench/c/README.md): built here with ``gcc -O2 -march=native``
into a cache folder, only for benchmarking; the product never needs them. Without gcc every
game is skipped with a message. Each side is measured pinned to core 0 (``taskset -c 0`` for
C, the process's own affinity for the analyzer) at two run sizes, and the rate is the extra
hands over the extra time, so start-up (and the analyzer's compile or cache load) cancels.
Times are CPU time of the measured process by default (``--wall`` for wall-clock): on a
shared machine CPU time counts only what the game loop ran, for both sides alike.

``measure(game)`` is the function scripts/bench.py calls; it returns a dict (keys below).
"""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402

from analyzer import api  # noqa: E402

SOURCES = ROOT / "bench" / "c"
#: game -> (C source, default players, what a "hand" is called in that game)
GAMES = {
    "hearts2": ("hearts2.c", 2, "hands"),
    "ninety-nine": ("ninety_nine.c", 3, "rounds"),
    "two-ten-jack": ("two_ten_jack.c", 2, "rounds"),
    "twenty-two": ("twenty_two.c", 4, "hands"),
    "pitch10": ("pitch10.c", 4, "hands"),
}
#: games whose C program takes the player count at build time (-DPLAYERS=P)
VARIABLE_PLAYERS = ("ninety-nine", "twenty-two")
CFLAGS = ["-O2", "-march=native"]
SEED = 1


class Unavailable(Exception):
    """No C compiler (or the build failed): the C side is skipped."""


# ---- building and running the C programs ------------------------------------------------------

def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(tempfile.gettempdir(), f"cache-{os.getuid()}")
    path = Path(base) / "analyzer-bench-c"
    path.mkdir(parents=True, exist_ok=True)
    return path


def build(game: str, players: int, portable: bool = False) -> Path:
    """The compiled C program of ``game`` (built once per source, flags and player count)."""
    compiler = shutil.which(os.environ.get("CC", "gcc"))
    if compiler is None:
        raise Unavailable("gcc not found: the C yardsticks are skipped (install gcc to compare)")
    source = SOURCES / GAMES[game][0]
    flags = [*CFLAGS, *(["-DNO_PDEP"] if portable else [])]
    if game in VARIABLE_PLAYERS:
        flags.append(f"-DPLAYERS={players}")
    digest = hashlib.sha256()
    for part in (source.read_bytes(), (SOURCES / "common.h").read_bytes(), " ".join(flags).encode()):
        digest.update(part)
    target = cache_dir() / f"{source.stem}-{digest.hexdigest()[:16]}"
    if not target.exists():
        done = subprocess.run([compiler, *flags, "-o", str(target), str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise Unavailable(f"building {source.name} failed:\n{done.stderr.strip()}")
    return target


def pin_prefix() -> list[str]:
    return ["taskset", "-c", "0"] if shutil.which("taskset") else []


def run_c(program: Path, games: int, seed: int = SEED, stats: bool = False) -> dict:
    """Run a C program; its result line as a dict (games, hands, seconds, cpu_seconds, checksum,
    ...) and, with ``stats``, ``stats``: column -> (sum, sum of squares)."""
    args = [*pin_prefix(), str(program), str(games), str(seed), *(["stats"] if stats else [])]
    lines = subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()
    result: dict = {}
    for key, value in (kv.split("=", 1) for kv in lines[0].split()):
        result[key] = value if key in ("game", "checksum") else float(value)
    result["stats"] = {name: (float(a), float(b)) for _, name, a, b in (ln.split() for ln in lines[1:])}
    return result


def two_size_rate(run, first: int, seconds: float) -> tuple[float, float]:
    """(hands/s, games/s) from two runs: ``run(games)`` returns (hands, time); the size is grown
    until a run takes about ``seconds / 5``, then the big run is 5 times that."""
    games = first
    while True:
        hands, spent = run(games)
        if spent >= seconds / 5 or games >= 1 << 30:
            break
        games = int(games * min(16.0, max(2.0, seconds / 5 / max(spent, 1e-4))))
    big_hands, big_spent = run(5 * games)
    if big_spent <= spent:
        return math.nan, math.nan
    return (big_hands - hands) / (big_spent - spent), 4 * games / (big_spent - spent)


def c_rate(game: str, players: int, seconds: float, clock: str, portable: bool = False) -> tuple[float, float]:
    program = build(game, players, portable)
    key = "cpu_seconds" if clock == "cpu" else "seconds"

    def run(games: int) -> tuple[float, float]:
        r = run_c(program, games)
        return r["hands"], r[key]

    return two_size_rate(run, 1000, seconds)


# ---- the analyzer side ---------------------------------------------------------------------------

class pinned_to_core0:
    """Pin this process to core 0 while measuring (restored after); a no-op where unsupported."""

    def __enter__(self):
        self.saved = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        if self.saved is not None and 0 in self.saved:
            os.sched_setaffinity(0, {0})
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            os.sched_setaffinity(0, self.saved)


def analyzer_rate(game: str, players: int, seconds: float, clock: str) -> tuple[float, float]:
    """Random play on one worker through analyzer.api, the two-size rate."""
    seats = ["random"] * players
    api.simulate(game, games=200, seed=SEED, players=players, seats=seats, workers=1)  # compile / load

    def run(games: int) -> tuple[float, float]:
        started = time.process_time()
        s = api.simulate(game, games=games, seed=SEED, players=players, seats=seats, workers=1)
        return s.hands, (time.process_time() - started) if clock == "cpu" else s.elapsed

    with pinned_to_core0():
        return two_size_rate(run, 1000, seconds)


def measure(game: str, players: int | None = None, seconds: float = 2.0, clock: str = "cpu",
            portable: bool = True) -> dict:
    """Hands (or rounds: ``unit``) per second on one core of random play, C and analyzer.

    Returns a dict: game, players, unit, clock ("cpu" or "wall"), c_hands_per_s, c_games_per_s,
    analyzer_hands_per_s, analyzer_games_per_s, ratio (analyzer / C), and with ``portable``
    c_portable_hands_per_s and ratio_portable (the C built with -DNO_PDEP: no BMI2 deposit for
    picking the k-th legal card); ``skipped`` holds why the C side is missing (its values None).
    ``seconds``: about how long the bigger of the two runs of each side takes.
    """
    source, default_players, unit = GAMES[game]
    p = players or default_players
    row: dict = {"game": game, "players": p, "unit": unit, "clock": clock, "skipped": None}
    a_hands, a_games = analyzer_rate(game, p, seconds, clock)
    row.update(analyzer_hands_per_s=a_hands, analyzer_games_per_s=a_games)
    try:
        c_hands, c_games = c_rate(game, p, seconds, clock)
        row.update(c_hands_per_s=c_hands, c_games_per_s=c_games, ratio=a_hands / c_hands)
        if portable:
            c_port, _ = c_rate(game, p, seconds, clock, portable=True)
            row.update(c_portable_hands_per_s=c_port, ratio_portable=a_hands / c_port)
    except Unavailable as why:
        row.update(c_hands_per_s=None, c_games_per_s=None, ratio=None, c_portable_hands_per_s=None,
                   ratio_portable=None, skipped=str(why))
    return row


def table(rows: list[dict]) -> str:
    head = ("| game | players | unit | C, 1 core | C portable, 1 core | analyzer random, 1 worker | ratio | "
            "ratio to portable |\n|---|---|---|---|---|---|---|---|\n")

    def num(x, fmt):
        return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)

    body = "".join(
        f"| {r['game']} | {r['players']} | {r['unit']}/s | {num(r['c_hands_per_s'], ',.0f')} | "
        f"{num(r.get('c_portable_hands_per_s'), ',.0f')} | {num(r['analyzer_hands_per_s'], ',.0f')} | "
        f"{num(r['ratio'], '.2f')}x | {num(r.get('ratio_portable'), '.2f')}x |\n" for r in rows)
    clock = rows[0]["clock"] if rows else "cpu"
    return (f"Random play for every seat, pinned to core 0, rate from two run sizes, {clock} time; "
            f"C: gcc {' '.join(CFLAGS)} (bench/c).\n\n" + head + body)


# ---- the agreement check: same rules, same statistics ------------------------------------------

def analyzer_rows(game: str, players: int, games: int, seed: int = SEED) -> tuple[list[str], np.ndarray]:
    """The kernel's out rows of ``games`` random games (columns as spec.columns)."""
    s = api.setup(game, players, ["random"] * players)
    columns = s.spec.columns(s.rules)
    out = np.zeros((games, len(columns)), dtype=np.int64)
    err = np.full((games, 4), -1, dtype=np.int64)
    s.run_chunk(np.uint64(seed), np.int64(0), s.params, s.strat, out, err, np.int64(8))
    return columns, out


def check(game: str, players: int | None = None, games: int = 100_000) -> list[dict]:
    """Per column (and win_s: seat s among the winners): the C and analyzer means over ``games``
    random games each, and z = their difference over its standard error (independent samples)."""
    p = players or GAMES[game][1]
    c = run_c(build(game, p), games, seed=7, stats=True)
    columns, rows = analyzer_rows(game, p, games)
    values = {name: rows[:, i].astype(np.float64) for i, name in enumerate(columns)}
    for s in range(p):
        values[f"win_{s}"] = ((rows[:, 0] >> s) & 1).astype(np.float64)
    report = []
    for name, (total, squares) in c["stats"].items():
        if name not in values:
            continue
        c_mean = total / games
        c_var = max(squares / games - c_mean ** 2, 0.0)
        a = values[name]
        a_mean, a_var = float(a.mean()), float(a.var())
        se = math.sqrt((c_var + a_var) / games)
        z = (c_mean - a_mean) / se if se > 0 else (0.0 if c_mean == a_mean else math.inf)
        report.append({"column": name, "c": c_mean, "analyzer": a_mean, "z": z})
    return report


def check_text(game: str, report: list[dict], games: int) -> str:
    worst = max(report, key=lambda r: abs(r["z"]))
    lines = [f"{game}: {games:,} random games each, {len(report)} columns; largest |z| = {abs(worst['z']):.2f} "
             f"({worst['column']})"]
    lines += [f"  {r['column']:22s} C {r['c']:12.4f}   analyzer {r['analyzer']:12.4f}   z {r['z']:+6.2f}"
              for r in report]
    return "\n".join(lines)


def main() -> None:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", choices=list(GAMES), help="only this game (repeatable)")
    parser.add_argument("--players", type=script_cli.positive, help="player count (ninety-nine and twenty-two)")
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long the bigger run takes")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument("--no-portable", action="store_true", help="skip the -DNO_PDEP build")
    parser.add_argument("--check", action="store_true", help="compare column means of C and analyzer")
    parser.add_argument("--games", type=script_cli.positive, default=100_000, help="games per side in --check")
    args = parser.parse_args()
    chosen = args.game or list(GAMES)
    if args.check:
        failed = False
        for game in chosen:
            try:
                report = check(game, args.players, args.games)
            except Unavailable as why:
                print(f"{game}: skipped: {why}")
                continue
            print(check_text(game, report, args.games), flush=True)
            failed |= any(abs(r["z"]) > 4 for r in report)
        sys.exit(1 if failed else 0)
    rows = []
    for game in chosen:
        row = measure(game, args.players, args.seconds, "wall" if args.wall else "cpu", not args.no_portable)
        rows.append(row)
        if row["skipped"]:
            print(f"{game}: C skipped: {row['skipped']}", flush=True)
        else:
            print(f"{game:13s} C {row['c_hands_per_s']:12,.0f}  analyzer {row['analyzer_hands_per_s']:12,.0f} "
                  f"{row['unit']}/s  ratio {row['ratio']:.2f}x", flush=True)
    print()
    print(table(rows))


if __name__ == "__main__":
    script_cli.run(main)
