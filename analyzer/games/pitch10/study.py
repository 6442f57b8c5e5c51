"""10-Point Pitch's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

The headline table is **counterfactual**: hands are dealt (the deal events of recorded
games: every seat's nine cards, whoever won the bid), and for each the seat is made the
pitcher in each trump suit on the same sampled deals (the game's ``bid_table_chunk``: the
kernel behind ``evaluate``'s bid table), the rest played by the heuristic. Rule facts come
from the game's own tables: ``rules.STRENGTH`` (which card is a trump of which strength),
``rules.score_round`` (a bid's score change), ``codes`` (bid levels, points in play).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.games.pitch10 import codes
from analyzer.games.pitch10.rules import ACE16, STRENGTH, score_round
from analyzer.games.pitch10.view import card_code

RULES_BRIEF = (
    "10-Point Pitch for four players in two partnerships (seats 0+2 vs 1+3), 54 cards with two jokers. "
    "Nine cards each; each player bids once (4-10 or moon) or passes; the highest bidder (*pitcher*) names "
    "trump. Everyone discards non-trumps and is refilled to six from the stock; the pitcher takes the rest "
    "of the stock or gives it to the partner. Only trumps are played: A J off-jack HJ LJ T 2 of trump score "
    "1 each and the 3 scores 3 (10 per round). The pitcher's team scores its bid if it took at least the bid, "
    "else loses it; the other team scores what it took. First team to 52 wins.")

BIDS = [b for b in codes.BID_LEVELS if b != codes.MOON]
SEATS = {0: "dealer", 1: "dealer+1 (bids first)", 2: "dealer+2", 3: "dealer+3"}


# ---- hands: classes from the game's trump table ------------------------------------------------

def trumps_by_suit(hand: list[str]) -> np.ndarray:
    """int[4]: the trumps the hand holds if each suit were named (jokers, off-jack included)."""
    cards = [card_code(c) for c in hand]
    return np.array([sum(STRENGTH[t, c] >= 0 for c in cards) for t in range(4)])


def hand_class(hand: list[str]) -> tuple[int, int]:
    """(trumps in the hand's longest trump suit, how many of A K Q of that suit it holds);
    ties between suits go to the one with more top trumps."""
    cards = [card_code(c) for c in hand]
    best = (-1, -1)
    for t in range(4):
        strengths = [STRENGTH[t, c] for c in cards if STRENGTH[t, c] >= 0]
        best = max(best, (len(strengths), sum(k >= ACE16 - 2 for k in strengths)))
    return best


def length_label(n: int, low: int, high: int) -> str:
    return f"<={low}" if n <= low else (f"{high}+" if n >= high else str(n))


def merge_bins(counts: dict[int, int]) -> tuple[int, int]:
    """The lowest and highest trump length that keep a class of at least MIN_N hands at each
    end (shorter or longer hands are merged into it)."""
    keys = sorted(counts)
    low, high = keys[0], keys[-1]
    while low < high and sum(v for k, v in counts.items() if k <= low) < rp.MIN_N:
        low += 1
    while high > low and sum(v for k, v in counts.items() if k >= high) < rp.MIN_N:
        high -= 1
    return low, high


# ---- the counterfactual bid table ---------------------------------------------------------------

def pitched_points(rules: dict[str, Any], deals: list[tuple[int, int, list[str]]], rollouts: int,
                   seed: int) -> np.ndarray:
    """points[h, j, t]: points the team of hand h's seat takes when the seat pitches in suit t,
    rollout j (the same hidden cards and future for every suit), the rest played by the
    heuristic. ``deals``: (seat, dealer, nine cards). Hand h uses streams h * rollouts + j."""
    from analyzer import games as registry
    from analyzer.games.pitch10.spec import load_position
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get("pitch10")
    kernel = spec.user_kernel([])  # the kernel's entries with no user slot filled
    params = spec.params(rules)
    strat, _ = strategy_array(spec, resolve_seats(spec, 4, None))
    out = np.zeros((len(deals), rollouts, 4), dtype=np.int64)
    for h, (seat, dealer, hand) in enumerate(deals):
        pos = load_position(rules, {"seat": seat, "dealer": dealer, "hand": hand, "scores": [0, 0]}, params,
                            whose_turn=False)
        kernel.bid_table_chunk(np.uint64(seed), np.int64(h * rollouts), params, strat, pos.ws, pos.seat, out[h],
                               np.int64(1))
    return out


def chosen_points(points: np.ndarray) -> np.ndarray:
    """points[h, j] in the best trump suit, chosen without peeking (cross-fitting): the suit with
    the highest mean on the even rollouts is measured on the odd ones and vice versa."""
    even, odd = points[:, 0::2, :], points[:, 1::2, :]
    pick_even = even.mean(axis=1).argmax(axis=1)   # measured on the odd rollouts
    pick_odd = odd.mean(axis=1).argmax(axis=1)
    rows = np.arange(points.shape[0])
    return np.concatenate([odd[rows, :, pick_even], even[rows, :, pick_odd]], axis=1)


def bid_frame(deals: list[tuple[int, int, list[str]]], taken: np.ndarray, rules: dict[str, Any]) -> pd.DataFrame:
    """One row per (hand, rollout): the hand's class, the points taken, and per bid whether it
    is made and the pitcher's team's score change (``rules.score_round``)."""
    classes = np.array([hand_class(hand) for _, _, hand in deals])
    n_hands, k = taken.shape
    frame = pd.DataFrame({"hand": np.repeat(np.arange(n_hands), k), "length": np.repeat(classes[:, 0], k),
                          "top": np.repeat(classes[:, 1], k), "points_taken": taken.ravel()})
    scores_taken = bool(rules["made_bid_scores_taken"])
    change = {(b, t): score_round.py_func(b, t, 0, 0, 0, scores_taken)[0] for b in BIDS for t in range(11)}
    for b in BIDS:
        frame[f"make_{b}"] = frame["points_taken"] >= b
        frame[f"score_{b}"] = [change[(b, t)] for t in frame["points_taken"]]
    frame["make_moon"] = frame["points_taken"] >= codes.ALL_POINTS
    return frame


def bid_tables(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Long table: per class and bid, hands (n), make chance and expected score change,
    clustered by hand (the rollouts of one hand are not independent)."""
    rows = []
    for b in [*BIDS, "moon"]:
        measures = {"make_chance": (f"make_{b}", "prop")}
        if b != "moon":
            measures["score_change"] = (f"score_{b}", "mean")
        table = rp.grouped(frame, by, measures, cluster="hand")
        table["n"] = table["clusters"]  # n = dealt hands (rollouts are clustered within them)
        table["rollouts"] = [int((frame[by] == v).sum()) for v in table[by]]
        table.insert(1, "bid", str(b))
        rows.append(table)
    return pd.concat(rows, ignore_index=True)


def _bid_section(r, spec, rules: dict[str, Any], deals: list[tuple[int, int, list[str]]]) -> None:
    s = r.sizes
    r.h(3, "Bid table: what will this hand make? (counterfactual)")
    points = r.run("study", "kernel.bid_table_chunk per dealt hand",
                   lambda: pitched_points(rules, deals, s.rollouts, r.seed), deals=len(deals),
                   games=len(deals) * s.rollouts * 4, strategies="heuristic (the other seats and the play)")
    frame = bid_frame(deals, chosen_points(points), rules)
    counts = frame.groupby("length")["hand"].nunique().to_dict()
    low, high = merge_bins(counts)
    frame["trump_length"] = [length_label(n, low, high) for n in frame["length"]]
    frame["order"] = frame["length"].clip(low, high)
    method = (f"{len(deals):,} dealt hands (every seat's nine cards, whatever the bidding did); each made the "
              f"pitcher in every suit on {s.rollouts} sampled deals of the hidden cards (the heuristic plays the "
              "rest; no strategy's play depends on the bid level, so one play-out answers every bid); the trump is "
              "the suit with the best mean on half of the rollouts, measured on the other half; intervals "
              "clustered by hand")
    r.p("Rows are classes of the **dealt** hand: the trumps it would hold in its longest suit (jokers and the "
        "off-jack included), shorter and longer classes merged until each has "
        f"{rp.MIN_N}+ hands. Each cell is the chance that the seat's team takes at least the bid when the seat "
        "pitches with the best trump: it answers \"with this hand, what will this bid make?\" for every hand, "
        "not only the hands that won the bid.")
    table = bid_tables(frame.assign(trump_length=frame["order"]), "trump_length")
    table["trump_length"] = [length_label(int(v), low, high) for v in table["trump_length"]]
    r.table("bid_table_trump_length", table, "Chance to make each bid (and expected score change) by trump length "
            "of the dealt hand, as pitcher with the best trump", method=method,
            show=["trump_length", "bid", "n", "make_chance", "score_change"])
    values = table.pivot(index="trump_length", columns="bid", values="make_chance")
    hands = table.pivot(index="trump_length", columns="bid", values="n")
    order = [length_label(v, low, high) for v in range(low, high + 1)]
    cols = [str(b) for b in BIDS] + ["moon"]
    path = plots.heatmap(values.loc[order, cols], hands.loc[order, cols],
                         f"{spec.title}: chance to make a bid with this hand as pitcher (counterfactual)\n"
                         f"({len(deals):,} dealt hands x {s.rollouts} rollouts, heuristic play)",
                         "bid (points needed)", "trumps in the dealt hand's longest suit",
                         "chance to take at least the bid", r.fig_path("bid_table_trump_length"), min_count=rp.MIN_N)
    r.figure(path, "Counterfactual bid table by trump length; n = dealt hands in the row (grey: n < "
             f"{rp.MIN_N})")

    frame["top_trumps"] = frame["top"]
    top = bid_tables(frame, "top_trumps")
    r.table("bid_table_top_trumps", top, "Chance to make each bid by the A K Q of the longest suit dealt",
            method=method, show=["top_trumps", "bid", "n", "make_chance", "score_change"])
    values = top.pivot(index="top_trumps", columns="bid", values="make_chance")[cols]
    hands = top.pivot(index="top_trumps", columns="bid", values="n")[cols]
    path = plots.heatmap(values, hands, f"{spec.title}: chance to make a bid by top trumps held (counterfactual)\n"
                         f"({len(deals):,} dealt hands x {s.rollouts} rollouts, heuristic play)",
                         "bid (points needed)", "A, K, Q of the longest suit dealt",
                         "chance to take at least the bid", r.fig_path("bid_table_top_trumps"), min_count=rp.MIN_N)
    r.figure(path, f"Counterfactual bid table by top trumps; n = dealt hands in the row (grey: n < {rp.MIN_N})")
    for text in bid_findings(table):
        r.finding(text)


def bid_findings(table: pd.DataFrame) -> list[str]:
    """From the bid table: the best bid of the most common class, and the shortest class whose
    best bid gains points."""
    found = []
    sized = rp.enough(table[table["bid"] != "moon"])
    if sized.empty:
        return found
    common = sized.loc[sized["n"].idxmax(), "trump_length"]
    part = sized[sized["trump_length"] == common]
    best = part.loc[part["score_change"].idxmax()].to_dict()
    found.append(rp.finding_text(
        f"With {common} trumps in your longest suit (the most common hand), the bid with the best expected score "
        f"as pitcher is {best['bid']}: {{value}} points per hand (counterfactual, {{n}} dealt hands).",
        best, "score_change", fmt="{:+.2f}"))
    row = part[part["bid"] == best["bid"]].iloc[0].to_dict()
    found.append(rp.finding_text(f"A hand with {common} trumps makes a bid of {best['bid']} "
                                 "{value} of the time as pitcher ({n} dealt hands).", row, "make_chance"))
    return [f for f in found if f]


# ---- observed tables (heuristic games) ----------------------------------------------------------

def reduce_games(games: list[list[dict[str, Any]]], first: int, hands: rp.Cells, seats: rp.Cells,
                 give: rp.Cells, deals: list, want: int) -> None:
    """Per recorded hand: the pitcher's facts (into ``hands`` and ``give``), each seat's team
    points (``seats``), and the first ``want`` dealt hands of every seat (``deals``)."""
    hand_rows, seat_rows = [], []
    for g, game in enumerate(games, start=first):
        dealt: list[list[str]] = []
        dealer, pitcher, bid, give_move, trump = 0, -1, "", "", -1
        refill: dict[int, list[str]] = {}
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                dealt, dealer, pitcher, bid, give_move, trump, refill = e["hands"], int(e["dealer"]), -1, "", "", -1, {}
                for seat in range(4):
                    if len(deals) < want:
                        deals.append((seat, dealer, list(dealt[seat])))
            elif ev == "pitcher":
                pitcher, bid = int(e["seat"]), str(e["bid"])
            elif ev == "decide" and e.get("kind") == "trump":
                trump = codes.SUITS.index(str(e["move"]))
            elif ev == "decide" and e.get("kind") == "give":
                give_move = str(e["move"])
            elif ev == "refill":
                refill[int(e["seat"])] = list(e["cards"])
            elif ev == "hand_end" and pitcher >= 0:
                team = pitcher % 2
                taken = float(e.get("taken", [np.nan, np.nan])[team])
                need = codes.ALL_POINTS if bid == "moon" else int(bid)
                held = trumps_by_suit(dealt[pitcher] + refill.get(pitcher, []))[trump] if trump >= 0 else 0
                hand_rows.append({"game": g, "bid": bid, "order": need + (bid == "moon"), "taken": taken,
                                  "made": taken >= need, "give": give_move,
                                  "holding": "6+ trumps" if held >= codes.KEEP else f"under {codes.KEEP} trumps",
                                  "points": float(e["points"][team])})
                for rel in range(4):
                    seat = (dealer + rel) % 4
                    seat_rows.append({"game": g, "relative_seat": rel, "pitched": seat == pitcher,
                                      "team_points": float(e["points"][seat % 2])})
    frame = pd.DataFrame(hand_rows)
    hands.add(frame)
    if len(frame):
        give.add(frame[frame["give"] != ""])
    seats.add(pd.DataFrame(seat_rows))


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    hands = rp.Cells(["order", "bid"], {"made": ("made", "prop"), "taken": ("taken", "mean")})
    seats = rp.Cells("relative_seat", {"team_points": ("team_points", "mean"), "pitch_rate": ("pitched", "prop")})
    give = rp.Cells(["give", "holding"], {"taken": ("taken", "mean"), "made": ("made", "prop"),
                                          "points": ("points", "mean")})
    deals: list[tuple[int, int, list[str]]] = []
    r.records("study", s.records, lambda games, first: reduce_games(games, first, hands, seats, give, deals, s.deals))
    r.p(f"The bid tables are counterfactual (below); the other tables are read from the records of {s.records:,} "
        "games of `heuristic` players, clustered by game.")
    _bid_section(r, spec, rules, deals)

    r.h(3, "Bids the heuristic made (observed)")
    made = hands.table().sort_values("order").drop(columns="order")
    r.table("bids_made", made, "Bids the heuristic won the bidding with and how often they were made",
            method="observed in heuristic games (selection-biased: only the hands that won the bid); clustered "
                   "by game")

    r.h(3, "Giving the rest to the partner (observed)")
    given = give.table()
    if len(given):
        r.table("give_value", given, "Pitcher's team when the pitcher kept or gave the rest of the stock, by the "
                "pitcher's trumps after the refill",
                method="observed in heuristic games (selection-biased: the heuristic gives only with six trumps); "
                       "clustered by game")
        shown = rp.enough(given).copy()
        if len(shown):
            shown["label"] = shown["give"] + ", " + shown["holding"]
            colours = [plots.PALETTE[0] if g == "keep" else plots.PALETTE[1] for g in shown["give"]]
            path = plots.bars(shown, "label", "taken", f"{spec.title}: points taken by the pitcher's team when "
                              f"keeping or giving the rest\n(observed, selection-biased; cells with n >= {rp.MIN_N})",
                              "pitcher's choice and trumps after the refill", "points taken by the pitcher's team",
                              r.fig_path("give_value"), colours=colours,
                              legend=["kept the rest" if g == "keep" else "gave the rest" for g in shown["give"]])
            r.figure(path, "Keeping or giving the rest of the stock, 95% intervals (n = hands)")
    if "partner" in spec.strategies["heuristic"].params:
        from analyzer import compare

        deals_match = max(s.tournament // 4, 100)
        r.p("The heuristic's bidding counts on the partner's share (strategy parameter `partner`, tenths of a "
            "point); a duplicate-deal match tells what that assumption is worth:")
        res = r.run("study", "compare.compare", lambda: compare.compare(
            spec.name, ["heuristic:partner=35", "heuristic:partner=15"], games=deals_match, seed=r.seed,
            workers=r.workers), strategies="heuristic:partner=35 heuristic:partner=15", deals=deals_match)
        match = rp._strongest_first(res.tables["pairs"])
        match["n"] = match["deals"]
        r.table("partner_share_match", match, "Bold (35) against cautious (15) partner share, stronger first",
                show=["strategy", "opponent", "deals", "win_rate", "difference", "p_value"],
                method="duplicate deals (paired)")

    r.h(3, "Points by seat relative to the dealer (observed)")
    by_seat = seats.table()
    by_seat["seat"] = by_seat["relative_seat"].map(SEATS)
    r.table("points_by_seat", by_seat, "Team score change per hand and chance to be the pitcher, by seat relative "
            "to the dealer", show=["seat", "n", "team_points", "pitch_rate"],
            method="observed in heuristic games, every hand of every seat; clustered by game")
    path = plots.bars(by_seat, "seat", "team_points", f"{spec.title}: team points per hand by seat relative to the "
                      "dealer\n(heuristic; partners sit two apart)", "seat relative to the dealer",
                      "team score change per hand (points)", r.fig_path("points_by_seat"),
                      colours=[plots.PALETTE[0], plots.PALETTE[1]] * 2,
                      legend=["the dealer's team", "the other team"] * 2)
    r.figure(path, "Points by seat relative to the dealer, 95% intervals (n = hands)")
    for _, row in rp.enough(by_seat).sort_values("pitch_rate", ascending=False).head(1).iterrows():
        r.finding(rp.finding_text(f"The seat {row['seat']} is the pitcher in {{value}} of the hands "
                                  "(heuristic games, {n} hands).", row.to_dict(), "pitch_rate"))

    sm = r.simulate("study", s.simulate)
    if "bids" in sm.tables:
        bids = rp.shares_from_ratios(sm.tables["bids"], "share", sm.hands)
        bids["n"] = bids["hands"]
        r.table("bids", bids, f"Bids and make rates over {sm.games:,} simulated games (heuristic)",
                method="simulation counts; the share of hands is a Wilson interval at the effective sample size")
