"""Two-Ten-Jack: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.cards import token, tokens
from analyzer.games.base import GameSpec, RuleOption, register_strategies
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

# must match kernel.py / rules.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_STOCK, TAG_DRAWS = 100, 102
AS_SPADE, AS_TRUMP = 60, 61
N_BINS = 7
#: bins of a player's points in one round (kernel.point_bin)
BIN_LABELS = ("<=-10", "-9..-5", "-4..0", "1..4", "5..9", "10..14", ">=15")


def move_token(code: int) -> str:
    if code == AS_SPADE:
        return "AS:spade"
    if code == AS_TRUMP:
        return "AS:trump"
    return token(code)


class TwoTenJackSpec(GameSpec):
    def move_name(self, code: int) -> str:
        if code in (AS_SPADE, AS_TRUMP) or 0 <= code < 52:
            return move_token(code)
        return f"<move code {code}>"

    def move_code(self, name: str) -> int:
        if name == "AS:spade":
            return AS_SPADE
        if name == "AS:trump":
            return AS_TRUMP
        from analyzer.cards import parse_card

        return parse_card(name)

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        return (["points_dealer", "points_nondealer", "as_led", "as_led_trump"]
                + [f"bin_dealer_{k}" for k in range(N_BINS)] + [f"bin_nondealer_{k}" for k in range(N_BINS)]
                + ["dealt_0", "dealt_1", "points_dealing_0", "points_dealing_1",
                   "points_nondealing_0", "points_nondealing_1"])

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        cols = ["score_0", "score_1", "points_dealer", "points_nondealer", "as_led", "as_led_trump",
                "decisions"]
        cols += [f"bin_dealer_{k}" for k in range(N_BINS)] + [f"bin_nondealer_{k}" for k in range(N_BINS)]
        # seat s does not deal exactly when the other seat deals
        return ([(c, "hands") for c in cols] + [(f"points_dealing_{s}", f"dealt_{s}") for s in range(2)]
                + [(f"points_nondealing_{s}", f"dealt_{1 - s}") for s in range(2)])

    def summarize(self, acc: Accumulator, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        seats = seat_table(acc, rules, names)
        per_round = [acc.ratio(f"score_{s}", "hands") for s in range(2)]
        for i, name in enumerate(("points_per_round", "points_per_round_lo", "points_per_round_hi")):
            seats[name] = [p[i] for p in per_round]
        rounds = int(acc.col("hands")[0])
        positions = []
        for label, col in (("dealer", "points_dealer"), ("non-dealer", "points_nondealer")):
            row: dict[str, Any] = {"position": label, "seat": "all", "strategy": "", "rounds": rounds}
            add_interval(row, "points_per_round", acc.ratio(col, "hands"))
            positions.append(row)
        for s in range(2):
            for label, col, den in (("dealer", f"points_dealing_{s}", f"dealt_{s}"),
                                    ("non-dealer", f"points_nondealing_{s}", f"dealt_{1 - s}")):
                row = {"position": label, "seat": str(s), "strategy": names[s], "rounds": int(acc.col(den)[0])}
                add_interval(row, "points_per_round", acc.ratio(col, den))
                positions.append(row)
        bins = []
        for k, label in enumerate(BIN_LABELS):
            row = {"points": label}
            for who in ("dealer", "nondealer"):
                row[f"{who}_rounds"] = int(acc.col(f"bin_{who}_{k}")[0])
                add_interval(row, f"{who}_share", acc.ratio(f"bin_{who}_{k}", "hands"))
            bins.append(row)
        totals: dict[str, Any] = {}
        add_interval(totals, "rounds_per_game", acc.mean("hands"))
        add_interval(totals, "as_led_share", acc.ratio("as_led", "hands"))
        add_interval(totals, "as_led_as_trump_share", acc.ratio("as_led_trump", "hands"))
        return {"seats": seats, "positions": pd.DataFrame(positions), "round_points": pd.DataFrame(bins),
                "totals": totals}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows, rules: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for row, lists in split_lists(rows):
            code = row[0]
            if code == EV_DEAL:
                events.append({"ev": "deal", "hand": row[1], "dealer": row[2],
                               "hands": [tokens(lists.get(s, [])) for s in range(2)],
                               "stock": tokens(lists.get(TAG_STOCK, [])), "dead": []})
            elif code == EV_DECIDE:
                events.append({"ev": "decide", "seat": row[1], "kind": "play",
                               "legal": [move_token(m) for m in lists[0]], "move": move_token(row[2])})
            elif code == EV_TRICK:
                leader, winner = row[1], row[4]
                drawn = lists.get(TAG_DRAWS, [])
                draws = [[winner, token(drawn[0])], [1 - winner, token(drawn[1])]] if drawn else []
                events.append({"ev": "trick", "leader": leader, "cards": [token(row[2]), token(row[3])],
                               "winner": winner, "draws": draws})
            elif code == EV_HAND_END:
                events.append({"ev": "hand_end", "hand": row[1], "points": [row[2], row[3]],
                               "scores": lists[0]})
            elif code == EV_GAME_END:
                winners = [s for s in range(2) if row[1] >> s & 1]
                events.append({"ev": "game_end", "winners": winners, "scores": lists[0], "hands": row[2]})
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            hands = "  ".join(f"{s}:[{' '.join(h)}]" for s, h in enumerate(ev["hands"]))
            return f"-- round {ev['hand']}, dealer {ev['dealer']}\n   hands {hands}"
        if kind == "decide":
            return f"   seat {ev['seat']} plays {ev['move']:<8} (legal: {' '.join(ev['legal'])})"
        if kind == "trick":
            draws = ", ".join(f"{s} draws {c}" for s, c in ev["draws"])
            return f"      trick {' '.join(ev['cards'])} -> seat {ev['winner']}" + (f"; {draws}" if draws else "")
        if kind == "hand_end":
            return f"   round {ev['hand']}: points {ev['points']}, scores {ev['scores']}"
        if kind == "game_end":
            return f"== game over after {ev['hands']} rounds: winner(s) {ev['winners']}, scores {ev['scores']}"
        return None


SPEC = TwoTenJackSpec(
    name="two-ten-jack",
    title="Two-Ten-Jack",
    package="analyzer.games.two_ten_jack",
    min_players=2,
    max_players=2,
    default_players=2,
    options=[
        RuleOption("target", int, 31, "points to win (checked after each round)", 1, 10_000),
    ],
    strategies=register_strategies([
        ("random", "uniform over the legal moves"),
        ("heuristic", "wins tricks holding +5 cards, dumps/avoids the -5 clubs, saves AS and trumps "
                      "while the stock lasts"),
    ]),
    decision_kinds=["play"],
    trace_rows=16_384,  # a round takes about 560 rows; records.trace_game grows it when needed
)
