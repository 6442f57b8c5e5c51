"""Ninety-Nine's report study (analyzer/report.py calls ``build``; ``RULES_BRIEF`` is its
rules prose). Plain Python: it compiles nothing and no compiled module imports it.

Which card is an escape (always playable) comes from the game's own table
(``strategies.IS_ESCAPE_CARD``); ranks from ``codes.RANK_NAMES``. Every record-based table
is clustered by game (the turns of a round, and the rounds of a game, are not independent).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer import report as rp
from analyzer import report_plots as plots
from analyzer.cards import parse_card
from analyzer.games.ninety_nine.codes import RANK_NAMES
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


def risk_findings(risk: pd.DataFrame) -> list[str]:
    """The riskiest cell without an escape, and the same totals with one."""
    found = []
    sized = rp.enough(risk)
    none = sized[sized["escapes_held"] == "0"]
    if len(none):
        row = none.loc[none["over_this_round"].idxmax()].to_dict()
        found.append(rp.finding_text(
            f"Holding no escape card at a pile total of {row['totals']}, the player to move goes over this round "
            "in {value} of turns ({n} turns).", row, "over_this_round"))
        with_one = sized[(sized["escapes_held"] != "0") & (sized["total_bin"] == row["total_bin"])]
        if len(with_one):
            other = with_one.iloc[0].to_dict()
            found.append(rp.finding_text(
                f"With {other['escapes_held']} escape card(s) at the same totals ({row['totals']}) the risk falls "
                "to {value} ({n} turns).", other, "over_this_round"))
    return [f for f in found if f]


def escape_findings(value: pd.DataFrame) -> list[str]:
    sized = rp.enough(value)
    if sized.empty:
        return []
    row = sized.loc[sized["difference"].idxmin()].to_dict()
    return [f for f in [rp.finding_text(
        f"Being dealt a {row['card']} changes the chance of going over this round by {{value}} (the most "
        "protective escape card; {n} hands without it or with it, whichever is fewer).", row, "difference",
        fmt="{:+.3f}")] if f]


def build(r, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    risk = rp.Cells(["total_bin", "escapes_held"], {"over_this_round": ("over_this_round", "prop"),
                                                    "over_now": ("over_now", "prop")})
    held = rp.Cells(["card", "held"], {"went_over": ("went_over", "prop")})
    by_count = rp.Cells("escapes", {"went_over": ("went_over", "prop")})
    r.records("study", s.records, lambda games, first: reduce_games(games, first, risk, held, by_count))
    r.p(f"From the records of {s.records:,} games of `heuristic` players ({risk.observations:,} turns) with the "
        "default rules; every interval is clustered by game.")

    r.h(3, "Risk of going over by pile total and hand")
    table = risk.table()
    table.insert(1, "totals", table["total_bin"].map(lambda t: f"{t}-{t + 9}"))
    r.table("risk_by_total_and_hand", table, "Chance that the player to move goes over in this round (and at once), "
            f"by pile total at the turn and escape cards ({' '.join(ESCAPE_RANKS)}) held",
            show=["totals", "escapes_held", "n", "over_this_round", "over_now"],
            method="observed in heuristic games (the turns a heuristic player reached); clustered by game")
    path = plots.lines(table, "total_bin", "over_this_round",
                       f"{spec.title}: chance to go over this round by pile total at your turn\n"
                       f"({s.records:,} heuristic games)", "pile total at the turn (points, bins of 10)",
                       "chance to go over this round (share of turns)", r.fig_path("risk_by_total"),
                       group="escapes_held", group_label="escapes held:", count="n", min_count=rp.MIN_N)
    r.figure(path, f"Risk of going over this round by pile total and escape cards held (points with n >= {rp.MIN_N})")
    for text in risk_findings(table):
        r.finding(text)

    r.h(3, "Value of holding each escape card")
    value = held.difference("held", "went_over", within=["card"])
    rates = held.table()
    for flag, name in ((True, "with"), (False, "without")):
        part = rates[rates["held"] == flag].set_index("card")
        for suffix in ("", "_lo", "_hi"):
            value[name + suffix] = value["card"].map(part["went_over" + suffix])
    r.table("escape_card_value", value, "Chance of going over this round for hands dealt with and without each "
            "escape card; `difference` = with - without (negative: the card protects)",
            show=["card", "n_with", "n_without", "with", "without", "difference"],
            method="dealt hands are random, so with against without compares random deals (a natural experiment, "
                   "not paired: the card stands for a random other card); clustered by game")
    shown = rp.enough(value)
    path = plots.bars(shown, "card", "difference",
                      f"{spec.title}: change in the chance to go over this round\nwhen dealt each escape card "
                      f"(heuristic; n = the smaller of with / without)", "escape card dealt",
                      "change in chance to go over (with - without)", r.fig_path("escape_card_value"),
                      reference=0.0, reference_label="no effect")
    r.figure(path, "Value of holding each escape card at the deal, 95% intervals")
    for text in escape_findings(value):
        r.finding(text)
    r.table("went_over_by_escapes_dealt", by_count.table(), "Chance of going over this round by the number of "
            "escape cards dealt", method="dealt hands (random); clustered by game")

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
        r.table("positions", positions, "Chance of going over by position relative to the dealer (dealer+1 plays "
                "first)", method="simulation; per-round rates")
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
                             "rounds": int(prow["rounds"]), "n": int(prow["rounds"]), "bust_rate": prow["bust_rate"],
                             "bust_rate_lo": prow["bust_rate_lo"], "bust_rate_hi": prow["bust_rate_hi"]})
    r.table("players_sweep", pd.DataFrame(rows), "Length of the game by number of players (heuristic everywhere; "
            "decks and chips follow the player count)")
    if pos_rows:
        pos_frame = pd.DataFrame(pos_rows)
        r.table("players_positions", pos_frame, "Chance of going over by position relative to the dealer, for each "
                "number of players")
        path = plots.lines(pos_frame, "position", "bust_rate",
                           f"{spec.title}: chance to go over by position and number of players\n"
                           f"({s.simulate:,} games each, heuristic)", "position after the dealer (0 = dealer)",
                           "chance to go over (share of rounds)", r.fig_path("players_positions"),
                           group="players", group_label="players:", count="n", min_count=rp.MIN_N)
        r.figure(path, "Going over by position relative to the dealer for each number of players")
