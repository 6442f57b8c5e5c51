"""10-Point Pitch's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

The headline table is **counterfactual**: hands are dealt (the deal events of recorded
games: every seat's nine cards, whoever won the bid), and for each the seat is made the
pitcher in each trump suit on the same sampled deals (the game's ``bid_table_chunk``: the
kernel behind ``evaluate``'s bid table), the rest played by the heuristic. The keep-or-give
table is **paired**: the pitcher's recorded keep-or-give decisions, each played on the same
draws of the hidden cards once keeping and once giving (``evaluate_chunk``). Rule facts come
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
from analyzer.games.pitch10.spec import load_position, position_from_record
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
        table["n"] = table.pop("clusters")  # n = dealt hands, the clusters (rollouts are clustered within them)
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
    order_of = {length_label(v, low, high): v for v in range(low, high + 1)}
    for text in bid_findings(table, lambda label, a, b: bid_difference(frame, "order", order_of[label], a, b)):
        r.finding(text)


def bid_difference(frame: pd.DataFrame, by: str, value: Any, a: str, b: str) -> tuple[float, float, float]:
    """The expected score change of bid ``a`` minus bid ``b`` for the hands of class ``value``
    of ``by`` (``frame``: ``bid_frame``'s rows), paired: both bids are scored on the same hands
    and rollouts, so the interval is that of the per-hand differences (clustered by hand)."""
    part = frame[frame[by] == value]
    per = part.groupby("hand")[[f"score_{a}", f"score_{b}"]].agg(["sum", "count"])
    return rp.clustered_difference(per[(f"score_{a}", "sum")], per[(f"score_{a}", "count")],
                                   per[(f"score_{b}", "sum")], per[(f"score_{b}", "count")])


def bid_findings(table: pd.DataFrame, difference) -> list[str]:
    """From the bid table: the bid with the best expected score for the class with the most
    dealt hands, called the best only where its paired difference to every other bid excludes
    0 (``difference(class, a, b)``: bid a's score change minus bid b's, ``bid_difference``;
    else the finding says which bid it cannot be told from), and how often that bid is made."""
    found = []
    sized = rp.enough(table[table["bid"] != "moon"])
    if sized.empty:
        return found
    common = sized.loc[sized["n"].idxmax(), "trump_length"]
    part = sized[sized["trump_length"] == common]
    lead = rp.leader(part, "bid", "score_change", lambda a, b: difference(common, a, b))
    best = (lead.row if lead else part.iloc[0].to_dict())
    if lead is None:
        rank = f"the only bid of {rp.MIN_N}+ hands"
    elif lead.apart:
        rank = (f"the bid with the best expected score, by {rp.interval_text(*lead.difference, fmt='{:+.2f}')} "
                f"against bidding {lead.other}")
    else:
        rank = (f"not told apart from bidding {lead.other} as the best bid: difference "
                f"{rp.interval_text(*lead.difference, fmt='{:+.2f}')}")
    found.append(rp.finding_text(
        f"With {common} trumps in your longest suit (the class with the most dealt hands here), bidding {best['bid']} "
        f"as pitcher changes your team's score by {{value}} points per hand ({rank}; counterfactual, paired, {{n}} "
        "dealt hands).", best, "score_change", fmt="{:+.2f}"))
    found.append(rp.finding_text(f"A hand with {common} trumps makes a bid of {best['bid']} "
                                 "{value} of the time as pitcher ({n} dealt hands).", best, "make_chance"))
    return [f for f in found if f]


# ---- keep or give: paired at the pitcher's recorded decisions ----------------------------------

#: the paired measures of the keep-or-give study: name -> index of the kernel's result column
GIVE_MEASURES = {"made the bid": 0, "won the game": 1}
#: keep-or-give positions of the paired study: one for every this many dealt hands of the bid table
DEALS_PER_POSITION = 3


def give_outcomes(rules: dict[str, Any], positions: list[dict[str, Any]], rollouts: int, seed: int) -> np.ndarray:
    """result[h, j, o, m]: outcome m (0: the pitcher's team made its bid, 1: it won the game;
    ``GIVE_MEASURES``) of position h's rollout j when the pitcher keeps (o = 0) or gives
    (o = 1) the rest of the stock: the same hidden cards and future for both (the game's
    ``evaluate_chunk``, streams h * rollouts + j), the heuristic playing every seat after.
    The hidden cards are drawn to fit the other seats' bids under the heuristic's bidding (as
    ``evaluate`` does); a position where no draw fits gets -998 in every cell."""
    from analyzer import games as registry
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get("pitch10")
    kernel = spec.user_kernel([])
    params = spec.params(rules)
    strat, _ = strategy_array(spec, resolve_seats(spec, 4, None))
    options = np.array([spec.move_code("keep"), spec.move_code("give")], dtype=np.int64)
    no_worlds = np.zeros((0, 4), dtype=np.int64)
    out = np.zeros((len(positions), rollouts, 2, 2), dtype=np.int64)
    for h, position in enumerate(positions):
        pos = load_position(rules, position, params)
        kernel.evaluate_chunk(np.uint64(seed), np.int64(h * rollouts), params, strat, pos.ws, pos.seat, options,
                              no_worlds, out[h], np.int64(min(rollouts, 8)), False, True, False)
    return out


def give_frame(outcomes: np.ndarray, trumps: list[int], played: list[str]) -> pd.DataFrame:
    """One row per position: the pitcher's trumps, the heuristic's move there, and per measure
    the mean over the rollouts when keeping and when giving (positions without a fitting
    draw dropped)."""
    fitted = (outcomes[:, :, :, 0] >= 0).all(axis=(1, 2))
    means = outcomes[fitted].mean(axis=1)  # [h, option, measure]
    frame = pd.DataFrame({"trumps": np.asarray(trumps)[fitted],
                          "heuristic_gives": (np.asarray(played)[fitted] == "give").astype(float)})
    for name, m in GIVE_MEASURES.items():
        frame[f"{name}|keep"] = means[:, 0, m]
        frame[f"{name}|give"] = means[:, 1, m]
    return frame


def give_table(frame: pd.DataFrame, low: int, high: int) -> pd.DataFrame:
    """Per class of the pitcher's trumps (ends merged at ``low`` and ``high``) and measure: n
    (positions), the chance when giving and when keeping, give - keep paired (clustered by
    position), and how often the heuristic gave there (``rp.paired_choice_rows``)."""
    order = frame["trumps"].clip(low, high)
    rows = []
    for value in sorted(order.unique()):
        rows += rp.paired_choice_rows(frame[order == value], {"trumps": length_label(int(value), low, high)},
                                      GIVE_MEASURES, "give", "keep", "heuristic_gives")
    return pd.DataFrame(rows)


def give_findings(table: pd.DataFrame) -> list[str]:
    """From the keep-or-give table: the class where giving changes the chance to make the bid
    the most (either way), when its interval excludes no change."""
    clear = pd.concat(rp.clear_effects(table, "made the bid"))
    if clear.empty:
        return []
    row = clear.loc[clear["difference"].abs().idxmax()].to_dict()
    verdict = "giving helps" if row["difference"] > 0 else "keeping is better"
    text = rp.finding_text(f"As pitcher holding {row['trumps']} trumps after the refill, giving the rest of the "
                           "stock to your partner changes the chance to make the bid by {value} against keeping it "
                           f"({verdict}; paired, {{n}} positions).", row, "difference", fmt="{:+.3f}")
    return [text] if text else []


def _give_section(r, spec, rules: dict[str, Any], gives: list[tuple[dict[str, Any], int, str]]) -> None:
    s = r.sizes
    r.h(3, "Keep the rest of the stock or give it to the partner? (paired)")
    if not gives:
        r.p("No keep-or-give decision in the recorded games.")
        return
    positions, trumps, played = (list(x) for x in zip(*gives))
    outcomes = r.run("study", "kernel.evaluate_chunk per keep-or-give decision",
                     lambda: give_outcomes(rules, positions, s.rollouts, r.seed), deals=len(positions),
                     games=len(positions) * s.rollouts * 2, strategies="heuristic (every seat, both arms)")
    frame = give_frame(outcomes, trumps, played)
    low, high = merge_bins(frame["trumps"].value_counts().to_dict())
    table = give_table(frame, low, high)
    dropped = len(positions) - len(frame)
    method = (f"paired: the pitcher's first {len(positions):,} keep-or-give decisions of the recorded heuristic "
              f"games{f' ({dropped} without a draw fitting the bids dropped)' if dropped else ''}, each played "
              f"on {s.rollouts} draws of the hidden cards fitting what the pitcher saw and the bids (as evaluate "
              "does), once keeping and once giving, the same draw and future for both, the heuristic playing on; "
              "difference = give - keep, its 95% interval clustered by position")
    r.p("Rows are the pitcher's trumps at the decision (after the refill, before the rest is seen), ends merged "
        f"until each has {rp.MIN_N}+ positions. Each cell compares the same positions and the same draws of the "
        "hidden cards played on after keeping and after giving, so it answers \"should I give the rest here?\" "
        "rather than describing the hands where the heuristic chose to give; `heuristic_gives` is how often "
        "it did.")
    r.table("give_value_paired", table, "Keeping or giving the rest of the stock: the pitcher's team's chance "
            "to make the bid and to win the game, paired", method=method,
            show=["trumps", "measure", "n", "keep", "give", "difference", "heuristic_gives"])
    made = table[table["measure"] == "made the bid"].reset_index(drop=True)
    shown = rp.enough(made)
    if len(shown):
        path = plots.bars(shown, "trumps", "difference", f"{spec.title}: chance to make the bid, giving the rest "
                          f"minus keeping it\n(paired, {len(frame):,} positions x {s.rollouts} draws, heuristic play)",
                          "pitcher's trumps at the decision", "chance to make the bid (give - keep)",
                          r.fig_path("give_value"), reference=0.0, reference_label="no effect")
        r.figure(path, "Giving the rest minus keeping it, paired, 95% intervals (n = positions; above 0: give)")
    for text in give_findings(table):
        r.finding(text)


# ---- observed tables (heuristic games) ----------------------------------------------------------

def reduce_games(games: list[list[dict[str, Any]]], first: int, hands: rp.Cells, seats: rp.Cells,
                 deals: list, want: int, gives: list, want_gives: int) -> None:
    """Per recorded hand: the pitcher's facts (into ``hands``), each seat's team points
    (``seats``), the first ``want`` dealt hands of every seat (``deals``: seat, dealer, nine
    cards) and the first ``want_gives`` keep-or-give decisions (``gives``: the position as the
    pitcher saw it, the pitcher's trumps then, the move the heuristic made)."""
    hand_rows, seat_rows = [], []
    for g, game in enumerate(games, start=first):
        dealt: list[list[str]] = []
        dealer, pitcher, bid, trump, decisions = 0, -1, "", -1, 0
        refill: dict[int, list[str]] = {}
        for e in game[1:]:
            ev = e["ev"]
            decisions += ev == "decide"
            if ev == "deal":
                dealt, dealer, pitcher, bid, trump, refill = e["hands"], int(e["dealer"]), -1, "", -1, {}
                for seat in range(4):
                    if len(deals) < want:
                        deals.append((seat, dealer, list(dealt[seat])))
            elif ev == "pitcher":
                pitcher, bid = int(e["seat"]), str(e["bid"])
            elif ev == "decide" and e.get("kind") == "trump":
                trump = codes.SUITS.index(str(e["move"]))
            elif ev == "decide" and e.get("kind") == "give" and len(gives) < want_gives:
                held = trumps_by_suit(dealt[pitcher] + refill.get(pitcher, []))[trump]
                gives.append((position_from_record(game, decisions), int(held), str(e["move"])))
            elif ev == "refill":
                refill[int(e["seat"])] = list(e["cards"])
            elif ev == "hand_end" and pitcher >= 0:
                team = pitcher % 2
                taken = float(e.get("taken", [np.nan, np.nan])[team])
                need = codes.ALL_POINTS if bid == "moon" else int(bid)
                hand_rows.append({"game": g, "bid": bid, "order": need + (bid == "moon"), "taken": taken,
                                  "made": taken >= need})
                for rel in range(4):
                    seat = (dealer + rel) % 4
                    seat_rows.append({"game": g, "relative_seat": rel, "pitched": seat == pitcher,
                                      "team_points": float(e["points"][seat % 2])})
    hands.add(pd.DataFrame(hand_rows))
    seats.add(pd.DataFrame(seat_rows))


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    hands = rp.Cells(["order", "bid"], {"made": ("made", "prop"), "taken": ("taken", "mean")})
    seats = rp.Cells("relative_seat", {"team_points": ("team_points", "mean"), "pitch_rate": ("pitched", "prop")})
    deals: list[tuple[int, int, list[str]]] = []
    gives: list[tuple[dict[str, Any], int, str]] = []
    r.records("study", s.records, lambda games, first: reduce_games(games, first, hands, seats, deals, s.deals,
                                                                    gives, s.deals // DEALS_PER_POSITION))
    r.p(f"The bid tables and the keep-or-give table are counterfactual (below); the other tables are read from "
        f"the records of {s.records:,} games of `heuristic` players, clustered by game.")
    _bid_section(r, spec, rules, deals)
    _give_section(r, spec, rules, gives)

    r.h(3, "Bids the heuristic made (observed)")
    made = hands.table().sort_values("order").drop(columns="order")
    r.table("bids_made", made, "Bids the heuristic won the bidding with and how often they were made",
            method="observed in heuristic games (selection-biased: only the hands that won the bid); clustered "
                   "by game")

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
                                  "(heuristic games, {n} hands of {clusters}).", row.to_dict(), "pitch_rate"))

    sm = r.simulate("study", s.simulate)
    if "bids" in sm.tables:
        bids = sm.tables["bids"].copy()
        bids["n"], bids["games"] = bids["hands"], sm.games
        r.table("bids", bids, f"Bids and make rates over {sm.games:,} simulated games (heuristic)",
                method="simulation counts; the share of hands and the make rate are Wilson intervals at the effective "
                       "sample size of the per-game counts (clustered by game)", clusters="games")
