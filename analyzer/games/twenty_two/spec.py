"""Twenty-Two: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.cards import token, tokens
from analyzer.games.base import GameSpec, RuleOption, register_strategies
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import LIST

# must match kernel.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_DRAW, EV_TRICK, EV_FINAL, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7
TAG_STOCK = 100
KINDS = ("discard", "lead", "follow")
RANKS = "23456789TJQKA"


_TEXT: dict[int, str] = {}


def move_text(code: int) -> str:
    """A packed set (4 bits per rank, rules.py) as its rank string, low to high."""
    text = _TEXT.get(code)
    if text is None:
        text = "".join(RANKS[r] * ((code >> (4 * r)) & 15) for r in range(13))
        if len(_TEXT) < 200_000:
            _TEXT[code] = text
    return text


def move_code(text: str) -> int:
    """The packed set of a rank string (``"QQ"``, ``"45"``, ``""``)."""
    code = 0
    for ch in text.upper():
        if ch not in RANKS:
            raise ValueError(f"bad rank {ch!r} in move {text!r}")
        code += 1 << (4 * RANKS.index(ch))
    return code


class TwentyTwoSpec(GameSpec):
    def move_name(self, code: int) -> str:
        if not 0 <= code < 1 << 52:
            return f"<move code {code}>"
        return move_text(code)

    def move_code(self, name: str) -> int:
        return move_code(name)

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        p = rules["players"]
        return ([f"took_{s}" for s in range(p)] + [f"played_{s}" for s in range(p)]
                + [f"place_{s}" for s in range(p)])

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        p = rules["players"]
        return ([(f"took_{s}", f"played_{s}") for s in range(p)]
                + [(f"score_{s}", f"played_{s}") for s in range(p)] + [("decisions", "hands")])

    def summarize(self, acc: Accumulator, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        seats = seat_table(acc, rules, names)
        columns: dict[str, list[tuple[float, float, float]]] = {
            "final_share": [acc.ratio(f"took_{s}", f"played_{s}") for s in range(rules["players"])],
            "points_per_hand": [acc.ratio(f"score_{s}", f"played_{s}") for s in range(rules["players"])],
            "hands_played": [acc.mean(f"played_{s}") for s in range(rules["players"])],
            "place": [acc.mean(f"place_{s}") for s in range(rules["players"])],
        }
        for name, values in columns.items():
            for i, suffix in enumerate(("", "_lo", "_hi")):
                seats[name + suffix] = [v[i] for v in values]
        totals: dict[str, Any] = {}
        add_interval(totals, "hands_per_game", acc.mean("hands"))
        add_interval(totals, "decisions_per_hand", acc.ratio("decisions", "hands"))
        return {"seats": seats, "totals": totals}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows, rules: dict[str, Any]) -> list[dict[str, Any]]:
        p = rules["players"]
        rows = np.asarray(rows)
        events: list[dict[str, Any]] = []
        cache = _TEXT
        starts = np.flatnonzero(rows[:, 0] != LIST).tolist()
        heads = rows[starts].tolist()
        bounds = starts[1:] + [rows.shape[0]]
        for row, i, j in zip(heads, starts, bounds):
            code = row[0]
            if code == EV_DECIDE:
                # a decision's only list is its legal moves (tag 0): the bulk of a record
                events.append({"ev": "decide", "seat": row[1], "kind": KINDS[row[2]],
                               "legal": [cache[m] if m in cache else move_text(m)
                                         for m in rows[i + 1:j, 2].tolist()],
                               "move": move_text(row[3])})
                continue
            lists: dict[int, list[int]] = {}
            block = rows[i + 1:j, 1:3].tolist()
            for tag, value in block:
                lists.setdefault(tag, []).append(value)
            if code == EV_DEAL:
                events.append({"ev": "deal", "hand": row[1], "dealer": row[2], "size": row[3],
                               "hands": [tokens(lists.get(s, [])) for s in range(p)],
                               "stock": tokens(lists.get(TAG_STOCK, [])), "dead": []})
            elif code == EV_DRAW:
                events.append({"ev": "draw", "seat": row[1], "cards": tokens(lists.get(0, []))})
            elif code == EV_TRICK:
                events.append({"ev": "trick", "winner": row[1]})
            elif code == EV_FINAL:
                plays = [[s, token(c)] for s, c in zip(lists.get(0, []), lists.get(1, []))]
                events.append({"ev": "final", "plays": plays, "takers": lists.get(2, [])})
            elif code == EV_HAND_END:
                events.append({"ev": "hand_end", "hand": row[1], "points": lists[0], "scores": lists[1],
                               "out": lists.get(2, [])})
            elif code == EV_GAME_END:
                winners = [s for s in range(p) if row[1] >> s & 1]
                events.append({"ev": "game_end", "winners": winners, "scores": lists[0], "hands": row[2]})
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            hands = "  ".join(f"{s}:[{' '.join(h)}]" for s, h in enumerate(ev["hands"]) if h)
            return (f"-- hand {ev['hand']}, dealer {ev['dealer']}, {ev['size']} cards each, "
                    f"stock {len(ev['stock'])}\n   hands {hands}")
        if kind == "decide":
            move = ev["move"] or "nothing"
            verb = {"discard": "discards", "lead": "leads", "follow": "plays"}[ev["kind"]]
            legal = f"{len(ev['legal'])} legal" if len(ev["legal"]) > 12 else " ".join(m or '-' for m in ev["legal"])
            return f"   seat {ev['seat']} {verb} {move:<6} ({legal})"
        if kind == "draw":
            return f"      seat {ev['seat']} draws {' '.join(ev['cards'])}" if ev["cards"] else None
        if kind == "trick":
            return f"      trick to seat {ev['winner']}"
        if kind == "final":
            plays = " ".join(f"{s}:{c}" for s, c in ev["plays"])
            return f"   final trick {plays} -> taken by {ev['takers']}"
        if kind == "hand_end":
            out = f", out: {ev['out']}" if ev["out"] else ""
            return f"   scores {ev['scores']}{out}"
        if kind == "game_end":
            return f"== game over after {ev['hands']} hands: winner(s) {ev['winners']}, scores {ev['scores']}"
        return None


SPEC = TwentyTwoSpec(
    name="twenty-two",
    title="Twenty-Two",
    package="analyzer.games.twenty_two",
    min_players=2,
    max_players=6,
    default_players=4,
    options=[
        RuleOption("players", int, 4, "number of players", 2, 6),
        RuleOption("target", int, 22, "a player with this many points or more is out", 1, 1000),
        RuleOption("lowest_only_if_unable", bool, False,
                   "a follower may play their lowest cards only when nothing matches or beats"),
    ],
    strategies=register_strategies([
        ("random", "uniform over the legal moves (discards included)"),
        ("heuristic", "discards T-A to fish for low cards, leads its highest rank, sheds high "
                      "cards when they beat, keeps its lowest card for the final trick"),
    ]),
    decision_kinds=list(KINDS),
    trace_rows=50_000,
)
