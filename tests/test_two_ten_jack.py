"""Two-Ten-Jack (docs/rules.md section 4): rule functions, strategies, records checked by an
independent plain-Python referee, determinism, summary and CLI."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analyzer import api, bits, records
from analyzer.cards import parse_card, token
from analyzer.errors import AnalyzerError, StrategyError
from analyzer.games.two_ten_jack import rules as R
from analyzer.games.two_ten_jack import strategies as S
from analyzer.games.two_ten_jack.spec import SPEC

GAME = "two-ten-jack"


def mask(text: str) -> np.int64:
    m = 0
    for c in text.split():
        m |= 1 << parse_card(c)
    return np.int64(m)


def cards(m: int) -> list[str]:
    return sorted(token(c) for c in range(52) if int(m) >> c & 1)


def moves(m: int) -> set[str]:
    return {SPEC.move_name(c) for c in range(64) if int(m) >> c & 1}


def c(text: str) -> int:
    return parse_card(text)


# ---------------------------------------------------------------------------------------
# the independent referee (plain Python, written from docs/rules.md section 4 only)

RANKS = "23456789TJQKA"
ALL_CARDS = {r + s for r in RANKS for s in "CDHS"}
POINTS = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5,
          "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}


def ref_is_trump(card: str) -> bool:
    return card[1] == "H" or card == "AS"


def ref_trump_order(card: str) -> int:
    return 100 if card == "AS" else RANKS.index(card[0])


def ref_lead_moves(hand: list[str]) -> list[str]:
    out = [x for x in hand if x != "AS"]
    if "AS" in hand:
        out += ["AS:spade", "AS:trump"]
    return out


def ref_follow_moves(hand: list[str], suit: str) -> list[str]:
    if suit == "H":
        same = [x for x in hand if ref_is_trump(x)]  # AS follows a trump lead
    else:
        same = [x for x in hand if x[1] == suit]  # AS is a spade
    if same:
        return same
    trumps = [x for x in hand if ref_is_trump(x)]
    return trumps or list(hand)


def ref_winner(leader: int, lead: str, follow: str) -> int:
    trumps = [(ref_trump_order(x), seat) for x, seat in ((lead, leader), (follow, 1 - leader)) if ref_is_trump(x)]
    if trumps:
        return max(trumps)[1]
    if follow[1] == lead[1] and RANKS.index(follow[0]) > RANKS.index(lead[0]):
        return 1 - leader
    return leader


def ref_end(scores: list[int], target: int) -> list[int] | None:
    over = [s for s in range(2) if scores[s] >= target]
    if len(over) == 1:
        return over
    if len(over) == 2 and scores[0] != scores[1]:
        return [0] if scores[0] > scores[1] else [1]
    return None


def check_game(events: list[dict], stats: Counter) -> dict:
    """Replay one record against the rules; returns the game_end event."""
    head = events[0]
    assert head["ev"] == "game" and head["game"] == GAME and head["players"] == 2
    target = head["rules"]["target"]
    assert set(head["rules"]) == {"target"}
    it = iter(events[1:])
    scores = [0, 0]
    dealer = None
    rnd = 0
    while True:
        ev = next(it)
        assert ev["ev"] == "deal", ev
        rnd += 1
        assert ev["hand"] == rnd
        if dealer is None:
            assert ev["dealer"] in (0, 1)
            stats[f"first_dealer_{ev['dealer']}"] += 1
        else:
            assert ev["dealer"] == 1 - dealer  # alternates
        dealer = ev["dealer"]
        hands = [list(h) for h in ev["hands"]]
        stock = list(ev["stock"])
        assert [len(h) for h in hands] == [6, 6] and len(stock) == 40 and ev["dead"] == []
        assert sorted(hands[0] + hands[1] + stock) == sorted(ALL_CARDS)
        taken: list[list[str]] = [[], []]
        pos = 0
        leader = 1 - dealer  # the non-dealer leads the first trick
        for trick in range(26):
            ev = next(it)
            assert ev["ev"] == "decide" and ev["seat"] == leader and ev["kind"] == "play", ev
            legal = ref_lead_moves(hands[leader])
            assert len(ev["legal"]) == len(set(ev["legal"]))
            assert sorted(ev["legal"]) == sorted(legal)
            assert ev["move"] in legal
            lead = "AS" if ev["move"].startswith("AS:") else ev["move"]
            suit = {"AS:spade": "S", "AS:trump": "H"}.get(ev["move"], lead[1])
            if lead == "AS":
                stats["as_led"] += 1
                stats[ev["move"]] += 1
            stats["decisions"] += 1
            hands[leader].remove(lead)
            follower = 1 - leader
            ev = next(it)
            assert ev["ev"] == "decide" and ev["seat"] == follower and ev["kind"] == "play", ev
            legal = ref_follow_moves(hands[follower], suit)
            assert len(ev["legal"]) == len(set(ev["legal"]))
            assert sorted(ev["legal"]) == sorted(legal)
            assert ev["move"] in legal
            follow = ev["move"]
            stats["decisions"] += 1
            if legal == ["AS"]:  # AS forced: the only spade, the only trump on a trump lead, or void
                stats[{"S": "as_forced_spade", "H": "as_forced_trump"}.get(suit, "as_forced_void")] += 1
            same = [x for x in hands[follower] if x[1] == suit or (suit == "H" and x == "AS")]
            if not same and any(ref_is_trump(x) for x in hands[follower]):
                stats["compulsory_trump"] += 1
            hands[follower].remove(follow)
            winner = ref_winner(leader, lead, follow)
            ev = next(it)
            assert ev["ev"] == "trick", ev
            assert ev["leader"] == leader and ev["cards"] == [lead, follow] and ev["winner"] == winner
            if pos < 40:  # the winner draws the top card, then the loser the next
                assert ev["draws"] == [[winner, stock[pos]], [1 - winner, stock[pos + 1]]]
                hands[winner].append(stock[pos])
                hands[1 - winner].append(stock[pos + 1])
                pos += 2
            else:
                assert ev["draws"] == []
            taken[winner] += [lead, follow]
            leader = winner
        assert hands == [[], []] and pos == 40
        assert sorted(taken[0] + taken[1]) == sorted(ALL_CARDS)
        ev = next(it)
        assert ev["ev"] == "hand_end" and ev["hand"] == rnd, ev
        points = [sum(POINTS.get(x, 0) for x in taken[s]) for s in range(2)]
        assert sum(points) == 5
        assert ev["points"] == points
        scores = [scores[s] + points[s] for s in range(2)]
        assert ev["scores"] == scores
        if min(scores) >= target:
            stats["both_over_equal" if scores[0] == scores[1] else "both_over_unequal"] += 1
        winners = ref_end(scores, target)
        if winners is not None:
            end = next(it)
            assert end == {"ev": "game_end", "winners": winners, "scores": scores, "hands": rnd}
            with pytest.raises(StopIteration):
                next(it)
            stats["rounds"] += rnd
            return end


def check_records(played: list[list[dict]]) -> Counter:
    stats: Counter = Counter()
    for events in played:
        check_game(events, stats)
    return stats


# ---------------------------------------------------------------------------------------
# rule functions (compiled), one test per rule


def test_card_points_each_scoring_card():
    expected = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5,
                "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}
    for code in range(52):
        t = token(code)
        assert R.CARD_POINTS[code] == expected.get(t, 0), t
        assert R.mask_points(np.int64(1) << np.int64(code)) == expected.get(t, 0), t
    assert R.mask_points(mask("2H TH JH")) == 15
    assert R.mask_points(mask("2C TC JC")) == -15
    assert R.mask_points(mask("2S TS JS AS 6D")) == 5
    assert R.mask_points(mask("2H 2C 6D KH 3S")) == 1
    full = np.int64((1 << 52) - 1)
    assert R.mask_points(full) == 5


def test_trump_order():
    order = ["AS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
    strengths = [R.TRUMP_STRENGTH[c(t)] for t in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 14
    for code in range(52):
        if token(code) not in order:
            assert R.TRUMP_STRENGTH[code] == 0


def test_any_card_may_be_led_and_as_lead_is_declared():
    hand = mask("2C KD 5H AH 9S")
    assert R.lead_moves(hand) == hand  # trumps too
    assert moves(R.lead_moves(mask("2C 5H AS"))) == {"2C", "5H", "AS:spade", "AS:trump"}
    assert moves(R.lead_moves(mask("AS"))) == {"AS:spade", "AS:trump"}
    assert R.lead_card(R.AS_SPADE) == c("AS") and R.lead_card(R.AS_TRUMP) == c("AS")
    assert R.suit_led(R.AS_SPADE) == R.SPADES and R.suit_led(R.AS_TRUMP) == R.HEARTS
    assert R.suit_led(c("7D")) == R.DIAMONDS and R.suit_led(c("7H")) == R.HEARTS


def test_follow_suit_if_able():
    hand = mask("3C QC 5D 7H 9S")
    assert cards(R.follow_moves(hand, R.CLUBS)) == ["3C", "QC"]
    assert cards(R.follow_moves(hand, R.DIAMONDS)) == ["5D"]
    assert cards(R.follow_moves(hand, R.HEARTS)) == ["7H"]
    assert cards(R.follow_moves(hand, R.SPADES)) == ["9S"]


def test_compulsory_trumping_when_void():
    hand = mask("3C 4H KH 9S")
    assert cards(R.follow_moves(hand, R.DIAMONDS)) == ["4H", "KH"]
    assert cards(R.follow_moves(mask("3C 4H AS 9S"), R.DIAMONDS)) == ["4H", "AS"]  # AS is a trump


def test_holding_neither_anything_goes():
    hand = mask("3C QC 9S")
    assert cards(R.follow_moves(hand, R.DIAMONDS)) == ["3C", "9S", "QC"]
    # hearts led and no trump at all: anything (the other suits, spades included)
    assert cards(R.follow_moves(hand, R.HEARTS)) == ["3C", "9S", "QC"]


def test_as_led_declared_spade():
    # the follower follows spades if able
    assert cards(R.follow_moves(mask("3S KS 4H 2C"), R.suit_led(R.AS_SPADE))) == ["3S", "KS"]
    # void in spades: must trump
    assert cards(R.follow_moves(mask("4H 2C"), R.suit_led(R.AS_SPADE))) == ["4H"]
    # neither: anything
    assert cards(R.follow_moves(mask("2C 5D"), R.suit_led(R.AS_SPADE))) == ["2C", "5D"]
    # AS wins whatever follows (it is the highest trump however declared)
    for follow in ("KS", "AH", "2C", "AD"):
        assert not R.follower_wins(c("AS"), c(follow))


def test_as_led_declared_trump():
    # the follower must play a trump if able, even holding spades
    assert cards(R.follow_moves(mask("3S KS 4H QH 2C"), R.suit_led(R.AS_TRUMP))) == ["4H", "QH"]
    # no trump: anything (spades are not required)
    assert cards(R.follow_moves(mask("3S 2C"), R.suit_led(R.AS_TRUMP))) == ["2C", "3S"]
    for follow in ("AH", "2H", "3S"):
        assert not R.follower_wins(c("AS"), c(follow))


def test_spades_led_as_only_spade_must_be_played():
    hand = mask("AS 4H 2C")
    assert cards(R.follow_moves(hand, R.SPADES)) == ["AS"]
    assert R.follower_wins(c("KS"), c("AS"))
    # with other spades it may play either
    assert cards(R.follow_moves(mask("AS 3S 4H"), R.SPADES)) == ["3S", "AS"]


def test_hearts_led_as_only_trump_must_be_played():
    hand = mask("AS 3S 2C")
    assert cards(R.follow_moves(hand, R.HEARTS)) == ["AS"]
    assert R.follower_wins(c("AH"), c("AS"))
    assert cards(R.follow_moves(mask("AS 5H 3S"), R.HEARTS)) == ["5H", "AS"]


def test_void_in_led_suit_as_only_trump_must_be_played():
    hand = mask("AS 3S 2C")
    assert cards(R.follow_moves(hand, R.DIAMONDS)) == ["AS"]
    assert R.follower_wins(c("AD"), c("AS"))


def test_trick_winner():
    assert R.follower_wins(c("5D"), c("9D"))  # higher card of the suit led
    assert not R.follower_wins(c("9D"), c("5D"))
    assert not R.follower_wins(c("5D"), c("AC"))  # off-suit, no trump: the lead wins
    assert R.follower_wins(c("5D"), c("AS"))  # AS is a trump even off-suit
    assert R.follower_wins(c("AD"), c("2H"))  # any trump beats a plain card
    assert not R.follower_wins(c("2H"), c("AD"))
    assert R.follower_wins(c("5H"), c("6H"))  # higher trump
    assert not R.follower_wins(c("KH"), c("QH"))
    assert R.follower_wins(c("AH"), c("AS"))
    assert not R.follower_wins(c("AS"), c("AH"))
    assert R.follower_wins(c("9S"), c("TS"))  # spades as a plain suit


def test_round_winners_end_rule():
    assert R.round_winners(31, 10, 31) == 1
    assert R.round_winners(-4, 36, 31) == 2
    assert R.round_winners(30, 30, 31) == 0  # nobody there: another round
    assert R.round_winners(40, 33, 31) == 1  # both past: the higher wins
    assert R.round_winners(33, 40, 31) == 2
    assert R.round_winners(35, 35, 31) == 0  # equal: another round
    assert R.round_winners(3, -2, 3) == 1


def test_bit_helpers():
    """The shared helpers on this game's masks (analyzer/bits.py; tested in full in
    test_foundation.py), and nth_move, the branch-free nth_bit for a move mask of at most
    MAX_MOVES bits, picking the same moves."""
    m = mask("2C 5D AS KH")
    assert bits.popcount(m) == 4
    assert bits.lowest(m) == c("2C")
    assert [bits.nth_bit(m, k) for k in range(4)] == sorted(c(t) for t in ("2C", "5D", "AS", "KH"))
    assert bits.popcount(np.int64((1 << 52) - 1)) == 52
    for hand in (m, mask("2C 5D AS KH 3H 4H")):  # the second leads 7 moves: AS twice
        moves = R.lead_moves(hand)
        n = bits.popcount(moves)
        assert [R.nth_move(moves, k) for k in range(n)] == [bits.nth_bit(moves, k) for k in range(n)]
    assert bits.popcount(R.lead_moves(mask("2C 5D AS KH 3H 4H"))) == R.MAX_MOVES


# ---------------------------------------------------------------------------------------
# heuristic rules (strategies.py docstring)


def test_heuristic_wins_tricks_holding_plus_five():
    # TH led: it must follow trumps; QH wins the +5, 3H would give it away
    assert S.heuristic_follow(R.follow_moves(mask("3H QH 5C"), R.HEARTS), c("TH"), 10) == c("QH")
    # a +5 trump of its own on a plain lead while void: wins it with TH
    assert S.heuristic_follow(R.follow_moves(mask("TH 4H 9S"), R.DIAMONDS), c("3D"), 10) == c("TH")


def test_heuristic_saves_as_for_a_trick_worth_it():
    # a worthless spade lead: keeps AS, plays 3S
    assert S.heuristic_follow(R.follow_moves(mask("AS 3S"), R.SPADES), c("4S"), 20) == c("3S")
    assert S.heuristic_follow(R.follow_moves(mask("AS 3S"), R.SPADES), c("TS"), 20) == c("3S")
    # TH led: AS takes the +5
    assert S.heuristic_follow(R.follow_moves(mask("AS 3H"), R.HEARTS), c("TH"), 20) == c("AS")


def test_heuristic_avoids_and_dumps_minus_five_clubs():
    # TC led: plays under with 3C (the -5 goes to the leader), not QC
    assert S.heuristic_follow(R.follow_moves(mask("QC 3C"), R.CLUBS), c("TC"), 10) == c("3C")
    # void, no trump: dumps 2C on the opponent's trick
    assert S.heuristic_follow(R.follow_moves(mask("2C 9S KS"), R.DIAMONDS), c("5D"), 10) == c("2C")
    # leads 2C first
    assert S.heuristic_lead(mask("2C 3D 9S KH"), np.int64(0), 10) == c("2C")


def test_heuristic_gives_away_worthless_tricks_cheaply():
    assert S.heuristic_follow(R.follow_moves(mask("3D 9D KD"), R.DIAMONDS), c("5D"), 10) == c("3D")
    assert S.heuristic_lead(mask("3D 9S KH TS"), np.int64(0), 10) == c("3D")


def test_heuristic_as_trump_lead_at_the_end():
    hand = mask("AS 4D 7C")
    assert S.heuristic_lead(hand, np.int64(0), 0) == R.AS_TRUMP  # stock gone, +5 hearts unseen
    assert S.heuristic_lead(hand, np.int64(0), 10) == c("4D")  # stock lasts: keeps AS
    assert S.heuristic_lead(mask("AS"), mask("2H TH JH 3H"), 0) == R.AS_TRUMP  # hearts still unseen
    played = np.int64(sum(1 << (26 + r) for r in range(13)))
    assert S.heuristic_lead(mask("AS"), played, 0) == R.AS_SPADE


# ---------------------------------------------------------------------------------------
# random playouts through the records, checked by the referee

@pytest.fixture(scope="module")
def played_random():
    return api.play(GAME, seed=11, index=0, games=400, seats=["random", "random"])


def test_playouts_random(played_random):
    stats = check_records(played_random)
    # every AS case turned up
    assert stats["AS:spade"] > 0 and stats["AS:trump"] > 0
    assert stats["compulsory_trump"] > 0
    assert stats["as_forced_spade"] > 0 and stats["as_forced_trump"] > 0 and stats["as_forced_void"] > 0
    # the first dealer is random
    n = len(played_random)
    assert abs(stats["first_dealer_0"] - n / 2) < 4 * math.sqrt(n / 4)


def test_random_is_uniform_over_legal_moves(played_random):
    # the first lead of each round, from a hand without AS: 6 moves, each 1/6
    where = Counter()
    declared = Counter()
    total = 0
    for events in played_random:
        for i, ev in enumerate(events):
            if ev["ev"] == "deal":
                first = events[i + 1]
                if len(first["legal"]) == 6:
                    where[first["legal"].index(first["move"])] += 1
                    total += 1
            if ev["ev"] == "decide" and "AS:spade" in ev["legal"] and ev["move"].startswith("AS:"):
                declared[ev["move"]] += 1
    sd = math.sqrt(total * (1 / 6) * (5 / 6))
    for k in range(6):
        assert abs(where[k] - total / 6) < 4.5 * sd, where
    m = declared["AS:spade"] + declared["AS:trump"]
    assert m > 100 and abs(declared["AS:spade"] - m / 2) < 4.5 * math.sqrt(m / 4)


def test_playouts_heuristic_and_mixed():
    stats = check_records(api.play(GAME, seed=12, games=150, seats=["heuristic", "heuristic"]))
    assert stats["as_led"] > 0
    # short games (target 4: one or two rounds) for many deals
    stats = check_records(api.play(GAME, seed=15, games=1000, seats=["heuristic", "heuristic"],
                                   rules={"target": 4}))
    assert stats["AS:trump"] > 0 and stats["compulsory_trump"] > 0
    check_records(api.play(GAME, seed=13, games=150, seats=["heuristic", "random"]))
    check_records(api.play(GAME, seed=14, games=80, seats=["random", "heuristic"], rules={"target": 50}))


def test_end_rule_both_past_target():
    # a low target: both players past it is common, equal scores now and then
    stats = Counter()
    played = api.play(GAME, seed=5, games=1500, seats=["random", "random"], rules={"target": 4})
    for events in played:
        check_game(events, stats)
    assert stats["both_over_unequal"] > 0
    assert stats["both_over_equal"] > 0  # and the game went on


def test_both_past_31_unequal_higher_wins():
    # game 2308 of seed 31 (found by a scan of simulated rows) ends 32 : 33, both past 31
    (events,) = api.play(GAME, seed=31, index=2308, seats=["random", "random"])
    stats = Counter()
    end = check_game(events, stats)
    assert stats["both_over_unequal"] == 1
    assert min(end["scores"]) >= 31 and end["winners"] == [int(np.argmax(end["scores"]))]


def test_equal_scores_past_31_cannot_happen():
    """Ruling note (docs): with target 31 a tie at or past the target is unreachable.

    A round's points sum to 5 and a player's lie in -15..20. Walk every reachable pair of
    scores of a game still going on: it never holds equal scores of 31 or more."""
    going = {(0, 0)}
    seen_tie = False
    for _ in range(20):
        nxt = set()
        for s0, s1 in going:
            for p in range(-15, 21):
                a, b = s0 + p, s1 + 5 - p
                if ref_end([a, b], 31) is None:
                    nxt.add((a, b))
                    seen_tie |= a == b and a >= 31
        going = nxt
    assert not going and not seen_tie
    # with target 4 it can (and the engine plays on: test_end_rule_both_past_target)
    assert ref_end([5, 5], 4) is None and ref_end([2, 3], 4) is None


def test_heuristic_beats_random():
    s = api.simulate(GAME, games=3000, seed=3, seats=["heuristic", "random"], workers=1)
    seats = s.tables["seats"]
    assert seats.loc[0, "win_rate_lo"] > 0.5


# ---------------------------------------------------------------------------------------
# per-game rows, determinism, summary


def frame(tmp_path, name, **kw):
    path = tmp_path / f"{name}.csv"
    api.simulate(GAME, seed=21, out=str(path), **kw)
    return pd.read_csv(path)


def test_determinism_workers_and_chunks(tmp_path):
    kw = dict(games=3000, seats=["heuristic", "random"])
    a = frame(tmp_path, "a", workers=1, chunk=3000, **kw)
    b = frame(tmp_path, "b", workers=2, chunk=257, **kw)
    c_ = frame(tmp_path, "c", workers=2, chunk=1024, **kw)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c_)
    # per-game consistency
    assert (a["points_dealer"] + a["points_nondealer"] == 5 * a["hands"]).all()
    assert (a["score_0"] + a["score_1"] == 5 * a["hands"]).all()
    assert (a["decisions"] == 52 * a["hands"]).all()
    bins_d = a[[f"bin_dealer_{k}" for k in range(7)]].sum(axis=1)
    bins_n = a[[f"bin_nondealer_{k}" for k in range(7)]].sum(axis=1)
    assert (bins_d == a["hands"]).all() and (bins_n == a["hands"]).all()
    assert (a["as_led"] <= a["hands"]).all() and (a["as_led_trump"] <= a["as_led"]).all()
    assert (a["dealt_0"] + a["dealt_1"] == a["hands"]).all()
    assert ((a["dealt_0"] - a["dealt_1"]).abs() <= 1).all()  # the deal alternates
    for s in range(2):
        assert (a[f"points_dealing_{s}"] + a[f"points_nondealing_{s}"] == a[f"score_{s}"]).all()
    assert (a["points_dealing_0"] + a["points_dealing_1"] == a["points_dealer"]).all()
    # the record of a game equals its simulated row
    for index in (0, 17, 2999):
        (events,) = api.play(GAME, seed=21, index=index, seats=["heuristic", "random"])
        end = events[-1]
        row = a.iloc[index]
        assert row["index"] == index
        assert str(row["winners"]) == ";".join(map(str, end["winners"]))
        assert [row["score_0"], row["score_1"]] == end["scores"]
        assert row["hands"] == end["hands"]
        check_game(events, Counter())
        rounds = [ev for ev in events if ev["ev"] == "deal"]
        ends = [ev for ev in events if ev["ev"] == "hand_end"]
        pd_ = sum(e["points"][d["dealer"]] for d, e in zip(rounds, ends))
        assert row["points_dealer"] == pd_
        assert row["dealt_0"] == sum(d["dealer"] == 0 for d in rounds)
        assert row["points_dealing_1"] == sum(e["points"][1] for d, e in zip(rounds, ends) if d["dealer"] == 1)
        led = [ev for ev in events if ev["ev"] == "decide" and ev["move"].startswith("AS:")]
        assert row["as_led"] == len(led)
        assert row["as_led_trump"] == sum(ev["move"] == "AS:trump" for ev in led)


def test_summary_tables():
    s = api.simulate(GAME, games=2000, seed=4, seats=["random", "random"], workers=1)
    assert set(s.tables) == {"seats", "positions", "round_points"}
    seats = s.tables["seats"]
    assert seats["wins"].sum() == 2000
    assert abs(seats["points_per_round"].sum() - 5) < 1e-9
    pos = s.tables["positions"]
    assert list(pos["position"]) == ["dealer", "non-dealer"] * 3
    assert list(pos["seat"]) == ["all", "all", "0", "0", "1", "1"]
    assert abs(pos["points_per_round"][:2].sum() - 5) < 1e-9
    assert (pos["points_per_round_lo"] < pos["points_per_round"]).all()
    assert pos["rounds"][2] + pos["rounds"][4] == s.hands and pos["rounds"][2] == pos["rounds"][5]
    # the seat rows split the totals: seat 0 dealing + seat 1 dealing = all dealing
    dealer_pts = pos["points_per_round"][2] * pos["rounds"][2] + pos["points_per_round"][4] * pos["rounds"][4]
    assert abs(dealer_pts - pos["points_per_round"][0] * s.hands) < 1e-6
    bins = s.tables["round_points"]
    assert len(bins) == 7
    assert abs(bins["dealer_share"].sum() - 1) < 1e-9 and abs(bins["nondealer_share"].sum() - 1) < 1e-9
    assert bins["dealer_rounds"].sum() == s.hands
    # a player's points x and the other's 5 - x: the bins mirror each other
    assert list(bins["dealer_rounds"]) == list(bins["nondealer_rounds"])[::-1]
    t = s.totals
    assert 0 < t["as_led_share_lo"] < t["as_led_share"] < t["as_led_share_hi"] < 1
    assert t["as_led_as_trump_share"] < t["as_led_share"]
    assert t["rounds_per_game"] > 1


def test_rule_option_target():
    assert SPEC.resolve_rules({}) == {"target": 31}
    assert SPEC.resolve_rules({"target": "50"}) == {"target": 50}
    with pytest.raises(AnalyzerError):
        SPEC.resolve_rules({"target": 0})
    with pytest.raises(AnalyzerError):
        SPEC.resolve_rules({}, players=3)
    s = api.simulate(GAME, games=300, seed=2, seats=["random", "random"], workers=1, rules={"target": 1})
    assert s.hands == 300  # one round always decides: its points sum to 5


def test_move_names():
    assert SPEC.move_name(R.AS_SPADE) == "AS:spade" and SPEC.move_name(R.AS_TRUMP) == "AS:trump"
    assert SPEC.move_name(51) == "AS" and SPEC.move_name(0) == "2C"
    assert SPEC.move_name(52).startswith("<move code")
    for name in ("AS:spade", "AS:trump", "AS", "TH"):
        assert SPEC.move_name(SPEC.move_code(name)) == name


# ---------------------------------------------------------------------------------------
# user strategies

USER_CODE = '''
from numba import njit

from analyzer.games.two_ten_jack.view import ROUND, TARGET

@njit
def first(view, legal, n, rng):
    if view[TARGET] > 1 and view[ROUND] >= 2:
        return 77
    return legal[n - 1]
'''


def test_user_strategy(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(USER_CODE)
    seat = f"{path}:first"
    # one set-up, so the user kernels compile once; the same bound kernel plays both rule sets
    s = api.setup(GAME, seats=[seat, "random"], rules={"target": 1})
    played = [records.record_game(s.spec, s.run_traced, s.rules, 1, i, s.params, s.strat, s.labels)
              for i in range(20)]
    check_records(played)
    for events in played:
        for ev in events:
            if ev["ev"] == "decide" and ev["seat"] == 0:
                assert ev["move"] == ev["legal"][-1]
    # from round 2 on (target 31) it returns 77, not a move: a one-line error naming it
    rules31 = SPEC.resolve_rules({})
    with pytest.raises(StrategyError, match=r"mine.py:first \(seat 0\) returned an illegal move '<move code 77>'"):
        records.record_game(s.spec, s.run_traced, rules31, 1, 0, SPEC.params(rules31), s.strat, s.labels)


# ---------------------------------------------------------------------------------------
# CLI


def test_cli_simulate_json(cli):
    code, out, err = cli("simulate", GAME, "--games", "300", "--seed", "1", "--workers", "1", "--json",
                         "--seat", "0=random")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == GAME and data["games"] == 300 and data["rules"] == {"target": 31}
    assert len(data["seats"]) == 2 and len(data["round_points"]) == 7 and len(data["positions"]) == 6
    assert "as_led_share" in data["totals"]


def test_cli_play_record(cli, tmp_path):
    path = tmp_path / "g.jsonl"
    code, out, err = cli("play", GAME, "--seed", "3", "--index", "2", "--games", "2", "--record", str(path))
    assert code == 0, err
    assert "Two-Ten-Jack" in out and "trick" in out
    events = [json.loads(line) for line in path.read_text().splitlines()]
    starts = [i for i, ev in enumerate(events) if ev["ev"] == "game"]
    assert len(starts) == 2 and events[0]["index"] == 2 and events[starts[1]]["index"] == 3
    check_records([events[: starts[1]], events[starts[1]:]])


@pytest.mark.parametrize("args", [
    ("simulate", GAME, "--games", "10", "--rule", "target=0"),
    ("simulate", GAME, "--games", "10", "--rule", "goal=3"),
    ("simulate", GAME, "--games", "10", "--players", "3"),
    ("play", GAME, "--seat", "0=clever"),
])
def test_cli_bad_input(cli, args):
    code, out, err = cli(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


# ---------------------------------------------------------------------------------------
# Monte Carlo (mc) and evaluation from a position

from analyzer import evaluate as EV  # noqa: E402
from analyzer.games.two_ten_jack import kernel as K  # noqa: E402
from analyzer.games.two_ten_jack.codes import cards_held, scalars  # noqa: E402
from analyzer.games.two_ten_jack.spec import check_position  # noqa: E402
from analyzer.rng import DEAL, seed_stream  # noqa: E402


def loaded(position: dict, target: int = 31):
    """A kernel bundle set to ``position`` (as spec.evaluation does) and its checked form."""
    pos = check_position(position, {"target": target}, SPEC.position_keys)
    return pos, pos.ws


def test_void_masks_with_the_ace_of_spades():
    hearts_as = mask(" ".join(r + "H" for r in RANKS) + " AS")
    spades = mask(" ".join(r + "S" for r in RANKS))  # AS included: it is a spade
    clubs = mask(" ".join(r + "C" for r in RANKS))
    # spades led: a heart shows no spade and no AS; a club shows no spade, no heart, no AS
    assert K.void_mask(R.SPADES, c("3H")) == spades
    assert K.void_mask(R.SPADES, c("3C")) == spades | hearts_as
    assert K.void_mask(R.SPADES, c("AS")) == 0  # AS follows a spade lead
    # trumps led (also AS:trump): a club shows no heart and no AS, spades stay possible
    assert K.void_mask(R.HEARTS, c("3C")) == hearts_as
    assert K.void_mask(R.HEARTS, c("4S")) == hearts_as
    assert K.void_mask(R.HEARTS, c("AS")) == 0
    # clubs led: AS or a heart shows no club only; a diamond shows no club and no trump
    assert K.void_mask(R.CLUBS, c("AS")) == clubs
    assert K.void_mask(R.CLUBS, c("5H")) == clubs
    assert K.void_mask(R.CLUBS, c("5D")) == clubs | hearts_as
    assert K.void_mask(R.CLUBS, c("5C")) == 0


SAMPLING_CASES = [
    # (played: seat 0 leads, seat 1 fails to follow; seat 0's hand after drawing; cards seat 1 showed it lacks)
    (["5C", "9D"], "2C 3D 4S 7H KD QS", "clubs hearts AS"),
    (["KS", "3C"], "2C 3D 4S 7H KD QC", "spades hearts AS"),   # AS counts as a spade (and a trump)
    (["7H", "4S"], "2C 3D 4D 8H KD QC", "hearts AS"),          # trumps led: no heart and no AS
    (["AS:trump", "4C"], "2C 3D 4S 7H KD QC", "hearts AS"),    # AS:trump led: spades stay possible
]


@pytest.mark.parametrize("played, hand, lacks", SAMPLING_CASES)
def test_resample_matches_exact_conditional_probabilities(played, hand, lacks):
    """After one trick the other seat holds 5 cards kept from the deal (none it showed it
    lacks) and 1 card drawn from the stock. The deal is uniform, so the 5 kept cards are a
    uniform 5-subset of the unseen cards it may hold (A), and the drawn card is uniform over
    the unseen cards not among them: P(c held) = 5/|A| + (1 - 5/|A|)/(|U| - 5) for c in A,
    1/(|U| - 5) otherwise."""
    pos, ws = loaded({"dealer": 1, "hand": hand, "played": played})
    assert pos.seat == 0
    seen = set(hand.split()) | {x[:2] for x in played}
    unseen = ALL_CARDS - seen
    lacking = set()
    for word in lacks.split():
        lacking |= {"AS"} if word == "AS" else {r + word[0].upper() for r in RANKS}
    allowed = unseen - lacking
    u, a = len(unseen), len(allowed)
    exact = {x: (5 / a + (1 - 5 / a) / (u - 5)) if x in allowed else 1 / (u - 5) for x in unseen}
    n = 20_000
    counts: Counter = Counter()
    work = K.workspace(np.array([31], dtype=np.int64))
    rng = np.zeros(4, dtype=np.uint64)
    stock_sizes = set()
    for i in range(n):
        K.copy_bundle(ws, work)
        seed_stream(rng, 99, i, DEAL)
        K.resample_hidden(work, 0, rng)
        held = cards(work[7][1])
        assert len(held) == 6
        assert len(set(held) - allowed) <= 1  # only the drawn card may be one it lacked
        assert not set(held) & seen
        stock = {token(x) for x in work.stock[scalars(work).top:52]}
        assert stock | set(held) == unseen and not stock & set(held)
        stock_sizes.add(len(stock))
        assert cards(work[7][0]) == sorted(hand.split())  # the seat's own hand is never touched
        counts.update(held)
    assert stock_sizes == {u - 6}
    for x in unseen:
        p = exact[x]
        assert abs(counts[x] / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9, (x, counts[x] / n, p)


def random_record(seed: int, index: int, seats=("random", "random")):
    (events,) = api.play(GAME, seed=seed, index=index, seats=list(seats))
    return events


def true_hands(events: list[dict], at: int) -> list[set]:
    """Both real hands at decision ``at`` (plain replay of the record)."""
    hands: list[set] = [set(), set()]
    n = 0
    for ev in events[1:]:
        if ev["ev"] == "deal":
            hands = [set(h) for h in ev["hands"]]
        elif ev["ev"] == "decide":
            n += 1
            if n == at:
                return hands
            hands[ev["seat"]].discard(ev["move"][:2])
        elif ev["ev"] == "trick":
            for s, x in ev["draws"]:
                hands[s].add(x)
    raise AssertionError("no such decision")


def test_stock_gone_other_hand_is_exactly_the_unseen_cards():
    events = random_record(5, 0)
    # decision 2*22 + 1: the lead of trick 23 in round 1 (the stock ran out after trick 20)
    at = 45
    position = SPEC.position_from_record(events, at)
    pos, ws = loaded(position)
    hands = true_hands(events, at)
    work = K.workspace(np.array([31], dtype=np.int64))
    rng = np.zeros(4, dtype=np.uint64)
    for i in range(50):
        K.copy_bundle(ws, work)
        seed_stream(rng, 3, i, DEAL)
        K.resample_hidden(work, pos.seat, rng)
        assert cards(work[7][1 - pos.seat]) == sorted(hands[1 - pos.seat])
        assert cards(work[7][pos.seat]) == sorted(hands[pos.seat])


def test_worlds_leave_the_stock_order_to_chance_while_the_stock_lasts():
    """evaluate calls a column without variance exact only when every play of a world can end
    one way (evaluate._Plan.exact): while the stock lasts, a world (the other hand) leaves
    the stock's order to chance."""
    from analyzer.strategies import resolve_seats, strategy_array

    events = random_record(5, 0)
    rules = SPEC.resolve_rules({}, None)
    strat, _ = strategy_array(SPEC, resolve_seats(SPEC, 2, ["heuristic", "heuristic"]))
    stock, n, seen = 0, 0, {}
    for ev in events[1:]:  # the stock left, replayed from the record: 40 at a deal, less the draws
        if ev["ev"] == "deal":
            stock = 52 - sum(len(h) for h in ev["hands"])
        elif ev["ev"] == "trick":
            stock -= len(ev["draws"])
        elif ev["ev"] == "decide":
            n += 1
            if stock <= 4 and n % 2:
                worlds = SPEC.evaluation(rules, SPEC.position_from_record(events, n), strat).worlds(10 ** 6)
                if worlds is not None:
                    assert worlds.future_fixed == (stock == 0), (n, stock)
                    seen[stock > 0] = seen.get(stock > 0, 0) + 1
    assert seen.get(True, 0) >= 2 and seen.get(False, 0) >= 10, seen


def test_position_from_record_round_trip_and_knowledge_never_excludes_the_truth():
    checked = 0
    for index, seats in ((0, ("random", "random")), (1, ("heuristic", "random")), (2, ("heuristic", "heuristic"))):
        events = random_record(11, index, seats)
        decides = [ev for ev in events if ev["ev"] == "decide"]
        for at in range(1, len(decides) + 1, 3):
            ev = decides[at - 1]
            position = SPEC.position_from_record(events, at)
            assert position["seat"] == ev["seat"]
            json.dumps(position)  # a JSON position file
            hands = true_hands(events, at)
            assert sorted(position["hand"]) == sorted(hands[ev["seat"]])
            pos = check_position(position, {"target": 31}, SPEC.position_keys)
            assert [SPEC.move_name(m) for m in pos.options] == sorted(ev["legal"], key=SPEC.move_code)
            # what the seat knows of the other hand never rules out the real one
            other = 1 - pos.seat
            assert cards_held(pos.ws, other) == len(hands[other])
            real = sum(1 << c(x) for x in hands[other])
            assert K.hidden_weight(pos.ws, other, np.int64(real)) > 0
            checked += 1
    assert checked > 100


def ref_expected(hands: list[list[str]], leader: int, lead: str | None, taken: list[int], seat: int,
                 first: str | None):
    """Exact (expected points of ``seat``, P(seat wins)) when both seats play uniformly at
    random from here to the end of the round, the stock being empty, target 1 and scores 0:0
    (the round decides the game). ``first`` is the seat's forced first move."""
    def rec(hands, leader, lead, taken, forced):
        if not hands[0] and not hands[1]:
            win = ref_end(taken, 1)
            return taken[seat], float(win == [seat])
        if lead is None:
            moves = ref_lead_moves(hands[leader])
        else:
            suit = {"AS:spade": "S", "AS:trump": "H"}.get(lead, lead[1])
            moves = ref_follow_moves(hands[1 - leader], suit)
        if forced is not None:
            moves = [forced]
        ep = ew = 0.0
        for m in moves:
            if lead is None:
                h = [list(x) for x in hands]
                h[leader].remove(m[:2])
                p, w = rec(h, leader, m, taken, None)
            else:
                h = [list(x) for x in hands]
                h[1 - leader].remove(m)
                lc = lead[:2]
                winner = ref_winner(leader, lc, m)
                t = list(taken)
                t[winner] += POINTS.get(lc, 0) + POINTS.get(m, 0)
                p, w = rec(h, winner, None, t, None)
            ep += p / len(moves)
            ew += w / len(moves)
        return ep, ew
    return rec(hands, leader, lead, taken, first)


@pytest.mark.parametrize("at", [47, 48])
def test_evaluation_agrees_with_exact_enumeration_at_the_last_tricks(at):
    from analyzer.games.two_ten_jack.spec import option_groups

    def distinct_options(events):
        position = SPEC.position_from_record(events, at)
        groups = option_groups(check_position(position, {"target": 1}, SPEC.position_keys))
        return groups is None or len(groups) >= 2

    # the first recorded game whose decision ``at`` has a choice between options that differ
    events = next(e for e in (random_record(8, i) for i in range(4, 40))
                  if len([ev for ev in e if ev["ev"] == "decide"][at - 1]["legal"]) >= 2 and distinct_options(e))
    position = SPEC.position_from_record(events, at)  # trick 24, 3 cards each (lead / follow)
    position["rules"] = {"target": 1}
    seat = position["seat"]
    hands = true_hands(events, at)
    # points taken so far, from the record
    taken = [0, 0]
    n = 0
    for ev in events[1:]:
        if ev["ev"] == "decide":
            n += 1
            if n == at:
                break
        elif ev["ev"] == "trick":
            taken[ev["winner"]] += sum(POINTS.get(x, 0) for x in ev["cards"])
    lead = position["trick"][0] if position["trick"] else None
    leader = seat if lead is None else 1 - seat
    result = EV.evaluate(GAME, position, rollout="random", samples=6000, workers=1, seed=4)
    table = result.table.set_index("option")
    assert len(table) >= 2
    for option, row in table.iterrows():
        # a row names its equivalent options: under uniform random play they are worth the same
        exact = {ref_expected([sorted(h) for h in hands], leader, lead, taken, seat, o) for o in option.split("/")}
        assert len({(round(p, 12), round(w, 12)) for p, w in exact}) == 1, (option, exact)
        ep, ew = exact.pop()
        half = (row["points_hi"] - row["points_lo"]) / 2
        assert abs(row["points"] - ep) <= 1.5 * half + 1e-9, (option, row["points"], ep, half)
        whalf = (row["win_hi"] - row["win_lo"]) / 2
        assert abs(row["win"] - ew) <= 1.5 * whalf + 1e-9, (option, row["win"], ew)


def test_evaluation_options_and_as_declarations():
    pos = check_position({"hand": "AS 2H 3C 4D 5S 9H", "seat": 0}, {"target": 31}, SPEC.position_keys)
    assert pos.seat == 0 and pos.dealer == 1 and pos.tricks == 0
    assert [SPEC.move_name(m) for m in pos.options] == ["3C", "4D", "2H", "9H", "5S", "AS:spade", "AS:trump"]
    # following AS:trump with AS: trumps must follow
    pos = check_position({"dealer": 0, "hand": "2H 3C 4D 5S 9H KS", "trick": "AS:trump"}, {"target": 31},
                         SPEC.position_keys)
    assert pos.seat == 0 and [SPEC.move_name(m) for m in pos.options] == ["2H", "9H"]
    pos = check_position({"dealer": 0, "hand": "3C 4D 5S 8C 9D KS", "trick": "AS:trump"}, {"target": 31},
                         SPEC.position_keys)
    assert len(pos.options) == 6  # no trump: anything, spades not required
    # without a dealer, it is the one that makes the given seat the one to move
    for seat in (0, 1):
        pos = check_position({"seat": seat, "hand": "3C 4D 5S 8C 9D KS", "trick": "QD"}, {"target": 31},
                             SPEC.position_keys)
        assert pos.seat == seat and pos.dealer == seat and [SPEC.move_name(m) for m in pos.options] == ["4D", "9D"]


@pytest.mark.parametrize("position, message", [
    ({"hand": "AS 2H 3C 4D 5S", "seat": 0}, "holds 6 cards"),
    ({"hand": "AS 2H 3C 4D 5S 5S"}, "duplicate card 5S"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "played": ["2H", "3D"]}, "duplicate card 2H"),
    ({"hand": "AS 2H 3C 4D 5S ZZ"}, "bad card"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "played": ["2C"]}, "whole tricks"),
    ({"hand": "2H 3C 4D 5S 9H KD", "played": ["AS", "3D"]}, "AS:spade or AS:trump"),
    ({"hand": "2H 3C 4D 5S 9H KD", "played": ["3D", "AS:trump"]}, "a follower plays plain AS"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "seat": 1, "dealer": 1}, "not to move"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "colour": "red"}, "no 'colour'"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "scores": "40,3"}, "game is over"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "scores": "1,2,3"}, "2 numbers"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "decision": "bid"}, "only play"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "seat": 2}, "seat 2 does not exist"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "dealer": "x"}, "dealer takes an integer"),
    ({"hand": "AS 2H 3C 4D 5S 9H", "played": ["AS:trump", "3H"] * 26}, "all 26 tricks"),
    ({"dealer": 1}, "give the hand"),
])
def test_bad_positions(position, message):
    with pytest.raises(AnalyzerError, match=message):
        check_position(position, {"target": 31}, SPEC.position_keys)


def test_impossible_voids_are_reported():
    # seat 1 leads 5C, seat 0 plays 9D: seat 0 showed it held no club, heart or AS; after the
    # draw it can hold at most one such card, not two clubs
    position = {"dealer": 0, "played": "5C 9D", "trick": "3S", "hand": "2C 3C 4D 5S 9S KD"}
    with pytest.raises(AnalyzerError, match="seat 0 showed voids that the hand given cannot meet: 5 of its "
                                            "cards were held when it had no clubs, hearts, AS, but only 4"):
        check_position(position, {"target": 31}, SPEC.position_keys)
    position["hand"] = "2C 3D 4D 5S 9S KD"  # one club: the card drawn
    pos = check_position(position, {"target": 31}, SPEC.position_keys)
    assert pos.seat == 0
    # the same knowledge weighs hands: 5 cards kept (no club, heart or AS) and 1 drawn
    assert K.hidden_weight(pos.ws, 0, mask("2C 3D 4D 5S 9S KD")) > 0
    assert K.hidden_weight(pos.ws, 0, mask("2C 3C 4D 5S 9S KD")) == 0
    assert K.hidden_weight(pos.ws, 0, mask("2H 3D 4D 5S 9S KD")) > 0
    assert K.hidden_weight(pos.ws, 0, mask("2H AS 4D 5S 9S KD")) == 0


def test_mc_beats_heuristic():
    s = api.simulate(GAME, games=300, seed=12, seats=["mc:k=8", "heuristic"], workers=1)
    seats = s.tables["seats"]
    assert seats.loc[0, "win_rate_lo"] > 0.5
    assert seats.loc[0, "points_per_round"] > seats.loc[1, "points_per_round"]


def test_mc_games_are_legal_and_deterministic(tmp_path):
    recs = api.play(GAME, seed=2, index=0, games=2, seats=["mc:k=4", "mc:k=4,base=random"])
    check_records(recs)
    kw = dict(games=24, seats=["mc:k=4", "random"])
    a = frame(tmp_path, "a", workers=1, chunk=24, **kw)
    b = frame(tmp_path, "b", workers=2, chunk=5, **kw)
    pd.testing.assert_frame_equal(a, b)
    (events,) = api.play(GAME, seed=21, index=7, seats=["mc:k=4", "random"])
    assert events[-1]["scores"] == [a.iloc[7]["score_0"], a.iloc[7]["score_1"]]


def test_cli_evaluate(cli, tmp_path):
    code, out, err = cli("evaluate", GAME, "--dealer", "1", "--hand", "2C 3D 4S 7H KD QS", "--played", "5C 9D",
                         "--samples", "300", "--workers", "1", "--seed", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["samples"] == 300
    assert sorted(o["option"] for o in data["options"]) == sorted(["2C", "3D", "4S", "7H", "KD", "QS"])
    assert all(-30 <= o["points"] <= 35 and 0 <= o["win"] <= 1 for o in data["options"])
    # the lead in progress makes seat 1 the one to decide: its voids rule this hand out
    code, out, err = cli("evaluate", GAME, "--dealer", "1", "--hand", "2C 3D 4S 7H KD QS", "--played", "5C 9D",
                         "--set", "trick=QD", "--samples", "300")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: impossible position: seat 1 showed voids")


# ---------------------------------------------------------------------------------------
# the view module: names and converters for strategy authors

def test_view_card_and_move_codes():
    from analyzer.cards import CardError
    from analyzer.games.two_ten_jack import view as V

    for code in range(52):
        name = token(code)
        assert V.card_code(name) == V.move_code(name) == code
        assert V.card_name(code) == V.move_name(code) == name
        assert V.suit_of(code) == "CDHS".index(name[1]) and V.rank_of(code) == "23456789TJQKA".index(name[0])
        assert V.card_of(code) == code
    for name, code in (("AS:spade", R.AS_SPADE), ("AS:trump", R.AS_TRUMP)):
        assert V.move_code(name) == code and V.move_name(code) == name and V.card_of(code) == c("AS")
    with pytest.raises(CardError):
        V.card_code("HJ")
    # points and trumps, by the rules' own card list (docs/rules.md section 4)
    points = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5, "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}
    for code in range(52):
        assert V.points_of(code) == points.get(token(code), 0)
        assert V.is_trump(code) == (token(code)[1] == "H" or token(code) == "AS")
    assert V.points_of(R.AS_TRUMP) == 1 and V.is_trump(R.AS_SPADE)
    m = V.mask_of("2H TC 6D 3S")
    assert V.count(m) == 4 and V.mask_points(m) == 5 - 5 + 1 and V.holds(m, c("3S")) and not V.holds(m, c("4S"))
