"""Strategy reports: one folder per game with a Markdown report, PNG figures, CSV tables,
and the same report as one self-contained HTML file.

>>> from analyzer.report import build_report
>>> build_report(game, f"reports/{game}", quick=True)  # doctest: +SKIP

This module is the common machinery, and knows no game: the report's document (blocks
rendered to Markdown and HTML), the findings that open it, its tables with their 95%
intervals and minimum cell size, the provenance, the strategy tournament on duplicate
deals, the convergence of the headline number (sized sequentially to a stated precision),
and the streaming readers of records and simulations the studies use. Each game's own
study, and its rules in brief, live in its package (``analyzer/games/<game>/study.py``,
found through ``GameSpec.study()``): ``RULES_BRIEF`` and ``build(r, spec, rules)``.

Honest numbers, for every table:

- proportions have Wilson intervals (at the effective sample size when the observations
  are clustered), so never outside [0, 1]; means have normal intervals clipped to the
  range the data can take (the observed minimum and maximum);
- observations of one game are not independent (turns of a round, rounds of a game): the
  record-based tables are clustered by game (cluster-robust variance of the per-game sums);
- a cell with fewer than ``MIN_N`` observations, or from fewer than ``MIN_N`` clusters
  (games, deals), is shown as ``n < MIN_N`` (its intervals and standard errors), left out of
  the figures and never stated as a finding; a clustered table shows its clusters;
- a finding calls a row the most, least or best only when the data tell it apart from every
  other row (``leader``: each difference's interval, paired where the design is, leaves
  out 0); else it says which row it cannot be told from.

Every run uses the same ``seed``, and results never depend on ``workers`` (each game has
its own random streams), so the same command gives the same numbers on any machine; only
the timings differ.
"""

from __future__ import annotations

import base64
import html
import math
import os
import platform
import re
import shlex
import shutil
import textwrap
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from analyzer import report_plots as plots
from analyzer.errors import AnalyzerError
from analyzer.runner import run_arms
from analyzer.stats import clusters_at_most, flags_interval, proportion_interval, sample_mean_interval, t95
from analyzer.supervise import note_folder

FIGURES, TABLES = "figures", "tables"
MARKDOWN, HTML = "report.md", "report.html"
MAX_ROWS_SHOWN = 40
#: the smallest cell shown with its numbers, drawn in a figure or stated as a finding
MIN_N = 30
#: at most this many findings open a report (the headline and the study's)
MAX_FINDINGS = 5


# ---- sizes ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    """How much is played for each part of a report."""

    tournament: int            # duplicate deals of the round robin without mc
    tournament_mc: int         # ... when mc takes part (it is far slower)
    mc_k: int                  # samples per decision of mc
    ladder: int                # most duplicate deals of a pairing of the search ladder (pimc, ismcts, mc, heuristic, random)
    ladder_first_look: int     # its first look: each pairing stops at the first look (doubling) that decides it
    pimc_k: int                # sampled worlds per decision of pimc in the ladder
    ismcts_iterations: int     # iterations per decision of ismcts in the ladder
    mc_k_low: int              # the ladder's second, smaller budget of each search strategy
    pimc_k_low: int
    ismcts_iterations_low: int
    speed_games: int           # games timed per ladder strategy (its time per decision)
    convergence_first: int     # first look of the headline's sequential sizing (then doubling)
    convergence_max: int       # its largest number of deals
    convergence_target: float  # stop at the first look whose 95% half-width is at most this
    simulate: int              # games of each api.simulate run
    records: int               # recorded games for the per-hand studies (default players)
    records_sweep: int         # recorded games per player count in sweeps
    records_batch: int         # recorded games read at a time (memory stays flat)
    max_sweep_players: int     # largest player count of a sweep
    deals: int                 # dealt hands of a counterfactual study (paired rollouts)
    rollouts: int              # rollouts per dealt hand and option of a counterfactual study
    paired_max: int            # most deals of a paired card-value study (looks from ``deals``, doubling)
    paired_target: float       # ... it stops at the first look whose headline 95% half-width is at most this


QUICK = Sizes(tournament=400, tournament_mc=24, mc_k=8, ladder=2, ladder_first_look=1, pimc_k=4, ismcts_iterations=20,
              mc_k_low=2, pimc_k_low=2, ismcts_iterations_low=5, speed_games=1,
              convergence_first=250, convergence_max=2000,
              convergence_target=0.02, simulate=1000, records=120, records_sweep=40, records_batch=60,
              max_sweep_players=5, deals=300, rollouts=4, paired_max=1200, paired_target=0.5)
FULL = Sizes(tournament=20_000, tournament_mc=1000, mc_k=16, ladder=200, ladder_first_look=50, pimc_k=8, ismcts_iterations=1000,
             mc_k_low=4, pimc_k_low=2, ismcts_iterations_low=250, speed_games=6,
             convergence_first=500, convergence_max=256_000,
             convergence_target=0.005, simulate=100_000, records=4000, records_sweep=1000, records_batch=100,
             max_sweep_players=8, deals=12_000, rollouts=8, paired_max=1_536_000,
             paired_target=0.05)


# ---- intervals, clustered where observations share a game -----------------------------------

mean_ci = sample_mean_interval
prop_ci = flags_interval


def put(row: dict[str, Any], name: str, value: tuple[float, float, float]) -> None:
    row[name], row[name + "_lo"], row[name + "_hi"] = value


def _cluster_variance(sums: np.ndarray, counts: np.ndarray, mean: float) -> float:
    """Cluster-robust variance of a ratio mean sum(S_c) / sum(n_c) from per-cluster sums
    (linearisation; C / (C - 1) small-sample factor). nan below two clusters."""
    k = len(sums)
    n = float(counts.sum())
    if k < 2 or n <= 0:
        return math.nan
    u = (sums - mean * counts) / n
    return float(k / (k - 1) * (u * u).sum())


def clustered_interval(sums: np.ndarray, counts: np.ndarray, kind: str, low: float = -math.inf,
                       high: float = math.inf) -> tuple[float, float, float]:
    """Mean of per-cluster sums with its 95% interval: Wilson at the effective sample size for
    a proportion (``kind == "prop"``, inside [0, 1]), else normal clipped to [low, high]. A
    proportion at exactly 0 or 1 (or without spread between clusters) has no effective size
    of its own: it gets Wilson at the effective number of clusters
    (``stats.clusters_at_most``), never at the observations (their cluster may share one
    outcome)."""
    sums, counts = np.asarray(sums, dtype=float), np.asarray(counts, dtype=float)
    n = float(counts.sum())
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = float(sums.sum()) / n
    var = _cluster_variance(sums, counts, mean)
    if not math.isfinite(var):
        return (mean, math.nan, math.nan)
    df = len(sums) - 1  # the variance comes from the clusters: Student's t (stats.t95)
    if kind == "prop":
        lo, hi = proportion_interval(mean, var, clusters_at_most(n, float((counts * counts).sum())), df=df)
        return (mean, lo, hi)
    half = t95(df) * math.sqrt(var)
    return (mean, max(low, mean - half), min(high, mean + half))


def clustered_difference(a_sums, a_counts, b_sums, b_counts) -> tuple[float, float, float]:
    """Difference of two clustered means (a - b) over the same clusters (aligned arrays; a
    cluster without observations of a side has count 0 there), with the cluster-robust
    variance of the difference (the covariance of the two sides within a cluster counted)."""
    a_s, a_n, b_s, b_n = (np.asarray(x, dtype=float) for x in (a_sums, a_counts, b_sums, b_counts))
    na, nb = a_n.sum(), b_n.sum()
    k = len(a_s)
    if na <= 0 or nb <= 0 or k < 2:
        return (math.nan, math.nan, math.nan)
    ma, mb = a_s.sum() / na, b_s.sum() / nb
    u = (a_s - ma * a_n) / na - (b_s - mb * b_n) / nb
    half = t95(k - 1) * math.sqrt(k / (k - 1) * float((u * u).sum()))
    d = float(ma - mb)
    return (d, d - half, d + half)


class Cells:
    """Per-cell statistics of observations grouped by ``by``, clustered by ``cluster``
    (e.g. the game), built batch by batch: each batch is reduced at once to per-(cell,
    cluster) sums, so memory follows the cells and clusters, not the observations.

    ``measures``: name -> (column, "prop" | "mean"). ``add`` takes a DataFrame of
    observations holding the ``by`` columns, the ``cluster`` column and the measured columns.
    """

    def __init__(self, by: list[str] | str, measures: dict[str, tuple[str, str]], cluster: str | None = "game") -> None:
        self.by = [by] if isinstance(by, str) else list(by)
        self.measures = measures
        self.cluster = cluster
        self.parts: list[pd.DataFrame] = []
        self.observations = 0

    def add(self, frame: pd.DataFrame) -> None:
        if frame.empty:
            return
        self.observations += len(frame)
        frame = frame.copy()
        key = "_cluster"
        frame[key] = frame[self.cluster] if self.cluster else np.arange(len(frame))
        columns = sorted({c for c, _ in self.measures.values()})
        values = frame[columns].astype(float)
        agg = values.groupby([frame[b] for b in self.by] + [frame[key]], sort=False)
        sums = agg.sum().add_suffix("__s")
        lows = agg.min().add_suffix("__min")
        highs = agg.max().add_suffix("__max")
        counts = agg.size().rename("__n")
        self.parts.append(pd.concat([sums, lows, highs, counts], axis=1).reset_index())

    def frame(self) -> pd.DataFrame:
        return pd.concat(self.parts, ignore_index=True) if self.parts else pd.DataFrame()

    def table(self) -> pd.DataFrame:
        """One row per cell: the ``by`` values, ``n`` (observations), ``clusters`` and each
        measure with its interval."""
        names = [c for name in self.measures for c in (name, name + "_lo", name + "_hi")]
        data = self.frame()
        if data.empty:
            return pd.DataFrame(columns=[*self.by, "n", "clusters", *names])
        rows = []
        for key, part in data.groupby(self.by, sort=True):
            key = key if isinstance(key, tuple) else (key,)
            row: dict[str, Any] = dict(zip(self.by, key))
            row["n"] = int(part["__n"].sum())
            row["clusters"] = int(part["_cluster"].nunique())
            for name, (column, kind) in self.measures.items():
                put(row, name, clustered_interval(part[column + "__s"], part["__n"], kind,
                                                  float(part[column + "__min"].min()),
                                                  float(part[column + "__max"].max())))
            rows.append(row)
        return pd.DataFrame(rows)

    def difference(self, flag: str, column: str, within: list[str] | None = None) -> pd.DataFrame:
        """Per value of ``within`` (cells of the other ``by`` columns): the mean of ``column``
        where ``flag`` is true minus where it is false, clustered, with ``n_with``, ``n_without``
        and ``n`` (the smaller of the two), and the clusters each side comes from
        (``clusters_with``, ``clusters_without``, ``clusters``: the smaller)."""
        within = within if within is not None else [b for b in self.by if b != flag]
        data = self.frame()
        rows = []
        for key, part in (data.groupby(within, sort=True) if within else [((), data)]):
            key = key if isinstance(key, tuple) else (key,)
            yes = part[part[flag].astype(bool)].groupby("_cluster")[[column + "__s", "__n"]].sum()
            no = part[~part[flag].astype(bool)].groupby("_cluster")[[column + "__s", "__n"]].sum()
            both = yes.merge(no, how="outer", left_index=True, right_index=True, suffixes=("_y", "_n")).fillna(0.0)
            row: dict[str, Any] = dict(zip(within, key))
            row["n_with"], row["n_without"] = int(both["__n_y"].sum()), int(both["__n_n"].sum())
            row["n"] = min(row["n_with"], row["n_without"])
            row["clusters_with"], row["clusters_without"] = int(len(yes)), int(len(no))
            row["clusters"] = min(row["clusters_with"], row["clusters_without"])
            put(row, "difference", clustered_difference(both[column + "__s_y"], both["__n_y"],
                                                        both[column + "__s_n"], both["__n_n"]))
            rows.append(row)
        return pd.DataFrame(rows)


def paired_row(with_: np.ndarray, without: np.ndarray, kind: str) -> dict[str, Any]:
    """One paired measure: ``n`` (pairs, one per deal: the deal is the cluster), the means
    ``with`` and ``without`` with their 95% intervals (Wilson for a proportion, ``kind ==
    "prop"``), and ``difference`` = with - without with the paired interval (the deal's two
    arms are correlated; clipped to [-1, 1] for a proportion)."""
    a, b = np.asarray(with_, dtype=float), np.asarray(without, dtype=float)
    ones = np.ones(len(a))
    row: dict[str, Any] = {"n": len(a)}
    for name, x in (("with", a), ("without", b)):
        bounds = (float(x.min()), float(x.max())) if len(x) else (-math.inf, math.inf)
        put(row, name, clustered_interval(x, ones, kind, *bounds))
    d, lo, hi = clustered_difference(a, ones, b, ones)
    if kind == "prop":
        lo, hi = max(lo, -1.0), min(hi, 1.0)
    put(row, "difference", (d, lo, hi))
    return row


def paired_choice_rows(part: pd.DataFrame, label: dict[str, Any], measures: Iterable[str], chosen: str, other: str,
                       policy: str) -> list[dict[str, Any]]:
    """The rows of a paired choice study for one class of positions (``part``: a row per
    position, each measure's mean over the position's samples in columns ``"<measure>|<arm>"``,
    proportions; ``policy``: 1.0 where the strategy played made ``chosen``): per measure,
    ``label``, n (positions), each arm's chance named after the arm, ``difference`` = chosen -
    other paired (clustered by position: its samples share their hidden cards), and how often
    the strategy made the choice (column ``policy``), each with its 95% interval."""
    made = clustered_interval(part[policy], np.ones(len(part)), "prop")
    rows = []
    for name in measures:
        paired = paired_row(part[f"{name}|{chosen}"], part[f"{name}|{other}"], "prop")
        row = {**label, "measure": name,
               **{k.replace("without", other).replace("with", chosen): v for k, v in paired.items()}}
        put(row, policy, made)
        rows.append(row)
    return rows


def clear_effects(table: pd.DataFrame, measure: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of a paired table's ``measure`` with at least MIN_N positions whose difference
    is clearly above 0 and clearly below it (its 95% interval excludes no change)."""
    rows = enough(table[table["measure"] == measure])
    return rows[rows["difference_lo"] > 0], rows[rows["difference_hi"] < 0]


@dataclass(frozen=True)
class Leader:
    """The row with the highest (or lowest) estimate of a table and whether the data tell it
    apart from the rest: ``apart`` when its difference to every other row (paired where the
    design is) has a 95% interval that excludes 0 on its side. ``other`` is the runner-up when
    it is apart, else the row nearest in estimate that it cannot be told from;
    ``difference`` = leader - other with its interval."""

    row: dict[str, Any]
    apart: bool
    other: Any
    difference: tuple[float, float, float]


def leader(rows: pd.DataFrame, key: str, column: str,
           difference: Callable[[Any, Any], tuple[float, float, float]], highest: bool = True) -> Leader | None:
    """The leader of ``rows`` by ``column`` (highest, or lowest with ``highest=False``), rows
    named by ``key``; ``difference(a, b)`` gives a - b with its 95% interval, as the design
    of the rows has it (paired, clustered). None with fewer than two rows: a superlative needs
    something to beat. A superlative ("the most", "the best") is stated only when ``apart``;
    ranking by the estimates alone would call a winner among equals."""
    if len(rows) < 2:
        return None
    ordered = rows.sort_values(column, ascending=not highest, kind="stable")
    top = ordered.iloc[0].to_dict()
    others = [ordered.iloc[i].to_dict()[key] for i in range(1, len(ordered))]
    for other in others:  # nearest first
        d = difference(top[key], other)
        if not (_is_number(d[1]) and _is_number(d[2]) and (d[1] > 0 if highest else d[2] < 0)):
            return Leader(top, False, other, d)
    return Leader(top, True, others[0], difference(top[key], others[0]))


def half_width(row: Mapping[str, Any], name: str = "difference") -> float:
    """Half the width of a row's 95% interval of ``name`` (inf when it has none)."""
    lo, hi = row.get(name + "_lo"), row.get(name + "_hi")
    return (hi - lo) / 2 if _is_number(lo) and _is_number(hi) and math.isfinite(hi - lo) else math.inf


def sequential(first: int, last: int, target: float, play: Callable[[int, int], pd.DataFrame],
               precision: Callable[[pd.DataFrame], float]) -> tuple[pd.DataFrame, int]:
    """Play deals in looks (``first``, then doubling, up to ``last``): ``play(start, n)``
    returns the rows of deals start .. start + n - 1; stop at the first look whose
    ``precision(rows so far)`` (a 95% half-width) is at most ``target``. Returns the rows and
    the deals played. Each deal has its own streams, so a look's rows do not depend on how
    the deals before it were chunked."""
    parts, done = [], 0
    for look in _looks(first, last):
        parts.append(play(done, look - done))
        done = look
        if precision(pd.concat(parts, ignore_index=True)) <= target:
            break
    return pd.concat(parts, ignore_index=True), done


def grouped(frame: pd.DataFrame, by: list[str] | str, measures: dict[str, tuple[str, str]],
            cluster: str | None = None) -> pd.DataFrame:
    """Per group: ``n`` and each measure ``name -> (column, 'mean'|'prop')`` with its
    interval (clustered by ``cluster`` when given, else the rows are independent)."""
    cells = Cells(by, measures, cluster)
    cells.add(frame)
    table = cells.table()
    return table.drop(columns="clusters") if cluster is None and "clusters" in table else table


def below_minimum(frame: pd.DataFrame, count: str = "n", clusters: str | None = "clusters") -> np.ndarray:
    """Per row, whether it is under the minimum: fewer than MIN_N observations (column
    ``count``) or, on clustered data, fewer than MIN_N clusters (column ``clusters``: the games
    or deals its observations come from, where the table has it). Many turns of a few games
    are a few games' worth of evidence: a clustered interval from under MIN_N clusters is as
    unreliable as a plain one from under MIN_N observations."""
    small = np.zeros(len(frame), dtype=bool)
    for column in (count, clusters):
        if column and column in frame.columns:
            small |= (pd.to_numeric(frame[column], errors="coerce").fillna(0) < MIN_N).to_numpy()
    return small


def enough(frame: pd.DataFrame, count: str = "n", clusters: str | None = "clusters") -> pd.DataFrame:
    """The rows of a table with at least MIN_N observations and, where the table counts its
    clusters (column ``clusters``), at least MIN_N clusters: what figures and findings use."""
    return frame[~below_minimum(frame, count, clusters)]


def interval_text(value: float, lo: float, hi: float, fmt: str = "{:.3f}") -> str:
    return f"{fmt.format(value)} [{fmt.format(lo)}, {fmt.format(hi)}]"


def finding_text(template: str, row: Mapping[str, Any], column: str, count: str = "n",
                 fmt: str = "{:.3f}", clusters: str | None = "clusters", unit: str = "games") -> str | None:
    """A finding from one table row: ``template`` with ``{value}`` (the row's ``column`` and
    its 95% interval), ``{n}`` (``n = 1,234``) and ``{clusters}`` (``567 games``: the row's
    ``clusters`` column, named ``unit``), or None when the row has fewer than MIN_N
    observations, fewer than MIN_N clusters (where it counts them) or no finite interval
    (such a row is never stated as a finding)."""
    n = row.get(count)
    k = row.get(clusters) if clusters else None
    values = [row.get(column), row.get(column + "_lo"), row.get(column + "_hi")]
    if n is None or not n >= MIN_N or (k is not None and not k >= MIN_N) or \
            not all(isinstance(v, (int, float, np.integer, np.floating)) and math.isfinite(v) for v in values):
        return None
    return template.format(value=interval_text(*values, fmt=fmt), n=f"n = {int(n):,}",
                           clusters=f"{int(k):,} {unit}" if k is not None else "")


# ---- the document: blocks rendered to Markdown and HTML ------------------------------------

def _run_line(game: str, part: str, row: dict[str, str]) -> str:
    """One short line saying which run of the report starts: ``GAME ladder: 8 strategies,
    200 deals``."""
    names = row["strategies"].split()
    who = row["strategies"] if 0 < len(names) <= 2 or "(" in row["strategies"] else f"{len(names)} strategies"
    sizes = [f"{row[k]} {k if row[k] != '1' else k[:-1]}" for k in ("deals", "games") if row[k]]
    if row["players"]:
        sizes.append(f"{row['players']} players")
    return f"{game} {part}: " + ", ".join([w for w in [who] if w] + sizes)


class Report:
    """Collects the report's blocks, findings, tables and figures, and writes its files."""

    def __init__(self, game: str, out: Path, quick: bool, seed: int, workers: int | None,
                 progress: bool = False, log: Callable[[str], None] | None = None,
                 timeout: float | None = None) -> None:
        self.game, self.out, self.quick, self.seed, self.workers = game, out, quick, seed, workers
        #: seconds a chunk of games (of a game, where one is played at a time) may take: a
        #: given strategy stuck in a loop stops the report with an error
        self.timeout = timeout
        #: progress bars for the long runs (a terminal), and a line per run as it starts and ends
        self.progress, self.log = progress, log
        self.sizes = QUICK if quick else FULL
        self.blocks: list[tuple] = []
        self.runs: list[dict[str, Any]] = []
        self.figures: list[Path] = []
        self.tables: dict[str, Path] = {}
        self.findings: list[str] = []

    # blocks
    def h(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(("ul", items))

    def code(self, text: str) -> None:
        self.blocks.append(("code", text))

    def table(self, name: str, frame: pd.DataFrame, caption: str, show: list[str] | None = None,
              method: str = "", count: str = "n", clusters: str | None = "clusters") -> pd.DataFrame:
        """Write ``tables/NAME.csv`` (all columns) and show ``show`` columns in the report;
        ``method`` (one sentence) says how the numbers were made; rows under the minimum
        (``below_minimum``: fewer than MIN_N of ``count``, or of ``clusters`` where the table
        counts the games or deals its rows come from) show ``n < MIN_N`` instead of their
        intervals and standard errors (and are marked in the CSV's ``below_min_n`` column).
        The ``clusters`` column is always shown, beside the counts."""
        frame = frame.copy()
        if len(frame) and (count in frame.columns or (clusters and clusters in frame.columns)):
            frame["below_min_n"] = below_minimum(frame, count, clusters)
        path = self.out / TABLES / f"{name}.csv"
        frame.to_csv(path, index=False)
        self.tables[name] = path
        if show is not None and clusters and clusters in frame.columns and clusters not in show:
            show = _with_clusters(show, count, clusters)
        shown = frame.copy() if show is None else frame[[c for c in _expand(show, frame) if c in frame.columns]].copy()
        if "below_min_n" in frame.columns:
            shown.attrs["small"] = frame["below_min_n"].to_numpy()
            shown = shown.drop(columns="below_min_n", errors="ignore")
        text = f"{caption} (`{TABLES}/{name}.csv`)"
        if method:
            text = f"{text}. Method: {method}"
        self.blocks.append(("table", shown, text))
        return frame

    def figure(self, path: Path, caption: str) -> None:
        self.figures.append(path)
        self.blocks.append(("fig", path.relative_to(self.out).as_posix(), caption))

    def fig_path(self, name: str) -> Path:
        return self.out / FIGURES / f"{name}.png"

    def finding(self, text: str | None) -> bool:
        """Add a finding (a sentence made by ``finding_text`` from a table row); None (a row
        under MIN_N or without an interval) adds nothing."""
        if text is None or len(self.findings) >= MAX_FINDINGS:
            return False
        self.findings.append(text)
        return True

    # runs, timed and logged for the provenance table
    def run(self, part: str, what: str, call: Callable[[], Any], **facts: Any) -> Any:
        started = time.perf_counter()
        row = {"part": part, "call": what, "strategies": "", "players": "", "deals": "", "games": ""}
        row.update({k: (f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)) for k, v in facts.items()})
        if self.log is not None:
            self.log(_run_line(self.game, part, row))
        result = call()
        if getattr(result, "interrupted", False):
            # a run stopped by Ctrl-C or SIGTERM (compare and simulate return what they
            # played): a report of it would be wrong, so none is written
            raise KeyboardInterrupt
        row["seconds"] = f"{time.perf_counter() - started:.2f}"
        self.runs.append(row)
        if self.log is not None:
            self.log(f"{self.game} {part}: done in {float(row['seconds']):,.1f} s")
        return result

    # the streaming readers the studies use
    def records(self, part: str, n: int, reduce: Callable[[list[list[dict[str, Any]]], int], None],
                players: int | None = None, seats: list[str] | None = None) -> None:
        """Play ``n`` recorded games (``api.play``) in batches of ``sizes.records_batch`` and
        hand each batch with the index of its first game to ``reduce`` (which keeps only its
        reductions: memory stays flat in ``n``)."""
        from analyzer import api

        def play_all() -> None:
            batch = self.sizes.records_batch
            for start in range(0, n, batch):
                games = api.play(self.game, seed=self.seed, index=start, games=min(batch, n - start),
                                 players=players, seats=seats)
                reduce(games, start)
                del games  # else this batch's records live on while the next one is played: two at the peak

        self.run(part, "api.play (streamed)", play_all, games=n, players=players or "",
                 strategies=" ".join(seats) if seats else "heuristic (all)")

    def simulate(self, part: str, n: int, players: int | None = None, seats: list[str] | None = None):
        from analyzer import api

        return self.run(part, "api.simulate", lambda: api.simulate(
            self.game, games=n, seed=self.seed, players=players, seats=seats, workers=self.workers,
            timeout=self.timeout),
            games=n, players=players or "", strategies=" ".join(seats) if seats else "heuristic (all)")


def _with_clusters(show: list[str], count: str, clusters: str) -> list[str]:
    """``show`` with the ``clusters`` column after the last count it shows (``count``, or the
    ``n_with`` / ``n_without`` of a difference), else last."""
    counts = [i for i, c in enumerate(show) if c == count or c.startswith("n_")]
    at = counts[-1] + 1 if counts else len(show)
    return [*show[:at], clusters, *show[at:]]


def _expand(show: list[str], frame: pd.DataFrame) -> list[str]:
    out = []
    for c in show:
        out.append(c)
        for suffix in ("_lo", "_hi"):
            if c + suffix in frame.columns:
                out.append(c + suffix)
    return out


def _fmt_number(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            return "–"
        if v == int(v) and abs(v) >= 1000:
            return f"{int(v):,}"
        if abs(v) >= 100:
            return f"{v:.1f}"
        if abs(v) >= 10:
            return f"{v:.2f}"
        return f"{v:.3f}"
    return str(v)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_)) \
        and math.isfinite(x)


def _is_spread(column: str) -> bool:
    """Whether a column holds a standard error or a half-width (``difference_se``,
    ``win_rate_se_unpaired``, ``half_width``)."""
    return column.endswith("_se") or "_se_" in column or column == "half_width"


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Numbers as text; ``x``, ``x_lo``, ``x_hi`` become one column ``x [lo, hi]``; in a row
    under the minimum (``frame.attrs["small"]``) such a column, and a standard error or
    half-width, reads ``n < MIN_N``."""
    cols = list(frame.columns)
    small = frame.attrs.get("small")
    small = np.zeros(len(frame), dtype=bool) if small is None or len(small) != len(frame) else small
    out: dict[str, list[str]] = {}
    for c in cols:
        if c.endswith("_lo") or c.endswith("_hi"):
            if c[:-3] in cols:
                continue
        if c + "_lo" in cols and c + "_hi" in cols:
            out[f"{c} [95% CI]"] = [
                f"n < {MIN_N}" if tiny else
                f"{_fmt_number(v)} [{_fmt_number(lo)}, {_fmt_number(hi)}]" if all(_is_number(x) for x in (v, lo, hi))
                else _fmt_number(v)
                for v, lo, hi, tiny in zip(frame[c], frame[c + "_lo"], frame[c + "_hi"], small)
            ]
        elif _is_spread(c):  # a standard error or half-width is an interval too
            out[c] = [f"n < {MIN_N}" if tiny else _fmt_number(v) for v, tiny in zip(frame[c], small)]
        elif c == "p_value":  # never "0.000": "< 1e-4"
            out[c] = [_p_cell(v) if _is_number(v) else _fmt_number(v) for v in frame[c]]
        else:
            out[c] = [_fmt_number(v) for v in frame[c]]
    return pd.DataFrame(out)


def _inline_md_to_html(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"<em>\1</em>", text)
    text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', text)
    return text


def _shown_rows(block: tuple) -> tuple[pd.DataFrame, str]:
    frame, caption = display_frame(block[1]), block[2]
    more = len(frame) - MAX_ROWS_SHOWN
    note = f" First {MAX_ROWS_SHOWN} rows of {len(frame)}." if more > 0 else ""
    return frame.head(MAX_ROWS_SHOWN), note


def render_markdown(blocks: list[tuple]) -> str:
    parts: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            parts.append("#" * block[1] + " " + block[2])
        elif kind == "p":
            parts.append(block[1])
        elif kind == "ul":
            parts.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "code":
            parts.append("```\n" + block[1] + "\n```")
        elif kind == "table":
            frame, note = _shown_rows(block)
            lines = ["| " + " | ".join(str(c) for c in frame.columns) + " |",
                     "|" + "|".join("---" for _ in frame.columns) + "|"]
            for _, row in frame.iterrows():
                lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
            parts.append("\n".join(lines) + f"\n\n*{block[2]}.{note}*")
        elif kind == "fig":
            parts.append(f"![{block[2]}]({block[1]})\n\n*{block[2]}*")
    return "\n\n".join(parts) + "\n"


_CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1,h2,h3{line-height:1.2} h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.85em} th,td{border:1px solid #ccc;padding:.25em .5em}
th{background:#f3f3f3} td{text-align:right} td:first-child{text-align:left} td.small{color:#999}
figure{margin:1em 0} img{max-width:100%} figcaption,.caption{font-size:.85em;color:#555;font-style:italic}
code,pre{background:#f6f6f6;font-family:Menlo,Consolas,monospace;font-size:.9em} pre{padding:.6em;overflow-x:auto}
"""


def render_html(blocks: list[tuple], root: Path, title: str) -> str:
    """The report as one HTML page: figures inlined as base64 data URIs, CSS inline."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"]
    for block in blocks:
        kind = block[0]
        if kind == "h":
            parts.append(f"<h{block[1]}>{_inline_md_to_html(block[2])}</h{block[1]}>")
        elif kind == "p":
            parts.append(f"<p>{_inline_md_to_html(block[1])}</p>")
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline_md_to_html(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "code":
            parts.append(f"<pre><code>{html.escape(block[1])}</code></pre>")
        elif kind == "table":
            frame, note = _shown_rows(block)
            head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)

            def cell(v: Any) -> str:
                cls = ' class="small"' if str(v) == f"n < {MIN_N}" else ""
                return f"<td{cls}>{html.escape(str(v))}</td>"

            body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for _, row in frame.iterrows())
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                         f'<p class="caption">{_inline_md_to_html(block[2])}.{note}</p>')
        elif kind == "fig":
            data = base64.b64encode((root / block[1]).read_bytes()).decode("ascii")
            alt = html.escape(block[2])
            parts.append(f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">'
                         f"<figcaption>{_inline_md_to_html(block[2])}</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# ---- common sections -------------------------------------------------------------------------

def _versions() -> dict[str, str]:
    import matplotlib
    import numba

    import analyzer

    return {"analyzer": analyzer.__version__, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "pandas": pd.__version__, "matplotlib": matplotlib.__version__,
            "platform": platform.platform()}


def _command(game: str, out: Path, quick: bool, seed: int, extra: list[str] = ()) -> str:
    given = "".join(f" --strategies {shlex.quote(name)}" for name in extra)
    return f"analyzer report {game} --out {out} --seed {seed}" + (" --quick" if quick else "") + given


def _rules_section(r: Report, spec, rules: dict[str, Any], study) -> None:
    from analyzer import api

    r.h(2, "Rules in brief and options used")
    r.p(getattr(study, "RULES_BRIEF", spec.title) + " The full rules are in the project's rule book (docs/rules.md).")
    rows = [{"option": o.name, "value": rules.get(o.name), "meaning": o.help} for o in spec.options]
    r.table("options", pd.DataFrame(rows), "Rule options used in every run of this report (defaults)")
    r.table("strategies", api.strategies(spec.name), "Built-in strategies of the game")


def _strongest_first(pairs: pd.DataFrame) -> pd.DataFrame:
    """Each pairing named stronger strategy first (share of wins at least 0.5)."""
    pairs = pairs.copy()
    flip = pairs["win_rate"] < 0.5
    swaps = [("strategy", "opponent"), ("win_rate", "opponent_win_rate"), ("win_rate_lo", "opponent_win_rate_lo"),
             ("win_rate_hi", "opponent_win_rate_hi")]
    for a, b in swaps:
        if a in pairs and b in pairs:
            pairs.loc[flip, [a, b]] = pairs.loc[flip, [b, a]].to_numpy(copy=True)  # a view would be overwritten half-way
    for col in ("difference", "score_margin"):
        if col in pairs:
            pairs.loc[flip, col] = -pairs.loc[flip, col]
    if {"score_margin_lo", "score_margin_hi"} <= set(pairs.columns):
        lo, hi = pairs.loc[flip, "score_margin_lo"].copy(), pairs.loc[flip, "score_margin_hi"].copy()
        pairs.loc[flip, "score_margin_lo"], pairs.loc[flip, "score_margin_hi"] = -hi, -lo
    return pairs


def _tournament_section(r: Report, spec, strategies: list[str], name: str = "tournament",
                        title: str = "Strategy tournament", deals: int | None = None,
                        first_look: int | None = None) -> pd.DataFrame:
    """A duplicate-deal round robin of ``strategies``: its ranking and pairs tables (``<name>_ranking``,
    ``<name>_pairs``) and figure; returns the pairs, the stronger strategy first. ``first_look``:
    each pairing stops at the first look (``first_look`` deals, then doubling up to ``deals``)
    whose test is decided (compare's ``each_pair``)."""
    from analyzer import compare

    s = r.sizes
    if deals is None:
        deals = s.tournament_mc if any(x.startswith("mc") for x in strategies) else s.tournament
    sequential = first_look is not None and first_look < deals
    result = r.run(name, "compare.compare", lambda: compare.compare(
        spec.name, strategies, games=deals, seed=r.seed, workers=r.workers, progress=r.progress,
        until_significant=sequential, first_look=first_look or compare.FIRST_LOOK, each_pair=sequential,
        timeout=r.timeout),
        strategies=" ".join(strategies), deals=deals)
    r.h(2, title)
    up_to = "up to " if sequential else ""
    stops = ""
    if sequential:
        looks = ", ".join(f"{n:,}" for n in compare._looks(deals, first_look))
        stops = (f"Each pairing stops at the first look ({looks} deals) where equal strength is rejected at 5% over "
                 "all its looks (Bonferroni), so a clear pairing is played on fewer deals (`deals` says how many) "
                 "and the time goes to the close ones. ")
    r.p(f"Round robin of {', '.join(f'`{x}`' for x in strategies)} on **{up_to}{result.games:,} duplicate deals** "
        "per pairing: every deal is played once per balanced seating of the two strategies, so both see the "
        f"same cards and the luck of the deal cancels in the comparison. {stops}Each pairing names the stronger "
        "strategy first; its share of wins is above 0.5, `difference` is twice the share minus one, and "
        "`p_value` tests equal strength.")
    pairs = _strongest_first(result.tables["pairs"])
    ranking = result.tables.get("ranking")
    if ranking is None:
        row = pairs.iloc[0]
        ranking = pd.DataFrame([
            {"rank": 1, "strategy": row["strategy"], "mean_win_rate": row["win_rate"],
             "mean_win_rate_lo": row["win_rate_lo"], "mean_win_rate_hi": row["win_rate_hi"]},
            {"rank": 2, "strategy": row["opponent"], "mean_win_rate": row["opponent_win_rate"],
             "mean_win_rate_lo": row["opponent_win_rate_lo"], "mean_win_rate_hi": row["opponent_win_rate_hi"]},
        ]).sort_values("mean_win_rate", ascending=False)
        ranking["rank"] = range(1, len(ranking) + 1)
    pairs["n"] = pairs["deals"]
    ranking = with_deals(ranking, pairs)
    r.table(f"{name}_ranking", ranking, "Ranking: mean share of wins against the other strategies, ordered by the "
            "estimate (the pairs table below says which pairings are told apart); `deals`: the fewest of the "
            "strategy's pairings",
            show=["rank", "strategy", "deals", "mean_win_rate"],
            method="the mean of the strategy's pairings' shares of wins (pairings of different lengths); "
                   "Wilson interval with the mean of their standard errors, an upper bound on the true one, "
                   "at the shortest pairing's number of deals" if sequential else "")
    r.table(f"{name}_pairs", pairs, "Each pairing on duplicate deals, the stronger strategy first",
            show=["strategy", "opponent", "deals", "games", "win_rate", "difference", "difference_se",
                  "difference_se_unpaired", "p_value", "score_margin"],
            method="duplicate deals, share of wins per deal averaged over the seatings; Wilson interval at the "
                   "effective sample size of the per-deal shares")
    path = plots.tournament(ranking, pairs, f"{spec.title}: {title.lower()} ({up_to}"
                                            f"{result.games:,} duplicate deals per pairing, seed {r.seed})",
                            r.fig_path(name))
    r.figure(path, f"{title}: share of wins with 95% intervals (n = deals per pairing)")
    if name == "tournament" and "mc" in " ".join(strategies):
        r.p(f"`mc` runs {s.mc_k} samples per decision here (`mc:k={s.mc_k}`); it is far slower than the others, "
            "so the tournament uses fewer deals and its intervals are wider.")
    return pairs


def with_deals(ranking: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """The ranking with ``deals`` (and ``n``): the fewest deals of each strategy's pairings,
    the size its interval stands on (a strategy's mean over pairings of 2 deals is no
    interval of 30)."""
    fewest: dict[str, int] = {}
    for a, b, deals in zip(pairs["strategy"], pairs["opponent"], pairs["deals"]):
        for who in (a, b):
            fewest[who] = min(fewest.get(who, int(deals)), int(deals))
    ranking = ranking.copy()
    ranking["deals"] = ranking["strategy"].map(fewest).astype(int)
    ranking["n"] = ranking["deals"]
    return ranking


def _ladder_section(r: Report, spec, extra: list[str] = ()) -> pd.DataFrame:
    """The search strategies against each other and the heuristic: ``pimc`` (sampled worlds, each
    solved exactly) and ``ismcts`` (a tree search over sampled worlds) where the game has them,
    beside ``mc`` (sampled worlds, rolled out), on fewer deals than the tournament (they are the
    slowest strategies), each search at two budgets; then the time each takes per decision."""
    s = r.sizes
    ladder = ladder_strategies(spec, s) + list(extra)
    pairs = _tournament_section(r, spec, ladder, name="ladder", title="Search strategies", deals=s.ladder,
                                first_look=s.ladder_first_look)
    r.p("Each search strategy plays at two budgets (samples, worlds or iterations per decision), so the ladder "
        "shows what more thinking time buys.")
    if extra:
        r.p(f"Given with `--strategies`: {', '.join(f'`{x}`' for x in extra)} (they play in the tournament above "
            "too; a user strategy's file is named with its content's hash in the provenance table).")
    if "pimc" in spec.strategies:
        r.p(f"`pimc` runs {s.pimc_k} or {s.pimc_k_low} sampled worlds per decision here (`pimc:k={s.pimc_k}`, "
            f"`pimc:k={s.pimc_k_low}`), each solved with every "
            "card open; it assumes that every player sees every card once the world is sampled, which flatters it "
            "where hiding information matters (the guide says more).")
    if "ismcts" in spec.strategies:
        r.p(f"`ismcts` runs {s.ismcts_iterations} or {s.ismcts_iterations_low} iterations per decision here "
            f"(`ismcts:iterations={s.ismcts_iterations}`, `ismcts:iterations={s.ismcts_iterations_low}`): each "
            "samples a world, walks a tree of what the seat knows and plays out with the heuristic (the guide "
            "says more).")
    r.p("The ladder is played on fewer deals than the tournament, so its intervals are wider.")
    _ladder_speed(r, spec, ladder)
    return pairs


def _ladder_speed(r: Report, spec, ladder: list[str]) -> pd.DataFrame:
    """The ladder's time per decision (analyzer.speed): one seat of each strategy, the others
    heuristic, ``speed_games`` games on one worker, CPU time."""
    from analyzer.speed import decision_speeds

    speeds = r.run("ladder_speed", "speed.decision_speeds",
                   lambda: decision_speeds(spec.name, ladder, r.sizes.speed_games, seed=r.seed, timeout=r.timeout),
                   strategies=" ".join(ladder), games=r.sizes.speed_games)
    frame = pd.DataFrame([{"strategy": x.strategy, "games": x.games, "decisions": x.decisions,
                           "ms_per_decision": x.ms_per_decision} for x in speeds])
    r.table("ladder_speed", frame, "Time per decision of each strategy of the ladder (a timing on this machine, "
            "not a result: it varies with the machine and its load)",
            method=f"one seat of the strategy, the others heuristic, {r.sizes.speed_games} game(s) on one worker; "
                   "CPU time less that of the same games played by heuristic alone, over the seat's decisions with "
                   "a choice (so heuristic and random show about 0)")
    return frame


def ladder_strategies(spec, s: Sizes) -> list[str]:
    """The strategies of the search ladder: the game's search strategies, each at the sizes' two
    budgets (larger first), then ``heuristic`` and ``random``."""
    ladder = [f"pimc:k={k}" for k in (s.pimc_k, s.pimc_k_low)] if "pimc" in spec.strategies else []
    if "ismcts" in spec.strategies:
        ladder += [f"ismcts:iterations={n}" for n in (s.ismcts_iterations, s.ismcts_iterations_low)]
    return ladder + [f"mc:k={k}" for k in (s.mc_k, s.mc_k_low)] + ["heuristic", "random"]


def _looks(first: int, last: int) -> list[int]:
    looks, n = [], first
    while n < last:
        looks.append(n)
        n *= 2
    return looks + [last]


def _convergence_section(r: Report, spec) -> pd.DataFrame:
    """The headline (heuristic vs random on duplicate deals) sized sequentially: looks at the
    first size and each doubling, stopping at the first whose 95% half-width is at most the
    target (or at the largest size)."""
    from analyzer import compare

    s = r.sizes
    looks = _looks(s.convergence_first, s.convergence_max)
    tour = compare.Tournament(spec.name, ["heuristic", "random"], None, None)
    rows: list[dict[str, Any]] = []

    def on_chunk(done: int, chunk_rows: list[np.ndarray]) -> bool:
        tour.fold(chunk_rows)
        if done not in looks:
            return False
        pair = tour.tables(0.05)["pairs"].iloc[0]
        rows.append({"deals": done, "games": int(pair["games"]), "n": done, "win_rate": pair["win_rate"],
                     "win_rate_lo": pair["win_rate_lo"], "win_rate_hi": pair["win_rate_hi"],
                     "half_width": (pair["win_rate_hi"] - pair["win_rate_lo"]) / 2,
                     "win_rate_se": pair["difference_se"] / 2,
                     "win_rate_se_unpaired": pair["difference_se_unpaired"] / 2,
                     "score_margin": pair["score_margin"], "score_margin_lo": pair["score_margin_lo"],
                     "score_margin_hi": pair["score_margin_hi"]})
        return rows[-1]["half_width"] <= s.convergence_target

    _, _, interrupted = r.run("convergence", "compare.Tournament + runner.run_arms", lambda: run_arms(
        tour.arms, r.seed, s.convergence_max, on_chunk, workers=r.workers, label="report", boundaries=looks,
        progress=r.progress, timeout=r.timeout),
        strategies="heuristic random", deals=s.convergence_max)
    if interrupted:  # as Report.run: no report of a run cut short
        raise KeyboardInterrupt
    frame = pd.DataFrame(rows)
    final = frame.iloc[-1]
    r.h(2, "Convergence of the headline number")
    r.p("The headline number is the share of wins of `heuristic` against `random` on duplicate deals. It is "
        f"sized to a 95% half-width of **{s.convergence_target}**: estimated after the first {looks[0]:,} deals "
        f"and each time the number doubles (up to {s.convergence_max:,}), it stops at the first look within "
        f"that precision: here after {int(final['deals']):,} deals, half-width {final['half_width']:.4f}. The "
        "estimates are nested (each uses the deals of the previous one and more); the band narrows like "
        "1/sqrt(n), and the duplicate-deal band is narrower than it would be with independent deals whenever "
        "the deal's luck matters.")
    r.table("convergence", frame, "Heuristic's share of wins against random as deals grow",
            show=["deals", "games", "win_rate", "half_width", "win_rate_se", "win_rate_se_unpaired",
                  "score_margin"])
    path = plots.convergence(frame, f"{spec.title}: heuristic vs random as deals grow (seed {r.seed})",
                             r.fig_path("convergence"))
    r.figure(path, "Convergence of heuristic's share of wins against random, with 95% bands (n = deals)")
    return frame


def _headline_finding(conv: pd.DataFrame) -> str | None:
    final = conv.iloc[-1].to_dict()
    return finding_text("`heuristic` wins {value} of its games against `random` on duplicate deals "
                        "(0.5 = equal strength; {n} deals).", final, "win_rate")


# ---- the entry point ------------------------------------------------------------------------------

def build_report(game: str, out: str | Path, quick: bool = False, seed: int = 2026,
                 workers: int | None = None, progress: bool = False,
                 log: Callable[[str], None] | None = None, strategies: Iterable[str] = (),
                 timeout: float | None = None) -> Path:
    """Build the strategy report of ``game`` in folder ``out``; returns the Markdown file.

    Writes ``out/report.md``, ``out/report.html`` (self-contained: figures as data URIs),
    ``out/figures/*.png`` and ``out/tables/*.csv``. ``quick`` plays a small version in
    seconds (for tests and previews); the full version takes several minutes per game.
    ``strategies``: more strategies (built-in specs such as ``mc:k=64``, or user strategies
    ``path.py:function[:key=value,...]``) that join the tournament and the strength ladder.
    Results depend on ``game``, ``quick``, ``seed`` and those strategies (a user file by its
    content) only, not on ``workers``. ``progress`` shows a bar during the long runs (for a
    terminal); ``log`` gets a line as each run starts and ends (the CLI writes them to stderr).
    ``timeout``: seconds a chunk of games may take (a given strategy stuck in a loop stops the
    report with StrategyError); Ctrl-C or SIGTERM stops it too. The report is built beside
    ``out`` and moved in once whole: one stopped either way leaves ``out`` as it was.
    """
    from analyzer import api
    from analyzer import games as registry
    from analyzer.runner import check_timeout

    spec = registry.get(game)
    seed = api.check_seed(seed)
    check_timeout(timeout)
    extra = _given_strategies(spec, list(strategies), quick)
    study = spec.study()
    if study is None:
        raise AnalyzerError(f"no report study for {spec.name}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"--out {out} exists and is not a folder")
    from analyzer.runner import set_workers

    set_workers(workers)  # a bad --workers is refused before anything is written
    # built in a folder of its own beside ``out`` and moved into it once whole: a report that
    # does not finish (an error, Ctrl-C) leaves ``out`` as it was, an earlier report included
    staging = out.parent / f".{out.name}.partial-{os.getpid()}"
    try:
        (staging / FIGURES).mkdir(parents=True, exist_ok=True)
        (staging / TABLES).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AnalyzerError(f"cannot create --out {out}: {exc.strerror}") from None
    note_folder(str(staging))  # removed by the watching process if this one crashes (analyzer.supervise)
    try:
        _build(spec, study, staging, quick, seed, workers, progress, log, extra, timeout, shown=out)
        _move_into(staging, out)
        return out / MARKDOWN
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        note_folder(str(staging), done=True)


def _move_into(staging: Path, out: Path) -> None:
    """The finished report in ``staging`` moved into ``out``: its figures and tables (an
    earlier report's that this one did not write removed), then the HTML, then the Markdown."""
    for folder, pattern in ((FIGURES, "*.png"), (TABLES, "*.csv")):
        (out / folder).mkdir(parents=True, exist_ok=True)
        written = {p.name for p in (staging / folder).iterdir()}
        for name in written:
            os.replace(staging / folder / name, out / folder / name)
        for stale in (out / folder).glob(pattern):
            if stale.name not in written:
                stale.unlink()
    for name in (HTML, MARKDOWN):
        os.replace(staging / name, out / name)


def _given_strategies(spec, names: list[str], quick: bool) -> list[str]:
    """The strategies given to a report (``--strategies``), checked before anything is
    written: each one parses and loads (a user file compiles), none is given twice or is
    one the report plays anyway."""
    from analyzer import api

    sizes = QUICK if quick else FULL
    played = set(_tournament_strategies(spec, sizes))
    if _has_ladder(spec):
        played |= set(ladder_strategies(spec, sizes))
    players = spec.players(spec.resolve_rules(None))
    played_as = {_identity(spec, name) for name in played}
    given: list[str] = []
    given_as: set[tuple] = set()
    for name in (n.strip() for n in names):
        api.setup(spec.name, players, [name] * players, None)  # a bad name or file: its one-line error
        same = _identity(spec, name)
        if same in played_as:
            raise AnalyzerError(f"--strategies {name}: the report plays it already")
        if same in given_as:
            raise AnalyzerError(f"--strategies {name} is given twice")
        given.append(name)
        given_as.add(same)
    return given


def _identity(spec, name: str) -> tuple:
    """What a strategy plays, whatever its spelling: a built-in by its name and every
    parameter's value, the defaults included (``mc:k=8``, ``mc:k=08`` and
    ``mc:base=heuristic,k=8`` are one strategy: each value as the kernel gets it,
    strategies._param_value); a user strategy, or a user base, by its text."""
    from analyzer.strategies import _is_user, _param_value, parse_strategy

    if _is_user(name) and name.partition(":")[0] not in spec.strategies:
        return ("user", name)
    seat = parse_strategy(spec, name)
    values = tuple(sorted((k, str(v).strip() if k == "base" and seat.base is not None
                           else _param_value(spec, seat.builtin, k, v)) for k, v in seat.params.items()))
    return ("built-in", seat.builtin, values)


def _has_ladder(spec) -> bool:
    """Whether the game has a search beyond ``mc`` (the report's strength ladder)."""
    return "pimc" in spec.strategies or "ismcts" in spec.strategies


def _tournament_strategies(spec, sizes: Sizes) -> list[str]:
    return ["random", "heuristic"] + ([f"mc:k={sizes.mc_k}"] if "mc" in spec.strategies else [])


def _given_text(names: list[str]) -> str:
    """The given strategies for the provenance table: a user file with its content's hash."""
    from analyzer.strategies import _is_user, user_sources_hash

    return ", ".join(f"{n} (sha256 {user_sources_hash(n)[:12]})" if _is_user(n) else n for n in names) or "none"


def _build(spec, study, out: Path, quick: bool, seed: int, workers: int | None, progress: bool,
           log: Callable[[str], None] | None, extra: list[str], timeout: float | None, shown: Path) -> Path:
    """The report written into the empty folder ``out``; ``shown``: the folder it is for, as
    the command to reproduce it names it."""
    started_at = datetime.now(timezone.utc)
    started = time.perf_counter()
    r = Report(spec.name, out, quick, seed, workers)
    rules = spec.resolve_rules(None)
    strategies = _tournament_strategies(spec, r.sizes) + extra

    body = Report(spec.name, out, quick, seed, workers, progress, log, timeout)
    body.runs = r.runs
    _rules_section(body, spec, rules, study)
    pairs = _tournament_section(body, spec, strategies)
    if _has_ladder(spec):
        _ladder_section(body, spec, extra)
    conv = _convergence_section(body, spec)
    body.finding(_headline_finding(conv))
    body.h(2, f"{spec.title} study")
    study.build(body, spec, rules)
    elapsed = time.perf_counter() - started

    # findings, header and provenance go first but are written last (they know the results and the time)
    r.h(1, f"{spec.title} (`{spec.name}`): strategy report{' (quick)' if quick else ''}")
    r.h(2, "Findings")
    r.bullets(body.findings or ["(no cell of this run reached the minimum size for a finding)"])
    r.p(f"Each finding is generated from a table below (its number with the 95% interval and its n); cells with "
        f"fewer than {MIN_N} observations, or from fewer than {MIN_N} games or deals, are never stated as findings. "
        f"{_tournament_sentence(pairs)}")
    r.p("Every number has its 95% interval (in brackets, or as error bars and bands in the figures). "
        "Tables are also CSV files in `tables/`, figures PNG files in `figures/`.")
    r.h(2, "How this report was made")
    facts = {"game": spec.name, "seed": seed, "quick": quick,
             "workers": workers if workers is not None else "all cores",
             "strategies (tournament)": ", ".join(strategies),
             "strategies given (--strategies)": _given_text(extra),
             "started (UTC)": started_at.strftime("%Y-%m-%d %H:%M:%S"),
             "time taken (s)": round(elapsed, 1), "minimum n per cell": MIN_N, **_versions()}
    facts.update({f"size: {k}": v for k, v in asdict(r.sizes).items()})
    r.table("provenance", pd.DataFrame([{"item": k, "value": str(v)} for k, v in facts.items()]),
            "Versions, options and sizes")
    r.p("To reproduce it (the numbers depend on the game, the seed, `--quick` and the strategies given only, "
        "not on the number of workers or the machine):")
    given = f", strategies={extra!r}" if extra else ""
    r.code(f"{_command(spec.name, shown, quick, seed, extra)}\n# or, from Python:\n"
           f"python -c \"from analyzer.report import build_report; build_report({spec.name!r}, {str(shown)!r}, "
           f"quick={quick}, seed={seed}{given})\"")
    r.table("runs", pd.DataFrame(r.runs), "Every simulation behind this report, in order (all with the same seed)")
    r.blocks = r.blocks + body.blocks
    r.figures, r.tables = body.figures, {**body.tables, **r.tables}
    findings = pd.DataFrame({"finding": body.findings})
    findings.to_csv(out / TABLES / "findings.csv", index=False)
    r.tables["findings"] = out / TABLES / "findings.csv"

    md_path = out / MARKDOWN
    md_path.write_text(render_markdown(r.blocks), encoding="utf-8")
    (out / HTML).write_text(render_html(r.blocks, out, f"{spec.title} strategy report"), encoding="utf-8")
    return md_path


def _tournament_sentence(pairs: pd.DataFrame) -> str:
    """The tournament's pairings in a sentence, each with its interval, but a pairing of
    fewer than MIN_N deals with ``n < 30`` in its place, as its table cell says."""
    parts = []
    for _, row in pairs.iterrows():
        deals = int(row["deals"])
        share = (interval_text(row["win_rate"], row["win_rate_lo"], row["win_rate_hi"]) if deals >= MIN_N
                 else f"{row['win_rate']:.3f} (n < {MIN_N})")
        parts.append(f"`{row['strategy']}` vs `{row['opponent']}`: {share} over {deals:,} deals")
    return "Tournament shares of wins (stronger first): " + "; ".join(parts) + "."


# ---- the index of the committed reports -------------------------------------------------------

def write_index(root: str | Path, games: Iterable[str] | None = None) -> tuple[Path, Path]:
    """``root/index.md`` and ``root/index.html``: a link to each report under ``root`` with
    its findings (read from its ``tables/findings.csv``)."""
    from analyzer import games as registry

    root = Path(root)
    blocks: list[tuple] = [("h", 1, "Strategy reports"),
                           ("p", "One report per game, each opening with findings generated from its tables "
                                 f"(95% intervals; cells under n = {MIN_N}, or from fewer games or deals, are never "
                                 "findings).")]
    for name in games or registry.names():
        folder = root / name
        if not (folder / MARKDOWN).is_file():
            continue
        title = registry.get(name).title
        blocks.append(("h", 2, f"{title} (`{name}`)"))
        blocks.append(("p", f"[report]({name}/{MARKDOWN}) · [HTML]({name}/{HTML})"))
        file = folder / TABLES / "findings.csv"
        found = list(pd.read_csv(file)["finding"]) if file.is_file() and file.stat().st_size > 1 else []
        if found:
            blocks.append(("ul", [str(f) for f in found]))
    md, page = root / "index.md", root / "index.html"
    md.write_text(render_markdown(blocks), encoding="utf-8")
    page.write_text(render_html(blocks, root, "Strategy reports"), encoding="utf-8")
    return md, page


# ---- the guides' strength ladders, from the committed reports ----------------------------------

#: the lines that open and close the generated ladder in a game's guide (docs/GAME.md)
LADDER_BEGIN = ("<!-- ladder: generated from reports/{game}/tables by `python -m analyzer.report guides`; "
                "do not edit by hand -->")
LADDER_END = "<!-- /ladder -->"


def _share_text(value: float, lo: float, hi: float) -> str:
    return f"{value:.3f} [{lo:.3f}, {hi:.3f}]"


def _p_cell(p: float) -> str:
    return plots.p_text(float(p)).removeprefix("p = ").removeprefix("p ")


def _ms_cell(ms: float) -> str:
    return "< 0.01" if ms < 0.005 else f"{ms:.2f}"


def _rung(pairs: pd.DataFrame, a: str, b: str) -> dict[str, Any] | None:
    """The pairing of ``a`` and ``b`` as the pairs table holds it (the stronger first)."""
    hit = pairs[((pairs["strategy"] == a) & (pairs["opponent"] == b)) |
                ((pairs["strategy"] == b) & (pairs["opponent"] == a))]
    return hit.iloc[0].to_dict() if len(hit) else None


def ladder_guide_block(game: str, tables: str | Path) -> str | None:
    """The Markdown of a guide's strength ladder from a report's tables (``ladder_ranking``,
    ``ladder_pairs``, ``ladder_speed`` and ``provenance`` CSVs): the ranking with each
    strategy's time per decision, then each strategy against the next one down. None when
    the report has no ladder."""
    tables = Path(tables)
    if not (tables / "ladder_ranking.csv").is_file():
        return None
    ranking = pd.read_csv(tables / "ladder_ranking.csv")
    pairs = pd.read_csv(tables / "ladder_pairs.csv")
    speed_file = tables / "ladder_speed.csv"
    speeds = (dict(zip(*pd.read_csv(speed_file)[["strategy", "ms_per_decision"]].to_numpy().T))
              if speed_file.is_file() else {})
    facts = dict(pd.read_csv(tables / "provenance.csv").to_numpy())
    fewest, most = int(pairs["deals"].min()), int(pairs["deals"].max())
    deals = (f"{most:,} duplicate deals per pairing" if fewest == most else
             f"{fewest:,} to {most:,} duplicate deals per pairing (each stops at its first look that tells the two "
             "apart)")
    intro = textwrap.fill(
             f"The committed report (`reports/{game}/report.md`, section \"Search strategies\"; `analyzer report "
             f"{game}` rebuilds it) plays every pair of these strategies on {deals}, "
             f"seed {facts.get('seed', '?')} ({len(pairs)} pairings, all in `reports/{game}/tables/ladder_pairs.csv`). "
             "Ranked by the mean share of wins against the others, with the time per decision (one core, CPU "
             "time, the heuristic's time subtracted):", width=90, break_on_hyphens=False)
    lines = [LADDER_BEGIN.format(game=game), "", intro, "",
             "| rank | strategy | mean share of wins [95%] | ms a decision |", "|---|---|---|---|"]
    for _, row in ranking.iterrows():
        ms = speeds.get(row["strategy"])
        lines.append(f"| {int(row['rank'])} | `{row['strategy']}` | "
                     f"{_share_text(row['mean_win_rate'], row['mean_win_rate_lo'], row['mean_win_rate_hi'])} | "
                     f"{_ms_cell(float(ms)) if ms is not None else '–'} |")
    lines += ["", "Each strategy against the next one down, the stronger of the pair first:", "",
              "| strategy | opponent | share of wins [95%] | p | deals |", "|---|---|---|---|---|"]
    order = list(ranking["strategy"])
    for a, b in zip(order, order[1:]):
        row = _rung(pairs, a, b)
        if row is not None:
            lines.append(f"| `{row['strategy']}` | `{row['opponent']}` | "
                         f"{_share_text(row['win_rate'], row['win_rate_lo'], row['win_rate_hi'])} | "
                         f"{_p_cell(row['p_value'])} | {int(row['deals']):,} |")
    return "\n".join(lines + ["", LADDER_END])


def write_guide_ladders(root: str | Path, docs: str | Path, games: Iterable[str] | None = None) -> list[Path]:
    """Replace the generated ladder of each guide ``docs/GAME.md`` by the one of
    ``root/GAME/tables`` (between the lines LADDER_BEGIN and LADDER_END, which the guide must
    have; a game whose report has no ladder is left alone). Returns the guides written."""
    from analyzer import games as registry

    written = []
    for name in games or registry.names():
        block = ladder_guide_block(name, Path(root) / name / TABLES)
        guide = Path(docs) / f"{name}.md"
        if block is None or not guide.is_file():
            continue
        text = guide.read_text(encoding="utf-8")
        begin = LADDER_BEGIN.format(game=name)
        if begin in text and LADDER_END in text:
            head, rest = text.split(begin, 1)
            text = head + block + rest.split(LADDER_END, 1)[1]
        else:
            raise AnalyzerError(f"{guide}: no generated ladder block ({begin!r} ... {LADDER_END!r}) to replace")
        guide.write_text(text, encoding="utf-8")
        written.append(guide)
    return written


def main(argv: list[str] | None = None) -> None:
    """``python -m analyzer.report index ROOT [GAME ...]`` writes the index of the reports;
    ``python -m analyzer.report guides ROOT DOCS [GAME ...]`` the guides' strength ladders."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "index":
        for path in write_index(args[1], args[2:] or None):
            print(path)
        return
    if len(args) >= 3 and args[0] == "guides":
        for path in write_guide_ladders(args[1], args[2], args[3:] or None):
            print(path)
        return
    raise SystemExit("usage: python -m analyzer.report index ROOT [GAME ...] | guides ROOT DOCS [GAME ...]")


if __name__ == "__main__":
    main()
