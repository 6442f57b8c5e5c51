"""Ninety-Nine: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.cards import tokens, token
from analyzer.errors import AnalyzerError
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

# must match kernel.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_PILE, EV_DRAW, EV_RESHUFFLE, EV_BUST, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK, TAG_CHIPS = 100, 101
MOVE_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T+10", "T-10", "J", "Q", "K", "A+1", "A+11")


class NinetyNineSpec(GameSpec):
    def check_rules(self, rules: dict[str, Any]) -> None:
        needed = 3 * rules["players"] + 2
        if 52 * rules["decks"] < needed:
            raise AnalyzerError(
                f"{rules['decks']} deck(s) cannot deal 3 cards to {rules['players']} players and keep a pile"
            )

    def move_name(self, code: int) -> str:
        return MOVE_NAMES[code] if 0 <= code < len(MOVE_NAMES) else f"<move code {code}>"

    def move_code(self, name: str) -> int:
        return MOVE_NAMES.index(name)

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        p = rules["players"]
        return ([f"busts_{s}" for s in range(p)] + [f"busts_pos_{k}" for k in range(p)]
                + [f"rounds_pos_{k}" for k in range(p)])

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        p = rules["players"]
        return ([(f"busts_{s}", "hands") for s in range(p)] + [("decisions", "hands")]
                + [(f"busts_pos_{k}", f"rounds_pos_{k}") for k in range(p)])

    def summarize(self, acc: Accumulator, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        seats = seat_table(acc, rules, names)
        busts = [acc.ratio(f"busts_{s}", "hands") for s in range(rules["players"])]
        for i, name in enumerate(("busts_per_round", "busts_per_round_lo", "busts_per_round_hi")):
            seats[name] = [b[i] for b in busts]
        positions = []
        for k in range(rules["players"]):
            rounds = acc.col(f"rounds_pos_{k}")[0]
            row: dict[str, Any] = {"position": k, "label": _position_label(k), "rounds": int(rounds),
                                   "busts": int(acc.col(f"busts_pos_{k}")[0])}
            add_interval(row, "bust_rate", acc.ratio(f"busts_pos_{k}", f"rounds_pos_{k}"))
            positions.append(row)
        totals: dict[str, Any] = {}
        add_interval(totals, "rounds_per_game", acc.mean("hands"))
        add_interval(totals, "plays_per_round", acc.ratio("decisions", "hands"))
        return {"seats": seats, "positions": pd.DataFrame(positions), "totals": totals}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows, rules: dict[str, Any]) -> list[dict[str, Any]]:
        p = rules["players"]
        events: list[dict[str, Any]] = []
        for row, lists in split_lists(rows):
            code = row[0]
            if code == EV_DEAL:
                events.append({"ev": "deal", "hand": row[1], "dealer": row[2],
                               "hands": [tokens(lists.get(s, [])) for s in range(p)],
                               "stock": tokens(lists.get(TAG_STOCK, [])), "dead": [],
                               "chips": lists[TAG_CHIPS]})
            elif code == EV_DECIDE:
                events.append({"ev": "decide", "seat": row[1], "kind": "play",
                               "legal": [MOVE_NAMES[m] for m in lists[0]], "move": MOVE_NAMES[row[2]],
                               "card": token(row[3])})
            elif code == EV_PILE:
                events.append({"ev": "pile", "total": row[1], "dir": row[2]})
            elif code == EV_DRAW:
                events.append({"ev": "draw", "seat": row[1], "card": token(row[2])})
            elif code == EV_RESHUFFLE:
                events.append({"ev": "reshuffle", "stock": tokens(lists.get(TAG_STOCK, []))})
            elif code == EV_BUST:
                events.append({"ev": "bust", "seat": row[1], "chips": row[2], "out": bool(row[3])})
            elif code == EV_HAND_END:
                points = [-row[3] if s == row[2] else 0 for s in range(p)]
                events.append({"ev": "hand_end", "hand": row[1], "points": points, "scores": lists[0]})
            elif code == EV_GAME_END:
                winners = [s for s in range(p) if row[1] >> s & 1]
                events.append({"ev": "game_end", "winners": winners, "scores": lists[0], "hands": row[2]})
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            hands = "  ".join(f"{s}:[{' '.join(h)}]" for s, h in enumerate(ev["hands"]) if h)
            return f"-- round {ev['hand']}, dealer {ev['dealer']}, chips {ev['chips']}\n   hands {hands}"
        if kind == "decide":
            return f"   seat {ev['seat']} plays {ev['move']:<5} (legal: {' '.join(ev['legal'])})"
        if kind == "pile":
            arrow = "clockwise" if ev["dir"] == 1 else "counter-clockwise"
            return f"      total {ev['total']:>2}, {arrow}"
        if kind == "reshuffle":
            return f"      stock rebuilt from the pile: {len(ev['stock'])} cards"
        if kind == "bust":
            out = ", OUT of the game" if ev["out"] else ""
            return f"   seat {ev['seat']} cannot play: goes over, {ev['chips']} chip(s) left{out}"
        if kind == "game_end":
            return f"== game over after {ev['hands']} rounds: winner(s) {ev['winners']}, chips {ev['scores']}"
        return None


def _position_label(k: int) -> str:
    return "dealer" if k == 0 else f"dealer+{k}"


SPEC = NinetyNineSpec(
    name="ninety-nine",
    title="Ninety-Nine",
    package="analyzer.games.ninety_nine",
    min_players=2,
    max_players=10,
    default_players=3,
    options=[
        RuleOption("players", int, 3, "number of players", 2, 10),
        RuleOption("decks", int, lambda p: 2 if p >= 4 else 1, "52-card decks (default: 2 from 4 players)", 1, 4),
        RuleOption("chips", int, lambda p: 3 if p >= 4 else 5, "chips each (default: 3 from 4 players)", 1, 100),
        RuleOption("out_at_zero_chips", bool, False, "out as soon as the last chip is paid"),
    ],
    strategies={
        "random": StrategyInfo(0, "uniform over the legal moves"),
        "heuristic": StrategyInfo(1, "keeps its escapes (K 4 9 T), pushes the total up to 88, stays clear of 99"),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards, each move rolled out to the end "
                              "of the round with the base strategy; plays the move that goes over least",
                           {"k": 32, "base": "heuristic"}),
    },
    decision_kinds=["play"],
)
