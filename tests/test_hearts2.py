"""Two-player Hearts (docs/rules.md section 3): rule functions, strategies, records checked by an
independent plain-Python referee, determinism, user strategies and the CLI."""

from __future__ import annotations

import json
import textwrap
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.cards import hearts2_deck, parse_card, token
from analyzer.games.hearts2 import rules as R
from analyzer.games.hearts2 import strategies as S
from analyzer.games.hearts2.view import VIEW_SIZE
from analyzer.slots import SLOTS, empty_slot


def mask(text: str) -> int:
    m = 0
    for c in text.split():
        m |= 1 << parse_card(c)
    return m


def cards_of(m: int) -> set[str]:
    return {token(c) for c in range(52) if m >> c & 1}


# ---- deck, bit tricks, deal ---------------------------------------------------------------

def test_deck_is_the_28_cards():
    deck = sorted(hearts2_deck().codes)
    assert sorted(int(c) for c in R.DECK_CODES) == deck
    assert len(deck) == 28
    assert {token(c)[0] for c in deck} == set("2468TQA")
    assert R.DECK_MASK == sum(1 << c for c in deck)


def test_mask_to_codes_lists_the_cards_low_to_high():
    """(The bit helpers themselves, analyzer/bits.py, are tested in test_foundation.py.)"""
    rng = np.random.default_rng(5)
    for _ in range(3000):
        x = int(rng.integers(1, 1 << 52)) & R.DECK_MASK or 1
        bits = [i for i in range(52) if x >> i & 1]
        codes = np.zeros(52, dtype=np.int64)
        n = R.mask_to_codes(x, codes)
        assert list(codes[:n]) == bits


def test_deal_order_top_dead_alternate_from_non_dealer_last_dead():
    deck = np.array(R.DECK_CODES, dtype=np.int64)
    hands = np.zeros(2, dtype=np.int64)
    for dealer in (0, 1):
        dead = R.deal_masks(deck, dealer, hands)
        assert cards_of(dead) == {token(deck[0]), token(deck[27])}
        assert cards_of(hands[1 - dealer]) == {token(deck[i]) for i in range(1, 27, 2)}
        assert cards_of(hands[dealer]) == {token(deck[i]) for i in range(2, 27, 2)}
        assert R.popcount(hands[0]) == R.popcount(hands[1]) == 13


def test_shuffle_deal_is_a_permutation_dealt_like_deal_masks_and_uniform():
    rng = np.zeros(4, dtype=np.uint64)
    rng[:] = [1, 2, 3, 4]
    deck = np.zeros(28, dtype=np.int64)
    hands = np.zeros(2, dtype=np.int64)
    check = np.zeros(2, dtype=np.int64)
    top = Counter()
    trials = 28 * 600
    for t in range(trials):
        deck[:] = R.DECK_CODES
        dead = R.shuffle_deal(deck, rng, t & 1, hands)
        if t < 300:
            assert sorted(deck) == sorted(R.DECK_CODES)
            assert dead == R.deal_masks(deck, t & 1, check)
            assert list(hands) == list(check)
        top[int(deck[0])] += 1
    # each card is the dead top card with probability 1/28: a chi-square test, 27 d.o.f.
    expected = trials / 28
    chi2 = sum((top[int(c)] - expected) ** 2 / expected for c in R.DECK_CODES)
    assert chi2 < 60  # the 99.99th percentile of chi-square(27) is about 61


# ---- first lead, legal moves -----------------------------------------------------------

_M64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _M64


def _xoshiro_step(s: list[int]) -> tuple[int, list[int]]:
    s0, s1, s2, s3 = s
    out = (_rotl((s1 * 5) & _M64, 7) * 9) & _M64
    t = (s1 << 17) & _M64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    return out, [s0, s1, s2, _rotl(s3, 45)]


def _xoshiro_unstep(s: list[int]) -> list[int]:
    """The state one step back (xoshiro256** is invertible)."""
    s0p, s1p, s2p, s3p = s
    a = _rotl(s3p, 64 - 45)
    s0 = s0p ^ a
    y = s1p ^ s2p
    s1 = (y ^ (y << 17) ^ (y << 34) ^ (y << 51)) & _M64
    return [s0, s1, s1p ^ s1 ^ s0, a ^ s1]


def _reference_shuffle_deal(deck: list[int], s: list[int], dealer: int):
    """Plain Python: Fisher-Yates from 32-bit halves (high first), one half at a time."""
    deck, s = list(deck), list(s)
    spare, a, b, rejections = None, 0, 0, 0
    for pos in range(27):
        n = 28 - pos
        while True:
            if spare is not None:
                r, spare = spare, None
            else:
                x, s = _xoshiro_step(s)
                r, spare = x >> 32, x & 0xFFFFFFFF
            m = r * n
            if (m & 0xFFFFFFFF) >= ((1 << 32) - n) % n:
                break
            rejections += 1
        j = pos + (m >> 32)
        deck[j], deck[pos] = deck[pos], deck[j]
        if pos & 1:
            a |= 1 << deck[pos]
        elif pos:
            b |= 1 << deck[pos]
    hands = [0, 0]
    hands[1 - dealer], hands[dealer] = a, b
    return deck, s, hands, (1 << deck[0]) | (1 << deck[27]), rejections


def test_shuffle_deal_equals_plain_fisher_yates_also_when_halves_are_rejected():
    """The compiled shuffle takes two positions per output until a half is rejected (rare:
    below 28 in 2**32); streams are rigged here so rejections happen at many positions."""
    import random

    inv9, inv5 = pow(9, -1, 1 << 64), pow(5, -1, 1 << 64)
    rnd = random.Random(3)
    rejections = 0
    for trial in range(400):
        s = [rnd.getrandbits(64) for _ in range(4)]
        for j in sorted(rnd.sample(range(16), rnd.randint(1, 3))):
            # make output j have a zero high and/or low half: a rejection unless n | 2**32
            hi = 0 if rnd.random() < 0.6 else rnd.getrandbits(32)
            lo = 0 if rnd.random() < 0.6 else rnd.getrandbits(32)
            cur = list(s)
            for _ in range(j):
                _, cur = _xoshiro_step(cur)
            cur[1] = (_rotl((((hi << 32) | lo) * inv9) & _M64, 64 - 7) * inv5) & _M64
            for _ in range(j):
                cur = _xoshiro_unstep(cur)
            s = cur
        deck = list(R.DECK_CODES) if trial % 2 == 0 else rnd.sample(list(R.DECK_CODES), 28)
        dealer = trial % 2
        want_deck, want_s, want_hands, want_dead, rejected = _reference_shuffle_deal(deck, s, dealer)
        rejections += rejected
        d = np.array(deck, dtype=np.int64)
        rng = np.array(s, dtype=np.uint64)
        hands = np.zeros(2, dtype=np.int64)
        dead = R.shuffle_deal(d, rng, dealer, hands)
        assert d.tolist() == want_deck and [int(v) for v in rng] == want_s
        assert hands.tolist() == want_hands and dead == want_dead
    assert rejections > 100  # the rigging worked: the retry path was exercised


def test_first_lead_2c_then_4c_then_6c():
    assert R.first_lead(mask("AS QH")) == parse_card("2C")
    assert R.first_lead(mask("2C QH")) == parse_card("4C")
    assert R.first_lead(mask("2C 4C")) == parse_card("6C")  # both dead
    assert R.first_lead(mask("4C 6C")) == parse_card("2C")


def test_heart_lead_refused_before_broken_unless_only_hearts():
    hand = mask("2C AH 4H QS")
    assert cards_of(R.legal_lead(hand, False)) == {"2C", "QS"}
    assert cards_of(R.legal_lead(hand, True)) == {"2C", "AH", "4H", "QS"}
    only_hearts = mask("2H 6H AH")
    assert cards_of(R.legal_lead(only_hearts, False)) == {"2H", "6H", "AH"}
    # QS may be led at any time, and a hand of hearts and QS must lead QS before broken
    assert cards_of(R.legal_lead(mask("QS 2H 8H"), False)) == {"QS"}


def follow(hand: int, led: str) -> set[str]:
    return cards_of(R.legal_follow(hand, R.follow_mask(parse_card(led))))


def test_follow_suit_if_able_qs_no_exception():
    hand = mask("2C QC 4D QS AS 8H")
    assert follow(hand, "TC") == {"2C", "QC"}
    assert follow(hand, "2S") == {"QS", "AS"}
    assert follow(hand, "AH") == {"8H"}
    assert follow(mask("2C QS 8H"), "TD") == {"2C", "QS", "8H"}  # void: any card
    # holding QS and a club, a club lead must be followed with the club
    assert follow(mask("2C QS"), "AC") == {"2C"}
    assert cards_of(R.follow_mask(parse_card("QS"))) == {r + "S" for r in "2468TQA"}


def test_hearts_broken_by_a_heart_played_not_by_a_dead_one():
    h0, h1 = mask("2C 4H"), mask("6C AH")
    assert not R.hearts_broken(h0 | mask("2H 6H 8H TH QH"), h1, mask("TS"))
    assert not R.hearts_broken(h0 | mask("6H 8H TH QH"), h1, mask("2H TS"))  # 2H is dead
    assert R.hearts_broken(h0 | mask("6H 8H TH QH"), h1, mask("QS TS"))  # 2H was played
    assert not R.hearts_broken(h0 | mask("2H 6H 8H TH QH"), h1, 0)  # QS played: not broken


def wins(led: str, card: str) -> bool:
    return R.second_wins(parse_card(led), parse_card(card), R.follow_mask(parse_card(led)))


def test_trick_winner_hearts_trump():
    assert wins("4C", "AC")
    assert not wins("AC", "4C")
    assert not wins("2C", "AD")  # off-suit, not a heart: loses
    assert not wins("2C", "AS")
    assert wins("AC", "2H")  # void player trumping with a heart
    assert wins("AS", "2H")
    assert wins("4H", "6H")
    assert not wins("6H", "4H")
    assert not wins("2H", "AS")  # heart led, no heart played back
    for led in DECK:
        for card in DECK:
            if card != led:  # the referee's rule on every pair
                expected = (rank(card) > rank(led)) if suit(card) == suit(led) else suit(card) == "H"
                assert wins(led, card) == expected, (led, card)


# ---- scoring, end of the game ----------------------------------------------------------

def test_points_per_card():
    assert R.trick_points(parse_card("QS"), parse_card("2H")) == 14
    assert R.trick_points(parse_card("AH"), parse_card("2H")) == 2
    assert R.trick_points(parse_card("AS"), parse_card("2C")) == 0
    assert R.mask_points(mask("2H 4H QS 2C")) == 15
    assert R.mask_points(R.DECK_MASK) == 20
    assert R.mask_points(mask("AS QC")) == 0


def test_hand_score_plain_and_moon():
    assert R.hand_score(13, 7) == (13, 7, -1)
    assert R.hand_score(20, 0) == (0, 20, 0)
    assert R.hand_score(0, 20) == (20, 0, 1)


def test_moon_with_a_dead_heart():
    dead = mask("6H 2C")
    in_play = R.DECK_MASK & ~dead
    points = R.mask_points(in_play)
    assert points == 19
    # seat 1 took every point card in play: a moon although the dead 6H was never taken
    assert R.hand_score(0, points) == (R.MOON_PENALTY, 0, 1)
    # with QS dead only the 7 hearts are in play (7 points): taking them all is a moon
    assert R.hand_score(R.mask_points(R.DECK_MASK & ~mask("QS 4D")), 0) == (0, 20, 0)


def test_game_end_lower_score_wins_ties_over_target_play_on():
    assert R.game_winners(90, 99, 100) == 0
    assert R.game_winners(100, 99, 100) == 2  # seat 1 lower
    assert R.game_winners(84, 104, 100) == 1
    assert R.game_winners(112, 104, 100) == 2  # both past 100, unequal: lower wins
    assert R.game_winners(104, 112, 100) == 1
    assert R.game_winners(104, 104, 100) == 0  # both past 100, equal: play on
    assert R.game_winners(100, 100, 100) == 0
    assert R.game_winners(20, 0, 20) == 2


# ---- heuristic decisions -----------------------------------------------------------------

def h(hand, legal, led, mine=0, theirs=0):
    led_code = -1 if led is None else parse_card(led)
    return token(S.heuristic_move(mask(hand), mask(legal), led_code, mine, theirs))


def test_heuristic_ducks_under_the_winner_and_wins_high_when_it_must():
    assert h("2C 6C QC AC 4D", "2C 6C QC AC", "TC") == "6C"
    assert h("QC AC 4D", "QC AC", "TC") == "AC"
    assert h("QS AS 2D", "QS AS", "2S") == "AS"  # keeps QS when another spade wins anyway
    assert h("QS 2D", "QS", "AS", 0, 0) == "QS"
    assert h("QS 2S 4D", "QS 2S", "AS") == "QS"  # ducks with QS under the ace


def test_heuristic_void_sheds_qs_then_high_cards():
    assert h("QS 2D AH", "QS 2D AH", "TC") == "QS"
    assert h("2D AD 6S AH", "2D AD 6S AH", "TC") == "AD"
    assert h("4H AH", "4H AH", "TC") == "AH"  # only hearts: it wins anyway, shed the high one
    assert h("2C QS", "2C QS", "6H") == "QS"


def test_heuristic_leads_low_in_short_suit():
    assert h("2C 4C 6C AD 4D", "2C 4C 6C AD 4D", None) == "4D"
    assert h("QS 2H 6H", "QS", None) == "QS"
    assert h("2H 6H QS", "2H 6H QS", None) == "2H"


def test_heuristic_stops_a_moon():
    # no point taken yet, the opponent has some: take the heart trick / trump in
    assert h("2H 8H 2C", "2H 8H", "4H", mine=0, theirs=3) == "8H"
    assert h("2H 8H 2C", "2H 8H", "4H", mine=1, theirs=3) == "2H"
    assert h("2H 8H QS", "2H 8H QS", "TD", mine=0, theirs=13) == "2H"
    assert h("2H 8H QS", "2H 8H QS", "TD", mine=2, theirs=13) == "QS"
    assert h("2C 2H AH", "2C 2H AH", None, mine=0, theirs=2) == "AH"


# ---- the independent referee ---------------------------------------------------------------

DECK = [r + s for s in "CDHS" for r in "2468TQA"]
RANKS = "23456789TJQKA"


def suit(c: str) -> str:
    return c[1]


def rank(c: str) -> int:
    return RANKS.index(c[0])


def card_points(c: str) -> int:
    return 13 if c == "QS" else (1 if suit(c) == "H" else 0)


class Seen(Counter):
    """Counts of rare situations the referee met, so tests can insist they were exercised."""


def referee(events: list[dict], seen: Seen) -> None:
    """Replay one record against docs/rules.md section 3, independently of the engine."""
    head = events[0]
    assert head["ev"] == "game" and head["game"] == "hearts2" and head["players"] == 2
    target = head["rules"]["target"]
    assert head["rules"] == {"target": target}
    scores = [0, 0]
    i = 1
    nhand = 0
    dealer = None
    while True:
        deal = events[i]
        i += 1
        assert deal["ev"] == "deal"
        nhand += 1
        assert deal["hand"] == nhand
        if dealer is None:
            assert deal["dealer"] in (0, 1)
        else:
            assert deal["dealer"] == 1 - dealer
        dealer = deal["dealer"]
        hands = [list(deal["hands"][0]), list(deal["hands"][1])]
        assert len(hands[0]) == len(hands[1]) == 13 and deal["stock"] == [] and len(deal["dead"]) == 2
        dead = set(deal["dead"])
        assert sorted(hands[0] + hands[1] + deal["dead"]) == sorted(DECK)
        held = [set(hands[0]), set(hands[1])]
        if "2C" not in dead:
            first = "2C"
        elif "4C" not in dead:
            first = "4C"
        else:
            first = "6C"
            seen["2C and 4C dead"] += 1
        leader = 0 if first in held[0] else 1
        broken = False
        taken = [[], []]
        for trick in range(13):
            plays = []
            for k in range(2):
                seat = leader if k == 0 else 1 - leader
                ev = events[i]
                i += 1
                assert ev["ev"] == "decide" and ev["kind"] == "play" and ev["seat"] == seat
                hand = held[seat]
                if k == 0:
                    if trick == 0:
                        legal = {first}
                    elif broken or all(suit(c) == "H" for c in hand):
                        legal = set(hand)
                        if not broken and len(hand) > 0:
                            seen["heart lead before broken, only hearts"] += 1
                    else:
                        legal = {c for c in hand if suit(c) != "H"}
                        if any(suit(c) == "H" for c in hand):
                            seen["heart lead refused"] += 1
                else:
                    same = {c for c in hand if suit(c) == suit(plays[0])}
                    legal = same or set(hand)
                assert len(ev["legal"]) == len(set(ev["legal"]))
                assert set(ev["legal"]) == legal, (ev, hand, broken)
                assert ev["move"] in legal
                hand.remove(ev["move"])
                plays.append(ev["move"])
            lead, follow = plays
            if suit(follow) == suit(lead):
                second = rank(follow) > rank(lead)
            else:
                second = suit(follow) == "H"
                if second:
                    seen["void trumps with a heart"] += 1
            winner = 1 - leader if second else leader
            ev = events[i]
            i += 1
            assert ev == {"ev": "trick", "leader": leader, "cards": plays, "winner": winner}
            taken[winner] += plays
            if any(suit(c) == "H" for c in plays):
                broken = True
            leader = winner
        assert not held[0] and not held[1]
        in_play = {c for c in DECK if card_points(c) and c not in dead}
        took = [sum(card_points(c) for c in taken[s]) for s in range(2)]
        moon = None
        for s in range(2):
            if in_play <= set(taken[s]):
                moon = s
        if moon is not None:
            points = [0, 0]
            points[1 - moon] = 20
            if dead & {c for c in DECK if suit(c) == "H"}:
                seen["moon with a dead heart"] += 1
        else:
            points = took
        scores = [scores[0] + points[0], scores[1] + points[1]]
        ev = events[i]
        i += 1
        assert ev == {"ev": "hand_end", "hand": nhand, "points": points, "scores": scores, "moon": moon}
        if max(scores) >= target:
            if scores[0] == scores[1]:
                seen["tie at or over target, play on"] += 1
            else:
                if min(scores) >= target:
                    seen["both over target, unequal"] += 1
                break
        assert events[i]["ev"] == "deal"
    ev = events[i]
    assert ev == {"ev": "game_end", "winners": [scores.index(min(scores))], "scores": scores, "hands": nhand}
    assert i == len(events) - 1


def _check_many(seats, games, seed, rules=None):
    seen = Seen()
    records = api.play("hearts2", seed=seed, index=0, games=games, seats=seats, rules=rules)
    for events in records:
        referee(events, seen)
    return seen, records


@pytest.mark.parametrize("seats, games", [(["random", "random"], 300), (["heuristic", "heuristic"], 800),
                                          (["random", "heuristic"], 400), (["heuristic", "random"], 400)])
def test_random_playouts_follow_the_rules(seats, games):
    # with the two tests below: about 2,000 refereed games with random seats, 1,600 with
    # heuristic ones
    seen, _ = _check_many(seats, games, seed=11)
    assert seen["heart lead refused"] > 0
    assert seen["void trumps with a heart"] > 0
    assert seen["heart lead before broken, only hearts"] > 0 or seats == ["heuristic", "heuristic"]


def test_rare_situations_are_met_and_refereed():
    seen, _ = _check_many(["random", "random"], 500, seed=3)
    assert seen["2C and 4C dead"] > 0
    assert seen["moon with a dead heart"] > 0
    assert seen["heart lead before broken, only hearts"] > 0


def test_ties_over_target_play_on_in_records():
    # with a low target, ties at or over it (13 + 7 against 7 + 13 after two hands) are common
    seen, records = _check_many(["random", "random"], 400, seed=5, rules={"target": 20})
    assert seen["tie at or over target, play on"] > 0
    assert seen["both over target, unequal"] > 0
    assert all(events[1]["ev"] == "deal" for events in records)


# ---- determinism, summary, records vs simulate ---------------------------------------------

def _rows(tmp_path, name, **kw):
    path = tmp_path / f"{name}.csv"
    api.simulate("hearts2", games=700, seed=9, seats=["random", "heuristic"], out=str(path), **kw)
    return pd.read_csv(path)


def test_same_games_whatever_workers_and_chunks(tmp_path):
    a = _rows(tmp_path, "a", workers=1)
    b = _rows(tmp_path, "b", workers=2)
    c = _rows(tmp_path, "c", workers=2, chunk=97)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    assert list(a.columns) == ["index", "winners", "hands", "decisions", "score_0", "score_1", "moons",
                               "moons_0", "moons_1", "tricks_0", "tricks_1", "qs_0", "qs_1"]
    records = api.play("hearts2", seed=9, index=0, games=40, seats=["random", "heuristic"])
    for g, events in enumerate(records):
        row = a.iloc[g]
        end = events[-1]
        assert str(row["winners"]) == ";".join(map(str, end["winners"]))
        assert [row["score_0"], row["score_1"]] == end["scores"]
        assert row["hands"] == end["hands"]
        assert row["decisions"] == sum(ev["ev"] == "decide" for ev in events)
        hand_ends = [ev for ev in events if ev["ev"] == "hand_end"]
        assert row["moons"] == sum(ev["moon"] is not None for ev in hand_ends)
        assert row["moons_1"] == sum(ev["moon"] == 1 for ev in hand_ends)
        tricks = [ev for ev in events if ev["ev"] == "trick"]
        assert row["tricks_0"] == sum(ev["winner"] == 0 for ev in tricks)
        assert row["qs_1"] == sum(ev["winner"] == 1 and "QS" in ev["cards"] for ev in tricks)
    # a game replayed alone is the same game
    alone = api.play("hearts2", seed=9, index=17, seats=["random", "heuristic"])[0]
    assert alone[1:] == records[17][1:]


def test_summary_tables_are_consistent(tmp_path):
    s = api.simulate("hearts2", games=800, seed=4, seats=["random", "heuristic"], workers=1,
                     out=str(tmp_path / "g.csv"))
    rows = pd.read_csv(tmp_path / "g.csv")
    seats = s.tables["seats"]
    hands = rows["hands"].sum()
    assert s.hands == hands
    for k in range(2):
        assert seats.loc[k, "wins"] == rows["winners"].astype(str).eq(str(k)).sum()
        assert seats.loc[k, "points_per_hand"] == pytest.approx(rows[f"score_{k}"].sum() / hands)
        assert seats.loc[k, "moon_rate"] == pytest.approx(rows[f"moons_{k}"].sum() / hands)
        assert seats.loc[k, "trick_share"] == pytest.approx(rows[f"tricks_{k}"].sum() / (13 * hands))
        assert seats.loc[k, "points_per_hand_lo"] < seats.loc[k, "points_per_hand"] < seats.loc[k, "points_per_hand_hi"]
        assert seats.loc[k, "win_rate_lo"] <= seats.loc[k, "win_rate"] <= seats.loc[k, "win_rate_hi"]
    assert seats["trick_share"].sum() == pytest.approx(1.0)
    assert s.totals["moon_rate"] == pytest.approx(rows["moons"].sum() / hands)
    # the heuristic beats random play by a wide margin
    assert seats.loc[1, "win_rate_lo"] > 0.8


# ---- user strategies and the CLI -------------------------------------------------------------

USER = textwrap.dedent('''
    from numba import njit

    from analyzer.games.hearts2.view import HAND, LED, LEADER, PLAYED, SEAT, holds

    @njit
    def checked(view, legal, n, rng):
        # the view must agree with the legal moves: every legal card is in the hand,
        # none was played before; a follower sees the led card
        for i in range(n):
            if not holds(view[HAND], legal[i]) or holds(view[PLAYED], legal[i]):
                return -1
        if view[SEAT] != view[LEADER] and view[LED] < 0:
            return -1
        return legal[n - 1]

    @njit
    def cheat(view, legal, n, rng):
        return 1  # 3C is not in the 28-card deck: never legal
''')


def test_user_strategy_sees_a_consistent_view(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(USER)
    s = api.simulate("hearts2", games=200, seed=2, seats={0: f"{path}:checked", 1: "random"}, workers=1)
    assert s.games == 200
    from analyzer.errors import StrategyError

    with pytest.raises(StrategyError, match="illegal move '3C'"):
        api.play("hearts2", seed=2, seats={1: f"{path}:cheat"})


def test_cli_simulate_json_and_play_record(cli, tmp_path):
    code, out, err = cli("simulate", "hearts2", "--games", "300", "--seed", "3", "--seat", "0=random",
                         "--rule", "target=50", "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["rules"] == {"target": 50} and data["games"] == 300
    assert {"points_per_hand", "moon_rate", "trick_share"} <= set(data["seats"][0])
    record = tmp_path / "g.jsonl"
    code, out, err = cli("play", "hearts2", "--seed", "3", "--index", "2", "--record", str(record),
                         "--seat", "0=random", "--rule", "target=50")
    assert code == 0, err
    assert "trick" in out and "game over" in out
    events = [json.loads(line) for line in record.read_text().splitlines()]
    referee(events, Seen())
    assert events[0]["index"] == 2 and events[0]["seed"] == 3


@pytest.mark.parametrize("args", [
    ("simulate", "hearts2", "--games", "10", "--players", "3"),
    ("simulate", "hearts2", "--games", "10", "--rule", "target=0"),
    ("simulate", "hearts2", "--games", "10", "--rule", "decks=2"),
    ("play", "hearts2", "--seat", "0=clever"),
])
def test_cli_bad_input(cli, args):
    code, out, err = cli(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


# ---- mc and evaluation from a position ---------------------------------------------------------

import math  # noqa: E402
from itertools import combinations  # noqa: E402

from analyzer.errors import AnalyzerError  # noqa: E402
from analyzer.evaluate import evaluate  # noqa: E402
from analyzer.games.hearts2.spec import SPEC  # noqa: E402

RULES = {"target": 100}
HEARTS_ONLY = "H"


def consistent_splits(position):
    """Every (opponent's hand, dead pair) the seat cannot tell apart, worked out here in
    plain Python from the position: the unseen cards split into the opponent's hand and
    2 dead cards, the opponent holding no card of a suit it failed to follow, nothing but
    hearts after leading a heart before hearts were broken, and 2C (and 4C) dead when the
    first lead was 4C (6C)."""
    hand = position["hand"].split()
    played = position["played"].split() + position.get("trick", "").split()
    seat = position["seat"]
    # who played each card: replay the tricks from the leader now backwards
    n = len(played)
    flips = [0]
    for t in range(n // 2):
        lead, follow = played[2 * t], played[2 * t + 1]
        second = rank(follow) > rank(lead) if suit(follow) == suit(lead) else suit(follow) == "H"
        flips.append(flips[-1] ^ int(second))
    leader_now = 1 - seat if n % 2 else seat
    first_leader = leader_now ^ flips[n // 2]
    barred = set()  # cards the opponent cannot hold
    broken = False
    for i, card in enumerate(played):
        t, k = divmod(i, 2)
        lead_seat = first_leader ^ flips[t]
        who = lead_seat if k == 0 else 1 - lead_seat
        if who != seat:
            if k == 1 and suit(card) != suit(played[2 * t]):
                barred |= {c for c in DECK if suit(c) == suit(played[2 * t])}
            if k == 0 and t > 0 and not broken and suit(card) == "H":
                barred |= {c for c in DECK if suit(c) != "H"}
        if k == 1 and "H" in (suit(card), suit(played[2 * t])):
            broken = True
    first = played[0] if played else min((c for c in hand if c in ("2C", "4C", "6C")), key=rank)
    barred |= {c for c in ("2C", "4C") if rank(c) < rank(first)}
    pool = [c for c in DECK if c not in hand and c not in played]
    splits = []
    for dead in combinations(pool, 2):
        opp = set(pool) - set(dead)
        if not opp & barred:
            splits.append((frozenset(opp), frozenset(dead)))
    return pool, splits


SAMPLING_POSITIONS = [
    # seat 1 failed to follow diamonds: AD, the one unseen diamond, is dead
    {"seat": 0, "hand": "4D 6D 8D TD QD AC 2H 4H 2S 4S 6S", "played": "2C 4C 2D 6C"},
    # the first lead was 4C: 2C is dead
    {"seat": 0, "hand": "6C 8C TC 2D 4D 6D 8D 2H 4H 6H 2S 4S 6S", "played": "", "trick": "4C"},
    # seat 1 led a heart before hearts were broken: it holds only hearts, so the two
    # unseen non-hearts (AC, QS) are dead and its hand is known
    {"seat": 0, "hand": "8C TC QC 4D 6D TD QD", "played": "2C 4C 2S 4S 6S 8S 6C 8D 2D AD AS TS",
     "trick": "2H"},
]


@pytest.mark.parametrize("position", SAMPLING_POSITIONS)
def test_hidden_cards_sampled_with_exact_conditional_probabilities(position):
    pool, splits = consistent_splits(position)
    assert splits
    samples = SPEC.hidden_samples(RULES, position, 24_000, seed=3)
    n = len(samples)
    pool_mask = sum(1 << parse_card(c) for c in pool)
    seen_pairs = Counter()
    in_opp = Counter()
    for opp, dead in samples:
        assert opp | dead == pool_mask and opp & dead == 0 and R.popcount(int(dead)) == 2
        seen_pairs[frozenset(cards_of(int(dead)))] += 1
        for c in cards_of(int(opp)):
            in_opp[c] += 1
    # every sampled split is consistent, and each consistent split is equally likely
    pairs = Counter(dead for _, dead in splits)
    assert set(seen_pairs) <= set(pairs)
    for dead in pairs:
        p = 1 / len(splits)
        assert abs(seen_pairs[dead] / n - p) < 5 * (p * (1 - p) / n) ** 0.5 + 1e-12, (dead, seen_pairs[dead])
    # P(card in the opponent's hand | what the seat saw), exactly
    for c in pool:
        p = sum(c in opp for opp, _ in splits) / len(splits)
        assert abs(in_opp[c] / n - p) < 5 * (p * (1 - p) / n) ** 0.5 + 1e-12, (c, in_opp[c] / n, p)
    if position["played"] == "2C 4C 2D 6C":
        assert in_opp["AD"] == 0 and len(splits) == 12
        assert in_opp["QS"] / n == pytest.approx(11 / 12, abs=0.01)
    if position.get("trick") == "2H":
        assert len(splits) == 1 and splits[0][1] == {"AC", "QS"}


# Seat 0 follows 2D at trick 12 of 13 holding QS 2H; the first lead was 6C, so 2C and 4C are
# dead and seat 1's last card (AH) is known. Seat 1 took 5 hearts so far, seat 0 nothing.
FORCED = {"seat": 0, "hand": "QS 2H", "scores": "99,99",
          "played": "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD", "trick": "2D"}


def forced_outcome(option):
    """Seat 0's points and win after ``option``, played out by hand: both last tricks are
    forced. Seat 1 holds AH; taken so far: seat 0 none, seat 1 five hearts."""
    taken = [0, 5]
    # trick 12: seat 1 led 2D; a heart on it wins, QS does not
    winner = 0 if option == "2H" else 1
    taken[winner] += card_points("2D") + card_points(option)
    last = "QS" if option == "2H" else "2H"  # seat 0's last card
    # trick 13: the winner leads; AH wins either way (a heart on QS, or the highest heart)
    taken[1] += card_points(last) + card_points("AH")
    points = taken if min(taken) > 0 else [20 if t == 0 else 0 for t in taken]
    scores = [99 + points[0], 99 + points[1]]
    assert max(scores) >= 100 and scores[0] != scores[1]  # the game ends with this hand
    return points[0], int(scores[0] < scores[1])


def test_forced_position_evaluates_exactly():
    assert forced_outcome("QS") == (20, 0)  # seat 1 shoots the moon
    assert forced_outcome("2H") == (1, 1)
    for rollout in ("heuristic", "random", "mc:k=4"):
        result = evaluate("hearts2", FORCED, samples=600, seed=4, workers=1, rollout=rollout)
        table = result.table.set_index("option")
        assert set(table.index) == {"QS", "2H"}
        for option in ("QS", "2H"):
            points, win = forced_outcome(option)
            row = table.loc[option]
            assert row["points"] == points and row["points_lo"] <= points <= row["points_hi"]
            assert row["win"] == win and row["win_lo"] - 1e-9 <= win <= row["win_hi"] + 1e-9
        assert result.table.iloc[0]["option"] == "2H"


#: the user strategy slots of a run without user strategies (kernel calls from here: mc_move)
NO_USERS = (empty_slot,) * SLOTS


def user_arrays():
    """The view, legal codes and stream arrays a user base would read (unused with a built-in one)."""
    return np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(13, dtype=np.int64), np.zeros(4, dtype=np.uint64)


def test_mc_plays_the_forced_answer():
    from analyzer.games.hearts2 import kernel as K

    known = SPEC.read_position(RULES, FORCED)
    assert cards_of(known.forced_dead) == {"2C", "4C"} and cards_of(known.pool) == {"2C", "4C", "AH"}
    scratch = np.zeros(4, dtype=np.uint64)
    sums = np.zeros(16, dtype=np.int64)
    for base in (S.HEURISTIC, S.RANDOM):
        card, *_ = K.mc_move(NO_USERS, 0, 8, base, mask("QS 2H"), mask("AH"), mask("2C 4C"), parse_card("6C"),
                             known.leader, known.trick, known.led, known.taken0, known.taken1, known.ntr0,
                             known.void1, mask("QS 2H"), scratch, sums, *user_arrays(), np.uint64(1), np.uint64(2),
                             np.uint64(3), np.uint64(4))
        assert token(card) == "2H"
        assert sorted(sums[:2]) == [8 * 1, 8 * 20]


def exact_last_tricks(events, at):
    """Expected points of each option at a decision where the seat follows to trick 12:
    averaged over every consistent hidden split, both last tricks played out here."""
    position = SPEC.position_from_record(events, at)
    position = {**position, "hand": " ".join(position["hand"]), "played": " ".join(position["played"])}
    pool, splits = consistent_splits(position)
    seat = position["seat"]
    played = position["played"].split()
    # points taken so far, from the record's tricks of this hand
    hand_events = events[:[i for i, ev in enumerate(events) if ev["ev"] == "decide"][at - 1]]
    start = max(i for i, ev in enumerate(hand_events) if ev["ev"] == "deal")
    taken = [0, 0]
    for ev in hand_events[start:]:
        if ev["ev"] == "trick":
            taken[ev["winner"]] += sum(card_points(c) for c in ev["cards"])
    led = played[-1]
    hand = position["hand"].split()
    result = {}
    for option in hand:
        if any(suit(c) == suit(led) for c in hand) and suit(option) != suit(led):
            continue
        total = 0
        for opp, _ in splits:
            (last_opp,) = opp
            (last_own,) = set(hand) - {option}
            t = list(taken)
            second = rank(option) > rank(led) if suit(option) == suit(led) else suit(option) == "H"
            winner = seat if second else 1 - seat
            t[winner] += card_points(led) + card_points(option)
            lead, follow = (last_own, last_opp) if winner == seat else (last_opp, last_own)
            second = rank(follow) > rank(lead) if suit(follow) == suit(lead) else suit(follow) == "H"
            t[winner ^ int(second)] += card_points(lead) + card_points(follow)
            total += t[seat] if min(t) > 0 else (20 if t[seat] == 0 else 0)
        result[option] = total / len(splits)
    return position, result


def test_evaluation_agrees_with_exact_expectations_over_hidden_cards():
    checked = 0
    for events in api.play("hearts2", seed=21, index=0, games=30, seats=["random", "random"]):
        decisions = [i for i, ev in enumerate(events) if ev["ev"] == "decide"]
        for at, i in enumerate(decisions, start=1):
            # the follow to trick 12 with two legal cards and unseen cards that matter
            if len(events[i]["legal"]) != 2:
                continue
            raw = SPEC.position_from_record(events, at)
            if len(raw["hand"]) != 2 or len(raw["played"]) != 23:
                continue
            position, exact = exact_last_tricks(events, at)
            if len(set(exact.values())) < 2 or len(consistent_splits(position)[1]) < 2:
                continue
            # sampled: the exact value inside the interval
            result = evaluate("hearts2", position, samples=3000, seed=at, workers=1, exact_limit=0)
            assert result.facts["method"] == "sampled"
            table = result.table.set_index("option")
            assert set(table.index) == set(exact)
            for option, value in exact.items():
                row = table.loc[option]
                assert row["points_lo"] - 1e-9 <= value <= row["points_hi"] + 1e-9, (position, option, value, row)
            # enumerated: the last two tricks are forced in every world, so the answer is exact
            result = evaluate("hearts2", position, samples=3000, seed=at, workers=1)
            assert result.facts["method"].startswith("exact over")
            table = result.table.set_index("option")
            for option, value in exact.items():
                assert table.loc[option, "points"] == pytest.approx(value, abs=1e-9)
                assert table.loc[option, "points_hi"] - table.loc[option, "points_lo"] == pytest.approx(0, abs=1e-9)
            checked += 1
            if checked == 6:
                return
    pytest.fail(f"only {checked} suitable positions found")


def test_position_from_record_round_trip():
    """Every decision of recorded games, seen from the deciding seat: the legal cards
    agree with the record, and the real hidden cards are one of the consistent deals."""
    for events in api.play("hearts2", seed=8, index=0, games=6, seats=["random", "heuristic"]):
        decisions = [i for i, ev in enumerate(events) if ev["ev"] == "decide"]
        deal = None
        for at, i in enumerate(decisions, start=1):
            deal = next(events[j] for j in range(i, 0, -1) if events[j]["ev"] == "deal")
            ev = events[i]
            position = SPEC.position_from_record(events, at)
            assert position["seat"] == ev["seat"] and position["dealer"] == deal["dealer"]
            assert position["rules"] == events[0]["rules"]
            known = SPEC.read_position(RULES, position)
            assert cards_of(known.legal) == set(ev["legal"])
            gone = set(position["played"])
            opp = set(deal["hands"][1 - ev["seat"]]) - gone
            dead = set(deal["dead"])
            assert cards_of(known.pool) == opp | dead
            assert cards_of(known.forced_dead) <= dead
            assert set(position["hand"]) == set(deal["hands"][ev["seat"]]) - gone
            if at % 7 == 0:  # the same, worked out independently
                flat = {**position, "hand": " ".join(position["hand"]), "played": " ".join(position["played"])}
                _, splits = consistent_splits(flat)
                assert (frozenset(opp), frozenset(dead)) in splits
                free = len(cards_of(known.pool) - cards_of(known.forced_dead))
                assert len(splits) == math.comb(free, 2 - len(cards_of(known.forced_dead)))


@pytest.mark.parametrize("change, message", [
    ({"hand": "QS 3H"}, "3H is not in the 28-card"),
    ({"hand": "QS QD"}, "duplicate card QD"),
    ({"hand": "QS 2H AH"}, "holds 2 cards, not 3"),
    ({"played": "4C 4H 2S"}, "trick holds the card led"),
    ({"trick": "2D 2H"}, "trick holds the card led"),
    ({"played": "8C 4H 2S 4S 6C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD"}, "first card of a hand"),
    ({"hand": "2C 2H", "played": "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD"},
     "so 2C is dead"),
    ({"played": "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS QD AS AD"}, "could not have played QD"),
    ({"played": "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD", "trick": "AC"},
     "duplicate card AC"),
    ({"seat": 2}, "seat 2 does not exist"),
    ({"scores": "120,90"}, "the game ended"),
    ({"scores": "5"}, "2 non-negative numbers"),
    ({"decision": "bid"}, "only play decisions"),
    ({"bids": "5"}, "no 'bids'"),
    ({"hand": "8C TC QC AC 2D 4D 6D 8D 2H 4H 2S 4S 6S", "played": "", "trick": ""}, "holds none of 2C 4C 6C"),
    ({"hand": "2C 8C TC QC AC 2D 4D 6D 8D 2H 4H 2S 4S", "played": "", "trick": "4C"}, "so 2C is dead"),
])
def test_bad_positions_give_clear_errors(change, message):
    with pytest.raises(AnalyzerError, match=message):
        evaluate("hearts2", {**FORCED, **change}, samples=10, workers=1)


def test_impossible_voids_are_refused():
    # seat 1 led 2C, seat 0 won with 4C and led 6C: seat 1 discarded 8S, so it holds no club
    position = {"seat": 0, "hand": "8C TC QC 2D 4D 6D 8D 2H 4H 2S 4S", "played": "2C 4C 6C 8S"}
    known = SPEC.read_position(RULES, position)
    assert cards_of(known.forced_dead) == {"AC"}
    # ... but 3 clubs are unseen, and only 2 cards are dead
    with pytest.raises(AnalyzerError, match="only 2 cards are dead"):
        SPEC.read_position(RULES, {**position, "hand": "8C 2D 4D 6D 8D TD 2H 4H 2S 4S 6S"})
    with pytest.raises(AnalyzerError, match="held no C"):
        SPEC.read_position(RULES, {"seat": 0, "hand": "TC QC 2D 4D 6D 8D 2H 4H 2S 4S",
                                   "played": "2C 4C 6C 8S 8C AC", "trick": "QD"})


def test_mc_beats_the_heuristic():
    s = api.simulate("hearts2", games=300, seed=1, seats=["mc:k=8", "heuristic"], workers=1)
    seats = s.tables["seats"]
    assert seats.loc[0, "win_rate_lo"] > 0.7
    assert seats.loc[0, "points_per_hand_hi"] < seats.loc[1, "points_per_hand_lo"]


def test_mc_games_are_legal_and_deterministic(tmp_path):
    seen, _ = _check_many(["mc:k=4", "random"], 30, seed=6)
    seen, _ = _check_many(["heuristic", "mc:k=4,base=random"], 30, seed=7)
    kw = dict(games=60, seed=9, seats=["mc:k=4", "heuristic"])
    api.simulate("hearts2", workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate("hearts2", workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv"))


def test_cli_evaluate_from_a_record_and_bad_position(cli, tmp_path):
    record = tmp_path / "g.jsonl"
    code, out, err = cli("play", "hearts2", "--seed", "3", "--record", str(record))
    assert code == 0, err
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "40", "--samples", "512",
                         "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    events = [json.loads(line) for line in record.read_text().splitlines()]
    decide = [ev for ev in events if ev["ev"] == "decide"][39]
    # equivalent cards share a row, named "4S/6S"
    assert sorted(c for o in data["options"] for c in o["option"].split("/")) == sorted(decide["legal"])
    code, out, err = cli("evaluate", "hearts2", "--seat", "0", "--hand", "QS 2H", "--played", "2C 4C",
                         "--workers", "1")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


# ---- the view module: names and converters for strategy authors -----------------------------

def test_view_card_and_move_codes():
    from analyzer.cards import CardError
    from analyzer.games.hearts2 import view as V

    deck = hearts2_deck().codes
    assert V.DECK == sum(1 << c for c in deck)
    for c in deck:
        name = token(c)
        assert V.card_code(name) == V.move_code(name) == c
        assert V.card_name(c) == V.move_name(c) == name
        assert V.suit_of(c) == "CDHS".index(name[1]) and V.rank_of(c) == "23456789TJQKA".index(name[0])
    assert V.card_code("QS") == V.QUEEN_OF_SPADES and V.suit_of(V.QUEEN_OF_SPADES) == V.SPADES
    with pytest.raises(CardError, match="not in the 28-card"):
        V.card_code("3H")
    m = V.mask_of("QS 2H 4H AC")
    assert V.count(m) == 4 and V.holds(m, V.card_code("2H")) and not V.holds(m, V.card_code("6H"))
    assert cards_of(V.suit_cards(m, V.HEARTS)) == {"2H", "4H"}
    view = np.zeros(V.VIEW_SIZE, dtype=np.int64)
    view[V.HAND] = mask("QS 2H")
    view[V.PLAYED] = mask("6C 4H 2S 4S")
    view[V.LED] = parse_card("2D")
    assert cards_of(V.unseen(view)) == {token(c) for c in deck} - {"QS", "2H", "6C", "4H", "2S", "4S", "2D"}
