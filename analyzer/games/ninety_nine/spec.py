"""Ninety-Nine: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.cards import tokens, token
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, dealt_hands_text, decision_index, game_end_event
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

from analyzer.games.ninety_nine.codes import (
    E_CLASS_COUNT,
    E_NO_DEAL,
    E_NO_SLOT,
    E_ON_PILE,
    E_OVER,
    E_TOO_LONG,
    E_TOTAL,
    E_TURN,
    EV_BUST,
    EV_DEAL,
    EV_DECIDE,
    EV_DRAW,
    EV_GAME_END,
    EV_HAND_END,
    EV_PILE,
    EV_RESHUFFLE,
    MOVE_JACK,
    MOVE_NAMES,
    MOVE_QUEEN,
    TAG_CHIPS,
    TAG_STOCK,
    TOTAL_BITS_SPLIT,
    TOTAL_FROM_HISTORY,
)


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
        busts = [acc.share(f"busts_{s}", "hands") for s in range(rules["players"])]  # shares: inside [0, 1]
        for i, name in enumerate(("busts_per_round", "busts_per_round_lo", "busts_per_round_hi")):
            seats[name] = [b[i] for b in busts]
        positions = []
        for k in range(rules["players"]):
            rounds = acc.col(f"rounds_pos_{k}")[0]
            row: dict[str, Any] = {"position": k, "label": _position_label(k), "rounds": int(rounds),
                                   "busts": int(acc.col(f"busts_pos_{k}")[0])}
            add_interval(row, "bust_rate", acc.share(f"busts_pos_{k}", f"rounds_pos_{k}"))
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
                events.append(game_end_event(row[1], p, lists[0], row[2]))
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            return f"-- round {ev['hand']}, dealer {ev['dealer']}, chips {ev['chips']}\n" + dealt_hands_text(ev["hands"])
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


    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "hand", "total", "direction", "chips", "out", "pile", "history",
                     "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based) of a recorded game, as the deciding seat saw it."""
        head = events[0]
        stop = decision_index(events, at)
        seat = events[stop]["seat"]
        hand: list[str] = []
        pile: list[str] = []
        history: list[str] = []
        total, direction, stock, chips, dealer, out = 0, 1, 0, [], 0, []
        for ev in events[1:stop]:
            kind = ev["ev"]
            if kind == "deal":
                hand, pile, history, total, direction = list(ev["hands"][seat]), [], [], 0, 1
                stock, chips, dealer = len(ev["stock"]), list(ev["chips"]), ev["dealer"]
                out = [s for s, h in enumerate(ev["hands"]) if not h]
            elif kind == "decide":
                pile.append(ev["card"])
                history.append(ev["card"])
                if ev["seat"] == seat:
                    hand.remove(ev["card"])
            elif kind == "pile":
                total, direction = ev["total"], ev["dir"]
            elif kind == "reshuffle":
                pile, stock = pile[-1:], len(ev["stock"])
            elif kind == "draw":
                stock -= 1
                if ev["seat"] == seat:
                    hand.append(ev["card"])
        return {"seat": seat, "players": head["players"], "dealer": dealer, "hand": hand, "total": total,
                "direction": direction, "chips": chips, "out": out, "pile": pile, "history": history,
                "rules": {k: v for k, v in head["rules"].items() if k != "players"}}

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None, keep: tuple[str, ...] = ()):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        import numpy as np

        from analyzer.evaluate import Evaluation
        if kernel is None:  # else the kernel with the user strategies in its slots (GameSpec.user_kernel)
            kernel = self.user_kernel([])

        params, ws, seat, legal, replay = self.load(rules, position)

        def run(seed, start, codes, n, threads):
            result = np.zeros((n, len(codes), 2), dtype=np.int64)
            kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, ws, seat, codes, result,
                                  np.int64(min(n, 4 * threads)))
            return result

        found = replay is not None and replay["total_found"]
        return Evaluation(seat=seat, options=legal, names=[MOVE_NAMES[m] for m in legal], outcome="went_over",
                          outcome_binary=True, run=run, lower_is_better=True, groups=_groups(legal, strat),
                          description=f"total {replay['total']} (from the history)" if found else "",
                          extra={"history": replay is not None})

    def load(self, rules: dict[str, Any], position: dict[str, Any]):
        """Check a position's format (docs/ninety-nine.md) and build it with the engine: its
        history replayed by ``kernel.load_history`` (or, without one, ``kernel.load_position``).
        Returns (params, bundle, seat, legal move codes, facts of the replay or None)."""
        import numpy as np

        from analyzer.cards import standard_deck
        from analyzer.games.ninety_nine import kernel

        unknown = set(position) - set(self.position_keys)
        if unknown:
            raise AnalyzerError(f"ninety-nine positions have no {sorted(unknown)[0]!r} (keys: {', '.join(self.position_keys)})")
        p = rules["players"]
        deck = standard_deck(rules["decks"])
        seat = _seat(position.get("seat", 0), p, "seat")
        out = [_seat(s, p, "out") for s in _ints(position.get("out", []), "out")]
        active = [s not in out for s in range(p)]
        if not active[seat]:
            raise AnalyzerError(f"seat {seat} is out of the game: it has no decision")
        if sum(active) < 2:
            raise AnalyzerError("at least two players must still be in the game")
        hand = deck.parse(position["hand"], "hand") if "hand" in position else None
        if hand is None or len(hand) != 3:
            raise AnalyzerError(f"a ninety-nine hand holds exactly 3 cards, not {0 if hand is None else len(hand)}")
        pile = deck.parse(position.get("pile", []), "pile")
        deck.check(hand + pile, "hand and pile together")
        if "total" in position or "history" not in position:
            total = _int(position.get("total", 0), "total")
            if not 0 <= total <= 99:
                raise AnalyzerError(f"the pile total is between 0 and 99, not {total}")
        else:  # the total the history leaves (kernel.load_history)
            total = TOTAL_FROM_HISTORY
        direction = _int(position.get("direction", 1), "direction")
        if direction not in (1, -1):
            raise AnalyzerError("direction is 1 (clockwise) or -1")
        chips = _ints(position.get("chips", [rules["chips"]] * p), "chips")
        if len(chips) != p or min(chips) < 0:
            raise AnalyzerError(f"chips takes {p} non-negative numbers, one per seat")
        if "dealer" in position and not active[_seat(position["dealer"], p, "dealer")]:
            raise AnalyzerError(f"the dealer (seat {position['dealer']}) is out of the game")
        params = self.params(rules)
        arrays = (np.array(chips, dtype=np.int64), np.array(active), np.array(hand, dtype=np.int64))
        replay = None
        if "history" in position:
            from analyzer.cards import parse_cards

            # a card may come back after a rebuild: no duplicate check here (the replay checks)
            history = parse_cards(position["history"]) if position["history"] else []
            dealers = [_seat(position["dealer"], p, "dealer")] if "dealer" in position else \
                [s for s in range(p) if active[s]]
            ws, dealer = _replay(params, seat, dealers, arrays, history, total)
            facts = kernel.scalars(ws)
            replayed = [int(c) for c in ws.pile[:facts["pile_size"]]]
            if "pile" in position and sorted(pile) != sorted(replayed):
                raise AnalyzerError("pile: the cards since the last rebuild of the history are "
                                    f"{' '.join(tokens(replayed))}, not {' '.join(tokens(pile))}")
            if "direction" in position and direction != facts["direction"]:
                raise AnalyzerError(f"direction: the fours of the history make it {facts['direction']}")
            deck.check(hand + replayed, "hand and the pile since the last rebuild")
            total = facts["total"]
            replay = {"dealer": dealer, "pile": replayed, "direction": facts["direction"], "epoch": facts["epoch"],
                      "stock": facts["stock_end"] - facts["stock_top"], "total": total,
                      "total_found": "total" not in position}
        else:
            previous = next(s % p for s in range(seat - 1, seat - 1 - p, -1) if active[s % p])
            dealer = _seat(position.get("dealer", previous), p, "dealer")
            # every card is in a hand, the stock or the pile: the stock is what is left
            stock = deck.size - 3 * sum(active) - len(pile)
            if stock < 0:
                raise AnalyzerError(f"{len(pile)} cards on the pile leave no room for {sum(active)} hands of 3")
            ws = kernel.workspace(params)
            kernel.load_position(params, ws, seat, dealer, total, direction, *arrays,
                                 np.array(pile, dtype=np.int64), stock)
        n = int(kernel.legal_now(ws))
        legal = sorted(int(m) for m in ws.legal[:n])
        if not legal:
            raise AnalyzerError(f"seat {seat} has no legal move at total {total}: it goes over, there is nothing to decide")
        return params, ws, seat, legal, replay


def _groups(legal: list[int], strat) -> list[list[int]] | None:
    """J and Q: both +10 and nothing else, so playing one or the other leaves hands that
    play alike. With rollout strategies that read only a card's effect (heuristic, and mc
    rolled out with it) every sample then ends the same for both: one group. ``random``
    tells them apart (it draws among the *distinct* legal moves, and J and Q count as two),
    so with it no group is formed."""
    from analyzer.games.ninety_nine import strategies as st

    jack, queen = MOVE_JACK, MOVE_QUEEN
    if jack not in legal or queen not in legal:
        return None
    for row in strat:
        sid = int(row[0])
        if sid == st.RANDOM or (sid == st.MC and int(row[2]) == st.RANDOM) or sid < 0:
            return None
    return [[legal.index(jack), legal.index(queen)]]


def _replay(params, seat: int, dealers: list[int], arrays, history: list[int], total: int):
    """The bundle after ``history`` replayed by the engine (kernel.load_history) for the one
    dealer of ``dealers`` after which ``seat`` is to move, and that dealer; the engine's
    refusal of an impossible history as a one-line message."""
    import numpy as np

    from analyzer.games.ninety_nine import kernel

    fits, problems, seated = [], [], []
    err = np.zeros(5, dtype=np.int64)
    for dealer in dealers:
        ws = kernel.workspace(params)
        kernel.load_history(params, ws, seat, dealer, *arrays, np.array(history, dtype=np.int64), total, err)
        if err[0]:
            problems.append(_history_error(err, seat))
            if int(err[0]) in _AFTER_THE_TURN:  # this dealer makes the seat the one to move
                seated.append(problems[-1])
        else:
            fits.append((ws, dealer))
    if not fits:
        raise AnalyzerError(problems[0] if len(dealers) == 1 or len(set(problems)) == 1 else seated[0] if seated else
                            f"no dealer makes seat {seat} the one to move after this history ({problems[0]})")
    if len(fits) > 1:
        raise AnalyzerError("several dealers fit this history: give the dealer")
    return fits[0]


#: the replay's refusals that come after it found the seat to move (kernel.load_history)
_AFTER_THE_TURN = (E_TOTAL, E_CLASS_COUNT, E_NO_DEAL)


def _history_error(err, seat: int) -> str:
    """The message of the engine's refusal (kernel.load_history's ``err``, codes.E_*)."""
    code, at, a, b, c = (int(x) for x in err)
    if code == E_ON_PILE:
        return f"history: {token(a)} (play {at + 1}) is still on the pile: it cannot be played"
    if code == E_NO_SLOT:
        return (f"history: seat {c} plays {token(a)} (play {at + 1}), which no card it can hold is (it was in "
                f"stock {b}, and seat {c} holds no card from it)")
    if code == E_TURN:
        return f"after this history seat {a} is to move, not seat {seat}"
    if code == E_CLASS_COUNT:
        return (f"history: {b} hidden cards were last in stock {a}, but the other hands and the stock have "
                f"{c} places for them")
    if code == E_NO_DEAL:
        return "history: no deal of the hidden cards is consistent with it (no seat could have held what it played)"
    if code == E_TOO_LONG:
        return f"history: more than {a} plays in one round"
    if code == E_OVER:
        return (f"history: {token(a)} (play {at + 1}) passes 99 from a total of {_either(err)}: its player "
                "would have gone over instead")
    if code == E_TOTAL and a == TOTAL_FROM_HISTORY:
        return f"total: the history leaves {_either(err)} (its aces and tens count either way): give the total"
    if code == E_TOTAL:
        return f"total: the history leaves {_either(err)}, not {a}"
    return f"history: refused by the engine (code {code})"


def _either(err) -> str:
    """The totals of a refusal (``err[3]``, ``err[4]``: codes.TOTAL_BITS_SPLIT) in words:
    "88", "88 or 98", "3, 13 or 23", at most six named."""
    low, high = int(err[3]), int(err[4])
    totals = [t for t in range(TOTAL_BITS_SPLIT) if low >> t & 1]
    totals += [TOTAL_BITS_SPLIT + t for t in range(100 - TOTAL_BITS_SPLIT) if high >> t & 1]
    named = [str(t) for t in totals[:6]] + ([f"{len(totals) - 6} more"] if len(totals) > 6 else [])
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


def _seat(value: Any, players: int, name: str) -> int:
    seat = _int(value, name)
    if not 0 <= seat < players:
        raise AnalyzerError(f"{name}: seat {seat} does not exist with {players} players")
    return seat


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
        "heuristic": StrategyInfo(1, "keeps its escapes (K 4 9 T), pushes the total up to 88, stays clear of 99", deterministic=True),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards, each move rolled out with the base "
                              "strategy for `rounds` rounds (1000: the whole game), then the chip state valued as "
                              "a share of the game; leaves the base's move only for a clearly better one",
                           {"k": 32, "base": "heuristic", "rounds": 1}),
        "ismcts": StrategyInfo(3, "information-set Monte Carlo tree search: each iteration redeals the hidden "
                                  "cards, walks a tree of what this seat knows to the round's end (UCB1, explore "
                                  "in hundredths), plays out with the base strategy for `rounds` rounds (1000: "
                                  "the whole game) and backs up each seat's share of the game; plays the most "
                                  "visited move", {"iterations": 1000, "base": "heuristic", "explore": 70,
                                                   "rounds": 1}),
    },
    decision_kinds=["play"],
    hand_name="round",
    warm_up_seconds=63,  # make warm on an empty cache, 2026-12-07
)
