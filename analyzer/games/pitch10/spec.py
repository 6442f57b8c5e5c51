"""10-Point Pitch: options, strategies, output columns, record decoding (Python side)."""

from __future__ import annotations

from typing import Any

import pandas as pd

import numpy as np

from analyzer.cards import token, tokens
from analyzer.errors import AnalyzerError, InferenceMisfit
from analyzer.evaluate import as_int as _int
from analyzer.games.base import GameSpec, RuleOption, StrategyInfo, dealt_hands_text, decision_index, game_end_event
from analyzer.stats import Accumulator, wilson
from analyzer.tables import add_interval, seat_table
from analyzer.trace import split_lists

from analyzer.games.pitch10 import codes
from analyzer.games.pitch10.codes import (
    BID_LEVELS,
    EV_DEAL,
    EV_DECIDE,
    EV_GAME_END,
    EV_HAND_END,
    EV_PITCHER,
    EV_REFILL,
    EV_REST,
    EV_TRICK,
    FUTURES,
    HAND_SIZE,
    KEEP,
    KINDS,
    MATCH_EQUITY,
    MAX_ITERATIONS,
    MOON,
    SEARCH_PHASE,
    SEARCH_PLAY,
    SUITS,
    TAG_STOCK,
    WHOLE_GAME,
)
from analyzer.games.pitch10.rules import ACE16, FULL16, POINTS16, STRENGTH, game_winner
from analyzer.games.pitch10.strategies import HEURISTIC, ISMCTS, MC, PIMC, PARTNER_SHARE as DEFAULT_PARTNER_SHARE
from analyzer.games.pitch10.view import MOVE_NAMES, bid_name, move_code, move_name


def _level_name(b: int) -> str:
    return "moon" if b == MOON else str(b)


class Pitch10Spec(GameSpec):
    def move_name(self, code: int) -> str:
        return move_name(code)

    def move_code(self, name: str) -> int:
        return move_code(name)

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
            add_interval(row, "pitch_rate", acc.share(f"pitched_{t}", "hands"))
            add_interval(row, "make_rate", acc.share(f"made_team_{t}", f"pitched_{t}"))
            teams.append(row)
        bids = []
        for b in BID_LEVELS:
            name = _level_name(b)
            count = acc.col(f"bids_{name}")[0]
            row = {"bid": name, "hands": int(count)}
            add_interval(row, "share", acc.share(f"bids_{name}", "hands"))
            made = acc.col(f"made_{name}")[0]
            row["made"] = int(made)
            # clustered by game, as every other share here: the hands of one game are not
            # independent draws (a plain Wilson interval on the hands took them as such)
            add_interval(row, "make_rate", acc.share(f"made_{name}", f"bids_{name}") if count > 0
                         else (float("nan"), float("nan"), float("nan")))
            bids.append(row)
        totals: dict[str, Any] = {}
        add_interval(totals, "hands_per_game", acc.mean("hands"))
        add_interval(totals, "decisions_per_hand", acc.ratio("decisions", "hands"))
        add_interval(totals, "stuck_dealer_rate", acc.share("stuck", "hands"))
        add_interval(totals, "lost_points_per_hand", acc.ratio("lost_points", "hands"))
        moons = acc.col("bids_moon")[0]
        made = acc.col("made_moon")[0]
        totals["moon_attempts"] = int(moons)
        add_interval(totals, "moon_rate", acc.share("bids_moon", "hands"))
        if moons > 0:
            add_interval(totals, "moon_success", acc.share("made_moon", "bids_moon"))
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
                               "legal": [MOVE_NAMES[m] for m in lists.get(0, [])], "move": MOVE_NAMES[row[3]]})
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
            return f"-- hand {ev['hand']}, dealer {ev['dealer']}\n" + dealt_hands_text(ev["hands"])
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
                   kernel=None, keep: tuple[str, ...] = ()):
        """Check a position and prepare its evaluation kernel (see analyzer.evaluate).

        Hand outcome: 1 if the pitcher's team makes its bid this hand (good for the pitcher's
        team, bad for the defenders: ``lower_is_better`` is set for a defending seat); for a
        bid decision, the seat's team's score change this hand (a moon that decides the game:
        +target for the winners, -target for the losers).

        ``infer``: the other seats' bids are read into their hands under the rollout
        strategies' bidding rules (exact conditioning by rejection; see docs/pitch10.md). The
        worlds are enumerated (``worlds``) in play and discard decisions when the bids tell
        nothing (``infer`` off or uninformative bidders) and no rollout seat is ``mc`` or
        ``pimc``."""
        import numpy as np

        from analyzer.evaluate import Evaluation, Worlds
        if kernel is None:  # else the kernel with the user strategies in its slots (GameSpec.user_kernel)
            kernel = self.user_kernel([])

        params = self.params(rules)
        pos = load_position(rules, position, params)
        ws = pos.ws
        bid = pos.kind == "bid"
        strat = np.ascontiguousarray(strat, dtype=np.int64)
        # a forced move is answered without samples (docs/evaluate.md): no bids to read, and
        # the deals might fit none (the stuck dealer's 4 after three passes)
        informative = bool(infer) and len(pos.legal) > 1 and bool(_informative_bidders(pos, strat))
        # an mc, pimc or ismcts rollout seat samples from its own view: it needs a whole deal,
        # not only the trumps
        has_mc = bool(np.isin(strat[:, 0], (MC, PIMC, ISMCTS)).any())
        extra: dict[str, Any] = {"infer": bool(infer), "bids_read": informative}
        if informative:
            probe = 20_000
            fits = int(kernel.count_fits(np.uint64(12345), ws, pos.seat, strat, probe))
            if fits == 0:
                raise InferenceMisfit(f"none of {probe:,} deals consistent with the cards seen fits the bids under "
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

        compiled = self.module("kernel")  # solve_chunk plays no strategy: no user slots
        play = pos.kind == "play"

        def solver(worlds):  # --method solve (play decisions): runner's worlds, each solved with every hand open
            def solve(seed, start, codes, n, threads):
                result = np.zeros((n, len(codes)), dtype=np.int64)
                compiled.solve_chunk(np.uint64(seed), np.int64(start), params, strat, ws, pos.seat,
                                     np.asarray(codes, dtype=np.int64), worlds, result,
                                     np.int64(max(1, min(n, 4 * threads))), informative, has_mc)
                if n and (result[:, 0] == -998).any():
                    raise AnalyzerError(f"no deal fitting the bids was found in {kernel.MAX_TRIES:,} draws "
                                        "for a sample: evaluate without inference (--no-infer)")
                return result
            return solve if play else None

        def worlds(limit: int):
            if informative or has_mc or pos.kind not in ("play", "discard"):
                return None
            found = enumerate_worlds(ws, pos.seat, limit)
            return None if found is None else Worlds(found[1], runner(found[0]), solver(found[0]))

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
                          groups=equivalent_options(pos, ws), worlds=worlds, lower_is_better=lower,
                          solve=solver(np.zeros((0, 4), dtype=np.int64)),
                          solve_value=self.module("solver").VALUE)

    def hidden_samples(self, rules: dict[str, Any], position: dict[str, Any], n: int, seed: int = 0, strat=None,
                       infer: bool = False, complete: bool = True) -> dict[str, "np.ndarray"]:
        """``n`` samples of the hidden cards as the evaluation draws them (sample j from the
        stream of the evaluation's sample j): per sample and seat ``h16`` (trumps held,
        strength masks), ``disc`` (trumps discarded), ``h54`` (the nine cards dealt), ``got54``
        (refill cards; [4] the rest of the stock), and ``tries`` (draws it took; -1 none fit).
        ``strat``: the rollout strategies (bidding models for ``infer``; default heuristic)."""
        import numpy as np

        from analyzer.games.pitch10 import kernel

        pos = load_position(rules, position, self.params(rules))
        ws = pos.ws
        if strat is None:
            strat = np.array([[HEURISTIC, DEFAULT_PARTNER_SHARE, 0, 0]] * 4, dtype=np.int64)
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

        if kernel is None:  # else the kernel with the user strategies in its slots
            kernel = self.user_kernel([])

        # only the seat's cards, the dealer and the scores matter here: the kernel makes the seat
        # the pitcher (the bids of the position are not replayed)
        hand_only = {k: v for k, v in position.items() if k in ("seat", "players", "dealer", "scores", "hand", "rules")}
        params = self.params(rules)
        pos = load_position(rules, hand_only, params, whose_turn=False)
        ws = pos.ws
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

    from analyzer.stats import t95

    n = points.shape[0]
    t_half = t95(n - 1)  # nan for one sample
    target = rules["target"]
    dist_rows, rows = [], []
    for t, suit in enumerate(SUITS):
        col = points[:, t]
        counts = np.bincount(col, minlength=11)
        row: dict[str, Any] = {"trump": suit, "samples": n}
        for k in range(11):
            row[f"p_{k}"] = counts[k] / n
        mean = float(col.mean())
        half = t_half * float(col.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
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
            gh = t_half * float(gain.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
            rows.append({"trump": suit, "bid": _level_name(b), "make": m / n, "make_lo": lo, "make_hi": hi,
                         "score_change": g, "score_change_lo": g - gh, "score_change_hi": g + gh})
    table = pd.DataFrame(rows)
    best = table.loc[table["score_change"].idxmax()]
    table["best"] = (table["trump"] == best["trump"]) & (table["bid"] == best["bid"])
    return {"bid_points": pd.DataFrame(dist_rows), "bid_table": table}


def _informative_bidders(pos: "Position", strat) -> list[int]:
    """The other seats that have bid, whose bid tells something under their rollout
    strategy's bidding rule (kernel.bids_fit): heuristic, or mc, pimc or ismcts (modelled by
    its base strategy) with a heuristic base. A random bidder's bid does not depend on its hand,
    and a user strategy's (at a seat or as the base, id < 0) is taken to carry no information."""
    seats = []
    for s in range(4):
        sid = int(strat[s, 0])
        model = int(strat[s, 2]) if sid in (MC, PIMC, ISMCTS) else sid
        if s != pos.seat and int(pos.ws.bids[s]) >= 0 and model == HEURISTIC:
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
    own = int(ws.h16[seat])
    pool = FULL16 & ~(own | int(ws.disc[seat]) | register(ws, "SEEN"))
    cards = [k for k in range(16) if pool >> k & 1]
    # the other seats in the order held_table's axes have them (refill order)
    others = [s for s in ((register(ws, "DEALER") + 1 + i) % 4 for i in range(4)) if s != seat]
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


def equivalent_options(pos: "Position", ws) -> list[list[int]] | None:
    """Groups of the seat's legal trumps (play and discard decisions) that are interchangeable:
    next to each other in the seat's hand, the same points, and no trump between them that
    another seat may hold or discard (every trump between is played, or was discarded by the
    seat). The ace is never merged: the heuristic never plays it onto its partner's trick
    (it does the jack), so for it the A and a jack next to it are not alike. Bid, trump and
    keep-or-give options are never merged. None when no two are."""
    if pos.kind not in ("play", "discard"):
        return None
    ks = [int(STRENGTH[pos.trump, c]) for c in pos.legal]
    live = FULL16 & ~(int(ws.h16[pos.seat]) | int(ws.disc[pos.seat]) | register(ws, "SEEN"))
    groups: list[list[int]] = []
    for i in sorted(range(len(ks)), key=lambda i: ks[i]):
        k = ks[i]
        if groups:
            j = ks[groups[-1][-1]]
            between = live & ((1 << k) - 1) & ~((1 << (j + 1)) - 1)
            if POINTS16[j] == POINTS16[k] and ACE16 not in (j, k) and not between:
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups if len(groups) < len(ks) else None


# ---- positions --------------------------------------------------------------------------------
#
# Python reads a position's format (keys, card tokens, duplicates, counts); what happened is
# replayed by the compiled rules (kernel.load_position), which refuse an impossible history
# with a code (codes.E_*) that ``_REFUSALS`` turns into the one-line message.

def register(ws, name: str) -> int:
    """A scalar register of a kernel state bundle by name: ``register(ws, "SEEN")`` reads
    ``ws.sc[codes.S_SEEN]`` (the only way Python reads them)."""
    return int(ws.sc[getattr(codes, "S_" + name)])


_REFUSALS = {
    codes.E_BID_AFTER_END: lambda i, *_: f"too many bids: the bidding ended after {i}",
    codes.E_STUCK_DEALER: lambda *_: "after three passes the dealer must bid 4",
    codes.E_BID_NOT_ABOVE: lambda b, s, high, _: (f"bid {bid_name(b)} by seat {s} is not above the highest bid "
                                                 f"{bid_name(high)}"),
    codes.E_BIDDING_OPEN: lambda *_: "the bidding is not over (give all bids, from left of the dealer)",
    codes.E_REFILL_TOO_MANY: lambda s, r, left, _: (f"seat {s} cannot be dealt {r} cards in the refill ({left} left "
                                                   "in the stock)"),
    codes.E_REFILL_OWN: lambda s, k, need, r: (f"seat {s} holds {k} trumps in its hand: it is dealt {need} in the "
                                              f"refill, not {r}"),
    codes.E_REST_TO: lambda p, x, *_: f"the rest goes to the pitcher (seat {p}) or its partner, not seat {x}",
    codes.E_NO_REST: lambda *_: "no card was left after the refill: there is no rest_to",
    codes.E_REST_COUNT: lambda n, left, *_: f"rest lists {n} card(s); {left} were left",
    codes.E_REST_UNSEEN: lambda s, *_: f"seat {s} did not get the rest: it has not seen those cards",
    codes.E_DISCARD_NOT_HELD: lambda c, *_: f"discarded: a seat discards only trumps it holds, not {token(c)}",
    codes.E_DISCARD_TOO_MANY: lambda s, n, *_: f"seat {s} discards down to exactly {KEEP} trumps, not {n}",
    codes.E_DISCARD_FIRST: lambda s, n, *_: f"seat {s} holds {n} trumps: it discards down to {KEEP} before any play",
    codes.E_NOT_TRUMP: lambda c, *_: f"{token(c)} is not a trump: only trumps are played",
    codes.E_PLAY_NOT_HELD: lambda s, c, *_: f"seat {s} played {token(c)}, a card it did not hold",
    codes.E_CARD_OF_SEAT: lambda s, c, me, _: f"seat {s} played {token(c)}, a card of seat {me}",
    codes.E_OUT_OF_TURN: lambda t, s, x, _: f"trick {t}: seats do not play in turn: seat {x} is to play, not seat {s}",
    codes.E_TRICK_OPEN: lambda t, x, *_: (f"trick {t} is not complete: seat {x} still holds a trump and plays to it "
                                          "(seats do not play in turn)"),
    codes.E_TRICK_OVER: lambda t, s, *_: (f"trick {t}: seat {s} plays after the trick is complete (seats do not play "
                                          "in turn)"),
    codes.E_TRICK_DONE: lambda *_: "the current trick is complete: list it under played",
    codes.E_HAND_OVER: lambda *_: "nobody holds a trump any more: the hand is over, there is no decision",
    codes.E_OWN_OUT: lambda s, *_: f"seat {s} holds trumps: it is not out",
    codes.E_OWN_NONE: lambda s, *_: f"seat {s} holds no trump: it has no decision",
    codes.E_OUT_PLAYED: lambda s, *_: f"out: seat {s} plays in the current trick, so it was not out",
    codes.E_TOO_MANY_TRUMPS: lambda s, *_: (f"impossible position: seat {s} would hold more than {KEEP} trumps "
                                            "after the discards"),
}

#: what to-move means in each phase, for the message when the position's seat is not the one
_WHO_MOVES = {"bid": "bids next", "trump": "(the pitcher) names trump", "give": "(the pitcher) keeps or gives the rest",
              "discard": "discards next", "play": "plays next"}
#: position keys that only exist once trump is named
_AFTER_TRUMP = ("received", "refill", "rest_to", "rest", "discarded", "played", "trick", "out")


class Position:
    """A position replayed by the engine: what ``seat`` knows at its decision and the kernel
    state for it (``ws``, a ``kernel.Bundle``; the hidden cards empty, redrawn per sample)."""

    def __init__(self, seat: int, dealer: int, scores: list[int], kind: str, legal: list[int], ws) -> None:
        self.seat, self.dealer, self.scores, self.kind, self.legal, self.ws = seat, dealer, scores, kind, legal, ws
        self.trump = register(ws, "TRUMP")
        self.pitcher = register(ws, "PITCHER")


def _given(position: dict[str, Any], key: str) -> bool:
    return position.get(key) not in (None, [], "")


def _seat(value: Any, name: str) -> int:
    seat = _int(value, name)
    if not 0 <= seat < 4:
        raise AnalyzerError(f"{name}: seat {seat} does not exist (pitch10 seats are 0..3)")
    return seat


def _items(value: Any) -> list:
    return value.replace(",", " ").split() if isinstance(value, str) else list(value)


def _cards(value: Any, name: str) -> list[int]:
    from analyzer.cards import CardError, pitch_deck

    try:
        return pitch_deck().parse([str(v) for v in _items(value)], name)
    except CardError as exc:
        raise AnalyzerError(f"{name}: {exc}") from None


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def _plays(value: Any, name: str) -> list[tuple[int, int]]:
    """``"1:AS 2:3S"`` or ``["1:AS", [2, "3S"]]`` -> [(seat, card), ...]."""
    from analyzer.cards import CardError, parse_card

    plays = []
    for item in _items(value):
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
    names = {bid_name(b): b for b in (0, *BID_LEVELS)}
    if t not in names:
        raise AnalyzerError(f"a bid is pass, 4..10 or moon, not {text!r}")
    return names[t]


def _check_frame(rules: dict[str, Any], position: dict[str, Any]) -> tuple[int, int, list[int], list[int]]:
    """The keys, seat, dealer, scores and hand of a position (format): (seat, dealer, scores, hand)."""
    unknown = set(position) - set(Pitch10Spec.position_keys)
    if unknown:
        raise AnalyzerError(f"pitch10 positions have no {sorted(unknown)[0]!r} "
                            f"(keys: {', '.join(Pitch10Spec.position_keys)})")
    if "players" in position and _int(position["players"], "players") != 4:
        raise AnalyzerError("pitch10 is played by exactly 4 players")
    seat = _seat(position.get("seat", 0), "seat")
    dealer = _seat(position.get("dealer", (seat + 3) % 4), "dealer")
    scores = [_int(v, "scores") for v in _items(position.get("scores", [0, 0]))]
    if len(scores) != 2:
        raise AnalyzerError(f"scores takes 2 numbers (team 0 = seats 0 and 2, team 1), not {len(scores)}")
    if game_winner(np.array(scores, dtype=np.int64), 0, 0, rules["target"]) >= 0:
        raise AnalyzerError(f"a team at {max(scores)} has already reached the target {rules['target']}")
    if "hand" not in position:
        raise AnalyzerError("a pitch10 position needs the seat's hand: the nine cards it was dealt")
    hand = _cards(position["hand"], "hand")
    if len(hand) != HAND_SIZE:
        raise AnalyzerError(f"a pitch10 hand is the {HAND_SIZE} cards dealt, not {len(hand)}")
    return seat, dealer, scores, hand


def _history(position: dict[str, Any], seat: int, hand: list[int]) -> dict[str, Any]:
    """The public history of a position as the arrays ``kernel.load_position`` replays
    (format checks only: tokens, counts, duplicates)."""
    bids = [_bid_value(b) for b in _items(position.get("bids", []))]
    h: dict[str, Any] = {"bids": np.array(bids, dtype=np.int64), "trump": -1, "received": np.full(4, -1, np.int64),
                         "refill": 0, "rest_to": -1, "rest": 0, "discards": np.zeros(0, np.int64),
                         "plays": np.zeros((0, 2), np.int64), "ends": np.zeros(0, np.int64), "alive": 15}
    if not _given(position, "trump"):
        return h
    trump_text = str(position["trump"]).strip().upper()
    if len(trump_text) != 1 or trump_text not in SUITS:
        raise AnalyzerError(f"trump is C, D, H or S, not {position['trump']!r}")
    h["trump"] = SUITS.index(trump_text)
    if "received" not in position:
        raise AnalyzerError("after trump a position needs received: the refill count of each seat")
    received = [_int(v, "received") for v in _items(position["received"])]
    if len(received) != 4 or min(received) < 0:
        raise AnalyzerError("received takes 4 non-negative counts, one per seat")
    refill = _cards(position.get("refill", []), "refill")
    if len(refill) != received[seat]:
        raise AnalyzerError(f"refill lists {len(refill)} card(s) but received says seat {seat} "
                            f"was dealt {received[seat]}")
    rest = _cards(position.get("rest", []), "rest")
    from analyzer.cards import CardError, pitch_deck
    try:
        pitch_deck().check(hand + refill + rest, "hand, refill and rest together")
    except CardError as exc:
        raise AnalyzerError(str(exc)) from None
    h.update(received=np.array(received, dtype=np.int64), refill=_mask(refill), rest=_mask(rest),
             discards=np.array(_cards(position.get("discarded", []), "discarded"), dtype=np.int64))
    if _given(position, "rest_to"):
        h["rest_to"] = _seat(position["rest_to"], "rest_to")
    tricks = _tricks(position.get("played", []))
    current = _plays(position.get("trick", []), "trick")
    for i, t in enumerate(tricks):
        if not t:
            raise AnalyzerError(f"trick {i + 1} is empty")
    plays = [p for t in tricks for p in t] + current
    cards = [c for _, c in plays]
    if len(set(cards)) != len(cards):
        raise AnalyzerError("a card is played twice")
    h["plays"] = np.array(plays, dtype=np.int64).reshape(len(plays), 2)
    h["ends"] = np.cumsum([len(t) for t in tricks]).astype(np.int64)
    if "out" in position and position["out"] is not None:
        outs = {_seat(v, "out") for v in _items(position["out"])}
        h["alive"] = 15 & ~sum(1 << s for s in outs)
    elif tricks:  # the default: the seats absent from the last completed trick are out
        h["alive"] = sum(1 << s for s in {s for s, _ in tricks[-1]})
    return h


def _replay(params, seat: int, dealer: int, scores: list[int], hand: list[int], h: dict[str, Any]):
    """The kernel state after the history (kernel.load_position); an impossible one is refused."""
    from analyzer.games.pitch10 import kernel

    ws = kernel.workspace(params)
    err = np.zeros(5, dtype=np.int64)
    if not kernel.load_position(params, ws, np.int64(seat), np.int64(dealer), np.array(scores, dtype=np.int64),
                                np.int64(_mask(hand)), h["bids"], np.int64(h["trump"]), h["received"],
                                np.int64(h["refill"]), np.int64(h["rest_to"]), np.int64(h["rest"]), h["discards"],
                                h["plays"], h["ends"], np.int64(h["alive"]), err):
        code, *args = (int(v) for v in err)
        raise AnalyzerError(_REFUSALS[code](*args))
    return ws


def load_position(rules: dict[str, Any], position: dict[str, Any], params, whose_turn: bool = True) -> Position:
    """Check a position (format: docs/pitch10.md) and replay its public history with the
    compiled rules (kernel.load_position): bids, trump, refill, rest, the seat's discards,
    the tricks. The decision and its legal moves are the engine's at the end of the replay.
    ``whose_turn`` False (the bid table): the seat need not be the one to move."""
    from analyzer.games.pitch10 import kernel

    seat, dealer, scores, hand = _check_frame(rules, position)
    h = _history(position, seat, hand)
    ws = _replay(params, seat, dealer, scores, hand, h)
    to_move, kind_code, n = (int(v) for v in kernel.decision(ws, True))
    kind = KINDS[kind_code]
    _check_nothing_beyond(ws, position, h)
    if whose_turn and to_move != seat:
        raise AnalyzerError(f"seat {to_move} {_WHO_MOVES[kind]}, not seat {seat}")
    given = position.get("decision")
    if given not in (None, "") and str(given) != kind:
        raise AnalyzerError(f"this position is a {kind} decision, not {given}")
    pos = Position(seat, dealer, scores, kind, [int(m) for m in ws.legal[:n]], ws)
    _check_sample(ws, seat)
    return pos


def _check_nothing_beyond(ws, position: dict[str, Any], h: dict[str, Any]) -> None:
    """Refuse facts given beyond the decision the replay stopped at."""
    phase = register(ws, "PHASE")
    later = [k for k in _AFTER_TRUMP if _given(position, k)]
    if h["trump"] < 0 and later:
        if phase == codes.PH_BID:
            raise AnalyzerError(_REFUSALS[codes.E_BIDDING_OPEN]())
        raise AnalyzerError("trump is not named yet: give trump for a later decision")
    if phase == codes.PH_GIVE and any(k in later for k in ("rest", "discarded", "played", "trick", "out")):
        raise AnalyzerError(f"{register(ws, 'REST_N')} cards are left after the refill: give rest_to (who got them)")


def _check_sample(ws, seat: int) -> None:
    """Refuse a position no deal of the hidden cards fits (the sampler finds none)."""
    from analyzer.games.pitch10 import kernel

    test = kernel.workspace(np.zeros(2, dtype=np.int64))
    kernel.copy_bundle(ws, test)
    rng = np.arange(1, 5, dtype=np.uint64)
    if not kernel.resample_hidden(test, kernel.sampler_weights(), seat, rng):
        raise AnalyzerError("impossible position: no deal of the hidden cards fits the refill counts, "
                            "the cards played and the seats out")


def position_from_record(events: list[dict[str, Any]], at: int | None) -> dict[str, Any]:
    """Decision ``at`` (1-based) of a recorded pitch10 game, as the deciding seat saw it: the
    record's public events up to it, in the position format (the engine replays them)."""
    stop = decision_index(events, at)
    me = events[stop]["seat"]
    scores = [0, 0]
    pos: dict[str, Any] = {}
    for ev in events[1:stop]:
        kind = ev["ev"]
        if kind == "deal":
            pos = {"seat": me, "dealer": ev["dealer"], "scores": list(scores), "hand": list(ev["hands"][me]),
                   "bids": []}
            received = [0] * 4
        elif kind == "hand_end":
            scores = list(ev["scores"])
        elif kind == "decide":
            k = ev["kind"]
            if k == "bid":
                pos["bids"].append(ev["move"])
            elif k == "trump":
                pos["trump"] = ev["move"]
            elif k == "discard" and ev["seat"] == me:
                pos.setdefault("discarded", []).append(ev["move"])
            elif k == "play":
                pos.setdefault("trick", []).append(f"{ev['seat']}:{ev['move']}")
        elif kind == "refill":
            received[ev["seat"]] = len(ev["cards"])
            pos["received"] = list(received)
            if ev["seat"] == me:
                pos["refill"] = list(ev["cards"])
        elif kind == "rest":
            pos["rest_to"] = ev["seat"]
            if ev["seat"] == me:
                pos["rest"] = list(ev["cards"])
        elif kind == "trick":
            pos.setdefault("played", []).append(pos.pop("trick", []))
    kind = events[stop]["kind"]
    if kind == "play":
        # who holds trumps at the start of the current trick is public: the seats that play
        # in it, which the record's event for that trick lists
        current = next(ev for ev in events[stop:] if ev["ev"] == "trick")
        in_trick = {s for s, _ in current["plays"]}
        pos["out"] = [s for s in range(4) if s not in in_trick]
    pos["decision"] = kind
    pos["rules"] = dict(events[0]["rules"])
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
                                  {"partner": DEFAULT_PARTNER_SHARE}, deterministic=True),
        "mc": StrategyInfo(2, "Monte Carlo: K samples of the hidden cards, each legal move rolled out to the end "
                              "of the hand with the base strategy; plays the best mean score change of its team "
                              "minus the other team's", {"k": 32, "base": "heuristic"}),
        "pimc": StrategyInfo(3, "perfect-information Monte Carlo in the play: K samples of the hidden trumps, "
                                "each solved exactly with every hand open, the card with the best mean of its "
                                "team's points played (ties: the base's card); bids, trump, keep or give and "
                                "discards are the base strategy's", {"k": 16, "base": "heuristic"}),
        "ismcts": StrategyInfo(4, "information-set Monte Carlo tree search: each iteration samples the hidden "
                                  "cards as mc does, walks a tree of what this seat knows (UCB1, explore in "
                                  "hundredths, every seat's moves by the rules of that world), plays the hand out "
                                  "with the base strategy and backs up each seat's team's result: hands=0 (the "
                                  "default), the hand valued by the match-equity table (1 won, 0 lost; a hand that "
                                  "leaves the game open is worth the chance to win from the scores it leaves, met.py; "
                                  "explore scaled by the table's value per point at the scores); hands=1000, the "
                                  "game's (1 won, 0 lost; a hand that leaves the game open is worth the share of "
                                  f"wins of {FUTURES} playouts of the rest of the game, shared by every "
                                  "iteration that ends the hand with the same score changes), else after `hands` "
                                  "hands 0.5 plus the score margin (20 points a hand worth 0.5); plays the most "
                                  "visited move. search=1: the play only (bids, trump, keep or give and discards "
                                  "are the base's), 2: every decision, 3: every decision, the tree within the "
                                  "decision's phase (the base plays on from the next)",
                               {"iterations": 1000, "base": "heuristic", "explore": 30, "hands": MATCH_EQUITY,
                                "search": 3},
                               {"iterations": (1, MAX_ITERATIONS), "hands": (MATCH_EQUITY, WHOLE_GAME),
                                "search": (SEARCH_PLAY, SEARCH_PHASE)}),
    },
    decision_kinds=list(KINDS),
    warm_up_seconds=84,  # make warm on an empty cache, 2026-12-07
)
