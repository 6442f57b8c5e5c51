"""Two-Ten-Jack's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

The value of AS and of each scoring card is **paired** (counterfactual): random deals (both
hands and the stock's order), each round 1 played by the heuristic as dealt and with the
card exchanged for a neutral card, the rest of the deal, the stock's order and the play
stream the same (the game's ``paired_swap_chunk``); the interval of a difference is the
paired one (the deal is the cluster). Rule facts from the game's own tables:
``rules.CARD_POINTS`` (the points of every card taken), ``rules.TRUMP_MASK`` and
``rules.ACE_SPADES``. Record-based tables are clustered by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card, token
from analyzer.games.two_ten_jack.rules import ACE_SPADES, CARD_POINTS, TRUMP_MASK

RULES_BRIEF = (
    "A two-player trick game with 52 cards. Hearts are trump and the ace of spades (AS) is both a spade "
    "and the highest trump. Six cards each; after each trick the winner, then the loser, draws from the "
    "stock. Follow suit if able, else trump if able. At the end of the round the cards taken score: "
    "2H TH JH +5 each, 2C TC JC -5 each, 2S TS JS AS +1 each, 6D +1. The first to 31 wins.")

AS_NAME = token(ACE_SPADES)
#: the scoring cards and their points, from the game's table
SCORING = {token(c): int(CARD_POINTS[c]) for c in range(52) if CARD_POINTS[c] != 0}
#: the scoring cards' codes (AS among them), in code order, and the cards they may be
#: exchanged with: no points, not a trump (AS is one), from the game's tables
CARD_CODES = np.array([c for c in range(52) if CARD_POINTS[c] != 0], dtype=np.int64)
NEUTRAL = sum(1 << c for c in range(52) if CARD_POINTS[c] == 0 and not (int(TRUMP_MASK) >> c) & 1)
PLACES = {1: "opponent's hand", 0: "stock"}
NAMES = np.array([token(c) for c in range(52)])


#: deals per kernel call of ``card_swaps`` (its arrays stay small whatever the look: 10,000
#: deals hold about 5 MB of them, 50,000 held 24 MB; the deals' rows do not depend on it)
BATCH = 10_000


def card_swaps(rules: dict[str, Any], seed: int, start: int, n: int) -> pd.DataFrame:
    """One row per (deal, scoring card a seat holds) of deals ``start .. start + n - 1``: the
    card, the seat, the neutral card it was exchanged with and where that was, the seat's
    round points and margin (its points minus the opponent's) as dealt (``_with``) and with
    the card exchanged (``_without``). Heuristic for both seats, round 1 at 0-0."""
    parts = [_card_swaps(rules, seed, lo, min(BATCH, start + n - lo)) for lo in range(start, start + n, BATCH)]
    return pd.concat(parts, ignore_index=True)


def _card_swaps(rules: dict[str, Any], seed: int, start: int, n: int) -> pd.DataFrame:
    from analyzer import games as registry
    from analyzer.jit import numba
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get("two-ten-jack")
    strat, _ = strategy_array(spec, resolve_seats(spec, 2, None))
    k = len(CARD_CODES)
    info = np.zeros((n, k + 1, 3), dtype=np.int64)
    result = np.zeros((n, k + 1, 2), dtype=np.int64)
    spec.user_kernel([]).paired_swap_chunk(np.uint64(seed), np.int64(start), spec.params(rules), strat, CARD_CODES,
                                           np.int64(NEUTRAL), info, result, np.int64(4 * numba.get_num_threads()))
    deal, arm = np.nonzero(info[:, :k, 0] >= 0)
    seat = info[deal, arm, 0]
    mine_with, theirs_with = result[deal, 0, seat], result[deal, 0, 1 - seat]
    mine_without, theirs_without = result[deal, arm + 1, seat], result[deal, arm + 1, 1 - seat]
    # small and categorical columns: a full report has millions of rows
    small = np.int16
    return pd.DataFrame({"deal": (start + deal).astype(np.int32), "card": pd.Categorical(NAMES[CARD_CODES[arm]]),
                         "card_value": CARD_POINTS[CARD_CODES[arm]].astype(small), "seat": seat.astype(np.int8),
                         "partner": pd.Categorical(NAMES[info[deal, arm, 1]]),
                         "partner_place": pd.Categorical.from_codes(info[deal, arm, 2], [PLACES[0], PLACES[1]]),
                         "points_with": mine_with.astype(small), "points_without": mine_without.astype(small),
                         "margin_with": (mine_with - theirs_with).astype(small),
                         "margin_without": (mine_without - theirs_without).astype(small)})


def paired_rows(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per value of ``by``: n (deals), the seat's points per round with the card and without,
    the paired difference, and the paired difference of the margin, 95% intervals."""
    rows = []
    for key, part in frame.groupby(by, sort=False, observed=True):
        row = {by: key, **rp.paired_row(part["points_with"], part["points_without"], "mean")}
        margin = rp.paired_row(part["margin_with"], part["margin_without"], "mean")
        rp.put(row, "margin_difference", (margin["difference"], margin["difference_lo"], margin["difference_hi"]))
        rows.append(row)
    return pd.DataFrame(rows)


def as_precision(frame: pd.DataFrame) -> float:
    """The 95% half-width of the headline: AS's paired difference in the seat's points."""
    part = frame[frame["card"] == AS_NAME]
    return rp.half_width(rp.paired_row(part["points_with"], part["points_without"], "mean")) if len(part) else np.inf


def paired_method(played: int, s) -> str:
    return (f"paired: {played:,} random deals (both hands and the stock's order), round 1 (scores 0-0) played by "
            "the heuristic for both seats as dealt and, for each scoring card a seat holds, again with that card "
            "exchanged for a card drawn at random among the neutral cards (no points, not a trump: the clubs, "
            "diamonds and spades that score nothing) the seat does not hold, wherever it was (the opponent's hand, "
            "or its place in the stock, so the draws deal the scoring card when they would have dealt it), the rest "
            "of the deal, the stock's order and the play stream the same; difference = with - without, its 95% "
            "interval paired (clustered by deal); n = deals in which a seat holds the card; deals added in doubling "
            f"looks until AS's half-width is at most {s.paired_target}")


def _paired_sections(r, spec, rules: dict[str, Any]) -> None:
    """The paired value of AS and of each scoring card (their own sections' headlines)."""
    s = r.sizes
    frame, played = r.run("study", "kernel.paired_swap_chunk (scoring cards, sequential looks)", lambda: rp.sequential(
        s.deals, s.paired_max, s.paired_target, lambda start, n: card_swaps(rules, r.seed, start, n), as_precision),
        strategies="heuristic (both seats, every arm)", deals=f"up to {s.paired_max:,}")
    method = paired_method(played, s)
    r.p(f"A round's points total {int(CARD_POINTS.sum()):+d} whoever takes which card, so a card's effect on the "
        "margin (your points minus the opponent's) is twice its effect on your points; the tables give both. The "
        "margin is what counts in the race to 31.")

    r.h(3, "Value of the ace of spades")
    ace = frame[frame["card"] == AS_NAME]
    table = pd.concat([paired_rows(ace.assign(partner="anywhere"), "partner"), paired_rows(ace, "partner_place")
                       .rename(columns={"partner_place": "partner"})], ignore_index=True)
    r.table("as_value_paired", table, "Value of holding AS, paired: the seat dealt AS against the same deal with AS "
            "exchanged for a neutral card", method=method,
            show=["partner", "n", "with", "without", "difference", "margin_difference"])
    shown = rp.enough(table)
    path = plots.bars(shown, "partner", "difference", f"{spec.title}: points per round with AS minus without "
                      f"(paired, {played:,} deals)\n(heuristic; by where the exchanged card was)",
                      "where the card exchanged for AS was", "points per round (with AS - without)",
                      r.fig_path("as_value"), reference=0.0, reference_label="no effect",
                      colours=plots.PALETTE[:len(shown)], legend=list(shown["partner"]))
    r.figure(path, "Value of holding AS, paired, 95% intervals (n = deals)")
    headline = table.iloc[0].to_dict()
    r.p(f"Headline paired difference: {headline['difference']:+.3f} points a round, 95% half-width "
        f"{rp.half_width(headline):.3f} ({int(headline['n']):,} deals).")
    r.finding(rp.finding_text("Holding AS is worth {value} points a round to you against the same deal with AS "
                              "exchanged for a random neutral card (heuristic play, {n} deals).", headline,
                              "difference", fmt="{:+.2f}"))

    r.h(3, "Value of each scoring card")
    cards = paired_rows(frame, "card")
    cards.insert(1, "card_value", cards["card"].map(SCORING))
    cards = cards.sort_values(["card_value", "card"], ascending=[False, True]).reset_index(drop=True)
    r.table("scoring_card_value_paired", cards, "Value of holding each scoring card, paired: the seat dealt it "
            "against the same deal with it exchanged for a neutral card", method=method,
            show=["card", "card_value", "n", "with", "without", "difference", "margin_difference"])
    shown = rp.enough(cards)
    colour = {5: plots.PALETTE[0], -5: plots.PALETTE[3], 1: plots.PALETTE[2]}
    path = plots.bars(shown, "card", "difference", f"{spec.title}: points per round gained by holding each "
                      f"scoring card (paired, {played:,} deals)\n(heuristic; the same deal with the card exchanged "
                      "for a neutral one)", "scoring card held", "points per round (with - without)",
                      r.fig_path("scoring_card_value"), reference=0.0, reference_label="no effect",
                      colours=[colour.get(v, plots.PALETTE[4]) for v in shown["card_value"]],
                      legend=[f"card scores {v:+d}" for v in shown["card_value"]])
    r.figure(path, "Value of holding each scoring card, paired, 95% intervals (n = deals)")
    if len(shown):
        best = shown.loc[shown["difference"].idxmax()].to_dict()
        r.finding(rp.finding_text(f"Holding {best['card']} (face value {best['card_value']:+d}) is worth {{value}} "
                                  "points a round to you, paired against the same deal without it ({n} deals).", best,
                                  "difference", fmt="{:+.2f}"))
        worst = shown.loc[shown["difference"].idxmin()].to_dict()
        if worst["card"] != best["card"]:
            r.finding(rp.finding_text(f"Holding {worst['card']} (face value {worst['card_value']:+d}) changes your "
                                      "points a round by {value}, paired against the same deal without it ({n} "
                                      "deals).", worst, "difference", fmt="{:+.2f}"))


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
    r.p(f"The card values are paired (below); the other per-round facts are from the records of {s.records:,} "
        "games of `heuristic` players, clustered by game; the dealer advantage also from a simulation.")

    _paired_sections(r, spec, rules)

    r.h(3, "Observational tables")
    r.p("For comparison, from the recorded games (different deals in each group, not paired).")
    dealt = cells["dealt"].table()
    r.table("as_value_dealt", dealt, "Observational: points per round by where AS was at the deal, and the chance "
            "to take it", method="observed in recorded heuristic games, grouped by where AS was dealt (not paired); "
            "clustered by game")
    took = cells["taken"].table()
    took["took_as"] = took["took_as"].map({True: "took AS", False: "did not take AS"})
    r.table("as_value_taken", took, "Observational: points per round by whether the player took AS in a trick (AS "
            "itself is +1)", method="observed in heuristic games (selection-biased: taking AS goes with the rest of "
                                    "the play); clustered by game")
    cards = cells["cards"].difference("held", "points", within=["card"])
    cards.insert(1, "card_value", cards["card"].map(SCORING))
    r.table("scoring_card_value", cards, "Observational: points per round with and without each scoring card dealt; "
            "`difference` = with - without", show=["card", "card_value", "n_with", "n_without", "difference"],
            method="observed in recorded heuristic games: with against without compares different random deals "
                   "(not paired); clustered by game")
    r.h(3, "Points by scoring cards dealt (observational)")
    by_value = cells["value"].table()
    r.table("points_by_value_dealt", by_value, "Points per round by the total face score of the scoring cards dealt "
            "(clipped to -10..10)", method="dealt hands (random); clustered by game")
    path = plots.lines(rp.enough(by_value), "value_bin", "points", f"{spec.title}: points per round by scoring cards dealt\n"
                       "(heuristic)", "face score of the scoring cards dealt (points)", "points per round (mean)",
                       r.fig_path("points_by_value_dealt"), count="n", min_count=rp.MIN_N)
    r.figure(path, f"Points per round by the scoring cards in the dealt hand, 95% band (points with n >= {rp.MIN_N} "
             f"rounds of {rp.MIN_N}+ games)")

    r.h(3, "Dealer advantage")
    sm = r.simulate("study", s.simulate)
    positions = sm.tables.get("positions")
    if positions is not None:
        positions = positions.copy()
        positions["n"], positions["games"] = positions["rounds"], sm.games
        overall = positions[positions["seat"].astype(str) == "all"] if "seat" in positions else positions
        r.table("dealer_advantage", positions, f"Points per round as dealer and non-dealer ({sm.games:,} games, "
                "heuristic)", method="simulation; clustered by game", clusters="games")
        path = plots.bars(overall, "position", "points_per_round", f"{spec.title}: points per round by position\n"
                          f"({sm.games:,} games, {sm.hands:,} rounds, heuristic)", "position",
                          "points per round (mean)", r.fig_path("dealer_advantage"), colours=plots.PALETTE[:2],
                          legend=list(overall["position"].astype(str)), count=None)
        r.figure(path, f"Dealer and non-dealer points per round, 95% intervals (n = {sm.hands:,} rounds each)")
    if "round_points" in sm.tables:
        points = sm.tables["round_points"].copy()
        points["n"], points["games"] = sm.hands, sm.games
        r.table("round_points", points, "Distribution of a round's points, dealer and non-dealer (n = rounds)",
                method="simulation; shares of the rounds clustered by game", clusters="games")
