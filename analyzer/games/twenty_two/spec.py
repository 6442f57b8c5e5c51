"""Twenty-Two: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, dealt_hands_text, decision_index, game_end_event
from analyzer.games.twenty_two import strategies as st
from analyzer.games.twenty_two.codes import (
    E_BELOW_FLOOR, E_DEAL_SIZE, E_FIRST_DISCARDER, E_FLOORS, E_FOLLOW_SIZE, E_GAME_OVER, E_LEAD_KEEP,
    E_LEAD_RANKS, E_NOT_LEADER, E_NOT_TO_MOVE, E_NOTHING_TO_DECIDE, E_OWN_COULD_BEAT, E_OWN_ILLEGAL,
    E_OWN_LOWER, E_SEAT_OUT, E_STOCK_RANGE, E_TOO_MANY, E_TRICK_COMPLETE, E_TRICK_LENGTH, E_UNSEEN_SHORT,
    EV_DEAL, EV_DECIDE, EV_DRAW, EV_FINAL, EV_GAME_END, EV_HAND_END, EV_TRICK, KIND_DISCARD, KIND_FOLLOW,
    KIND_LEAD, KINDS, RANKS, TAG_STOCK, WHY,
)
from analyzer.games.twenty_two.rules import MAX_LEGAL
from analyzer.games.twenty_two.state import scalars
from analyzer.games.twenty_two.view import _NAMES as _TEXT, move_code, move_name as move_text
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import LIST

#: evaluations race at most this many options; a decision with more legal moves (large
#: discards: up to 2048 sets) is screened first on SCREEN_SAMPLES samples
MAX_EVAL_OPTIONS = 128
SCREEN_SAMPLES = 128
SCREEN_SEED = 0x22


class TwentyTwoSpec(GameSpec):
    def move_name(self, code: int) -> str:
        # more than four cards of a rank (one deck) is no set: the code itself, not "2222222"
        if not 0 <= code < 1 << 52 or any((code >> (4 * r)) & 15 > 4 for r in range(13)):
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
            "final_share": [acc.share(f"took_{s}", f"played_{s}") for s in range(rules["players"])],
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
                events.append(game_end_event(row[1], p, lists[0], row[2]))
        return events

    def describe(self, ev: dict[str, Any]) -> str | None:
        kind = ev["ev"]
        if kind == "deal":
            return (f"-- hand {ev['hand']}, dealer {ev['dealer']}, {ev['size']} cards each, "
                    f"stock {len(ev['stock'])}\n" + dealt_hands_text(ev["hands"]))
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

    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "kind", "decision", "hand", "stock", "discarded", "played", "trick",
                     "scores", "scored", "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based) of a recorded game, as the deciding seat saw it."""
        head = events[0]
        stop = decision_index(events, at)
        seat = events[stop]["seat"]
        p = head["players"]
        hand: list[str] = []
        discarded: list[str] = []
        played: list[list[str]] = []
        trick: list[str] = []
        scores, scored, dealer, stock = [0] * p, [], 0, 0
        for ev in events[1:stop]:
            kind = ev["ev"]
            if kind == "deal":
                hand, discarded, played, trick = list(ev["hands"][seat]), [], [], []
                dealer, stock = ev["dealer"], len(ev["stock"])
            elif kind == "decide":
                if ev["kind"] == "discard":
                    if ev["seat"] == seat:
                        discarded += _take(hand, ev["move"])
                else:
                    trick.append(ev["move"])
                    if ev["seat"] == seat:
                        _take(hand, ev["move"])
            elif kind == "draw":
                stock -= len(ev["cards"])
                if ev["seat"] == seat:
                    hand += ev["cards"]
            elif kind == "trick":
                played.append(trick)
                trick = []
            elif kind == "final":
                scored += [card for s, card in ev["plays"] if s in ev["takers"]]
            elif kind == "hand_end":
                scores = list(ev["scores"])
        return {"seat": seat, "players": p, "dealer": dealer, "kind": events[stop]["kind"],
                "hand": _sorted_tokens(hand), "stock": stock, "discarded": _sorted_tokens(discarded),
                "played": played, "trick": trick, "scores": scores, "scored": _sorted_tokens(scored),
                "rules": {k: v for k, v in head["rules"].items() if k != "players"}}

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None, keep: tuple[str, ...] = ()):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        from analyzer.evaluate import Evaluation
        if kernel is None:  # else the kernel with the user strategies in its slots (GameSpec.user_kernel)
            kernel = self.user_kernel([])

        pos = load_position(rules, position)
        params = self.params(rules)
        ws = pos.ws
        seat = pos.seat
        if pos.events and not kernel.consistent(params, ws, np.int64(seat)):
            raise AnalyzerError("no deal fits: the followers who played cards that do not match or beat could "
                                "not have been unable to (lowest_only_if_unable) with the cards still unseen")
        options = pos.legal(params)

        def run(seed, start, codes, n, threads):
            result = np.zeros((n, len(codes), 2), dtype=np.int64)
            kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, ws, np.int64(seat),
                                  np.asarray(codes, dtype=np.int64), result, np.int64(min(n, 4 * threads)))
            return result

        extra: dict[str, Any] = {"legal": len(options)}
        if len(options) > MAX_EVAL_OPTIONS:
            # screening: every legal set on the same SCREEN_SAMPLES samples (own seed), the
            # MAX_EVAL_OPTIONS best by win rate (then by took_final) go on to the evaluation
            import numba

            screen = run(SCREEN_SEED, 0, np.array(options, dtype=np.int64), SCREEN_SAMPLES, numba.get_num_threads())
            mean = screen.mean(axis=0)
            order = sorted(range(len(options)), key=lambda i: (-mean[i, 1], mean[i, 0], i))
            kept = {options[i] for i in order[:MAX_EVAL_OPTIONS]}
            # a move asked for (the one a record played) stays, screened out or not
            kept |= {_code_of(text) for text in keep} & set(options)
            options = sorted(kept)
            extra["screened"] = SCREEN_SAMPLES
        return Evaluation(seat=seat, options=options, names=[option_name(m) for m in options],
                          outcome="took_final", outcome_binary=True, run=run, lower_is_better=True,
                          description=f"seat {seat}, {KINDS[pos.kind]}, hand {' '.join(tokens(pos.hand))}",
                          extra=extra)


# ---- positions -----------------------------------------------------------------------------

def _code_of(text: str) -> int:
    """A move's code from its record text; -1 (no move) for a text that names none."""
    try:
        return move_code(text)
    except ValueError:
        return -1


def option_name(code: int) -> str:
    """An option's name in evaluation tables: its rank string, ``-`` for no discard."""
    return move_text(code) or "-"


def _sorted_tokens(cards: list[str]) -> list[str]:
    from analyzer.cards import parse_card

    return tokens(sorted(parse_card(c) for c in cards))


def _take(hand: list[str], move: str) -> list[str]:
    """Remove ``move``'s cards from ``hand`` (tokens) the way the engine does: for each
    rank, the held cards of the lowest suits (C, D, H, S)."""
    taken = []
    for rank in move:
        held = sorted((c for c in hand if c[0] == rank), key=lambda c: "CDHS".index(c[1]))
        taken.append(held[0])
        hand.remove(held[0])
    return taken


def _cards(value: Any, name: str) -> list[int]:
    from analyzer.cards import CardError, standard_deck

    try:
        return standard_deck(1).parse(value if value is not None else [], name)
    except CardError as exc:
        raise AnalyzerError(f"{name}: {exc}") from None


def _move(text: Any, name: str) -> int:
    if not isinstance(text, str) or not text.strip():
        raise AnalyzerError(f"{name}: a move is a rank string like 7, QQ or 45, not {text!r}")
    try:
        return move_code(text.strip().upper().replace("10", "T"))
    except ValueError as exc:
        raise AnalyzerError(f"{name}: {exc}") from None


def _moves(value: Any, name: str) -> list[int]:
    """One trick: moves in play order, as a list or a space separated string (``"KK 45 22"``)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)):
        raise AnalyzerError(f"{name} takes moves in play order like \"KK 45 22\", not {value!r}")
    return [_move(m, name) for m in value]


def _tricks(value: Any) -> list[list[int]]:
    """Earlier tricks: a list of tricks, or one string with tricks separated by ``;`` or ``/``."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [t for t in value.replace("/", ";").split(";") if t.strip()]
    if not isinstance(value, (list, tuple)):
        raise AnalyzerError(f"played takes a list of tricks, not {value!r}")
    return [_moves(t, f"played trick {i + 1}") for i, t in enumerate(value)]


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


class Position:
    """A checked position: a state bundle (``ws``) that the engine set to it by replaying its
    public history (kernel.load_position), and what the deciding seat knows."""

    def __init__(self, ws, seat: int, kind: int, hand: list[int], scored: list[int]) -> None:
        self.ws, self.seat, self.kind, self.hand, self.scored = ws, seat, kind, hand, scored
        self.registers = scalars(ws)

    @property
    def dealer(self) -> int:
        return self.registers["dealer"]

    @property
    def leader(self) -> int:
        return self.registers["leader"]

    @property
    def stock(self) -> int:
        """Cards left in the stock."""
        return self.registers["ndeck"] - self.registers["top"]

    @property
    def ndone(self) -> int:
        """Discard: how many seats discarded before this one."""
        return self.registers["ndone"]

    @property
    def floor(self) -> list[int]:
        """Per seat, the lowest rank it can hold, as its plays showed (0: nothing shown)."""
        return [int(f) for f in self.ws.floor]

    @property
    def sizes(self) -> list[int]:
        """Cards each seat holds now."""
        return [bin(int(m)).count("1") for m in self.ws.hmask]

    @property
    def pool(self) -> list[int]:
        """The cards the seat cannot see (other hands, other discards, stock), by rank then suit."""
        hidden = 0
        for s in range(len(self.ws.hmask)):
            if s != self.seat:
                hidden |= int(self.ws.hmask[s]) | int(self.ws.dmask[s])
        for c in self.ws.deck[self.registers["top"]:self.registers["ndeck"]]:
            hidden |= 1 << int(c)
        return sorted(_bits(hidden), key=lambda c: (c % 13, c // 13))

    @property
    def events(self) -> list[tuple[int, int, int]]:
        """Variant: each "could not match or beat" follow as (seat, best set, its cards played before)."""
        u = self.ws.unable
        return [(int(u[3 * i]), int(u[3 * i + 1]), int(u[3 * i + 2])) for i in range(self.registers["nunable"])]

    def legal(self, params) -> list[int]:
        """The legal moves of the decision, by the engine (kernel.position_legal)."""
        from analyzer.games.twenty_two import kernel

        out = np.zeros(MAX_LEGAL, dtype=np.int64)
        n = kernel.position_legal(params, self.ws, out)
        return sorted(int(m) for m in out[:n])


def position_error(why, starts: set[int], finished: int) -> str:
    """The one-line message of a position the engine refused (``why``: codes.E_* and details;
    ``starts``: the indices of the moves that lead a trick; ``finished``: how many tricks
    of those are finished, the next one is in progress)."""
    code, a, b, c, d = (int(x) for x in why)

    def where(k: int) -> str:
        trick = sum(1 for i in starts if i <= k)
        return "trick" if trick > finished else f"played trick {trick}"

    if code == E_GAME_OVER:
        return f"at most one player is below the target ({a}): the game is over"
    if code == E_SEAT_OUT:
        return f"seat {a} is out of the game (score {b} >= target {c})"
    if code == E_DEAL_SIZE:
        return f"{a} players cannot hold {b} cards each from a deck of {c}"
    if code == E_STOCK_RANGE:
        return f"the stock holds 0 to {a} cards here, not {b}"
    if code == E_FIRST_DISCARDER:
        return f"seat {a} discards first: the stock still holds all {b} undealt cards"
    if code == E_NOTHING_TO_DECIDE:
        return "with one card left only the final trick remains: there is nothing to decide"
    if code == E_TOO_MANY:
        return f"the tricks played imply {a} cards dealt to each of {b} players: too many"
    if code == E_TRICK_LENGTH:
        return f"played trick {a + 1} has {b} moves; {c} players are in"
    if code == E_TRICK_COMPLETE:
        return f"trick has {a} moves: with {b} players in it would be complete"
    if code == E_BELOW_FLOOR:
        verb = "leads" if a in starts else "plays"
        return (f"{where(a)}: seat {b} {verb} {move_text(c)}, below the lowest rank it was shown to hold "
                f"({RANKS[d]})")
    if code == E_LEAD_RANKS:
        return f"{where(a)}: the lead {move_text(b)} is not of one rank"
    if code == E_LEAD_KEEP:
        return f"{where(a)}: a lead of {b} card(s) from {c} must keep one card"
    if code == E_FOLLOW_SIZE:
        return f"{where(a)}: {move_text(b)} does not have the {c} card(s) of the lead"
    if code == E_NOT_TO_MOVE:
        return f"seat {a} is to move after these tricks, not seat {b}"
    if code == E_NOT_LEADER:
        return f"seat {a} leads after these tricks, not seat {b}"
    if code == E_OWN_LOWER:
        return (f"{where(b)}: seat {a} plays {move_text(c)}, which does not match or beat, while holding lower "
                f"cards (a {RANKS[d]}: in its hand now or played later)")
    if code == E_OWN_COULD_BEAT:
        return (f"{where(b)}: seat {a} could match or beat {move_text(c)} with its hand then, so it could not "
                "play cards that do not (lowest_only_if_unable)")
    if code == E_OWN_ILLEGAL:
        return f"{where(b)}: seat {a} cannot play {move_text(c)} with the hand it held then"
    if code == E_UNSEEN_SHORT:
        return f"the other players hold {a} cards but only {b} cards are unseen"
    if code == E_FLOORS:
        return (f"no deal fits: players who played their lowest cards must hold {a} cards of rank {RANKS[b]} "
                f"or higher, and only {c} are unseen")
    return f"impossible position (code {code})"


def _replay(params, seat: int, dealer: int, kind: int, hand: list[int], discarded: list[int],
            scored: list[int], scores: list[int], stock: int, moves: list[int], ends: list[int]):
    """The engine's replay of the public history (kernel.load_position): (bundle, why, log, ok)."""
    from analyzer.games.twenty_two import kernel

    ws = kernel.workspace(params)
    why = np.zeros(WHY, dtype=np.int64)
    log = np.zeros(5 * max(len(moves), 1), dtype=np.int64)
    ok = kernel.load_position(params, ws, np.int64(seat), np.int64(dealer), np.int64(kind), np.int64(_mask(hand)),
                              np.int64(_mask(discarded)), np.int64(_mask(scored)),
                              np.array(scores, dtype=np.int64), np.int64(stock),
                              np.array(moves, dtype=np.int64), np.array(ends, dtype=np.int64), why, log)
    return ws, why, log, bool(ok)


def load_position(rules: dict[str, Any], position: dict[str, Any]) -> Position:
    """Check a position's format (documented in docs/twenty-two.md) and let the engine replay
    it (kernel.load_position: the rules decide what is legal, who is to move, the floors)."""
    unknown = set(position) - set(TwentyTwoSpec.position_keys)
    if unknown:
        raise AnalyzerError(f"twenty-two positions have no {sorted(unknown)[0]!r} "
                            f"(keys: {', '.join(TwentyTwoSpec.position_keys)})")
    p = rules["players"]
    scores = _ints(position.get("scores", [0] * p), "scores")
    if len(scores) != p or min(scores) < 0:
        raise AnalyzerError(f"scores takes {p} non-negative numbers, one per seat")
    if "seat" not in position:
        raise AnalyzerError("give the seat that decides (seat)")
    seat = _int(position["seat"], "seat")
    if not 0 <= seat < p:
        raise AnalyzerError(f"seat: seat {seat} does not exist with {p} players")
    hand = _cards(position.get("hand"), "hand")
    discarded = _cards(position.get("discarded", []), "discarded")
    scored = _cards(position.get("scored", []), "scored")
    seen: dict[int, str] = {}
    for name, cards in (("hand", hand), ("discarded", discarded), ("scored", scored)):
        for c in cards:
            if c in seen:
                raise AnalyzerError(f"{token(c)} appears twice ({seen[c]} and {name})")
            seen[c] = name
    played = _tricks(position.get("played"))
    trick = _moves(position.get("trick"), "trick")
    if "kind" in position and "decision" in position and position["kind"] != position["decision"]:
        raise AnalyzerError("kind and decision (the same key) disagree")
    kind_name = position.get("kind", position.get("decision", "follow" if trick else "lead" if played else "discard"))
    if kind_name not in KINDS:
        raise AnalyzerError(f"kind is one of {', '.join(KINDS)}, not {kind_name!r}")
    kind = KINDS.index(kind_name)
    if not 1 <= len(hand) <= 11:
        raise AnalyzerError(f"a twenty-two hand holds 1 to 11 cards, not {len(hand)}")
    # cards per rank: nothing may be seen more than 4 times
    count = [0] * 13
    for c in hand + discarded + scored:
        count[c % 13] += 1
    for m in [m for t in played for m in t] + trick:
        for r in range(13):
            count[r] += (m >> (4 * r)) & 15
    for r in range(13):
        if count[r] > 4:
            raise AnalyzerError(f"{count[r]} cards of rank {RANKS[r]} are seen (hand, discarded, scored, "
                                "played and trick together): a deck has 4")
    dealer = _int(position["dealer"], "dealer") if "dealer" in position else -1
    if "dealer" in position and not 0 <= dealer < p:
        raise AnalyzerError(f"dealer: seat {dealer} does not exist with {p} players")
    params = SPEC.params(rules)
    if kind == KIND_DISCARD:
        if played or trick or discarded:
            raise AnalyzerError("a discard comes before the tricks, and before the seat's own discard: "
                                "played, trick and discarded must be empty")
        stock = _int(position["stock"], "stock") if "stock" in position else -1
        if "stock" in position and stock < 0:
            raise AnalyzerError(f"stock: a number of cards (0 or more), not {stock}")
        ws, why, _, ok = _replay(params, seat, dealer, kind, hand, [], scored, scores, stock, [], [0])
        if not ok:
            raise AnalyzerError(position_error(why, set(), 0))
        return Position(ws, seat, kind, hand, scored)
    if kind == KIND_LEAD and trick:
        raise AnalyzerError("a lead starts a trick: trick must be empty (earlier tricks go in played)")
    if kind == KIND_FOLLOW and not trick:
        raise AnalyzerError("a follow needs the current trick's moves so far (trick)")
    moves = [m for t in played for m in t] + trick
    ends = list(itertools.accumulate(len(t) for t in played + [trick]))
    starts = {e - len(t) for e, t in zip(ends, played + [trick]) if t}
    replays, problems = [], []
    for d in [dealer] if dealer >= 0 else range(p):
        ws, why, log, ok = _replay(params, seat, d, kind, hand, discarded, scored, scores, 0, moves, ends)
        if ok:
            replays.append((int(log[0]) if moves else seat, ws))
        else:
            problems.append(position_error(why, starts, len(played)))
    if not replays:
        raise AnalyzerError(problems[0] if dealer >= 0 or len(set(problems)) == 1 else
                            f"no dealer makes seat {seat} the one to move after these tricks ({problems[0]})")
    if len({first for first, _ in replays}) > 1:
        raise AnalyzerError("several dealers fit these tricks: give the dealer")
    return Position(replays[0][1], seat, kind, hand, scored)


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
    strategies={
        "random": StrategyInfo(st.RANDOM, "uniform over the legal moves (discards included)"),
        "heuristic": StrategyInfo(st.HEURISTIC, "discards T-A to fish for low cards, leads its highest rank, "
                                                "sheds high cards when they beat, keeps its lowest card for the "
                                                "final trick", deterministic=True),
        "mc": StrategyInfo(st.MC, "Monte Carlo: K samples of the hidden cards, each candidate move rolled out "
                                  "to the end of the hand with the base strategy; plays the move that takes "
                                  "the fewest final-trick points", {"k": 32, "base": "heuristic"}),
        "ismcts": StrategyInfo(st.ISMCTS, "information-set Monte Carlo tree search: each iteration samples the "
                                          "hidden cards as mc does, walks a tree of what this seat knows over mc's "
                                          "candidate moves (UCB1, explore in hundredths), plays out with the base "
                                          "strategy for `hands` hands (default 1: this hand, each seat valued by its "
                                          "share of the room left under the target; 1000: to the game's end, a win "
                                          "1) and backs up each seat's own reward; plays the most visited move",
                               {"iterations": 1000, "base": "heuristic", "explore": 70, "hands": 1}),
    },
    lower_score_wins=True,
    decision_kinds=list(KINDS),
    trace_rows=50_000,
    warm_up_seconds=60,  # make warm on an empty cache, 2026-12-07
)
