"""Strategy tournaments on duplicate deals, and rule-variant studies.

**Duplicate deals.** Every game index is played once per *arrangement* of the strategies
over the seats, from the same ``(seed, index)`` streams, so each arrangement sees the same
cards and the luck of the deal cancels in the paired difference. For a pair of strategies
X, Y in a P-seat game the arrangements are the rotations of the alternating seating
X Y X Y ... and of its complement (deduplicated): every seat hosts each strategy equally
often, partnership games (seats 0+2 against 1+3) pair strategies by team, and under equal
strength X's expected share of the wins is exactly 1/2.

**Per-deal statistics.** For deal g, ``d_g`` is X's share of the wins averaged over the
arrangements (a shared win counts fractionally). The win rate of X is the mean of ``d_g``,
the paired difference X - Y is the mean of ``2 d_g - 1``, both with standard errors from the
variance between deals. The unpaired standard error (games treated as independent) is
reported too: pairing is worth it when it is smaller. The p-value of equal strength is the
exact sign-flip test of the ``d_g`` about 1/2 up to ``stats.EXACT_VALUES`` deals, the normal
test of their mean beyond (``PairStats.p_value``).

**Sequential stopping** (``until_significant``): the test is looked at after 1,000 deals
(``first_look``) and then each time the number of deals doubles, up to the budget; with L
possible looks each uses the level alpha/L (Bonferroni), so the overall false-decision rate
is at most alpha. A round robin stops when every pairing is decided, or with ``each_pair``
each pairing stops at its own first decided look (the others play on): the pairings then
hold different numbers of deals, so the ranking is the mean of each strategy's pairings'
shares, with an interval whose standard error is the mean of theirs (an upper bound on the
true one, whatever the correlation between pairings that share deals).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer import api, records
from analyzer.errors import AnalyzerError, StrategyError
from analyzer.fold import fold_pair_rows
from analyzer.runner import Arm, run_arms
from analyzer.results import Result
from analyzer.stats import (EXACT_VALUES, Moments, normal_p_value, proportion_interval, sign_flip_p_value,
                            wilson)
from analyzer.terminal import count, p_value, texts_apart

FIRST_LOOK = 1000


def arrangements(players: int, x: int, y: int) -> list[list[int]]:
    """Balanced seatings of strategies ``x`` and ``y`` (see module docstring)."""
    pattern = [x if s % 2 == 0 else y for s in range(players)]
    complement = [y if v == x else x for v in pattern]
    seatings: list[list[int]] = []
    for base in (pattern, complement):
        for r in range(players):
            rotated = base[r:] + base[:r]
            if rotated not in seatings:
                seatings.append(rotated)
    return seatings


@dataclass
class PairStats:
    x: int
    y: int
    arms: list[Arm]
    share: Moments = field(default_factory=lambda: Moments(keep=EXACT_VALUES))  # per deal
    single: Moments = field(default_factory=Moments)      # per game (unpaired)
    margin: Moments = field(default_factory=Moments)      # per deal
    hands: Moments = field(default_factory=Moments)       # per game

    def fold(self, rows: list[np.ndarray]) -> np.ndarray:
        shares, margins = [], []
        for arm, out in zip(self.arms, rows):
            share, margin, hands = (np.empty(out.shape[0]) for _ in range(3))
            fold_pair_rows(out, np.array([v == self.x for v in arm.seating], dtype=np.int64), share, margin, hands)
            shares.append(share)
            margins.append(margin)
            self.hands.add(hands)
        per_game = np.stack(shares)
        per_deal = per_game.mean(axis=0)
        self.share.add(per_deal)
        self.single.add(per_game.ravel())
        self.margin.add(np.stack(margins).mean(axis=0))
        return per_deal

    @property
    def active(self) -> bool:
        return all(arm.active for arm in self.arms)

    def stop(self) -> None:
        """Play this pairing no more (its test is decided)."""
        for arm in self.arms:
            arm.active = False

    def z(self) -> float:
        mean, _, _ = self.share.interval()
        se = self.share.se()
        return (mean - 0.5) / se if se > 0 else (0.0 if mean == 0.5 else float("inf"))

    def p_value(self) -> float:
        """Two-sided p-value of equal strength. Under it a deal's share is as likely above 1/2
        as below by the same amount (the seatings are balanced: swapping the strategies swaps
        the shares), so up to EXACT_VALUES deals it is the exact sign-flip test of the
        per-deal shares about 1/2 (stats.sign_flip_p_value: all n deals won by one side give
        2^(1-n)); from there on, or where the shares lie on no grid, normal. When every deal
        gave the same share (no variance, so no normal test), the sign test's bound 2^(1-n)."""
        if self.share.n <= len(self.share.first):
            exact = sign_flip_p_value(self.share.first, 0.5)
            if exact is not None:
                return exact
        z = self.z()
        if math.isfinite(z):
            return normal_p_value(z)
        return min(1.0, 2.0 ** (1 - self.share.n))


@dataclass
class Comparison(Result):
    game: str
    rules: dict[str, Any]
    seed: int
    strategies: list[str]
    games: int
    elapsed: float
    interrupted: bool
    stopped_early: bool
    alpha: float
    tables: dict[str, pd.DataFrame]
    #: the level each look's test is held to: alpha, or alpha / L with L sequential looks
    level: float | None = None

    def verdict(self) -> str:
        """One line per pair: who is stronger, by how much, how sure; the margin's sign. A
        pairing is called only where its test is decided (``decided``: p below ``level``, not
        below alpha, after sequential looks, else the overall error rate would pass alpha)."""
        from analyzer import games as registry

        spec = registry.get(self.game)
        lines = []
        for _, row in self.tables["pairs"].iterrows():
            x, y, share = row["strategy"], row["opponent"], row["win_rate"]
            if row["deals"] == 0:  # interrupted before its first chunk, or never played
                lines.append(f"{x} and {y}: no deal played.")
                continue
            p = row["p_value"]
            shown = p_value(p)  # as the table's p_value column shows it: "<0.0001", "0.0037"
            sure = f"p < {shown[1:]}" if shown.startswith("<") else f"p = {shown}"

            def ends(value: float, lo: float, hi: float) -> str:  # one deal has no spread: no interval
                if math.isnan(lo):
                    return f"{value:.3f} of the wins (no interval from one deal)"
                value, lo, hi = texts_apart((value, lo, hi), 3)  # 0.9996 is not "1.000 [0.981, 1.000]"
                return f"{value} of the wins [{lo}, {hi}]"

            level = self.alpha if self.level is None else self.level
            if bool(row["decided"]) if "decided" in row else p < level:
                strong, weak = (x, y) if share > 0.5 else (y, x)
                s, lo, hi = (share, row["win_rate_lo"], row["win_rate_hi"]) if share > 0.5 else \
                    (1 - share, 1 - row["win_rate_hi"], 1 - row["win_rate_lo"])
                text = f"{strong} is stronger than {weak}: {ends(s, lo, hi)}, {sure}"
            else:
                # after sequential looks a p under alpha can still be above the looks' level
                at = f" (above {level:.2g}, the level of each sequential look)" if level <= p < self.alpha else ""
                text = (f"{x} and {y} are not told apart: {x} takes "
                        f"{ends(share, row['win_rate_lo'], row['win_rate_hi'])}, {sure}{at}")
            lines.append(text + f" ({count(row['deals'], 'deal')}).")
        direction = "fewer is better" if spec.lower_score_wins else "more is better"
        lines.append(f"score_margin: the strategy's final score minus the opponent's, per game ({direction} in "
                     f"{spec.name}).")
        return "\n".join(lines)

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "rules": self.rules, "seed": self.seed, "strategies": self.strategies,
                "deals": self.games, "elapsed_s": round(self.elapsed, 3), "interrupted": self.interrupted,
                "stopped_early": self.stopped_early, "alpha": self.alpha,
                "level": self.alpha if self.level is None else self.level}


def _looks(n_games: int, first: int = FIRST_LOOK) -> list[int]:
    looks, n = [], first
    while n < n_games:
        looks.append(n)
        n *= 2
    return looks + [n_games]


class Tournament:
    """The arms and running statistics of a comparison; chunks of deals fold into it.

    ``state()`` / ``merge()`` let batch jobs play chunks anywhere and combine them.
    """

    def __init__(self, game: str, strategies: list[str], players: int | None, rules: dict[str, Any] | None) -> None:
        strategies = [str(name).strip() for name in strategies]  # "heuristic " is heuristic, labels too
        if len(strategies) < 2:
            raise AnalyzerError("compare needs at least two strategies")
        self.base = api.setup(game, players, None, rules)
        p = self.players = self.base.spec.players(self.base.rules)
        setups = [api.setup(game, p, [name] * p, self.base.rules) for name in strategies]
        # user strategies: one kernel bound to every distinct user function of the
        # tournament (slot order of first appearance), shared by all arms
        self.functions: list[Callable] = []
        self.user_labels: list[str] = []
        rows = []
        for s in setups:
            row = s.strat[0].copy()
            local = s.seats[0].user_functions  # the setup's slot order (strategy_array)
            for fn in local:
                if fn not in self.functions:
                    self.functions.append(fn)
            if local:
                # a negative entry of a strat row is a user slot (a seat's id or a search's base)
                row = np.array([v if v >= 0 else -1 - self.functions.index(local[-1 - v]) for v in row],
                               dtype=row.dtype)
                self.user_labels.append(s.seats[0].user_label)
            rows.append(row)
        spec = self.base.spec
        run_chunk, run_traced = (spec.user_kernels(self.functions) if self.functions
                                 else (self.base.run_chunk, self.base.run_traced))
        ncols = len(spec.columns(self.base.rules))
        self.labels = _labels(strategies)
        self.pairs: list[PairStats] = []
        self.arms: list[Arm] = []
        # exact sums (stats.Moments' scale): a game's share of the wins is a multiple of 1/w
        # for its w <= p winners, its score margin one of 1/lcm(seats of X, seats of Y); a
        # deal's are the means over the pairing's seatings; so the tables are the same for
        # any cut into chunks (batch's chunk size, compare's calls)
        unit = math.lcm(*range(1, p + 1))
        for x, y in itertools.combinations(range(len(strategies)), 2):
            pair_arms = []
            for seating in arrangements(p, x, y):
                strat = np.stack([rows[v] for v in seating])
                describe = functools.partial(
                    records.replayed_illegal_move, spec, run_traced, self.base.rules, self.base.params, strat,
                    [self.labels[v] for v in seating]) if self.functions else None
                pair_arms.append(Arm(run_chunk, self.base.params, strat, ncols, seating, describe))
            deal = unit * len(pair_arms)
            self.pairs.append(PairStats(x, y, pair_arms, share=Moments(keep=EXACT_VALUES, scale=deal),
                                        single=Moments(scale=unit), margin=Moments(scale=deal),
                                        hands=Moments(scale=1)))
            self.arms.extend(pair_arms)
        # a strategy's deal in the ranking: the mean of its pairings' (at most len - 1) deal shares
        ranked = (unit * math.lcm(*(len(pair.arms) for pair in self.pairs))
                  * math.lcm(*range(1, len(strategies))))
        self.ranking = [Moments(scale=ranked) for _ in strategies]
        #: each pairing stops on its own: the ranking is made from the pairings (tables)
        self.each_pair = False

    def guard(self, call: Callable[[], Any]) -> Any:
        """``call()`` (playing the arms); a user strategy's failure as a one-line StrategyError."""
        if not self.functions:
            return call()
        return api.user_guard(self.base.spec, self.user_labels, call)

    def fold(self, rows: list[np.ndarray]) -> None:
        k = 0
        per_strategy: list[list[np.ndarray]] = [[] for _ in self.labels]
        for pair in self.pairs:
            chunk = rows[k:k + len(pair.arms)]
            k += len(pair.arms)
            if chunk[0] is None:  # a pairing stopped at an earlier look
                continue
            d = pair.fold(chunk)
            per_strategy[pair.x].append(d)
            per_strategy[pair.y].append(1 - d)
        if self.each_pair:
            return
        for i, values in enumerate(per_strategy):
            self.ranking[i].add(np.mean(values, axis=0))

    def moments(self) -> list[Moments]:
        return [m for pair in self.pairs for m in (pair.share, pair.single, pair.margin, pair.hands)] + self.ranking

    def state(self) -> list[tuple]:
        return [m.state() for m in self.moments()]

    def merge(self, state: list[tuple]) -> None:
        """Add a later chunk's ``state`` (chunks merged in order: the first values stay the
        first ones; the sums are exact, so the grouping changes nothing)."""
        for m, part in zip(self.moments(), state):
            m.merge(part)

    def tables(self, level: float) -> dict[str, pd.DataFrame]:
        return _tables(self.labels, self.pairs, None if self.each_pair else self.ranking, level)


def compare(game: str, strategies: list[str], games: int = 10_000, seed: int = 0, players: int | None = None,
            rules: dict[str, Any] | None = None, workers: int | None = None, until_significant: bool = False,
            alpha: float = 0.05, progress: bool = False, first_look: int = FIRST_LOOK,
            each_pair: bool = False, timeout: float | None = None) -> Comparison:
    """Compare strategies on duplicate deals (two: a paired test; more: a round robin).
    ``until_significant``: sequential looks from ``first_look`` deals on, doubling; with
    ``each_pair`` each pairing of a round robin stops on its own (module docstring).
    ``timeout``: a chunk taking longer (seconds) stops the run with an error (a strategy
    stuck in a loop)."""
    if games < 1:
        raise AnalyzerError(f"--games must be a positive integer, not {games}")
    if not 0 < alpha < 1:
        raise AnalyzerError(f"--alpha must be between 0 and 1, not {alpha}")
    if first_look < 1:
        raise AnalyzerError(f"the first look must be a positive number of deals, not {first_look}")
    seed = api.check_seed(seed)
    t = Tournament(game, strategies, players, rules)
    t.each_pair = each_pair and until_significant
    looks = _looks(games, first_look)
    level = alpha / len(looks) if until_significant else alpha
    state = {"stopped": False}

    def on_chunk(done: int, rows: list[np.ndarray]) -> bool:
        t.fold(rows)
        if until_significant and done in looks and done < games:
            if t.each_pair:
                for pair in t.pairs:
                    if pair.active and pair.p_value() < level:
                        pair.stop()
                decided = not any(pair.active for pair in t.pairs)
            else:
                decided = all(pair.p_value() < level for pair in t.pairs)
            if decided:
                state["stopped"] = True
                return True
        return False

    done, elapsed, interrupted = t.guard(lambda: run_arms(
        t.arms, seed, games, on_chunk, workers=workers, progress=progress, label=f"compare {game}",
        boundaries=looks if until_significant else None, timeout=timeout))
    return Comparison(t.base.spec.name, t.base.rules, seed, t.labels, done, elapsed, interrupted,
                      state["stopped"], alpha, t.tables(level), level)


def _labels(names: list[str]) -> list[str]:
    """Strategy labels, a repeated name numbered (``random``, ``random#2``)."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return labels


def _tables(names: list[str], pairs: list[PairStats], ranking: list[Moments] | None,
            level: float) -> dict[str, pd.DataFrame]:
    """The pairs table and (three or more strategies) the ranking: from ``ranking``'s
    per-deal means, or without it (pairings of different lengths) from the pairings."""
    rows = []
    for pair in pairs:
        share, lo, hi = pair.share.proportion()
        se = pair.share.se()
        unpaired_se = pair.single.se()  # as if every game had its own deal
        margin = pair.margin.interval()
        p_value = pair.p_value()
        rows.append({
            "strategy": names[pair.x], "opponent": names[pair.y], "deals": pair.share.n,
            "games": pair.share.n * len(pair.arms),
            "win_rate": share, "win_rate_lo": lo, "win_rate_hi": hi,
            "opponent_win_rate": 1 - share, "opponent_win_rate_lo": 1 - hi, "opponent_win_rate_hi": 1 - lo,
            "difference": 2 * share - 1, "difference_se": 2 * se, "difference_se_unpaired": 2 * unpaired_se,
            "p_value": p_value, "decided": p_value < level,
            "score_margin": margin[0], "score_margin_lo": margin[1], "score_margin_hi": margin[2],
        })
    first = ["strategy", "opponent", "win_rate", "win_rate_lo", "win_rate_hi", "p_value", "score_margin",
             "score_margin_lo", "score_margin_hi", "deals"]
    frame = pd.DataFrame(rows)
    tables = {"pairs": frame[first + [c for c in frame.columns if c not in first]]}
    if len(names) > 2:
        rank = []
        for i, name in enumerate(names):
            mean, lo, hi = ranking[i].proportion() if ranking is not None else _ranking_from_pairs(i, pairs)
            rank.append({"strategy": name, "mean_win_rate": mean, "mean_win_rate_lo": lo, "mean_win_rate_hi": hi})
        frame = pd.DataFrame(rank).sort_values("mean_win_rate", ascending=False).reset_index(drop=True)
        frame.insert(0, "rank", range(1, len(frame) + 1))
        tables["ranking"] = frame
    return tables


def _ranking_from_pairs(i: int, pairs: list[PairStats]) -> tuple[float, float, float]:
    """Strategy ``i``'s mean share of wins over its pairings, each pairing weighted alike, with
    a Wilson interval whose standard error is the mean of the pairings' (Minkowski: never below
    the true one, however the pairings correlate), at the smallest pairing's number of deals."""
    shares, ses, deals = [], [], []
    for pair in pairs:
        if i in (pair.x, pair.y):
            share = pair.share.s / pair.share.n
            shares.append(share if i == pair.x else 1 - share)
            ses.append(pair.share.se())
            deals.append(pair.share.n)
    mean, se = float(np.mean(shares)), float(np.mean(ses))
    lo, hi = proportion_interval(mean, se * se, min(deals), df=min(deals) - 1)
    return mean, lo, hi


# ---- rule-variant studies ------------------------------------------------------------------

@dataclass
class VariantStudy(Result):
    game: str
    seed: int
    strategies: list[str]
    variants: list[dict[str, Any]]
    games: int
    elapsed: float
    interrupted: bool
    tables: dict[str, pd.DataFrame]

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "strategies": self.strategies, "variants": self.variants,
                "games": self.games, "elapsed_s": round(self.elapsed, 3), "interrupted": self.interrupted}

    def verdict(self) -> str:
        """One line per variant after the first: how much longer or shorter its games are than
        the first's, paired on the same streams, with the interval of the difference."""
        table = self.tables["variants"]
        first = table.iloc[0]["variant"]
        lines = []
        for _, row in table.iloc[1:].iterrows():
            d, lo, hi = row["hands_vs_first"], row["hands_vs_first_lo"], row["hands_vs_first_hi"]
            if math.isnan(lo):
                lines.append(f"{row['variant']}: {d:+.2f} hands per game against {first} (one deal: no interval).")
            elif lo > 0 or hi < 0:
                lines.append(f"{row['variant']}: {abs(d):.2f} {'more' if d > 0 else 'fewer'} hands per game than "
                             f"{first} [{abs(lo if d > 0 else hi):.2f}, {abs(hi if d > 0 else lo):.2f}].")
            else:
                lines.append(f"{row['variant']}: games as long as with {first}, within [{lo:+.2f}, {hi:+.2f}] hands.")
        return "\n".join(lines)


def rule_grid(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    """``[(name, value), ...]`` with repeated names -> the product of the values per name."""
    values: dict[str, list[str]] = {}
    for name, value in items:
        if value in values.setdefault(name, []):
            raise AnalyzerError(f"rule {name}={value} is given twice")
        values[name].append(value)
    return [dict(zip(values, combo)) for combo in itertools.product(*values.values())]


def variants(game: str, grid: list[dict[str, Any]], games: int = 10_000, seed: int = 0,
             players: int | None = None, seats: dict[int, str] | list[str] | None = None,
             workers: int | None = None, progress: bool = False, timeout: float | None = None) -> VariantStudy:
    """Play the same strategies on the same streams under each rule variant of ``grid``
    (``timeout``: a chunk taking longer, seconds, stops the study with an error)."""
    if len(grid) < 2:
        raise AnalyzerError("a variant study needs at least two variants (repeat --rule NAME=VALUE)")
    if games < 1:
        raise AnalyzerError(f"--games must be a positive integer, not {games}")
    seed = api.check_seed(seed)
    setups = [api.setup(game, players, seats, rules) for rules in grid]
    p = {s.spec.players(s.rules) for s in setups}
    if len(p) != 1:
        raise AnalyzerError("variants must keep the number of players (vary it with separate runs)")
    players_n = p.pop()
    hands = [Moments() for _ in setups]
    diff = [Moments() for _ in setups]
    wins = [np.zeros(players_n) for _ in setups]
    scores = [[Moments() for _ in range(players_n)] for _ in setups]
    first = setups[0]

    def on_chunk(done: int, rows: list[np.ndarray]) -> bool:
        base_hands = rows[0][:, 1].astype(np.float64)
        for v, out in enumerate(rows):
            h = out[:, 1].astype(np.float64)
            hands[v].add(h)
            diff[v].add(h - base_hands)
            for s in range(players_n):
                wins[v][s] += float(((out[:, 0] >> s) & 1).sum())
                scores[v][s].add(out[:, 3 + s].astype(np.float64))
        return False

    arms = [Arm(s.run_chunk, s.params, s.strat, len(s.spec.columns(s.rules)), describe=s.describe_error)
            for s in setups]
    done, elapsed, interrupted = api._user_compile_guard(first, lambda: run_arms(
        arms, seed, games, on_chunk, workers=workers, progress=progress, label=f"variants {game}",
        timeout=timeout))
    rows = []
    for v, rules in enumerate(grid):
        row: dict[str, Any] = {"variant": ", ".join(f"{k}={val}" for k, val in rules.items())}
        row["hands_per_game"], row["hands_per_game_lo"], row["hands_per_game_hi"] = hands[v].interval()
        mean, lo, hi = diff[v].interval()
        row["hands_vs_first"], row["hands_vs_first_lo"], row["hands_vs_first_hi"] = mean, lo, hi
        for s in range(players_n):
            rate = wins[v][s] / done if done else float("nan")
            wlo, whi = wilson(wins[v][s], done)
            row[f"win_rate_{s}"], row[f"win_rate_{s}_lo"], row[f"win_rate_{s}_hi"] = rate, wlo, whi
        for s in range(players_n):
            row[f"score_{s}"], row[f"score_{s}_lo"], row[f"score_{s}_hi"] = scores[v][s].interval()
        rows.append(row)
    return VariantStudy(first.spec.name, seed, first.labels, [s.rules for s in setups], done, elapsed,
                        interrupted, {"variants": pd.DataFrame(rows)})
