"""Two-Ten-Jack: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, game_end_event
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
                events.append(game_end_event(row[1], 2, lists[0], row[2]))
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

    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "scores", "hand", "played", "trick", "decision", "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based) of a recorded game, as the deciding seat saw it."""
        head = events[0]
        decisions = [i for i, ev in enumerate(events) if ev["ev"] == "decide"]
        if at is None or not 1 <= at <= len(decisions):
            raise AnalyzerError(f"--at must be a decision number from 1 to {len(decisions)}, not {at}")
        stop = decisions[at - 1]
        seat = events[stop]["seat"]
        hand: list[str] = []
        played: list[str] = []
        trick: list[str] = []
        scores, dealer = [0, 0], 0
        for ev in events[1:stop]:
            kind = ev["ev"]
            if kind == "deal":
                hand, played, trick, dealer = list(ev["hands"][seat]), [], [], ev["dealer"]
            elif kind == "decide":
                trick.append(ev["move"])
                if ev["seat"] == seat:
                    hand.remove(ev["move"][:2])
            elif kind == "trick":
                played += trick
                trick = []
                for s, card in ev["draws"]:
                    if s == seat:
                        hand.append(card)
            elif kind == "hand_end":
                scores = list(ev["scores"])
        return {"seat": seat, "dealer": dealer, "scores": scores, "hand": hand, "played": played, "trick": trick,
                "rules": dict(head["rules"])}

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        import numpy as np

        from analyzer.evaluate import Evaluation
        from analyzer.games.two_ten_jack import kernel

        pos = check_position(position, rules, self.position_keys)
        params = self.params(rules)
        ws = kernel.workspace(params)
        kernel.load_position(ws, pos.dealer, pos.leader, pos.tricks, pos.lead, pos.played_mask,
                             np.array(pos.hands, dtype=np.int64), np.array(pos.taken, dtype=np.int64),
                             np.array(pos.scores, dtype=np.int64), pos.top, np.array(pos.slots, dtype=np.int64),
                             np.array(pos.nslots, dtype=np.int64), 1)
        seat = pos.seat

        def run(seed, start, codes, n, threads):
            result = np.zeros((n, len(codes), 2), dtype=np.int64)
            kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, ws, seat, codes, result,
                                  np.int64(min(n, 4 * threads)))
            return result

        return Evaluation(seat=seat, options=pos.options, names=[move_token(m) for m in pos.options],
                          outcome="points", outcome_binary=False, run=run,
                          description=f"seat {seat} {'leads' if pos.lead < 0 else 'follows'} trick {pos.tricks + 1}")


# ---- positions -----------------------------------------------------------------------------------

SLOTS = 8
FULL = (1 << 52) - 1
HEART_CARDS = sum(1 << (26 + r) for r in range(13))
TRUMP_CARDS = HEART_CARDS | (1 << 51)
#: cards that follow each suit led (AS counts as a spade and as a trump), as rules.FOLLOW_MASK
FOLLOW = [0x1FFF, 0x1FFF << 13, HEART_CARDS | (1 << 51), 0x1FFF << 39]


@dataclass
class Position:
    seat: int
    dealer: int
    leader: int
    tricks: int
    lead: int
    played_mask: int
    hands: list[int]
    taken: list[int]
    scores: list[int]
    top: int
    slots: list[list[int]]
    nslots: list[int]
    options: list[int]


def _tokens(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.replace(",", " ").split()
    out: list[str] = []
    for item in value:  # a list of tokens, or of tricks written "KD 2H"
        out += str(item).replace(",", " ").split()
    return out


def _parse_move(text: str, name: str, leading: bool) -> int:
    from analyzer.cards import CardError, parse_card

    t = text.strip()
    if t.upper() in ("AS:SPADE", "AS:TRUMP"):
        if not leading:
            raise AnalyzerError(f"{name}: {t} is a lead declaration, not a card (a follower plays plain AS)")
        return AS_SPADE if t.upper() == "AS:SPADE" else AS_TRUMP
    try:
        card = parse_card(t)
    except CardError as exc:
        raise AnalyzerError(f"{name}: {exc}") from None
    if card >= 52:
        raise AnalyzerError(f"{name}: {t} is not in the 52-card deck")
    if card == 51 and leading:
        raise AnalyzerError(f"{name}: a led AS is declared: write AS:spade or AS:trump")
    return card


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _describe(mask: int) -> str:
    return " ".join(token(c) for c in _bits(mask))


def _void_text(mask: int) -> str:
    """``clubs, hearts, AS`` for a mask of cards a seat showed it lacks."""
    parts = [name for s, name in enumerate(("clubs", "diamonds", "hearts", "spades"))
             if mask & (0x1FFF << (13 * s)) == 0x1FFF << (13 * s)]
    if mask >> 51 & 1 and "spades" not in parts:
        parts.append("AS")
    return ", ".join(parts) or _describe(mask)


def _slot_play(slots: list[int], card: int) -> None:
    """The card leaves the oldest slot that allows it (kernel.slot_play)."""
    for k, m in enumerate(slots):
        if not m >> card & 1 or k == len(slots) - 1:
            del slots[k]
            return


def _feasible(cards: int, slots: list[int]) -> int | None:
    """First slot (oldest first) that the cards cannot fill, or None (nested masks: Hall's
    condition is one count per slot)."""
    for k, m in enumerate(slots):
        if bin(cards & ~m).count("1") < k + 1:
            return k
    return None


def _replay(dealer: int, moves: list[int], lead: int):
    """Replay the finished tricks (``moves``, two per trick) and the lead in progress: the
    seat to move, the leader, each seat's knowledge slots, the cards taken and played."""
    from analyzer.games.two_ten_jack.rules import follower_wins

    leader = 1 - dealer
    slots: list[list[int]] = [[0] * 6, [0] * 6]
    taken = [0, 0]
    played_mask = 0
    for t in range(len(moves) // 2):
        lm, fc = moves[2 * t], moves[2 * t + 1]
        lc = 51 if lm >= 52 else lm
        suit = 3 if lm == AS_SPADE else 2 if lm == AS_TRUMP else lm // 13
        follower = 1 - leader
        _slot_play(slots[leader], lc)
        if not FOLLOW[suit] >> fc & 1:
            void = FOLLOW[suit] | (0 if TRUMP_CARDS >> fc & 1 else TRUMP_CARDS)
            slots[follower] = [m | void for m in slots[follower]]
        _slot_play(slots[follower], fc)
        winner = follower if follower_wins(lc, fc) else leader
        taken[winner] |= (1 << lc) | (1 << fc)
        played_mask |= (1 << lc) | (1 << fc)
        if t < 20:  # draws while the stock lasts
            slots[0].append(0)
            slots[1].append(0)
        leader = winner
    seat = leader if lead < 0 else 1 - leader
    if lead >= 0:
        _slot_play(slots[leader], 51 if lead >= 52 else lead)
    return seat, leader, slots, taken, played_mask


def check_position(position: dict[str, Any], rules: dict[str, Any], keys: tuple[str, ...]) -> Position:
    """Validate a position (format: docs/two-ten-jack.md) and replay its public history."""
    from analyzer.games.two_ten_jack.rules import round_winners

    unknown = set(position) - set(keys)
    if unknown:
        raise AnalyzerError(f"two-ten-jack positions have no {sorted(unknown)[0]!r} (keys: {', '.join(keys)})")
    if position.get("decision", "play") != "play":
        raise AnalyzerError(f"two-ten-jack has only play decisions, not {position['decision']!r}")
    if "players" in position and _int(position["players"], "players") != 2:
        raise AnalyzerError("two-ten-jack is for exactly 2 players")
    played_t = _tokens(position.get("played"), "played")
    trick_t = _tokens(position.get("trick"), "trick")
    if len(played_t) % 2:
        raise AnalyzerError(f"played lists whole tricks (2 cards each, leader first), not {len(played_t)} cards")
    tricks = len(played_t) // 2
    if tricks >= 26:
        raise AnalyzerError("all 26 tricks are played: there is no decision left")
    if len(trick_t) > 1:
        raise AnalyzerError(f"trick holds the card led to the trick in progress (at most 1), not {len(trick_t)}")
    moves = [_parse_move(t, f"played card {i + 1}", i % 2 == 0) for i, t in enumerate(played_t)]
    lead = _parse_move(trick_t[0], "trick", True) if trick_t else -1
    if "hand" not in position:
        raise AnalyzerError("give the hand of the deciding seat (hand)")
    hand_t = _tokens(position["hand"], "hand")
    hand = [_parse_move(t, "hand", False) for t in hand_t]
    cards = [m if m < 52 else 51 for m in moves] + ([lead if lead < 52 else 51] if lead >= 0 else []) + hand
    seen: set[int] = set()
    for cd in cards:
        if cd in seen:
            raise AnalyzerError(f"duplicate card {token(cd)} in hand, played and trick: the deck holds it once")
        seen.add(cd)
    scores = _ints(position.get("scores", [0, 0]), "scores")
    if len(scores) != 2:
        raise AnalyzerError(f"scores takes 2 numbers (seat 0, seat 1), not {len(scores)}")
    target = rules["target"]
    if round_winners(scores[0], scores[1], target):
        raise AnalyzerError(f"the game is over at scores {scores} (target {target})")
    seat_given = None if position.get("seat") is None else _int(position["seat"], "seat")
    if seat_given not in (None, 0, 1):
        raise AnalyzerError(f"seat: seat {seat_given} does not exist with 2 players")
    if "dealer" in position:
        dealer = _int(position["dealer"], "dealer")
    elif seat_given is None:
        dealer = 1
    else:  # the dealer for which ``seat`` is the one to move (the non-dealer leads first)
        dealer = next((d for d in (1 - seat_given, seat_given) if _replay(d, moves, lead)[0] == seat_given),
                      1 - seat_given)
    if dealer not in (0, 1):
        raise AnalyzerError(f"dealer: seat {dealer} does not exist with 2 players")
    seat, leader, slots, taken, played_mask = _replay(dealer, moves, lead)
    if seat_given is not None and seat_given != seat:
        raise AnalyzerError(f"seat {seat_given} is not to move here: after these tricks seat {seat} "
                            f"{'leads' if lead < 0 else 'follows'} (dealer {dealer}; the non-dealer leads first)")
    size = len(slots[seat])
    if len(hand) != size:
        raise AnalyzerError(f"seat {seat} holds {size} cards after {tricks} trick(s), not {len(hand)}")
    hand_mask = sum(1 << cd for cd in hand)
    other = 1 - seat
    lead_mask = (1 << (51 if lead >= 52 else lead)) if lead >= 0 else 0
    unseen = FULL & ~hand_mask & ~played_mask & ~lead_mask
    for who, pool, what in ((seat, hand_mask, "the hand given"), (other, unseen, "the unseen cards")):
        k = _feasible(pool, slots[who])
        if k is not None:
            fit = bin(pool & ~slots[who][k]).count("1")
            raise AnalyzerError(
                f"impossible position: seat {who} showed voids that {what} cannot meet: {k + 1} of its cards "
                f"were held when it had no {_void_text(slots[who][k])}, but only {fit} such card(s) are left")
    h = len(slots[other])
    placeholder = sum(1 << cd for cd in _bits(unseen)[:h])
    hands = [0, 0]
    hands[seat], hands[other] = hand_mask, placeholder
    if lead < 0:
        options = sorted(m for m in hand if m != 51) + ([AS_SPADE, AS_TRUMP] if 51 in hand else [])
    else:
        suit = 3 if lead == AS_SPADE else 2 if lead == AS_TRUMP else lead // 13
        follow = [m for m in hand if FOLLOW[suit] >> m & 1]
        options = sorted(follow or [m for m in hand if TRUMP_CARDS >> m & 1] or hand)
    pad = [[*s, *[0] * (SLOTS - len(s))] for s in slots]
    return Position(seat, dealer, leader, tricks, lead, played_mask, hands, taken, scores, 12 + 2 * min(tricks, 20),
                    pad, [len(s) for s in slots], options)


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
    strategies={
        "random": StrategyInfo(0, "uniform over the legal moves"),
        "heuristic": StrategyInfo(1, "wins tricks holding +5 cards, dumps/avoids the -5 clubs, saves AS and "
                                     "trumps while the stock lasts"),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards (voids respected), each move rolled "
                              "out to the end of the round with the base strategy; plays the move with the "
                              "most points", {"k": 32, "base": "heuristic"}),
    },
    decision_kinds=["play"],
    trace_rows=16_384,  # a round takes about 560 rows; records.trace_game grows it when needed
)
