"""Batch jobs: TOML job files, chunked runs that survive being killed, local or Dask.

A job is a list of runs (``simulate``, ``compare`` or ``review``). Each run is cut into
chunks of ``chunk`` games with fixed boundaries; a chunk's result is a handful of exact sums
(a review: the rows of its recorded games' decisions), saved
atomically under ``OUT/.chunks/<run key>/`` as soon as it is done. Running the same command
again skips the chunks already saved, so a job killed at any moment (SIGKILL included)
resumes, and because chunk results are combined in chunk order the final files are
identical, bit for bit, to an uninterrupted run's, whichever backend played the chunks.
A run's key hashes its settings and every source file of the package: editing one run of the job file
recomputes that run only.

Backends: local (this process, every chunk split over ``--workers`` numba threads: one copy
of the compiled kernels in memory), or Dask distributed (an existing scheduler, or a
LocalCluster on 127.0.0.1, one single-threaded worker process per core). Each Dask worker
loads the kernels once (from the numba cache) when the job starts, not per task, and a lost
worker's chunks are played again elsewhere (Dask retries them).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import math
import pickle
import time
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError, StrategyError
from analyzer.results import Result
from analyzer.terminal import count
from analyzer.supervise import note_folder

KINDS = ("simulate", "compare", "review")
DEFAULT_CHUNK = 100_000
#: chunks of one run at most (each is a checkpoint file, each checked when the job starts)
MAX_CHUNKS = 100_000
#: games of one kernel call at most within a chunk: a chunk's rows are held while it plays,
#: so a large ``chunk`` would cost memory in proportion (simulate sums are exact integers:
#: the same whatever the calls)
CALL_GAMES = 1 << 18
RUN_KEYS = {"name", "kind", "game", "games", "seed", "players", "rules", "seats", "strategies", "chunk", "alpha",
            "records", "rollout", "samples"}
#: ``--local-cluster`` workers at most per core: each is a process of its own that loads the
#: compiled kernels again (several hundred MB) and plays one chunk at a time on one thread, so
#: workers past the cores only wait their turn, at that much memory each
LOCAL_CLUSTER_PER_CORE = 2
#: the summary's columns that count something (integers, empty for a run of a kind without them)
COUNT_COLUMNS = ("games", "hands", "decisions", "samples_per_decision", "moon_attempts")
#: the keys only a review run takes, and the ones it does not
REVIEW_KEYS = {"records", "rollout", "samples"}
NOT_REVIEW_KEYS = {"players", "rules", "strategies", "alpha"}
#: the keys a review run takes in another sense (recorded games, not simulated ones; a list of
#: seats): from its own table only, not from [defaults]
REVIEW_OWN_KEYS = {"games", "chunk", "seats"}


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
    #: user strategy files by the path the run names them with -> their text, for a run sent
    #: to Dask workers (``travelling``); empty otherwise. A strategy's local modules follow it
    #: as ``PATH::RELATIVE`` (their path relative to its folder), landed beside it
    sources: dict[str, str] = field(default_factory=dict)
    #: review: the recorded games reviewed, (record file, game index in it), in order; the
    #: seats reviewed (empty: all), evaluate's rollout and samples per decision
    targets: list[tuple[str, int]] = field(default_factory=list)
    review_seats: list[int] = field(default_factory=list)
    rollout: str = "heuristic"
    samples: int = 2000

    @functools.cached_property
    def key(self) -> str:
        """Hash of the settings and every source file of the package, fixed once per job (checkpoint folder)."""
        from analyzer.jit import source_hash

        settings = {k: v for k, v in asdict(self).items() if k != "sources"}
        # a reviewed game by its record's content, not its path: an edited record is reviewed
        # again, a moved one is not
        content = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path, _ in self.targets}
        settings["targets"] = [(content[path], index) for path, index in self.targets]
        text = json.dumps(settings, sort_keys=True, default=str) + source_hash()
        users = self.user_strategies()
        if users:  # editing a user strategy's file (or a helper it imports), or what it reads when it
            # loads (a table from a data file: strategies.frozen_values_digest), recomputes its runs
            from analyzer.strategies import frozen_values_digest, user_sources_hash, user_strategy

            text += "".join(f"\n{u}={user_sources_hash(u)} {frozen_values_digest(user_strategy(u).function)}"
                            for u in users)
        self.__dict__["_read"] = self._files_read()
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def _files_read(self) -> dict[Path, str]:
        """The files the run reads as it plays (its records, its user strategies' files and
        their local modules, as loaded when its key was taken), each with its SHA-256 now."""
        from analyzer.strategies import user_files

        paths = [Path(p) for p, _ in self.targets]
        for u in self.user_strategies():
            paths += user_files(u)
        digests = {}
        for path in dict.fromkeys(paths):
            try:
                digests[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                digests[path] = ""
        return digests

    def changed_file(self) -> Path | None:
        """A file the run reads as it plays that is no longer what it was when its key was
        taken (edited while the job ran: what played since is not that key's), or None."""
        before = self.__dict__.get("_read")
        if before is None:
            return None
        now = self._files_read()
        return next((path for path, digest in before.items() if now.get(path) != digest), None)

    def user_strategies(self) -> list[str]:
        """The user strategies (``file.py:function``) the run plays, in order, each once."""
        from analyzer import games as registry
        from analyzer.strategies import parse_strategy

        spec = registry.get(self.game)
        found = []
        for name in (n.strip() for n in [*self.strategies, *self.seats.values(), *([self.rollout] if self.targets
                                                                                    else [])]):
            choice = parse_strategy(spec, name)
            if choice.function is not None:
                found.append(name)
            if choice.base is not None:  # mc:base=file.py:f
                found.append(str(choice.params["base"]).strip())
        return list(dict.fromkeys(found))

    def chunks(self) -> list[tuple[int, int]]:
        return [(start, min(self.chunk, self.games - start)) for start in range(0, self.games, self.chunk)]

    def travelling(self) -> "Run":
        """The run with the text of its user strategies' files, for a worker that may not
        see them (a Dask worker on another machine): ``landed`` writes them out there."""
        from analyzer.strategies import user_sources

        sources: dict[str, str] = {}
        for u in self.user_strategies():
            own, *helpers = user_sources(u).items()
            sources[own[0]] = own[1]
            sources.update((f"{own[0]}{HELPER}{relative}", text) for relative, text in helpers)
        sources.update((p, Path(p).read_text(encoding="utf-8")) for p, _ in self.targets)
        if not sources:
            return self
        moved = replace(self, sources=sources)
        moved.__dict__["key"] = self.key  # the same run: the same checkpoints
        return moved

    def landed(self) -> "Run":
        """On a worker: the run with its user strategies' files written under the cache
        (one folder per content: every worker of a machine shares it) and its texts pointing there."""
        if not self.sources:
            return self
        from analyzer.strategies import with_user_path

        where = self.land_sources()
        move = lambda t: with_user_path(t, where)  # noqa: E731
        return replace(self, sources={}, seats={k: move(v) for k, v in self.seats.items()},
                       strategies=[move(t) for t in self.strategies], rollout=move(self.rollout),
                       targets=[(where.get(p, p), i) for p, i in self.targets])

    def land_sources(self) -> dict[str, str]:
        """Write the travelling files under the cache (if not there yet), each with its local
        modules beside it, in a folder per content; {path given: path here}."""
        from analyzer.jit import sources_folder

        helpers: dict[str, list[tuple[str, str]]] = {}
        for key, text in self.sources.items():
            if HELPER in key:
                path, relative = key.split(HELPER, 1)
                helpers.setdefault(path, []).append((relative, text))
        where: dict[str, str] = {}
        for path, text in self.sources.items():
            if HELPER in path:
                continue
            files = [(Path(path).name, text), *sorted(helpers.get(path, []))]
            folder = sources_folder() / hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16]
            for relative, content in files:
                _write_once(folder / relative, content)
            where[path] = str(folder / Path(path).name)
        return where


# ---- job files --------------------------------------------------------------------------

def load_job(path: str | Path) -> list[Run]:
    """Read and validate a job file; errors name the run and the key."""
    path = Path(path)
    if not path.is_file():
        from analyzer.io import not_a_file

        raise AnalyzerError(f"job file {path} {not_a_file(path)}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise AnalyzerError(f"job file {path} is not valid TOML: {exc}") from None
    unknown = set(data) - {"run", "defaults"}
    if unknown:
        raise AnalyzerError(f"job file {path}: unknown top-level key {sorted(unknown)[0]!r} (expected [defaults] and [[run]])")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise AnalyzerError(f"job file {path}: [defaults] must be a table of run keys, not {defaults!r}")
    for key in defaults:  # named here: the run its error would name has no such key
        if key not in RUN_KEYS:
            raise AnalyzerError(f"job file {path}, [defaults], key {key!r}: unknown key "
                                f"(keys: {', '.join(sorted(RUN_KEYS))})")
    runs_data = data.get("run")
    if not isinstance(runs_data, list) or not runs_data:
        raise AnalyzerError(f"job file {path} has no runs: add [[run]] tables")
    for i, entry in enumerate(runs_data, start=1):
        if not isinstance(entry, dict):
            raise AnalyzerError(f"job file {path}: run {i} must be a [[run]] table, not {entry!r}"[:200])
    runs = [_validate(i, _with_defaults(defaults, entry)) for i, entry in enumerate(runs_data, start=1)]
    names = [r.name for r in runs]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"job file {path}: two runs are named {name!r}")
    return runs


def _with_defaults(defaults: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """A run's table with the [defaults] it takes: a key of [defaults] applies to the runs
    that take it in its sense (a simulate's ``chunk = 50000`` made a review run one chunk of
    every recorded game; its ``players`` refused the review run)."""
    review = entry.get("kind", defaults.get("kind")) == "review"
    skip = NOT_REVIEW_KEYS | REVIEW_OWN_KEYS if review else REVIEW_KEYS
    return {**{k: v for k, v in defaults.items() if k not in skip}, **entry}


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
    for key in ("kind", "game"):
        if key not in entry:
            raise fail(key, "missing")
    kind = entry["kind"]
    if kind not in KINDS:
        raise fail("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "review":
        return _validate_review(index, entry, label, fail)
    if "games" not in entry:
        raise fail("games", "missing")
    for key in sorted(REVIEW_KEYS & set(entry)):
        raise fail(key, "only a review run takes it")
    if "players" in entry and (not isinstance(entry["players"], int) or isinstance(entry["players"], bool)):
        raise fail("players", f"must be an integer, not {entry['players']!r}")
    games = entry["games"]
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise fail("games", f"must be a positive integer, not {games!r}")
    chunk = entry.get("chunk", DEFAULT_CHUNK)
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise fail("chunk", f"must be a positive integer, not {chunk!r}")
    if -(-games // chunk) > MAX_CHUNKS:
        raise fail("chunk", f"{chunk:,} makes {-(-games // chunk):,} chunks of the run's {games:,} games; at most "
                            f"{MAX_CHUNKS:,} (a checkpoint file each): give a larger chunk")
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
        if int(k) in seats:  # "0" and "00"
            raise fail("seats", f"seat {int(k)} is given twice")
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
                parse_strategy(spec, name)  # a user strategy: its file must load
        else:
            if strategies:
                raise fail("strategies", "a simulate run names its strategies per seat under 'seats'")
            resolve_seats(spec, spec.players(resolved), seats)
    except AnalyzerError as exc:
        if str(exc).startswith(label):
            raise
        raise fail("strategies" if kind == "compare" else "seats", str(exc)) from None
    except StrategyError as exc:  # a user strategy's file that does not load
        raise StrategyError(f"{label}, key {'strategies' if kind == 'compare' else 'seats'!r}: {exc}") from None
    alpha = entry.get("alpha", 0.05)
    if not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise fail("alpha", f"must be between 0 and 1, not {alpha!r}")
    name = entry.get("name", f"run{index}")
    if not isinstance(name, str) or not name or any(c in name for c in '/\\\0') or name.startswith("."):
        raise fail("name", f"must be a plain file name, not {name!r}"[:200])
    if len(name.encode()) > 100:
        raise fail("name", f"is {len(name.encode())} bytes long; at most 100")
    if name.lower().startswith("summary"):
        raise fail("name", f"{name!r} is reserved for the job's summary files")
    return Run(name=name, kind=kind, game=spec.name, games=games, seed=seed, players=spec.players(resolved),
               rules={k: v for k, v in resolved.items() if k != "players"}, seats=seats, strategies=strategies,
               chunk=chunk, alpha=float(alpha))


def _validate_review(index: int, entry: dict[str, Any], label: str, fail) -> Run:
    """A ``review`` run: the recorded games of ``records`` (a .jsonl file, a folder of them,
    or a list of either), each reviewed as ``analyzer review`` would; ``games`` (optional)
    takes the first N of them; ``chunk`` is games per chunk (default 1)."""
    from analyzer import games as registry
    from analyzer.strategies import parse_strategy

    for key in sorted(NOT_REVIEW_KEYS & set(entry)):
        raise fail(key, "a review run takes its players and rules from the records")
    if "records" not in entry:
        raise fail("records", "missing: a .jsonl file of recorded games, a folder of them, or a list")
    try:
        spec = registry.get(str(entry["game"]))
    except AnalyzerError as exc:
        raise fail("game", str(exc)) from None
    targets = _recorded_games(entry["records"], spec.name, fail)
    games = entry.get("games", len(targets))
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise fail("games", f"must be a positive integer, not {games!r}")
    if games > len(targets):
        raise fail("games", f"is {games}, but the records hold {len(targets)} {spec.name} game(s)")
    seats = entry.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                              for s in seats):
        raise fail("seats", "a review run takes a list of seat numbers, like [0, 2] (default: every seat)")
    for file, game_index, players in targets[:games]:  # checked here, not when the game is played
        if isinstance(players, int) and seats and max(seats) >= players:
            raise fail("seats", f"seat {max(seats)} does not exist in game {game_index} of {file} "
                                f"({players} players: seats 0 to {players - 1})")
    rollout = entry.get("rollout", "heuristic")
    if not isinstance(rollout, str):
        raise fail("rollout", f"must be a strategy name like \"heuristic\", not {rollout!r}")
    try:
        parse_strategy(spec, rollout)
    except AnalyzerError as exc:
        raise fail("rollout", str(exc)) from None
    except StrategyError as exc:
        raise StrategyError(f"{label}, key 'rollout': {exc}") from None
    samples = entry.get("samples", 2000)
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
        raise fail("samples", f"must be a positive integer (samples per decision), not {samples!r}")
    # the keys every kind shares (name, seed, chunk: games per chunk, default 1) checked as for a simulate run
    shared = {k: v for k, v in entry.items() if k not in REVIEW_KEYS | {"seats"}}
    run = _validate(index, shared | {"kind": "simulate", "games": games, "chunk": entry.get("chunk", 1)})
    return replace(run, kind="review", players=None, rules={}, targets=[t[:2] for t in targets[:games]],
                   review_seats=sorted(set(seats)), rollout=rollout, samples=samples)


def _recorded_games(given: Any, game: str, fail) -> list[tuple[str, int, Any]]:
    """(file, index, players as its header says) of every recorded game in ``given`` (file,
    folder or list), in order; a record of another game is refused."""
    items = given if isinstance(given, list) else [given]
    if not items or not all(isinstance(item, str) and item for item in items):
        raise fail("records", f"must be a path or a list of paths, not {given!r}"[:200])
    files: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.jsonl"))
            if not found:
                raise fail("records", f"folder {item} holds no .jsonl record")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise fail("records", f"{item} not found")
    targets: list[tuple[str, int, Any]] = []
    for file in dict.fromkeys(p.resolve() for p in files):
        heads = _game_heads(file, fail)
        for index, (name, players) in enumerate(heads):
            if name != game:
                raise fail("records", f"game {index} of {file} is {name!r}, not {game}")
            targets.append((str(file), index, players))
    return targets


def _game_heads(file: Path, fail) -> list[tuple[Any, Any]]:
    """The ``game`` and ``players`` of each recorded game's header in ``file``."""
    heads = []
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise fail("records", f"{file} is not a readable UTF-8 record") from None
    for n, line in enumerate(text.splitlines(), start=1):
        if '"game"' not in line or '"ev"' not in line:
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise fail("records", f"{file}, line {n}: not valid JSON") from None
        if isinstance(event, dict) and event.get("ev") == "game":
            heads.append((event.get("game"), event.get("players")))
    if not heads:
        raise fail("records", f"{file} holds no recorded game")
    return heads


#: in ``Run.sources``: a user strategy's local module, ``PATH::RELATIVE``
HELPER = "::"


def _write_once(target: Path, text: str) -> None:
    """``text`` in ``target`` unless it is there already; atomically (workers of one machine
    share the folder: io.write_text)."""
    from analyzer.io import write_text

    if target.exists() and target.read_text(encoding="utf-8") == text:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text(target, text)


# ---- chunks (run in workers) --------------------------------------------------------------

def play_chunk(run: Run, start: int, count: int, threads: int = 1, timeout: float | None = None) -> Any:
    """Play one chunk of a run (on ``threads`` numba threads); returns its exact, mergeable sums.
    ``timeout``: a kernel call of a simulate or compare chunk (all of it, up to CALL_GAMES
    games), or a round of samples of a review's decision, taking longer raises StrategyError."""
    from analyzer import api
    from analyzer.stats import Accumulator

    run = run.landed()
    if run.kind == "review":
        return _review_chunk(run, start, count, threads, timeout)
    if run.kind == "simulate":
        s = api.setup(run.game, run.players, run.seats, run.rules)
        acc = Accumulator(s.spec.columns(s.rules), s.spec.players(s.rules), s.spec.ratio_pairs(s.rules))
        from analyzer.runner import run_games

        result = api._user_compile_guard(s, lambda: run_games(
            s.run_chunk, run.seed, count, s.params, s.strat, acc, workers=threads, chunk=min(count, CALL_GAMES),
            first_index=start, describe_error=s.describe_error, timeout=timeout))
        if result.interrupted or result.games != count:
            raise KeyboardInterrupt  # a partial chunk is never saved as done
        return acc
    from analyzer.compare import Tournament
    from analyzer.runner import run_arms

    t = Tournament(run.game, run.strategies, run.players, run.rules)
    done, _, interrupted = t.guard(lambda: run_arms(t.arms, run.seed, count, lambda done, rows: t.fold(rows) and False,
                                                    workers=threads, first_index=start,
                                                    chunk=min(count, CALL_GAMES),
                                                    timeout=timeout))
    if interrupted or done != count:
        raise KeyboardInterrupt  # a partial chunk is never saved as done
    return t.state()


@dataclass(frozen=True)
class ChunkFailure:
    """A chunk stopped on a Dask worker by a fault of the job (a user strategy's, the
    input's): returned rather than raised, since Dask would play a failed task again
    (``retries`` are for workers that die) and log its traceback on the worker."""

    error: type
    message: str
    #: the worker's address when the chunk was abandoned past ``--timeout`` and its thread
    #: still spins there (a strategy stuck in a loop): only ending the process stops it
    stuck_on: str | None = None


def play_chunk_remote(run: Run, start: int, count: int, timeout: float | None = None,
                      own_worker: bool = False) -> Any:
    """``play_chunk`` on a Dask worker; a fault of the job comes back as a ChunkFailure,
    naming the user's strategy files by the paths the job gave, not where they landed.
    ``own_worker``: a worker of the job's own ``--local-cluster``, whose standard output is
    the command's: what a strategy prints goes to stderr there, as in the command itself
    (supervise.compiled_prints_to_stderr; a user's own cluster is left as it is)."""
    if own_worker:
        from analyzer.supervise import compiled_prints_to_stderr

        compiled_prints_to_stderr()
    try:
        return play_chunk(run, start, count, timeout=timeout)
    except (AnalyzerError, StrategyError) as exc:
        from distributed import get_worker

        from analyzer.runner import kernel_left_running

        message = str(exc)
        for given, landed in (run.land_sources() if run.sources else {}).items():
            message = message.replace(landed, given)
        return ChunkFailure(type(exc), message, get_worker().address if kernel_left_running() else None)


def _review_chunk(run: Run, start: int, count: int, threads: int, timeout: float | None = None) -> Any:
    """Review recorded games ``start .. start + count - 1`` of the run: their decisions' rows
    (review.review's table) with the record file and game index in front."""
    import pandas as pd

    from analyzer.review import review

    frames = []
    for record, index in run.targets[start:start + count]:
        result = review(run.game, record, index, run.review_seats or None, rollout=run.rollout,
                        samples=run.samples, seed=run.seed, workers=threads, timeout=timeout)
        if result.interrupted:
            raise KeyboardInterrupt  # a partial chunk is never saved as done
        frame = result.tables["decisions"]
        frame.insert(0, "game_index", index)
        frame.insert(0, "record", Path(record).name)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


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

    if run.kind == "review":
        from analyzer.review import batch_tables

        tables = batch_tables(parts)
        return {"tables": tables, "facts": {"games": len(run.targets), "decisions": len(tables["decisions"]),
                                            "rollout": run.rollout, "samples_per_decision": run.samples}}
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
class JobResult(Result):
    """A finished job: its runs, how many chunks it had (and had done before this call), its
    time, and ``tables["runs"]``: the summary (``OUT/summary.csv``) the command prints."""

    runs: list[Run]
    chunks_total: int
    chunks_done_before: int
    elapsed: float
    out: str
    tables: dict[str, Any] = field(default_factory=dict)

    def run_facts(self) -> dict[str, Any]:
        return {"out": self.out, "chunks": self.chunks_total, "chunks_done_before": self.chunks_done_before,
                "elapsed_s": round(self.elapsed, 3)}  # the runs: tables["runs"], one row each


class Checkpoints:
    """One file per finished chunk: ``OUT/.chunks/<run key>/<start>.pkl``, beside ``run.json``
    naming the run (``prune``).

    A file holds a header line (magic, the run key, the chunk's start and count, and the
    SHA-256 of the payload) and the pickled result. ``valid`` checks all of it, so a file
    that is truncated, garbage, or copied from another chunk or run is never used: it is
    removed (with a warning) and the chunk is played again.
    """

    MAGIC = b"analyzer-chunk-1"
    #: in a run key's folder: the run it holds the chunks of (``{"run": name, ...}``)
    OWNER = "run.json"

    def __init__(self, out: Path, warn=None) -> None:
        self.root = out / ".chunks"
        self.warn = warn or (lambda text: None)

    def path(self, run: Run, start: int) -> Path:
        return self.root / run.key / f"{start:012d}.pkl"

    def _header(self, run: Run, start: int, count: int, payload: bytes) -> bytes:
        digest = hashlib.sha256(payload).hexdigest()
        return b" ".join([self.MAGIC, run.key.encode(), str(start).encode(), str(count).encode(), digest.encode()])

    def save(self, run: Run, start: int, count: int, value: Any) -> None:
        from analyzer.io import atomic_path

        payload = pickle.dumps(value)
        target = self.path(run, start)
        _folder(target.parent)
        owner = target.parent / self.OWNER
        if not owner.exists():  # whose folder it is: ``prune`` removes it once the run has moved on
            from analyzer.io import write_text

            write_text(owner, json.dumps({"run": run.name, "kind": run.kind, "game": run.game}) + "\n")
        with atomic_path(target) as tmp:
            tmp.write_bytes(self._header(run, start, count, payload) + b"\n" + payload)

    def prune(self, runs: list[Run]) -> list[Path]:
        """After the job's results are written: remove the checkpoint folders of earlier
        versions of its runs (a folder whose ``OWNER`` names a run of the job, under another
        key: other settings, an edited strategy or record, another analyzer), whose results
        the job has just replaced. A run no longer in the job (renamed, removed) keeps its
        folder, and so does a folder that names no run (an older analyzer's). Called holding
        the lock: no other batch uses the folder. Returns the folders removed."""
        import shutil

        names, current = {run.name for run in runs}, {run.key for run in runs}
        removed = []
        try:
            folders = sorted(p for p in self.root.iterdir() if p.is_dir() and p.name not in current)
        except OSError:
            return removed
        for folder in folders:
            try:
                owner = json.loads((folder / self.OWNER).read_text(encoding="utf-8"))["run"]
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if owner in names:
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
        return removed

    def _payload(self, run: Run, start: int, count: int) -> bytes | None:
        """The checked payload of a chunk's file, or None when it is missing or does not prove
        that it holds this chunk of this run."""
        path = self.path(run, start)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:  # a folder in its place, a file it may not read: not ours to remove
            raise AnalyzerError(f"cannot read checkpoint {path}: {exc.strerror or exc}; remove it") from None
        header, _, payload = data.partition(b"\n")
        if header != self._header(run, start, count, payload):
            return None
        return payload

    def valid(self, run: Run, start: int, count: int) -> bool:
        """True for a checked chunk file; a file that fails the check is removed, with a warning."""
        path = self.path(run, start)
        if not path.exists():
            return False
        if self._payload(run, start, count) is not None:
            return True
        self.warn(f"warning: checkpoint {path} does not match run {run.name!r}, chunk {start:,}+{count:,}: "
                  "playing that chunk again")
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            raise AnalyzerError(f"cannot remove checkpoint {path}: {exc.strerror or exc}") from None
        return False

    def load(self, run: Run, start: int, count: int) -> Any:
        payload = self._payload(run, start, count)
        if payload is None:
            raise AnalyzerError(f"checkpoint {self.path(run, start)} changed while the job ran: run it again")
        return pickle.loads(payload)

    @contextlib.contextmanager
    def locked(self):
        """Hold the folder's lock for the whole job: a second batch on the same folder is refused."""
        import fcntl

        _folder(self.root)
        try:
            handle = open(self.root / "lock", "a+")
        except OSError as exc:
            raise AnalyzerError(f"cannot use {self.root / 'lock'}: {exc.strerror or exc}") from None
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise AnalyzerError(f"another batch job is running on {self.root.parent}: wait for it, "
                                    "or give another --out") from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _folder(path: Path) -> Path:
    """``path`` made a folder if it is not one (with its parents); an error in one line when
    it cannot be (a file in its place, a read-only disk)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise AnalyzerError(f"cannot write in {path}: it exists and is not a folder") from None
    except OSError as exc:
        raise AnalyzerError(f"cannot write in {path}: {exc.strerror or exc}") from None
    return path




def _remove_stale_parts(runs: list[Run], out: Path) -> None:
    """Remove the temporary files of the job's own writes that a job killed mid-write
    (SIGKILL, a power cut) left behind: checkpoints under ``.chunks/``, the runs' tables, the
    summary. Called holding the folder's lock, so no live batch is writing them; only names of
    the pattern batch writes are touched (a watched run's are removed by its watcher:
    analyzer.supervise)."""
    from analyzer.io import part_pattern

    chunk = part_pattern(r"(\d{12}\.pkl|run\.json)")
    table = part_pattern(r"\w+\.parquet")
    summary = part_pattern(r"summary\.(csv|json)")
    places = [(out, summary), *((out / run.name, table) for run in runs)]
    with contextlib.suppress(OSError):
        places += [(folder, chunk) for folder in (out / ".chunks").iterdir() if folder.is_dir()]
    for folder, pattern in places:
        try:
            names = [p for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".part")]
        except OSError:  # not there (or not a folder: _check_outputs says so)
            continue
        for path in names:
            if pattern.fullmatch(path.name) and path.is_file() and not path.is_symlink():
                with contextlib.suppress(OSError):
                    path.unlink()


def _check_outputs(runs: list[Run], out: Path) -> None:
    """Refuse, before anything is played, an output that could not be written at the end: a
    run's folder or a summary file whose name something else holds (a file, a folder)."""
    from analyzer.io import check_writable

    for run in runs:
        folder = out / run.name
        if folder.exists() and not folder.is_dir():
            raise AnalyzerError(f"cannot write the tables of run {run.name!r} in {folder}: it exists and is "
                                "not a folder")
    for name in ("summary.csv", "summary.json"):
        check_writable(out / name)


def run_job(job: str | Path, out: str | Path, workers: int | None = None, scheduler: str | None = None,
            local_cluster: int | None = None, progress: bool = False, warn=None,
            timeout: float | None = None) -> JobResult:
    """Run (or resume) every run of ``job``; results go to ``out``. ``timeout``: a chunk of a
    simulate or compare run (each part of CALL_GAMES games of a larger one), or a round of
    samples of a review run's decision, taking longer stops the job with StrategyError (its
    compiling not counted), keeping the chunks that finished.

    Interrupted (Ctrl-C, SIGTERM), it keeps the chunks that finished and raises
    :class:`JobInterrupted`, writing no result files; running it again resumes.
    """
    check_local_cluster(local_cluster)
    runs = load_job(job)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"--out {out} exists and is not a folder")
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AnalyzerError(f"cannot create --out {out}: {exc.strerror}") from None
    if created:  # removed as below by the watching process if this one crashes (analyzer.supervise)
        note_folder(str(out), kept="*.pkl")
    try:
        return _run_job(runs, out, workers, scheduler, local_cluster, progress, warn, timeout)
    except BaseException:
        if created and not any(p.suffix == ".pkl" for p in out.rglob("*")):
            import shutil

            shutil.rmtree(out, ignore_errors=True)  # nothing was saved: leave no empty folder behind
        raise
    finally:
        if created:
            note_folder(str(out), kept="*.pkl", done=True)


def check_local_cluster(workers: int | None) -> None:
    """A ``--local-cluster`` of 1 to LOCAL_CLUSTER_PER_CORE workers per core of this machine."""
    from analyzer.runner import available_cores

    if workers is None:
        return
    if workers < 1:
        raise AnalyzerError(f"--local-cluster takes a positive number of workers, not {workers}")
    cores = available_cores()
    most = LOCAL_CLUSTER_PER_CORE * cores
    if workers > most:
        raise AnalyzerError(f"--local-cluster {workers}: at most {most} on this machine ({count(cores, 'core')}): each "
                            "worker is a process with its own copy of the compiled kernels (several hundred MB) "
                            "playing on one core; more only wait their turn")


def _run_job(runs: list[Run], out: Path, workers: int | None, scheduler: str | None, local_cluster: int | None,
             progress: bool, warn, timeout: float | None) -> JobResult:
    store = Checkpoints(out, warn)
    with store.locked():
        _remove_stale_parts(runs, out)
        _check_outputs(runs, out)
        todo = [(run, start, count) for run in runs for start, count in run.chunks()
                if not store.valid(run, start, count)]
        total = sum(len(run.chunks()) for run in runs)
        started = time.perf_counter()
        display = _Display(runs, store, progress)
        done = [0]
        try:
            if todo:
                execute = _dask_execute if (scheduler or local_cluster) else _local_execute
                execute(todo, store, display, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
                        games=sorted({r.game for r in runs}), done=done, timeout=timeout, warn=warn)
        except KeyboardInterrupt:
            raise JobInterrupted(total - len(todo) + done[0], total) from None
        finally:
            display.close()
        _write_results(runs, store, out)
        store.prune(runs)
    return JobResult(runs, total, total - len(todo), time.perf_counter() - started, str(out),
                     {"runs": summary_frame(out)})


class JobInterrupted(KeyboardInterrupt):
    """A batch job stopped by Ctrl-C or SIGTERM; ``saved`` of ``total`` chunks are kept."""

    def __init__(self, saved: int, total: int) -> None:
        super().__init__(f"interrupted: {saved} of {total} chunk(s) saved; run the same command again to resume")
        self.saved, self.total = saved, total


def _local_execute(todo, store: Checkpoints, display, workers: int | None, done: list[int],
                   timeout: float | None, **_) -> None:
    """Play the chunks here, one after the other, each on ``workers`` numba threads.

    One process holds the compiled kernels once (a second process would hold them again:
    several hundred MB), and the threads split every chunk's games, so both cores are used
    and memory stays flat. A chunk's result does not depend on the number of threads.
    """
    from analyzer.runner import set_workers

    threads = set_workers(workers)
    for run, start, count in todo:
        try:
            result = play_chunk(run, start, count, threads, timeout)
        except (AnalyzerError, StrategyError) as exc:
            raise _in_run(run, start, count, exc) from None
        _unchanged(run, start, count)
        store.save(run, start, count, result)
        done[0] += 1
        display.advance(run)


def _unchanged(run: Run, start: int | None = None, count: int = 0) -> None:
    """Refuse to save a chunk played after a file the run reads changed: it played this
    process's new load of it (a user strategy's file is loaded again when its text changes),
    under the key of the old text, and would be merged with chunks of the old one. (Without
    ``start``: before a run's files travel to Dask workers.)"""
    changed = run.changed_file()
    if changed is None:
        return
    error = AnalyzerError(f"{changed} changed while the job ran{'' if start is None else ' (that chunk is not saved)'}: "
                          "run the same command again to play the run with the file as it is now")
    raise AnalyzerError(f"run {run.name!r}: {error}") if start is None else _in_run(run, start, count, error)


def _in_run(run: "Run", start: int, count: int, exc: Exception) -> Exception:
    """``exc`` (an AnalyzerError or StrategyError of a chunk) again, its message led by the run
    and the games it played: a job holds many runs."""
    games = f"game {start:,}" if count == 1 else f"games {start:,} to {start + count - 1:,}"
    return type(exc)(f"run {run.name!r}, {games}: {exc}")


def _dask_execute(todo, store: Checkpoints, display, scheduler: str | None, local_cluster: int | None,
                  games: list[str], done: list[int], timeout: float | None, warn=None, **_) -> None:
    from distributed import Client, KilledWorker, LocalCluster, as_completed

    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise AnalyzerError(f"cannot reach the Dask scheduler {scheduler!r}: {first}"[:300]) from None
    else:
        # silence_logs: the workers' warnings (a task cancelled when a run fails) and the
        # scheduler's errors (a task whose workers died: KilledWorker) are not the user's; the
        # job's own faults come back as ChunkFailure or KilledWorker, its errors in one line. The
        # scheduler's HTTP server (no dashboard) on a free port: on its default, 8787, taken by
        # any other Dask cluster, it warned "Port 8787 is already in use" on stderr
        cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=":0", scheduler_kwargs={"dashboard": False},
                               silence_logs=logging.CRITICAL)
        client = Client(cluster)
    try:
        client.run(warm_worker, games)
        futures = {}
        travelling = {id(run): run.travelling() for run, _, _ in todo}  # user strategies' files go along
        for run in {id(run): run for run, _, _ in todo}.values():  # what travels is what the key was taken of
            _unchanged(run)
        for run, start, count in todo:
            future = client.submit(play_chunk_remote, travelling[id(run)], start, count, timeout, cluster is not None,
                                   key=f"{run.key}-{start}", retries=3, pure=False)
            futures[future] = (run, start, count)
        for future in as_completed(futures):
            run, start, count = futures[future]
            try:
                result = future.result()
            except KilledWorker:
                client.cancel(list(futures))
                raise _workers_died(run, start, count) from None
            if isinstance(result, ChunkFailure):
                client.cancel(list(futures))
                if result.stuck_on and scheduler:
                    _restart_stuck_worker(client, result.stuck_on, warn)
                raise _in_run(run, start, count, result.error(result.message))
            store.save(run, start, count, result)
            done[0] += 1
            display.advance(run)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _workers_died(run: Run, start: int, count: int) -> Exception:
    """The error of a chunk whose every try killed its Dask worker: a crash of compiled code
    (a user strategy's runaway recursion overflows the stack) or of the machine (memory)."""
    where = f"run {run.name!r}: the Dask workers died playing its games {start} to {start + count - 1} (every try)"
    users = run.user_strategies()
    if users:
        who = f"user strateg{'ies' if len(users) > 1 else 'y'} {', '.join(users)}"
        return StrategyError(f"{where}: the engine crashed while {who} played? A strategy that recurses "
                             "without end (or too deep) overflows the stack")
    return AnalyzerError(f"{where}: out of memory? (the workers' logs say)")


def _restart_stuck_worker(client, address: str, warn) -> None:
    """Restart the Dask worker at ``address``, whose thread still runs a chunk abandoned past
    ``--timeout`` (numba's compiled loop cannot be stopped from Python): left alone, it would
    spin on a core of the user's cluster for ever. Its nanny starts it again; a worker
    without one is only named. (A ``--local-cluster`` ends with the job: nothing to do.)"""
    say = warn or (lambda text: None)
    try:
        client.restart_workers([address], timeout=60, raise_for_error=True)
    except Exception as exc:  # noqa: BLE001  (no nanny, gone, ...: the job's error comes first)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        say(f"warning: Dask worker {address} still runs the chunk stopped at --timeout and could not "
            f"be restarted ({reason[:120]}): restart it")
        return
    say(f"warning: restarted Dask worker {address}: the chunk stopped at --timeout still ran there")


def _write_results(runs: list[Run], store: Checkpoints, out: Path) -> None:
    import pandas as pd

    from analyzer import api
    from analyzer.io import atomic_path, write_text

    summary_rows, summary = [], {}
    for run in runs:
        result = finish_run(run, [store.load(run, start, count) for start, count in run.chunks()])
        folder = _folder(out / run.name)
        for table_name, frame in result["tables"].items():
            with atomic_path(folder / f"{table_name}.parquet") as tmp:
                frame.to_parquet(tmp, index=False)
        for old in set(folder.glob("*.parquet")) - {folder / f"{t}.parquet" for t in result["tables"]}:
            # a table of what the run was before (another kind or game under the same name):
            # left there, it would read as this run's
            with contextlib.suppress(OSError):
                old.unlink()
        facts = {"name": run.name, "kind": run.kind, "game": run.game, "seed": run.seed,
                 **result["facts"]}
        summary[run.name] = {"run": asdict(run), **api._clean(facts),
                             **{k: api._clean(v.to_dict(orient="records")) for k, v in result["tables"].items()}}
        summary_rows.append({**{k: v for k, v in facts.items() if not isinstance(v, (list, dict))},
                             **_headline(run, result["tables"])})
    write_text(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True, default=str))
    frame = pd.DataFrame(summary_rows)
    for column in COUNT_COLUMNS:
        if column in frame:  # a run of another kind has none: a float column (313.0) without this
            frame[column] = frame[column].astype("Int64")
    write_text(out / "summary.csv", frame.to_csv(index=False))


def _headline(run: Run, tables: dict[str, Any]) -> dict[str, Any]:
    """The run's main number, in the same columns for every kind: what a compare run found
    for its first pair, or a simulate run's most winning seat."""
    if run.kind == "compare":
        row = tables["pairs"].iloc[0]
        return {"what": f"{row['strategy']} vs {row['opponent']}", "win_rate": row["win_rate"],
                "win_rate_lo": row["win_rate_lo"], "win_rate_hi": row["win_rate_hi"], "p_value": row["p_value"]}
    if run.kind == "review":
        row = tables["seats"].sort_values("loss_per_game", ascending=False).iloc[0]
        # a sum of win-probability losses, not a probability: in points, as review says it
        spread = ("" if math.isnan(row["loss_per_game_lo"]) else
                  f" [{100 * row['loss_per_game_lo']:.1f}, {100 * row['loss_per_game_hi']:.1f}]")
        return {"what": f"seat {int(row['seat'])} loses most: {100 * row['loss_per_game']:.1f} points of win "
                        f"probability per game{spread}, {count(int(row['games']), 'game')}",
                "win_rate": None, "win_rate_lo": None, "win_rate_hi": None, "p_value": None}
    seats = tables.get("seats")
    if seats is None or "win_rate" not in seats:
        return {"what": "", "win_rate": None, "win_rate_lo": None, "win_rate_hi": None, "p_value": None}
    row = seats.sort_values("win_rate", ascending=False).iloc[0]
    return {"what": f"seat {row['seat']} ({row['strategy']}) wins most", "win_rate": row["win_rate"],
            "win_rate_lo": row["win_rate_lo"], "win_rate_hi": row["win_rate_hi"], "p_value": None}


def summary_frame(out: str | Path):
    """The job's summary.csv as a DataFrame (what ``analyzer batch`` prints at the end)."""
    import pandas as pd

    # counts as integers (a run of another kind leaves them empty: read alone, the column is float)
    return pd.read_csv(Path(out) / "summary.csv", dtype=dict.fromkeys(COUNT_COLUMNS, "Int64"))


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
            finished = sum(store.path(run, start).exists() for start, _ in chunks)
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
