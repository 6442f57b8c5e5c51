"""10-Point Pitch: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.cards import token, tokens
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo
from analyzer.stats import Accumulator, wilson
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

# must match kernel.py / rules.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_PITCHER, EV_REFILL, EV_REST, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK = 100
KINDS = ("bid", "trump", "give", "discard", "play")
MOON = 11
BID_LEVELS = (4, 5, 6, 7, 8, 9, 10, 11)
SUITS = "CDHS"
#: must match strategies.PARTNER_SHARE
DEFAULT_PARTNER_SHARE = 25


def bid_name(b: int) -> str:
    return "moon" if b == MOON else ("pass" if b == 0 else str(b))


def _level_name(b: int) -> str:
    return "moon" if b == MOON else str(b)


class Pitch10Spec(GameSpec):
    def move_name(self, code: int) -> str:
        if 0 <= code < 54:
            return token(code)
        if code == 60:
            return "pass"
        if 64 <= code <= 71:
            return bid_name(code - 60)
        if 80 <= code <= 83:
            return SUITS[code - 80]
        if code in (90, 91):
            return "keep" if code == 90 else "give"
        return f"<move code {code}>"

    def move_code(self, name: str) -> int:
        if name == "pass":
            return 60
        if name == "moon":
            return 71
        if name.isdigit():
            return 60 + int(name)
        if name in ("C", "D", "H", "S"):
            return 80 + SUITS.index(name)
        if name in ("keep", "give"):
            return 90 if name == "keep" else 91
        from analyzer.cards import parse_card

        return parse_card(name)

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        return ([f"bids_{_level_name(b)}" for b in BID_LEVELS] + [f"made_{_level_name(b)}" for b in BID_LEVELS]
                + ["taken_0", "taken_1", "pitched_0", "pitched_1", "made_team_0", "made_team_1", "stuck",
                   "lost_points"])

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        pairs = [("decisions", "hands"), ("stuck", "hands"), ("lost_points", "hands")]
        for b in BID_LEVELS:
            name = _level_name(b)
            pairs += [(f"bids_{name}", "hands"), (f"made_{name}", f"bids_{name}")]
        for t in range(2):
            pairs += [(f"taken_{t}", "hands"), (f"pitched_{t}", "hands"), (f"made_team_{t}", f"pitched_{t}")]
        return pairs

    def summarize(self, acc: Accumulator, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        seats = seat_table(acc, rules, names)
        teams = []
        for t in range(2):
            wins = int(acc.wins[t])  # seat t and seat t + 2 win together
            lo, hi = wilson(wins, acc.n)
            row: dict[str, Any] = {"team": t, "seats": f"{t},{t + 2}",
                                   "strategies": f"{names[t]}, {names[t + 2]}", "games": acc.n, "wins": wins,
                                   "win_rate": wins / acc.n if acc.n else float("nan"),
                                   "win_rate_lo": lo, "win_rate_hi": hi}
            add_interval(row, "taken_per_hand", acc.ratio(f"taken_{t}", "hands"))
            add_interval(row, "pitch_rate", acc.ratio(f"pitched_{t}", "hands"))
            add_interval(row, "make_rate", acc.ratio(f"made_team_{t}", f"pitched_{t}"))
            teams.append(row)
        bids = []
        for b in BID_LEVELS:
            name = _level_name(b)
            count = acc.col(f"bids_{name}")[0]
            row = {"bid": name, "hands": int(count)}
            add_interval(row, "share", acc.ratio(f"bids_{name}", "hands"))
            made = acc.col(f"made_{name}")[0]
            row["made"] = int(made)
            if count > 0:
                add_interval(row, "make_rate", (made / count, *wilson(made, count)))
            else:
                add_interval(row, "make_rate", (float("nan"), float("nan"), float("nan")))
            bids.append(row)
        totals: dict[str, Any] = {}
        add_interval(totals, "hands_per_game", acc.mean("hands"))
        add_interval(totals, "decisions_per_hand", acc.ratio("decisions", "hands"))
        add_interval(totals, "stuck_dealer_rate", acc.ratio("stuck", "hands"))
        add_interval(totals, "lost_points_per_hand", acc.ratio("lost_points", "hands"))
        moons = acc.col("bids_moon")[0]
        made = acc.col("made_moon")[0]
        totals["moon_attempts"] = int(moons)
        add_interval(totals, "moon_rate", acc.ratio("bids_moon", "hands"))
        if moons > 0:
            add_interval(totals, "moon_success", (made / moons, *wilson(made, moons)))
        else:
            add_interval(totals, "moon_success", (float("nan"), float("nan"), float("nan")))
        return {"seats": seats, "teams": pd.DataFrame(teams), "bids": pd.DataFrame(bids), "totals": totals}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows, rules: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for row, lists in split_lists(rows):
            code = row[0]
            if code == EV_DEAL:
                events.append({"ev": "deal", "hand": row[1], "dealer": row[2],
                               "hands": [tokens(lists.get(s, [])) for s in range(4)],
                               "stock": tokens(lists.get(TAG_STOCK, [])), "dead": []})
            elif code == EV_DECIDE:
                events.append({"ev": "decide", "seat": row[1], "kind": KINDS[row[2]],
                               "legal": [self.move_name(m) for m in lists.get(0, [])],
                               "move": self.move_name(row[3])})
            elif code == EV_PITCHER:
                events.append({"ev": "pitcher", "seat": row[1], "bid": bid_name(row[2])})
            elif code == EV_REFILL:
                events.append({"ev": "refill", "seat": row[1], "cards": tokens(lists.get(0, []))})
            elif code == EV_REST:
                events.append({"ev": "rest", "seat": row[1], "cards": tokens(lists.get(0, []))})
            elif code == EV_TRICK:
                plays = [[s, token(c)] for s, c in zip(lists.get(0, []), lists.get(1, []))]
                events.append({"ev": "trick", "leader": row[1], "plays": plays, "winner": row[2]})
            elif code == EV_HAND_END:
                events.append({"ev": "hand_end", "hand": row[1], "points": lists[0], "scores": lists[1],
                               "taken": lists[2], "bid": bid_name(row[2]), "pitcher": row[3]})
            elif code == EV_GAME_END:
                winners = [s for s in range(4) if row[1] >> s & 1]
                events.append({"ev": "game_end", "winners": winners, "scores": lists[0], "hands": row[2]})
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            hands = "  ".join(f"{s}:[{' '.join(h)}]" for s, h in enumerate(ev["hands"]))
            return f"-- hand {ev['hand']}, dealer {ev['dealer']}\n   hands {hands}"
        if kind == "decide":
            k = ev["kind"]
            verb = {"bid": "bids", "trump": "names trump", "give": "chooses to", "discard": "discards",
                    "play": "plays"}[k]
            legal = "" if k in ("trump", "give") else f" (legal: {' '.join(ev['legal'])})"
            return f"   seat {ev['seat']} {verb} {ev['move']}{legal}"
        if kind == "pitcher":
            return f"   pitcher: seat {ev['seat']} at {ev['bid']}"
        if kind == "refill":
            return f"   seat {ev['seat']} is dealt [{' '.join(ev['cards'])}]"
        if kind == "rest":
            return f"   rest of the stock to seat {ev['seat']}: [{' '.join(ev['cards'])}]"
        if kind == "trick":
            plays = " ".join(f"{s}:{c}" for s, c in ev["plays"])
            return f"      trick {plays} -> seat {ev['winner']}"
        if kind == "hand_end":
            return (f"   hand {ev['hand']}: bid {ev['bid']}, taken {ev['taken']}, points {ev['points']}, "
                    f"scores {ev['scores']}")
        if kind == "game_end":
            return f"== game over after {ev['hands']} hands: winners {ev['winners']}, scores {ev['scores']}"
        return None


SPEC = Pitch10Spec(
    name="pitch10",
    title="10-Point Pitch",
    package="analyzer.games.pitch10",
    min_players=4,
    max_players=4,
    default_players=4,
    options=[
        RuleOption("target", int, 52, "score that wins the game", 1, 10_000),
        RuleOption("made_bid_scores_taken", bool, False, "a made bid scores the points taken, not the bid"),
    ],
    strategies={
        "random": StrategyInfo(0, "uniform over the legal moves in every decision"),
        "heuristic": StrategyInfo(1, "bids a hand evaluation of its best suit, names it, gives the rest to a "
                                     "partner short of trumps, discards non-point trumps, captures and protects "
                                     "points (partner: the partner's expected share in tenths of a point)",
                                  {"partner": DEFAULT_PARTNER_SHARE}),
    },
    decision_kinds=list(KINDS),
)
