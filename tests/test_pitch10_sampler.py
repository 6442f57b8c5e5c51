"""10-Point Pitch: the hidden-card sampler, enumerated worlds, equivalent options and bid
inference, against an independent plain-Python brute force (issue 14).

The brute force enumerates the placements of every trump the seat has not seen (which
other seat was dealt it), counts the whole deals behind each placement by literally
assigning each of a seat's trumps to one of its places (nine cards, refill, rest) and
filling the rest with non-trumps, keeps the deals that fit the refill counts (replaying
the refill), the plays (every played card among the player's trumps) and who was out in
each trick, and spreads each deal over the discards down to six, uniform among the
player's unplayed trumps (the model the sampler states). It never uses the sampler's
weight formula."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

import numpy as np
import pytest

from analyzer.cards import parse_card, token
from analyzer.games import get

# one pytest-xdist worker runs this file (pyproject's markers): the brute-force enumerations, shared by this file's tests
pytestmark = pytest.mark.xdist_group("pitch10_sampler")

SUITS = "CDHS"
OTHER_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}
RANDOM = np.array([[0, 0, 0, 0]] * 4, dtype=np.int64)
HEURISTIC = np.array([[1, 25, 0, 0]] * 4, dtype=np.int64)


def trump_order(suit: str) -> list[str]:
    """The 16 trumps, high to low (docs/rules.md section 5)."""
    return ([f"A{suit}", f"K{suit}", f"Q{suit}", f"J{suit}", f"J{OTHER_SUIT[suit]}", "HJ", "LJ"]
            + [f"{r}{suit}" for r in "T98765432"])


def trump_points(suit: str) -> dict[str, int]:
    return {f"A{suit}": 1, f"J{suit}": 1, f"J{OTHER_SUIT[suit]}": 1, "HJ": 1, "LJ": 1, f"T{suit}": 1,
            f"2{suit}": 1, f"3{suit}": 3}


def split(text) -> list[str]:
    if text is None:
        return []
    return text.replace(",", " ").split() if isinstance(text, str) else list(text)


def tricks_of(pos) -> tuple[list[list[tuple[int, str]]], list[tuple[int, str]]]:
    def plays(part):
        return [(int(p.split(":")[0]), p.split(":")[1]) for p in part.split()]
    done = [plays(p) for p in pos.get("played", "").split("|") if p.strip()]
    return done, plays(pos.get("trick", ""))


# ---- the brute force ------------------------------------------------------------------------------

def brute_force(pos) -> dict[tuple[frozenset, ...], Fraction]:
    """Exact distribution of what the other seats hold now (one frozenset of cards per other
    seat, in seat order) given the seat's view of a play position."""
    suit = pos["trump"]
    order = trump_order(suit)
    me, dealer = pos["seat"], pos["dealer"]
    refill_order = [(dealer + 1 + i) % 4 for i in range(4)]
    others = [s for s in range(4) if s != me]
    received = list(pos["received"])
    rest_to = pos.get("rest_to")
    rest_n = 18 - sum(received)
    hand, refill, rest = split(pos["hand"]), split(pos.get("refill")), split(pos.get("rest"))
    mine = {c for c in hand + refill + (rest if rest_to == me else []) if c in order}
    unknown = [c for c in order if c not in mine]
    done, current = tricks_of(pos)
    played = defaultdict(list)   # seat -> cards in play order
    for t in done + [current]:
        for s, c in t:
            played[s].append(c)
    out = set(pos.get("out", []))

    # the refill replayed: how many cards a seat with k trumps among its nine is dealt
    left_at = {}
    left = 18
    for s in refill_order:
        left_at[s] = left
        left -= received[s]

    @lru_cache(maxsize=None)
    def deals(s: int, n: int) -> Fraction:
        """Whole deals of seat s's places holding n given trumps: every way to put each trump in
        one of its places (nine cards, refill, rest) that fits its refill count, times the
        ways to fill the rest of the places with non-trumps (1 / prod (free places)!, the
        common factor NT! left out)."""
        places = [9, received[s]] + ([rest_n] if rest_to == s else [])
        total = Fraction(0)
        for where in itertools.product(range(len(places)), repeat=n):
            counts = [where.count(i) for i in range(len(places))]
            if any(c > cap for c, cap in zip(counts, places)):
                continue
            need = max(0, 6 - counts[0])
            if min(need, left_at[s]) != received[s]:
                continue
            fill = 1
            for c, cap in zip(counts, places):
                fill *= factorial(cap - c)
            total += Fraction(1, fill)
        return total

    free = [c for c in unknown if not any(c in played[s] for s in others)]
    dist: dict[tuple[frozenset, ...], Fraction] = defaultdict(Fraction)
    for owners in itertools.product(others, repeat=len(free)):
        has = {s: set(played[s]) for s in others}
        for c, s in zip(free, owners):
            has[s].add(c)
        weight = Fraction(1)
        for s in others:
            weight *= deals(s, len(has[s]))
        if weight == 0:
            continue
        # discards down to six: uniform among the seat's unplayed trumps
        options = []
        for s in others:
            extra = len(has[s]) - 6
            unplayed = sorted(has[s] - set(played[s]))
            if extra <= 0:
                options.append([(frozenset(), Fraction(1))])
            elif len(unplayed) < extra:
                options.append([])
            else:
                p = Fraction(1, comb(len(unplayed), extra))
                options.append([(frozenset(d), p) for d in itertools.combinations(unplayed, extra)])
        for choice in itertools.product(*options):
            kept = {s: has[s] - d for s, (d, _) in zip(others, choice)}
            p = weight
            for _, q in choice:
                p *= q
            # who was out: a seat plays in a trick exactly when it still holds a trump
            ok = True
            for s in others:
                start = len(kept[s])
                for t in done:
                    if (start > 0) != any(x == s for x, _ in t):
                        ok = False
                    start -= sum(1 for x, _ in t if x == s)
                if (start > 0) != (s not in out):
                    ok = False
            if ok:
                dist[tuple(frozenset(kept[s] - set(played[s])) for s in others)] += p
    total = sum(dist.values())
    return {k: v / total for k, v in dist.items()}


def exact_made_random(pos, option: str, world: tuple[frozenset, ...]) -> Fraction:
    """P(the pitcher's team makes its bid) when the seat plays ``option`` and then every seat
    plays uniformly at random among its trumps (docs/rules.md: every holder plays one, the highest
    wins, the winner or the next holder leads), in one world of the other seats' hands."""
    suit = pos["trump"]
    strength = {c: 15 - i for i, c in enumerate(trump_order(suit))}
    points = trump_points(suit)
    me = pos["seat"]
    others = [s for s in range(4) if s != me]
    done, current = tricks_of(pos)
    order = [(pos["dealer"] + 1 + i) % 4 for i in range(4)]
    bids = [11 if b == "moon" else (0 if b == "pass" else int(b)) for b in pos["bids"]]
    high = max(bids)
    pitcher = order[bids.index(high)]
    bid = 10 if high == 11 else high
    taken = [0, 0]
    leader = None
    for i, t in enumerate(done):
        win = max(t, key=lambda p: strength[p[1]])[0]
        taken[win & 1] += sum(points.get(c, 0) for _, c in t)
    mine = {c for c in split(pos["hand"]) + split(pos.get("refill")) + split(pos.get("rest")) if c in strength}
    mine -= set(split(pos.get("discarded")))
    mine -= {c for t in done + [current] for s, c in t if s == me}
    hands = {me: frozenset(mine)}
    for s, h in zip(others, world):
        hands[s] = h
    alive = frozenset(s for s in range(4) if s not in set(pos.get("out", [])))
    leader = current[0][0] if current else me
    trick = tuple(current) + ((me, option),)
    hands[me] = hands[me] - {option}

    @lru_cache(maxsize=None)
    def go(hands_t, trick, leader, alive, t0, t1):
        hands = dict(hands_t)
        seq = [s for s in ((leader + j) % 4 for j in range(4)) if s in alive]
        if len(trick) == len(seq):
            win = max(trick, key=lambda p: strength[p[1]])[0]
            pts = sum(points.get(c, 0) for _, c in trick)
            tk = [t0, t1]
            tk[win & 1] += pts
            nxt = next((x for x in ((win + j) % 4 for j in range(4)) if hands[x]), None)
            if nxt is None:
                return Fraction(1 if tk[pitcher & 1] >= bid else 0)
            return go(hands_t, (), nxt, frozenset(x for x in range(4) if hands[x]), tk[0], tk[1])
        s = seq[len(trick)]
        cards = sorted(hands[s])
        total = Fraction(0)
        for c in cards:
            h = dict(hands)
            h[s] = hands[s] - {c}
            total += go(tuple(sorted(h.items())), trick + ((s, c),), leader, alive, t0, t1)
        return total / len(cards)

    return go(tuple(sorted(hands.items())), trick, leader, alive, taken[0], taken[1])


# ---- positions -----------------------------------------------------------------------------------

# Seat 0 leads the third trick; every seat has played two trumps and still holds one; the
# unseen trumps are JS JC HJ LJ (a seat that was dealt more trumps is more likely to be
# the one that played those two).
MID = {"seat": 0, "dealer": 3, "hand": "AS KS QS 3S 2S TS 2H 3H 4H", "bids": ["7", "pass", "pass", "pass"],
       "trump": "S", "received": [0, 5, 5, 5], "rest_to": 0, "rest": "5H 6H 7H",
       "played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S"}
# Seat 1 (a defender) plays to the second trick; the pitcher (seat 0, six or more trumps in
# its nine cards, the rest of the stock too) may have discarded up to three; seat 3 is out.
DEFEND = {"seat": 1, "dealer": 3, "hand": "KS QS 5S 3S 2H 3H 4H 5H 6H", "bids": ["7", "pass", "pass", "pass"],
          "trump": "S", "received": [0, 2, 4, 5], "refill": "7D 8D", "rest_to": 0,
          "played": "0:AS 1:5S 2:2S 3:6S", "trick": "0:JS", "out": [3]}


def _spec():
    spec = get("pitch10")
    return spec, spec.resolve_rules({})


def _held_tokens(pos, h16_row, seats):
    t = SUITS.index(pos["trump"])
    from analyzer.games.pitch10.rules import CARD_AT

    return tuple(frozenset(token(int(CARD_AT[t, k])) for k in range(16) if int(h16_row[s]) >> k & 1) for s in seats)


@pytest.fixture(scope="module")
def exact():
    return {"MID": brute_force(MID), "DEFEND": brute_force(DEFEND)}


@pytest.mark.parametrize("name,pos", [("MID", MID), ("DEFEND", DEFEND)])
def test_sampled_hidden_trumps_match_the_brute_force(name, pos, exact):
    """The joint distribution of the other seats' trumps: chi-square against the exact one,
    and the total variation distance within its sampling error."""
    spec, rules = _spec()
    n = 40_000
    got = spec.hidden_samples(rules, pos, n, seed=11)
    others = [s for s in range(4) if s != pos["seat"]]
    counts: dict = defaultdict(int)
    for row in got["h16"]:
        counts[_held_tokens(pos, row, others)] += 1
    dist = exact[name]
    assert set(counts) <= set(dist), "a sampled world the brute force calls impossible"
    chi2, df = 0.0, -1
    for key, p in dist.items():
        e = float(p) * n
        if e >= 5:
            chi2 += (counts.get(key, 0) - e) ** 2 / e
            df += 1
    # df large: chi2 ~ N(df, 2 df); 5 sigma
    print(f"{name}: chi2 {chi2:.1f} on {df} df")
    assert chi2 < df + 5 * (2 * df) ** 0.5, (chi2, df)
    tv = 0.5 * sum(abs(counts.get(k, 0) / n - float(p)) for k, p in dist.items())
    # the expected TV of n samples is about sum sqrt(p (1 - p) / (2 pi n)); allow twice that
    expected_tv = sum((float(p) * (1 - float(p)) / (2 * np.pi * n)) ** 0.5 for p in dist.values())
    print(f"{name}: TV {tv:.4f} (expected from sampling {expected_tv:.4f})")
    assert tv < 2 * expected_tv, (tv, expected_tv)


def test_sampled_deals_are_whole_and_consistent():
    """The completed deal (what an mc rollout seat and the bid inference read): nine cards and
    the refill for every seat, no card twice, the refill rule replayed, the trumps of each
    seat its held + played + discarded ones, discards only of unplayed trumps."""
    spec, rules = _spec()
    pos = DEFEND
    got = spec.hidden_samples(rules, pos, 300, seed=2, complete=True)
    t = SUITS.index(pos["trump"])
    from analyzer.games.pitch10.rules import STRENGTH

    done, current = tricks_of(pos)
    played = defaultdict(int)
    for trick in done + [current]:
        for s, c in trick:
            played[s] |= 1 << int(STRENGTH[t, parse_card(c)])
    order = [(pos["dealer"] + 1 + i) % 4 for i in range(4)]
    for j in range(300):
        h54, got54, h16, disc = got["h54"][j], got["got54"][j], got["h16"][j], got["disc"][j]
        cards = [int(h54[s]) for s in range(4)] + [int(got54[s]) for s in range(5)]
        union = 0
        for m in cards:
            assert union & m == 0, "a card dealt twice"
            union |= m
        assert all(bin(int(h54[s])).count("1") == 9 for s in range(4))
        left = 18
        for s in order:
            k = sum(1 for c in range(54) if int(h54[s]) >> c & 1 and STRENGTH[t, c] >= 0)
            assert min(max(0, 6 - k), left) == pos["received"][s] == bin(int(got54[s])).count("1")
            left -= pos["received"][s]
        assert bin(int(got54[4])).count("1") == left
        for s in range(4):
            if s == pos["seat"]:
                continue
            whole = int(h54[s]) | int(got54[s]) | (int(got54[4]) if s == pos["rest_to"] else 0)
            trumps = sum(1 << int(STRENGTH[t, c]) for c in range(54) if whole >> c & 1 and STRENGTH[t, c] >= 0)
            assert trumps == int(h16[s]) | played[s] | int(disc[s])
            assert int(disc[s]) & played[s] == 0 and int(h16[s]) & int(disc[s]) == 0
            assert bin(int(disc[s])).count("1") == max(0, bin(trumps).count("1") - 6)


@pytest.mark.parametrize("name,pos", [("MID", MID), ("DEFEND", DEFEND)])
def test_worlds_weights_equal_the_brute_force(name, pos, exact):
    spec, rules = _spec()
    ev = spec.evaluation(rules, pos, RANDOM)
    worlds = ev.worlds(100_000)
    assert worlds is not None
    others = [s for s in range(4) if s != pos["seat"]]
    from analyzer.games.pitch10 import spec as P

    found = P.enumerate_worlds(P.load_position(rules, pos, spec.params(rules)).ws, pos["seat"], 100_000)
    assert found is not None
    keys = [_held_tokens(pos, row, others) for row in found[0]]
    assert len(set(keys)) == len(keys)
    w = found[1] / found[1].sum()
    dist = exact[name]
    assert set(keys) == set(dist)
    for key, p in zip(keys, w):
        assert p == pytest.approx(float(dist[key]), rel=1e-9, abs=1e-15)
    np.testing.assert_allclose(worlds.weights / worlds.weights.sum(), w)
    assert ev.worlds(len(keys) - 1) is None


@pytest.mark.parametrize("name,pos,option", [("MID", MID, "3S"), ("MID", MID, "QS"), ("DEFEND", DEFEND, "KS"), ("DEFEND", DEFEND, "3S")])
def test_made_bid_chance_equals_the_exact_one(name, pos, option, exact):
    """Random rollouts: the sampled evaluation and the one over enumerated worlds against the
    exact chance (brute-force worlds, every random play-out enumerated), within 4 SE."""
    spec, rules = _spec()
    truth = float(sum(p * exact_made_random(pos, option, world) for world, p in exact[name].items()))
    ev = spec.evaluation(rules, pos, RANDOM)
    code = [ev.options[i] for i, nm in enumerate(ev.names) if nm == option]
    n = 40_000
    made = ev.run(9, 0, np.array(code), n, 2)[:, 0, 0]
    se = made.std() / n ** 0.5
    print(f"{name} {option}: exact {truth:.4f}, sampled {made.mean():.4f} +- {se:.4f}")
    assert 0.05 < truth < 0.95
    assert abs(made.mean() - truth) < 4 * se, (made.mean(), truth, se)
    worlds = ev.worlds(100_000)
    per = 8
    W = len(worlds.weights)
    res = worlds.run(9, 0, np.array(code), W * per, 2)[:, 0, 0].reshape(per, W)  # sample j: world j % W
    w = worlds.weights / worlds.weights.sum()
    est = float((res.mean(axis=0) * w).sum())
    se_w = float(np.sqrt((w ** 2 * res.var(axis=0, ddof=1) / per).sum()))
    print(f"   worlds ({W}): {est:.4f} +- {se_w:.4f}")
    assert abs(est - truth) < 4 * se_w, (est, truth, se_w)


def test_option_groups_and_orientation():
    spec, rules = _spec()
    ev = spec.evaluation(rules, MID, HEURISTIC)
    groups = sorted(sorted(ev.names[i] for i in g) for g in ev.groups)
    # QS and KS: no trump between, no points: alike; the ace is never merged; 3S has 3 points
    assert groups == [["3S"], ["AS"], ["KS", "QS"]]
    assert not ev.lower_is_better  # seat 0 pitches
    ev = spec.evaluation(rules, DEFEND, HEURISTIC)
    assert ev.lower_is_better and "defends" in ev.description
    assert sorted(sorted(ev.names[i] for i in g) for g in ev.groups) == [["3S"], ["KS", "QS"]]
    # live trumps between them: not merged (2S and TS, one point each, with 5S..9S unseen)
    open_pos = dict(MID, played="0:AS 1:4S 2:LJ 3:HJ")
    ev = spec.evaluation(rules, open_pos, HEURISTIC)
    assert sorted(sorted(ev.names[i] for i in g) for g in ev.groups) == [["2S"], ["3S"], ["KS", "QS"], ["TS"]]
    bid = spec.evaluation(rules, {"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C"}, HEURISTIC)
    assert bid.groups is None and not bid.lower_is_better


@pytest.mark.parametrize("strat", [HEURISTIC, RANDOM])
def test_grouped_options_give_identical_outcomes(strat):
    """Options merged as alike play out the same on every sample (same sample, same future)."""
    spec, rules = _spec()
    for pos in (MID, DEFEND):
        ev = spec.evaluation(rules, pos, strat)
        result = ev.run(5, 0, np.array(ev.options), 3000, 2)
        for g in ev.groups:
            for i in g[1:]:
                assert (result[:, i] == result[:, g[0]]).all(), (pos["seat"], ev.names[i], ev.names[g[0]])


# ---- inference from bids ------------------------------------------------------------------------

#: heuristic weights (tenths of a point) of the trumps high to low: A K Q J off-J HJ LJ T 9..4 3 2
WEIGHTS = [16, 9, 7, 8, 7, 6, 5, 4, 2, 2, 2, 2, 2, 2, 12, 5]
DECK = [r + s for s in SUITS for r in "23456789TJQKA"] + ["LJ", "HJ"]


def heuristic_bid_ref(cards: set[str], high: int, partner_high: bool, stuck: bool, share: int = 25) -> int:
    """The heuristic bidder as the guide describes it (0 pass, 4..10, 11 moon)."""
    if stuck:
        return 4
    value = max(sum(w for c, w in zip(trump_order(s), WEIGHTS) if c in cards) for s in SUITS) + share
    if value >= 110:
        return 11
    est = min(value // 10, 10)
    if est < 4 or est <= high or (partner_high and est < high + 2):
        return 0
    return est


def bids_ok(hands: dict[int, set[str]], pos) -> bool:
    order = [(pos["dealer"] + 1 + i) % 4 for i in range(4)]
    high, pitcher = 0, -1
    for i, b in enumerate(pos["bids"]):
        s = order[i]
        v = 11 if b == "moon" else (0 if b == "pass" else int(b))
        if s != pos["seat"]:
            partner = pitcher >= 0 and pitcher % 2 == s % 2
            if heuristic_bid_ref(hands[s], high, partner, i == 3 and high == 0) != v:
                return False
        if v:
            high, pitcher = v, s
    return True


def _cards(mask) -> set[str]:
    return {token(c) for c in range(54) if int(mask) >> c & 1}


BIDDING = {"seat": 3, "dealer": 3, "hand": "AS KS 3S 2H 5D 7C 9C TD 4H", "bids": ["pass", "6", "pass"]}


def test_inferred_hands_fit_the_bids_before_trump():
    """Bid decision of seat 3 after pass, 6, pass: every sampled hand bids as observed under the
    heuristic, and each card's chance of being in each hand matches rejection sampling of
    uniform deals with the reference bidder."""
    spec, rules = _spec()
    n = 20_000
    got = spec.hidden_samples(rules, BIDDING, n, seed=4, strat=HEURISTIC, infer=True)
    assert (got["tries"] >= 1).all()
    for j in range(300):
        assert bids_ok({s: _cards(got["h54"][j, s]) for s in range(3)}, BIDDING)
    # reference: uniform deals of the 45 unseen cards, kept when the reference bidder agrees
    unseen = [c for c in DECK if c not in BIDDING["hand"].split()]
    weight = np.zeros((4, 45))
    for t, s in enumerate(SUITS):
        for c, w in zip(trump_order(s), WEIGHTS):
            if c in unseen:
                weight[t, unseen.index(c)] = w
    gen = np.random.default_rng(3)
    kept = []
    for _ in range(8):
        perm = np.argsort(gen.random((100_000, 45)), axis=1)
        seat_of = np.empty_like(perm)
        np.put_along_axis(seat_of, perm, np.repeat(np.arange(45)[None, :] // 9, perm.shape[0], axis=0), axis=1)
        # seat_of[d, card] = 0, 1, 2 for the hands of seats 0, 1, 2 (3 and 4: the stock)
        value = np.stack([((seat_of == s).astype(np.float64) @ weight.T).max(axis=1).astype(np.int64) + 25
                          for s in range(3)])
        est = np.minimum(value // 10, 10)
        moon = value >= 110
        b0 = np.where(moon[0], 11, np.where(est[0] >= 4, est[0], 0))
        ok0 = b0 == 0
        b1 = np.where(moon[1], 11, np.where(est[1] >= 4, est[1], 0))
        ok1 = b1 == 6
        # seat 2, partner of nobody bidding high (seat 1 holds the 6): passes iff its estimate <= 6
        ok2 = ~moon[2] & (est[2] <= 6)
        kept.append(seat_of[ok0 & ok1 & ok2])
    ref = np.concatenate(kept)
    assert len(ref) > 5_000  # about 0.9% of the deals fit
    ours = np.zeros((n, 45), dtype=np.int64) + 3
    codes = [parse_card(c) for c in unseen]
    for s in range(3):
        bits = (got["h54"][:, s][:, None] >> np.array(codes)[None, :]) & 1
        ours[bits == 1] = s
    worst = 0.0
    for s in range(3):
        p_ref = (ref == s).mean(axis=0)
        p_got = (ours == s).mean(axis=0)
        se = np.sqrt(p_ref * (1 - p_ref) / len(ref) + p_got * (1 - p_got) / n)
        never = se == 0  # a card that never is in that hand, in both (e.g. too strong for a pass)
        assert (p_ref[never] == p_got[never]).all()
        worst = max(worst, float(np.max(np.abs(p_ref - p_got)[~never] / se[~never])))
    print(f"bid inference: worst |z| {worst:.2f} over {3 * 45} card-seat chances, {len(ref)} reference deals")
    assert worst < 4.5, worst
    # and inference matters here: far from the uniform 9/45 for some card and seat
    shift = max(float(np.max(np.abs((ours == s).mean(axis=0) - 0.2))) for s in range(3))
    assert shift > 0.1, shift


def test_inferred_hands_fit_the_bids_after_trump():
    """Play decision: the completed deals fit the bids (the pitcher's 7 and the passes)."""
    spec, rules = _spec()
    got = spec.hidden_samples(rules, DEFEND, 500, seed=8, strat=HEURISTIC, infer=True)
    plain = spec.hidden_samples(rules, DEFEND, 500, seed=8, strat=HEURISTIC, infer=False)
    for j in range(500):
        hands = {s: _cards(got["h54"][j, s]) for s in range(4)}
        assert bids_ok(hands, DEFEND)
    fits = sum(bids_ok({s: _cards(plain["h54"][j, s]) for s in range(4)}, DEFEND) for j in range(500))
    assert fits < 450  # without inference many deals contradict the bids
    ev = spec.evaluation(rules, DEFEND, HEURISTIC, infer=True)
    assert ev.extra["bids_read"] and 0 < ev.extra["bid_fit_rate"] < 0.9
    assert ev.worlds(10 ** 9) is None  # the bids' likelihood of a world is not enumerated
    result = ev.run(1, 0, np.array(ev.options), 200, 2)
    assert result.shape == (200, 3, 2) and (result[:, :, 0] >= 0).all()


def test_random_bidders_tell_nothing():
    """With random rollout bidders the bids do not depend on the hands: inference draws the
    same samples as no inference (and still enumerates worlds)."""
    spec, rules = _spec()
    a = spec.hidden_samples(rules, BIDDING, 2000, seed=4, strat=RANDOM, infer=True)
    b = spec.hidden_samples(rules, BIDDING, 2000, seed=4, strat=RANDOM, infer=False)
    assert (a["h54"] == b["h54"]).all()
    ev = spec.evaluation(rules, DEFEND, RANDOM, infer=True)
    assert not ev.extra["bids_read"] and ev.worlds(100_000) is not None
