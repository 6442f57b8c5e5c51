"""Decision evaluation: "given what I can see, how good is each option I have?"

A *position* is what one seat knows at a decision. Each game's spec turns one (given as
flags, a JSON file, or decision N of a record) into an :class:`Evaluation`: the legal
options and a compiled kernel that plays every option on the same sampled deals with the
same future random numbers (common random numbers), returning per sample and option the
hand outcome and whether the seat went on to win the game.

Here the samples are spent: in rounds that double in size; after each round an option
whose paired difference to the current best is below zero by more than ``RACE_Z`` standard
errors is dropped (racing), and the run stops when the best option is separated from all
others, when the intervals are within ``precision``, when ``time`` is up, or after
``samples`` samples.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer.errors import AnalyzerError
from analyzer.stats import Z95, wilson

RACE_Z = 3.0
FIRST_ROUND = 256


@dataclass
class Worlds:
    """Every assignment of the hidden cards consistent with the seat's view, when they are
    few enough to enumerate (see ``Evaluation.worlds``).

    A *world* fixes which hidden card is where (each other hand, the dead cards, the set of
    cards in the stock); what stays random is only what the rules leave to the future (the
    stock's order, the rollout strategies' coin flips)."""

    weights: np.ndarray   # float64[W]: relative probability of each world (any positive scale)
    run: Callable[[int, int, np.ndarray, int, int], np.ndarray]
    # (seed, start, option codes, n, threads) -> int64[n, k, 2], like Evaluation.run, with
    # sample start + j played in world (start + j) % W instead of a sampled one


@dataclass
class Evaluation:
    """What a game hands to the generic evaluator.

    ``run(seed, start, codes, n, threads)`` plays every option in ``codes`` on samples
    ``start .. start + n - 1`` (common random numbers: sample j is the same hidden cards and
    the same future for every option) and returns int64[n, k, 2]: per sample and option the
    hand outcome and 1 if the seat went on to win the game. With ``weighted`` it returns a
    pair ``(result, weights)``, weights float64[n] the importance weight of each sample
    (e.g. Pitch's inference from bids).

    ``groups``: the options that are equivalent in the position (interchangeable cards, the
    same move reached two ways), as lists of indices into ``options``; the evaluator plays
    one of each group and reports the group as one row. None: every option is distinct.

    ``worlds(limit)``: the consistent worlds with their exact weights when they number at
    most ``limit``, else None (then samples are drawn). None: the game cannot enumerate.
    """

    seat: int
    options: list[int]                 # move codes
    names: list[str]                   # their record text
    outcome: str                       # name of the hand outcome, e.g. "went_over"
    outcome_binary: bool
    run: Callable[..., Any]
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    groups: list[list[int]] | None = None
    worlds: Callable[[int], Worlds | None] | None = None
    weighted: bool = False
    lower_is_better: bool = False      # of the hand outcome (points taken, went over)


@dataclass
class EvaluationResult:
    game: str
    position: dict[str, Any]
    samples: int
    elapsed: float
    stopped: str
    tables: dict[str, pd.DataFrame]

    @property
    def table(self) -> pd.DataFrame:
        """The ranked options."""
        return self.tables["options"]

    def to_dict(self) -> dict[str, Any]:
        from analyzer.api import _clean

        return _clean({"game": self.game, "position": self.position, "samples": self.samples,
                       "elapsed_s": round(self.elapsed, 3), "stopped": self.stopped,
                       **{k: v.to_dict(orient="records") for k, v in self.tables.items()}})


class _Stats:
    """Running sums per option, and the paired cross sums needed for differences."""

    def __init__(self, k: int) -> None:
        self.n = np.zeros(k, dtype=np.int64)
        self.s = np.zeros((k, 2))
        self.sq = np.zeros((k, 2))
        self.cross = np.zeros((k, k))      # sum of win_i * win_j over shared samples
        self.shared = np.zeros((k, k), dtype=np.int64)
        self.pair_sum = np.zeros((k, k))   # sum of win_i - win_j over shared samples
        self.pair_sq = np.zeros((k, k))    # sum of (win_i - win_j)**2 over shared samples

    def add(self, active: list[int], result: np.ndarray) -> None:
        values = result.astype(np.float64)
        idx = np.array(active)
        n = values.shape[0]
        self.n[idx] += n
        self.s[idx] += values.sum(axis=0)
        self.sq[idx] += (values ** 2).sum(axis=0)
        wins = values[:, :, 1]
        cross = wins.T @ wins                      # sum of win_i * win_j, every active pair
        col = wins.sum(axis=0)
        col_sq = (wins * wins).sum(axis=0)
        block = np.ix_(idx, idx)
        self.cross[block] += cross
        self.pair_sum[block] += col[:, None] - col[None, :]
        self.pair_sq[block] += col_sq[:, None] + col_sq[None, :] - 2 * cross
        self.shared[block] += n

    def mean(self, i: int, col: int) -> float:
        return self.s[i, col] / self.n[i] if self.n[i] else math.nan

    def var(self, i: int, col: int) -> float:
        n = self.n[i]
        if n < 2:
            return math.nan
        m = self.s[i, col] / n
        return max(self.sq[i, col] / n - m * m, 0.0) * n / (n - 1)

    def diff(self, i: int, j: int) -> tuple[float, float]:
        """Paired difference of win rates (i - j) over their shared samples, and its SE."""
        n = self.shared[i, j]
        if n < 2:
            return math.nan, math.nan
        d = self.pair_sum[i, j] / n
        var = max(self.pair_sq[i, j] / n - d * d, 0.0) * n / (n - 1)
        return d, math.sqrt(var / n)


def evaluate(game: str, position: dict[str, Any] | None = None, *, record: str | None = None,
             game_index: int = 0, at: int | None = None, players: int | None = None,
             rules: dict[str, Any] | None = None, rollout: dict[int, str] | list[str] | str = "heuristic",
             samples: int = 20_000, precision: float | None = None, seconds: float | None = None,
             seed: int = 0, workers: int | None = None, progress: bool = False) -> EvaluationResult:
    """Evaluate every legal option of a position; returns a ranked table (DataFrame)."""
    from analyzer import api
    from analyzer import games as registry
    from analyzer.runner import Progress, set_workers
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get(game)
    if not hasattr(spec, "evaluation"):
        raise AnalyzerError(f"evaluate is not available for {spec.name} yet")
    if samples < 1:
        raise AnalyzerError(f"--samples must be positive, not {samples}")
    if precision is not None and not 0 < precision < 1:
        raise AnalyzerError(f"--precision must be between 0 and 1, not {precision}")
    seed = api.check_seed(seed)
    if record is not None:
        position = spec.position_from_record(_read_record(record, game_index, spec.name), at)
    if position is None:
        raise AnalyzerError("give a position: flags, --position FILE.json, or --record FILE --at N")
    resolved = spec.resolve_rules({**position.get("rules", {}), **(rules or {})}, players or position.get("players"))
    p = spec.players(resolved)
    seats = [rollout] * p if isinstance(rollout, str) else rollout
    chosen = resolve_seats(spec, p, seats)
    strat, functions = strategy_array(spec, chosen)
    if functions:
        raise AnalyzerError("rollout strategies must be built-in")
    ev: Evaluation = spec.evaluation(resolved, position, strat, infer=False)
    threads = set_workers(workers)
    k = len(ev.options)
    stats = _Stats(k)
    active = list(range(k))
    done, size, stopped = 0, FIRST_ROUND, "samples"
    started = time.perf_counter()
    bar = Progress(samples, f"evaluate {spec.name}", progress)
    try:
        while done < samples:
            n = min(size, samples - done)
            codes = np.array([ev.options[i] for i in active], dtype=np.int64)
            stats.add(active, ev.run(seed, done, codes, n, threads))
            done += n
            bar.update(done)
            size *= 2
            if len(active) > 1:
                best = max(active, key=lambda i: stats.mean(i, 1))
                keep = []
                for i in active:
                    d, se = stats.diff(i, best)
                    if i == best or not (d + RACE_Z * se < 0):
                        keep.append(i)
                active = keep
            if len(active) == 1 and k > 1:
                stopped = "separated"
                break
            if precision is not None and all(_half_width(stats, i) <= precision for i in active):
                stopped = "precision"
                break
            if seconds is not None and time.perf_counter() - started >= seconds:
                stopped = "time"
                break
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        bar.close()
    tables = {"options": _table(ev, stats, active)}
    if str(position.get("decision", "")) == "bid" and hasattr(spec, "bid_table"):
        # Pitch: "how much is this hand worth?" per trump suit and bid
        tables.update(spec.bid_table(resolved, position, strat, samples, seed, threads))
    return EvaluationResult(spec.name, position, done, time.perf_counter() - started, stopped, tables)


def as_int(value: Any, name: str) -> int:
    """An integer position value (given as a number or as text), with a clear error."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise AnalyzerError(f"{name} takes an integer, not {value!r}") from None


def int_list(value: Any, name: str) -> list[int]:
    """``[3, 1, 2]`` or ``"3,1,2"`` -> ``[3, 1, 2]`` with a clear error."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)):
        raise AnalyzerError(f"{name} takes a list of integers, like 0,5,12,0, not {value!r}")
    return [as_int(v, name) for v in value]


def card_list(value: Any) -> list[str]:
    """``"AS KD"`` or ``["AS", "KD"]`` -> tokens (parsed and checked by the game's deck)."""
    return value.replace(",", " ").split() if isinstance(value, str) else [str(v) for v in value]


def _half_width(stats: _Stats, i: int) -> float:
    lo, hi = wilson(stats.s[i, 1], stats.n[i])
    return (hi - lo) / 2


def _table(ev: Evaluation, stats: _Stats, active: list[int]) -> pd.DataFrame:
    k = len(ev.options)
    best = max(range(k), key=lambda i: stats.mean(i, 1))
    p_best = _prob_best(stats, k)
    rows = []
    for i in range(k):
        row: dict[str, Any] = {"option": ev.names[i], "samples": int(stats.n[i])}
        m = stats.mean(i, 0)
        if ev.outcome_binary:
            lo, hi = wilson(stats.s[i, 0], stats.n[i])
        else:
            half = Z95 * math.sqrt(stats.var(i, 0) / stats.n[i]) if stats.n[i] > 1 else math.nan
            lo, hi = m - half, m + half
        row[ev.outcome], row[ev.outcome + "_lo"], row[ev.outcome + "_hi"] = m, lo, hi
        w = stats.mean(i, 1)
        wlo, whi = wilson(stats.s[i, 1], stats.n[i])
        row["win"], row["win_lo"], row["win_hi"] = w, wlo, whi
        d, se = stats.diff(i, best) if i != best else (0.0, 0.0)
        row["diff_to_best"], row["diff_se"] = d, se
        row["p_best"] = p_best[i]
        row["dropped"] = i not in active
        rows.append(row)
    frame = pd.DataFrame(rows).sort_values("win", ascending=False).reset_index(drop=True)
    frame.insert(0, "rank", range(1, len(frame) + 1))
    return frame


def _prob_best(stats: _Stats, k: int, draws: int = 4000) -> np.ndarray:
    """P(option is the best) under a normal approximation of the estimated win rates."""
    if k == 1:
        return np.ones(1)
    mean = np.array([stats.mean(i, 1) for i in range(k)])
    cov = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            n = stats.shared[i, j]
            if n > 1 and stats.n[i] > 1 and stats.n[j] > 1:
                c = stats.cross[i, j] / n - mean[i] * mean[j]
                cov[i, j] = c / max(stats.n[i], stats.n[j])
    cov += np.eye(k) * 1e-12
    gen = np.random.default_rng(12345)
    try:
        sample = gen.multivariate_normal(mean, cov, size=draws, method="eigh")
    except (np.linalg.LinAlgError, ValueError):
        sample = mean + gen.normal(size=(draws, k)) * np.sqrt(np.diag(cov))
    return np.bincount(sample.argmax(axis=1), minlength=k) / draws


def _read_record(path: str, index: int, game: str) -> list[dict[str, Any]]:
    import json
    from pathlib import Path

    file = Path(path)
    if not file.is_file():
        raise AnalyzerError(f"record file {path} not found")
    games: list[list[dict[str, Any]]] = []
    for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            raise AnalyzerError(f"record file {path}, line {n}: not valid JSON") from None
        if event.get("ev") == "game":
            games.append([])
        if not games:
            raise AnalyzerError(f"record file {path}: line {n} comes before any game event")
        games[-1].append(event)
    if not 0 <= index < len(games):
        raise AnalyzerError(f"record file {path} holds {len(games)} game(s); --game {index} does not exist")
    if games[index][0].get("game") != game:
        raise AnalyzerError(f"record game {index} is {games[index][0].get('game')!r}, not {game}")
    return games[index]
