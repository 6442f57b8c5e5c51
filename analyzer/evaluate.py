"""Decision evaluation: "given what I can see, how good is each option I have?"

A *position* is what one seat knows at a decision. Each game's spec turns one (given as
flags, a JSON file, or decision N of a record) into an :class:`Evaluation`: the legal
options and a compiled kernel that plays every option on the same hidden cards with the
same future random numbers (common random numbers), returning per sample and option the
hand outcome and whether the seat went on to win the game.

Here the samples are spent, and the numbers made to agree with each other:

- **Nothing spent on what is decided.** A forced move, or options that are all the same
  move (``Evaluation.groups``: interchangeable cards), is answered at once; equivalent
  options are played once and reported as one row naming them all.
- **Exact when the worlds are few.** When the game can enumerate the worlds consistent
  with the seat's view and they number at most ``exact_limit``, every round plays every
  world equally often and weighs it by its exact probability (stratified: only the
  rollouts' own randomness is left, and none at all when the rollouts are deterministic).
- **Rounds that double**, from 256 samples. After each an option whose paired difference
  to the current best (on the ranking column) is below zero by more than ``race_z``
  standard errors is dropped (racing). ``race_z`` is set from the number of looks and
  options so that the chance of ever dropping an option as good as the best is at most
  ``RACE_ALPHA`` (5%, Bonferroni over every look and ordered pair of options: the best
  compared with is chosen by the data).
- **Ranking**: by the win probability, then by the hand outcome (in its own direction:
  fewer points taken is better in some games); when no sample tells the options apart on the
  win (the game is decided either way) the hand outcome ranks them. Dropped options come
  after the kept ones.
- **P(best)** comes from an exchangeable normal model of the kept options' estimates
  (stats.prob_best), so it always follows the ranking; a dropped option's is 0. The run
  stops as **separated** when the best option's P(best) reaches ``confidence`` (0.95),
  at **precision** when every proportion interval (the win, and a yes/no hand outcome;
  not a points outcome) is within +-precision, at **time**, or when the samples are spent.
- **Intervals**: Wilson for every proportion (at the effective sample size when samples
  are weighted or stratified), so always inside [0, 1]; normal for points.
- **The solver beside the rollouts** (``method="solve"``, games with a perfect-information
  solver): the first ``solve_samples`` samples' worlds are also solved exactly for every
  option (everyone then plays seeing every card), on the same hidden cards the rollouts
  play (paired); the table gains the solver's mean value per option (``solved``), its
  interval and its paired difference to the solver's best. The ranking stays the rollouts'.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer.errors import AnalyzerError
from analyzer.results import Result
from analyzer.stats import Z95, OptionStats, normal_quantile, prob_best, proportion_interval, t95

FIRST_ROUND = 256
SOLVE_SAMPLES = 1000  # worlds the solver values, at most (a solve costs about a millisecond; a rollout microseconds)
METHODS = ("rollout", "solve")
RACE_ALPHA = 0.05     # racing's chance, over every look, of ever dropping an option as good as the best
EXACT_LIMIT = 2000    # enumerate the worlds when at most this many are consistent


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
    solve: Callable[[int, int, np.ndarray, int, int], np.ndarray] | None = None
    # like Evaluation.solve, in those worlds
    #: False while the rules will still draw cards whose order no world fixes (Two-Ten-Jack's
    #: stock): a play of a world is then random even with deterministic rollouts
    future_fixed: bool = True


@dataclass
class Evaluation:
    """What a game hands to the generic evaluator.

    ``run(seed, start, codes, n, threads)`` plays every option in ``codes`` on samples
    ``start .. start + n - 1`` (common random numbers: sample j is the same hidden cards and
    the same future for every option) and returns int64[n, k, 2]: per sample and option the
    hand outcome and 1 if the seat went on to win the game. With ``weighted`` it returns a
    pair ``(result, weights)``, weights float64[n] the importance weight of each sample
    (e.g. an inference from bids).

    ``groups``: the options that are equivalent in the position (interchangeable cards, the
    same move reached two ways), as lists of indices into ``options``; the evaluator plays
    one of each group and reports the group as one row; an option in no group is a group of
    its own (so a game may list only the merged ones). None: every option is distinct.

    ``worlds(limit)``: the consistent worlds with their exact weights when they number at
    most ``limit``, else None (then samples are drawn). None: the game cannot enumerate.

    ``solve(seed, start, codes, n, threads)`` (games with a solver): int64[n, k], the exact
    value of each option with every card open (``solve_value`` says what it counts) in the
    worlds of samples ``start .. start + n - 1``, the very hidden cards ``run`` plays them in.
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
    solve: Callable[..., Any] | None = None
    solve_value: str = ""              # what a solver value counts (the game's solver.VALUE)
    solve_refusal: str = ""            # why ``solve`` is None in this position (the one-line error)


@dataclass
class EvaluationResult(Result):
    game: str
    position: dict[str, Any]
    samples: int
    elapsed: float
    stopped: str
    tables: dict[str, pd.DataFrame]
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def table(self) -> pd.DataFrame:
        """The ranked options."""
        return self.tables["options"]

    def verdict(self) -> str:
        """One line a player can act on."""
        t = self.table
        best = t.iloc[0]
        if self.samples == 0:
            if self.stopped == "forced":
                return f"Play {best['option']}: it is the only legal move."
            return f"Play any of {best['option'].replace('/', ', ')}: they are the same move here."
        by_win = self.facts.get("ranked_by") == "win"
        outcome = [c for c in t.columns if c + "_lo" in t.columns and c != "win"][0]

        from analyzer.terminal import texts_apart

        def value(row) -> str:
            if by_win:  # "99.96%", not "100.0%": never a certainty it is not
                win, lo, hi = texts_apart((row["win"], row["win_lo"], row["win_hi"]), 1, percent=True)
                return f"wins {win} [{lo}, {hi}]"
            if self.facts.get("outcome_binary"):  # a share: in percent, as the table shows it
                share, lo, hi = texts_apart((row[outcome], row[outcome + "_lo"], row[outcome + "_hi"]), 1,
                                            percent=True)
                return f"{outcome} {share} [{lo}, {hi}]"
            return f"{outcome} {row[outcome]:.3g} [{row[outcome + '_lo']:.3g}, {row[outcome + '_hi']:.3g}]"

        every = f"all {self.samples:,} samples" if self.samples > 1 else "the one sample"

        kept = t[~t["dropped"]].iloc[1:]
        # options that ended as the best did in every sample (win and outcome): no number of
        # samples tells them apart, so they are named with it, not left "not separated"
        same = (kept["diff_to_best"] == 0) & (kept["diff_se"] == 0) & (kept["outcome_diff"] == 0) \
            & (kept["outcome_diff_se"] == 0)
        alike, kept = kept[same], kept[~same]
        chance = best["p_best"] + alike["p_best"].sum()
        sure = chance >= self.facts.get("confidence", 0.95)
        named = " or ".join([best["option"], *alike["option"]])
        line = f"{'Play' if sure else 'Best guess'} {named} (P(best) {_chance_text(chance)}): {value(best)}"
        if len(alike):
            line += f"; {'they' if len(alike) > 1 else 'both'} ended alike in {every}"
        if not by_win:
            line += f" (the win was the same for every option in {every})"
        if len(kept):
            second = kept.iloc[0]
            if by_win:
                gap = -second["diff_to_best"]
                half = Z95 * second["diff_se"]
                # in percentage points of win probability (32.6% against 32.2% is 0.4 points, not
                # "0.4% worse"), the gap and the half-width apart where they differ
                gap_text, half_text = texts_apart((gap, half, 0.0), 1, percent=True)[:2]
                level = gap < 0.0005
                how = "level with it" if level else f"{gap_text[:-1]} percentage points worse"
                # P(best) is one-sided, the interval two-sided: a best "Play" can stand beside
                # a difference whose interval reaches level, and the reader is told so
                maybe = " percentage points" if level else ": it may be as good" if gap - half <= 0 else ""
                line += f"; {second['option']} is {how} (±{half_text[:-1]}{maybe})"
            else:
                line += f"; next {second['option']}: {value(second)}"
            if len(kept) > 1:
                line += f"; {len(kept) - 1} more {'behind' if sure else 'not separated'}"
        if t["dropped"].any():
            line += "; the rest are clearly worse" if len(kept) or len(alike) else "; every other option is clearly worse"
        if not sure:
            line += " (more --samples or --time would tell them apart)"
        return line + "." + self._solver_sentence()

    def _solver_sentence(self) -> str:
        """What the solver says, with --method solve: its best option, and whether it agrees."""
        solver = self.facts.get("solver")
        if not solver:
            return ""
        t = self.table
        row = t.loc[t["solved"].idxmax()]
        agree = "agrees" if row["option"] == t.iloc[0]["option"] else "differs"
        # samples, not worlds: over enumerated worlds each is solved twice (156 for 78 worlds)
        from analyzer.terminal import texts_apart

        if row["solved_lo"] == row["solved_hi"]:  # every world solved, no sampling left: no interval
            value = f"{texts_apart((row['solved'],), 2)[0]} (exact over these worlds)"
        else:
            mean, lo, hi = texts_apart((row["solved"], row["solved_lo"], row["solved_hi"]), 2)
            value = f"{mean} [{lo}, {hi}]"
        return (f" With every card open (solved in {solver['samples']:,} of these samples) {row['option']} is best: "
                f"{value}; the solver {agree}.")

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "position": self.position, "samples": self.samples,
                "elapsed_s": round(self.elapsed, 3), "stopped": self.stopped, **self.facts}


def _chance_text(p: float) -> str:
    """A chance in two decimals that never rounds to a certainty it is not ("> 0.99", not
    "1.00", for 0.995)."""
    if 0.995 <= p < 1.0:
        return "> 0.99"
    if 0.0 < p < 0.005:
        return "< 0.01"
    return f"{p:.2f}"


def evaluate(game: str, position: dict[str, Any] | None = None, *, record: str | None = None,
             game_index: int = 0, at: int | None = None, players: int | None = None,
             rules: dict[str, Any] | None = None, rollout: dict[int, str] | list[str] | str = "heuristic",
             samples: int = 20_000, precision: float | None = None, seconds: float | None = None,
             seed: int = 0, workers: int | None = None, progress: bool = False,
             confidence: float = 0.95, exact_limit: int = EXACT_LIMIT, infer: bool = True,
             method: str = "rollout", solve_samples: int = SOLVE_SAMPLES,
             notify: Callable[[str], None] | None = None, keep: list[str] | None = None,
             timeout: float | None = None) -> EvaluationResult:
    """Evaluate every legal option of a position; returns a ranked table (DataFrame).

    ``exact_limit``: enumerate the consistent worlds instead of sampling them when they
    number at most this many (0: always sample). ``infer``: let the game read the other
    players' earlier choices into the hidden cards where it can (e.g. the bids).
    ``confidence``: the P(best) at which the best option counts as separated. ``notify``
    receives a one-line estimate of the run time when the budget looks longer than a minute.
    ``method="solve"``: the solver also values every option in the worlds of the first
    ``solve_samples`` samples (module docstring).
    ``keep``: moves (record text) evaluated even where the game screens a large set of options
    down (Twenty-Two's discards); at a record's decision the move played there is always kept,
    and ``facts["played"]`` names the option of the table that holds it.
    ``timeout``: a round of samples (or of solves) taking longer raises StrategyError (a
    rollout strategy stuck in a loop); its compiling is not counted.
    """
    from analyzer import api
    from analyzer import games as registry
    from analyzer.runner import Progress, call_interruptibly, check_timeout, set_workers
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get(game)
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise AnalyzerError(f"--samples must be a positive integer, not {samples!r}")
    if precision is not None and not 0 < precision < 1:
        raise AnalyzerError(f"--precision must be between 0 and 1, not {precision}")
    if seconds is not None and not seconds > 0:
        raise AnalyzerError(f"--time must be a positive number of seconds, not {seconds}")
    check_timeout(timeout)
    if not 0.5 < confidence < 1:
        raise AnalyzerError(f"--confidence must be between 0.5 and 1, not {confidence}")
    if exact_limit < 0:
        raise AnalyzerError(f"--exact-limit must be at least 0, not {exact_limit}")
    if method not in METHODS:
        raise AnalyzerError(f"--method must be one of {', '.join(METHODS)}, not {method!r}")
    if method == "solve" and not spec.has_solver:
        have = ", ".join(n for n in registry.names() if registry.get(n).has_solver) or "none yet"
        raise AnalyzerError(f"--method solve is not available for {spec.name} (games with a solver: {have})")
    if isinstance(solve_samples, bool) or not isinstance(solve_samples, (int, np.integer)) or solve_samples < 1:
        raise AnalyzerError(f"--solve-samples must be a positive integer, not {solve_samples!r}")
    seed = api.check_seed(seed)
    played = None
    if record is not None:
        position, played = _position_from_record(spec, record, game_index, at)
        keep = [*(keep or []), played]
        _check_agrees_with_record(position, players, rules)
    if position is None:
        raise AnalyzerError("give a position: flags, --position FILE.json, or --record FILE --at N")
    if not isinstance(position, dict):
        raise AnalyzerError("a position is a JSON object of named values")
    if not isinstance(position.get("rules", {}), dict):
        raise AnalyzerError("position: rules must be an object like {\"target\": 50}")
    resolved = spec.resolve_rules({**position.get("rules", {}), **(rules or {})}, players or position.get("players"))
    p = spec.players(resolved)
    seats = [rollout] * p if isinstance(rollout, str) else rollout
    chosen = resolve_seats(spec, p, seats)
    strat, functions = strategy_array(spec, chosen)
    # user rollout strategies: the game's kernel module with them in its slots (engine.SlotKernel)
    kernel = {"kernel": spec.user_kernel(functions, check_legal=True)} if functions else {}
    user_labels = [c.user_label for c in chosen if c.user_functions]
    try:
        ev: Evaluation = _user_call(spec, user_labels, lambda: spec.evaluation(
            resolved, position, strat, infer=infer, keep=tuple(keep or ()), **kernel))
    except (TypeError, AttributeError, KeyError, OverflowError) as exc:
        # a value of the wrong shape that the game's checks did not name (e.g. "hand": 5)
        raise AnalyzerError(f"position: a value has the wrong type or shape ({type(exc).__name__}: {exc})"[:300]) from None
    if functions:
        ev.run = _guarded(spec, user_labels, ev.run)
        if ev.worlds is not None:
            ev.worlds = _guarded_worlds(spec, user_labels, ev.worlds)
    groups = option_groups(ev)
    plan = _Plan(ev, groups, samples, confidence, exact_limit, all(_draws_nothing(spec, c) for c in chosen))
    solving = method == "solve"
    if solving and plan.solve is None:
        why = ev.solve_refusal or f"it does not value this decision ({ev.description})"
        raise AnalyzerError(f"--method solve in {spec.name}: {why}"[:300])
    started = time.perf_counter()
    if len(groups) == 1:
        # a forced move (or only equivalent ones): nothing to spend samples on
        stopped = "forced" if len(ev.options) == 1 else "equivalent: every option is the same move"
        return _result(spec.name, position, ev, plan, OptionStats(1), [0], 0, started, stopped, {},
                       played=_played_option(spec, ev, groups, played))
    threads = set_workers(workers)
    stats = OptionStats(len(groups), None if plan.worlds is None else plan.worlds.weights)
    solved = OptionStats(len(groups), None if plan.worlds is None else plan.worlds.weights) if solving else None
    all_codes = np.array([ev.options[g[0]] for g in groups], dtype=np.int64)
    active = list(range(len(groups)))
    done, stopped = 0, ""
    bar = Progress(plan.budget, f"evaluate {spec.name}", progress)
    round_started, looked = time.perf_counter(), 0
    try:
        for size in plan.rounds():
            codes = np.array([ev.options[groups[g][0]] for g in active], dtype=np.int64)
            out = call_interruptibly(plan.run, seed, done, codes, size, threads, timeout=timeout,
                                     what="a round of samples")
            result, weights = out if ev.weighted else (out, None)
            stats.add(active, result, done, weights)
            if solved is not None and solved.samples(0) < plan.solve_target(solve_samples):
                _solve_round(plan, solved, seed, done, all_codes,
                             min(size, plan.solve_target(solve_samples) - solved.samples(0)), threads, weights,
                             timeout)
            now = time.perf_counter()
            if looked == 1 and notify is not None:  # the second round: the compile is behind us
                _estimate(notify, now - round_started, size, plan.budget - done, seconds)
            round_started, looked = now, looked + 1
            done += size
            bar.update(done)
            active = _race(stats, active, plan, ev)
            best_p = _prob_best_active(stats, active, ev)
            if best_p.max() >= confidence:
                stopped = f"separated: P(best) {best_p.max():.3f} >= {confidence}"
                break
            if precision is not None and all(h <= precision for i in active
                                             for h in _half_widths(stats, i, ev, plan.exact)):
                stopped = f"precision: every proportion interval within +-{precision}"
                break
            if seconds is not None and time.perf_counter() - started >= seconds:
                stopped = f"time: {seconds:g} s"
                break
        else:
            stopped = f"samples: {done:,} spent"
    except KeyboardInterrupt:
        if done == 0:
            raise  # nothing to show
        stopped = "interrupted"
    finally:
        bar.close()
    # the game's extra tables (Pitch's bid table) play rollouts too: on the kernel thread, so that
    # Ctrl-C and --timeout reach a rollout strategy stuck in a loop there; none after a Ctrl-C
    extra: dict[str, pd.DataFrame] = {} if stopped == "interrupted" else _user_call(
        spec, user_labels, lambda: call_interruptibly(
            functools.partial(spec.extra_tables, resolved, position, strat, samples, seed, threads, **kernel),
            timeout=timeout, what="the position's extra tables (e.g. the bid table)"))
    return _result(spec.name, position, ev, plan, stats, active, done, started, stopped, extra, solved,
                   played=_played_option(spec, ev, groups, played))


def _solve_round(plan: "_Plan", solved: OptionStats, seed: int, start: int, codes: np.ndarray, n: int,
                 threads: int, weights: np.ndarray | None, timeout: float | None) -> None:
    """The solver's values of every option in the worlds of samples ``start .. start + n - 1``,
    added to ``solved`` (both columns hold the value: OptionStats pairs two)."""
    from analyzer.runner import call_interruptibly

    values = call_interruptibly(plan.solve, seed, start, codes, n, threads, timeout=timeout, what="a round of solves")
    solved.add(list(range(len(codes))), np.stack([values, values], axis=-1), start,
               None if weights is None else weights[:n])


def _user_call(spec, labels: list[str], call: Callable[[], Any]) -> Any:
    """``call()``; with user rollout strategies (``labels``) a compile failure, a raise or an
    illegal move of theirs becomes a one-line StrategyError (api.user_guard). A TypeError,
    AttributeError, KeyError or OverflowError passes through: it is the position's (see
    ``evaluate``) unless it comes from the compiled rollouts."""
    if not labels:
        return call()
    from analyzer import api

    from numba.core.errors import NumbaError

    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - sorted by api.user_guard
        if isinstance(exc, AnalyzerError) or (isinstance(exc, (TypeError, AttributeError, KeyError, OverflowError))
                                              and not isinstance(exc, NumbaError)):
            raise

        def again():
            raise exc
        return api.user_guard(spec, labels, again)


def _guarded(spec, labels: list[str], run: Callable[..., Any]) -> Callable[..., Any]:
    from analyzer import api

    return lambda *args: api.user_guard(spec, labels, lambda: run(*args))


def _guarded_worlds(spec, labels: list[str], worlds: Callable[[int], Worlds | None]) -> Callable[[int], Worlds | None]:
    def guarded(limit: int) -> Worlds | None:
        found = worlds(limit)
        return None if found is None else Worlds(found.weights, _guarded(spec, labels, found.run))
    return guarded


def _estimate(notify: Callable[[str], None], spent: float, done: int, left: int, seconds: float | None) -> None:
    """Say how long the rest of the budget would take, when that is more than a minute
    (racing and separation usually stop it sooner)."""
    total = spent / max(done, 1) * left
    if total > 60 and (seconds is None or seconds > 60):
        notify(f"this budget would take about {_duration(total)} with this rollout (it stops earlier once the "
               f"best option is separated); --samples or --time cut it")


def _duration(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


class _Plan:
    """How the samples are spent: sampled or over enumerated worlds, in rounds that double,
    and the racing threshold that keeps racing's error rate at RACE_ALPHA over every look."""

    def __init__(self, ev: Evaluation, groups: list[list[int]], samples: int, confidence: float,
                 exact_limit: int, deterministic: bool = False) -> None:
        self.groups = groups
        self.confidence = confidence
        self.worlds = ev.worlds(exact_limit) if ev.worlds is not None and exact_limit > 0 and len(groups) > 1 else None
        fixed = self.worlds is not None and self.worlds.future_fixed
        #: a play of a world can end only one way: a column without variance is then exact
        #: (for the solver's values: no stock order left to draw; for the rollouts: nor a
        #: rollout strategy that draws). Otherwise plays that happened to end alike are samples.
        self.exact_solves = fixed
        self.exact = fixed and deterministic
        if self.worlds is not None:
            w = len(self.worlds.weights)
            # every round plays every world equally often, at least twice (a within-world variance)
            self.unit = w
            self.first = w * max(2, -(-FIRST_ROUND // w))
            self.budget = max(samples, self.first)
            self.run = self.worlds.run
            self.solve = self.worlds.solve
        else:
            self.unit = 1
            self.first = FIRST_ROUND
            self.budget = samples
            self.run = ev.run
            self.solve = ev.solve
        self.looks = len(self._sizes())
        # Bonferroni over every look and every ordered pair of options: the option compared with
        # is the current best, chosen by the data, so an option as good as the best can be dropped
        # by any other that happens to lead (with k equal options, one-sided 0.05 / ((k - 1) L)
        # dropped one 6.5% of the time at k = 2 and 25% at k = 10)
        k = len(groups)
        self.race_z = normal_quantile(1 - RACE_ALPHA / max(1, k * (k - 1) * self.looks))

    def _sizes(self) -> list[int]:
        sizes, done, size = [], 0, self.first
        while done < self.budget:
            n = min(size, self.budget - done)
            n = max(self.unit, n // self.unit * self.unit)
            sizes.append(n)
            done += n
            size *= 2
        return sizes

    def rounds(self):
        yield from self._sizes()

    def solve_target(self, solve_samples: int) -> int:
        """Samples whose worlds the solver values: ``solve_samples``, or with enumerated worlds
        each world twice (the first round's share; a solve is exact, so within a world its
        variance is zero, and two samples make that a measured zero)."""
        return solve_samples if self.worlds is None else 2 * len(self.worlds.weights)

    @property
    def method(self) -> str:
        if self.worlds is None:
            return "sampled"
        from analyzer.terminal import count

        return f"exact over {count(len(self.worlds.weights), 'world')}"


def _ranking_col(stats: OptionStats, active: list[int]) -> int:
    """Rank on the win (column 1) unless it cannot tell the options apart at all (every
    paired difference of wins zero on every shared sample), then on the hand outcome (0)."""
    return 1 if stats.p2dd[..., 1].any() else 0


def _sign(ev: Evaluation, col: int) -> float:
    """+1 where higher is better, -1 for an outcome where lower is better."""
    return -1.0 if (col == 0 and ev.lower_is_better) else 1.0


def _race(stats: OptionStats, active: list[int], plan: _Plan, ev: Evaluation) -> list[int]:
    """Drop the options whose paired difference to the current best is below zero by more
    than ``plan.race_z`` standard errors on the ranking column."""
    if len(active) < 2:
        return active
    col = _ranking_col(stats, active)
    sign = _sign(ev, col)
    best = max(active, key=lambda i: sign * stats.mean_var(i, col)[0])
    keep = []
    for i in active:
        d, se = stats.diff(i, best, col)
        if i == best or not (sign * d + plan.race_z * se < 0):
            keep.append(i)
    return keep


def _prob_best_active(stats: OptionStats, active: list[int], ev: Evaluation) -> np.ndarray:
    """P(best) of the active options on the ranking column (stats.prob_best: an
    exchangeable normal model with the root mean square SE of their paired differences).
    The active options were played on every sample, so all of it is shared."""
    if len(active) == 1:
        return np.ones(1)
    col = _ranking_col(stats, active)
    sign = _sign(ev, col)
    means = np.array([sign * stats.mean_var(i, col)[0] for i in active])
    ses = [stats.diff(a, b, col)[1] for x, a in enumerate(active) for b in active[x + 1:]]
    return prob_best(means, math.sqrt(float(np.mean(np.square(ses)))))


def _half_widths(stats: OptionStats, i: int, ev: Evaluation, exact: bool) -> list[float]:
    """Half-widths of the option's proportion intervals (what --precision looks at: the
    win, and the hand outcome when it is a yes/no)."""
    cols = [1, 0] if ev.outcome_binary else [1]
    return [(hi - lo) / 2 for lo, hi in (_interval(stats, i, col, True, exact) for col in cols)]


def _interval(stats: OptionStats, i: int, col: int, proportion: bool, exact: bool) -> tuple[float, float]:
    """95% interval of option i's column: Wilson for proportions, Student's t otherwise. ``exact``:
    the samples are the listed worlds and a play of a world can end only one way
    (_Plan.exact); an estimate without variance (each world played at least twice, every
    play of each ended alike) is then exact: its own interval, also at 0 or 1, where Wilson
    would treat the samples as draws (docs/evaluate.md). Without ``exact``, plays that
    ended alike may have done so by chance: the usual interval."""
    m, v = stats.mean_var(i, col)
    if exact and stats.worlds and v == 0.0:
        return m, m
    n = stats.samples(i)
    # the variance's degrees of freedom: the samples less one, or less one per listed world
    # (each world's spread is measured on its own plays)
    df = n - (len(stats.pi) if stats.worlds else 1)
    if proportion:
        return proportion_interval(m, v, n, df=df)
    half = t95(df) * math.sqrt(v) if v == v and v != math.inf else math.nan
    return m - half, m + half


def _result(game: str, position: dict[str, Any], ev: Evaluation, plan: _Plan, stats: OptionStats,
            active: list[int], done: int, started: float, stopped: str,
            tables_extra: dict[str, pd.DataFrame], solved: OptionStats | None = None,
            played: str | None = None) -> EvaluationResult:
    table, ranked_by = _table(ev, plan.groups, stats, active, plan.exact)
    if solved is not None and solved.samples(0) > 0:
        table = _with_solver(table, ev, plan.groups, solved, plan.exact_solves)
    facts: dict[str, Any] = {"method": plan.method if done else "nothing to sample", "ranked_by": ranked_by, "looks": plan.looks,
                             "race_z": round(plan.race_z, 3), "race_alpha": RACE_ALPHA,
                             "description": ev.description, "seat": ev.seat, "confidence": plan.confidence,
                             "options_legal": list(ev.names), "lower_is_better": ev.lower_is_better,
                             "outcome_binary": ev.outcome_binary}
    if played is not None:
        facts["played"] = played
    if ev.weighted and done:
        facts["effective_samples"] = round(stats.effective_samples(0), 1)
    if solved is not None and solved.samples(0) > 0:
        best = table.loc[table["solved"].idxmax(), "option"]
        facts["solver"] = {"samples": int(solved.samples(0)), "value": ev.solve_value, "best": best}
    return EvaluationResult(game, position, done, time.perf_counter() - started, stopped,
                            {"options": table, **tables_extra}, facts)


def _played_option(spec, ev: Evaluation, groups: list[list[int]], played: str | None) -> str | None:
    """The table's option (merged options joined by '/') that holds the move a record played
    (its text), or None."""
    if played is None:
        return None
    for group in groups:
        if any(spec.move_name(ev.options[i]) == played for i in group):
            return "/".join(ev.names[i] for i in group)
    return None


def _table(ev: Evaluation, groups: list[list[int]], stats: OptionStats,
           active: list[int], exact: bool = False) -> tuple[pd.DataFrame, str]:
    """The ranked options: the kept ones by the ranking column (win, then the hand outcome),
    then the dropped ones the same way. P(best) is 0 for a dropped option: it was dropped
    at a difference of more than race_z standard errors (P(best) < RACE_ALPHA)."""
    k = len(groups)
    played = stats.samples(0) > 0
    col = _ranking_col(stats, active) if played else 1
    p_active = _prob_best_active(stats, active, ev) if played else np.ones(len(active)) / len(active)
    sign0 = _sign(ev, 0)
    rows = []
    for g in range(k):
        row: dict[str, Any] = {"option": "/".join(ev.names[i] for i in groups[g]), "samples": stats.samples(g)}
        m, _ = stats.mean_var(g, 0)
        lo, hi = _interval(stats, g, 0, ev.outcome_binary, exact)
        row[ev.outcome], row[ev.outcome + "_lo"], row[ev.outcome + "_hi"] = m, lo, hi
        w, _ = stats.mean_var(g, 1)
        row["win"], (row["win_lo"], row["win_hi"]) = w, _interval(stats, g, 1, True, exact)
        row["p_best"] = float(p_active[active.index(g)]) if g in active else 0.0
        row["dropped"] = g not in active
        rows.append(row)

    def key(g: int) -> tuple:
        win, outcome = _nan_low(rows[g]["win"]), _nan_low(sign0 * rows[g][ev.outcome])
        return (rows[g]["dropped"], -win, -outcome) if col == 1 else (rows[g]["dropped"], -outcome, -win)

    order = sorted(range(k), key=key)
    for g in range(k):  # paired differences to the best option: in P(win), and in the outcome
        rows[g]["diff_to_best"], rows[g]["diff_se"] = stats.diff(g, order[0], 1)
        rows[g]["outcome_diff"], rows[g]["outcome_diff_se"] = stats.diff(g, order[0], 0)
    frame = pd.DataFrame([rows[g] for g in order]).reset_index(drop=True)
    frame.insert(0, "rank", range(1, len(frame) + 1))
    return frame, ("win" if col == 1 else ev.outcome)


def _with_solver(table: pd.DataFrame, ev: Evaluation, groups: list[list[int]], solved: OptionStats,
                 exact: bool) -> pd.DataFrame:
    """The table with the solver's columns: ``solved`` (mean exact value, every card open),
    its 95% normal interval, and the paired difference to the option the solver rates best
    (``solved_diff``, ``solved_diff_se``), over the same worlds."""
    names = ["/".join(ev.names[i] for i in g) for g in groups]
    means = [solved.mean_var(g, 0)[0] + 0.0 for g in range(len(groups))]  # (+ 0.0: no -0.0 shown)
    top = int(np.argmax(means))
    extra = {}
    for g, name in enumerate(names):
        lo, hi = _interval(solved, g, 0, False, exact)
        d, se = solved.diff(g, top, 0)
        extra[name] = {"solved": means[g], "solved_lo": lo + 0.0, "solved_hi": hi + 0.0, "solved_diff": d + 0.0,
                       "solved_diff_se": se}
    return table.join(pd.DataFrame([extra[o] for o in table["option"]], index=table.index))


def _draws_nothing(spec, choice) -> bool:
    """Whether a seat's rollout strategy draws no random number (its move a function of what
    it sees): a built-in the game declares deterministic (``StrategyInfo.deterministic``),
    or a user strategy whose code never reads its ``rng`` argument nor ``random`` (what it
    calls is looked through, but for the analyzer's own helpers). Search strategies draw."""
    if choice.function is not None:
        function = getattr(choice.function.function, "py_func", choice.function.function)
        return _code_draws_nothing(function, set())
    info = spec.strategies.get(choice.builtin or "")
    return bool(info is not None and info.deterministic and choice.base is None)


def _code_draws_nothing(function: Callable, seen: set[int], strategy: bool = True) -> bool:
    """``_draws_nothing`` of a user function: the strategy's ``rng`` (its fourth argument)
    never read, no name ``random`` (``np.random``), and the same (but ``rng``: a stream
    passed on is read first) of every function of the user's that it calls."""
    import dis
    import types

    code = getattr(function, "__code__", None)
    if code is None:
        return False
    if id(code) in seen:
        return True
    seen.add(id(code))
    rng = code.co_varnames[3] if strategy and code.co_argcount >= 4 else None
    codes = [code]
    while codes:
        c = codes.pop()
        codes.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        if "random" in c.co_names:
            return False
        if rng is not None and any(i.opname.startswith(("LOAD_FAST", "LOAD_DEREF"))  # 3.12+: LOAD_FAST_LOAD_FAST
                                   and rng in (i.argval if isinstance(i.argval, tuple) else (i.argval,))
                                   for i in dis.get_instructions(c)):
            return False
        found = [getattr(function, "__globals__", {}).get(name) for name in c.co_names]
        for module in [v for v in found if isinstance(v, types.ModuleType)]:  # tools.pick(...)
            found += [getattr(module, name, None) for name in c.co_names]
        for value in found:
            called = getattr(value, "py_func", value)
            if (isinstance(called, types.FunctionType) and not called.__module__.startswith("analyzer.")
                    and not _code_draws_nothing(called, seen, strategy=False)):
                return False
    return True


def option_groups(ev: Evaluation) -> list[list[int]]:
    """Every option in exactly one group, in the order of ``ev.options``: the game's groups
    (``ev.groups``), and each option it did not group on its own."""
    listed = [list(g) for g in ev.groups or [] if g]
    seen = [i for g in listed for i in g]
    if len(seen) != len(set(seen)) or not all(0 <= i < len(ev.options) for i in seen):
        raise ValueError(f"the game's option groups {ev.groups} are not disjoint lists of option indices")
    groups = listed + [[i] for i in range(len(ev.options)) if i not in seen]
    return sorted(groups, key=min)


def _nan_low(x: float) -> float:
    """NaN ranks last."""
    return -math.inf if x != x else x


INT64_MAX = 2**63 - 1


def as_int(value: Any, name: str) -> int:
    """An integer position value (given as a number or as text), with a clear error: a bool,
    a fraction (1.5), infinity or a number beyond int64 is refused, never truncated."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    if isinstance(value, bool):
        raise AnalyzerError(f"{name} takes an integer, not {text}")
    if isinstance(value, float):
        if not value.is_integer():
            raise AnalyzerError(f"{name} takes an integer, not {text}")
        value = int(value)
    elif isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise AnalyzerError(f"{name} takes an integer, not {text}") from None
    elif not isinstance(value, (int, np.integer)):
        raise AnalyzerError(f"{name} takes an integer, not {text}")
    if not -INT64_MAX <= int(value) <= INT64_MAX:
        raise AnalyzerError(f"{name}: {text} is out of range")
    return int(value)


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


def _check_agrees_with_record(position: dict[str, Any], players: int | None, rules: dict[str, Any] | None) -> None:
    """A record's position is played under the record's players and rules: ``--players`` or a
    ``--rule`` that says otherwise is refused (it failed later, in words about something else)."""
    if players is not None and players != position.get("players", players):
        raise AnalyzerError(f"--players {players}: the record's game has {position['players']} players")
    recorded = position.get("rules", {})
    for name, value in (rules or {}).items():
        if name in recorded and str(value).lower() != str(recorded[name]).lower():
            raise AnalyzerError(f"--rule {name}={value}: the record's game was played with {name}={recorded[name]}")


def _position_from_record(spec, path: str, index: int, at: int | None) -> tuple[dict[str, Any], str | None]:
    """Decision ``at`` of game ``index`` of a record file, seen by the deciding seat, and the
    move the record played there (its text). A record that does not follow the format (a key
    missing, a value of the wrong type) is refused in one line naming the file, never with a
    traceback."""
    events = _read_record(path, index, spec.name)
    try:
        from analyzer.review import decisions  # numbered as --at counts them

        position = spec.position_from_record(events, at)
        return position, decisions(events)[at - 1].move
    except AnalyzerError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"missing key {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise AnalyzerError(f"record file {path}, game {index}: not a valid {spec.name} record ({what})"[:300]) from None


def _read_record(path: str, index: int, game: str) -> list[dict[str, Any]]:
    import json
    from pathlib import Path

    from analyzer.io import not_a_file

    file = Path(path)
    if not file.is_file():
        raise AnalyzerError(f"record file {path} {not_a_file(file)}")
    games: list[list[dict[str, Any]]] = []
    lines: list[list[int]] = []  # each event's line in the file
    try:
        text = file.read_text(encoding="utf-8-sig")  # a byte order mark (an editor's) is no event
    except UnicodeDecodeError:
        raise AnalyzerError(f"record file {path} is not UTF-8 text") from None
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise AnalyzerError(f"record file {path}, line {n}: not valid JSON") from None
        if not isinstance(event, dict) or not isinstance(event.get("ev"), str):
            raise AnalyzerError(f"record file {path}, line {n}: an event is a JSON object with an \"ev\" key")
        if event.get("ev") == "game":
            games.append([])
            lines.append([])
        if not games:
            raise AnalyzerError(f"record file {path}: line {n} comes before any game event")
        games[-1].append(event)
        lines[-1].append(n)
    if not 0 <= index < len(games):
        raise AnalyzerError(f"record file {path} holds {len(games)} game(s); --game {index} does not exist")
    if games[index][0].get("game") != game:
        raise AnalyzerError(f"record game {index} is {games[index][0].get('game')!r}, not {game}")
    _check_shape(path, games[index], lines[index])
    return games[index]


def _check_shape(path: str, events: list[dict[str, Any]], lines: list[int]) -> None:
    """What every game's record has (docs/record.md), checked before a game replays it: the
    header's number of players, seats that exist, cards written as records write them. An
    edited record failed later, in words about something else (``list.remove(x): x not in
    list`` for a card in lower case; a duplicate card for a seat out of range) or not at all
    (no players: a "0-player game")."""
    from analyzer.cards import CardError, parse_card, token

    players = events[0].get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise AnalyzerError(f"record file {path}, line {lines[0]}: the game event needs \"players\", the number of "
                            f"players, not {players!r}"[:300])
    for event, n in zip(events, lines):
        for key in ("seat", "dealer"):
            seat = event.get(key)
            if key in event and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
                raise AnalyzerError(f"record file {path}, line {n}: {key} {seat!r} is not a seat of a {players}-player "
                                    f"game (0 to {players - 1})"[:300])
        if event["ev"] == "deal":
            for card in _strings_in(event):
                try:
                    canonical = token(parse_card(card))
                except CardError:
                    canonical = None
                if canonical != card:
                    written = f" ({canonical})" if canonical else ""
                    raise AnalyzerError(f"record file {path}, line {n}: {card!r} is not a card as a record writes "
                                        f"it{written}"[:300])


def _strings_in(value: Any) -> list[str]:
    """Every string in the lists of ``value`` (an event's values, nested lists included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() if isinstance(v, list) for s in _strings_in(v)]
    if isinstance(value, list):
        return [s for item in value for s in _strings_in(item)]
    return []
