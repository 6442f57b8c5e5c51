"""Ninety-Nine's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

Which card is an escape (always playable) comes from the game's own table
(``strategies.IS_ESCAPE_CARD``); ranks from ``codes.RANK_NAMES``. Every record-based table
is clustered by game (the turns of a round, and the rounds of a game, are not independent).

The escape-card headline is **paired**: random first deals (``kernel.first_deals``) are played
as dealt and with each escape card dealt exchanged for a neutral card, everything else equal
(``kernel.exchange_chunk``), and the differences are clustered by deal; the observational
(record-based) forms follow it, labelled.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card
from analyzer.games.ninety_nine.codes import HAND_SIZE, P_DECKS, P_PLAYERS, RANK_NAMES
from analyzer.games.ninety_nine.strategies import IS_ESCAPE_CARD

RULES_BRIEF = (
    "An addition game for 2-10 players with one deck (two from 4 players). Each player holds 3 cards "
    "and plays one per turn to a pile whose total starts at 0, then draws. A 2 3 5 6 7 8 add their "
    "value, A adds 1 or 11, J and Q add 10, T adds 10 or takes 10 away, 9 adds 0, 4 adds 0 and "
    "reverses the direction, K sets the total to 99. A move may not take the total past 99: a player "
    "with no legal move *goes over*, pays a chip and the round ends. K, 4, 9 and T are the *escape* "
    "cards (always playable). A player who must pay with no chip left is out; the last player left wins.")

#: the escape ranks, from the game's table of escape cards
ESCAPE_RANKS = [RANK_NAMES[r] for r in range(13) if IS_ESCAPE_CARD[r]]


def is_escape(token: str) -> bool:
    return bool(IS_ESCAPE_CARD[parse_card(token) % 52])


def reduce_games(games: list[list[dict[str, Any]]], first: int, risk: rp.Cells, held: rp.Cells,
                 by_count: rp.Cells) -> None:
    """Per turn (pile total, escapes held, went over now / this round) into ``risk``; per dealt
    hand and escape rank (held or not, went over) into ``held``; per dealt hand the number of
    escapes into ``by_count``."""
    turns, hands_rows = [], []
    for g, game in enumerate(games, start=first):
        hands: list[list[str]] = []
        total, buster = 0, -1
        round_turns: list[dict[str, Any]] = []
        round_hands: list[tuple[int, list[str]]] = []
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                hands = [list(h) for h in e["hands"]]
                total, buster, round_turns = 0, -1, []
                round_hands = [(seat, list(h)) for seat, h in enumerate(hands) if h]
            elif ev in ("decide", "bust"):
                seat = int(e["seat"])
                escapes = sum(is_escape(c) for c in hands[seat])
                round_turns.append({"game": g, "seat": seat, "total": total, "escapes": escapes,
                                    "over_now": ev == "bust"})
                if ev == "decide" and e.get("card") in hands[seat]:
                    hands[seat].remove(e["card"])
                elif ev == "bust":
                    buster = seat
            elif ev == "pile":
                total = int(e["total"])
            elif ev == "draw":
                hands[int(e["seat"])].append(e["card"])
            elif ev == "hand_end":
                for t in round_turns:
                    t["over_this_round"] = t["seat"] == buster
                turns += round_turns
                for seat, h in round_hands:
                    ranks = {c[0] for c in h}
                    for rank in ESCAPE_RANKS:
                        hands_rows.append({"game": g, "card": rank, "held": rank in ranks,
                                           "escapes": sum(is_escape(c) for c in h), "went_over": seat == buster})
    turns_frame = pd.DataFrame(turns)
    if len(turns_frame):
        turns_frame["total_bin"] = (turns_frame["total"].clip(0, 99) // 10 * 10).astype(int)
        turns_frame["escapes_held"] = turns_frame["escapes"].clip(upper=2).map({0: "0", 1: "1", 2: "2+"})
        risk.add(turns_frame)
    frame = pd.DataFrame(hands_rows)
    held.add(frame)
    if len(frame):
        by_count.add(frame[frame["card"] == ESCAPE_RANKS[0]])


# ---- the paired escape-card study (counterfactual) -------------------------------------------

# A deal's *places* are kernel.exchange's: place p < 3 P is slot p % 3 of seat p // 3, place
# p >= 3 P is stock[p - 3 P] (the stock's first 3 P entries are the cards dealt, the rest is
# still to be drawn). The cards not yet played sit in *columns*: column c < 3 P is place c,
# column c >= 3 P is stock[c], place 3 P + c.


def _spec():
    from analyzer import games as registry

    return registry.get("ninety-nine")


def first_deals(rules: dict[str, Any], n: int, seed: int, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The first deals of games ``start .. start + n - 1`` of run ``seed`` (``kernel.first_deals``):
    hands int64[n, P, 3] and stock int64[n, 52 D] (``stock[:, 3 P:]`` still to be drawn)."""
    spec = _spec()
    params = spec.params(rules)
    players, cards = int(params[P_PLAYERS]), 52 * int(params[P_DECKS])
    hands = np.zeros((n, players, HAND_SIZE), dtype=np.int64)
    stock = np.zeros((n, cards), dtype=np.int64)
    spec.module("kernel").first_deals(np.uint64(seed), np.int64(start), params, hands, stock)
    return hands, stock


def dealt_cards(hands: np.ndarray, stock: np.ndarray) -> np.ndarray:
    """cards[n, 52 D - 3 P]: the hands' cards and the stock still to be drawn, by column."""
    n, players, _ = hands.shape
    room = players * HAND_SIZE
    return np.concatenate([hands.reshape(n, room), stock[:, room:]], axis=1)


def place_of(column: np.ndarray, room: int) -> np.ndarray:
    """The place of each column (``room`` = 3 P)."""
    return np.where(column < room, column, room + column)


def column_of(place: np.ndarray, room: int) -> np.ndarray:
    """The column of each place (``room`` = 3 P)."""
    return np.where(place < room, place, place - room)


def _uniforms(seed: int, deals: np.ndarray, places: np.ndarray) -> np.ndarray:
    """A uniform number in [0, 1) per (deal, place), from a hash of (seed, deal, place)
    (splitmix64's finaliser): each deal's choices are its own, whatever the batching."""
    with np.errstate(over="ignore"):
        z = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + deals.astype(np.uint64) * np.uint64(0xBF58476D1CE4E5B9)
             + places.astype(np.uint64) * np.uint64(0x94D049BB133111EB) + np.uint64(0x6A09E667F3BCC909))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def choose_exchanges(hands: np.ndarray, stock: np.ndarray, seed: int, start: int = 0) -> np.ndarray:
    """swaps int64[n, 1 + 3 P, 2] for ``kernel.exchange_chunk``: arm 0 plays the deal as dealt
    (place 0 with itself); arm 1 + p, where place p of a hand holds an escape card, exchanges
    it with a *neutral* card: a card of a non-escape rank outside that seat's hand (in another
    hand or in the stock still to be drawn), each such card equally likely; other arms unused
    (-1)."""
    n, players, _ = hands.shape
    room = players * HAND_SIZE
    cards = dealt_cards(hands, stock)
    owner = np.concatenate([np.arange(room) // HAND_SIZE, np.full(cards.shape[1] - room, -1)])
    escape = IS_ESCAPE_CARD[cards % 52].astype(bool)
    swaps = np.full((n, 1 + room, 2), -1, dtype=np.int64)
    swaps[:, 0, :] = 0
    deal, place = np.nonzero(escape[:, :room])
    if len(deal):
        neutral = ~escape[deal] & (owner[None, :] != (place // HAND_SIZE)[:, None])
        count = neutral.sum(axis=1)
        pick = np.floor(_uniforms(seed, start + deal, place) * count).astype(np.int64)
        # the first column where the count of candidates passes ``pick`` (int16: at most 104 columns)
        column = np.argmax(np.cumsum(neutral, axis=1, dtype=np.int16) > pick[:, None], axis=1)
        swaps[deal, 1 + place, 0] = place
        swaps[deal, 1 + place, 1] = place_of(column, room)
    return swaps


def play_exchanges(rules: dict[str, Any], swaps: np.ndarray, seed: int, start: int = 0,
                   threads: int = 1) -> np.ndarray:
    """result int64[n, arms, 2] of ``kernel.exchange_chunk`` (heuristic at every seat): per
    arm, the seat that went over in the first round and the winners' bit mask."""
    from analyzer.strategies import resolve_seats, strategy_array

    spec = _spec()
    params = spec.params(rules)
    strat, _ = strategy_array(spec, resolve_seats(spec, int(params[P_PLAYERS]), None))
    result = np.zeros((swaps.shape[0], swaps.shape[1], 2), dtype=np.int64)
    spec.user_kernel([]).exchange_chunk(np.uint64(seed), np.int64(start), params, strat, swaps, result,
                                       np.int64(max(1, min(len(swaps), 4 * threads))))
    return result


def paired_frame(hands: np.ndarray, stock: np.ndarray, swaps: np.ndarray, result: np.ndarray,
                 start: int = 0) -> pd.DataFrame:
    """One row per escape card dealt: its deal, seat, rank, the escapes in that hand, the
    neutral card put in its place (rank, where it came from), and for the seat as dealt
    (``with``) and with the card exchanged (``without``): went over in the first round, won
    the game; ``*_diff`` = with - without."""
    n, players, _ = hands.shape
    room = players * HAND_SIZE
    deal, arm = np.nonzero(swaps[:, 1:, 0] >= 0)
    place, other = swaps[deal, 1 + arm, 0], swaps[deal, 1 + arm, 1]
    seat = place // HAND_SIZE
    cards = dealt_cards(hands, stock)
    card, neutral = cards[deal, place], cards[deal, column_of(other, room)]
    escapes = IS_ESCAPE_CARD[hands % 52].sum(axis=2)[deal, seat]
    base, swapped = result[deal, 0], result[deal, 1 + arm]
    ranks = np.array(list(RANK_NAMES))
    frame = pd.DataFrame({  # small integer columns: the frame stays small (about 50 bytes a row)
        "deal": (start + deal).astype(np.int64), "seat": seat.astype(np.int8), "card": ranks[card % 13],
        "escapes": escapes.astype(np.int8), "neutral": ranks[neutral % 13],
        "neutral_from": np.where(other < room, "hand", "stock"),
        "over_with": (base[:, 0] == seat).astype(np.int8), "over_without": (swapped[:, 0] == seat).astype(np.int8),
        "won_with": ((base[:, 1] >> seat) & 1).astype(np.int8),
        "won_without": ((swapped[:, 1] >> seat) & 1).astype(np.int8)})
    frame["over_diff"] = frame["over_with"] - frame["over_without"]
    frame["won_diff"] = frame["won_with"] - frame["won_without"]
    return frame


def paired_escape_frame(rules: dict[str, Any], n: int, seed: int, start: int = 0, threads: int = 1) -> pd.DataFrame:
    """``paired_frame`` of games ``start .. start + n - 1``: dealt, exchanged, played."""
    hands, stock = first_deals(rules, n, seed, start)
    swaps = choose_exchanges(hands, stock, seed, start)
    return paired_frame(hands, stock, swaps, play_exchanges(rules, swaps, seed, start, threads), start)


#: the paired table's measures: as dealt, exchanged, and the paired difference (clustered by deal)
PAIRED_MEASURES = {"with": ("over_with", "prop"), "without": ("over_without", "prop"),
                   "difference": ("over_diff", "mean"), "won_with": ("won_with", "prop"),
                   "won_without": ("won_without", "prop"), "won_difference": ("won_diff", "mean")}


def paired_table(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per value of ``by``: n (escape cards exchanged), deals (clusters) and PAIRED_MEASURES,
    every interval clustered by deal (the cards of one deal share its play)."""
    table = rp.grouped(frame, by, PAIRED_MEASURES, cluster="deal").rename(columns={"clusters": "deals"})
    for name in ("difference", "won_difference"):  # a difference of two shares lies in [-1, 1]
        table[name + "_lo"] = table[name + "_lo"].clip(-1.0, 1.0)
        table[name + "_hi"] = table[name + "_hi"].clip(-1.0, 1.0)
    return table


def risk_findings(risk: pd.DataFrame) -> list[str]:
    """The riskiest cell without an escape, and the same totals with one."""
    found = []
    sized = rp.enough(risk)
    none = sized[sized["escapes_held"] == "0"]
    if len(none):
        row = none.loc[none["over_this_round"].idxmax()].to_dict()
        found.append(rp.finding_text(
            f"Holding no escape card at a pile total of {row['totals']}, the player to move goes over this round "
            "in {value} of turns ({n} turns of {clusters}).", row, "over_this_round"))
        with_one = sized[(sized["escapes_held"] != "0") & (sized["total_bin"] == row["total_bin"])]
        if len(with_one):
            other = with_one.iloc[0].to_dict()
            found.append(rp.finding_text(
                f"With {other['escapes_held']} escape card(s) at the same totals ({row['totals']}) the risk falls "
                "to {value} ({n} turns of {clusters}).", other, "over_this_round"))
    return [f for f in found if f]


def card_difference(frame: pd.DataFrame, a: str, b: str) -> tuple[float, float, float]:
    """Escape card ``a``'s paired difference (``over_diff``, with - without) minus card
    ``b``'s, with its 95% interval clustered by deal (a deal that dealt both cards counts
    their covariance: the design is paired)."""
    part = frame[frame["card"].isin([a, b])]
    per = part.groupby(["deal", "card"], observed=True)["over_diff"].agg(["sum", "count"]).unstack("card", fill_value=0)
    return rp.clustered_difference(per[("sum", a)], per[("count", a)], per[("sum", b)], per[("count", b)])


def escape_findings(value: pd.DataFrame, difference) -> list[str]:
    """From the paired table: the most protective escape card and the least, each named so
    only where its difference to every other card excludes 0 (``difference(a, b)``: card a's
    effect minus card b's, paired by deal: ``card_difference``); otherwise the finding says
    which card it cannot be told from."""
    sized = rp.enough(value, clusters="deals")
    found = []
    for lead, most in ((rp.leader(sized, "card", "difference", difference, highest=False), "most"),
                       (rp.leader(sized, "card", "difference", difference, highest=True), "least")):
        if lead is None:
            continue
        row, other, gap = lead.row, lead.other, rp.interval_text(*lead.difference, fmt="{:+.3f}")
        if lead.apart:
            rank = f"the {most} protective escape card, by {gap} against the {other}"
        else:
            rank = f"not told apart from the {other} as the {most} protective: difference {gap}"
        found.append(rp.finding_text(
            f"Holding a {row['card']} rather than an ordinary card (the same deal otherwise) changes the chance of "
            f"going over this round by {{value}} ({rank}; {{n}} dealt cards in {{clusters}}, paired).", row,
            "difference", fmt="{:+.3f}", clusters="deals", unit="deals"))
    return [f for f in found if f]


def sized_paired_frame(r, rules: dict[str, Any]) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """The paired frame grown by ``sizes.deals`` deals at a time until every escape rank's
    paired difference has a 95% half-width of at most ``sizes.convergence_target`` (or
    ``sizes.convergence_max`` deals are played); the looks (deals, widest half-width)."""
    s = r.sizes
    threads = r.workers or os.cpu_count() or 1  # only how the deals are cut into blocks: no effect on results
    parts: list[pd.DataFrame] = []
    looks: list[dict[str, Any]] = []
    by_card = rp.Cells("card", PAIRED_MEASURES, cluster="deal")  # the looks' table, reduced batch by batch
    done = 0
    while done < s.convergence_max:
        n = min(s.deals, s.convergence_max - done)
        parts.append(paired_escape_frame(rules, n, r.seed, done, threads))
        by_card.add(parts[-1])
        done += n
        table = by_card.table()
        widest = float(((table["difference_hi"] - table["difference_lo"]) / 2).max())
        looks.append({"deals": done, "half_width": widest})
        if widest <= s.convergence_target:
            break
    return pd.concat(parts, ignore_index=True), looks


def _escape_section(r, spec, rules: dict[str, Any], held: rp.Cells, by_count: rp.Cells) -> None:
    """The paired (counterfactual) escape-card tables first, the observational ones after."""
    s = r.sizes
    r.h(3, "Value of holding each escape card (paired)")
    frame, looks = r.run("study", "kernel.first_deals + kernel.exchange_chunk (paired, sequential)",
                         lambda: sized_paired_frame(r, rules), strategies="heuristic (all)")
    # the provenance row's sizes are known only once the sequential sizing has stopped
    r.runs[-1]["deals"] = f"{looks[-1]['deals']:,}"
    r.runs[-1]["games"] = f"{looks[-1]['deals'] + len(frame):,}"
    deals, width = looks[-1]["deals"], looks[-1]["half_width"]
    method = (f"{deals:,} random first deals of heuristic games (default rules), each played to the end as "
              "dealt and again once per escape card dealt with that card exchanged for a neutral card (a "
              "non-escape card outside that hand, each equally likely, from another hand or the stock still to "
              "be drawn), the same deal, stock order and streams otherwise; intervals clustered by deal")
    r.p(f"Each escape card dealt to a seat is taken out of the same deal and replaced by a neutral card: the "
        f"rows compare **the same deals** with and without it. Deals were added {s.deals:,} at a time until every "
        f"card's difference had a 95% half-width of at most {s.convergence_target} (or {s.convergence_max:,} "
        f"deals): {deals:,} deals, widest half-width {width:.4f}. `with` / `without`: chance that the seat goes "
        "over in this (the first) round; `won_*`: chance that it wins the game.")
    value = paired_table(frame, "card")
    r.table("escape_card_value", value, "Chance of going over this round with each escape card as dealt and with "
            "it exchanged for a neutral card; `difference` = with - without (negative: the card protects), "
            "n = escape cards dealt", method=method,
            show=["card", "n", "deals", "with", "without", "difference", "won_difference"], clusters="deals")
    path = plots.bars(rp.enough(value, clusters="deals"), "card", "difference",
                      f"{spec.title}: change in the chance to go over by escape card held\n"
                      f"(paired: same deals, card exchanged for a neutral one; {deals:,} deals)",
                      "escape card dealt", "change in chance to go over (with - without)",
                      r.fig_path("escape_card_value"), reference=0.0, reference_label="no effect")
    r.figure(path, "Value of holding each escape card at the deal (paired), 95% intervals clustered by deal")
    for text in escape_findings(value, lambda a, b: card_difference(frame, a, b)):
        r.finding(text)
    count = paired_table(frame, "escapes")
    r.table("went_over_by_escapes_dealt", count, "Chance of going over this round by the number of escape cards "
            "dealt to the seat, as dealt (`with`) and with one of them exchanged for a neutral card (`without`: "
            "one escape fewer); n = escape cards dealt", method=method + "; each of a hand's escape cards is "
            "exchanged in turn", show=["escapes", "n", "deals", "with", "without", "difference", "won_difference"],
            clusters="deals")

    r.h(4, "Observational form (not paired)")
    observed = held.difference("held", "went_over", within=["card"])
    rates = held.table()
    for flag, name in ((True, "with"), (False, "without")):
        part = rates[rates["held"] == flag].set_index("card")
        for suffix in ("", "_lo", "_hi"):
            observed[name + suffix] = observed["card"].map(part["went_over" + suffix])
    r.table("escape_card_value_observed", observed, "Chance of going over this round for recorded hands dealt with "
            "and without each escape card (observational)",
            show=["card", "n_with", "n_without", "with", "without", "difference"],
            method="observational: recorded heuristic games, hands with against hands without the card (random "
                   "deals, not paired: the card stands for a random other card); clustered by game")
    r.table("went_over_by_escapes_dealt_observed", by_count.table(), "Chance of going over this round by the "
            "number of escape cards dealt (observational)",
            method="observational: recorded heuristic games, the dealt hands; clustered by game")


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    risk = rp.Cells(["total_bin", "escapes_held"], {"over_this_round": ("over_this_round", "prop"),
                                                    "over_now": ("over_now", "prop")})
    held = rp.Cells(["card", "held"], {"went_over": ("went_over", "prop")})
    by_count = rp.Cells("escapes", {"went_over": ("went_over", "prop")})
    r.records("study", s.records, lambda games, first: reduce_games(games, first, risk, held, by_count))
    r.p(f"The observational tables come from the records of {s.records:,} games of `heuristic` players "
        f"({risk.observations:,} turns) with the default rules, every interval clustered by game; the paired "
        "escape-card tables from deals played twice, clustered by deal.")

    r.h(3, "Risk of going over by pile total and hand")
    table = risk.table()
    table.insert(1, "totals", table["total_bin"].map(lambda t: f"{t}-{t + 9}"))
    r.table("risk_by_total_and_hand", table, "Chance that the player to move goes over in this round (and at once), "
            f"by pile total at the turn and escape cards ({' '.join(ESCAPE_RANKS)}) held",
            show=["totals", "escapes_held", "n", "over_this_round", "over_now"],
            method="observational: the turns heuristic players reached in recorded games (a turn at a high total "
                   "with no escape is a position the heuristic let happen, not a random one); clustered by game")
    path = plots.lines(rp.enough(table), "total_bin", "over_this_round",
                       f"{spec.title}: chance to go over this round by pile total at your turn\n"
                       f"({s.records:,} heuristic games)", "pile total at the turn (points, bins of 10)",
                       "chance to go over this round (share of turns)", r.fig_path("risk_by_total"),
                       group="escapes_held", group_label="escapes held:", count="n", min_count=rp.MIN_N)
    r.figure(path, f"Risk of going over this round by pile total and escape cards held (points with n >= {rp.MIN_N} "
             f"turns of {rp.MIN_N}+ games)")
    for text in risk_findings(table):
        r.finding(text)

    _escape_section(r, spec, rules, held, by_count)

    r.h(3, "Seat position")
    summary = r.simulate("study", s.simulate)
    seats = summary.tables["seats"].copy()
    seats["n"] = seats["games"]
    r.table("seats", seats, f"Win rate by seat ({summary.games:,} games, heuristic everywhere; the first dealer "
            "is random, so seats should be even)", show=["seat", "strategy", "games", "win_rate", "busts_per_round"])
    positions = summary.tables.get("positions")
    if positions is not None:
        positions = positions.copy()
        positions["n"] = positions["rounds"]
        positions["games"] = summary.games
        r.table("positions", positions, "Chance of going over by position relative to the dealer (dealer+1 plays "
                "first)", method="simulation; per-round rates, clustered by game", clusters="games")
        path = plots.bars(positions, "label", "bust_rate",
                          f"{spec.title}: chance to go over by position relative to the dealer\n"
                          f"({summary.games:,} games, {summary.hands:,} rounds, heuristic)",
                          "position (dealer+1 plays first)", "chance to go over (share of rounds)",
                          r.fig_path("position_bust_rate"), reference=1 / spec.players(rules),
                          reference_label="1 / players", count="rounds")
        r.figure(path, "Going over by position relative to the dealer, 95% intervals")

    r.h(3, "Number of players")
    rows, pos_rows = [], []
    for p in range(spec.min_players, min(spec.max_players, s.max_sweep_players) + 1):
        sm = r.simulate("study", s.simulate, players=p)
        row: dict[str, Any] = {"players": p, "games": sm.games, "n": sm.games}
        for key in ("rounds_per_game", "plays_per_round"):
            if key in sm.totals:
                rp.put(row, key, (sm.totals[key], sm.totals.get(key + "_lo"), sm.totals.get(key + "_hi")))
        rows.append(row)
        pos = sm.tables.get("positions")
        for _, prow in (pos.iterrows() if pos is not None else []):
            pos_rows.append({"players": p, "position": int(prow["position"]), "label": prow["label"],
                             "rounds": int(prow["rounds"]), "n": int(prow["rounds"]), "games": sm.games,
                             "bust_rate": prow["bust_rate"],
                             "bust_rate_lo": prow["bust_rate_lo"], "bust_rate_hi": prow["bust_rate_hi"]})
    r.table("players_sweep", pd.DataFrame(rows), "Length of the game by number of players (heuristic everywhere; "
            "decks and chips follow the player count)")
    if pos_rows:
        pos_frame = pd.DataFrame(pos_rows)
        r.table("players_positions", pos_frame, "Chance of going over by position relative to the dealer, for each "
                "number of players", method="simulation; per-round rates, clustered by game", clusters="games")
        path = plots.lines(rp.enough(pos_frame, clusters="games"), "position", "bust_rate",
                           f"{spec.title}: chance to go over by position and number of players\n"
                           f"({s.simulate:,} games each, heuristic)", "position after the dealer (0 = dealer)",
                           "chance to go over (share of rounds)", r.fig_path("players_positions"),
                           group="players", group_label="players:", count="n", min_count=rp.MIN_N)
        r.figure(path, "Going over by position relative to the dealer for each number of players")
