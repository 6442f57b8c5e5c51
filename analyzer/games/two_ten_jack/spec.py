"""Two-Ten-Jack: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, dealt_hands_text, decision_index, game_end_event
from analyzer.games.two_ten_jack.codes import (BIN_LABELS, EV_DEAL, EV_DECIDE, EV_GAME_END, EV_HAND_END, EV_TRICK,
                                               KN_LEVELS, KN_STATES, N_BINS, PIMC_TRICKS, TAG_DRAWS, TAG_STOCK,
                                               cards_held, scalars)
from analyzer.games.two_ten_jack.rules import AS_SPADE, AS_TRUMP
from analyzer.games.two_ten_jack.view import MOVE_NAMES
from analyzer.games.two_ten_jack.view import move_name as move_token
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists


class TwoTenJackSpec(GameSpec):
    def move_name(self, code: int) -> str:
        if code in (AS_SPADE, AS_TRUMP) or 0 <= code < 52:
            return move_token(code)
        return f"<move code {code}>"

    def move_code(self, name: str) -> int:
        from analyzer.games.two_ten_jack.view import move_code

        return move_code(name)

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
                add_interval(row, f"{who}_share", acc.share(f"bin_{who}_{k}", "hands"))
            bins.append(row)
        totals: dict[str, Any] = {}
        add_interval(totals, "rounds_per_game", acc.mean("hands"))
        add_interval(totals, "as_led_share", acc.share("as_led", "hands"))
        add_interval(totals, "as_led_as_trump_share", acc.share("as_led_trump", "hands"))
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
                               "legal": [MOVE_NAMES[m] for m in lists[0]], "move": MOVE_NAMES[row[2]]})
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
            return f"-- round {ev['hand']}, dealer {ev['dealer']}\n" + dealt_hands_text(ev["hands"])
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
        stop = decision_index(events, at)
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

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None, keep: tuple[str, ...] = ()):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        import numpy as np

        from analyzer.evaluate import Evaluation, Worlds
        if kernel is None:  # else the kernel with the user strategies in its slots (GameSpec.user_kernel)
            kernel = self.user_kernel([])

        pos = check_position(position, rules, self.position_keys)
        params = self.params(rules)
        ws = pos.ws
        seat = pos.seat
        no_worlds = np.zeros(0, dtype=np.int64)

        def play(worlds):
            def run(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes), 2), dtype=np.int64)
                kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, ws, seat, codes, result,
                                      np.int64(min(n, 4 * threads)), worlds)
                return result
            return run

        from analyzer.games.two_ten_jack.codes import PIMC_MAX_TRICKS
        from analyzer.games.two_ten_jack.rules import TRICKS

        compiled = self.module("kernel")  # solve_chunk plays no strategy: no user slots
        left = TRICKS - pos.tricks
        refusal = "" if left <= PIMC_MAX_TRICKS else (
            f"{left} tricks are left in this round; the solver values the last {PIMC_MAX_TRICKS} (pimc's limit: "
            "beyond it one solve takes seconds)")

        def solver(worlds):  # --method solve: play's worlds, each solved with both hands and the stock open
            def solve(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes)), dtype=np.int64)
                compiled.solve_chunk(np.uint64(seed), np.int64(start), params, ws, seat,
                                     np.asarray(codes, dtype=np.int64), result, np.int64(max(1, min(n, 4 * threads))),
                                     worlds)
                return result
            return None if refusal else solve

        def worlds(limit: int) -> Worlds | None:
            found = hidden_worlds(pos, limit)
            if found is None:
                return None
            hands, weights = found
            # while the stock lasts, a world (the other hand) leaves the stock's order to chance
            stock_left = bin(pos.unseen).count("1") > cards_held(ws, 1 - seat)
            return Worlds(weights=weights, run=play(hands), solve=solver(hands), future_fixed=not stock_left)

        return Evaluation(seat=seat, options=pos.options, names=[move_token(m) for m in pos.options],
                          outcome="points", outcome_binary=False, run=play(no_worlds),
                          description=f"seat {seat} {'leads' if pos.lead < 0 else 'follows'} trick {pos.tricks + 1}",
                          groups=option_groups(pos), worlds=worlds, lower_is_better=False,
                          solve=solver(no_worlds), solve_value=self.module("solver").VALUE, solve_refusal=refusal)


# ---- positions -----------------------------------------------------------------------------------

FULL = (1 << 52) - 1


@dataclass
class Position:
    seat: int
    dealer: int
    leader: int
    tricks: int
    lead: int                 # the lead move of the trick in progress, -1 when the seat leads
    played_mask: int          # cards of the finished tricks
    hands: list[int]          # the seat's hand; the other's a placeholder
    taken: list[int]
    scores: list[int]
    top: int
    options: list[int]
    ws: Any                   # the kernel bundle set to the position (knowledge included)
    unseen: int               # cards the seat cannot see (the other hand and the stock)


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


def knowledge(ws, s: int) -> tuple[list[int], list[tuple[list[int], float]]]:
    """Seat ``s``'s knowledge in a loaded bundle (kernel module docstring): the level masks,
    oldest first, and the states as (held slots per level, weight)."""
    nl, n = int(ws.kn[s, KN_LEVELS]), int(ws.kn[s, KN_STATES])
    levels = [int(m) for m in ws.levels[s, :nl]]
    states = [([int(ws.keys[s, i]) >> (4 * lv) & 15 for lv in range(nl)], float(ws.weights[s, i]))
              for i in range(n)]
    return levels, states


def _violation(ws, s: int, pool: int) -> str:
    """Why seat ``s`` cannot hold cards of ``pool`` (its knowledge admits no fill)."""
    levels, states = knowledge(ws, s)
    if not states:
        return "its plays contradict the voids it showed"
    counts = states[0][0]  # every state fails; tell the first one's story
    held = 0
    for mask, c in zip(levels, counts):
        held += c
        fit = bin(pool & ~mask).count("1")
        if fit < held:
            return (f"{held} of its cards were held when it had no {_void_text(mask)}, but only {fit} such card(s) "
                    f"are left")
    return "its voids cannot be met"


def _replay(params, dealer: int, moves: list[int], lead: int, scores: list[int]):
    """The bundle after the public history (kernel.load_position), and the seat to move."""
    import numpy as np

    from analyzer.games.two_ten_jack import kernel

    ws = kernel.workspace(params)
    kernel.load_position(ws, np.int64(dealer), np.array(moves, dtype=np.int64), np.int64(lead),
                         np.array(scores, dtype=np.int64), np.int64(1))
    leader = scalars(ws).leader
    return ws, (leader if lead < 0 else 1 - leader)


def check_position(position: dict[str, Any], rules: dict[str, Any], keys: tuple[str, ...]) -> Position:
    """Validate a position (format: docs/two-ten-jack.md) and replay its public history with
    the compiled rules (kernel.load_position): the trick winners, the cards taken and both
    seats' knowledge; the bundle is set to the position (the other hand a placeholder)."""
    import numpy as np

    from analyzer.games.two_ten_jack import kernel
    from analyzer.games.two_ten_jack.rules import follow_moves, lead_moves, round_winners, suit_led

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
    params = np.array([target], dtype=np.int64)
    if "dealer" in position:
        dealer = _int(position["dealer"], "dealer")
    elif seat_given is None:
        dealer = 1
    else:  # the dealer for which ``seat`` is the one to move (the non-dealer leads first)
        dealer = next((d for d in (1 - seat_given, seat_given)
                       if _replay(params, d, moves, lead, scores)[1] == seat_given), 1 - seat_given)
    if dealer not in (0, 1):
        raise AnalyzerError(f"dealer: seat {dealer} does not exist with 2 players")
    ws, seat = _replay(params, dealer, moves, lead, scores)
    sc = scalars(ws)
    leader = sc.leader
    if seat_given is not None and seat_given != seat:
        raise AnalyzerError(f"seat {seat_given} is not to move here: after these tricks seat {seat} "
                            f"{'leads' if lead < 0 else 'follows'} (dealer {dealer}; the non-dealer leads first)")
    size = cards_held(ws, seat)
    if len(hand) != size:
        raise AnalyzerError(f"seat {seat} holds {size} cards after {tricks} trick(s), not {len(hand)}")
    hand_mask = sum(1 << cd for cd in hand)
    other = 1 - seat
    played_mask = sc.played
    lead_mask = (1 << (51 if lead >= 52 else lead)) if lead >= 0 else 0
    unseen = FULL & ~hand_mask & ~played_mask & ~lead_mask
    for who, pool, what in ((seat, hand_mask, "the hand given"), (other, unseen, "the unseen cards")):
        if not kernel.hidden_weight(ws, np.int64(who), np.int64(pool)) > 0:
            raise AnalyzerError(f"impossible position: seat {who} showed voids that {what} cannot meet: "
                                f"{_violation(ws, who, pool)}")
    h = cards_held(ws, other)
    placeholder = sum(1 << cd for cd in _bits(unseen)[:h])
    hands = [0, 0]
    hands[seat], hands[other] = hand_mask, placeholder
    kernel.load_hands(ws, np.int64(hands[0]), np.int64(hands[1]))
    legal = int(lead_moves(np.int64(hand_mask)) if lead < 0 else follow_moves(np.int64(hand_mask),
                                                                               suit_led(np.int64(lead))))
    options = [m for m in range(64) if legal >> m & 1]
    return Position(seat, dealer, leader, tricks, lead, played_mask, hands, [int(t) for t in ws.taken], scores,
                    sc.top, options, ws, unseen)


def hidden_worlds(pos: Position, limit: int):
    """Every hand the other seat may hold, with its exact weight, when they number at most
    ``limit`` (else None): (int64[W] hand masks, float64[W] weights).

    The level masks being nested, the weight of a hand depends only on how many of its cards
    fall in each *band* (the unseen cards the oldest level allows, those the next one adds,
    ...): the kernel weighs one hand per band count (``kernel.hidden_weight``), and every
    hand with that count has that weight."""
    import itertools
    import math

    import numpy as np

    from analyzer.games.two_ten_jack import kernel

    ws, other = pos.ws, 1 - pos.seat
    h = cards_held(ws, other)
    levels, _ = knowledge(ws, other)
    bands, inside = [], 0
    for mask in levels:
        allowed = pos.unseen & ~mask
        bands.append(_bits(allowed & ~inside))
        inside |= allowed
    if h == 0 or not levels:
        bands = []
    found: list[tuple[tuple[int, ...], float]] = []
    count = 0

    def counts(k: int, left: int):
        if k == len(bands):
            if left == 0:
                yield ()
            return
        for c in range(min(left, len(bands[k])) + 1):
            for rest in counts(k + 1, left - c):
                yield (c, *rest)

    for n in counts(0, h):
        rep = sum(1 << cd for band, c in zip(bands, n) for cd in band[:c])
        w = float(kernel.hidden_weight(ws, np.int64(other), np.int64(rep)))
        if w > 0:
            found.append((n, w))
            count += math.prod(math.comb(len(band), c) for band, c in zip(bands, n))
            if count > limit:
                return None
    if h == 0:
        found, count = [((), 1.0)], 1
    if count == 0 or count > limit:
        return None
    hands, weights = [], []
    for n, w in found:
        for parts in itertools.product(*(itertools.combinations(band, c) for band, c in zip(bands, n))):
            hands.append(sum(1 << cd for part in parts for cd in part))
            weights.append(w)
    return np.array(hands, dtype=np.int64), np.array(weights, dtype=np.float64)


def option_groups(pos: Position) -> list[list[int]] | None:
    """Options that are interchangeable cards (indices into ``pos.options``), or None.

    Two cards of the seat's hand are merged when they are of the same suit (never AS: it is
    a spade and the top trump, and its two declarations are distinct leads), score the same
    points, and every card ranked between them is gone (played in a finished trick) or in
    the seat's own hand: then no card anyone may still play (the card led to this trick
    included) falls between them, so they win and lose the same tricks against every card,
    now and later. Hearts are ranked among themselves (AS above all of them), so the trump
    suit needs no special case beyond AS."""
    from analyzer.games.two_ten_jack.rules import ACE_SPADES, CARD_POINTS, SUIT_OF

    dead = pos.played_mask | pos.hands[pos.seat]
    groups: list[list[int]] = []
    for i, m in enumerate(pos.options):
        for g in groups:
            x = pos.options[g[0]]
            if m >= 52 or x >= 52 or m == ACE_SPADES or x == ACE_SPADES:
                continue
            if SUIT_OF[x] != SUIT_OF[m] or CARD_POINTS[x] != CARD_POINTS[m]:
                continue
            lo, hi = sorted((x, m))
            if all(dead >> cd & 1 for cd in range(lo + 1, hi)):
                g.append(i)
                break
        else:
            groups.append([i])
    return groups if any(len(g) > 1 for g in groups) else None


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
                                     "trumps while the stock lasts", deterministic=True),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards (voids respected), each move rolled "
                              "out to the end of the round with the base strategy; plays the move with the "
                              "most points", {"k": 32, "base": "heuristic"}),
        "pimc": StrategyInfo(3, "perfect-information Monte Carlo in the last TRICKS tricks of the round (default 6: "
                                "the stock gone): K samples of the hidden cards and the stock's order, each solved "
                                "exactly with every card open, the best mean value played (ties: the base's "
                                "choice); before them it plays as mc with the same k and base",
                             {"k": 16, "base": "heuristic", "tricks": PIMC_TRICKS}),
        "ismcts": StrategyInfo(4, "information-set Monte Carlo tree search: each iteration samples the hidden "
                                  "cards as mc does, walks a tree of what this seat knows through the round "
                                  "(UCB1, explore in hundredths), plays out with the base strategy to the game's "
                                  "end (or for `rounds` rounds) and scores a game won 1; plays the most visited move",
                               {"iterations": 1000, "base": "heuristic", "explore": 70, "rounds": 1000}),
    },
    decision_kinds=["play"],
    hand_name="round",
    trace_rows=16_384,  # a round takes about 560 rows; records.trace_game grows it when needed
    warm_up_seconds=93,  # make warm on an empty cache, 2026-12-07
)
