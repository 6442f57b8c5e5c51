"""Twenty-Two: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int, int_list as _ints
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, game_end_event
from analyzer.stats import Accumulator
from analyzer.tables import add_interval, seat_table
from analyzer.trace import LIST

# must match kernel.py (kept here so that decoding a record needs no numba)
EV_DEAL, EV_DECIDE, EV_DRAW, EV_TRICK, EV_FINAL, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7
TAG_STOCK = 100
KINDS = ("discard", "lead", "follow")
#: evaluations race at most this many options; a decision with more legal moves (large
#: discards: up to 2048 sets) is screened first on SCREEN_SAMPLES samples
MAX_EVAL_OPTIONS = 128
SCREEN_SAMPLES = 128
SCREEN_SEED = 0x22
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
                events.append(game_end_event(row[1], p, lists[0], row[2]))
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

    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "kind", "decision", "hand", "stock", "discarded", "played", "trick",
                     "scores", "scored", "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based) of a recorded game, as the deciding seat saw it."""
        head = events[0]
        decisions = [i for i, ev in enumerate(events) if ev["ev"] == "decide"]
        if at is None or not 1 <= at <= len(decisions):
            raise AnalyzerError(f"--at must be a decision number from 1 to {len(decisions)}, not {at}")
        stop = decisions[at - 1]
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
                   kernel=None):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate)."""
        from analyzer.evaluate import Evaluation
        if kernel is None:  # else the kernel with user strategies bound (GameSpec.user_kernel)
            from analyzer.games.twenty_two import kernel

        pos = load_position(rules, position)
        params = self.params(rules)
        ws = kernel.workspace(params)
        pos.fill(ws)
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
            options = sorted(options[i] for i in order[:MAX_EVAL_OPTIONS])
            extra["screened"] = SCREEN_SAMPLES
        return Evaluation(seat=seat, options=options, names=[option_name(m) for m in options],
                          outcome="took_final", outcome_binary=True, run=run, lower_is_better=True,
                          description=f"seat {seat}, {KINDS[pos.kind]}, hand {' '.join(tokens(pos.hand))}",
                          extra=extra)


# ---- positions -----------------------------------------------------------------------------

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


def _size(code: int) -> int:
    return sum((code >> (4 * r)) & 15 for r in range(13))


def _high(code: int) -> int:
    return max(r for r in range(13) if (code >> (4 * r)) & 15)


def _low(code: int) -> int:
    return min(r for r in range(13) if (code >> (4 * r)) & 15)


def _next_active(seat: int, active: list[bool]) -> int:
    p = len(active)
    for k in range(1, p + 1):
        if active[(seat + k) % p]:
            return (seat + k) % p
    return seat


class Position:
    """A checked position, ready to be loaded into a kernel state bundle."""

    def __init__(self) -> None:
        self.kind = 0
        self.seat = 0
        self.hand: list[int] = []

    def fill(self, ws) -> None:
        from analyzer.games.twenty_two import kernel as K

        deck, hmask, hpk, scores, active, gone, dmask, floor, deal_rng, play_rng, sc = ws[:11]
        p = len(self.active)
        sc[:] = 0
        for s in range(p):
            scores[s] = self.scores[s]
            active[s] = self.active[s]
            gone[s] = 0
            floor[s] = self.floor[s]
            dmask[s] = 0
            hmask[s] = 0
            hpk[s] = 0
        pool = list(self.pool)
        for s in range(p):
            cards = self.hand if s == self.seat else [pool.pop() for _ in range(self.sizes[s])] if self.active[s] else []
            for c in cards:
                hmask[s] |= 1 << c
                hpk[s] += 1 << (4 * (c % 13))
        for s, n in self.dead.items():
            for _ in range(n):
                dmask[s] |= 1 << pool.pop()
        if self.own_dead:
            dmask[self.seat] = sum(1 << c for c in self.own_dead)
        top = 52 - len(pool)
        deck[:] = 0
        deck[top:] = pool
        sc[K.S_TOP], sc[K.S_NDECK] = top, 52
        sc[K.S_DEALER], sc[K.S_PHASE], sc[K.S_SEAT], sc[K.S_NDONE] = self.dealer, self.kind, self.seat, self.ndone
        sc[K.S_SIZE], sc[K.S_HS], sc[K.S_LEADER] = self.size, self.hs, self.leader
        sc[K.S_SET], sc[K.S_BEST], sc[K.S_WINNER], sc[K.S_PLAYED] = self.s, self.best, self.winner, self.played
        sc[K.S_NACTIVE] = sum(self.active)
        sc[K.S_SCORED] = sum(1 << c for c in self.scored)
        sc[K.S_HANDS] = 1
        for s in range(p):
            ws[21][s] = self.ppk[s]
        for i, (s, best, before) in enumerate(self.events):
            ws[22][3 * i:3 * i + 3] = (s, best, before)
        sc[K.S_NUNABLE] = len(self.events)

    def legal(self, params) -> list[int]:
        from analyzer.games.twenty_two import rules as R

        out = np.zeros(R.MAX_LEGAL, dtype=np.int64)
        scr = np.zeros(R.SCRATCH, dtype=np.int64)
        hand = np.int64(sum(1 << (4 * (c % 13)) for c in self.hand))
        if self.kind == 0:
            n = R.legal_discards(hand, np.int64(self.stock), out, scr)
        elif self.kind == 1:
            n = R.legal_leads(hand, np.int64(self.hs), out)
        else:
            n = R.legal_follows(hand, np.int64(self.s), np.int64(self.best), bool(params[R.P_LOWEST_ONLY]), out, scr)
        return sorted(int(m) for m in out[:n])


def load_position(rules: dict[str, Any], position: dict[str, Any]) -> Position:
    """Check a position (documented in docs/twenty-two.md) and derive the full state."""
    from analyzer.games.twenty_two.rules import beats

    unknown = set(position) - set(TwentyTwoSpec.position_keys)
    if unknown:
        raise AnalyzerError(f"twenty-two positions have no {sorted(unknown)[0]!r} "
                            f"(keys: {', '.join(TwentyTwoSpec.position_keys)})")
    p, target = rules["players"], rules["target"]
    pos = Position()
    scores = _ints(position.get("scores", [0] * p), "scores")
    if len(scores) != p or min(scores) < 0:
        raise AnalyzerError(f"scores takes {p} non-negative numbers, one per seat")
    active = [s < target for s in scores]
    if sum(active) < 2:
        raise AnalyzerError(f"at most one player is below the target ({target}): the game is over")
    if "seat" not in position:
        raise AnalyzerError("give the seat that decides (seat)")
    seat = _int(position["seat"], "seat")
    if not 0 <= seat < p:
        raise AnalyzerError(f"seat: seat {seat} does not exist with {p} players")
    if not active[seat]:
        raise AnalyzerError(f"seat {seat} is out of the game (score {scores[seat]} >= target {target})")
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
    nactive = sum(active)
    deck_size = 52 - len(scored)
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
    pos.seat, pos.kind, pos.active, pos.scores, pos.hand, pos.scored = seat, kind, active, scores, hand, scored
    pos.floor = [0] * p
    pos.own_dead = discarded
    pos.dead = {}
    pos.s = pos.best = pos.winner = pos.played = pos.ndone = 0
    pos.ppk, pos.events = [0] * p, []
    pos.stock = 0
    if kind == 0:
        if played or trick or discarded:
            raise AnalyzerError("a discard comes before the tricks, and before the seat's own discard: "
                                "played, trick and discarded must be empty")
        size = len(hand)
        if size * nactive > deck_size:
            raise AnalyzerError(f"{nactive} players cannot hold {size} cards each from a deck of {deck_size}")
        previous = next(s % p for s in range(seat - 1, seat - 1 - p, -1) if active[s % p])
        dealer = _int(position.get("dealer", previous), "dealer")
        if not 0 <= dealer < p:
            raise AnalyzerError(f"dealer: seat {dealer} does not exist with {p} players")
        order = []
        s = dealer
        for _ in range(nactive):
            s = _next_active(s, active)
            order.append(s)
        before = order[:order.index(seat)]
        full = deck_size - size * nactive
        stock = _int(position.get("stock", full), "stock")
        if not 0 <= stock <= full:
            raise AnalyzerError(f"the stock holds 0 to {full} cards here, not {stock}")
        if not before and stock != full:
            raise AnalyzerError(f"seat {seat} discards first: the stock still holds all {full} undealt cards")
        pos.stock, pos.ndone = stock, len(before)
        if before and full > stock:
            pos.dead = {before[0]: full - stock}
        pos.size = pos.hs = size
        pos.leader = _next_active(dealer, active)
        pos.dealer = dealer
        pos.sizes = [size if active[s] else 0 for s in range(p)]
        unseen = [c for c in range(52) if c not in seen]
    else:
        if kind == 1 and trick:
            raise AnalyzerError("a lead starts a trick: trick must be empty (earlier tricks go in played)")
        if kind == 2 and not trick:
            raise AnalyzerError("a follow needs the current trick's moves so far (trick)")
        hs = len(hand)
        if hs < 2:
            raise AnalyzerError("with one card left only the final trick remains: there is nothing to decide")
        size = hs + sum(_size(t[0]) for t in played)
        if size > 11 or size * nactive > deck_size:
            raise AnalyzerError(f"the tricks played imply {size} cards dealt to each of {nactive} players: "
                                f"too many")
        dealer_given = "dealer" in position
        candidates = [_int(position["dealer"], "dealer")] if dealer_given else list(range(p))
        if dealer_given and not 0 <= candidates[0] < p:
            raise AnalyzerError(f"dealer: seat {candidates[0]} does not exist with {p} players")
        replays, problems = [], []
        for dealer in candidates:
            try:
                replays.append((dealer, _replay(played, trick, _next_active(dealer, active), active, size, seat,
                                                rules["lowest_only_if_unable"], beats)))
            except AnalyzerError as exc:
                problems.append(str(exc))
        if not replays:
            raise AnalyzerError(problems[0] if dealer_given or len(set(problems)) == 1 else
                                f"no dealer makes seat {seat} the one to move after these tricks "
                                f"({problems[0]})")
        leaders = {r[1]["first"] for r in replays}
        if len(leaders) > 1:
            raise AnalyzerError("several dealers fit these tricks: give the dealer")
        dealer, rep = replays[0]
        pos.dealer = dealer
        pos.size, pos.hs = size, hs
        pos.leader, pos.s, pos.best, pos.winner = rep["leader"], rep["s"], rep["best"], rep["winner"]
        pos.played, pos.ndone, pos.floor = rep["played"], len(trick), rep["floor"]
        pos.ppk, pos.events = rep["ppk"], rep["events"]
        _check_own_events(pos, seat)
        pos.sizes = [0] * p
        for s in range(p):
            if active[s]:
                pos.sizes[s] = hs - (pos.s if s in rep["in_trick"] else 0)
        # the played cards as physical cards (suits never matter): any unseen card of the rank
        unseen = [c for c in range(52) if c not in seen]
        for r in range(13):
            need = (rep["played"] >> (4 * r)) & 15
            for c in [c for c in unseen if c % 13 == r][:need]:
                unseen.remove(c)
        pos.own_dead = discarded
    others = [s for s in range(p) if s != seat and active[s]]
    need = sum(pos.sizes[s] for s in others)
    if need > len(unseen):
        raise AnalyzerError(f"the other players hold {need} cards but only {len(unseen)} cards are unseen")
    # the floors (cards shown to be the lowest held) must leave room for a deal (Hall's condition)
    for f in sorted({pos.floor[s] for s in others}, reverse=True):
        want = sum(pos.sizes[s] for s in others if pos.floor[s] >= f)
        have = sum(1 for c in unseen if c % 13 >= f)
        if want > have:
            raise AnalyzerError(f"no deal fits: players who played their lowest cards must hold {want} cards "
                                f"of rank {RANKS[f]} or higher, and only {have} are unseen")
    unseen.sort(key=lambda c: (c % 13, c // 13))
    pos.pool = unseen
    return pos


def _check_own_events(pos: Position, seat: int) -> None:
    """The deciding seat knows its own hands: each of its follows that did not match or beat
    must have been its lowest cards and (variant) forced."""
    from analyzer.games.twenty_two.rules import beats, highest_set

    hand = sum(1 << (4 * (c % 13)) for c in pos.hand)
    if pos.hand and min(c % 13 for c in pos.hand) < pos.floor[seat]:
        raise AnalyzerError(f"seat {seat} played cards that did not beat while holding lower ones "
                            f"(its hand has a card below {RANKS[pos.floor[seat]]})")
    for s, best, before in pos.events:
        if s == seat:
            held = hand + pos.ppk[seat] - before
            if beats(np.int64(highest_set(np.int64(held), np.int64(_size(best)))), np.int64(best)):
                raise AnalyzerError(f"seat {seat} could match or beat {move_text(best)} with its hand then, "
                                    "so it could not play cards that do not (lowest_only_if_unable)")


def _replay(played, trick, first, active, size, seat, lowest_only, beats) -> dict[str, Any]:
    """Follow the tricks from their first leader: winners, floors, the seat to move."""
    nactive = sum(active)
    floor = [0] * len(active)
    ppk = [0] * len(active)   # cards each seat played to this hand's tricks (packed)
    events = []               # variant: (seat, best set, its ppk before) of each "could not beat"
    leader, hs, total = first, size, 0
    for i, t in enumerate(played + [trick]):
        current = i == len(played)
        if not current and len(t) != nactive:
            raise AnalyzerError(f"played trick {i + 1} has {len(t)} moves; {nactive} players are in")
        if current and len(t) >= nactive:
            raise AnalyzerError(f"trick has {len(t)} moves: with {nactive} players in it would be complete")
        if not t:
            break
        lead = t[0]
        s = _size(lead)
        if _low(lead) < floor[leader]:
            raise AnalyzerError(f"{'trick' if current else f'played trick {i + 1}'}: seat {leader} leads "
                                f"{move_text(lead)}, below the lowest rank it was shown to hold ({RANKS[floor[leader]]})")
        where = "trick" if current else f"played trick {i + 1}"
        if _low(lead) != _high(lead):
            raise AnalyzerError(f"{where}: the lead {move_text(lead)} is not of one rank")
        if s > hs - 1:
            raise AnalyzerError(f"{where}: a lead of {s} card(s) from {hs} must keep one card")
        best, winner, p = lead, leader, leader
        in_trick = [leader]
        for m in t[1:]:
            p = _next_active(p, active)
            in_trick.append(p)
            if _low(m) < floor[p]:
                raise AnalyzerError(f"{where}: seat {p} plays {move_text(m)}, below the lowest rank it was shown "
                                    f"to hold ({RANKS[floor[p]]})")
            if _size(m) != s:
                raise AnalyzerError(f"{where}: {move_text(m)} does not have the {s} card(s) of the lead")
            if beats(np.int64(m), np.int64(best)):
                best, winner = m, p
            else:
                floor[p] = max(floor[p], _high(m))
                if lowest_only:
                    events.append((p, best, ppk[p]))
            ppk[p] += m
        ppk[leader] += lead
        for m in t:
            total += m
        if current:
            seat_to_move = _next_active(p, active)
            if seat_to_move != seat:
                raise AnalyzerError(f"seat {seat_to_move} is to move after these tricks, not seat {seat}")
            return {"first": first, "leader": leader, "s": s, "best": best, "winner": winner, "played": total,
                    "floor": floor, "in_trick": in_trick, "ppk": ppk, "events": events}
        hs -= s
        leader = winner
    if leader != seat:
        raise AnalyzerError(f"seat {leader} leads after these tricks, not seat {seat}")
    return {"first": first, "leader": leader, "s": 0, "best": 0, "winner": 0, "played": total, "floor": floor,
            "in_trick": [], "ppk": ppk, "events": events}


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
        "random": StrategyInfo(0, "uniform over the legal moves (discards included)"),
        "heuristic": StrategyInfo(1, "discards T-A to fish for low cards, leads its highest rank, sheds high "
                                     "cards when they beat, keeps its lowest card for the final trick"),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards, each candidate move rolled out "
                              "to the end of the hand with the base strategy; plays the move that takes "
                              "the fewest final-trick points", {"k": 32, "base": "heuristic"}),
    },
    lower_score_wins=True,
    decision_kinds=list(KINDS),
    trace_rows=50_000,
)
