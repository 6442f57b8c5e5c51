"""Two-player Hearts (RULES.md section 3): rule functions, strategies, records checked by an
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


def test_bit_helpers_match_plain_python():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        x = int(rng.integers(1, 1 << 52)) & R.DECK_MASK or 1
        bits = [i for i in range(52) if x >> i & 1]
        assert R.popcount(x) == len(bits)
        assert R.lowest(x) == bits[0]
        assert R.highest(x) == bits[-1]
        k = int(rng.integers(0, len(bits)))
        assert R.nth_card(x, k) == bits[k]
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
    """Replay one record against RULES.md section 3, independently of the engine."""
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

    @njit
    def checked(view, legal, n, rng):
        # the view must agree with the legal moves: every legal card is in the hand,
        # none was played before; a follower sees the led card
        hand = view[7]
        for i in range(n):
            if not (hand >> legal[i]) & 1 or (view[8] >> legal[i]) & 1:
                return -1
        if view[0] != view[4] and view[5] < 0:
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
