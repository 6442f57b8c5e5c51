"""The Python API: every CLI command is a thin wrapper over a function here.

>>> from analyzer import api
>>> result = api.simulate("ninety-nine", games=2000, seed=1, seats={0: "random"})
>>> result.tables["seats"][["seat", "strategy", "win_rate"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer import games as registry
from analyzer import records
from analyzer.errors import AnalyzerError, StrategyError, StrategyTimeout
from analyzer.games.base import GameSpec
from analyzer.io import RowWriter
from analyzer.runner import run_games
from analyzer.stats import Accumulator
from analyzer.strategies import SeatStrategy, resolve_seats, strategy_array
from analyzer.results import Result, clean

MAX_SEED = 2**64 - 1
MAX_INDEX = 2**62  # game indexes are int64 in the kernels


@dataclass
class Summary(Result):
    """What ``simulate`` returns: tables (DataFrames) and the run's facts."""

    game: str
    rules: dict[str, Any]
    seed: int
    strategies: list[str]
    games: int
    hands: int
    elapsed: float
    interrupted: bool
    tables: dict[str, pd.DataFrame]
    totals: dict[str, Any] = field(default_factory=dict)

    def verdict(self) -> str:
        """One line: which seat (in a game of teams, which team) won most often, and whether it
        is told apart from the rest. Partners win together: between seats of one team an
        overlap says nothing."""
        teams = self.tables.get("teams")
        if teams is not None and "win_rate" in teams and not teams.empty:
            return _leader_line(teams, "team", lambda r: f"seats {r['seats']}: {r['strategies']}")
        seats = self.tables.get("seats")
        if seats is None or "win_rate" not in seats or seats.empty:
            return ""
        return _leader_line(seats, "seat", lambda r: r["strategy"])

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "rules": self.rules, "seed": self.seed, "strategies": self.strategies,
                "games": self.games, "hands": self.hands, "elapsed_s": round(self.elapsed, 4),
                "interrupted": self.interrupted, "totals": self.totals}


_clean = clean  # the name the modules use


def _leader_line(table: pd.DataFrame, unit: str, who: Callable[[pd.Series], str]) -> str:
    """The verdict of a seats (or teams) table: its leader in win rate, its interval, and
    the others whose intervals reach it (``unit``: "seat" or "team", its column). Leaders
    with the same win rate are named together, as tied (not the one a sort put first)."""
    from analyzer.terminal import texts_apart

    ranked = table.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    top = ranked.iloc[0]
    tied = [r for _, r in ranked.iterrows() if r["win_rate"] == top["win_rate"]]
    rate, lo, hi = texts_apart((top["win_rate"], top["win_rate_lo"], top["win_rate_hi"]), 3)
    if len(tied) == 1:
        line = f"{unit.capitalize()} {top[unit]} ({who(top)}) won most often: {rate} of the games [{lo}, {hi}]"
        its = "its interval overlaps"
    else:
        leaders = [f"{r[unit]} ({who(r)})" for r in tied]
        line = (f"{unit.capitalize()}s {', '.join(leaders[:-1])} and {leaders[-1]} tied for the most wins: {rate} "
                f"of the games each [{lo}, {hi}]")
        its = "their intervals overlap"
    close = [r for _, r in ranked.iloc[len(tied):].iterrows() if r["win_rate_hi"] >= top["win_rate_lo"]]
    if close:
        if len(close) == 1:
            names = f"{unit} {close[0][unit]}'s"
        else:  # "those of seats 4, 1 and 5", "... 4, 1, 5 and 2 more": not "seat 4, seat 1, seat 5 ...'s"
            named = [str(r[unit]) for r in close[:3]]
            more = len(close) - len(named)
            names = (f"those of {unit}s {', '.join(named[:-1])} and {named[-1]}" if not more else
                     f"those of {unit}s {', '.join(named)} and {more} more")
        line += f"; {its} {names} (compare on duplicate deals tells more)"
    elif len(ranked) > len(tied):
        line += f"; clearly ahead of every other {unit}"
    return line + "."


# ---- listing ---------------------------------------------------------------------------

def games() -> pd.DataFrame:
    """Games, player counts, rule options and their defaults."""
    rows = []
    for name in registry.names():
        spec = registry.get(name)
        options, defaults = [], {}
        for opt in spec.options:
            if opt.name == "players":
                continue
            default = defaults[opt.name] = opt.default_for(spec.default_players)
            text = str(default).lower() if isinstance(default, bool) else str(default)
            if callable(opt.default):
                text += " (depends on players)"
            options.append(f"{opt.name}={text}")
        players = (f"{spec.min_players}" if spec.min_players == spec.max_players
                   else f"{spec.min_players}-{spec.max_players} (default {spec.default_players})")
        # the text for the terminal, and the same as numbers for --json
        rows.append({"game": name, "title": spec.title, "players": players, "options": ", ".join(options),
                     "min_players": spec.min_players, "max_players": spec.max_players,
                     "default_players": spec.default_players, "defaults": defaults})
    return pd.DataFrame(rows)


def strategies(game: str) -> pd.DataFrame:
    spec = registry.get(game)
    rows = [{"strategy": name, "description": info.description,
             "parameters": ", ".join(f"{k}={v}" for k, v in info.params.items())}
            for name, info in spec.strategies.items()]
    return pd.DataFrame(rows)


# ---- set-up shared by simulate and play -----------------------------------------------

@dataclass
class Setup:
    spec: GameSpec
    rules: dict[str, Any]
    params: np.ndarray
    seats: list[SeatStrategy]
    strat: np.ndarray
    run_chunk: Callable
    run_traced: Callable
    user: bool

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.seats]

    def describe_error(self, seed: int, index: int, err: np.ndarray) -> str:
        """The one-line error of game ``index`` of run ``seed``, stopped by an illegal move."""
        return records.replayed_illegal_move(self.spec, self.run_traced, self.rules, self.params, self.strat,
                                             self.labels, seed, index, err)


def check_seed(seed: int) -> int:
    if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        raise AnalyzerError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
    return int(seed)


def setup(game: str, players: int | None = None, seats: dict[int, str] | list[str] | None = None,
          rules: dict[str, Any] | None = None) -> Setup:
    spec = registry.get(game)
    resolved = spec.resolve_rules(rules, players)
    chosen = resolve_seats(spec, spec.players(resolved), seats)
    strat, functions = strategy_array(spec, chosen)
    if functions:
        run_chunk, run_traced = spec.user_kernels(functions)
    else:
        run_chunk, run_traced = spec.kernels()
    return Setup(spec, resolved, spec.params(resolved), chosen, strat, run_chunk, run_traced, bool(functions))


def _user_compile_guard(setup_: Setup, call: Callable[[], Any]) -> Any:
    """Run ``call``; a user strategy that fails to compile, or raises while it plays (an
    index out of bounds included: user code is compiled with bounds checks), becomes a
    one-line StrategyError naming the strategy and the game."""
    if not setup_.user:
        return call()
    return user_guard(setup_.spec, [s.user_label for s in setup_.seats if s.user_functions], call)


def user_guard(spec: GameSpec, labels: list[str], call: Callable[[], Any]) -> Any:
    """``_user_compile_guard`` for any run with the user strategies ``labels`` (compare,
    evaluate, batch chunks): their failures as one-line StrategyErrors."""
    from numba.core.errors import NumbaError

    from analyzer.engine import ILLEGAL_MARK, NotAMove

    names = ", ".join(dict.fromkeys(labels))
    try:
        return _traced(call)
    except StrategyTimeout as exc:  # the strategies a loop would be in: the user's (built-ins end)
        who = f"user strateg{'ies' if len(dict.fromkeys(labels)) > 1 else 'y'} {names}"
        raise StrategyTimeout(str(exc).replace("a strategy may be stuck", f"{who} may be stuck", 1)) from None
    except NotAMove as exc:
        raise StrategyError(f"user strategy {names} {exc}") from None
    except NumbaError as exc:
        said = condense_numba_error(exc)  # "returns a string ('K'), ...": said of the strategy
        raise StrategyError(f"user strategy {names} {'' if said.startswith('returns ') else 'failed to compile: '}"
                            f"{said}") from None
    except Exception as exc:  # noqa: BLE001  (what user code can raise; the rest is raised again)
        cause = exc.__cause__ or exc.__context__ or exc
        if isinstance(exc, (AnalyzerError, StrategyError)) or not _raised_by_user_code(cause):
            raise
        if ILLEGAL_MARK in str(cause):
            raise StrategyError(f"user strategy {names} {_illegal_in_rollout(spec, cause.args)}") from None
        if isinstance(exc, SystemError) and cause is exc:
            text = "an error"
        else:
            text = f"{type(cause).__name__}: {cause}" if str(cause) else type(cause).__name__
        engine = _engine_fault_under_debug(cause, labels)
        if engine is not None:  # no frame of the user's on the stack: not the strategy's doing
            raise StrategyError(f"the engine raised {text} ({engine}) under --debug while user strategy {names} "
                                f"played {spec.name}: a fault of the analyzer's code, not of the strategy") from None
        raise StrategyError(f"user strategy {names} raised {text} while playing {spec.name}"[:300]) from None


def _engine_fault_under_debug(cause: BaseException, labels: list[str]) -> str | None:
    """Under ``--debug`` (the engine runs as Python, so an index out of range in its own code
    raises, as the user's does), where ``cause`` was raised (``kernel.py, line 265``) when no
    frame of its traceback is in the user's files (the strategies' folders, the analyzer's
    package left out); else None: the user's code raised it, or called what did."""
    import re
    import traceback
    from pathlib import Path

    from analyzer.jit import DEBUG

    frames = traceback.extract_tb(cause.__traceback__) if DEBUG else []
    if not frames:
        return None
    package = Path(__file__).resolve().parent
    folders = {Path(m).resolve().parent for label in labels for m in re.findall(r"[^\s=,]+\.py", label)}

    def users(filename: str) -> bool:
        path = Path(filename).resolve()
        return not path.is_relative_to(package) and any(path.is_relative_to(folder) for folder in folders)

    if any(users(frame.filename) for frame in frames):
        return None
    return f"{Path(frames[-1].filename).name}, line {frames[-1].lineno}"


#: what compiled user code raises: numba's own faults (an index out of bounds: user code is
#: bounds-checked), a failed allocation, and the built-in exceptions a strategy may raise
_USER_CODE_RAISES = (SystemError, IndexError, ValueError, ZeroDivisionError, AssertionError, TypeError,
                     OverflowError, ArithmeticError, LookupError, MemoryError, RuntimeError, OSError,
                     BufferError, EOFError, StopIteration)


def _raised_by_user_code(cause: BaseException) -> bool:
    """Whether ``cause`` (the error a failure wraps, or the failure) is one compiled user code
    raises: a kind of ``_USER_CODE_RAISES``, or an exception class the user's own code defines."""
    from analyzer.strategies import is_user_module

    if isinstance(cause, _USER_CODE_RAISES):
        return True
    module = sys.modules.get(type(cause).__module__)
    return module is not None and is_user_module(module)


def _illegal_in_rollout(spec: GameSpec, args: tuple) -> str:
    """What a user strategy did, from the ValueError(ILLEGAL_MARK, move, seat, n, legal codes
    ...) of ``slots.refuse_move`` (the one place that raises the mark): where no game record
    (and no decision number) exists, in an evaluation's rollouts or a search strategy's base."""
    move, seat, n, codes = int(args[1]), int(args[2]), int(args[3]), [int(c) for c in args[4:]]
    return (f"returned an illegal move {spec.move_name(move)!r} as seat {seat} while a rollout or a search "
            f"played {spec.name}" + records.legal_moves_named(spec, codes[:n], n))


def _traced(call: Callable[[], Any]) -> Any:
    """``call()``; under ``analyzer --debug`` a failure's Python traceback (into the user's
    code: the engine runs uncompiled) goes to stderr before it becomes one line."""
    from analyzer.engine import NotAMove
    from analyzer.jit import DEBUG

    try:
        return call()
    except (AnalyzerError, StrategyError, NotAMove):
        raise  # the engine's own findings (an illegal move, not a move): the one line says it all
    except Exception:
        if DEBUG:
            import traceback

            traceback.print_exc()
        raise


def condense_numba_error(exc: BaseException) -> str:
    """numba's many-line typing error reduced to the line that says what is wrong (in a
    strategy's terms where the cause is a common one: a return that is not a move, a global
    list, a write to a module's array, a plain Python function called), with the place in the
    user's file that numba names."""
    import re
    from pathlib import Path

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [line.strip() for line in text.splitlines()]
    noise = ("Failed in ", "During:", "File ", "Resolution failure", "- Resolution", "This error", "^",
             "Rewrite", "[1]", "[2]", "Known", "Of which", "For more", "See ", "Please", "<")
    said = None
    for line in lines:  # a common cause, wherever numba says it
        if line.startswith("No conversion from none to"):  # its return value typed as None
            return "it returns no move: no path reaches a return of one of legal[:n]"
        returned = re.match(r"No conversion from (.+) to int64 for '\$\w*return_value", line)
        if returned:  # the slot casts the strategy's result to a move: said of the strategy
            return f"returns {_numba_type_said(returned.group(1))}, not an integer move (one of legal[:n])"
        if "Cannot modify readonly array" in line:
            said = ("writes to a read-only array: numba compiles an array of the module's in as a "
                    "constant (a strategy keeps nothing between decisions; write to a local array)")
            break
        reflected = re.search(r"reflected (list|set)\(.*assigned to variable '(\w+)' in globals", line)
        if reflected:
            said = (f"reads the global {reflected.group(1)} {reflected.group(2)!r}, which numba cannot "
                    "compile in: make it a tuple (or a numpy array)")
            break
    for i, line in enumerate(lines if said is None else []):  # else its first line that says something
        if line and not line.startswith(noise):
            said = line
            if line.endswith("found for signature:"):  # the signature is on a line of its own
                said += " " + next((x.lstrip("> ") for x in lines[i + 1:] if x.startswith(">>>")), "")
            elif re.search(r"Cannot determine Numba type of <class '(function|type)'>", line):
                said += " (a plain Python function or class: a strategy calls only @njit functions)"
            said = said[:200]
            break
    if said is None:
        return type(exc).__name__
    # where: the first place numba names (the innermost), in a file of the user's (not the
    # analyzer's slot that calls the strategy, nor an installed library)
    for place in re.finditer(r'File "([^"]+)", line (\d+)', text):
        name = Path(place.group(1)).name
        if not place.group(1).startswith("<") and "site-packages" not in place.group(1) \
                and name not in ("slot_counted.py", "slot_plain.py"):
            return f"{said} ({name}, line {place.group(2)})"
    return said


def _numba_type_said(name: str) -> str:
    """A numba type a strategy returned, as a user would say it (``Literal[str](K)``: a
    string ('K'))."""
    import re

    literal = re.fullmatch(r"Literal\[str\]\((.*)\)", name)
    if literal:
        return f"a string ({literal.group(1)!r})"
    if name in ("unicode_type", "str"):
        return "a string"
    if name.startswith(("Tuple(", "UniTuple(")):
        return f"a tuple {name[name.index('('):]}"
    return name


# ---- simulate ----------------------------------------------------------------------------

def per_game_frame(spec: GameSpec, rules: dict[str, Any], start: int, rows: np.ndarray) -> pd.DataFrame:
    """One row per game: index, winners (seats joined by ';'), hands, final scores, extras."""
    columns = spec.columns(rules)
    frame = pd.DataFrame(rows, columns=columns)
    players = spec.players(rules)
    mask = frame.pop("winners").to_numpy()
    winners = [";".join(str(s) for s in range(players) if m >> s & 1) for m in mask]
    frame.insert(0, "winners", winners)
    frame.insert(0, "index", np.arange(start, start + len(rows), dtype=np.int64))
    return frame


def simulate(game: str, games: int = 10_000, seed: int = 0, players: int | None = None,
             seats: dict[int, str] | list[str] | None = None, rules: dict[str, Any] | None = None,
             workers: int | None = None, out: str | None = None, progress: bool = False,
             chunk: int | None = None, timeout: float | None = None) -> Summary:
    """Play ``games`` games and summarize them per seat (see Summary.tables)."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 1 <= games <= MAX_INDEX:
        raise AnalyzerError(f"--games must be a positive integer up to 2**62, not {games!r}")
    seed = check_seed(seed)
    s = setup(game, players, seats, rules)
    acc = Accumulator(s.spec.columns(s.rules), s.spec.players(s.rules), s.spec.ratio_pairs(s.rules))
    writer = RowWriter(out) if out is not None else None
    on_rows = (lambda start, rows: writer.write(per_game_frame(s.spec, s.rules, start, rows))) if writer else None
    ok = False
    try:
        result = _user_compile_guard(s, lambda: run_games(
            s.run_chunk, seed, int(games), s.params, s.strat, acc, workers=workers,
            describe_error=s.describe_error, on_rows=on_rows, progress=progress,
            label=f"{s.spec.name}", chunk=chunk, timeout=timeout))
        ok = result.games > 0  # interrupted: the rows of the finished games, whole, are kept
    finally:
        if writer:
            writer.close(ok)
    if result.games == 0:
        raise KeyboardInterrupt
    tables = s.spec.summarize(acc, s.rules, s.labels)
    totals = tables.pop("totals", {})
    return Summary(s.spec.name, s.rules, seed, s.labels, result.games, int(acc.col("hands")[0]),
                   result.elapsed, result.interrupted, tables, totals)


# ---- play ----------------------------------------------------------------------------------

def play(game: str, seed: int = 0, index: int = 0, games: int = 1, players: int | None = None,
         seats: dict[int, str] | list[str] | None = None,
         rules: dict[str, Any] | None = None, timeout: float | None = None) -> list[list[dict[str, Any]]]:
    """Records (docs/record.md events) of games ``index .. index + games - 1`` of run ``seed``
    (``timeout``: seconds a game may take before the run stops with an error)."""
    seed = check_seed(seed)
    if not 0 <= index < MAX_INDEX:
        raise AnalyzerError(f"--index must be from 0 to {MAX_INDEX - 1:,} (2**62 - 1), not {index:,}")
    if not 1 <= games <= MAX_INDEX - index:
        raise AnalyzerError(f"--games must be from 1 to {MAX_INDEX - index:,} (the last game's index stays "
                            f"below 2**62), not {games:,}")
    s = setup(game, players, seats, rules)
    return [
        _user_compile_guard(s, lambda i=i: records.record_game(
            s.spec, s.run_traced, s.rules, seed, i, s.params, s.strat, s.labels, timeout))
        for i in range(index, index + games)
    ]


def replay_text(game: str, events: list[dict[str, Any]]) -> str:
    return records.to_text(registry.get(game), events)


# ---- the other commands: this module is the one façade the CLI calls --------------------------

def evaluate(game: str, position: dict[str, Any] | None = None, **options: Any):
    """How good is each option of a position? See :func:`analyzer.evaluate.evaluate`."""
    from analyzer.evaluate import evaluate as run

    return run(game, position, **options)


def solve(game: str, position: dict[str, Any] | None = None, **options: Any):
    """The exact value of every legal move with every card known. See :func:`analyzer.solve.solve`."""
    from analyzer.solve import solve as run

    return run(game, position, **options)


def review(game: str, record: str, game_index: int = 0, seats: list[int] | None = None, **options: Any):
    """The cost of every decision of a recorded game. See :func:`analyzer.review.review`."""
    from analyzer.review import review as run

    return run(game, record, game_index, seats, **options)


def compare(game: str, strategies: list[str], **options: Any):
    """Duplicate-deal tournament of strategies. See :func:`analyzer.compare.compare`."""
    from analyzer.compare import compare as run

    return run(game, strategies, **options)


def variants(game: str, grid: list[dict[str, Any]], **options: Any):
    """Rule-variant study on duplicate deals. See :func:`analyzer.compare.variants`."""
    from analyzer.compare import variants as run

    return run(game, grid, **options)


def rule_grid(items: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """``--rule`` items -> the variants to study (one when no name repeats)."""
    from analyzer.compare import rule_grid as grid

    return grid(items)


def batch(job: str, out: str, **options: Any):
    """Run or resume a job file. See :func:`analyzer.batch.run_job`."""
    from analyzer.batch import run_job

    return run_job(job, out, **options)


def batch_summary(out: str) -> pd.DataFrame:
    """A finished job's summary table."""
    from analyzer.batch import summary_frame

    return summary_frame(out)


def report(game: str, out: str, **options: Any):
    """Build a strategy report. See :func:`analyzer.report.build_report`."""
    from analyzer.report import build_report

    return build_report(game, out, **options)


def cache(prune: bool = False, clear: bool = False):
    """What the on-disk cache holds; ``prune`` removes what no run of this version reads
    again, ``clear`` everything. See :func:`analyzer.cache.survey`."""
    from analyzer.cache import survey

    return survey(prune=prune, clear=clear)
