"""Twenty-Two's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

The value of discarding each rank is **paired**: the heuristic players' recorded discard
decisions, each as the seat saw it (``position_from_record``), played on the same draws of
the hidden cards once keeping every card and once for each held rank discarding one card of
it (the game's ``evaluate_chunk``, the kernel behind ``evaluate``). Ranks from the game's
``codes.RANKS``. Record-based tables are clustered by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.games.twenty_two.codes import RANKS
from analyzer.games.twenty_two.spec import SPEC, load_position
from analyzer.games.twenty_two.view import move_code

#: discard positions of the paired study: one for every this many dealt hands (``Sizes.deals``)
DEALS_PER_POSITION = 3
#: its measures: name -> column of evaluate_chunk's result (taking the final trick scores
#: points: lower is better; winning the game: higher is better)
DISCARD_MEASURES = {"take the final trick": 0, "win the game": 1}

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
                 main_players: int, positions: list | None = None, want: int = 0) -> None:
    """Per (hand, seat, rank held at the discard): discarded or kept, points, took the final
    trick; per final-trick card: rank, taken; per deal: hand number, size, players in; and the
    first ``want`` discard decisions (``positions``: the position as the seat saw it, the move
    it made)."""
    held_rows, final_rows, deal_rows = [], [], []
    for g, game in enumerate(games, start=first):
        players = int(game[0]["players"])
        held: dict[int, set[str]] = {}
        discarded: dict[int, set[str]] = {}
        takers: list[int] = []
        decisions = 0
        for e in game[1:]:
            ev = e["ev"]
            decisions += ev == "decide"
            if ev == "decide" and e["kind"] == "discard" and positions is not None and len(positions) < want:
                positions.append((SPEC.position_from_record(game, decisions), str(e["move"])))
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
    clustered difference (discarded - kept) of the points and of taking the final trick, with
    ``n`` and ``clusters`` (games) of the smaller side."""
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
    out = out.merge(diff[keys + ["n", "clusters", "difference", "difference_lo", "difference_hi"]], on=keys,
                    how="left")
    out = out.rename(columns={"difference": "points_difference", "difference_lo": "points_difference_lo",
                              "difference_hi": "points_difference_hi"})
    return out.merge(final[keys + ["final_difference", "final_difference_lo", "final_difference_hi"]], on=keys,
                     how="left")


def discard_frame(rules: dict[str, Any], positions: list[tuple[dict[str, Any], str]], rollouts: int,
                  seed: int) -> pd.DataFrame:
    """One row per (position, rank held whose one-card discard is legal there): per measure of
    ``DISCARD_MEASURES`` its mean over ``rollouts`` samples keeping every card (``|keep``) and
    discarding one card of the rank (``|discard``), on the same hidden cards and future (the
    game's ``evaluate_chunk``, position h on streams h * rollouts ..), the heuristic playing
    every seat after; and whether the heuristic discarded that rank there."""
    from analyzer.strategies import resolve_seats, strategy_array

    kernel = SPEC.user_kernel([])
    params = SPEC.params(rules)
    strat, _ = strategy_array(SPEC, resolve_seats(SPEC, SPEC.players(rules), None))
    rows = []
    for h, (position, move) in enumerate(positions):
        pos = load_position(rules, position)
        legal = set(pos.legal(params))
        ranks = [r for r in RANKS if any(c[0] == r for c in position["hand"]) and move_code(r) in legal]
        if not ranks:
            continue
        options = np.array([move_code("")] + [move_code(r) for r in ranks], dtype=np.int64)
        result = np.zeros((rollouts, len(options), 2), dtype=np.int64)
        kernel.evaluate_chunk(np.uint64(seed), np.int64(h * rollouts), params, strat, pos.ws, np.int64(pos.seat),
                              options, result, np.int64(min(rollouts, 8)))
        means = result.mean(axis=0)
        for i, rank in enumerate(ranks, start=1):
            row = {"position": h, "rank_index": RANKS.index(rank), "heuristic_discards": float(rank in move)}
            for name, col in DISCARD_MEASURES.items():
                row[f"{name}|keep"], row[f"{name}|discard"] = means[0, col], means[i, col]
            rows.append(row)
    return pd.DataFrame(rows)


def paired_discard_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per rank and measure: n (positions holding the rank), the chance keeping every card and
    discarding one of the rank, discard - keep paired (clustered by position), and how often
    the heuristic discarded the rank there (``rp.paired_choice_rows``)."""
    rows = []
    for rank, part in frame.groupby("rank_index", sort=True):
        rows += rp.paired_choice_rows(part, {"rank": RANKS[int(rank)], "rank_index": int(rank)}, DISCARD_MEASURES,
                                      "discard", "keep", "heuristic_discards")
    return pd.DataFrame(rows)


def discard_findings(table: pd.DataFrame) -> list[str]:
    """The ranks whose one-card discard raises and lowers the chance to win the game the most,
    each when its interval excludes no change."""
    found = []
    for clear, verdict in zip(rp.clear_effects(table, "win the game"), ("discard it", "keep it")):
        if clear.empty:
            continue
        row = clear.loc[clear["difference"].abs().idxmax()].to_dict()
        found.append(rp.finding_text(f"Discarding one {row['rank']} (and redrawing) rather than keeping every card "
                                     "changes your chance to win the game by {value} "
                                     f"({verdict}; paired, heuristic play, {{n}} positions).", row, "difference",
                                     fmt="{:+.3f}"))
    return [f for f in found if f]


def _paired_discard_section(r, spec, rules: dict[str, Any], positions: list[tuple[dict[str, Any], str]]) -> None:
    s = r.sizes
    r.h(3, "Value of discarding each rank (paired)")
    frame = r.run("study", "kernel.evaluate_chunk per discard decision",
                  lambda: discard_frame(rules, positions, s.rollouts, r.seed), deals=len(positions),
                  strategies="heuristic (every seat, every arm)")
    if frame.empty:
        r.p("No discard decision with a legal one-card discard in the recorded games.")
        return
    table = paired_discard_table(frame)
    method = (f"paired: the first {len(positions):,} discard decisions of heuristic players in the recorded games "
              f"({frame['position'].nunique():,} with a one-card discard legal), each played on {s.rollouts} "
              "draws of the hidden cards fitting what the seat saw, once keeping every card and once for each "
              "rank held discarding one card of it, the same draw and future for every arm, the heuristic "
              "playing on to the end of the game; difference = discard - keep, its 95% interval clustered by "
              "position")
    r.p("For each rank a player held at the discard: the chance to take the final trick (and so to score; lower "
        "is better) and to win the game after discarding one card of that rank, against keeping every card, in "
        "the same positions with the same hidden cards. It answers \"should I throw this card away?\" for the "
        "positions heuristic players reach; `heuristic_discards` is how often the heuristic discarded the rank "
        "there.")
    r.table("discard_value_paired", table, "Discarding one card of a rank against keeping every card: the chance "
            "to take the final trick and to win the game, paired", method=method,
            show=["rank", "measure", "n", "keep", "discard", "difference", "heuristic_discards"])
    shown = table.copy()
    small = shown["n"] < rp.MIN_N
    shown.loc[small, ["difference", "difference_lo", "difference_hi"]] = float("nan")
    path = plots.grouped_bars(shown, "rank", "measure", "difference", f"{spec.title}: discarding one card of a rank "
                              f"minus keeping every card\n(paired, {frame['position'].nunique():,} positions x "
                              f"{s.rollouts} draws, heuristic play; empty: n < {rp.MIN_N})",
                              "rank held at the discard", "change in the chance (discard - keep)",
                              r.fig_path("discard_value_paired"), reference=0.0, reference_label="no effect",
                              group_label="chance to:")
    r.figure(path, "Discarding one card of each rank, paired, 95% intervals (n = positions holding the rank); "
             "taking the final trick scores points (lower is better), winning the game is the aim")
    for text in discard_findings(table):
        r.finding(text)


def new_cells() -> dict[str, rp.Cells]:
    """The cells ``reduce_games`` fills."""
    return {"discard": rp.Cells(["players_strategy", "rank_index", "discarded"],
                                {"points": ("points", "mean"), "took_final": ("took_final", "prop")}),
            "final": rp.Cells(["players", "rank_index"], {"taken": ("taken", "prop")}),
            "hand": rp.Cells("hand", {"size": ("size", "mean"), "players_in": ("in", "mean")}),
            "size": rp.Cells("size", {"players_in": ("in", "mean")})}


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    p0 = spec.players(rules)
    cells = new_cells()
    positions: list[tuple[dict[str, Any], str]] = []
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, "heuristic", p0,
                                                                    positions, s.deals // DEALS_PER_POSITION))
    r.records("study", s.records, lambda games, first: reduce_games(games, first, cells, "random", p0),
              seats=["random"] * p0)
    counts = [p for p in range(spec.min_players, min(spec.max_players, s.max_sweep_players + 1) + 1) if p != p0]
    for p in counts:
        r.records("study", s.records_sweep, lambda games, first: reduce_games(games, first, cells, "", p0), players=p)
    r.p(f"From the records of {s.records:,} games of `heuristic` players and {s.records:,} games of `random` "
        f"players ({p0} players, default rules), plus {s.records_sweep:,} heuristic games for each other number "
        "of players; every interval is clustered by game.")

    _paired_discard_section(r, spec, rules, positions)

    r.h(3, "Discards the players made (observed)")
    r.p("For every player who held a rank when discarding: the points scored in that hand (the final-trick card "
        "taken; fewer is better) when they discarded at least one card of that rank, against when they kept it. "
        "These compare different hands (the paired table above compares the same ones).")
    discard = discard_table(cells["discard"])
    r.table("discard_value", discard, "Points scored in the hand when discarding a held rank vs keeping it "
            "(`points_difference` = discarded - kept; negative: discarding helps; n = the smaller side)",
            show=["players_strategy", "rank", "held", "discarded_share", "n", "points_if_discarded", "points_if_kept",
                  "points_difference", "final_difference"],
            method="random players discard each rank by chance, so their difference is a fair experiment; "
                   "heuristic rows are observed in heuristic games (selection-biased: the heuristic chooses); "
                   "clustered by game")
    shown = discard.copy()
    small = rp.below_minimum(shown)
    shown.loc[small, ["points_difference", "points_difference_lo", "points_difference_hi"]] = float("nan")
    path = plots.grouped_bars(shown, "rank", "players_strategy", "points_difference",
                              f"{spec.title}: points scored when discarding a rank vs keeping it (observed)\n"
                              f"({s.records:,} games per strategy, {p0} players; empty: n < {rp.MIN_N} or under "
                              f"{rp.MIN_N} games)",
                              "rank held at the discard", "points in the hand (discarded - kept)",
                              r.fig_path("discard_value"), reference=0.0, reference_label="no effect",
                              group_label="players:")
    r.figure(path, "Discards the players made (observed), 95% intervals")

    r.h(3, "Chance of taking the final trick")
    table = cells["final"].table()
    table.insert(2, "rank", table["rank_index"].map(lambda i: RANKS[int(i)]))
    r.table("final_trick", table, "Chance that a card played to the final trick takes it (and scores), by its "
            "rank and the number of players (heuristic)", show=["players", "rank", "n", "taken"],
            method="observed in heuristic games; clustered by game")
    path = plots.lines(rp.enough(table), "rank_index", "taken",
                       f"{spec.title}: chance that the final card takes the final trick\n(heuristic players)",
                       "final card's rank", "chance to take the final trick", r.fig_path("final_trick"),
                       group="players", group_label="players:", xticks=range(13), xticklabels=list(RANKS),
                       count="n", min_count=rp.MIN_N)
    r.figure(path, f"Taking the final trick by final card and number of players (points with n >= {rp.MIN_N} cards of "
             f"{rp.MIN_N}+ games)")
    main = rp.enough(table[(table["players"] == p0) & (table["taken"] < 0.5)])
    if len(main):
        row = main.loc[main["rank_index"].idxmax()].to_dict()
        r.finding(rp.finding_text(f"With {p0} players, a {row['rank']} played to the final trick takes it (and "
                                  "scores) in {value} of cases ({n} cards of {clusters}).", row, "taken"))

    r.h(3, "Hand size dynamics")
    by_hand = cells["hand"].table()
    r.table("hand_size_by_hand", by_hand, f"Cards dealt per player and players still in, by hand number "
            f"({p0} players, heuristic)", method="observed in heuristic games; clustered by game")
    path = plots.lines(rp.enough(by_hand), "hand", "size", f"{spec.title}: cards dealt per player by hand number\n"
                       f"({s.records:,} heuristic games, {p0} players)", "hand number",
                       "cards dealt per player (mean)", r.fig_path("hand_size"), count="n", min_count=rp.MIN_N)
    r.figure(path, "Hand size by hand number, 95% band")
    dist = cells["size"].table()
    dist["hands"] = dist["n"]
    dist["share"] = dist["n"] / dist["n"].sum()
    r.table("hand_size_distribution", dist, "Distribution of the hand size dealt (all hands), with the players "
            "still in", method="observed in heuristic games; clustered by game")
