"""Two-player Hearts' report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is
its rules prose). Plain Python: it compiles nothing and no compiled module imports it.

The value of QS is **paired** (counterfactual): random deals, each played twice by the
heuristic from its first hand (the game's ``paired_swap_chunk``), once as dealt and once with
QS exchanged for a neutral card, the rest of the deal and the play stream the same; the
interval of a difference is the paired one (the deal is the cluster). Rule facts from the
game's own tables: ``rules.QS``, ``rules.NON_HEART_MASK`` and ``rules.SUIT_OF`` /
``rules.HEARTS`` (which card is the queen of spades, which are not hearts). Record-based
tables are clustered by game (the two seats of a hand, and the hands of a game, are not
independent).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card, token
from analyzer.games.hearts2.rules import HEARTS, NON_HEART_MASK, QS, QS_BIT, SUIT_OF

RULES_BRIEF = (
    "Hearts for two players with a 28-card deck (2 4 6 8 T Q A of each suit); hearts are trump. "
    "13 cards each, two cards dead. The holder of 2C (else 4C, else 6C) leads; follow suit if able. "
    "Each heart taken scores 1 point and QS 13; taking every point card in play (*shooting the moon*) "
    "scores 0 and gives the opponent 20. After a hand in which someone reaches 100, the lower score wins.")

QS_NAME = token(QS)
QS_PLACES = {"held": "held", "dead": "dead", "opponent": "opponent holds"}


#: the cards QS may be exchanged with: every card that is neither a heart nor QS
NEUTRAL = int(NON_HEART_MASK & ~QS_BIT)
#: the paired measures: name -> (kernel result column, kind)
PAIRED = {"points this hand": ("points", "mean"), "opponent's points": ("opponent", "mean"),
          "took QS": ("took_qs", "prop"), "shot the moon": ("moon", "prop")}
PLACES = {0: "opponent's hand", 1: "dead"}


def qs_swaps(rules: dict[str, Any], seed: int, start: int, n: int) -> pd.DataFrame:
    """One row per deal of deals ``start .. start + n - 1`` in which a seat holds QS (the
    others, QS dead, are left out): the seat, the card QS was exchanged with and where it
    was, and per measure of ``PAIRED`` its value as dealt (``_with``) and with QS exchanged
    (``_without``). Both arms heuristic for both seats, hand 1 at 0-0."""
    from analyzer import games as registry
    from analyzer.games.hearts2.kernel import PS_COLUMNS, PS_MOON, PS_OPPONENT, PS_POINTS, PS_TOOK_QS
    from analyzer.jit import numba
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get("hearts2")
    strat, _ = strategy_array(spec, resolve_seats(spec, 2, None))
    info = np.zeros((n, 4), dtype=np.int64)
    result = np.zeros((n, 2, PS_COLUMNS), dtype=np.int64)
    spec.user_kernel([]).paired_swap_chunk(np.uint64(seed), np.int64(start), spec.params(rules), strat, np.int64(QS),
                                           np.int64(NEUTRAL), info, result, np.int64(4 * numba.get_num_threads()))
    held = info[:, 0] >= 0
    frame = pd.DataFrame({"deal": start + np.flatnonzero(held), "seat": info[held, 0],
                          "partner": pd.Categorical([token(int(c)) for c in info[held, 1]]),
                          "partner_place": pd.Categorical.from_codes(info[held, 2], [PLACES[0], PLACES[1]])})
    columns = {"points": PS_POINTS, "opponent": PS_OPPONENT, "took_qs": PS_TOOK_QS, "moon": PS_MOON}
    for name, col in columns.items():
        frame[f"{name}_with"] = result[held, 0, col]
        frame[f"{name}_without"] = result[held, 1, col]
    return frame


def paired_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per partner place (anywhere, the opponent's hand, dead) and measure: n (deals), the
    mean with QS and without, and the paired difference, 95% intervals."""
    rows = []
    for place, part in [("anywhere", frame), *[(p, frame[frame["partner_place"] == p]) for p in PLACES.values()]]:
        for measure, (column, kind) in PAIRED.items():
            rows.append({"partner": place, "measure": measure,
                         **rp.paired_row(part[f"{column}_with"], part[f"{column}_without"], kind)})
    return pd.DataFrame(rows)


def points_precision(frame: pd.DataFrame) -> float:
    """The 95% half-width of the headline: the paired difference in the seat's points."""
    return rp.half_width(rp.paired_row(frame["points_with"], frame["points_without"], "mean"))


def _verdict(row: dict[str, Any], column: str, below: str, above: str) -> str:
    """What a difference of points says (fewer is better): ``below`` where its interval lies
    under 0, ``above`` where over 0, else no clear effect."""
    if row[column + "_hi"] < 0:
        return below
    if row[column + "_lo"] > 0:
        return above
    return "no clear effect either way"


def qs_finding(row: dict[str, Any]) -> str | None:
    """The headline sentence from the paired points row (its sign says which way it goes)."""
    verdict = _verdict(row, "difference", "holding it helps you", "holding it costs you")
    return rp.finding_text("Holding QS changes your points this hand by {value} against the same deal with QS "
                           f"exchanged for a random non-heart you do not hold (fewer is better: {verdict}; heuristic "
                           "play, {n} deals).", row, "difference", fmt="{:+.2f}")


def _qs_section(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    frame, played = r.run("study", "kernel.paired_swap_chunk (QS, sequential looks)", lambda: rp.sequential(
        s.deals, s.paired_max, s.paired_target, lambda start, n: qs_swaps(rules, r.seed, start, n),
        points_precision), strategies="heuristic (both seats, both arms)", deals=f"up to {s.paired_max:,}")
    table = paired_table(frame)
    method = (f"paired: {played:,} random deals ({len(frame):,} with QS in a hand; QS dead, the rest), each "
              "played from the deal twice by the heuristic for both seats (hand 1, scores 0-0; the heuristic does "
              "not read the scores): as dealt, and with QS exchanged for a card drawn at random among the non-hearts "
              "the holder does not hold, wherever that card was (the opponent's hand or the dead cards), the rest "
              "of the deal and the play stream the same; difference = with - without, its 95% interval paired "
              f"(clustered by deal); deals added in doubling looks until the points' half-width is at most "
              f"{s.paired_target}")
    r.table("qs_value_paired", table, "Value of holding QS, paired: the seat dealt QS against the same deal with "
            "QS exchanged for a neutral card", method=method,
            show=["partner", "measure", "n", "with", "without", "difference"])
    points = table[table["measure"] == "points this hand"].reset_index(drop=True)
    path = plots.bars(rp.enough(points), "partner", "difference", f"{spec.title}: points this hand with QS minus "
                      f"without (paired, {played:,} deals)\n(heuristic; by where the exchanged card was)",
                      "where the card exchanged for QS was", "points per hand (with QS - without)",
                      r.fig_path("qs_value"), reference=0.0, reference_label="no effect",
                      colours=plots.PALETTE[:len(rp.enough(points))], legend=list(rp.enough(points)["partner"]))
    r.figure(path, "Value of holding QS, paired, 95% intervals (n = deals; negative: fewer points with QS)")
    headline = points.iloc[0].to_dict()
    r.p(f"Headline paired difference: {headline['difference']:+.3f} points a hand, 95% half-width "
        f"{rp.half_width(headline):.3f} ({int(headline['n']):,} deals).")
    r.finding(qs_finding(headline))
    took = table[(table["partner"] == "anywhere") & (table["measure"] == "took QS")].iloc[0].to_dict()
    r.finding(rp.finding_text("Dealt QS yourself, you take it back in {value} of hands (heuristic play, {n} "
                              "deals).", took, "with"))


def lead_finding(row: dict[str, Any]) -> str | None:
    """The first-lead sentence from the first leader's margin row, its verdict only where the
    interval leaves out no difference (fewer points is better)."""
    verdict = _verdict(row, "lead_margin", "leading first helps", "leading first costs points")
    return rp.finding_text("Per hand, the first leader scores {value} points relative to the follower (fewer is "
                           f"better: {verdict}; {{n}} hands of {{clusters}}).", row, "lead_margin", fmt="{:+.2f}")


def is_heart(card: str) -> bool:
    return SUIT_OF[parse_card(card)] == HEARTS


def reduce_games(games: list[list[dict[str, Any]]], first: int, cells: dict[str, rp.Cells],
                 margin: rp.Cells | None = None) -> None:
    """Per (hand, seat): hearts dealt, where QS was, first leader, points, moon, QS taken, into
    each of ``cells``; the first leader's rows alone (one per hand: its points minus the
    follower's) into ``margin``."""
    rows = []
    for g, game in enumerate(games, start=first):
        hands: list[list[str]] = []
        dead: list[str] = []
        leader, qs_taker = -1, -1
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                hands, dead, leader, qs_taker = e["hands"], e["dead"], -1, -1
            elif ev == "decide" and leader < 0:
                leader = int(e["seat"])
            elif ev == "trick" and QS_NAME in e["cards"]:
                qs_taker = int(e["winner"])
            elif ev == "hand_end":
                moon = e.get("moon")
                for seat in range(2):
                    place = "held" if QS_NAME in hands[seat] else ("dead" if QS_NAME in dead else "opponent")
                    rows.append({"game": g, "seat": seat, "hearts_held": sum(is_heart(c) for c in hands[seat]),
                                 "qs": QS_PLACES[place], "first_lead": seat == leader,
                                 "points": float(e["points"][seat]),
                                 "lead_margin": float(e["points"][seat]) - float(e["points"][1 - seat]),
                                 "moon": moon is not None and int(moon) == seat, "took_qs": qs_taker == seat})
    frame = pd.DataFrame(rows)
    for cell in cells.values():
        cell.add(frame)
    if len(frame) and margin is not None:
        margin.add(frame[frame["first_lead"]])


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    cells = {
        "qs": rp.Cells("qs", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"), "moon": ("moon", "prop")}),
        "lead": rp.Cells("first_lead", {"points": ("points", "mean"), "moon": ("moon", "prop")}),
        "hearts": rp.Cells("hearts_held", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"),
                                           "moon": ("moon", "prop")}),
    }
    # the first leader's margin, one row per hand (it was one of ``cells``, so it also got every
    # row: the followers' margins, the sign turned, came first and made the finding)
    margins = rp.Cells("first_lead", {"lead_margin": ("lead_margin", "mean")})
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, margins))
    r.p(f"Per-hand facts from the records of {s.records:,} games of `heuristic` players, clustered by game; moon "
        "rates from simulations of each pairing.")

    r.h(3, "Moon rate")
    rows = []
    for seats in (["heuristic", "heuristic"], ["random", "random"], ["heuristic", "random"]):
        sm = r.simulate("study", s.simulate, seats=seats)
        table = sm.tables["seats"]
        if "moon_rate" not in table.columns:
            continue
        for _, row in table.iterrows():
            rows.append({"pairing": " vs ".join(seats), "seat": int(row["seat"]), "strategy": row["strategy"],
                         "games": int(row["games"]), "hands": sm.hands, "n": sm.hands, "moon_rate": row["moon_rate"],
                         "moon_rate_lo": row["moon_rate_lo"], "moon_rate_hi": row["moon_rate_hi"]})
    if rows:
        moon = pd.DataFrame(rows)
        r.table("moon_rate", moon, "Share of hands in which each player shoots the moon",
                method="simulation; Wilson interval at the effective sample size of the per-game counts",
                clusters="games")
        moon["label"] = moon["pairing"] + ": seat " + moon["seat"].astype(str) + " " + moon["strategy"]
        path = plots.bars(moon, "label", "moon_rate", f"{spec.title}: moon rate by pairing\n"
                          f"({s.simulate:,} games each, seed {r.seed})", "pairing and player",
                          "moon rate (share of hands)", r.fig_path("moon_rate"),
                          colours=[plots.strategy_colour(x) for x in moon["strategy"]], horizontal=True,
                          legend=list(moon["strategy"]))
        r.figure(path, "Moon rate per player and pairing, 95% intervals (n = hands)")
        best = moon[moon["pairing"] == "heuristic vs random"]
        for _, row in best[best["strategy"] == "heuristic"].head(1).iterrows():
            r.finding(rp.finding_text("Against `random`, `heuristic` shoots the moon in {value} of hands "
                                      "({n} hands of {clusters}).", row.to_dict(), "moon_rate", clusters="games"))

    r.h(3, "Value of holding QS")
    _qs_section(r, spec, rules)
    r.p("Observational, for comparison: the recorded games grouped by who was dealt QS (different deals in each "
        "group, every hand of a game).")
    qs = cells["qs"].table()
    r.table("qs_value", qs, "Observational: points per hand (fewer is better), chance of taking QS and of shooting "
            "the moon, by who was dealt QS", method="observed in recorded heuristic games, grouped by where QS was "
                                                    "dealt (not paired); clustered by game")

    r.h(3, "First-lead advantage")
    lead = cells["lead"].table()
    lead.insert(0, "role", lead["first_lead"].map({True: "leads the first trick", False: "follows"}))
    r.table("first_lead", lead.drop(columns="first_lead"), "Points per hand for the player who leads the first "
            "trick (holder of the lowest club) and the other", method="observed per hand; clustered by game")
    margin = margins.table()
    if len(margin):
        row = margin.iloc[0].to_dict()
        r.table("first_lead_margin", margin.drop(columns="first_lead"), "Per hand, the first leader's points "
                "minus the follower's (negative: leading first is an advantage)",
                method="paired within the hand; clustered by game")
        r.finding(lead_finding(row))
    path = plots.bars(lead, "role", "points", f"{spec.title}: points per hand by first lead\n(heuristic)",
                      "role in the first trick", "points per hand (mean)", r.fig_path("first_lead"),
                      colours=plots.PALETTE[:2], legend=list(lead["role"]))
    r.figure(path, "Points per hand for the first leader and the follower, 95% intervals (n = hands)")

    r.h(3, "Points by number of hearts held")
    by_hearts = cells["hearts"].table()
    r.table("points_by_hearts", by_hearts, "Points per hand by the number of hearts dealt (of 7)",
            method="dealt hands (random); clustered by game")
    path = plots.lines(rp.enough(by_hearts), "hearts_held", "points", f"{spec.title}: points per hand by hearts dealt\n"
                       "(heuristic)", "hearts dealt (cards)", "points per hand (mean)", r.fig_path("points_by_hearts"),
                       count="n", min_count=rp.MIN_N)
    r.figure(path, f"Points per hand by hearts held, 95% band (counts of hearts seen in {rp.MIN_N}+ hands of "
             f"{rp.MIN_N}+ games)")
