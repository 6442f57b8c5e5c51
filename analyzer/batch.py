"""Batch jobs: TOML job files, chunked runs that survive being killed, local or Dask.

A job is a list of runs (``simulate`` or ``compare``). Each run is cut into chunks of
``chunk`` games with fixed boundaries; a chunk's result is a handful of exact sums, saved
atomically under ``OUT/.chunks/<run key>/`` as soon as it is done. Running the same command
again skips the chunks already saved, so a job killed at any moment (SIGKILL included)
resumes, and because chunk results are combined in chunk order the final files are
identical, bit for bit, to an uninterrupted run's, whichever backend played the chunks.
A run's key hashes its settings and the compiled sources: editing one run of the job file
recomputes that run only.

Backends: local (this process, every chunk split over ``--workers`` numba threads: one copy
of the compiled kernels in memory), or Dask distributed (an existing scheduler, or a
LocalCluster on 127.0.0.1, one single-threaded worker process per core). Each Dask worker
loads the kernels once (from the numba cache) when the job starts, not per task, and a lost
worker's chunks are played again elsewhere (Dask retries them).
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError

KINDS = ("simulate", "compare")
DEFAULT_CHUNK = 100_000
RUN_KEYS = {"name", "kind", "game", "games", "seed", "players", "rules", "seats", "strategies", "chunk", "alpha"}


@dataclass
class Run:
    """One run of a job, validated."""

    name: str
    kind: str
    game: str
    games: int
    seed: int = 0
    players: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, str] = field(default_factory=dict)
    strategies: list[str] = field(default_factory=list)
    chunk: int = DEFAULT_CHUNK
    alpha: float = 0.05

    @functools.cached_property
    def key(self) -> str:
        """Hash of the settings and the compiled sources, fixed once per job (checkpoint folder)."""
        from analyzer.jit import source_hash

        text = json.dumps(asdict(self), sort_keys=True, default=str) + source_hash()
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def chunks(self) -> list[tuple[int, int]]:
        return [(start, min(self.chunk, self.games - start)) for start in range(0, self.games, self.chunk)]


# ---- job files --------------------------------------------------------------------------

def load_job(path: str | Path) -> list[Run]:
    """Read and validate a job file; errors name the run and the key."""
    path = Path(path)
    if not path.is_file():
        raise AnalyzerError(f"job file {path} not found")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise AnalyzerError(f"job file {path} is not valid TOML: {exc}") from None
    unknown = set(data) - {"run", "defaults"}
    if unknown:
        raise AnalyzerError(f"job file {path}: unknown top-level key {sorted(unknown)[0]!r} (expected [defaults] and [[run]])")
    defaults = data.get("defaults", {})
    runs_data = data.get("run")
    if not isinstance(runs_data, list) or not runs_data:
        raise AnalyzerError(f"job file {path} has no runs: add [[run]] tables")
    runs = [_validate(i, {**defaults, **entry}) for i, entry in enumerate(runs_data, start=1)]
    names = [r.name for r in runs]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"job file {path}: two runs are named {name!r}")
    return runs


def _validate(index: int, entry: dict[str, Any]) -> Run:
    from analyzer import api
    from analyzer import games as registry
    from analyzer.strategies import parse_strategy, resolve_seats

    label = f"run {index}" + (f" ({entry['name']!r})" if isinstance(entry.get("name"), str) else "")

    def fail(key: str, message: str) -> AnalyzerError:
        return AnalyzerError(f"{label}, key {key!r}: {message}")

    for key in entry:
        if key not in RUN_KEYS:
            raise fail(key, f"unknown key (keys: {', '.join(sorted(RUN_KEYS))})")
    for key in ("kind", "game", "games"):
        if key not in entry:
            raise fail(key, "missing")
    kind = entry["kind"]
    if kind not in KINDS:
        raise fail("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    games = entry["games"]
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise fail("games", f"must be a positive integer, not {games!r}")
    chunk = entry.get("chunk", DEFAULT_CHUNK)
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise fail("chunk", f"must be a positive integer, not {chunk!r}")
    seed = entry.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= api.MAX_SEED:
        raise fail("seed", f"must be an integer from 0 to 2**64-1, not {seed!r}")
    try:
        spec = registry.get(str(entry["game"]))
    except AnalyzerError as exc:
        raise fail("game", str(exc)) from None
    rules = entry.get("rules", {})
    if not isinstance(rules, dict):
        raise fail("rules", "must be a table like { target = 50 }")
    players = entry.get("players")
    try:
        resolved = spec.resolve_rules({k: str(v).lower() if isinstance(v, bool) else v for k, v in rules.items()},
                                      players)
    except AnalyzerError as exc:
        raise fail("rules" if rules else "players", str(exc)) from None
    seats_raw = entry.get("seats", {})
    if not isinstance(seats_raw, dict):
        raise fail("seats", 'must be a table like { 0 = "random" }')
    seats: dict[int, str] = {}
    for k, v in seats_raw.items():
        if not str(k).isdigit() or not isinstance(v, str):
            raise fail("seats", f'entries are SEAT = "strategy", not {k} = {v!r}')
        seats[int(k)] = v
    strategies = entry.get("strategies", [])
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise fail("strategies", 'must be a list like ["heuristic", "random"]')
    try:
        if kind == "compare":
            if len(strategies) < 2:
                raise fail("strategies", "a compare run needs at least two")
            if seats:
                raise fail("seats", "a compare run names its strategies under 'strategies'")
            for name in strategies:
                if parse_strategy(spec, name).function is not None:
                    raise fail("strategies", "compare runs take built-in strategies only")
        else:
            if strategies:
                raise fail("strategies", "a simulate run names its strategies per seat under 'seats'")
            chosen = resolve_seats(spec, spec.players(resolved), seats)
            if any(c.function is not None for c in chosen):
                raise fail("seats", "batch runs take built-in strategies only")
    except AnalyzerError as exc:
        if str(exc).startswith(label):
            raise
        raise fail("strategies" if kind == "compare" else "seats", str(exc)) from None
    alpha = entry.get("alpha", 0.05)
    if not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise fail("alpha", f"must be between 0 and 1, not {alpha!r}")
    name = entry.get("name", f"run{index}")
    if not isinstance(name, str) or not name or any(c in name for c in '/\\\0') or name.startswith("."):
        raise fail("name", f"must be a plain file name, not {name!r}")
    return Run(name=name, kind=kind, game=spec.name, games=games, seed=seed, players=spec.players(resolved),
               rules={k: v for k, v in resolved.items() if k != "players"}, seats=seats, strategies=strategies,
               chunk=chunk, alpha=float(alpha))


# ---- chunks (run in workers) --------------------------------------------------------------

def play_chunk(run: Run, start: int, count: int, threads: int = 1) -> Any:
    """Play one chunk of a run (on ``threads`` numba threads); returns its exact, mergeable sums."""
    from analyzer import api
    from analyzer.stats import Accumulator

    if run.kind == "simulate":
        s = api.setup(run.game, run.players, run.seats, run.rules)
        acc = Accumulator(s.spec.columns(s.rules), s.spec.players(s.rules), s.spec.ratio_pairs(s.rules))
        from analyzer.runner import run_games

        run_games(s.run_chunk, run.seed, count, s.params, s.strat, acc, workers=threads, chunk=count,
                  first_index=start, describe_error=s.describe_error)
        return acc
    from analyzer.compare import Tournament, run_arms

    t = Tournament(run.game, run.strategies, run.players, run.rules)
    run_arms(t.arms, run.seed, count, lambda done, rows: t.fold(rows) and False, threads, False, "",
             first_index=start, chunk=count)
    return t.state()


def warm_worker(games: list[str]) -> None:
    """Load every kernel the job needs once per worker process (numba cache), one thread."""
    from analyzer import api
    from analyzer.jit import numba

    numba.set_num_threads(1)
    for game in games:
        api.simulate(game, games=2, seed=0, workers=1)


# ---- results -----------------------------------------------------------------------------------

def finish_run(run: Run, parts: list[Any]) -> dict[str, Any]:
    """Combine chunk results in chunk order into the run's tables (DataFrames) and facts."""
    from analyzer import api

    if run.kind == "simulate":
        s = api.setup(run.game, run.players, run.seats, run.rules)
        total = parts[0]
        for part in parts[1:]:
            total.merge(part)
        tables = s.spec.summarize(total, s.rules, s.labels)
        totals = tables.pop("totals", {})
        return {"tables": tables, "facts": {"games": total.n, "hands": int(total.sums[1]), "strategies": s.labels,
                                            **api._clean(totals)}}
    from analyzer.compare import Tournament

    t = Tournament(run.game, run.strategies, run.players, run.rules)
    for part in parts:
        t.merge(part)
    return {"tables": t.tables(run.alpha), "facts": {"games": t.pairs[0].share.n, "strategies": t.labels}}


# ---- the job ---------------------------------------------------------------------------------------

@dataclass
class JobResult:
    runs: list[Run]
    chunks_total: int
    chunks_done_before: int
    elapsed: float


class Checkpoints:
    def __init__(self, out: Path) -> None:
        self.root = out / ".chunks"

    def path(self, run: Run, start: int) -> Path:
        return self.root / run.key / f"{start:012d}.pkl"

    def has(self, run: Run, start: int) -> bool:
        return self.path(run, start).is_file()

    def save(self, run: Run, start: int, value: Any) -> None:
        from analyzer.io import atomic_path

        target = self.path(run, start)
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(target) as tmp:
            tmp.write_bytes(pickle.dumps(value))

    def load(self, run: Run, start: int) -> Any:
        return pickle.loads(self.path(run, start).read_bytes())


def run_job(job: str | Path, out: str | Path, workers: int | None = None, scheduler: str | None = None,
            local_cluster: int | None = None, progress: bool = False) -> JobResult:
    """Run (or resume) every run of ``job``; results go to ``out``."""
    runs = load_job(job)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    store = Checkpoints(out)
    todo = [(run, start, count) for run in runs for start, count in run.chunks() if not store.has(run, start)]
    total = sum(len(run.chunks()) for run in runs)
    started = time.perf_counter()
    display = _Display(runs, store, progress)
    try:
        if todo:
            execute = _dask_execute if (scheduler or local_cluster) else _local_execute
            execute(todo, store, display, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
                    games=sorted({r.game for r in runs}))
    finally:
        display.close()
    _write_results(runs, store, out)
    return JobResult(runs, total, total - len(todo), time.perf_counter() - started)


def _local_execute(todo, store: Checkpoints, display, workers: int | None, **_) -> None:
    """Play the chunks here, one after the other, each on ``workers`` numba threads.

    One process holds the compiled kernels once (a second process would hold them again:
    several hundred MB), and the threads split every chunk's games, so both cores are used
    and memory stays flat. A chunk's result does not depend on the number of threads.
    """
    from analyzer.runner import set_workers

    threads = set_workers(workers)
    for run, start, count in todo:
        store.save(run, start, play_chunk(run, start, count, threads))
        display.advance(run)


def _dask_execute(todo, store: Checkpoints, display, scheduler: str | None, local_cluster: int | None,
                  games: list[str], **_) -> None:
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="20s")
    else:
        cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster)
    try:
        client.run(warm_worker, games)
        futures = {}
        for run, start, count in todo:
            future = client.submit(play_chunk, run, start, count, key=f"{run.key}-{start}", retries=3, pure=False)
            futures[future] = (run, start)
        for future in as_completed(futures):
            run, start = futures[future]
            store.save(run, start, future.result())
            display.advance(run)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _write_results(runs: list[Run], store: Checkpoints, out: Path) -> None:
    import pandas as pd

    from analyzer import api
    from analyzer.io import atomic_path, write_text

    summary_rows, summary = [], {}
    for run in runs:
        result = finish_run(run, [store.load(run, start) for start, _ in run.chunks()])
        folder = out / run.name
        folder.mkdir(exist_ok=True)
        for table_name, frame in result["tables"].items():
            with atomic_path(folder / f"{table_name}.parquet") as tmp:
                frame.to_parquet(tmp, index=False)
        facts = {"name": run.name, "kind": run.kind, "game": run.game, "seed": run.seed,
                 **result["facts"]}
        summary[run.name] = {"run": asdict(run), **api._clean(facts),
                             **{k: api._clean(v.to_dict(orient="records")) for k, v in result["tables"].items()}}
        summary_rows.append({k: v for k, v in facts.items() if not isinstance(v, (list, dict))})
    write_text(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True, default=str))
    frame = pd.DataFrame(summary_rows)
    for column in ("games", "hands"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    write_text(out / "summary.csv", frame.to_csv(index=False))


class _Display:
    """Progress per run and overall (rich), counted in chunks."""

    def __init__(self, runs: list[Run], store: Checkpoints, enabled: bool) -> None:
        self.bar = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("chunks"), TimeRemainingColumn(), console=Console(stderr=True))
        self.tasks = {}
        total = done = 0
        for run in runs:
            chunks = run.chunks()
            finished = sum(store.has(run, start) for start, _ in chunks)
            total, done = total + len(chunks), done + finished
            self.tasks[run.name] = self.bar.add_task(f"{run.name} ({run.kind} {run.game})", total=len(chunks),
                                                     completed=finished)
        self.overall = self.bar.add_task("all runs", total=total, completed=done)
        self.bar.start()

    def advance(self, run: Run) -> None:
        if self.bar is not None:
            self.bar.advance(self.tasks[run.name])
            self.bar.advance(self.overall)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
