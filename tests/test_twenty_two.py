"""Twenty-Two (docs/rules.md section 1): rule functions, seed examples, record replays checked
by an independent plain-Python referee, determinism, CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.games.twenty_two import rules as R
from analyzer.games.twenty_two import strategies as S
from analyzer.games.twenty_two.spec import SPEC, move_code, move_text

RANKS = "23456789TJQKA"
SUITS = "CDHS"
POINTS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]
ALL_TOKENS = {r + s for r in RANKS for s in SUITS}


def pk(text: str) -> np.int64:
    """Packed set of a rank string, computed here (independent of spec.move_code)."""
    code = 0
    for ch in text:
        code += 1 << (4 * RANKS.index(ch))
    return np.int64(code)


def txt(code: int) -> str:
    return "".join(RANKS[r] * ((int(code) >> (4 * r)) & 15) for r in range(13))


def scratch() -> np.ndarray:
    return np.zeros(R.SCRATCH, dtype=np.int64)


# ---- plain-Python reference rules ------------------------------------------------------

def ref_beats(x: str, best: str) -> bool:
    """Sorted position-wise comparison (docs/rules.md)."""
    xs = sorted(RANKS.index(c) for c in x)
    bs = sorted(RANKS.index(c) for c in best)
    return len(xs) == len(bs) and all(a >= b for a, b in zip(xs, bs))


def sort_ranks(cards) -> str:
    return "".join(sorted(cards, key=RANKS.index))


def ref_discards(hand: Counter, stock: int) -> set[str]:
    ranks = [r for r in RANKS if hand[r]]
    out = set()
    for counts in itertools.product(*[range(hand[r] + 1) for r in ranks]):
        if sum(counts) <= stock:
            out.add("".join(r * c for r, c in zip(ranks, counts)))
    return out


ORDERED = str.maketrans(RANKS, "abcdefghijklm")  # rank strings that compare by rank


def sub_multisets(hand: Counter, low: int, high: int) -> list[str]:
    """Every sorted rank string that is a sub-multiset of ``hand`` with low..high cards
    (built rank by rank: fast enough to referee hands of 11 cards)."""
    out = [""]
    for r in RANKS:
        c = hand[r]
        if c:
            out = [s + r * k for s in out for k in range(c + 1) if len(s) + k <= high]
    return [s for s in out if len(s) >= low]


def fast_discards(hand: Counter, stock: int) -> set[str]:
    return set(sub_multisets(hand, 0, stock))


def fast_follows(hand: Counter, s: int, best: str, lowest_only: bool) -> set[str]:
    b = best.translate(ORDERED)
    beating = {x for x in sub_multisets(hand, s, s) if all(p >= q for p, q in zip(x.translate(ORDERED), b))}
    low = sort_ranks("".join(r * c for r, c in hand.items()))[:s]
    if lowest_only:
        return beating if beating else {low}
    return beating | {low}


def ref_leads(hand: Counter, size: int) -> set[str]:
    return {r * k for r in RANKS for k in range(1, min(hand[r], size - 1) + 1)}


def ref_follows(hand: Counter, s: int, best: str, lowest_only: bool) -> set[str]:
    cards = sort_ranks("".join(r * c for r, c in hand.items()))
    beating = {sort_ranks(c) for c in itertools.combinations(cards, s) if ref_beats("".join(c), best)}
    low = cards[:s]
    if lowest_only:
        return beating if beating else {low}
    return beating | {low}


# ---- rule functions (compiled) ---------------------------------------------------------

@pytest.mark.parametrize("x,best,expected", [
    ("7", "7", True), ("T", "7", True), ("2", "T", False),          # lead 7, then 7, T, 2
    ("67", "66", True), ("45", "67", False), ("89", "67", True),    # lead 6-6 ...
    ("JQQ", "JJJ", True), ("223", "JQQ", False), ("QKA", "JQQ", True),  # lead J-J-J ...
    ("66", "67", False), ("59", "67", False), ("7A", "67", True), ("AA", "KK", True),
])
def test_beats_is_sorted_positionwise(x, best, expected):
    assert R.beats(pk(x), pk(best)) is expected
    assert ref_beats(x, best) is expected


def run_trick(lead: str, follows: list[tuple[str, str]], lowest_only: bool = False) -> int:
    """Play a trick with the compiled rules: each follower's move must be legal for the
    follower's hand; returns the index (0 = leader) of the trick's winner."""
    best, winner = pk(lead), 0
    scr = scratch()
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    for i, (hand, move) in enumerate(follows, start=1):
        s = len(lead)
        n = R.legal_follows(pk(hand), s, best, lowest_only, legal, scr)
        assert pk(move) in set(legal[:n].tolist()), (hand, move, [txt(m) for m in legal[:n]])
        if R.beats(pk(move), best):
            best, winner = pk(move), i
    return winner


def test_seed_worked_examples():
    # lead 7; then 7, T, and 2 (lowest: no T or higher) -> the T wins
    assert run_trick("7", [("79", "7"), ("4T", "T"), ("259", "2")]) == 2
    # lead 6-6; then 6-7 (best), 4-5 (unable: lowest), 8-9 -> 8-9 wins
    assert run_trick("66", [("367K", "67"), ("4566", "45"), ("2389", "89")]) == 3
    # lead J-J-J; then J-Q-Q (best), 2-2-3 (lowest), Q-K-A -> Q-K-A wins
    assert run_trick("JJJ", [("JQQ4", "JQQ"), ("223TJ", "223"), ("QKA2", "QKA")]) == 3


def test_seed_example_unable_follower_has_only_the_lowest_set():
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_follows(pk("4566"), 2, pk("67"), False, legal, scratch())
    assert sorted(txt(m) for m in legal[:n]) == ["45"]


def test_follow_options_default_and_variant():
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    hand = pk("25TK")
    n = R.legal_follows(hand, 1, pk("9"), False, legal, scratch())
    assert sorted(txt(m) for m in legal[:n]) == sorted(["T", "K", "2"])
    n = R.legal_follows(hand, 1, pk("9"), True, legal, scratch())
    assert sorted(txt(m) for m in legal[:n]) == sorted(["T", "K"])  # lowest only if unable
    n = R.legal_follows(hand, 1, pk("A"), True, legal, scratch())
    assert [txt(m) for m in legal[:n]] == ["2"]
    # lowest cards that match or beat are listed once
    n = R.legal_follows(pk("99K"), 2, pk("88"), False, legal, scratch())
    assert sorted(txt(m) for m in legal[:n]) == sorted(["99", "9K"])


def test_leader_keeps_a_card():
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_leads(pk("555"), 3, legal)
    assert sorted(txt(m) for m in legal[:n]) == ["5", "55"]
    n = R.legal_leads(pk("QQ7"), 3, legal)
    assert sorted(txt(m) for m in legal[:n]) == sorted(["7", "Q", "QQ"])


def test_discards_limited_by_stock_and_include_nothing():
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_discards(pk("2334"), 2, legal, scratch())
    got = [txt(m) for m in legal[:n]]
    assert len(got) == len(set(got))
    assert set(got) == {"", "2", "3", "4", "23", "24", "33", "34"}
    n = R.legal_discards(pk("2334"), 0, legal, scratch())
    assert [txt(m) for m in legal[:n]] == [""]


def test_enumeration_counting_and_unranking_agree_with_reference():
    rng = np.random.default_rng(5)
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    scr = scratch()
    deck = [r for r in RANKS for _ in range(4)]
    for trial in range(300):
        size = int(rng.integers(2, 12))
        cards = [deck[i] for i in rng.choice(52, size=size + 4, replace=False)]
        hand = Counter(cards[:size])
        hp = pk("".join(cards[:size]))
        stock = int(rng.integers(0, 14))
        n = R.legal_discards(hp, stock, legal, scr)
        got = [txt(m) for m in legal[:n]]
        assert len(got) == len(set(got)) and set(got) == ref_discards(hand, stock)
        # listed as they always were (a user strategy's legal[i], evaluate's rows): more of the
        # highest rank first, then of the next rank, ...
        assert got == sorted(got, key=lambda x: [-x.count(r) for r in reversed(RANKS)])
        assert fast_discards(hand, stock) == ref_discards(hand, stock)
        s = int(rng.integers(1, size))
        best = sort_ranks(cards[size:size + 4][:s]) if s <= 4 else sort_ranks(cards[:s])
        for lowest_only in (False, True):
            n = R.legal_follows(hp, s, pk(best), lowest_only, legal, scr)
            got = [txt(m) for m in legal[:n]]
            assert len(got) == len(set(got))
            beating = [x for x in got if ref_beats(x, best)]  # the lowest set, if it does not beat, comes last
            assert got[:len(beating)] == sorted(beating, key=lambda x: [-x.count(r) for r in reversed(RANKS)])
            assert set(got) == ref_follows(hand, s, best, lowest_only), (cards[:size], s, best)
            assert fast_follows(hand, s, best, lowest_only) == ref_follows(hand, s, best, lowest_only)
        # the sampler's count and numbering cover exactly the beating sets
        beating = {x for x in ref_follows(hand, s, best, True) if ref_beats(x, best)}
        count = R.count_subsets(hp, s, s, pk(best), scr)
        assert count == len(beating)
        assert {txt(R.unrank_subset(u, s, scr)) for u in range(count)} == beating
        limit = min(stock, size)
        count = R.count_subsets(hp, 0, limit, np.int64(0), scr)
        assert count == len(ref_discards(hand, stock))
        assert {txt(R.unrank_subset(u, limit, scr)) for u in range(count)} == ref_discards(hand, stock)


def test_lowest_and_highest_sets_and_sizes():
    assert txt(R.lowest_set(pk("2335KA"), 3)) == "233"
    assert txt(R.highest_set(pk("2335KA"), 2)) == "KA"
    assert R.set_size(pk("2335KAAAA")) == 9
    assert R.lowest_rank(pk("5K")) == 3 and R.highest_rank(pk("5K")) == 11


def test_take_cards_uses_lowest_suits():
    codes = [0, 13, 39, 5]  # 2C 2D 2S 7C
    mask = sum(1 << c for c in codes)
    left = R.take_cards(np.int64(mask), pk("22"))
    assert left == (1 << 39) | (1 << 5)


def test_take_cards_matches_a_plain_removal_on_random_hands():
    """Any hand, any counts per rank up to what it holds: the cards taken are the lowest
    suits of each rank (a plain walk over the suits, card ``s * 13 + r``)."""
    rng = np.random.default_rng(22)
    for _ in range(3000):
        mask = int(rng.integers(0, 1 << 52))
        counts = {}
        for r in range(13):
            held = sum(mask >> (s * 13 + r) & 1 for s in range(4))
            if held and rng.random() < 0.5:
                counts[r] = int(rng.integers(1, held + 1))
        expected = mask
        for r, c in counts.items():
            for s in range(4):
                if c and expected >> (s * 13 + r) & 1:
                    expected ^= 1 << (s * 13 + r)
                    c -= 1
        move = sum(c << (4 * r) for r, c in counts.items())
        assert R.take_cards(np.int64(mask), np.int64(move)) == expected, (hex(mask), counts)


def chi_square_uniform(counts: list[int]) -> float:
    n, k = sum(counts), len(counts)
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    from scipy.stats import chi2

    return float(chi2.sf(stat, k - 1))


@pytest.mark.parametrize("hand,s,best,lowest_only", [
    ("2558TJQK", 1, "9", False), ("2558TJQK", 2, "78", False), ("2558TJQKK", 3, "89T", True),
    ("2233456", 2, "44", False),
])
def test_random_follow_is_uniform_over_legal(hand, s, best, lowest_only):
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_follows(pk(hand), s, pk(best), lowest_only, legal, scratch())
    moves = legal[:n].tolist()
    draws = sample_follow(pk(hand), s, pk(best), lowest_only, 3000 * n)
    counts = Counter(draws.tolist())
    assert set(counts) == set(moves)
    assert chi_square_uniform([counts[m] for m in moves]) > 1e-4


@pytest.mark.parametrize("hand,stock", [("2558TJQK", 3), ("2558TJQK", 20), ("33", 1), ("AAKK2", 4)])
def test_random_discard_is_uniform_over_legal(hand, stock):
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_discards(pk(hand), stock, legal, scratch())
    moves = legal[:n].tolist()
    draws = sample_discard(pk(hand), stock, 60 * n + 2000)
    counts = Counter(draws.tolist())
    assert set(counts) == set(moves)
    assert chi_square_uniform([counts[m] for m in moves]) > 1e-4


_SAMPLERS: dict[str, object] = {}


def samplers():
    """Compiled loops drawing many random follows / discards (compiled once per session)."""
    if not _SAMPLERS:
        from analyzer.jit import njit
        from analyzer.rng import seed_stream

        @njit
        def follows(hand, s, best, lowest_only, k):
            rng = np.empty(4, dtype=np.uint64)
            seed_stream(rng, 11, 0, 1)
            scr = np.zeros(R.SCRATCH, dtype=np.int64)
            out = np.empty(k, dtype=np.int64)
            for i in range(k):
                out[i] = S.random_follow(hand, s, best, lowest_only, rng, scr)
            return out

        @njit
        def discards(hand, stock, k):
            rng = np.empty(4, dtype=np.uint64)
            seed_stream(rng, 12, 0, 1)
            scr = np.zeros(R.SCRATCH, dtype=np.int64)
            out = np.empty(k, dtype=np.int64)
            for i in range(k):
                out[i] = S.random_discard(hand, stock, rng, scr)
            return out

        @njit
        def leads(hand, size, k):
            rng = np.empty(4, dtype=np.uint64)
            seed_stream(rng, 13, 0, 1)
            out = np.empty(k, dtype=np.int64)
            for i in range(k):
                out[i] = S.random_lead(hand, size, rng)
            return out

        _SAMPLERS.update(follows=follows, discards=discards, leads=leads)
    return _SAMPLERS


@pytest.mark.parametrize("hand", ["2558TJQKKK", "555", "27", "33AA"])
def test_random_lead_is_uniform_over_legal(hand):
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    n = R.legal_leads(pk(hand), len(hand), legal)
    moves = legal[:n].tolist()
    draws = samplers()["leads"](pk(hand), np.int64(len(hand)), np.int64(3000 * n))
    counts = Counter(draws.tolist())
    assert set(counts) == set(moves)
    assert chi_square_uniform([counts[m] for m in moves]) > 1e-4


def sample_follow(hand, s, best, lowest_only, k):
    return samplers()["follows"](hand, np.int64(s), best, lowest_only, np.int64(k))


def sample_discard(hand, stock, k):
    return samplers()["discards"](hand, np.int64(stock), np.int64(k))


def test_heuristic_moves():
    assert txt(S.heuristic_discard(pk("23TQA"), 2)) == "QA"
    assert txt(S.heuristic_discard(pk("23TQA"), 9)) == "TQA"
    assert txt(S.heuristic_discard(pk("2345"), 9)) == ""
    assert txt(S.heuristic_lead(pk("25KK"), 4)) == "KK"
    assert txt(S.heuristic_lead(pk("55"), 2)) == "5"
    assert txt(S.heuristic_follow(pk("25KA"), 2, pk("99"))) == "KA"
    assert txt(S.heuristic_follow(pk("25KA"), 2, pk("AA"))) == "25"


def test_move_names():
    assert move_text(int(pk("QQ"))) == "QQ" and move_code("45") == int(pk("45"))
    assert move_text(0) == "" and SPEC.move_name(int(pk("7"))) == "7"


# ---- independent referee over records ---------------------------------------------------

def left_of(seat: int, active: list[bool]) -> int:
    p = len(active)
    for k in range(1, p + 1):
        s = (seat + k) % p
        if active[s]:
            return s
    raise AssertionError("nobody active")


def clockwise_from(seat: int, active: list[bool], include_self: bool = False) -> list[int]:
    """Active seats clockwise after ``seat`` (``seat`` itself first when included)."""
    p = len(active)
    seats = [(seat + k) % p for k in range(1, p) if active[(seat + k) % p]]
    return ([seat] if include_self else []) + seats


def check_game(events: list[dict], stats: Counter) -> None:
    head = events[0]
    assert head["ev"] == "game" and head["game"] == "twenty-two"
    rules = head["rules"]
    P, target, lowest_only = rules["players"], rules["target"], rules["lowest_only_if_unable"]
    assert head["players"] == P
    it = iter(events[1:])
    scores = [0] * P
    active = [True] * P
    deck = set(ALL_TOKENS)
    size, hand_no, dealer = 7, 0, None
    while True:
        nact = sum(active)
        deal_size = min(size, len(deck) // nact)
        ev = next(it)
        if deal_size == 0:  # safeguard
            low = min(scores[p] for p in range(P) if active[p])
            assert ev["ev"] == "game_end"
            assert ev["winners"] == [p for p in range(P) if active[p] and scores[p] == low]
            stats["safeguard_end"] += 1
            break
        if deal_size < size:
            stats["short_deck"] += 1
        hand_no += 1
        assert ev["ev"] == "deal" and ev["hand"] == hand_no and ev["size"] == deal_size
        if dealer is not None:
            assert ev["dealer"] == dealer
            if not active[dealer]:
                stats["out_dealer"] += 1
        dealer = ev["dealer"]
        assert 0 <= dealer < P and ev["dead"] == []
        dealt = [c for h in ev["hands"] for c in h] + ev["stock"]
        assert len(dealt) == len(set(dealt)) and set(dealt) == deck  # cards conserved
        hands, received = [], []
        for p in range(P):
            assert len(ev["hands"][p]) == (deal_size if active[p] else 0)
            hands.append(Counter(c[0] for c in ev["hands"][p]))
            received.append(set(ev["hands"][p]))
        stock = list(ev["stock"])
        # discards, left of the dealer clockwise
        for p in clockwise_from(dealer, active, False) + ([dealer] if active[dealer] else []):
            ev = next(it)
            assert ev["ev"] == "decide" and ev["seat"] == p and ev["kind"] == "discard"
            assert len(ev["legal"]) == len(set(ev["legal"]))
            assert set(ev["legal"]) == fast_discards(hands[p], len(stock))
            move = ev["move"]
            assert move in ev["legal"] and move == sort_ranks(move)
            hands[p] -= Counter(move)
            ev = next(it)
            assert ev == {"ev": "draw", "seat": p, "cards": stock[:len(move)]}
            stock = stock[len(move):]
            hands[p] += Counter(c[0] for c in ev["cards"])
            received[p] |= set(ev["cards"])
            stats["discarded"] += len(move)
        hs = deal_size
        leader = left_of(dealer, active)
        if hs == 1:
            stats["no_ordinary_trick"] += 1
        while hs >= 2:
            ev = next(it)
            assert ev["ev"] == "decide" and ev["seat"] == leader and ev["kind"] == "lead"
            assert len(ev["legal"]) == len(set(ev["legal"]))
            assert set(ev["legal"]) == ref_leads(hands[leader], hs)
            best, winner = ev["move"], leader
            assert best in ev["legal"]
            hands[leader] -= Counter(best)
            s = len(best)
            for p in clockwise_from(leader, active, False):
                ev = next(it)
                assert ev["ev"] == "decide" and ev["seat"] == p and ev["kind"] == "follow"
                assert len(ev["legal"]) == len(set(ev["legal"]))
                assert set(ev["legal"]) == fast_follows(hands[p], s, best, lowest_only)
                move = ev["move"]
                assert move in ev["legal"] and len(move) == s
                hands[p] -= Counter(move)
                if ref_beats(move, best):
                    best, winner = move, p
                if s > 1:
                    stats["set_follow"] += 1
            ev = next(it)
            assert ev == {"ev": "trick", "winner": winner}
            hs -= s
            leader = winner
            for p in range(P):
                assert sum(hands[p].values()) == (hs if active[p] else 0)
        # final trick
        ev = next(it)
        assert ev["ev"] == "final"
        order = [leader] + clockwise_from(leader, active, False)
        assert [s for s, _ in ev["plays"]] == order
        for p, card in ev["plays"]:
            assert +hands[p] == Counter({card[0]: 1}) and card in received[p]
        top = max(RANKS.index(c[0]) for _, c in ev["plays"])
        takers = [p for p, c in ev["plays"] if RANKS.index(c[0]) == top]
        assert ev["takers"] == takers
        if len(takers) > 1:
            stats["tied_final"] += 1
        points = [0] * P
        for p, c in ev["plays"]:
            if p in takers:
                points[p] = POINTS[top]
                deck.discard(c)  # scored cards leave the deck
        scores = [a + b for a, b in zip(scores, points)]
        ev = next(it)
        out = [p for p in range(P) if active[p] and scores[p] >= target]
        assert ev == {"ev": "hand_end", "hand": hand_no, "points": points, "scores": scores, "out": out}
        was_in = [p for p in range(P) if active[p]]
        for p in out:
            active[p] = False
        dealer = takers[0]
        size = POINTS[top]
        if sum(active) <= 1:
            ev = next(it)
            assert ev["ev"] == "game_end"
            if sum(active) == 1:
                assert ev["winners"] == [p for p in range(P) if active[p]]
                stats["last_one_standing"] += 1
            else:
                low = min(scores[p] for p in was_in)
                assert ev["winners"] == [p for p in was_in if scores[p] == low]
                stats["nobody_left"] += 1
            break
    assert ev["scores"] == scores and ev["hands"] == hand_no
    assert next(it, None) is None  # nothing after game_end
    stats["games"] += 1
    stats["hands"] += hand_no


CASES = [
    # (strategies, players, rules, games, branches that must occur in the sample);
    # about a thousand games per strategy in all
    ("random", 4, {}, 300, ("set_follow", "discarded", "tied_final", "out_dealer")),
    ("heuristic", 4, {}, 300, ("set_follow", "discarded", "tied_final", "out_dealer")),
    ("random", 2, {}, 200, ("tied_final",)),
    ("heuristic", 6, {}, 150, ("short_deck",)),
    ("random", 3, {"lowest_only_if_unable": True}, 200, ("set_follow",)),
    ("heuristic", 5, {"lowest_only_if_unable": True}, 150, ("set_follow",)),
    ("random", 6, {"target": 300}, 100, ("safeguard_end", "no_ordinary_trick", "short_deck")),
    ("heuristic", 2, {"target": 1}, 300, ("nobody_left", "tied_final")),
    ("random", 3, {"target": 9}, 200, ("nobody_left", "out_dealer", "last_one_standing")),
    ("heuristic", 3, {"target": 9}, 100, ("nobody_left", "out_dealer", "last_one_standing")),
    ("mixed", 4, {"target": 40}, 200, ("last_one_standing",)),
    ("mc", 3, {}, 12, ("set_follow", "discarded")),
]


@pytest.mark.parametrize("strategy,players,rules,games,branches", CASES)
def test_random_playouts_checked_by_referee(strategy, players, rules, games, branches):
    seats = (["random", "heuristic"] * 3 if strategy == "mixed" else ["mc:k=4", "random", "heuristic"] * 2
             if strategy == "mc" else [strategy] * 6)
    played = api.play("twenty-two", seed=3, index=0, games=games, players=players,
                      seats=seats[:players], rules=rules)
    stats: Counter = Counter()
    for events in played:
        check_game(events, stats)
    assert stats["games"] == games
    # the rare branches are really exercised (so the referee checked them)
    for branch in branches:
        assert stats[branch] > 0, (branch, dict(stats))


def test_heuristic_beats_random():
    summary = api.simulate("twenty-two", games=4000, seed=9, seats=["heuristic", "random", "random", "random"],
                           workers=1)
    seats = summary.tables["seats"]
    assert seats.loc[0, "win_rate_lo"] > 0.25
    assert seats.loc[0, "final_share"] < seats.loc[1, "final_share"]


# ---- summary, determinism, records vs simulate ------------------------------------------

def test_summary_tables_are_consistent(tmp_path):
    path = tmp_path / "rows.csv"
    summary = api.simulate("twenty-two", games=3000, seed=4, seats=["random", "heuristic", "random", "heuristic"],
                           workers=1, out=str(path))
    rows = pd.read_csv(path)
    seats = summary.tables["seats"]
    assert summary.hands == rows["hands"].sum()
    for s in range(4):
        took, played = rows[f"took_{s}"].sum(), rows[f"played_{s}"].sum()
        assert seats.loc[s, "final_share"] == pytest.approx(took / played)
        assert seats.loc[s, "points_per_hand"] == pytest.approx(rows[f"score_{s}"].sum() / played)
        assert seats.loc[s, "place"] == pytest.approx(rows[f"place_{s}"].mean())
        assert seats.loc[s, "final_share_lo"] <= seats.loc[s, "final_share"] <= seats.loc[s, "final_share_hi"]
        assert seats.loc[s, "wins"] == rows["winners"].astype(str).str.split(";").apply(lambda w: str(s) in w).sum()
    assert summary.totals["hands_per_game"] == pytest.approx(rows["hands"].mean())
    # a winner has place 1, every game has at least one player at place 1
    places = rows[[f"place_{s}" for s in range(4)]].to_numpy()
    assert (places.min(axis=1) == 1).all() and (places.max(axis=1) <= 4).all()


def test_places_follow_elimination_order(tmp_path):
    seats = ["random"] * 4
    rows = per_game_rows(tmp_path, "p", games=80, seed=21, seats=seats, workers=1)
    played = api.play("twenty-two", seed=21, index=0, games=80, seats=seats)
    for index, events in enumerate(played):
        end = events[-1]
        last = end["hands"] + 1
        rank = {p: last for p in range(4)}  # still in at the end
        for ev in events:
            if ev["ev"] == "hand_end":
                for p in ev["out"]:
                    rank[p] = ev["hand"]
        for p in end["winners"]:
            rank[p] = last + 1
        expected = [1 + sum(rank[q] > rank[p] for q in range(4)) for p in range(4)]
        assert [int(rows.iloc[index][f"place_{p}"]) for p in range(4)] == expected


def per_game_rows(tmp_path, name, **kwargs) -> pd.DataFrame:
    path = tmp_path / f"{name}.csv"
    api.simulate("twenty-two", out=str(path), **kwargs)
    return pd.read_csv(path)


def test_determinism_across_workers_and_chunks(tmp_path):
    common = dict(games=1500, seed=77, seats=["random", "heuristic", "random"], players=3)
    a = per_game_rows(tmp_path, "a", workers=1, chunk=1500, **common)
    b = per_game_rows(tmp_path, "b", workers=2, chunk=256, **common)
    c = per_game_rows(tmp_path, "c", workers=2, chunk=700, **common)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)


def test_play_record_matches_simulate_row(tmp_path):
    seats = ["random", "heuristic", "heuristic", "random", "random"]
    rows = per_game_rows(tmp_path, "r", games=40, seed=5, players=5, seats=seats, workers=1,
                         rules={"target": 30})
    for index in (0, 7, 39):
        events = api.play("twenty-two", seed=5, index=index, players=5, seats=seats, rules={"target": 30})[0]
        end = events[-1]
        row = rows.iloc[index]
        assert end["ev"] == "game_end"
        assert ";".join(map(str, end["winners"])) == str(row["winners"])
        assert end["hands"] == row["hands"]
        assert end["scores"] == [int(row[f"score_{s}"]) for s in range(5)]
        decisions = sum(1 for ev in events if ev["ev"] == "decide")
        assert decisions == row["decisions"]
        took = Counter(p for ev in events if ev["ev"] == "final" for p in ev["takers"])
        assert [took[s] for s in range(5)] == [int(row[f"took_{s}"]) for s in range(5)]


def test_first_dealer_is_uniform():
    played = api.play("twenty-two", seed=8, index=0, games=400, players=4, seats=["heuristic"] * 4)
    counts = Counter(events[1]["dealer"] for events in played)
    assert chi_square_uniform([counts[s] for s in range(4)]) > 1e-4


# ---- CLI -----------------------------------------------------------------------------------

def test_cli_simulate_json(cli):
    code, out, err = cli("simulate", "twenty-two", "--games", "200", "--seed", "3", "--seat", "0=random",
                         "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "twenty-two" and data["games"] == 200
    assert data["rules"] == {"players": 4, "target": 22, "lowest_only_if_unable": False}
    assert len(data["seats"]) == 4 and "final_share" in data["seats"][0] and "place" in data["seats"][0]
    assert data["totals"]["hands_per_game"] > 1


def test_cli_play_record(cli, tmp_path):
    path = tmp_path / "g.jsonl"
    code, out, err = cli("play", "twenty-two", "--seed", "2", "--index", "4", "--players", "3",
                         "--seat", "1=random", "--rule", "lowest_only_if_unable=true", "--record", str(path))
    assert code == 0, err
    assert "final trick" in out and "game over" in out
    events = [json.loads(line) for line in path.read_text().splitlines()]
    assert events[0]["index"] == 4 and events[0]["rules"]["lowest_only_if_unable"] is True
    stats: Counter = Counter()
    check_game(events, stats)
    assert stats["games"] == 1


@pytest.mark.parametrize("args", [
    ("simulate", "twenty-two", "--players", "7"),
    ("simulate", "twenty-two", "--rule", "target=abc"),
    ("play", "twenty-two", "--rule", "lowest_only_if_unable=maybe"),
    ("simulate", "twenty-two", "--seat", "0=clever"),
])
def test_cli_bad_input(cli, args):
    code, out, err = cli(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


# ---- Monte Carlo: sampling, evaluation from a position, mc --------------------------------

from analyzer.cards import parse_cards  # noqa: E402
from analyzer.errors import AnalyzerError  # noqa: E402
from analyzer.stats import wilson  # noqa: E402
from analyzer.games.twenty_two import kernel as K  # noqa: E402
from analyzer.games.twenty_two.codes import PH_LEAD  # noqa: E402
from analyzer.games.twenty_two.spec import load_position  # noqa: E402
from analyzer.games.twenty_two.state import scalars  # noqa: E402

RULES4 = SPEC.resolve_rules({}, 4)


def rank_string(cards) -> str:
    return "".join(sorted((c[0] if isinstance(c, str) else RANKS[c % 13] for c in cards),
                          key=RANKS.index))


def mask_cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


# A 4-player lead position with a small pool: seat 2 won trick 1 (Q, 5, K, 8) and leads.
# Seat 1 showed that it holds nothing below 5 (it played a 5 that does not beat), seat 3
# nothing below 8. 33 cards are scored, so 19 are in play: seat 2's 3 cards, the 4 played
# and 12 hidden ones (3 + 3 + 3 in the other hands, 3 in the stock).
POOL = "2C 3C 5D 6C 8D 9C 9D TC JC QD AC AD".split()
SMALL = {"seat": 2, "dealer": 3, "kind": "lead", "hand": "4C 7D JH", "played": "Q 5 K 8",
         "scored": [t for t in (r + s for r in RANKS for s in SUITS)
                    if t not in POOL + ["4C", "7D", "JH", "QS", "5S", "KS", "8S"]]}


def exact_small() -> tuple[Counter, Counter]:
    """Exact distribution of seat 1's and seat 3's hands (rank strings) over the deals
    consistent with the position, by enumeration."""
    floor = {1: RANKS.index("5"), 3: RANKS.index("8")}
    h1, h3 = Counter(), Counter()
    cards = list(range(len(POOL)))
    for a in itertools.combinations(cards, 3):                    # seat 3
        if any(RANKS.index(POOL[i][0]) < floor[3] for i in a):
            continue
        rest = [i for i in cards if i not in a]
        for b in itertools.combinations(rest, 3):                 # seat 1
            if any(RANKS.index(POOL[i][0]) < floor[1] for i in b):
                continue
            ways = len(list(itertools.combinations([i for i in rest if i not in b], 3)))  # seat 0
            h3[rank_string(POOL[i] for i in a)] += ways
            h1[rank_string(POOL[i] for i in b)] += ways
    return h1, h3


def test_position_loads_floors_and_turn():
    pos = load_position(RULES4, SMALL)
    assert pos.seat == 2 and pos.kind == 1 and pos.leader == 2
    assert pos.floor == [0, RANKS.index("5"), 0, RANKS.index("8")]
    assert pos.sizes == [3, 3, 3, 3]
    assert sorted(rank_string([c]) for c in pos.pool) == sorted(p[0] for p in POOL)


def test_sampled_hidden_hands_match_exact_conditional_probabilities():
    params = SPEC.params(RULES4)
    ws = load_position(RULES4, SMALL).ws
    exact1, exact3 = exact_small()
    rng = np.zeros(4, dtype=np.uint64)
    n = 20000
    got1, got3 = Counter(), Counter()
    work = K.workspace(params)
    own = ws.hmask[2]
    for i in range(n):
        K.copy_bundle(ws, work)
        K.seed_stream(rng, np.uint64(11), np.int64(i), np.int64(0))
        K.resample_hidden(params, work, np.int64(2), rng)
        hands = [int(work.hmask[s]) for s in range(4)]
        registers = scalars(work)
        stock = [int(c) for c in work.deck[registers["top"]:registers["ndeck"]]]
        dead = [int(work.dmask[s]) for s in range(4)]
        # the seat's own cards stay, nothing is dealt twice, sizes are kept
        assert hands[2] == own
        assert registers["seat"] == 2 and registers["phase"] == PH_LEAD
        everything = [c for h in hands for c in mask_cards(h)] + stock + [c for d in dead for c in mask_cards(d)]
        assert len(everything) == len(set(everything)) == 12 + 3
        assert [len(mask_cards(h)) for h in hands] == [3, 3, 3, 3]
        got1[rank_string(mask_cards(hands[1]))] += 1
        got3[rank_string(mask_cards(hands[3]))] += 1
    for got, exact in ((got1, exact1), (got3, exact3)):
        assert set(got) <= set(exact)  # floors respected: no impossible hand was ever sampled
        total = sum(exact.values())
        chi2 = 0.0
        for key, ways in exact.items():
            expected = n * ways / total
            chi2 += (got[key] - expected) ** 2 / expected
        df = len(exact) - 1
        # far beyond the 99.9% point of chi-square(df) (df + 3.1 sqrt(2 df) + 10)
        assert chi2 < df + 3.1 * (2 * df) ** 0.5 + 10, (chi2, df)


def heuristic_follow_single(cards: list[int], best: int) -> tuple[int, int]:
    """Heuristic follow of a single (independent re-statement): its highest card when it
    matches or beats the best rank, else its lowest. Returns (played, kept) ranks."""
    hi, lo = max(cards), min(cards)
    return (hi, lo) if hi >= best else (lo, hi)


def test_final_trick_position_matches_exact_enumeration():
    # 3 players, 2 cards each: seat 0 led a 9, seat 1 (to move) holds 3D and KC; seat 2
    # holds two hidden cards, seat 0 one. Whatever seat 1 plays, it keeps the other card
    # for the final trick; seat 2 then follows like the heuristic.
    position = {"seat": 1, "players": 3, "dealer": 2, "kind": "follow", "hand": "3D KC", "trick": "9"}
    rules = SPEC.resolve_rules({}, 3)
    unseen = [c for c in range(52) if c not in (parse_cards("3D KC"))]
    unseen.remove(next(c for c in unseen if c % 13 == RANKS.index("9")))
    exact = {}
    for play, keep in ((RANKS.index("3"), RANKS.index("K")), (RANKS.index("K"), RANKS.index("3"))):
        took = total = 0
        for c0 in unseen:
            rest = [c for c in unseen if c != c0]
            for a, b in itertools.combinations(rest, 2):
                best = max(RANKS.index("9"), play)
                _, kept2 = heuristic_follow_single([a % 13, b % 13], best)
                total += 1
                took += keep >= max(c0 % 13, kept2)
        exact[RANKS[play]] = took / total
    # the evaluation kernel itself, without racing (which would stop once the options separate)
    strat = np.zeros((3, 4), dtype=np.int64)
    strat[:, 0] = S.HEURISTIC
    ev = SPEC.evaluation(rules, position, strat)
    assert sorted(ev.names) == ["3", "K"]
    n = 16384
    result = ev.run(3, 0, np.array(ev.options, dtype=np.int64), n, 1)
    for i, name in enumerate(ev.names):
        p = exact[name]
        took = int(result[:, i, 0].sum())
        lo, hi = wilson(took, n)
        assert lo <= p <= hi, (name, p, took / n, lo, hi)
    # keeping the king: the final trick is taken unless someone keeps an ace
    assert exact["3"] > 0.5 > exact["K"]


def ref_floors(pos: dict, rules: dict) -> list[int]:
    """Per seat, the highest rank of its lowest cards shown (a follow that does not match or
    beat), replayed here from the position's tricks."""
    p = pos["players"]
    active = [s < rules["target"] for s in pos["scores"]]
    floor = [0] * p
    leader = left_of(pos["dealer"], active)
    for t in pos["played"] + [pos["trick"]]:
        if not t:
            break
        best, winner, seat = t[0], leader, leader
        for m in t[1:]:
            seat = left_of(seat, active)
            if ref_beats(m, best):
                best, winner = m, seat
            else:
                floor[seat] = max(floor[seat], max(RANKS.index(c) for c in m))
        leader = winner
    return floor


def test_position_from_record_round_trip():
    seats = ["heuristic", "random", "heuristic", "random"]
    events = api.play("twenty-two", seed=21, index=2, seats=seats)[0]
    decisions = [ev for ev in events if ev["ev"] == "decide"]
    strat = np.zeros((4, 4), dtype=np.int64)
    strat[:, 0] = 1
    checked = Counter()
    for at in range(1, len(decisions) + 1):
        ev = decisions[at - 1]
        pos = SPEC.position_from_record(events, at)
        assert pos["seat"] == ev["seat"] and pos["kind"] == ev["kind"]
        rules = SPEC.resolve_rules(pos["rules"], pos["players"])
        # the legal moves rebuilt from the position are those of the record
        loaded = load_position(rules, pos)
        legal = loaded.legal(SPEC.params(rules))
        assert sorted(move_text(m) for m in legal) == sorted(ev["legal"])
        # the floors the engine's replay found are those of an independent replay
        assert loaded.floor == ref_floors(pos, rules), (at, pos)
        if at % 4 and not (len(legal) > 128 and checked["screened"] == 0):
            continue
        # the evaluation races them all, or the 128 best after screening when there are more
        evaluation = SPEC.evaluation(rules, pos, strat)
        assert evaluation.seat == ev["seat"]
        assert evaluation.extra["legal"] == len(legal)
        assert set(evaluation.options) <= set(legal)
        assert len(evaluation.options) == min(len(legal), 128)
        checked["screened"] += len(legal) > 128
        assert json.loads(json.dumps(pos)) == pos
        checked[ev["kind"]] += 1
    assert checked["discard"] > 0 and checked["lead"] > 0 and checked["follow"] > 0 and checked["screened"] > 0
    with pytest.raises(AnalyzerError, match="--at"):
        SPEC.position_from_record(events, len(decisions) + 1)


GOOD = {"seat": 1, "dealer": 2, "kind": "follow", "hand": "3D KC", "trick": "9"}


@pytest.mark.parametrize("change,message", [
    ({"colour": 1}, "no 'colour'"),
    ({"hand": "3D 3D"}, "duplicate card 3D"),
    ({"hand": "3D XC"}, "bad card"),
    ({"hand": "3D KC 2C 4C 5C 6C 7C 8C 9C TC JC QC"}, "1 to 11"),
    ({"scored": ["KC"]}, "twice"),
    ({"trick": "9 9 9"}, "complete|moves"),
    ({"trick": "Z"}, "bad rank"),
    ({"seat": 0}, "to move"),
    ({"seat": 7}, "does not exist"),
    ({"kind": "lead"}, "trick must be empty"),
    ({"kind": "bid"}, "kind is one of"),
    ({"scores": "0,30,30"}, "out of the game|game is over"),
    ({"scores": "30,0,30"}, "game is over"),
    ({"hand": "3D", "trick": "9"}, "nothing to decide"),
    ({"played": "99 8 7"}, "of the lead"),
    ({"trick": "99"}, "keep one card"),
    ({"scored": ["9C", "9D", "9H"], "hand": "9S KC"}, "rank 9"),
])
def test_bad_positions_give_clear_errors(change, message):
    position = {**GOOD, **change}
    with pytest.raises(AnalyzerError, match=message):
        SPEC.evaluation(SPEC.resolve_rules({}, 3), position, np.zeros((3, 4), dtype=np.int64))


# seat 0 of 3 leads trick 1 (dealer 2): 9, seat 1 plays 4 (not beating: its lowest card),
# seat 2 wins with K and leads Q; seat 0 follows 5; seat 1 is to move
OWN = {"seat": 1, "dealer": 2, "kind": "follow", "played": "9 4 K", "trick": "Q 5"}


@pytest.mark.parametrize("hand,variant,message", [
    ("2C KD", False, "played trick 1: seat 1 plays 4, which does not match or beat, while holding lower cards"),
    ("6C KD", True, "played trick 1: seat 1 could match or beat 9 with its hand then"),
])
def test_the_deciding_seat_knows_its_own_plays_were_legal(hand, variant, message):
    rules = SPEC.resolve_rules({"lowest_only_if_unable": variant}, 3)
    with pytest.raises(AnalyzerError, match=message):
        load_position(rules, {**OWN, "hand": hand})
    # the same plays from a hand without a lower card, or under the default rules, are legal
    default = SPEC.resolve_rules({}, 3)
    legal = load_position(default, {**OWN, "hand": "6C KD"}).legal(SPEC.params(default))
    assert sorted(move_text(m) for m in legal) == ["6", "K"]


@pytest.mark.parametrize("change,message", [
    ({"played": "45 6 7", "trick": "Q 5", "hand": "6C KD"}, "played trick 1: the lead 45 is not of one rank"),
    ({"played": "9 4", "trick": "", "kind": "lead"}, "played trick 1 has 2 moves; 3 players are in"),
    ({"played": "9 4 K; Q 5 6", "trick": "", "kind": "lead", "hand": "6C KD"},
     "seat 2 leads after these tricks, not seat 1"),
    ({"played": "9 4 K; Q 5 3", "trick": "", "kind": "lead", "hand": "6C KD"},
     "played trick 2: seat 1 plays 3, below the lowest rank it was shown to hold"),
])
def test_the_engine_refuses_impossible_histories(change, message):
    with pytest.raises(AnalyzerError, match=message):
        load_position(SPEC.resolve_rules({}, 3), {**OWN, "hand": "2C KD", **change})


def test_impossible_floors_are_reported():
    # seat 1 showed its lowest card was a 3 (it did not beat the 7), then played a 2
    position = {"seat": 0, "dealer": 2, "kind": "lead", "hand": "AC 4D 5D", "played": ["7 3 A", "T A 2"]}
    with pytest.raises(AnalyzerError, match="below"):
        SPEC.evaluation(SPEC.resolve_rules({}, 3), position, np.zeros((3, 4), dtype=np.int64))
    # seat 1 played a 9 that does not beat the Q: its 2 other cards rank 9 or higher, but
    # every other such card is scored
    high = [r + s for r in "9TJQKA" for s in SUITS if r + s not in ("9S", "QS", "KS")]
    position = {"seat": 2, "dealer": 2, "kind": "lead", "hand": "4D 5D", "played": ["Q 9 K"], "scored": high}
    with pytest.raises(AnalyzerError, match="no deal fits"):
        SPEC.evaluation(SPEC.resolve_rules({}, 3), position, np.zeros((3, 4), dtype=np.int64))


def test_discard_position_defaults_and_options():
    pos = load_position(RULES4, {"seat": 0, "hand": "2C 5D 7C 7D", "kind": "discard"})
    assert pos.dealer == 3 and pos.stock == 52 - 16 and pos.ndone == 0
    ev = SPEC.evaluation(RULES4, {"seat": 0, "hand": "2C 5D 7C 7D"}, np.zeros((4, 4), dtype=np.int64))
    # every sub-multiset of 2 5 7 7: 2 * 2 * 3
    assert len(ev.options) == 12 and "-" in ev.names and "2577" in ev.names
    with pytest.raises(AnalyzerError, match="discards first"):
        SPEC.evaluation(RULES4, {"seat": 0, "dealer": 3, "hand": "2C 5D 7C 7D", "stock": 30},
                        np.zeros((4, 4), dtype=np.int64))
    ev = SPEC.evaluation(RULES4, {"seat": 2, "dealer": 3, "hand": "2C 5D 7C 7D", "stock": 1},
                         np.zeros((4, 4), dtype=np.int64))
    assert sorted(ev.names) == sorted(["-", "2", "5", "7"])


def test_mc_beats_heuristic():
    summary = api.simulate("twenty-two", games=300, seed=6, workers=1,
                           seats=["mc:k=8", "heuristic", "heuristic", "heuristic"])
    seats = summary.tables["seats"]
    # four heuristics win 25% each
    assert seats.loc[0, "win_rate_lo"] > 0.30
    assert seats.loc[0, "points_per_hand"] < seats.loc[1, "points_per_hand"]


def test_cli_evaluate(cli, tmp_path):
    code, out, err = cli("evaluate", "twenty-two", "--players", "3", "--seat", "1", "--dealer", "2", "--hand",
                         "3D KC", "--set", "trick=9", "--samples", "512", "--seed", "1", "--workers", "1", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert sorted(o["option"] for o in result["options"]) == ["3", "K"]
    # keeping the king takes the final trick far more often
    took = {o["option"]: o["took_final"] for o in result["options"]}
    assert took["3"] > took["K"]
    code, out, err = cli("evaluate", "twenty-two", "--players", "3", "--seat", "0", "--dealer", "2", "--hand",
                         "3D KC", "--set", "trick=9")
    assert code == 2 and err.strip().startswith("error:") and len(err.strip().splitlines()) == 1


def test_mc_candidates_are_legal():
    scr = scratch()
    cand = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    legal = np.zeros(R.MAX_LEGAL, dtype=np.int64)
    hand = pk("23456789TJQ")
    # many legal follows: the windows of 3 consecutive cards that beat 567, and the lowest 3
    n = K.mc_candidates(K.KIND_FOLLOW, hand, 11, 3, pk("567"), 0, False, cand, scr)
    nl = R.legal_follows(hand, 3, pk("567"), False, legal, scr)
    assert nl > K.MC_ALL_FOLLOWS
    assert sorted(txt(c) for c in cand[:n]) == sorted(["234", "567", "678", "789", "89T", "9TJ", "TJQ"])
    assert set(cand[:n].tolist()) <= set(legal[:nl].tolist())
    # few legal follows: all of them
    n = K.mc_candidates(K.KIND_FOLLOW, pk("27K"), 3, 1, pk("9"), 0, False, cand, scr)
    assert sorted(txt(c) for c in cand[:n]) == ["2", "K"]
    # discards: the j highest cards, j = 0 .. what the stock allows
    n = K.mc_candidates(K.KIND_DISCARD, pk("27KK"), 4, 0, 0, 3, False, cand, scr)
    assert [txt(c) for c in cand[:n]] == ["", "K", "KK", "7KK"]
    n = K.mc_candidates(K.KIND_LEAD, pk("27KK"), 4, 0, 0, 3, False, cand, scr)
    assert sorted(txt(c) for c in cand[:n]) == ["2", "7", "K", "KK"]


# ---- the strategy view (view.py) ----------------------------------------------------------------

def test_view_converters():
    from analyzer.games.twenty_two import view as V

    assert V.card_code("KS") == 3 * 13 + 11 and V.card_name(3 * 13 + 11) == "KS" and V.card_code("2C") == 0
    assert V.move_code("QQ") == 2 << 40 and V.move_code("45") == (1 << 8) | (1 << 12) and V.move_code("") == 0
    assert V.move_name(2 << 40) == "QQ" and V.move_name(V.NOTHING) == ""
    assert V.rank_code("A") == 12 and V.rank_code("10") == 8 and V.rank_name(11) == "K"
    assert V.count(pk("KKA"), 11) == 2 and V.rank_of(V.card_code("9H")) == 7 and V.points_of(12) == 11
    with pytest.raises(ValueError):
        V.rank_code("Z")


def test_kernel_fills_the_view_by_its_names():
    from analyzer.games.twenty_two import view as V

    view = np.full(V.VIEW_SIZE, -7, dtype=np.int64)
    scores = np.array([3, 25, 0], dtype=np.int64)
    active = np.array([True, False, True])
    hand, played, best = pk("2KK"), pk("9TT"), pk("Q")
    K.fill_view(view, 2, 1, V.KIND_FOLLOW, 5, 3, hand, 1, best, 0, 0, 4, 22, played, scores, active)
    assert view[V.SEAT] == 2 and view[V.PLAYERS] == 3 and view[V.DEALER] == 1 and view[V.KIND] == V.KIND_FOLLOW
    assert view[V.STOCK] == 5 and view[V.HAND_SIZE] == 3 and view[V.HAND] == hand
    assert view[V.SET_SIZE] == 1 and view[V.BEST] == best and view[V.BEST_SEAT] == 0 and view[V.LEADER] == 0
    assert view[V.HAND_NO] == 4 and view[V.TARGET] == 22
    assert [view[V.COUNTS + r] for r in (0, 11, 5)] == [1, 2, 0]
    assert [view[V.PLAYED + r] for r in (7, 8)] == [1, 2]
    assert list(view[V.SCORES:V.SCORES + 3]) == [3, 25, 0] and list(view[V.ACTIVE:V.ACTIVE + 3]) == [1, 0, 1]
    assert (view[V.SCORES + 3:V.ACTIVE] == 0).all() and (view[V.ACTIVE + 3:] == 0).all()
