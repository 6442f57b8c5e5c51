"""``analyzer review``: the cost of every decision of a recorded game.

Each decision of the chosen seats is evaluated exactly as ``evaluate --record FILE --game
K --at N`` would (same rollout, budget and seed: the same numbers), from that seat's view.
The move played is then compared with the best option: its loss in win probability and in
the hand outcome, each a paired difference with its standard error, and its P(best).
A forced move (one legal option) or a move equivalent to the best costs nothing and needs
no samples.

The seat's total loss is the sum of its decisions' losses in win probability; the decisions
are evaluated on independent samples, so its standard error is the root of the sum of their
squared standard errors. The best option is picked on the same samples that measure the
loss, so a decision whose options are not separated shows a small loss from noise alone
(of the order of its standard error): a seat that makes more choices gathers more of it,
so seats compare best by their loss per choice (a decision with more than one option) and
by their flagged decisions. A decision is flagged when its loss in win probability, or in the
hand outcome, exceeds ``Z95`` of its standard errors (one-sided 2.5%; any loss at all when it
was measured without error, over every world): a hand thrown away late in a game that is
already decided costs no win probability, and is still a mistake. A decision whose options
the budget could not tell apart says so instead.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import pandas as pd

from analyzer.errors import AnalyzerError, InferenceMisfit, StrategyTimeout
from analyzer.results import Result
from analyzer.stats import Z95


@dataclass
class Decision:
    """One ``decide`` event of the record: its 1-based number, seat, hand, move, legal moves."""

    number: int
    seat: int
    hand: int
    move: str
    legal: list[str]
    event: int  # index of the event in the record


def decisions(events: list[dict[str, Any]]) -> list[Decision]:
    """Every decision of one recorded game, numbered as ``evaluate --at`` counts them."""
    out, hand = [], 0
    for i, ev in enumerate(events):
        if ev.get("ev") == "deal":
            hand = int(ev.get("hand", hand + 1))
        elif ev.get("ev") == "decide":
            out.append(Decision(len(out) + 1, int(ev["seat"]), hand, str(ev["move"]), [str(m) for m in ev["legal"]],
                                i))
    return out


@dataclass
class ReviewResult(Result):
    """``tables['decisions']``: one row per reviewed decision; ``tables['seats']``: each
    seat's total loss with its interval. ``replay``: the record as text, per event."""

    game: str
    record: str
    game_index: int
    seats: list[int]
    rollout: Any
    samples: int
    elapsed: float
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    replay: list[str] = field(default_factory=list)
    interrupted: bool = False
    #: decisions left unreviewed when ``total_seconds`` was up (0: every one reviewed)
    unreviewed: int = 0
    #: whether the record holds the game to its end (a ``game_end`` event): a record cut
    #: short is reviewed as far as it goes, and the output says so
    complete: bool = True
    #: the reviewed game's record events (for the page; not in to_dict)
    events: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def run_facts(self) -> dict[str, Any]:
        return {"game": self.game, "record": self.record, "game_index": self.game_index, "seats": self.seats,
                "rollout": self.rollout, "samples_per_decision": self.samples, "elapsed_s": round(self.elapsed, 3),
                "interrupted": self.interrupted, "unreviewed": self.unreviewed, "complete": self.complete}

    def costliest(self, k: int = 3) -> pd.DataFrame:
        t = self.tables["decisions"]
        return t[t["loss_win"] > 0].sort_values("loss_win", ascending=False).head(k)

    def verdict(self) -> str:
        from analyzer.terminal import texts_apart

        lines = []
        for row in self.tables["seats"].to_dict(orient="records"):
            # a sum of losses, each measured where it was made: not a probability (it can pass
            # 1), so it is given in points of win probability, not in percent
            total, lo, hi = (text[:-1] for text in texts_apart((row["loss_win"], row["loss_win_lo"],
                                                                row["loss_win_hi"]), 1, percent=True))
            lines.append(f"Seat {row['seat']}: {row['choices']} choice(s) cost {total} points of "
                         f"win probability in all [{lo}, {hi}], "
                         f"{100 * row['loss_per_choice']:.2f} per choice; {row['flagged']} flagged, "
                         f"{row['unclear']} not separated.")
        for row in self.costliest().to_dict(orient="records"):
            # in points of win probability with its 95% interval, as the seat's line above
            half = Z95 * row["loss_win_se"]
            loss, lo, hi = texts_apart((row["loss_win"], row["loss_win"] - half, row["loss_win"] + half), 1,
                                       percent=True)
            lines.append(f"hand {row['hand']}, decision {row['decision']} (seat {row['seat']}): played "
                         f"{row['played']}, best {row['best']}: cost {loss[:-1]} points of win probability "
                         f"[{lo[:-1]}, {hi[:-1]}]{_flag_text(row)}")
        return "\n".join(lines)


def _flag_text(row: dict[str, Any]) -> str:
    """`` (flagged)``, or `` (flagged on the hand's outcome)`` for a decision flagged by its
    loss in the hand alone: its win interval, shown beside it, may reach zero."""
    if not row["flagged"]:
        return ""
    return " (flagged)" if _beyond(row["loss_win"], row["loss_win_se"]) else " (flagged on the hand's outcome)"


def _beyond(loss: float, se: float) -> bool:
    """A loss beyond 1.96 of its standard errors: a mistake (any loss measured without error)."""
    return bool(loss > max(Z95 * se, 1e-9))


def _option_of(table: pd.DataFrame, option: str | None) -> pd.Series | None:
    """The evaluate row of ``option`` (evaluate's ``facts["played"]``: the table's option that
    holds the move the record played), or None."""
    rows = table[table["option"].astype(str) == option]
    return None if option is None or rows.empty else rows.iloc[0]


def _row(d: Decision, result) -> dict[str, Any]:
    """The review's row for a decision from its evaluate result (or None: forced)."""
    base = {"decision": d.number, "hand": d.hand, "seat": d.seat, "played": d.move, "options": len(d.legal)}
    if result is None:
        return {**base, "best": d.move, "loss_win": 0.0, "loss_win_se": 0.0, "loss_outcome": 0.0,
                "loss_outcome_se": 0.0, "p_best_played": 1.0, "win": math.nan, "flagged": False, "unclear": False,
                "samples": 0, "note": "forced"}
    table = result.table
    best, played = table.iloc[0], _option_of(table, result.facts.get("played"))
    if played is None:
        raise AnalyzerError(f"decision {d.number}: the move played, {d.move}, is not among the options evaluated")
    sign = -1.0 if result.facts.get("lower_is_better") else 1.0
    same = str(played["option"]) == str(best["option"])
    loss_win = 0.0 if same else -float(played["diff_to_best"])
    loss_se = 0.0 if same else float(played["diff_se"])
    outcome = 0.0 if same else -sign * float(played["outcome_diff"])
    outcome_se = 0.0 if same else float(played["outcome_diff_se"])
    loss_win, outcome = loss_win + 0.0, outcome + 0.0  # no -0.0
    # exact worlds with deterministic rollouts measure a loss without error: any loss counts;
    # a loss in the hand alone counts too (late in a decided game the win cannot move)
    flagged = _beyond(loss_win, loss_se) or _beyond(outcome, outcome_se)
    # the same win and hand outcome as the best on every sample: a tie, not a doubt
    tied = bool(not same and result.samples > 0 and loss_win == 0 and loss_se == 0 and outcome == 0
                and outcome_se == 0)
    unclear = bool(not same and not flagged and not tied and not played["dropped"])
    note = "equivalent to the best" if same and "/" in str(best["option"]) else ("best" if same else "")
    if tied:
        note = "tied with the best: the same result on every sample"
    elif flagged and not _beyond(loss_win, loss_se):  # no loss in win probability shows it: say why
        note = "flagged on the hand's outcome"
    if result.samples == 0:
        note = "equivalent options"
    return {**base, "best": str(best["option"]), "loss_win": loss_win, "loss_win_se": loss_se,
            "loss_outcome": outcome, "loss_outcome_se": outcome_se, "p_best_played": float(played["p_best"]),
            "win": float(played["win"]), "flagged": flagged, "unclear": unclear, "samples": int(result.samples),
            "note": note}


def _seat_totals(frame: pd.DataFrame, seats: list[int]) -> pd.DataFrame:
    rows = []
    for seat in seats:
        mine = frame[frame["seat"] == seat]
        total = float(mine["loss_win"].sum())
        se = math.sqrt(float((mine["loss_win_se"] ** 2).sum()))
        choices = int((mine["options"] > 1).sum())
        rows.append({"seat": seat, "decisions": len(mine), "choices": choices, "loss_win": total,
                     "loss_win_lo": total - Z95 * se, "loss_win_hi": total + Z95 * se,
                     "loss_per_choice": total / choices if choices else 0.0,
                     "loss_outcome": float(mine["loss_outcome"].sum()),
                     "flagged": int(mine["flagged"].sum()), "unclear": int(mine["unclear"].sum())})
    return pd.DataFrame(rows)


#: games below which a batch review gives no interval for the mean loss per game: the spread
#: between so few games says little (the total over the games reviewed keeps its interval)
MIN_GAMES = 30


def batch_tables(parts: list[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables of a batch ``review`` run from its chunks' decision rows (each with
    ``record`` and ``game_index`` in front): every decision; each seat's totals per game
    (as ``review`` gives them); and each seat over all the games:
    - ``loss_total`` over the games reviewed, with the interval of its measurement (the
      evaluations' standard errors, root-sum-square, as a single review's total);
    - ``loss_per_game``, the mean over games, with a 95% interval from the spread between
      games (independent deals): what the seat's play costs in a game like these; given from
      ``MIN_GAMES`` games on, nan below."""
    from analyzer.stats import sample_mean_interval

    decisions_ = pd.concat(parts, ignore_index=True)
    per_game = []
    for (record, index), rows in decisions_.groupby(["record", "game_index"], sort=False):
        totals = _seat_totals(rows, sorted(int(s) for s in rows["seat"].unique()))
        totals.insert(0, "game_index", index)
        totals.insert(0, "record", record)
        per_game.append(totals)
    games = pd.concat(per_game, ignore_index=True)
    seats = []
    for seat, rows in games.groupby("seat"):
        total = float(rows["loss_win"].sum())
        se = math.sqrt(float((((rows["loss_win_hi"] - rows["loss_win"]) / Z95) ** 2).sum()))
        mean, lo, hi = sample_mean_interval(rows["loss_win"].to_numpy())
        if len(rows) < MIN_GAMES:
            lo = hi = math.nan
        choices = int(rows["choices"].sum())
        seats.append({"seat": int(seat), "games": len(rows), "decisions": int(rows["decisions"].sum()),
                      "choices": choices, "loss_total": total, "loss_total_lo": total - Z95 * se,
                      "loss_total_hi": total + Z95 * se, "loss_per_game": mean, "loss_per_game_lo": lo,
                      "loss_per_game_hi": hi, "loss_per_choice": total / choices if choices else 0.0,
                      "loss_outcome_per_game": float(rows["loss_outcome"].mean()),
                      "flagged": int(rows["flagged"].sum()), "unclear": int(rows["unclear"].sum())})
    return {"decisions": decisions_, "games": games, "seats": pd.DataFrame(seats)}


#: a decision whose record the inference cannot explain (Pitch: no sampled deal fits the bids
#: under the rollout strategies' bidding), evaluated without it
MISFIT_NOTE = "without inference: no sampled deal fits the bids"


def _evaluate_decision(api, game: str, record: str, game_index: int, d, budget: float | None,
                       options: dict[str, Any]) -> tuple[Any, bool]:
    """``evaluate --at N`` of decision ``d``, and whether it had to go without inference: a
    game played by seats that choose unlike the rollout strategies (Pitch's bids of mc or
    random players) can have decisions no inferred deal fits; they are evaluated without
    inference (a review stopped at the first of them). Errors name the decision."""
    try:
        try:
            return api.evaluate(game, record=record, game_index=game_index, at=d.number, seconds=budget,
                                **options), False
        except InferenceMisfit:
            return api.evaluate(game, record=record, game_index=game_index, at=d.number, seconds=budget,
                                **{**options, "infer": False}), True
    except StrategyTimeout as exc:  # the decision whose rollouts hung: evaluate --at N replays it
        raise StrategyTimeout(f"decision {d.number}: {exc}") from None
    except AnalyzerError as exc:  # which decision
        raise AnalyzerError(f"decision {d.number}: {exc}") from None


def review(game: str, record: str, game_index: int = 0, seats: list[int] | None = None, *,
           rollout: Any = "heuristic", samples: int = 2000, seconds: float | None = None,
           total_seconds: float | None = None, seed: int = 0, workers: int | None = None,
           confidence: float = 0.95, exact_limit: int | None = None, infer: bool = True,
           progress: bool = False, on_decision: Callable[[int, int], None] | None = None,
           timeout: float | None = None) -> ReviewResult:
    """Review the decisions of ``seats`` (default: all) in game ``game_index`` of ``record``.

    ``samples`` and ``seconds`` are each decision's budget, as in evaluate; ``total_seconds``
    caps the whole review: each remaining decision gets an equal share of what is left, and
    once it is spent the decisions left are not reviewed (``unreviewed``; a decision
    evaluated plays at least its first round of samples, whatever its share, so the review
    ends within about one decision's round of the cap). ``on_decision(done, total)`` is
    called after each decision (progress). ``timeout``: evaluate's, for each decision (a
    rollout strategy stuck in a loop stops the review with StrategyError)."""
    from analyzer import api
    from analyzer import games as registry
    from analyzer.evaluate import _read_record

    spec = registry.get(game)
    events = _read_record(record, game_index, spec.name)
    if total_seconds is not None and not total_seconds > 0:
        raise AnalyzerError(f"--total-time must be a positive number of seconds, not {total_seconds}")
    players = int(events[0].get("players", 0))
    chosen = sorted(set(range(players) if seats is None else seats))
    for seat in chosen:
        if not 0 <= seat < players:
            raise AnalyzerError(f"seat {seat} does not exist in this {players}-player game")
    todo = [d for d in decisions(events) if d.seat in chosen]
    if not todo:
        raise AnalyzerError("no decisions of those seats in this game")
    options: dict[str, Any] = {"rollout": rollout, "samples": samples, "seed": seed, "workers": workers,
                               "confidence": confidence, "infer": infer}
    if exact_limit is not None:
        options["exact_limit"] = exact_limit
    if timeout is not None:
        options["timeout"] = timeout
    started, rows, interrupted, unreviewed = time.perf_counter(), [], False, 0
    try:
        for k, d in enumerate(todo):
            budget = seconds
            if total_seconds is not None:
                left = total_seconds - (time.perf_counter() - started)
                if left <= 0 and rows:  # the first decision is reviewed whatever the time
                    unreviewed = len(todo) - k
                    break
                share = max(left / (len(todo) - k), 0.01)
                budget = share if budget is None else min(budget, share)
            result, misfit = None, False
            if len(d.legal) > 1:
                result, misfit = _evaluate_decision(api, game, record, game_index, d, budget, options)
            row = _row(d, result)
            if misfit:  # the players' choices do not fit the rollouts' (mc or random bidders): said
                row["note"] = "; ".join(filter(None, [row["note"], MISFIT_NOTE]))
            rows.append(row)
            if on_decision is not None:
                on_decision(k + 1, len(todo))
    except KeyboardInterrupt:
        if not rows:
            raise
        interrupted = True
    frame = pd.DataFrame(rows)
    replay = [f"{spec.title}: game {events[0].get('index')} of seed {events[0].get('seed')}"]
    replay += [spec.describe(ev) or "" for ev in events[1:]]
    return ReviewResult(spec.name, record, game_index, chosen, rollout, samples, time.perf_counter() - started,
                        {"decisions": frame, "seats": _seat_totals(frame, chosen)}, replay, interrupted,
                        unreviewed, any(e.get("ev") == "game_end" for e in events), events)


def to_html(result: ReviewResult) -> str:
    """A self-contained page: the verdict, then each reviewed decision beside the replay
    text that led to it."""
    import html

    t = result.tables["decisions"]
    by_number = {d.number: d for d in decisions(result.events)}
    rows, last = [], 1
    for _, row in t.iterrows():
        d = by_number[int(row["decision"])]
        text = "\n".join(line for line in result.replay[last:d.event + 1] if line)
        last = d.event + 1
        cost = "" if row["loss_win"] <= 0 else f"{100 * row['loss_win']:.1f} ±{100 * Z95 * row['loss_win_se']:.1f}"
        style = ' class="flag"' if row["flagged"] else ""
        rows.append(f"<tr{style}><td><pre>{html.escape(text)}</pre></td><td>{int(row['decision'])}</td>"
                    f"<td>{int(row['seat'])}</td><td>{html.escape(str(row['played']))}</td>"
                    f"<td>{html.escape(str(row['best']))}</td><td>{cost}</td>"
                    f"<td>{row['p_best_played']:.2f}</td><td>{html.escape(str(row['note']))}</td></tr>")
    verdict = "<br>".join(html.escape(line) for line in result.verdict().splitlines())
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Review: {html.escape(result.game)}</title>
<style>body{{font-family:sans-serif;margin:2em}} table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;vertical-align:top}} pre{{margin:0;font-size:12px}}
tr.flag td{{background:#fde8e0}}</style></head><body>
<h1>Review of game {result.game_index} of {html.escape(result.record)} ({html.escape(result.game)})</h1>
<p>Rollout: {html.escape(str(result.rollout))}; up to {result.samples:,} samples per decision.</p>
<p>{verdict}</p>
<table><tr><th>replay</th><th>decision</th><th>seat</th><th>played</th><th>best</th><th>loss (points of win probability, ±95%)</th>
<th>P(best) of the move played</th><th>note</th></tr>
{''.join(rows)}
</table></body></html>
"""
