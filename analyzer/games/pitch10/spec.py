"""10-Point Pitch: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

import numpy as np

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError
from analyzer.evaluate import as_int as _int
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, game_end_event
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
                events.append(game_end_event(row[1], 4, lists[0], row[2]))
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

    # ---- positions and evaluation (analyzer.evaluate) ------------------------------------------
    position_keys = ("seat", "players", "dealer", "scores", "hand", "bids", "trump", "received", "refill", "rest_to",
                     "rest", "discarded", "played", "trick", "out", "decision", "rules")

    def position_from_record(self, events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
        """Decision ``at`` (1-based) of a recorded game, as the deciding seat saw it."""
        return position_from_record(events, at)

    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate).

        Hand outcome: 1 if the pitcher's team makes its bid this hand (good for the pitcher's
        team, bad for the defenders: ``lower_is_better`` is set for a defending seat); for a
        bid decision, the seat's team's score change this hand (a moon that decides the game:
        +target for the winners, -target for the losers).

        ``infer``: the other seats' bids are read into their hands under the rollout
        strategies' bidding rules (exact conditioning by rejection; see docs/pitch10.md). The
        worlds are enumerated (``worlds``) in play and discard decisions when the bids tell
        nothing (``infer`` off or uninformative bidders) and no rollout seat is ``mc``."""
        import numpy as np

        from analyzer.evaluate import Evaluation, Worlds
        if kernel is None:  # else the kernel with user strategies bound (GameSpec.user_kernel)
            from analyzer.games.pitch10 import kernel

        pos = _Position(rules, position)
        params = self.params(rules)
        ws = pos.bundle(params)
        bid = pos.kind == "bid"
        strat = np.ascontiguousarray(strat, dtype=np.int64)
        informative = bool(infer) and bool(_informative_bidders(pos, strat))
        # an mc rollout seat samples from its own view: it needs a whole deal, not only the trumps
        has_mc = bool((strat[:, 0] == 2).any())
        extra: dict[str, Any] = {"infer": bool(infer), "bids_read": informative}
        if informative:
            probe = 20_000
            fits = int(kernel.count_fits(np.uint64(12345), ws, pos.seat, strat, probe))
            if fits == 0:
                raise AnalyzerError(f"none of {probe:,} deals consistent with the cards seen fits the bids under "
                                    "the rollout strategies' bidding rules: evaluate without inference (--no-infer)")
            extra["bid_fit_rate"] = fits / probe

        def runner(worlds):
            def run(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes), 2), dtype=np.int64)
                kernel.evaluate_chunk(np.uint64(seed), np.int64(start), params, strat, ws, pos.seat,
                                      np.asarray(codes, dtype=np.int64), worlds, result,
                                      np.int64(max(1, min(n, 4 * threads))), bid, informative, has_mc)
                if n and (result[:, 0, 0] == -998).any():
                    raise AnalyzerError(f"no deal fitting the bids was found in {kernel.MAX_TRIES:,} draws "
                                        "for a sample: evaluate without inference (--no-infer)")
                return result
            return run

        def worlds(limit: int):
            if informative or has_mc or pos.kind not in ("play", "discard"):
                return None
            found = enumerate_worlds(ws, pos.seat, limit)
            return None if found is None else Worlds(found[1], runner(found[0]))

        if bid:
            outcome_view = "the seat's team's score change this hand"
            lower = False
        else:
            pt = pos.pitcher & 1
            mine = pos.seat & 1 == pt
            outcome_view = (f"made_bid is the pitcher's team's (seats {pt},{pt + 2}): "
                            + ("higher is better for this seat" if mine
                               else "the seat defends, lower is better for it"))
            lower = not mine
        text = f"{pos.kind} decision of seat {pos.seat}; {outcome_view}"
        if informative:
            text += f"; bids read into the hands ({extra['bid_fit_rate']:.1%} of deals fit)"
        return Evaluation(seat=pos.seat, options=pos.legal, names=[self.move_name(m) for m in pos.legal],
                          outcome="score_change" if bid else "made_bid", outcome_binary=not bid,
                          run=runner(np.zeros((0, 4), dtype=np.int64)), description=text, extra=extra,
                          groups=equivalent_options(pos, ws), worlds=worlds, lower_is_better=lower)

    def hidden_samples(self, rules: dict[str, Any], position: dict[str, Any], n: int, seed: int = 0, strat=None,
                       infer: bool = False, complete: bool = True) -> dict[str, "np.ndarray"]:
        """``n`` samples of the hidden cards as the evaluation draws them (sample j from the
        stream of the evaluation's sample j): per sample and seat ``h16`` (trumps held,
        strength masks), ``disc`` (trumps discarded), ``h54`` (the nine cards dealt), ``got54``
        (refill cards; [4] the rest of the stock), and ``tries`` (draws it took; -1 none fit).
        ``strat``: the rollout strategies (bidding models for ``infer``; default heuristic)."""
        import numpy as np

        from analyzer.games.pitch10 import kernel

        pos = _Position(rules, position)
        ws = pos.bundle(self.params(rules))
        if strat is None:
            strat = np.array([[1, DEFAULT_PARTNER_SHARE, 0, 0]] * 4, dtype=np.int64)
        strat = np.ascontiguousarray(strat, dtype=np.int64)
        out = {k: np.zeros((n, 4), dtype=np.int64) for k in ("h16", "disc", "h54")}
        out["got54"] = np.zeros((n, 5), dtype=np.int64)
        out["tries"] = np.zeros(n, dtype=np.int64)
        kernel.draw_samples(np.uint64(seed), ws, pos.seat, strat, bool(infer), bool(complete), out["h16"],
                            out["disc"], out["h54"], out["got54"], out["tries"])
        return out

    def extra_tables(self, rules: dict[str, Any], position: dict[str, Any], strat, samples: int, seed: int,
                     threads: int, kernel=None) -> dict[str, pd.DataFrame]:
        """At a bid, the bid table (``bid_table``); nothing at other decisions."""
        if str(position.get("decision", "")) != "bid":
            return {}
        return self.bid_table(rules, position, strat, samples, seed, threads, kernel)

    def bid_table(self, rules: dict[str, Any], position: dict[str, Any], strat, samples: int, seed: int,
                  threads: int, kernel=None) -> dict[str, pd.DataFrame]:
        """"How much is this hand worth?": the seat pitches in each trump suit in turn (same
        sampled deals for every suit); the refill, the give decision, the discards and the play
        go to the rollout strategies. Returns ``bid_points`` (per suit: the distribution of the
        points 0..10 its team takes, and their mean) and ``bid_table`` (per suit and bid 4..10
        and moon: probability of making it and the expected score change, with 95% intervals).
        """
        import numpy as np

        if kernel is None:  # else the kernel with user strategies bound
            from analyzer.games.pitch10 import kernel

        hand_only = {k: v for k, v in position.items() if k in ("seat", "players", "dealer", "scores", "hand", "rules")}
        seat = _seat(position.get("seat", 0), "seat")
        dealer = _seat(position.get("dealer", (seat + 3) % 4), "dealer")
        hand_only["bids"] = ["pass"] * ((seat - dealer - 1) % 4)  # only the cards matter here
        pos = _Position(rules, hand_only)
        params = self.params(rules)
        ws = pos.bundle(params)
        samples = int(samples)
        if samples < 1:
            raise AnalyzerError(f"--samples must be positive, not {samples}")
        result = np.zeros((samples, 4), dtype=np.int64)
        kernel.bid_table_chunk(np.uint64(seed), np.int64(0), params, strat, ws, pos.seat, result,
                               np.int64(max(1, min(samples, 4 * int(threads or 1)))))
        return bid_tables(result, rules, pos.scores[pos.seat & 1])


def bid_tables(points: "np.ndarray", rules: dict[str, Any], own_score: int) -> dict[str, pd.DataFrame]:
    """The two bid tables from ``points[sample, suit]`` (points the pitcher's team took)."""
    import math

    import numpy as np

    from analyzer.stats import Z95

    n = points.shape[0]
    target = rules["target"]
    dist_rows, rows = [], []
    for t, suit in enumerate(SUITS):
        col = points[:, t]
        counts = np.bincount(col, minlength=11)
        row: dict[str, Any] = {"trump": suit, "samples": n}
        for k in range(11):
            row[f"p_{k}"] = counts[k] / n
        mean = float(col.mean())
        half = Z95 * float(col.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        row["mean_points"], row["mean_points_lo"], row["mean_points_hi"] = mean, mean - half, mean + half
        dist_rows.append(row)
        for b in BID_LEVELS:
            made = col == 10 if b == MOON else col >= b
            if b == MOON:
                gain = np.where(made, target if own_score > 0 else -own_score, -target)
            elif rules["made_bid_scores_taken"]:
                gain = np.where(made, col, -b)
            else:
                gain = np.where(made, b, -b)
            m = int(made.sum())
            lo, hi = wilson(m, n)
            g = float(gain.mean())
            gh = Z95 * float(gain.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
            rows.append({"trump": suit, "bid": _level_name(b), "make": m / n, "make_lo": lo, "make_hi": hi,
                         "score_change": g, "score_change_lo": g - gh, "score_change_hi": g + gh})
    table = pd.DataFrame(rows)
    best = table.loc[table["score_change"].idxmax()]
    table["best"] = (table["trump"] == best["trump"]) & (table["bid"] == best["bid"])
    return {"bid_points": pd.DataFrame(dist_rows), "bid_table": table}


def _informative_bidders(pos: "_Position", strat) -> list[int]:
    """The other seats whose bid so far tells something under their rollout strategy's
    bidding rule (kernel.bids_fit): heuristic, or mc (modelled by its base strategy) with a
    heuristic base. A random bidder's bid does not depend on its hand."""
    order = [(pos.dealer + 1 + i) % 4 for i in range(4)]
    seats = []
    for i, b in enumerate(pos.bids):
        s = order[i]
        sid = int(strat[s, 0])
        model = int(strat[s, 2]) if sid == 2 else sid
        if s != pos.seat and model == 1:
            seats.append(s)
    return seats


def enumerate_worlds(ws, seat: int, limit: int):
    """Every placement of the trumps ``seat`` has not seen (held by each other seat, or
    discarded: dead) consistent with its view, with its exact probability: ``(masks
    int64[W, 4], weights float64[W])``, masks the trumps each seat holds (the seat's own row:
    its hand), or None when there are more than ``limit``. Play and discard decisions.

    kernel.held_table gives the weight of each vector of held counts (the sum of the count
    vectors' weights that lead to it); given the held counts every placement of the pool is
    equally likely (a uniform split of it), so a world's weight is its vector's weight over
    the number of placements of that vector."""
    import itertools
    import math

    import numpy as np

    from analyzer.games.pitch10 import kernel as K

    table = np.zeros((17, 17, 17))
    if not K.held_table(ws, seat, table):
        return None
    sc = ws[13]
    own = int(ws[4][seat])
    pool = 0xFFFF & ~(own | int(ws[15][seat]) | int(sc[K.S_SEEN]))
    cards = [k for k in range(16) if pool >> k & 1]
    others = [s for s in ((int(sc[K.S_DEALER]) + 1 + i) % 4 for i in range(4)) if s != seat]
    vectors = []
    count = 0
    for (a, b, c) in zip(*np.nonzero(table)):
        dead = len(cards) - a - b - c
        if dead < 0:
            continue
        ways = math.factorial(len(cards)) // (math.factorial(a) * math.factorial(b) * math.factorial(c)
                                              * math.factorial(dead))
        vectors.append(((int(a), int(b), int(c)), float(table[a, b, c]), ways))
        count += ways
        if count > limit:
            return None
    masks, weights = [], []
    for (a, b, c), weight, ways in vectors:
        for first in itertools.combinations(cards, a):
            left = [k for k in cards if k not in first]
            for second in itertools.combinations(left, b):
                rest = [k for k in left if k not in second]
                for third in itertools.combinations(rest, c):
                    row = [0, 0, 0, 0]
                    row[seat] = own
                    for s, held in zip(others, (first, second, third)):
                        row[s] = sum(1 << k for k in held)
                    masks.append(row)
                    weights.append(weight / ways)
    if not masks:
        return None
    return np.array(masks, dtype=np.int64), np.array(weights, dtype=np.float64)


def equivalent_options(pos: "_Position", ws) -> list[list[int]] | None:
    """Groups of the seat's legal trumps (play and discard decisions) that are interchangeable:
    next to each other in the seat's hand, the same points, and no trump between them that
    another seat may hold or discard (every trump between is played, or was discarded by the
    seat). The ace is never merged: the heuristic never plays it onto its partner's trick
    (it does the jack), so for it the A and a jack next to it are not alike. Bid, trump and
    keep-or-give options are never merged. None when no two are."""
    from analyzer.games.pitch10.kernel import S_SEEN
    from analyzer.games.pitch10.rules import POINTS16

    if pos.kind not in ("play", "discard"):
        return None
    ks = [_strength(pos.trump, c) for c in pos.legal]
    live = 0xFFFF & ~(int(ws[4][pos.seat]) | int(ws[15][pos.seat]) | int(ws[13][S_SEEN]))
    groups: list[list[int]] = []
    for i in sorted(range(len(ks)), key=lambda i: ks[i]):
        k = ks[i]
        if groups:
            j = ks[groups[-1][-1]]
            between = live & ((1 << k) - 1) & ~((1 << (j + 1)) - 1)
            if POINTS16[j] == POINTS16[k] and 15 not in (j, k) and not between:
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups if len(groups) < len(ks) else None


# ---- positions --------------------------------------------------------------------------------

def _seat(value: Any, name: str) -> int:
    seat = _int(value, name)
    if not 0 <= seat < 4:
        raise AnalyzerError(f"{name}: seat {seat} does not exist (pitch10 seats are 0..3)")
    return seat


def _cards(value: Any, name: str) -> list[int]:
    from analyzer.cards import CardError, pitch_deck

    items = value.replace(",", " ").split() if isinstance(value, str) else [str(v) for v in value]
    try:
        return pitch_deck().parse(items, name)
    except CardError as exc:
        raise AnalyzerError(f"{name}: {exc}") from None


def _plays(value: Any, name: str) -> list[tuple[int, int]]:
    """``"1:AS 2:3S"`` or ``["1:AS", [2, "3S"]]`` -> [(seat, card), ...]."""
    from analyzer.cards import CardError, parse_card

    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    plays = []
    for item in items:
        if isinstance(item, str):
            seat_text, colon, card_text = item.partition(":")
            if not colon:
                raise AnalyzerError(f"{name}: a play is SEAT:CARD like 1:AS, not {item!r}")
        else:
            if len(item) != 2:
                raise AnalyzerError(f"{name}: a play is [seat, card], not {item!r}")
            seat_text, card_text = item
        try:
            card = parse_card(str(card_text))
        except CardError as exc:
            raise AnalyzerError(f"{name}: {exc}") from None
        plays.append((_seat(seat_text, name), card))
    return plays


def _tricks(value: Any) -> list[list[tuple[int, int]]]:
    """Completed tricks: ``"1:AS 2:3S 3:4S 0:KS | 0:2S ..."`` or a list of tricks."""
    if isinstance(value, str):
        parts = [p for p in value.replace("/", "|").split("|") if p.strip()]
        return [_plays(p, "played") for p in parts]
    return [_plays(t, "played") for t in value]


def _bid_value(text: Any) -> int:
    t = str(text).strip().lower()
    if t == "pass":
        return 0
    if t == "moon":
        return MOON
    if t.isdigit() and 4 <= int(t) <= 10:
        return int(t)
    raise AnalyzerError(f"a bid is pass, 4..10 or moon, not {text!r}")


def _strength(trump: int, card: int) -> int:
    from analyzer.games.pitch10.rules import STRENGTH

    return int(STRENGTH[trump, card])


class _Position:
    """A checked position: what ``seat`` knows at its decision, and the kernel state for it."""

    def __init__(self, rules: dict[str, Any], position: dict[str, Any]) -> None:
        from analyzer.games.pitch10.rules import POINTS16, refill_need

        unknown = set(position) - set(Pitch10Spec.position_keys)
        if unknown:
            raise AnalyzerError(f"pitch10 positions have no {sorted(unknown)[0]!r} "
                                f"(keys: {', '.join(Pitch10Spec.position_keys)})")
        if "players" in position and _int(position["players"], "players") != 4:
            raise AnalyzerError("pitch10 is played by exactly 4 players")
        self.seat = seat = _seat(position.get("seat", 0), "seat")
        self.dealer = dealer = _seat(position.get("dealer", (seat + 3) % 4), "dealer")
        scores = position.get("scores", [0, 0])
        self.scores = [_int(v, "scores") for v in (scores.replace(",", " ").split() if isinstance(scores, str)
                                                     else scores)]
        if len(self.scores) != 2:
            raise AnalyzerError(f"scores takes 2 numbers (team 0 = seats 0 and 2, team 1), not {len(self.scores)}")
        if max(self.scores) >= rules["target"]:
            raise AnalyzerError(f"a team at {max(self.scores)} has already reached the target {rules['target']}")
        if "hand" not in position:
            raise AnalyzerError("a pitch10 position needs the seat's hand: the nine cards it was dealt")
        self.hand = _cards(position["hand"], "hand")
        if len(self.hand) != 9:
            raise AnalyzerError(f"a pitch10 hand is the 9 cards dealt, not {len(self.hand)}")
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        bids = position.get("bids", [])
        if isinstance(bids, str):
            bids = bids.replace(",", " ").split()
        self.bids = [_bid_value(b) for b in bids]
        high, pitcher = 0, -1
        for i, b in enumerate(self.bids):
            if i >= 4 or (i > 0 and self.bids[i - 1] == MOON):
                raise AnalyzerError(f"too many bids: the bidding ended after {i}")
            if i == 3 and high == 0 and b != 4:
                raise AnalyzerError("after three passes the dealer must bid 4")
            if b and b <= high:
                raise AnalyzerError(f"bid {bid_name(b)} by seat {order[i]} is not above the highest bid {bid_name(high)}")
            if b:
                high, pitcher = b, order[i]
        self.high, self.pitcher = high, pitcher
        done_bidding = len(self.bids) == 4 or (self.bids and self.bids[-1] == MOON)
        later = [k for k in ("received", "refill", "rest_to", "rest", "discarded", "played", "trick", "out")
                 if position.get(k) not in (None, [], "")]
        self.trump = -1
        self.legal: list[int] = []
        self.received = [-1] * 4
        self.refill: list[int] = []
        self.rest: list[int] = []
        self.rest_to = -1
        self.rest_n = 0
        self.discarded: list[int] = []
        self.tricks: list[list[tuple[int, int]]] = []
        self.current: list[tuple[int, int]] = []
        if not done_bidding:
            if position.get("trump") not in (None, "") or later:
                raise AnalyzerError("the bidding is not over (give all bids, from left of the dealer)")
            to_move = order[len(self.bids)]
            if seat != to_move:
                raise AnalyzerError(f"seat {to_move} bids next, not seat {seat}")
            self.kind = "bid"
            from analyzer.games.pitch10.rules import bid_options

            legal = np.zeros(16, dtype=np.int64)
            n = bid_options(high, len(self.bids) == 3 and high == 0, legal)
            self.legal = [int(m) for m in legal[:n]]
            self._check_kind(position)
            return
        if position.get("trump") in (None, ""):
            if later:
                raise AnalyzerError("trump is not named yet: give trump for a later decision")
            if seat != pitcher:
                raise AnalyzerError(f"seat {pitcher} (the pitcher) names trump, not seat {seat}")
            self.kind = "trump"
            self.legal = [80, 81, 82, 83]
            self._check_kind(position)
            return
        trump_text = str(position["trump"]).strip().upper()
        if trump_text not in ("C", "D", "H", "S"):
            raise AnalyzerError(f"trump is C, D, H or S, not {position['trump']!r}")
        self.trump = trump = SUITS.index(trump_text)
        if "received" not in position:
            raise AnalyzerError("after trump a position needs received: the refill count of each seat")
        rec = position["received"]
        self.received = [_int(v, "received") for v in (rec.replace(",", " ").split() if isinstance(rec, str) else rec)]
        if len(self.received) != 4 or min(self.received) < 0:
            raise AnalyzerError("received takes 4 non-negative counts, one per seat")
        self.refill = _cards(position.get("refill", []), "refill")
        if len(self.refill) != self.received[seat]:
            raise AnalyzerError(f"refill lists {len(self.refill)} card(s) but received says seat {seat} "
                                f"was dealt {self.received[seat]}")
        left = 18
        for s in order:
            r = self.received[s]
            if r > min(6, left):
                raise AnalyzerError(f"seat {s} cannot be dealt {r} cards in the refill ({left} left in the stock)")
            if s == seat:
                k = sum(1 for c in self.hand if _strength(trump, c) >= 0)
                if r != min(int(refill_need(np.int64(self._mask16(self.hand)))), left):
                    raise AnalyzerError(f"seat {seat} holds {k} trumps in its hand: it is dealt "
                                        f"{min(max(0, 6 - k), left)} in the refill, not {r}")
            left -= r
        self.rest_n = left
        if self.rest_n > 0 and position.get("rest_to") in (None, ""):
            if any(position.get(k) not in (None, [], "") for k in ("rest", "discarded", "played", "trick", "out")):
                raise AnalyzerError(f"{left} cards are left after the refill: give rest_to (who got them)")
            if seat != pitcher:
                raise AnalyzerError(f"seat {pitcher} (the pitcher) keeps or gives the rest, not seat {seat}")
            self.kind = "give"
            self.legal = [90, 91]
        else:
            if self.rest_n > 0:
                self.rest_to = _seat(position["rest_to"], "rest_to")
                if self.rest_to not in (pitcher, (pitcher + 2) % 4):
                    raise AnalyzerError(f"the rest goes to the pitcher (seat {pitcher}) or its partner, "
                                        f"not seat {self.rest_to}")
            elif position.get("rest_to") not in (None, ""):
                raise AnalyzerError("no card was left after the refill: there is no rest_to")
            if self.rest_to == seat:
                self.rest = _cards(position.get("rest", []), "rest")
                if len(self.rest) != self.rest_n:
                    raise AnalyzerError(f"rest lists {len(self.rest)} card(s); {self.rest_n} were left")
            elif position.get("rest") not in (None, [], ""):
                raise AnalyzerError(f"seat {seat} did not get the rest: it has not seen those cards")
            self.discarded = _cards(position.get("discarded", []), "discarded")
            self.kind = ""
        own = self.hand + self.refill + self.rest
        from analyzer.cards import CardError, pitch_deck
        try:
            pitch_deck().check(own, "hand, refill and rest together")
        except CardError as exc:
            raise AnalyzerError(str(exc)) from None
        final = self._mask16(own)
        if self.kind == "give":
            self.h16 = final
            self._check_kind(position)
            return
        disc = self._mask16(self.discarded)
        if len(self._trumps(self.discarded)) != len(self.discarded) or disc & ~final:
            raise AnalyzerError("discarded: a seat discards only trumps it holds")
        held = final & ~disc
        count = bin(held).count("1")
        if count > 6:
            if position.get("played") not in (None, [], "") or position.get("trick") not in (None, [], ""):
                raise AnalyzerError(f"seat {seat} holds {count} trumps: it discards down to 6 before any play")
            self.kind = "discard"
            self.h16 = held
            self.turn = order.index(seat)
            self.legal = self._trump_codes(held)
            self._check_kind(position)
            return
        if bin(final).count("1") > 6 and count != 6:
            raise AnalyzerError(f"seat {seat} discards down to exactly 6 trumps, not {count}")
        # ---- play
        self.kind = "play"
        self.tricks = _tricks(position.get("played", []))
        self.current = _plays(position.get("trick", []), "trick")
        seen_cards = [c for t in self.tricks for _, c in t] + [c for _, c in self.current]
        if len(set(seen_cards)) != len(seen_cards):
            raise AnalyzerError("a card is played twice")
        for c in seen_cards:
            if _strength(trump, c) < 0:
                raise AnalyzerError(f"{token(c)} is not a trump: only trumps are played")
        mine_played = 0
        for t in self.tricks + [self.current]:
            for s, c in t:
                if s == seat:
                    if not (held >> _strength(trump, c)) & 1:
                        raise AnalyzerError(f"seat {seat} played {token(c)}, a card it did not hold")
                    mine_played |= 1 << _strength(trump, c)
                elif c in own:
                    raise AnalyzerError(f"seat {s} played {token(c)}, a card of seat {seat}")
        self.h16 = held & ~mine_played
        if self.h16 == 0:
            raise AnalyzerError(f"seat {seat} holds no trump: it has no decision")
        # the tricks: order, leaders, winners
        alive_prev = 15
        lead_from = pitcher
        self.taken = [0, 0]
        for i, t in enumerate(self.tricks + [self.current]):
            completed = i < len(self.tricks)
            seats = [s for s, _ in t]
            if len(set(seats)) != len(seats):
                raise AnalyzerError(f"trick {i + 1}: a seat plays twice")
            if completed:
                alive = sum(1 << s for s in seats)
                if not seats:
                    raise AnalyzerError(f"trick {i + 1} is empty")
            else:
                out = position.get("out")
                if out is None:
                    alive = alive_prev
                else:
                    outs = [_seat(v, "out") for v in (out.replace(",", " ").split() if isinstance(out, str) else out)]
                    alive = 15 & ~sum(1 << s for s in set(outs))
                    if alive & ~alive_prev:
                        raise AnalyzerError("out: a seat that dropped out cannot come back")
                if not (alive >> seat) & 1:
                    raise AnalyzerError(f"seat {seat} holds trumps: it is not out")
            if alive & ~alive_prev:
                raise AnalyzerError(f"trick {i + 1}: a seat that had no trumps left plays again")
            leader = lead_from
            while not (alive >> leader) & 1:
                leader = (leader + 1) % 4
            expected = [s for s in ((leader + j) % 4 for j in range(4)) if (alive >> s) & 1]
            if seats != expected[:len(seats)]:
                raise AnalyzerError(f"trick {i + 1}: seats {seats} do not play in turn (expected {expected})")
            if completed:
                win = max(t, key=lambda p: _strength(trump, p[1]))[0]
                self.taken[win & 1] += sum(int(POINTS16[_strength(trump, c)]) for _, c in t)
                lead_from = win
                alive_prev = alive
            else:
                if len(seats) >= len(expected):
                    raise AnalyzerError("the current trick is complete: list it under played")
                if expected[len(seats)] != seat:
                    raise AnalyzerError(f"seat {expected[len(seats)]} plays next, not seat {seat}")
                self.alive = alive
                self.leader = leader
        self.legal = self._trump_codes(self.h16)
        self._check_kind(position)

    def _check_kind(self, position: dict[str, Any]) -> None:
        given = position.get("decision")
        if given not in (None, "") and str(given) != self.kind:
            raise AnalyzerError(f"this position is a {self.kind} decision, not {given}")

    def _mask16(self, cards: list[int]) -> int:
        m = 0
        for c in cards:
            k = _strength(self.trump, c)
            if k >= 0:
                m |= 1 << k
        return m

    def _trumps(self, cards: list[int]) -> list[int]:
        return [c for c in cards if _strength(self.trump, c) >= 0]

    def _trump_codes(self, h16: int) -> list[int]:
        from analyzer.games.pitch10.rules import CARD_AT

        return [int(CARD_AT[self.trump, k]) for k in range(16) if (h16 >> k) & 1]

    def bundle(self, params):
        """The kernel state of this position (hidden cards are placeholders: resampled)."""
        from analyzer.games.pitch10 import kernel as K

        ws = K.workspace(params)
        deck, h54, h16, bids, received, trick, scores, taken, sc = ws[0], ws[3], ws[4], ws[5], ws[6], ws[8], ws[9], ws[10], ws[13]
        played, disc, got54 = ws[14], ws[15], ws[16]
        seat, order = self.seat, [(self.dealer + 1 + i) % 4 for i in range(4)]
        sc[:] = 0
        sc[K.S_WINNER] = -1
        sc[K.S_HANDS] = 1
        sc[K.S_DEALER] = self.dealer
        sc[K.S_SEAT] = seat
        sc[K.S_HIGH] = self.high
        sc[K.S_PITCHER] = self.pitcher
        sc[K.S_TRUMP] = self.trump
        sc[K.S_REST_TO] = self.rest_to
        sc[K.S_REST_N] = self.rest_n
        sc[K.S_LEADER] = -1
        sc[K.S_TOP] = 36
        scores[:] = self.scores
        bids[:] = -1
        for i, b in enumerate(self.bids):
            bids[order[i]] = b
        received[:] = self.received
        trick[:] = -1
        for c in range(54):
            deck[c] = c
        h54[seat] = sum(1 << c for c in self.hand)
        sc[K.S_PHASE] = {"bid": K.PH_BID, "trump": K.PH_TRUMP, "give": K.PH_GIVE, "discard": K.PH_DISCARD,
                         "play": K.PH_PLAY}[self.kind]
        sc[K.S_TURN] = len(self.bids) if self.kind == "bid" else 0
        if self.kind in ("bid", "trump"):
            self._check_sample(ws, K)
            return ws
        got54[seat] = sum(1 << c for c in self.refill)
        got54[4] = sum(1 << c for c in self.rest)
        sc[K.S_TOP] = 54 - self.rest_n if self.kind == "give" else 54
        h16[seat] = self.h16
        disc[seat] = self._mask16(self.discarded)
        if self.kind == "discard":
            sc[K.S_TURN] = self.turn
        if self.kind == "play":
            seen = 0
            for t in self.tricks + [self.current]:
                for s, c in t:
                    k = _strength(self.trump, c)
                    played[s] |= 1 << k
                    seen |= 1 << k
            sc[K.S_SEEN] = seen
            taken[:] = self.taken
            sc[K.S_ALIVE] = self.alive
            sc[K.S_LEADER] = self.leader
            sc[K.S_WIN_K], sc[K.S_WIN_SEAT], sc[K.S_POINTS] = -1, -1, 0
            from analyzer.games.pitch10.rules import POINTS16

            for s, c in self.current:
                k = _strength(self.trump, c)
                trick[s] = c
                sc[K.S_POINTS] += int(POINTS16[k])
                if k > sc[K.S_WIN_K]:
                    sc[K.S_WIN_K], sc[K.S_WIN_SEAT] = k, s
        self._check_sample(ws, K)
        return ws

    def _check_sample(self, ws, K) -> None:
        import numpy as np

        test = K.workspace(np.zeros(2, dtype=np.int64))
        K.copy_bundle(ws, test)
        rng = np.arange(1, 5, dtype=np.uint64)
        if not K.resample_hidden(test, self.seat, rng):
            raise AnalyzerError("impossible position: no deal of the hidden cards fits the refill counts, "
                                "the cards played and the seats out")


def position_from_record(events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
    """Decision ``at`` (1-based) of a recorded pitch10 game, as the deciding seat saw it."""
    from analyzer.cards import parse_card

    head = events[0]
    decisions = [i for i, ev in enumerate(events) if ev["ev"] == "decide"]
    if at is None or not 1 <= at <= len(decisions):
        raise AnalyzerError(f"--at must be a decision number from 1 to {len(decisions)}, not {at}")
    stop = decisions[at - 1]
    me = events[stop]["seat"]
    scores = [0, 0]
    pos: dict[str, Any] = {}
    holding: list[set[str]] = [set() for _ in range(4)]
    trump = None
    for ev in events[1:stop]:
        kind = ev["ev"]
        if kind == "deal":
            pos = {"seat": me, "dealer": ev["dealer"], "scores": list(scores), "hand": list(ev["hands"][me]),
                   "bids": []}
            dealt = [list(h) for h in ev["hands"]]
            trump = None
            received = [0] * 4
        elif kind == "hand_end":
            scores = list(ev["scores"])
        elif kind == "decide":
            k = ev["kind"]
            if k == "bid":
                pos["bids"].append(ev["move"])
            elif k == "trump":
                trump = SUITS.index(ev["move"])
                pos["trump"] = ev["move"]
                holding = [{c for c in dealt[s] if _strength(trump, parse_card(c)) >= 0} for s in range(4)]
            elif k == "discard":
                holding[ev["seat"]].discard(ev["move"])
                if ev["seat"] == me:
                    pos.setdefault("discarded", []).append(ev["move"])
            elif k == "play":
                holding[ev["seat"]].discard(ev["move"])
                pos.setdefault("trick", []).append(f"{ev['seat']}:{ev['move']}")
        elif kind == "refill":
            received[ev["seat"]] = len(ev["cards"])
            pos["received"] = list(received)
            holding[ev["seat"]] |= {c for c in ev["cards"] if _strength(trump, parse_card(c)) >= 0}
            if ev["seat"] == me:
                pos["refill"] = list(ev["cards"])
        elif kind == "rest":
            pos["rest_to"] = ev["seat"]
            holding[ev["seat"]] |= {c for c in ev["cards"] if _strength(trump, parse_card(c)) >= 0}
            if ev["seat"] == me:
                pos["rest"] = list(ev["cards"])
        elif kind == "trick":
            pos.setdefault("played", []).append(pos.pop("trick", []))
    kind = events[stop]["kind"]
    if kind == "play":
        in_trick = {int(p.split(":")[0]) for p in pos.get("trick", [])}
        pos["out"] = [s for s in range(4) if not holding[s] and s not in in_trick]
    pos["decision"] = kind
    pos["rules"] = dict(head["rules"])
    return pos


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
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards, each legal move rolled out to the end "
                              "of the hand with the base strategy; plays the best mean score change of its team "
                              "minus the other team's", {"k": 32, "base": "heuristic"}),
    },
    decision_kinds=list(KINDS),
)
