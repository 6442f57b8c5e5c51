"""Two-Ten-Jack's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

Rule facts from the game's own tables: ``rules.CARD_POINTS`` (the points of every card
taken) and ``rules.ACE_SPADES``. Record-based tables are clustered by game.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card, token
from analyzer.games.two_ten_jack.rules import ACE_SPADES, CARD_POINTS

RULES_BRIEF = (
    "A two-player trick game with 52 cards. Hearts are trump and the ace of spades (AS) is both a spade "
    "and the highest trump. Six cards each; after each trick the winner, then the loser, draws from the "
    "stock. Follow suit if able, else trump if able. At the end of the round the cards taken score: "
    "2H TH JH +5 each, 2C TC JC -5 each, 2S TS JS AS +1 each, 6D +1. The first to 31 wins.")

AS_NAME = token(ACE_SPADES)
#: the scoring cards and their points, from the game's table
SCORING = {token(c): int(CARD_POINTS[c]) for c in range(52) if CARD_POINTS[c] != 0}


def reduce_games(games: list[list[dict[str, Any]]], first: int, cells: dict[str, rp.Cells]) -> None:
    """Per (round, seat): where AS was dealt, AS taken, face score of the scoring cards dealt,
    points; per (round, seat, scoring card): held or not."""
    rows, card_rows = [], []
    for g, game in enumerate(games, start=first):
        hands: list[list[str]] = []
        as_taker = -1
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                hands, as_taker = e["hands"], -1
            elif ev == "trick" and AS_NAME in [str(c).split(":")[0] for c in e["cards"]]:
                as_taker = int(e["winner"])
            elif ev == "hand_end":
                for seat in range(2):
                    mine, theirs = set(hands[seat]), set(hands[1 - seat])
                    points = float(e["points"][seat])
                    rows.append({"game": g, "as_dealt": "you" if AS_NAME in mine else
                                 ("opponent" if AS_NAME in theirs else "stock"), "took_as": as_taker == seat,
                                 "value_dealt": sum(int(CARD_POINTS[parse_card(c)]) for c in mine),
                                 "points": points})
                    card_rows += [{"game": g, "card": c, "held": c in mine, "points": points} for c in SCORING]
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["value_bin"] = frame["value_dealt"].clip(-10, 10)
    for name in ("dealt", "taken", "value"):
        cells[name].add(frame)
    cells["cards"].add(pd.DataFrame(card_rows))


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    cells = {"dealt": rp.Cells("as_dealt", {"points": ("points", "mean"), "took_as": ("took_as", "prop")}),
             "taken": rp.Cells("took_as", {"points": ("points", "mean")}),
             "value": rp.Cells("value_bin", {"points": ("points", "mean")}),
             "cards": rp.Cells(["card", "held"], {"points": ("points", "mean")})}
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells))
    r.p(f"Per-round facts from the records of {s.records:,} games of `heuristic` players, clustered by game; the "
        "dealer advantage also from a simulation.")

    r.h(3, "Value of the ace of spades")
    dealt = cells["dealt"].table()
    r.table("as_value_dealt", dealt, "Points per round by where AS was at the deal, and the chance to take it",
            method="dealt hands are random (a natural experiment, not paired); heuristic play; clustered by game")
    took = cells["taken"].table()
    took["took_as"] = took["took_as"].map({True: "took AS", False: "did not take AS"})
    r.table("as_value_taken", took, "Points per round by whether the player took AS in a trick (AS itself is +1)",
            method="observed in heuristic games (selection-biased: taking AS goes with the rest of the play); "
                   "clustered by game")
    shown = rp.enough(dealt)
    path = plots.bars(shown, "as_dealt", "points", f"{spec.title}: points per round by who was dealt AS\n(heuristic)",
                      "AS at the deal", "points per round (mean)", r.fig_path("as_value"),
                      colours=plots.PALETTE[:len(shown)], legend=[f"AS: {v}" for v in shown["as_dealt"]])
    r.figure(path, "Value of the ace of spades, 95% intervals (n = seat-rounds)")
    for _, row in rp.enough(dealt[dealt["as_dealt"] == "you"]).iterrows():
        r.finding(rp.finding_text("Dealt AS, you score {value} points per round (heuristic play, {n} rounds).",
                                  row.to_dict(), "points", fmt="{:+.2f}"))

    r.h(3, "Points by scoring cards held")
    cards = cells["cards"].difference("held", "points", within=["card"])
    cards.insert(1, "card_value", cards["card"].map(SCORING))
    r.table("scoring_card_value", cards, "Points per round with and without each scoring card dealt; "
            "`difference` = with - without", show=["card", "card_value", "n_with", "n_without", "difference"],
            method="dealt hands are random, so with against without compares random deals (not paired); "
                   "clustered by game")
    shown = rp.enough(cards)
    colour = {5: plots.PALETTE[0], -5: plots.PALETTE[3], 1: plots.PALETTE[2]}
    path = plots.bars(shown, "card", "difference", f"{spec.title}: points per round gained by being dealt each "
                      "scoring card\n(heuristic; n = the smaller of with / without)", "scoring card dealt",
                      "points per round (with - without)", r.fig_path("scoring_card_value"), reference=0.0,
                      reference_label="no effect", colours=[colour.get(v, plots.PALETTE[4]) for v in shown["card_value"]],
                      legend=[f"card scores {v:+d}" for v in shown["card_value"]])
    r.figure(path, "Value of each scoring card dealt, 95% intervals")
    if len(shown):
        row = shown.loc[shown["difference"].idxmax()].to_dict()
        r.finding(rp.finding_text(f"Being dealt {row['card']} (face value {row['card_value']:+d}) is worth {{value}} "
                                  "points per round ({n} rounds).", row, "difference", fmt="{:+.2f}"))
    by_value = cells["value"].table()
    r.table("points_by_value_dealt", by_value, "Points per round by the total face score of the scoring cards dealt "
            "(clipped to -10..10)", method="dealt hands (random); clustered by game")
    path = plots.lines(by_value, "value_bin", "points", f"{spec.title}: points per round by scoring cards dealt\n"
                       "(heuristic)", "face score of the scoring cards dealt (points)", "points per round (mean)",
                       r.fig_path("points_by_value_dealt"), count="n", min_count=rp.MIN_N)
    r.figure(path, "Points per round by the scoring cards in the dealt hand, 95% band")

    r.h(3, "Dealer advantage")
    sm = r.simulate("study", s.simulate)
    positions = sm.tables.get("positions")
    if positions is not None:
        positions = positions.copy()
        overall = positions[positions["seat"].astype(str) == "all"] if "seat" in positions else positions
        r.table("dealer_advantage", positions, f"Points per round as dealer and non-dealer ({sm.games:,} games, "
                "heuristic)", method="simulation")
        path = plots.bars(overall, "position", "points_per_round", f"{spec.title}: points per round by position\n"
                          f"({sm.games:,} games, {sm.hands:,} rounds, heuristic)", "position",
                          "points per round (mean)", r.fig_path("dealer_advantage"), colours=plots.PALETTE[:2],
                          legend=list(overall["position"].astype(str)), count=None)
        r.figure(path, f"Dealer and non-dealer points per round, 95% intervals (n = {sm.hands:,} rounds each)")
    if "round_points" in sm.tables:
        r.table("round_points", sm.tables["round_points"], "Distribution of a round's points, dealer and non-dealer")
