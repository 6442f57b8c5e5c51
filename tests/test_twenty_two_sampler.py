"""Twenty-Two's hidden-card sampler in the variant ``lowest_only_if_unable`` against an
independent brute force: every deal of the hidden cards is enumerated and kept when every
play the hidden hands made was legal under the plain-Python rules written here (hands
rebuilt backwards: the hand at a play is the hand now plus what the seat played since)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from analyzer.games.twenty_two import kernel as K
from analyzer.games.twenty_two import strategies as S
from analyzer.games.twenty_two.spec import SPEC, load_position

RANKS = "23456789TJQKA"
SUITS = "CDHS"
ALL = [r + s for r in RANKS for s in SUITS]


def rk(token: str) -> int:
    return RANKS.index(token[0])


def ref_beats(x: list[int], best: list[int]) -> bool:
    return len(x) == len(best) and all(a >= b for a, b in zip(sorted(x), sorted(best)))


def ref_legal_follow(hand: list[int], move: list[int], best: list[int], lowest_only: bool) -> bool:
    """docs/rules.md: any s cards that match or beat, or the s lowest (variant: only if unable)."""
    s = len(best)
    able = any(ref_beats(list(c), best) for c in itertools.combinations(hand, s))
    lowest = sorted(hand)[:s]
    if sorted(move) not in [sorted(c) for c in itertools.combinations(hand, s)]:
        return False
    if ref_beats(move, best):
        return True
    return sorted(move) == lowest and not (lowest_only and able)


def tricks_of(position: dict) -> list[list[str]]:
    played = [t.split() for t in position.get("played", "").split(";") if t.strip()]
    return played + ([position["trick"].split()] if position.get("trick") else [])


def follows(position: dict, players: int, first: int) -> list[tuple[int, list[int], list[int], int]]:
    """(seat, move, best so far, index of the play) of every follow, replayed independently."""
    out, leader, k = [], first, 0
    for t in tricks_of(position):
        best, winner, p = [rk(c) for c in t[0]], leader, leader
        k += 1
        for m in t[1:]:
            p = (p + 1) % players
            move = [rk(c) for c in m]
            out.append((p, move, best, k))
            k += 1
            if ref_beats(move, best):
                best, winner = move, p
        leader = winner
    return out


def plays_by(position: dict, players: int, first: int) -> list[tuple[int, list[int], int]]:
    """(seat, cards, index) of every play, leads included."""
    out, leader, k = [], first, 0
    for t in tricks_of(position):
        best, winner, p = [rk(c) for c in t[0]], leader, leader
        out.append((leader, best, k))
        k += 1
        for m in t[1:]:
            p = (p + 1) % players
            move = [rk(c) for c in m]
            out.append((p, move, k))
            k += 1
            if ref_beats(move, best):
                best, winner = move, p
        leader = winner
    return out


def consistent(position, players, first, hands: dict[int, list[int]], lowest_only: bool) -> bool:
    plays = plays_by(position, players, first)
    for seat, move, best, k in follows(position, players, first):
        if seat not in hands:
            continue
        held = hands[seat] + [r for s, cards, j in plays if s == seat and j >= k for r in cards]
        if not ref_legal_follow(held, move, best, lowest_only):
            return False
    return True


def exact_hands(position, players, first, pool: list[str], sizes: dict[int, int], lowest_only=True) -> Counter:
    """Joint distribution of the hidden hands (rank strings per seat) over every deal."""
    seats = sorted(sizes)
    out: Counter = Counter()

    def rec(i, left, chosen):
        if i == len(seats):
            hands = {s: [rk(pool[j]) for j in chosen[s]] for s in seats}
            if consistent(position, players, first, hands, lowest_only):
                out[tuple("".join(sorted((pool[j][0] for j in chosen[s]), key=RANKS.index)) for s in seats)] += 1
            return
        for combo in itertools.combinations(left, sizes[seats[i]]):
            rec(i + 1, [j for j in left if j not in combo], {**chosen, seats[i]: combo})

    rec(0, list(range(len(pool))), {})
    return out


def position_with_pool(base: dict, pool: list[str], played_cards: list[str]) -> dict:
    """``base`` with every card scored except the seat's hand, the pool and the played cards."""
    keep = set(pool) | set(base["hand"].split()) | set(played_cards)
    return {**base, "scored": [c for c in ALL if c not in keep]}


def sample_hands(rules, position, seat, seats, n, table=None) -> tuple[Counter, int]:
    params = SPEC.params(rules)
    ws = load_position(rules, position).ws
    work = K.workspace(params)
    if table is not None:  # a smaller counting table: seats move to rejection
        work = work._replace(tab=np.zeros(table, dtype=np.float64))
    rng = np.zeros(4, dtype=np.uint64)
    got: Counter = Counter()
    failures = 0
    for i in range(n):
        K.copy_bundle(ws, work)
        K.seed_stream(rng, np.uint64(5), np.int64(i), np.int64(0))
        failures += not K.resample_hidden(params, work, np.int64(seat), rng)
        got[tuple("".join(RANKS[c % 13] for c in sorted((c for c in range(52) if int(work.hmask[s]) >> c & 1),
                                                        key=lambda c: c % 13)) for s in seats)] += 1
    return got, failures


def chi2_ok(got: Counter, exact: Counter, n: int) -> tuple[float, int, float]:
    """Chi-square of sampled vs exact (cells under 5 expected merged), its df, and the TV distance."""
    total = sum(exact.values())
    chi2, df, small_e, small_o = 0.0, -1, 0.0, 0
    for key, ways in exact.items():
        e = n * ways / total
        if e < 5:
            small_e += e
            small_o += got[key]
            continue
        chi2 += (got[key] - e) ** 2 / e
        df += 1
    if small_e > 0:
        chi2 += (small_o - small_e) ** 2 / small_e
        df += 1
    tv = 0.5 * sum(abs(got[k] / n - exact[k] / total) for k in set(got) | set(exact))
    return chi2, df, tv


def tv_noise(exact: Counter, n: int) -> float:
    """The total-variation distance that sampling noise alone gives on average (normal
    approximation: E|X - np| = sqrt(2 n p (1 - p) / pi) per cell)."""
    total = sum(exact.values())
    return 0.5 * sum(math.sqrt(2 * (w / total) * (1 - w / total) / (math.pi * n)) for w in exact.values())


def chi2_limit(df: int) -> float:
    return df + 3.1 * math.sqrt(2 * df) + 10  # beyond the 99.9% point


# Three players, seat 0 leads trick 3. Trick 1: 88 led, seat 1 beats with 9K, seat 2 plays
# 34: its lowest cards, and it could not match or beat 9K (at most one card >= 9, or none
# >= K: an "or" of two bounds). Trick 2: seat 1 leads 6, seat 2 beats with 7, seat 0 wins
# with 8. Seat 1 (nothing shown) and seat 2 share a pool of 12 cards with a 6-card stock.
POOL3 = "2C 4D 5H 6S 9D TC JD QH KS KH AC 7S".split()
PLAYED3 = "8C 8D 9C KC 3C 4C 6C 7C 8H".split()
BASE3 = {"seat": 0, "players": 3, "dealer": 2, "kind": "lead", "hand": "3H 5C JC",
         "played": "88 9K 34; 6 7 8", "rules": {"lowest_only_if_unable": True}}
POS3 = position_with_pool(BASE3, POOL3, PLAYED3)
RULES3 = SPEC.resolve_rules({"lowest_only_if_unable": True}, 3)


def test_position_pool_and_events():
    pos = load_position(RULES3, POS3)
    assert sorted(RANKS[c % 13] for c in pos.pool) == sorted(c[0] for c in POOL3)
    assert pos.floor == [0, 0, RANKS.index("4")]
    assert [(s, best) for s, best, _ in pos.events] == [(2, SPEC.move_code("9K"))]
    # the default rules show the floor only
    assert load_position(SPEC.resolve_rules({}, 3), {**POS3, "rules": {}}).events == []


def test_variant_sampler_matches_brute_force_joint_hands():
    exact = exact_hands(POS3, 3, 0, POOL3, {1: 3, 2: 3})
    n = 30000
    got, failures = sample_hands(RULES3, POS3, 0, (1, 2), n)
    assert failures == 0
    assert set(got) <= set(exact)  # never an inconsistent deal
    chi2, df, tv = chi2_ok(got, exact, n)
    assert chi2 < chi2_limit(df), (chi2, df)
    # the floors alone (what the sampler kept before) are far from the exact distribution
    floor_only = exact_hands(POS3, 3, 0, POOL3, {1: 3, 2: 3}, lowest_only=False)
    _, _, tv_floor = chi2_ok(Counter({k: v * n for k, v in floor_only.items()}), exact, n * sum(floor_only.values()))
    noise = tv_noise(exact, n)
    assert tv < 1.2 * noise and tv_floor > 3 * noise, (tv, noise, tv_floor)


def test_rejection_path_is_exact_too():
    # a counting table too small for any seat: every event is checked by rejection
    exact = exact_hands(POS3, 3, 0, POOL3, {1: 3, 2: 3})
    n = 20000
    got, failures = sample_hands(RULES3, POS3, 0, (1, 2), n, table=1)
    assert failures == 0 and set(got) <= set(exact)
    chi2, df, _ = chi2_ok(got, exact, n)
    assert chi2 < chi2_limit(df), (chi2, df)


# Four players, two seats with events sharing the table (the coupling through the pool):
# trick 1: seat 0 leads Q, seat 1 plays 4 (nothing >= Q), seat 2 beats with K, seat 3
# plays 5 (nothing >= K). Trick 2: seat 2 leads TT, seat 3 plays 56 (nothing to match or
# beat TT: at most one card >= T), seat 0 plays JJ, seat 1 plays 67.
POOL4 = "7D 8D 9D TD JD QD KD AD 3D 6D".split()
PLAYED4 = "QC 4C KC 5C TC TH 5S 6C JC JH 6S 7C".split()
BASE4 = {"seat": 0, "players": 4, "dealer": 3, "kind": "lead", "hand": "2C 9C",
         "played": "Q 4 K 5; TT 56 JJ 67", "rules": {"lowest_only_if_unable": True}}
POS4 = position_with_pool(BASE4, POOL4, PLAYED4)
RULES4 = SPEC.resolve_rules({"lowest_only_if_unable": True}, 4)


def test_two_constrained_seats_match_brute_force():
    pos = load_position(RULES4, POS4)
    assert sorted(s for s, _, _ in pos.events) == [1, 1, 3, 3]
    exact = exact_hands(POS4, 4, 0, POOL4, {1: 2, 2: 2, 3: 2})
    n = 30000
    got, failures = sample_hands(RULES4, POS4, 0, (1, 2, 3), n)
    assert failures == 0 and set(got) <= set(exact)
    chi2, df, tv = chi2_ok(got, exact, n)
    assert chi2 < chi2_limit(df), (chi2, df, tv)


def heuristic_follow_single(cards: list[int], best: int) -> tuple[int, int]:
    """The heuristic's follow of a single with two cards (restated): its higher card when it
    matches or beats, else its lower one. Returns (played, kept)."""
    hi, lo = max(cards), min(cards)
    return (hi, lo) if hi >= best else (lo, hi)


# Two players late in a hand, variant: seat 0 holds 7C TH and leads a single, then the
# final trick. Seat 1 showed: nothing >= Q (trick 1: Q led, it played 4), and with the 9-9
# led in trick 2 it played 56: its lowest, and at most one card >= 9.
POOL2 = "6D 7H 8S TC JD QH KS AC AD 3C KD QS".split()
PLAYED2 = "QC 4C 9C 9D 5C 6C".split()
BASE2 = {"seat": 0, "players": 2, "dealer": 1, "kind": "lead", "hand": "7C TH", "played": "Q 4; 99 56",
         "rules": {"lowest_only_if_unable": True}}
POS2 = position_with_pool(BASE2, POOL2, PLAYED2)


def exact_took_final(lowest_only: bool) -> dict[str, float]:
    hands = exact_hands(POS2, 2, 0, POOL2, {1: 2}, lowest_only)
    total = sum(hands.values())
    out = {}
    for lead, keep in (("7", "T"), ("T", "7")):
        took = 0
        for (h1,), ways in hands.items():
            _, kept1 = heuristic_follow_single([RANKS.index(c) for c in h1], RANKS.index(lead))
            took += ways * (RANKS.index(keep) >= kept1)
        out[lead] = took / total
    return out


def test_variant_took_final_matches_exact_within_4_se():
    rules = SPEC.resolve_rules({"lowest_only_if_unable": True}, 2)
    exact = exact_took_final(True)
    floors_only = exact_took_final(False)
    strat = np.zeros((2, 4), dtype=np.int64)
    strat[:, 0] = S.HEURISTIC
    ev = SPEC.evaluation(rules, POS2, strat)
    assert ev.lower_is_better and ev.groups is None
    assert sorted(ev.names) == ["7", "T"]
    n = 16384
    result = ev.run(7, 0, np.array(ev.options, dtype=np.int64), n, 1)
    for i, name in enumerate(ev.names):
        p = exact[name]
        got = result[:, i, 0].mean()
        se = math.sqrt(p * (1 - p) / n)
        assert abs(got - p) <= 4 * se, (name, got, p, se)
        # what the floors alone would give is far off: the position tests the variant's information
        assert abs(floors_only[name] - p) > 10 * se, (name, floors_only[name], p)


def test_impossible_unable_position_is_reported():
    import pytest

    from analyzer.errors import AnalyzerError

    # seat 1 played 4 under a Q (so nothing >= Q), but every unseen card is a Q, K or A
    pool = "QD QH KS KD AC AD".split()
    position = position_with_pool({**BASE2, "played": "Q 4", "hand": "7C JH 8C"}, pool, ["QC", "4C"])
    strat = np.zeros((2, 4), dtype=np.int64)
    with pytest.raises(AnalyzerError, match="no deal fits"):
        SPEC.evaluation(SPEC.resolve_rules({"lowest_only_if_unable": True}, 2), position, strat)
