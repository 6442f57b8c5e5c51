"""Two-player Hearts: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

import math

from typing import Any

from analyzer.cards import CardError, token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, dealt_hands_text, decision_index, game_end_event
from analyzer.games.hearts2 import codes as C
from analyzer.games.hearts2.codes import EV_DEAL, EV_DECIDE, EV_GAME_END, EV_HAND_END, EV_TRICK, PLAYERS, TAG_DEAD
from analyzer.games.hearts2.rules import DEAD_CARDS, TRICKS
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists


class Hearts2Spec(GameSpec):
    def move_name(self, code: int) -> str:
        try:
            return token(int(code))
        except CardError:
            return f"<card code {code}>"

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        return list(C.EXTRA_COLUMNS)

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
            add_interval(row, "moon_rate", acc.share(f"moons_{s}", "hands"))
            share = acc.ratio(f"tricks_{s}", "hands")
            add_interval(row, "trick_share", tuple(v / TRICKS for v in share))
            add_interval(row, "qs_rate", acc.share(f"qs_{s}", "hands"))
            for key, value in row.items():
                columns.setdefault(key, []).append(value)
        for key, values in columns.items():
            seats[key] = values
        totals: dict[str, Any] = {}
        add_interval(totals, "hands_per_game", acc.mean("hands"))
        add_interval(totals, "moon_rate", acc.share("moons", "hands"))
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
                events.append(game_end_event(row[1], PLAYERS, lists[0], row[2]))
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            return (f"-- hand {ev['hand']}, dealer {ev['dealer']}, dead {' '.join(ev['dead'])}\n"
                    + dealt_hands_text([_sorted(h) for h in ev["hands"]]))
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


    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "hand", "played", "trick", "scores", "decision", "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based, counted over the whole game) of a recorded game, as the
        deciding seat saw it: its hand, the cards played this hand, the scores."""
        head = events[0]
        stop = decision_index(events, at)
        seat = events[stop]["seat"]
        hand: list[str] = []
        played: list[str] = []
        scores, dealer = [0, 0], 0
        for ev in events[1:stop]:
            kind = ev["ev"]
            if kind == "deal":
                hand, played, dealer = list(ev["hands"][seat]), [], ev["dealer"]
            elif kind == "decide":
                played.append(ev["move"])
                if ev["seat"] == seat:
                    hand.remove(ev["move"])
            elif kind == "hand_end":
                scores = list(ev["scores"])
        return {"seat": seat, "dealer": dealer, "hand": hand, "played": played, "scores": scores,
                "rules": dict(head["rules"])}

    def read_position(self, rules: dict[str, Any], position: dict[str, Any]) -> C.Position:
        """Check a position's format and replay its history with the compiled rules
        (kernel.load_position): what the seat knows, as a ``codes.Position``."""
        return _read_position(rules, position, self.position_keys)

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None, keep: tuple[str, ...] = ()):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        import numpy as np

        from analyzer.evaluate import Evaluation, Worlds
        if kernel is None:  # else the kernel with the user strategies in its slots (GameSpec.user_kernel)
            kernel = self.user_kernel([])

        pos = self.read_position(rules, position)
        params = self.params(rules)

        def runner(worlds):
            def run(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes), 2), dtype=np.int64)
                kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, pos,
                                      np.asarray(codes, dtype=np.int64), worlds, result,
                                      np.int64(max(1, min(n, 4 * threads))))
                return result
            return run

        compiled = self.module("kernel")  # solve_chunk plays no strategy: no user slots

        def solver(worlds):  # --method solve: the same worlds as runner's, each solved with every card open
            def solve(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes)), dtype=np.int64)
                compiled.solve_chunk(np.uint64(seed), np.int64(start), pos, np.asarray(codes, dtype=np.int64), worlds,
                                   result, np.int64(max(1, min(n, 4 * threads))))
                return result
            return solve

        def worlds(limit: int):
            dead = dead_worlds(pos.pool, pos.forced_dead, limit)
            return None if dead is None else Worlds(np.ones(len(dead)), runner(dead), solver(dead))

        options = _cards(pos.legal)
        no_worlds = np.zeros(0, dtype=np.int64)
        return Evaluation(seat=pos.seat, options=options, names=[token(c) for c in options],
                          outcome="points", outcome_binary=False, run=runner(no_worlds),
                          description=f"seat {pos.seat}, trick {pos.trick + 1}",
                          groups=equivalent_cards(options, pos.pool, pos.led),
                          worlds=worlds, lower_is_better=True, solve=solver(no_worlds),
                          solve_value=self.module("solver").VALUE)

    def hidden_samples(self, rules: dict[str, Any], position: dict[str, Any], n: int, seed: int = 0):
        """``n`` samples of what the seat cannot see: int64[n, 2] masks (opponent's hand,
        dead cards), drawn as ``mc`` and the evaluation draw them."""
        import numpy as np

        from analyzer.games.hearts2 import kernel

        pos = self.read_position(rules, position)
        out = np.zeros((n, 2), dtype=np.int64)
        kernel.sample_many(np.uint64(seed), np.int64(pos.pool), np.int64(pos.forced_dead), n, out)
        return out


def _cards(mask: int) -> list[int]:
    """The card codes of a mask, low to high."""
    return [c for c in range(52) if mask >> c & 1]


def dead_worlds(pool: int, forced: int, limit: int):
    """Every consistent world as its dead-card mask (int64[W]; the opponent holds the rest of
    the pool), or None when there are more than ``limit``. The two dead cards are the
    ``forced`` ones and a choice of the rest from the free pool; every such deal is equally
    likely (``rules.sample_hidden`` draws the same worlds uniformly)."""
    import itertools

    import numpy as np

    free = _cards(pool & ~forced)
    need = DEAD_CARDS - bin(forced).count("1")
    if need < 0 or math.comb(len(free), need) > limit:
        return None
    masks = [forced | sum(1 << c for c in extra) for extra in itertools.combinations(free, need)]
    return np.array(masks, dtype=np.int64)


def equivalent_cards(legal: list[int], pool: int, led: int) -> list[list[int]] | None:
    """Groups of the legal cards that are interchangeable: the same suit and the same points
    (rules.CARD_POINTS), with no live card between them: none the opponent may hold (the
    pool: its hand and the dead cards) and not the card led to this trick (``led``, -1 when
    the seat leads). None when no two are."""
    from analyzer.games.hearts2.rules import CARD_POINTS, SUIT_OF

    if led >= 0:
        pool |= 1 << led

    groups: list[list[int]] = []
    for i, card in enumerate(sorted(legal)):
        last = groups[-1][-1] if groups else None
        if (last is not None and SUIT_OF[legal[last]] == SUIT_OF[card]
                and CARD_POINTS[legal[last]] == CARD_POINTS[card]
                and not any(pool >> c & 1 for c in range(legal[last] + 1, card))):
            groups[-1].append(legal.index(card))
        else:
            groups.append([legal.index(card)])
    return groups if len(groups) < len(legal) else None


def _read_position(rules: dict[str, Any], position: dict[str, Any], keys) -> C.Position:
    """Check a position's format (keys, card tokens, duplicates, counts), then replay its
    history with the compiled rules (kernel.load_position), which refuses an impossible one."""
    import numpy as np

    from analyzer.cards import hearts2_deck
    from analyzer.games.hearts2 import kernel
    from analyzer.games.hearts2.rules import game_winners

    if not isinstance(position, dict):
        raise AnalyzerError("a hearts2 position is a JSON object (keys: " + ", ".join(keys) + ")")
    unknown = set(position) - set(keys)
    if unknown:
        raise AnalyzerError(f"hearts2 positions have no {sorted(unknown)[0]!r} (keys: {', '.join(keys)})")
    decision = str(position.get("decision", "play"))
    if decision != "play":
        raise AnalyzerError(f"hearts2 has only play decisions, not {decision!r}")
    seat = _int(position.get("seat", 0), "seat")
    if seat not in (0, 1):
        raise AnalyzerError(f"seat: seat {seat} does not exist with 2 players")
    dealer = _int(position.get("dealer", 0), "dealer")
    if dealer not in (0, 1):
        raise AnalyzerError(f"dealer: seat {dealer} does not exist with 2 players")
    deck = hearts2_deck()

    def cards(key: str) -> list[int]:
        value = position.get(key, [])
        items = value.replace(",", " ").split() if isinstance(value, str) else [str(v) for v in value]
        try:
            return deck.parse(items, key)
        except CardError as exc:
            raise AnalyzerError(str(exc)) from None

    if "hand" not in position:
        raise AnalyzerError("give the seat's hand (the cards it holds now)")
    hand = cards("hand")
    played, current_trick = cards("played"), cards("trick")
    if current_trick and (len(current_trick) > 1 or len(played) % 2):
        raise AnalyzerError("trick holds the card led to the current trick (when the seat follows), and "
                            "played the cards of the complete tricks before it")
    played += current_trick
    try:
        deck.check(hand + played, "the hand and the cards played together")
    except CardError as exc:
        raise AnalyzerError(str(exc)) from None
    if len(played) > 2 * TRICKS - 1:
        raise AnalyzerError(f"{len(played)} cards played: a hand has {2 * TRICKS} plays, so no decision is left")
    ntricks = len(played) // 2
    if len(hand) != TRICKS - ntricks:
        raise AnalyzerError(f"after {ntricks} complete trick(s) seat {seat} holds {TRICKS - ntricks} cards, "
                            f"not {len(hand)}")
    scores = _ints(position.get("scores", [0, 0]), "scores")
    if len(scores) != 2 or min(scores) < 0:
        raise AnalyzerError("scores takes 2 non-negative numbers, one per seat, like 12,30")
    if game_winners(scores[0], scores[1], rules["target"]):
        raise AnalyzerError(f"scores {scores[0]},{scores[1]}: the game ended at target {rules['target']}")
    pos, refusal = kernel.load_position(np.int64(seat), np.int64(sum(1 << c for c in hand)),
                                        np.array(played, dtype=np.int64), np.int64(dealer), np.int64(scores[0]),
                                        np.int64(scores[1]), np.int64(1))
    if refusal.code != C.REPLAY_OK:
        raise AnalyzerError(_refusal_message(refusal, seat, played))
    return pos


def _refusal_message(refusal: C.Refusal, seat: int, played: list[int]) -> str:
    """The one-line error for a history kernel.load_position refused."""
    code, card = refusal.code, refusal.card
    trick = refusal.at // 2 + 1
    if code == C.BAD_FIRST_CARD:
        return f"the first card of a hand is 2C, or 4C when 2C is dead, or 6C: not {token(card)}"
    if code == C.NO_FIRST_LEAD:
        return f"seat {seat} is to lead the first trick but holds none of 2C 4C 6C"
    if code == C.DEAD_CARD_SEEN:
        # (only a card played first can make one dead that the seat holds or saw)
        return f"the first lead is {token(played[0])}, so {token(card)} is dead: it cannot be held or played"
    if code == C.ILLEGAL_PLAY:
        legal = " ".join(token(c) for c in _cards(refusal.cards))
        return f"seat {seat} could not have played {token(card)} to trick {trick}: its legal cards were {legal}"
    if code == C.PLAYED_SHOWN_VOID:
        return (f"seat {1 - seat} played {token(card)} to trick {trick} after showing it held "
                f"no {token(card)[1]}")
    if code == C.TOO_MANY_DEAD:
        return (f"impossible: seat {1 - seat} showed it holds none of "
                f"{' '.join(token(c) for c in _cards(refusal.cards))}, but only {DEAD_CARDS} cards are dead")
    return f"impossible position (replay code {code})"


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
    strategies={
        "random": StrategyInfo(0, "uniform over the legal cards"),
        "heuristic": StrategyInfo(1, "ducks under the opponent's card, sheds QS when void, leads low in short "
                                     "suits, stops a moon by taking a point", deterministic=True),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards (voids respected), each card rolled "
                              "out to the end of the hand with the base strategy; plays the card that takes "
                              "the fewest points", {"k": 32, "base": "heuristic"}),
        "pimc": StrategyInfo(3, "perfect-information Monte Carlo: K samples of the hidden cards (voids "
                                "respected), each solved exactly with every card open; plays the card with the "
                                "best mean value (ties: the base strategy's choice among them)",
                             {"k": 16, "base": "heuristic"}),
        "ismcts": StrategyInfo(4, "information-set Monte Carlo tree search: each iteration samples the hidden "
                                  "cards (voids respected), walks a tree of what this seat knows (UCB1, explore "
                                  "in hundredths), plays out with the base strategy to the game's end (or for "
                                  "`hands` hands) and scores a game won 1; plays the most visited card",
                               {"iterations": 1000, "base": "heuristic", "explore": 70, "hands": 1000}),
    },
    lower_score_wins=True,
    decision_kinds=["play"],
    trace_rows=16_384,  # a 100-point game writes about 2,000 rows; records.py grows it when needed
    warm_up_seconds=40,  # make warm on an empty cache, 2026-12-07
)
