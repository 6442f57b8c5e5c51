"""Two-player Hearts' report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is
its rules prose). Plain Python: it compiles nothing and no compiled module imports it.

Rule facts from the game's own tables: ``rules.QS`` and ``rules.SUIT_OF`` / ``rules.HEARTS``
(which card is the queen of spades, which is a heart). Record-based tables are clustered by
game (the two seats of a hand, and the hands of a game, are not independent).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card, token
from analyzer.games.hearts2.rules import HEARTS, QS, SUIT_OF

RULES_BRIEF = (
    "Hearts for two players with a 28-card deck (2 4 6 8 T Q A of each suit); hearts are trump. "
    "13 cards each, two cards dead. The holder of 2C (else 4C, else 6C) leads; follow suit if able. "
    "Each heart taken scores 1 point and QS 13; taking every point card in play (*shooting the moon*) "
    "scores 0 and gives the opponent 20. After a hand in which someone reaches 100, the lower score wins.")

QS_NAME = token(QS)
QS_PLACES = {"held": "held", "dead": "dead", "opponent": "opponent holds"}


def is_heart(card: str) -> bool:
    return SUIT_OF[parse_card(card)] == HEARTS


def reduce_games(games: list[list[dict[str, Any]]], first: int, cells: dict[str, rp.Cells],
                 lead_diff: list[float]) -> None:
    """Per (hand, seat): hearts dealt, where QS was, first leader, points, moon, QS taken."""
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
    if len(frame):
        cells["margin"].add(frame[frame["first_lead"]])


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    cells = {
        "qs": rp.Cells("qs", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"), "moon": ("moon", "prop")}),
        "lead": rp.Cells("first_lead", {"points": ("points", "mean"), "moon": ("moon", "prop")}),
        "hearts": rp.Cells("hearts_held", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"),
                                           "moon": ("moon", "prop")}),
    }
    cells["margin"] = rp.Cells("first_lead", {"lead_margin": ("lead_margin", "mean")})
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, []))
    r.p(f"Per-hand facts from the records of {s.records:,} games of `heuristic` players, clustered by game; moon "
        "rates from simulations of each pairing.")

    r.h(3, "Moon rate")
    rows = []
    for seats in (["heuristic", "heuristic"], ["random", "random"], ["heuristic", "random"]):
        sm = r.simulate("study", s.simulate, seats=seats)
        table = sm.tables["seats"]
        if "moon_rate" not in table.columns:
            continue
        table = rp.shares_from_ratios(table, "moon_rate", sm.hands)
        for _, row in table.iterrows():
            rows.append({"pairing": " vs ".join(seats), "seat": int(row["seat"]), "strategy": row["strategy"],
                         "games": int(row["games"]), "hands": sm.hands, "n": sm.hands, "moon_rate": row["moon_rate"],
                         "moon_rate_lo": row["moon_rate_lo"], "moon_rate_hi": row["moon_rate_hi"]})
    if rows:
        moon = pd.DataFrame(rows)
        r.table("moon_rate", moon, "Share of hands in which each player shoots the moon",
                method="simulation; Wilson interval at the effective sample size of the per-game counts")
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
                                      "({n} hands).", row.to_dict(), "moon_rate"))

    r.h(3, "Value of holding QS")
    qs = cells["qs"].table()
    r.table("qs_value", qs, "Points per hand (fewer is better), chance of taking QS and of shooting the moon, by "
            "who was dealt QS", method="dealt hands are random (a natural experiment, not paired); heuristic "
                                       "play; clustered by game")
    path = plots.bars(rp.enough(qs), "qs", "points", f"{spec.title}: points per hand by who was dealt QS\n"
                      "(heuristic)", "QS at the deal", "points per hand (mean)", r.fig_path("qs_value"),
                      colours=plots.PALETTE[:len(rp.enough(qs))], legend=list(rp.enough(qs)["qs"]))
    r.figure(path, "Points per hand by who holds QS, 95% intervals (n = seat-hands)")
    held = rp.enough(qs[qs["qs"] == "held"])
    for _, row in held.iterrows():
        r.finding(rp.finding_text("Dealt QS yourself, you take it back in {value} of hands (heuristic play, {n} "
                                  "hands).", row.to_dict(), "took_qs"))

    r.h(3, "First-lead advantage")
    lead = cells["lead"].table()
    lead.insert(0, "role", lead["first_lead"].map({True: "leads the first trick", False: "follows"}))
    r.table("first_lead", lead.drop(columns="first_lead"), "Points per hand for the player who leads the first "
            "trick (holder of the lowest club) and the other", method="observed per hand; clustered by game")
    margin = cells["margin"].table()
    if len(margin):
        row = margin.iloc[0].to_dict()
        r.table("first_lead_margin", margin.drop(columns="first_lead"), "Per hand, the first leader's points "
                "minus the follower's (negative: leading first is an advantage)",
                method="paired within the hand; clustered by game")
        r.finding(rp.finding_text("Per hand, the first leader scores {value} points relative to the follower "
                                  "(negative: an advantage; {n} hands).", row, "lead_margin", fmt="{:+.2f}"))
    path = plots.bars(lead, "role", "points", f"{spec.title}: points per hand by first lead\n(heuristic)",
                      "role in the first trick", "points per hand (mean)", r.fig_path("first_lead"),
                      colours=plots.PALETTE[:2], legend=list(lead["role"]))
    r.figure(path, "Points per hand for the first leader and the follower, 95% intervals (n = hands)")

    r.h(3, "Points by number of hearts held")
    by_hearts = cells["hearts"].table()
    r.table("points_by_hearts", by_hearts, "Points per hand by the number of hearts dealt (of 7)",
            method="dealt hands (random); clustered by game")
    path = plots.lines(by_hearts, "hearts_held", "points", f"{spec.title}: points per hand by hearts dealt\n"
                       "(heuristic)", "hearts dealt (cards)", "points per hand (mean)", r.fig_path("points_by_hearts"),
                       count="n", min_count=rp.MIN_N)
    r.figure(path, "Points per hand by hearts held, 95% band")
