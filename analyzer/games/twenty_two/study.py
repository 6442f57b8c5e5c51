"""Twenty-Two's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

Ranks from the game's ``codes.RANKS``. Record-based tables are clustered by game.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.games.twenty_two.codes import RANKS

RULES_BRIEF = (
    "A last-trick elimination game for 2-6 players (suits never matter). The first hand deals 7 cards; "
    "each player may once discard and redraw from the stock. Tricks are led with a single or a set of "
    "one rank; followers play as many cards, either matching or beating the best set or their lowest "
    "cards. When everyone holds one card, the final trick is played: whoever plays the highest rank "
    "takes it and scores the card's value (2-10 face, J Q K 10, A 11); the taker deals next, with as "
    "many cards each as that value. A player with 22 points or more is out; the last player in wins.")


def rank_of(card: str) -> str:
    return card[0]


def reduce_games(games: list[list[dict[str, Any]]], first: int, cells: dict[str, rp.Cells], label: str,
                 main_players: int) -> None:
    """Per (hand, seat, rank held at the discard): discarded or kept, points, took the final
    trick; per final-trick card: rank, taken; per deal: hand number, size, players in."""
    held_rows, final_rows, deal_rows = [], [], []
    for g, game in enumerate(games, start=first):
        players = int(game[0]["players"])
        held: dict[int, set[str]] = {}
        discarded: dict[int, set[str]] = {}
        takers: list[int] = []
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                held = {s: {rank_of(c) for c in h} for s, h in enumerate(e["hands"]) if h}
                discarded, takers = {}, []
                deal_rows.append({"game": g, "hand": int(e["hand"]),
                                  "size": int(e.get("size", max(len(h) for h in e["hands"]))), "in": len(held)})
            elif ev == "decide" and e.get("kind") == "discard":
                discarded[int(e["seat"])] = set(str(e["move"]))
            elif ev == "final":
                takers = [int(t) for t in e["takers"]]
                for seat, card in e["plays"]:
                    final_rows.append({"game": g, "players": players, "rank_index": RANKS.index(rank_of(card)),
                                       "taken": int(seat) in takers})
            elif ev == "hand_end":
                for seat, ranks in held.items():
                    for rank in ranks:
                        held_rows.append({"game": g, "players_strategy": label, "rank_index": RANKS.index(rank),
                                          "discarded": rank in discarded.get(seat, set()),
                                          "points": float(e["points"][seat]), "took_final": seat in takers})
    cells["final"].add(pd.DataFrame(final_rows))
    if label:
        cells["discard"].add(pd.DataFrame(held_rows))
    if players == main_players and label == "heuristic":
        cells["hand"].add(pd.DataFrame(deal_rows))
        cells["size"].add(pd.DataFrame(deal_rows))


def discard_table(cells: rp.Cells) -> pd.DataFrame:
    """Per strategy and rank: held, share discarded, points if discarded / kept and the
    clustered difference (discarded - kept) of the points and of taking the final trick."""
    table = cells.table()
    diff = cells.difference("discarded", "points", within=["players_strategy", "rank_index"])
    final = cells.difference("discarded", "took_final", within=["players_strategy", "rank_index"])
    final = final.rename(columns={c: "final_" + c for c in ("difference", "difference_lo", "difference_hi")})
    rows = []
    for (label, rank), part in table.groupby(["players_strategy", "rank_index"]):
        yes, no = part[part["discarded"]], part[~part["discarded"]]
        row: dict[str, Any] = {"players_strategy": label, "rank": RANKS[int(rank)], "rank_index": int(rank),
                               "held": int(part["n"].sum()),
                               "discarded_share": float(yes["n"].sum() / part["n"].sum())}
        for name, side in (("points_if_discarded", yes), ("points_if_kept", no)):
            values = side.iloc[0] if len(side) else {}
            rp.put(row, name, tuple(float(values.get("points" + k, float("nan"))) for k in ("", "_lo", "_hi")))
        rows.append(row)
    out = pd.DataFrame(rows)
    keys = ["players_strategy", "rank_index"]
    out = out.merge(diff[keys + ["n", "difference", "difference_lo", "difference_hi"]], on=keys, how="left")
    out = out.rename(columns={"difference": "points_difference", "difference_lo": "points_difference_lo",
                              "difference_hi": "points_difference_hi"})
    return out.merge(final[keys + ["final_difference", "final_difference_lo", "final_difference_hi"]], on=keys,
                     how="left")


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    p0 = spec.players(rules)
    cells = {"discard": rp.Cells(["players_strategy", "rank_index", "discarded"],
                                 {"points": ("points", "mean"), "took_final": ("took_final", "prop")}),
             "final": rp.Cells(["players", "rank_index"], {"taken": ("taken", "prop")}),
             "hand": rp.Cells("hand", {"size": ("size", "mean"), "players_in": ("in", "mean")}),
             "size": rp.Cells("size", {"players_in": ("in", "mean")})}
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, "heuristic", p0))
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, "random", p0),
              seats=["random"] * p0)
    counts = [p for p in range(spec.min_players, min(spec.max_players, s.max_sweep_players + 1) + 1) if p != p0]
    for p in counts:
        r.records("study", s.records_sweep, lambda games, first: reduce_games(games, first, cells, "", p0), players=p)
    r.p(f"From the records of {s.records:,} games of `heuristic` players and {s.records:,} games of `random` "
        f"players ({p0} players, default rules), plus {s.records_sweep:,} heuristic games for each other number "
        "of players; every interval is clustered by game.")

    r.h(3, "Value of discarding each rank")
    r.p("For every player who held a rank when discarding: the points scored in that hand (the final-trick card "
        "taken; fewer is better) when they discarded at least one card of that rank, against when they kept it.")
    discard = discard_table(cells["discard"])
    r.table("discard_value", discard, "Points scored in the hand when discarding a held rank vs keeping it "
            "(`points_difference` = discarded - kept; negative: discarding helps; n = the smaller side)",
            show=["players_strategy", "rank", "held", "discarded_share", "n", "points_if_discarded", "points_if_kept",
                  "points_difference", "final_difference"],
            method="random players discard each rank by chance, so their difference is a fair experiment; "
                   "heuristic rows are observed in heuristic games (selection-biased: the heuristic chooses); "
                   "clustered by game")
    shown = discard.copy()
    small = shown["n"].fillna(0) < rp.MIN_N
    shown.loc[small, ["points_difference", "points_difference_lo", "points_difference_hi"]] = float("nan")
    path = plots.grouped_bars(shown, "rank", "players_strategy", "points_difference",
                              f"{spec.title}: points scored when discarding a rank vs keeping it\n"
                              f"({s.records:,} games per strategy, {p0} players; empty: n < {rp.MIN_N})",
                              "rank held at the discard", "points in the hand (discarded - kept)",
                              r.fig_path("discard_value"), reference=0.0, reference_label="no effect",
                              group_label="players:")
    r.figure(path, "Value of discarding each rank, 95% intervals")
    fair = rp.enough(discard[discard["players_strategy"] == "random"].dropna(subset=["points_difference"]))
    if len(fair):
        row = fair.loc[fair["points_difference"].idxmin()].to_dict()
        r.finding(rp.finding_text(f"Discarding a {row['rank']} rather than keeping it changes the points you score "
                                  "in the hand by {value} (random discards, a fair experiment; {n} hands).",
                                  row, "points_difference", fmt="{:+.2f}"))

    r.h(3, "Chance of taking the final trick")
    table = cells["final"].table()
    table.insert(2, "rank", table["rank_index"].map(lambda i: RANKS[int(i)]))
    r.table("final_trick", table, "Chance that a card played to the final trick takes it (and scores), by its "
            "rank and the number of players (heuristic)", show=["players", "rank", "n", "taken"],
            method="observed in heuristic games; clustered by game")
    path = plots.lines(table, "rank_index", "taken",
                       f"{spec.title}: chance that the final card takes the final trick\n(heuristic players)",
                       "final card's rank", "chance to take the final trick", r.fig_path("final_trick"),
                       group="players", group_label="players:", xticks=range(13), xticklabels=list(RANKS),
                       count="n", min_count=rp.MIN_N)
    r.figure(path, f"Taking the final trick by final card and number of players (points with n >= {rp.MIN_N})")
    main = rp.enough(table[(table["players"] == p0) & (table["taken"] < 0.5)])
    if len(main):
        row = main.loc[main["rank_index"].idxmax()].to_dict()
        r.finding(rp.finding_text(f"With {p0} players, a {row['rank']} played to the final trick takes it (and "
                                  "scores) in {value} of cases ({n} cards).", row, "taken"))

    r.h(3, "Hand size dynamics")
    by_hand = cells["hand"].table()
    r.table("hand_size_by_hand", by_hand, f"Cards dealt per player and players still in, by hand number "
            f"({p0} players, heuristic)", method="observed in heuristic games; clustered by game")
    path = plots.lines(by_hand, "hand", "size", f"{spec.title}: cards dealt per player by hand number\n"
                       f"({s.records:,} heuristic games, {p0} players)", "hand number",
                       "cards dealt per player (mean)", r.fig_path("hand_size"), count="n", min_count=rp.MIN_N)
    r.figure(path, "Hand size by hand number, 95% band")
    dist = cells["size"].table()
    dist["hands"] = dist["n"]
    dist["share"] = dist["n"] / dist["n"].sum()
    r.table("hand_size_distribution", dist, "Distribution of the hand size dealt (all hands), with the players "
            "still in", method="observed in heuristic games; clustered by game")
