"""Two-player Hearts: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

from analyzer.cards import CardError, token, tokens
from analyzer.games.base import GameSpec, RuleOption, register_strategies
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

# must match kernel.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_DEAD = 100
PLAYERS = 2
TRICKS = 13


class Hearts2Spec(GameSpec):
    def move_name(self, code: int) -> str:
        try:
            return token(int(code))
        except CardError:
            return f"<card code {code}>"

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        return ["moons", "moons_0", "moons_1", "tricks_0", "tricks_1", "qs_0", "qs_1"]

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        pairs = [("moons", "hands"), ("decisions", "hands")]
        for s in range(PLAYERS):
            pairs += [(f"score_{s}", "hands"), (f"moons_{s}", "hands"), (f"tricks_{s}", "hands"),
                      (f"qs_{s}", "hands")]
        return pairs

    def summarize(self, acc: Accumulator, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        seats = seat_table(acc, rules, names)
        columns: dict[str, list[float]] = {}
        for s in range(PLAYERS):
            row: dict[str, float] = {}
            add_interval(row, "points_per_hand", acc.ratio(f"score_{s}", "hands"))
            add_interval(row, "moon_rate", acc.ratio(f"moons_{s}", "hands"))
            share = acc.ratio(f"tricks_{s}", "hands")
            add_interval(row, "trick_share", tuple(v / TRICKS for v in share))
            add_interval(row, "qs_rate", acc.ratio(f"qs_{s}", "hands"))
            for key, value in row.items():
                columns.setdefault(key, []).append(value)
        for key, values in columns.items():
            seats[key] = values
        totals: dict[str, Any] = {}
        add_interval(totals, "hands_per_game", acc.mean("hands"))
        add_interval(totals, "moon_rate", acc.ratio("moons", "hands"))
        return {"seats": seats, "totals": totals}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows, rules: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for row, lists in split_lists(rows):
            code = row[0]
            if code == EV_DEAL:
                events.append({"ev": "deal", "hand": row[1], "dealer": row[2],
                               "hands": [tokens(lists.get(s, [])) for s in range(PLAYERS)],
                               "stock": [], "dead": tokens(lists.get(TAG_DEAD, []))})
            elif code == EV_DECIDE:
                events.append({"ev": "decide", "seat": row[1], "kind": "play",
                               "legal": tokens(lists.get(0, [])), "move": token(row[2])})
            elif code == EV_TRICK:
                events.append({"ev": "trick", "leader": row[1], "cards": [token(row[2]), token(row[3])],
                               "winner": row[4]})
            elif code == EV_HAND_END:
                events.append({"ev": "hand_end", "hand": row[1], "points": [row[3], row[4]],
                               "scores": lists[0], "moon": None if row[2] < 0 else row[2]})
            elif code == EV_GAME_END:
                winners = [s for s in range(PLAYERS) if row[1] >> s & 1]
                events.append({"ev": "game_end", "winners": winners, "scores": lists[0], "hands": row[2]})
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            hands = "  ".join(f"{s}:[{' '.join(_sorted(h))}]" for s, h in enumerate(ev["hands"]))
            return (f"-- hand {ev['hand']}, dealer {ev['dealer']}, dead {' '.join(ev['dead'])}\n"
                    f"   hands {hands}")
        if kind == "decide":
            return f"   seat {ev['seat']} plays {ev['move']:<3} (legal: {' '.join(ev['legal'])})"
        if kind == "trick":
            return f"      trick {' '.join(ev['cards'])} led by {ev['leader']}: won by seat {ev['winner']}"
        if kind == "hand_end":
            moon = f", seat {ev['moon']} shot the moon" if ev["moon"] is not None else ""
            return f"   hand {ev['hand']}: points {ev['points']}, scores {ev['scores']}{moon}"
        if kind == "game_end":
            return f"== game over after {ev['hands']} hands: winner(s) {ev['winners']}, scores {ev['scores']}"
        return None


def _sorted(cards: list[str]) -> list[str]:
    """Cards by suit (C D H S), then rank, for the readable replay."""
    order = "23456789TJQKA"
    return sorted(cards, key=lambda t: ("CDHS".index(t[1]), order.index(t[0])))


SPEC = Hearts2Spec(
    name="hearts2",
    title="Two-player Hearts",
    package="analyzer.games.hearts2",
    min_players=2,
    max_players=2,
    default_players=2,
    options=[
        RuleOption("target", int, 100, "the game ends after a hand in which a player reaches this score", 1, 10_000),
    ],
    strategies=register_strategies([
        ("random", "uniform over the legal cards"),
        ("heuristic", "ducks under the opponent's card, sheds QS when void, leads low in short suits, "
                      "stops a moon by taking a point"),
    ]),
    decision_kinds=["play"],
    trace_rows=16_384,  # a 100-point game writes about 2,000 rows; records.py grows it when needed
)
