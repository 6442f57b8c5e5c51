"""10-Point Pitch (docs/rules.md section 5): rules, invariants through records, determinism, CLI."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from analyzer import api
from analyzer.cards import parse_card, parse_cards, token
from analyzer.games.pitch10 import rules as R
from analyzer.games.pitch10 import strategies as S

# one pytest-xdist worker runs this file (pyproject's markers): the 2,500 recorded random games, shared by this file's tests
pytestmark = pytest.mark.xdist_group("pitch10")

# ---- an independent, plain-Python reading of the rules --------------------------------

SUITS = "CDHS"
OTHER_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}
BIDS = ["4", "5", "6", "7", "8", "9", "10", "moon"]
BID_VALUE = {b: i + 4 for i, b in enumerate(BIDS)}  # moon -> 11, only for ordering
DECK = [r + s for s in SUITS for r in "23456789TJQKA"] + ["LJ", "HJ"]


def trump_order(suit: str) -> list[str]:
    """The 16 trumps, high to low, as docs/rules.md lists them."""
    return ([f"A{suit}", f"K{suit}", f"Q{suit}", f"J{suit}", f"J{OTHER_SUIT[suit]}", "HJ", "LJ"]
            + [f"{r}{suit}" for r in "T98765432"])


def trump_points(suit: str) -> dict[str, int]:
    pts = {f"A{suit}": 1, f"J{suit}": 1, f"J{OTHER_SUIT[suit]}": 1, "HJ": 1, "LJ": 1, f"T{suit}": 1,
           f"2{suit}": 1, f"3{suit}": 3}
    return pts


class Referee:
    """Replays one record event by event and asserts every rule of docs/rules.md section 5."""

    def __init__(self, events: list[dict], target: int = 52, taken_variant: bool = False) -> None:
        self.events = events
        self.i = 0
        self.target = target
        self.taken_variant = taken_variant
        self.facts: Counter = Counter()

    def next(self, ev: str | None = None) -> dict:
        e = self.events[self.i]
        self.i += 1
        if ev is not None:
            assert e["ev"] == ev, (self.i, e, ev)
        return e

    def peek(self) -> dict:
        return self.events[self.i]

    def decide(self, seat: int, kind: str, legal: list[str]) -> str:
        e = self.next("decide")
        assert e["seat"] == seat and e["kind"] == kind, (e, seat, kind)
        assert len(e["legal"]) == len(set(e["legal"])), e
        assert sorted(e["legal"]) == sorted(legal), (e, legal)
        assert e["move"] in e["legal"]
        self.decisions += 1
        return e["move"]

    def run(self) -> Counter:
        head = self.next("game")
        assert head["game"] == "pitch10" and head["players"] == 4
        scores = [0, 0]
        dealer = None
        hands = 0
        self.decisions = 0
        winner = None
        while winner is None:
            deal = self.next("deal")
            hands += 1
            assert deal["hand"] == hands
            if dealer is not None:
                assert deal["dealer"] == (dealer + 1) % 4, "the deal passes left"
            dealer = deal["dealer"]
            winner = self.play_hand(deal, dealer, scores)
        end = self.next("game_end")
        assert self.i == len(self.events), "nothing after game_end"
        assert end["hands"] == hands
        assert end["scores"] == scores
        assert end["winners"] == [winner, winner + 2]
        self.facts["games"] += 1
        self.facts["hands"] += hands
        return self.facts

    def play_hand(self, deal: dict, dealer: int, scores: list[int]) -> int | None:
        f = self.facts
        assert all(len(h) == 9 for h in deal["hands"]) and len(deal["stock"]) == 18 and deal["dead"] == []
        assert sorted(sum(deal["hands"], []) + deal["stock"]) == sorted(DECK), "54 cards, each once"
        order = [(dealer + k) % 4 for k in range(1, 5)]  # from left of the dealer
        # bidding
        high, pitcher = 0, None
        for k, seat in enumerate(order):
            if k == 3 and high == 0:
                legal = ["4"]  # the stuck dealer
                f["stuck"] += 1
            else:
                legal = ["pass"] + [b for b in BIDS if BID_VALUE[b] > max(high, 3)]
            move = self.decide(seat, "bid", legal)
            if move != "pass":
                high, pitcher = BID_VALUE[move], seat
                if move == "moon":
                    f["moon_ends_bidding_early"] += k < 3
                    break
        bid = "moon" if high == 11 else str(high)
        p = self.next("pitcher")
        assert p == {"ev": "pitcher", "seat": pitcher, "bid": bid}
        suit = self.decide(pitcher, "trump", list(SUITS))
        trumps = trump_order(suit)
        strength = {c: 15 - i for i, c in enumerate(trumps)}
        points = trump_points(suit)
        # non-trumps discarded
        held = [[c for c in h if c in strength] for h in deal["hands"]]
        stock = list(deal["stock"])
        for seat in order:
            e = self.next("refill")
            need = max(0, 6 - len(held[seat]))
            n = min(need, len(stock))
            if n < need:
                f["stock_ran_out"] += 1
            assert e["seat"] == seat and e["cards"] == stock[:n], (e, stock, need)
            stock = stock[n:]
            held[seat] += [c for c in e["cards"] if c in strength]
        if stock:
            move = self.decide(pitcher, "give", ["keep", "give"])
            e = self.next("rest")
            receiver = pitcher if move == "keep" else (pitcher + 2) % 4
            f["give"] += move == "give"
            assert e["seat"] == receiver and e["cards"] == stock
            held[receiver] += [c for c in stock if c in strength]
        else:
            f["no_rest"] += 1
            assert not (self.peek()["ev"] == "decide" and self.peek()["kind"] == "give")
        lost = 0
        discarded = []
        for seat in order:
            if len(held[seat]) > 6:
                f["over_six"] += 1
            while len(held[seat]) > 6:
                card = self.decide(seat, "discard", held[seat])
                held[seat].remove(card)
                discarded.append(card)
                lost += points.get(card, 0)
        assert sorted(sum(held, []) + discarded) == sorted(trumps), "every trump held or discarded"
        assert all(len(h) <= 6 for h in held)
        # play
        taken = [0, 0]

        def first_holding(seat: int) -> int | None:
            for k in range(4):
                s = (seat + k) % 4
                if held[s]:
                    return s
            return None

        if not held[pitcher]:
            f["pitcher_without_trumps"] += 1
        leader = first_holding(pitcher)
        while leader is not None:
            plays = []
            for k in range(4):
                s = (leader + k) % 4
                if held[s]:
                    card = self.decide(s, "play", held[s])
                    held[s].remove(card)
                    plays.append([s, card])
            best = max(plays, key=lambda sc: strength[sc[1]])[0]
            e = self.next("trick")
            assert e == {"ev": "trick", "leader": leader, "plays": plays, "winner": best}, (e, plays)
            taken[best % 2] += sum(points.get(c, 0) for _, c in plays)
            if not held[best] and any(held):
                f["lead_passed"] += 1
            leader = first_holding(best)
        assert taken[0] + taken[1] + lost == 10, "10 points a round; discarded ones are nobody's"
        # scoring
        pt = pitcher % 2
        old = list(scores)
        winner = None
        if high == 11:
            if taken[pt] == 10:
                if scores[pt] > 0:
                    winner = pt
                    f["moon_made_above_0"] += 1
                else:
                    scores[pt] = 0
                    f["moon_made_at_or_below_0"] += 1
            else:
                winner = 1 - pt
                f["moon_missed"] += 1
        elif taken[pt] >= high:
            scores[pt] += taken[pt] if self.taken_variant else high
            f["made"] += 1
        else:
            scores[pt] -= high
            f["set"] += 1
        scores[1 - pt] += taken[1 - pt]
        e = self.next("hand_end")
        assert e["taken"] == taken and e["bid"] == bid and e["scores"] == scores, (e, taken, scores)
        assert e["points"] == [scores[0] - old[0], scores[1] - old[1]]
        if winner is None:
            reached = [scores[t] >= self.target for t in (0, 1)]
            if all(reached):
                f["both_past_target"] += 1
                winner = pt
            elif any(reached):
                winner = reached.index(True)
        return winner


def check_games(played: list[list[dict]], **kw) -> Counter:
    total: Counter = Counter()
    for events in played:
        total += Referee(events, **kw).run()
    return total


# ---- the rules, unit by unit -----------------------------------------------------------

def strength_of(card: str, suit: str) -> int:
    return int(R.STRENGTH[SUITS.index(suit), parse_card(card)])


@pytest.mark.parametrize("suit", list(SUITS))
def test_trump_order_off_jack_and_jokers(suit):
    order = trump_order(suit)
    ks = [strength_of(c, suit) for c in order]
    assert ks == list(range(15, -1, -1)), "A K Q J off-jack HJ LJ T..2, high to low"
    t = SUITS.index(suit)
    assert [token(int(R.CARD_AT[t, k])) for k in range(15, -1, -1)] == order
    # off-jack: the jack of the same colour; the other two jacks are no trumps
    assert strength_of("J" + OTHER_SUIT[suit], suit) == 11
    for other in SUITS:
        if other not in (suit, OTHER_SUIT[suit]):
            assert strength_of("J" + other, suit) == -1
            assert strength_of("A" + other, suit) == -1
    assert strength_of("HJ", suit) > strength_of("LJ", suit) > strength_of("T" + suit, suit)
    assert strength_of("HJ", suit) < strength_of("J" + OTHER_SUIT[suit], suit) < strength_of("J" + suit, suit)
    mask = int(R.TRUMP54[t])
    assert sorted(c for c in range(54) if mask >> c & 1) == sorted(parse_cards(order))


@pytest.mark.parametrize("suit", list(SUITS))
def test_points_are_ten_per_round(suit):
    pts = trump_points(suit)
    assert sum(pts.values()) == 10
    t = SUITS.index(suit)
    for k in range(16):
        card = token(int(R.CARD_AT[t, k]))
        assert R.POINTS16[k] == pts.get(card, 0), card
    other_king = "KH" if suit != "H" else "KS"
    h16 = R.trumps_of(np.int64(sum(1 << c for c in parse_cards(["3" + suit, "A" + suit, other_king]))), t)
    assert sum(int(R.POINTS16[k]) for k in range(16) if h16 >> k & 1) == 4


def test_trumps_of_keeps_only_trumps():
    hand = parse_cards("AS KS JC HJ 2D 7H 3S QD LJ")
    mask = np.int64(sum(1 << c for c in hand))
    h = R.trumps_of(mask, SUITS.index("S"))  # spades: AS KS JC(off) HJ LJ 3S
    assert R.popcount(h) == 6
    h = R.trumps_of(mask, SUITS.index("D"))  # diamonds: 2D QD HJ LJ
    assert R.popcount(h) == 4


def names(legal: np.ndarray, n: int) -> list[str]:
    spec = api.registry.get("pitch10")
    return [spec.move_name(int(m)) for m in legal[:n]]


def test_bid_options_once_around():
    legal = np.zeros(16, dtype=np.int64)
    n = R.bid_options(0, False, legal)
    assert names(legal, n) == ["pass", "4", "5", "6", "7", "8", "9", "10", "moon"]
    n = R.bid_options(6, False, legal)
    assert names(legal, n) == ["pass", "7", "8", "9", "10", "moon"]
    n = R.bid_options(10, False, legal)
    assert names(legal, n) == ["pass", "moon"]
    # all pass: the dealer is stuck with 4, its only move
    n = R.bid_options(0, True, legal)
    assert names(legal, n) == ["4"]


def test_refill_need_and_first_with_trumps():
    assert R.refill_need(np.int64(0b111)) == 3
    assert R.refill_need(np.int64(0)) == 6
    assert R.refill_need(np.int64(0b1111111)) == 0
    h16 = np.array([0, 0, 0b10, 0], dtype=np.int64)
    # the pitcher (0) holds no trump: the next clockwise who does leads
    assert R.first_with_trumps(0, h16) == 2
    assert R.first_with_trumps(3, h16) == 2
    assert R.first_with_trumps(2, h16) == 2
    assert R.first_with_trumps(1, np.zeros(4, dtype=np.int64)) == -1


def test_trick_ranking_off_jack_over_jokers():
    order = sorted(("3H", "LJ", "JD", "HJ", "TH"), key=lambda c: strength_of(c, "H"))
    assert order == ["3H", "TH", "LJ", "HJ", "JD"]  # the off-jack beats both jokers


def test_scoring_made_set_and_variant():
    # made: the bid; set: minus the bid; the others always score what they took
    assert R.score_round(5, 7, 3, 10, 20, False) == (15, 23, 0)
    assert R.score_round(5, 7, 3, 10, 20, True) == (17, 23, 0)
    assert R.score_round(8, 7, 3, 10, 20, False) == (2, 23, 0)
    assert R.score_round(8, 7, 3, 2, 20, True) == (-6, 23, 0)  # scores may go negative
    assert R.score_round(4, 4, 0, 0, 0, False) == (4, 0, 0)


def test_scoring_moon():
    moon = R.MOON
    assert R.score_round(moon, 10, 0, 12, 30, False) == (12, 30, 1)  # made above 0: wins, unchanged
    assert R.score_round(moon, 10, 0, 0, 30, False) == (0, 30, 0)    # made at 0: set to 0, play on
    assert R.score_round(moon, 10, 0, -17, 30, True) == (0, 30, 0)   # made below 0
    assert R.score_round(moon, 9, 1, 40, 30, False) == (40, 31, 2)   # missed: loses at once


def test_game_end_and_both_past_target():
    scores = np.array([53, 50], dtype=np.int64)
    assert R.game_winner(scores, 1, 0, 52) == 0
    assert R.game_winner(np.array([51, 50], dtype=np.int64), 0, 0, 52) == -1
    both = np.array([55, 52], dtype=np.int64)
    assert R.game_winner(both, 1, 0, 52) == 1  # both reach it: the pitcher's team wins
    assert R.game_winner(both, 0, 0, 52) == 0
    assert R.game_winner(np.array([0, 0], dtype=np.int64), 0, 1, 52) == 0  # moon made
    assert R.game_winner(np.array([90, 0], dtype=np.int64), 0, 2, 52) == 1  # moon missed


def test_scoring_from_many_scores_at_once():
    # rules.score_from (scripts/pitch10_met.py's chain) on the cases above, all in one call
    cases = [  # bid, taken by the pitcher's team, by the other, scores before -> after, winner
        (5, 7, 3, (10, 20), (15, 23), -1),
        (8, 7, 3, (2, 20), (-6, 23), -1),
        (6, 6, 4, (48, 50), (54, 54), 0),      # both reach 52: the pitcher's team goes out first
        (6, 5, 5, (48, 50), (42, 55), 1),      # set, and the others reach it
        (R.MOON, 10, 0, (12, 30), (12, 30), 0),  # made above 0: wins at once
        (R.MOON, 10, 0, (-17, 51), (0, 51), -1),  # made below 0: lifted to 0
        (R.MOON, 9, 1, (40, 30), (40, 31), 1),    # missed: loses at once
    ]
    for bid, tp, to, before, after, winner in cases:
        sp, so = np.array([before[0], 0]), np.array([before[1], 0])
        new_p, new_o, won = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)
        R.score_from(bid, tp, to, False, 52, sp, so, new_p, new_o, won)
        assert (new_p[0], new_o[0], won[0]) == (*after, winner), (bid, tp, to, before)


def test_heuristic_rules_of_thumb():
    t = SUITS.index("S")
    hand = parse_cards("AS KS QS JS JC HJ 3S 2D 7H")
    mask = np.int64(sum(1 << c for c in hand))
    suit, value = S.best_suit(mask)
    assert suit == t
    # A K Q J off-J HJ 3: 16+9+7+8+7+6+12 = 65 tenths, +20 for the partner: bids 8
    assert value == 65
    assert S.heuristic_bid(mask, 0, False, False, 20) == R.MOVE_BID0 + 8
    assert S.heuristic_bid(mask, 0, False, False, 40) == R.MOVE_BID0 + 10
    assert S.heuristic_bid(mask, 8, False, False, 20) == R.MOVE_PASS  # must bid above 8
    assert S.heuristic_bid(mask, 6, True, False, 20) == R.MOVE_BID0 + 8  # 2 above the partner's 6
    assert S.heuristic_bid(mask, 7, True, False, 20) == R.MOVE_PASS     # lets the partner's 7 stand
    assert S.heuristic_bid(mask, 0, False, False, 50) == R.MOVE_BID0 + R.MOON  # 115 tenths: moon
    assert S.heuristic_bid(mask, 0, False, True, 20) == R.MOVE_BID0 + 4  # stuck
    weak = np.int64(sum(1 << c for c in parse_cards("2C 5D 7H 9S 4C 6D 8H TS 3C")))
    assert S.heuristic_bid(weak, 0, False, False, 20) == R.MOVE_PASS
    k = {c: strength_of(c, "S") for c in ("AS", "KS", "QS", "3S", "2S", "5S", "9S", "TS")}
    h = sum(1 << k[c] for c in ("AS", "3S", "5S", "9S", "2S"))
    assert S.heuristic_discard(np.int64(h)) == k["5S"]  # lowest non-point trump
    only_points = sum(1 << k[c] for c in ("AS", "3S", "2S", "TS"))
    assert S.heuristic_discard(np.int64(only_points)) == k["2S"]
    # leading with the ace (nothing unseen is higher)
    assert S.heuristic_play(np.int64(h), np.int64(0), 0, -1, -1, 0, True) == k["AS"]
    # partner (seat 2) wins with the ace: protect the 3 by playing it
    seen = 1 << k["AS"]
    assert S.heuristic_play(np.int64(sum(1 << k[c] for c in ("3S", "5S"))), np.int64(seen), 0, k["AS"], 2, 1,
                            True) == k["3S"]
    # an opponent wins with the K, nothing to gain: throw the lowest non-point card
    assert S.heuristic_play(np.int64(sum(1 << k[c] for c in ("3S", "5S", "9S"))), np.int64(1 << k["KS"]), 0,
                            k["KS"], 1, 0, True) == k["5S"]
    assert S.heuristic_give(np.int64(0b111111), 3) == R.MOVE_GIVE
    assert S.heuristic_give(np.int64(0b11111), 3) == R.MOVE_KEEP
    assert S.heuristic_give(np.int64(0b111111), 0) == R.MOVE_KEEP


def test_rules_and_spec():
    spec = api.registry.get("pitch10")
    assert spec.resolve_rules({}) == {"target": 52, "made_bid_scores_taken": False}
    assert spec.decision_kinds == ["bid", "trump", "give", "discard", "play"]
    for code in (60, 64, 70, 71, 80, 83, 90, 91, 52, 53, 0):
        assert spec.move_code(spec.move_name(code)) == code
    with pytest.raises(Exception):
        spec.resolve_rules({}, 3)


# ---- whole games through records ------------------------------------------------------

@pytest.mark.parametrize("strategies,rules,games", [
    (["random"] * 4, {}, 1500),
    (["heuristic"] * 4, {}, 100),
    (["random", "heuristic", "random", "heuristic"], {}, 300),
    (["heuristic", "random", "heuristic", "random"], {"made_bid_scores_taken": True, "target": 21}, 300),
    (["mc:k=4", "heuristic", "mc:k=2,base=random", "random"], {"target": 21}, 6),
])
def test_playouts_follow_every_rule(strategies, rules, games):
    played = api.play("pitch10", seed=11, index=0, games=games, seats=strategies, rules=rules)
    facts = check_games(played, target=rules.get("target", 52),
                        taken_variant=rules.get("made_bid_scores_taken", False))
    assert facts["games"] == games


@pytest.fixture(scope="module")
def random_facts():
    played = api.play("pitch10", seed=3, games=2500, seats=["random"] * 4)
    return check_games(played)


def test_every_situation_occurs_under_random_play(random_facts):
    f = random_facts
    for situation in ("stuck", "moon_ends_bidding_early", "stock_ran_out", "give", "no_rest", "over_six",
                      "lead_passed", "pitcher_without_trumps", "moon_made_above_0", "moon_made_at_or_below_0",
                      "moon_missed", "made", "set"):
        assert f[situation] > 0, situation


def test_both_teams_past_target_in_one_round():
    played = api.play("pitch10", seed=5, games=400, seats=["heuristic"] * 4)
    f = check_games(played)
    assert f["both_past_target"] > 0
    for events in played:
        ends = [e for e in events if e["ev"] == "hand_end"]
        last = ends[-1]
        if all(s >= 52 for s in last["scores"]):
            assert events[-1]["winners"] == [last["pitcher"] % 2, last["pitcher"] % 2 + 2]


def test_stuck_dealer_frequency_matches_exact_probability():
    """Random bidders pass with probability 1/9 each (9 legal moves while nobody bid)."""
    played = api.play("pitch10", seed=8, games=1500, seats=["random"] * 4)
    stuck = hands = 0
    for events in played:
        for i, e in enumerate(events):
            if e["ev"] == "deal":
                hands += 1
                stuck += events[i + 4].get("legal") == ["4"]
    p = (1 / 9) ** 3
    se = (p * (1 - p) / hands) ** 0.5
    assert abs(stuck / hands - p) < 5 * se + 1e-9, (stuck, hands, p)


def test_user_strategy_illegal_move_is_reported(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("from numba import njit\n\n@njit\ndef bad(view, legal, n, rng):\n    return 999\n")
    from analyzer.errors import StrategyError

    with pytest.raises(StrategyError, match="illegal move"):
        api.play("pitch10", seed=1, seats={0: f"{path}:bad"})


def test_user_strategy_sees_its_view(tmp_path):
    path = tmp_path / "first.py"
    path.write_text(
        "from numba import njit\n\n@njit\ndef first(view, legal, n, rng):\n"
        "    if view[1] >= 3:  # discard or play: the legal cards are exactly the trumps held\n"
        "        m = 0\n"
        "        for i in range(n):\n"
        "            m |= 1 << legal[i]\n"
        "        if m != view[6]:\n"
        "            return -5\n"
        "    return legal[n - 1]\n")
    played = api.play("pitch10", seed=2, games=20, seats={0: f"{path}:first", 1: "random"})
    check_games(played)
    for events in played:
        for e in events:
            if e["ev"] == "decide" and e["seat"] == 0:
                assert e["move"] == e["legal"][-1]


# ---- determinism -------------------------------------------------------------------------

def _rows(tmp_path, name, **kw):
    path = tmp_path / f"{name}.parquet"
    api.simulate("pitch10", games=3000, seed=99, seats={0: "random", 3: "random"}, out=str(path), **kw)
    import pandas as pd

    return pd.read_parquet(path)


def test_same_games_whatever_the_chunking_and_threads(tmp_path):
    a = _rows(tmp_path, "a", workers=1, chunk=3000)
    b = _rows(tmp_path, "b", workers=2, chunk=257)
    c = _rows(tmp_path, "c", workers=2)
    assert a.equals(b) and a.equals(c)
    assert list(a["index"]) == list(range(3000))


def test_play_is_the_same_game_as_simulate(tmp_path):
    rows = _rows(tmp_path, "d", workers=2)
    for index in (0, 17, 2999):
        [events] = api.play("pitch10", seed=99, index=index, seats={0: "random", 3: "random"})
        end = events[-1]
        row = rows.iloc[index]
        assert row["winners"] == ";".join(map(str, end["winners"]))
        assert row["hands"] == end["hands"]
        assert row["decisions"] == sum(e["ev"] == "decide" for e in events)
        assert [row[f"score_{s}"] for s in range(4)] == [end["scores"][s % 2] for s in range(4)]
        taken = [sum(e["taken"][t] for e in events if e["ev"] == "hand_end") for t in (0, 1)]
        assert [row["taken_0"], row["taken_1"]] == taken


def test_summary_tables_add_up():
    summary = api.simulate("pitch10", games=2000, seed=4, seats={1: "random", 3: "random"}, workers=1)
    seats = summary.tables["seats"]
    assert list(seats["wins"]) == [seats["wins"][0], seats["wins"][1]] * 2  # partners win together
    assert seats["wins"][0] + seats["wins"][1] == 2000
    teams = summary.tables["teams"]
    assert list(teams["wins"]) == [seats["wins"][0], seats["wins"][1]]
    bids = summary.tables["bids"]
    assert bids["hands"].sum() == summary.hands  # one winning bid per hand
    assert (bids["made"] <= bids["hands"]).all()
    assert list(bids["bid"]) == ["4", "5", "6", "7", "8", "9", "10", "moon"]
    assert summary.totals["moon_attempts"] == bids["hands"].iloc[-1]
    t = teams["taken_per_hand"].sum() + summary.totals["lost_points_per_hand"]
    assert abs(t - 10) < 1e-9
    assert teams["win_rate"].iloc[0] > teams["win_rate"].iloc[1]  # heuristic beats random


# ---- CLI -----------------------------------------------------------------------------------

def test_cli_simulate_json(cli):
    code, out, err = cli("simulate", "pitch10", "--games", "200", "--seed", "1", "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "pitch10" and data["games"] == 200
    assert {"seats", "teams", "bids"} <= set(data)
    assert "moon_success" in data["totals"]


def test_cli_play_record(cli, tmp_path):
    path = tmp_path / "g.jsonl"
    code, out, err = cli("play", "pitch10", "--seed", "7", "--index", "2", "--record", str(path),
                         "--seat", "0=random")
    assert code == 0, err
    events = [json.loads(line) for line in path.read_text().splitlines()]
    assert events[0]["ev"] == "game" and events[0]["index"] == 2
    check_games([events])
    assert "pitcher" in out


@pytest.mark.parametrize("args", [
    ("simulate", "pitch10", "--players", "3", "--games", "5"),
    ("simulate", "pitch10", "--rule", "target=0", "--games", "5"),
    ("simulate", "pitch10", "--rule", "trumps=2", "--games", "5"),
    ("play", "pitch10", "--seat", "4=random"),
])
def test_cli_bad_input(cli, args):
    code, out, err = cli(*args)
    assert code == 2
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_heuristic_partner_parameter_bids_bolder():
    timid = api.simulate("pitch10", games=300, seed=6, seats=["heuristic:partner=10"] * 4, workers=1)
    bold = api.simulate("pitch10", games=300, seed=6, seats=["heuristic:partner=45"] * 4, workers=1)

    def mean_bid(summary):
        bids = summary.tables["bids"]
        levels = [4, 5, 6, 7, 8, 9, 10, 11]
        return sum(level * h for level, h in zip(levels, bids["hands"])) / bids["hands"].sum()

    assert mean_bid(bold) > mean_bid(timid) + 1
    assert bold.tables["bids"]["make_rate"].iloc[:4].mean() < 1.0


# ---- Monte Carlo sampling, evaluation from a position, mc -------------------------------------

def _kernel_state(position, rules=None):
    from analyzer.games import get
    from analyzer.games.pitch10 import spec as P

    spec = get("pitch10")
    rules = spec.resolve_rules(rules or {})
    pos = P.load_position(rules, position, spec.params(rules))
    return pos, pos.ws


def _samples(position, n, seed=5):
    """``n`` draws of the hidden cards as the kernel samples them: the other seats' trumps
    (card tokens) and, in a give decision, the trumps left in the stock."""
    from analyzer.games.pitch10 import kernel as K
    from analyzer.games.pitch10.spec import register

    pos, base = _kernel_state(position)
    ws = K.workspace(np.zeros(2, dtype=np.int64))
    fw = K.sampler_weights()
    rng = np.zeros(4, dtype=np.uint64)
    out = []
    for j in range(n):
        K.copy_bundle(base, ws)
        K.seed_stream(rng, np.uint64(seed), j, 0)
        assert K.resample_hidden(ws, fw, pos.seat, rng)
        if register(ws, "PHASE") <= K.PH_TRUMP:
            held = [{token(c) for c in range(54) if ws.h54[s] >> c & 1} for s in range(4)]
            stock = {token(c) for c in ws.deck[36:54]}
        else:
            t = register(ws, "TRUMP")
            held = [{token(R.CARD_AT[t, k]) for k in range(16) if ws.h16[s] >> k & 1} for s in range(4)]
            stock = {token(c) for c in ws.deck[register(ws, "TOP"):54] if R.STRENGTH[t, c] >= 0}
        out.append((held, stock))
    return pos, out


def test_sampling_before_trump_is_uniform_over_the_unseen_cards():
    hand = "AS KS QS JS 3S 2H 5D 7C 9C"
    pos, draws = _samples({"seat": 2, "dealer": 0, "hand": hand, "bids": ["5"]}, 6000)
    mine = set(hand.split())
    n = len(draws)
    for held, stock in draws[:50]:
        assert held[2] == mine and len(stock) == 18
        everything = set().union(*held) | stock
        assert len(everything) == 54 and all(len(h) == 9 for h in held)
    for card in ("HJ", "AH", "2C"):  # exact: 9 of the 45 unseen cards in each other hand, 18 in the stock
        for s in (0, 1, 3):
            freq = sum(card in h[s] for h, _ in draws) / n
            assert abs(freq - 9 / 45) < 4 * (0.2 * 0.8 / n) ** 0.5
        freq = sum(card in st for _, st in draws) / n
        assert abs(freq - 18 / 45) < 4 * (0.4 * 0.6 / n) ** 0.5


GIVE = {"seat": 0, "dealer": 3, "hand": "AS KS 3S 2H 5D 7C 9C TD 4H", "bids": ["6", "pass", "pass", "pass"],
        "trump": "S", "received": [3, 3, 4, 2], "refill": "QS 8H 6D"}


def test_sampling_after_the_refill_matches_rejection_from_uniform_deals():
    """Give decision: the kernel's exact sampler against plain rejection sampling of whole
    deals (uniform deals kept when every refill count comes out as seen)."""
    pos, draws = _samples(GIVE, 20000)
    trumps = set(trump_order("S"))
    mine = set(GIVE["hand"].split()) | set(GIVE["refill"].split())
    unseen = [c for c in DECK if c not in mine]
    gen = np.random.default_rng(7)
    is_trump = np.array([c in trumps for c in unseen])
    assert len(unseen) == 42 and is_trump.sum() == 12
    ks, gs, rests = [], [], []
    for _ in range(6):  # 600,000 uniform deals of the 42 unseen cards, in chunks
        tp = is_trump[np.argsort(gen.random((100_000, 42)), axis=1)]
        # seats 1, 2, 3 take [0:9], [9:18], [18:27]; the stock follows in refill order (seat 0's
        # refill is known and not among them): seat 1 (3 cards), seat 2 (4), seat 3 (2), the rest (6)
        k = np.stack([tp[:, 9 * i:9 * i + 9].sum(axis=1) for i in range(3)])
        ok = (k[0] == 3) & (k[1] == 2) & (k[2] == 4)  # need 3, 4, 2 (the stock never runs out)
        g = np.stack([tp[:, 27:30].sum(axis=1), tp[:, 30:34].sum(axis=1), tp[:, 34:36].sum(axis=1)])
        ks.append(k[:, ok])
        gs.append(g[:, ok])
        rests.append(tp[ok, 36:42].sum(axis=1))
    k, g, rest = np.concatenate(ks, axis=1), np.concatenate(gs, axis=1), np.concatenate(rests)
    ok = np.ones(k.shape[1], dtype=bool)
    acc = ok.sum()
    assert acc > 5000
    n = len(draws)
    for i, s in enumerate((1, 2, 3)):
        exact = (k[i] + g[i])[ok]
        got = np.array([len(h[s]) for h, _ in draws])
        for t in range(0, 8):
            p1, p2 = (exact == t).mean(), (got == t).mean()
            se = (p1 * (1 - p1) / acc + p2 * (1 - p2) / n) ** 0.5
            assert abs(p1 - p2) < 4 * se + 1e-3, (s, t, p1, p2)
        # each unseen trump equally likely in any given place: P(card in seat s) = E[count] / 12
        card_freq = sum("JC" in h[s] for h, _ in draws) / n
        assert abs(card_freq - exact.mean() / 12) < 0.02
    exact_rest = rest[ok]
    got_rest = np.array([len(st) for _, st in draws])
    assert abs(exact_rest.mean() - got_rest.mean()) < 4 * (exact_rest.std() ** 2 / acc + got_rest.std() ** 2 / n) ** 0.5
    for held, stock in draws[:200]:
        assert held[0] == {c for c in mine if c in trumps}
        located = [c for h in held for c in h] + list(stock)
        assert len(located) == len(set(located)) == 16


# Play: seats 2 and 3 have dropped out, seat 1 holds exactly one trump (the JS, the only
# trump nobody has seen): every option of seat 0 has a forced outcome.
ENDGAME = {"seat": 0, "dealer": 3, "hand": "AS KS QS 3S 2S TS 2H 3H 4H", "bids": ["7", "pass", "pass", "pass"],
           "trump": "S", "received": [0, 5, 5, 5], "rest_to": 0, "rest": "5H 6H 7H",
           "played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:JC", "out": [2, 3]}


def test_sampling_in_play_respects_plays_and_players_out():
    pos, draws = _samples(ENDGAME, 200)
    for held, _ in draws:
        assert held[0] == {"AS", "QS", "3S"} and held[1] == {"JS"} and not held[2] and not held[3]
    # one trick earlier (seat 0 leads the third trick): unseen JS LJ HJ JC; the seats each
    # hold 1 + g trumps (k = 1 with 5 refill cards, g = 0..5, 10 trumps among them)
    mid = dict(ENDGAME, played="0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S", out=[])
    pos, draws = _samples(mid, 20000)
    from itertools import product
    from math import comb

    weights = {}
    # exact: others' trumps t_s = 1 + g_s with sum 10 (C(9,1) C(5,g) deals each); at least 3 (2 played + 1
    # still held since all play the third trick); the two trumps each seat played are known cards, which a
    # seat of t trumps holds in a share C(t, 2) of the ways to choose its trumps
    for g in product(range(6), repeat=3):
        t = [1 + x for x in g]
        if sum(t) == 10 and all(x >= 3 for x in t):
            weights[tuple(t)] = np.prod([9 * comb(5, x) * comb(1 + x, 2) for x in g])
    total = sum(weights.values())
    held = {s: sum(w * (min(t[i], 6) - 2) for t, w in weights.items()) / total for i, s in enumerate((1, 2, 3))}
    n = len(draws)
    for s in (1, 2, 3):
        got = np.mean([len(h[s]) for h, _ in draws])
        assert abs(got - held[s]) < 0.03, (s, got, held[s])
        # 4 unseen trumps dealt at random to the counts (no discards possible here: t <= 6)
        freq = sum("JS" in h[s] for h, _ in draws) / n
        assert abs(freq - held[s] / 4) < 0.02


def _endgame_outcome(lead: str) -> int:
    """Independent: seat 0 leads ``lead``, seat 1 must play JS, then seat 0 plays alone."""
    order = trump_order("S")
    pts = trump_points("S")
    taken = [1 + 3, 1]  # trick 1: 2S to team 1 (6S wins); trick 2: TS to team 0; trick 3: LJ HJ JC to team 0
    winner = 0 if order.index(lead) < order.index("JS") else 1
    taken[winner] += pts.get(lead, 0) + pts["JS"]
    taken[0] += sum(pts.get(c, 0) for c in ("AS", "QS", "3S") if c != lead)
    return int(taken[0] >= 7)


def test_evaluation_of_a_forced_endgame_is_exact():
    from analyzer.evaluate import evaluate

    result = evaluate("pitch10", ENDGAME, samples=300, seed=3, workers=1)
    table = result.table.set_index("option")
    assert set(table.index) == {"AS", "QS", "3S"}
    for lead in ("AS", "QS", "3S"):
        expected = _endgame_outcome(lead)
        assert table.loc[lead, "made_bid"] == expected
        assert table.loc[lead, "made_bid_lo"] - 1e-9 <= expected <= table.loc[lead, "made_bid_hi"] + 1e-9
    assert [_endgame_outcome(c) for c in ("AS", "QS", "3S")] == [1, 1, 0]


def test_position_from_record_round_trip(tmp_path):
    """Every decision of recorded games, seen from the deciding seat: the position checks,
    is the same kind of decision and has the recorded legal moves."""
    from analyzer.games import get

    spec = get("pitch10")
    rules = spec.resolve_rules({})
    strat = np.array([[1, 25, 0, 0]] * 4, dtype=np.int64)
    kinds = Counter()
    for index in range(12):
        [events] = api.play("pitch10", seed=21, index=index, seats=["heuristic", "random", "heuristic", "random"])
        decisions = [e for e in events if e["ev"] == "decide"]
        for at in range(1, len(decisions) + 1):
            rec = decisions[at - 1]
            if index and (at % 5 and rec["kind"] in ("bid", "play")):
                continue
            pos = spec.position_from_record(events, at)
            json.dumps(pos)
            ev = spec.evaluation(rules, pos, strat)
            assert pos["decision"] == rec["kind"] and ev.seat == rec["seat"]
            assert sorted(ev.names) == sorted(rec["legal"]), (at, pos, rec)
            if rec["kind"] == "play":
                _check_replayed_play_state(spec, rules, pos, events, at)
            kinds[rec["kind"]] += 1
        if index >= 2 and len(kinds) == 5:
            break
    assert set(kinds) == {"bid", "trump", "give", "discard", "play"}, kinds


def _check_replayed_play_state(spec, rules, pos, events, at):
    """The engine's replay of a play position against the record read independently: the
    points each team took in the completed tricks of the hand (trump_points), the trumps
    seen, the cards on the table and who led the current trick."""
    from analyzer.games.pitch10 import spec as P

    state = P.load_position(rules, pos, spec.params(rules)).ws
    decisions = [i for i, e in enumerate(events) if e["ev"] == "decide"]
    stop = decisions[at - 1]
    start = max(i for i in range(stop) if events[i]["ev"] == "deal")
    points = trump_points(pos["trump"])
    taken, seen = [0, 0], set()
    for e in events[start:stop]:
        if e["ev"] == "trick":
            taken[e["winner"] % 2] += sum(points.get(c, 0) for _, c in e["plays"])
        if e["ev"] == "decide" and e["kind"] == "play":
            seen.add(e["move"])
    assert list(state.taken) == taken
    assert {token(c) for c in range(54) if R.STRENGTH[SUITS.index(pos["trump"]), c] >= 0
            and P.register(state, "SEEN") >> R.STRENGTH[SUITS.index(pos["trump"]), c] & 1} == seen
    table = {int(s): token(int(c)) for s, c in enumerate(state.trick) if c >= 0}
    current = [p.split(":") for p in pos.get("trick", [])]
    assert table == {int(s): c for s, c in current}
    leader = next(e for e in events[stop:] if e["ev"] == "trick")["leader"]
    assert P.register(state, "LEADER") == leader


# a discard decision: seat 0 (the pitcher) holds seven trumps and is dealt nothing; the others
# are dealt six each, so nothing is left for the rest
DISCARD = {"seat": 0, "dealer": 3, "hand": "AS KS QS JS TS 9S 8S 2H 3H", "bids": ["7", "pass", "pass", "pass"],
           "trump": "S", "received": [0, 6, 6, 6]}


def test_a_discard_position_is_replayed_to_the_discard_decision():
    from analyzer.games import get

    spec = get("pitch10")
    rules = spec.resolve_rules({})
    ev = spec.evaluation(rules, DISCARD, np.array([[1, 25, 0, 0]] * 4, dtype=np.int64))
    assert ev.seat == 0 and sorted(ev.names) == sorted("AS KS QS JS TS 9S 8S".split())
    ev = spec.evaluation(rules, {**DISCARD, "discarded": ["8S"]}, np.array([[1, 25, 0, 0]] * 4, dtype=np.int64))
    assert "play decision" in ev.description and sorted(ev.names) == sorted("AS KS QS JS TS 9S".split())


@pytest.mark.parametrize("position,message", [
    ({**DISCARD, "discarded": ["2H"]}, "discards only trumps it holds, not 2H"),
    ({**DISCARD, "discarded": ["8S", "9S"]}, "discards down to exactly 6 trumps, not 5"),
    ({**DISCARD, "played": "0:AS"}, "holds 7 trumps: it discards down to 6 before any play"),
    ({**DISCARD, "rest_to": 0}, "no card was left after the refill: there is no rest_to"),
    ({**ENDGAME, "played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:JS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:JC"},
     "seat 0 played JS, a card it did not hold"),
    ({**ENDGAME, "played": "0:2S 1:4S 2:5S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:JC"},
     "trick 1 is not complete: seat 3"),
    ({**ENDGAME, "trick": "0:AS 1:JS"}, "the current trick is complete"),
    ({**ENDGAME, "out": [0, 2, 3]}, "seat 0 holds trumps: it is not out"),
    ({**ENDGAME, "rest_to": 2}, "seat 0 did not get the rest"),
    ({"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C", "bids": ["moon", "pass"]},
     "too many bids: the bidding ended after 1"),
    ({"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C", "bids": ["6"], "trump": "S",
      "received": [0, 0, 0, 0]}, "the bidding is not over"),
    ({"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C", "bids": ["6", "pass", "pass", "pass"],
      "received": [1, 1, 1, 1]}, "trump is not named yet"),
])
def test_the_engine_refuses_impossible_histories(position, message):
    from analyzer.errors import AnalyzerError
    from analyzer.games import get

    spec = get("pitch10")
    with pytest.raises(AnalyzerError, match=message):
        spec.evaluation(spec.resolve_rules({}), position, np.array([[1, 25, 0, 0]] * 4, dtype=np.int64))


def test_out_listed_for_a_seat_that_plays_in_the_current_trick():
    from analyzer.errors import AnalyzerError
    from analyzer.games import get

    # seat 1 defends; seat 0 led the JS to the second trick, so it cannot have been out
    defend = {"seat": 1, "dealer": 3, "hand": "KS QS 5S 3S 2H 3H 4H 5H 6H", "bids": ["7", "pass", "pass", "pass"],
              "trump": "S", "received": [0, 2, 4, 5], "refill": "7D 8D", "rest_to": 0,
              "played": "0:AS 1:5S 2:2S 3:6S", "trick": "0:JS"}
    spec = get("pitch10")
    rules = spec.resolve_rules({})
    strat = np.array([[1, 25, 0, 0]] * 4)
    assert spec.evaluation(rules, {**defend, "out": [3]}, strat).seat == 1
    with pytest.raises(AnalyzerError, match="out: seat 0 plays in the current trick"):
        spec.evaluation(rules, {**defend, "out": [0, 3]}, strat)


@pytest.mark.parametrize("change,message", [
    ({"hand": "AS KS QS"}, "9 cards"),
    ({"hand": "AS AS QS JS 3S 2H 5D 7C 9C"}, "duplicate"),
    ({"hand": "AS XX QS JS 3S 2H 5D 7C 9C"}, "bad card"),
    ({"bids": ["5", "4"]}, "not above"),
    ({"seat": 3}, "bids next"),
    ({"bids": ["pass", "pass", "pass", "pass"]}, "dealer must bid 4"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "X", "received": [0, 0, 0, 0]}, "trump is C, D, H or S"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S"}, "received"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S", "received": [3, 3, 3, 3], "refill": "QS"}, "refill lists"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S", "received": [3, 2, 3, 3], "refill": "TS 4D"},
     "holds 5 trumps in its hand: it is dealt 1 in the refill, not 2"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S", "received": [3, 1, 3, 3], "refill": "AS"},
     "duplicate card AS"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S", "received": [3, 1, 7, 3], "refill": "TS"},
     "cannot be dealt 7"),
    ({"bids": ["6", "pass", "pass", "pass"], "trump": "S", "received": [3, 1, 3, 3], "refill": "TS",
      "decision": "play"}, "give decision, not play"),
    ({"scores": [60, 0]}, "target"),
    ({"nonsense": 1}, "no 'nonsense'"),
    ({"players": 3}, "exactly 4"),
])
def test_bad_positions_give_clear_errors(change, message):
    from analyzer.errors import AnalyzerError
    from analyzer.games import get

    spec = get("pitch10")
    rules = spec.resolve_rules({})
    strat = np.array([[1, 25, 0, 0]] * 4, dtype=np.int64)
    position = {"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C", **change}
    with pytest.raises(AnalyzerError, match=message):
        spec.evaluation(rules, position, strat)


@pytest.mark.parametrize("change,message", [
    ({"played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:AS"}, "a card of seat 0"),
    ({"played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:2H"}, "not a trump"),
    ({"played": "0:2S 1:4S 2:5S 3:6S | 0:TS 3:7S"}, "do not play in turn"),
    ({"out": [1, 2, 3]}, "no deal of the hidden cards"),
    ({"out": []}, "no deal of the hidden cards"),
    ({"rest": "5H 6H"}, "rest lists"),
    ({"rest_to": 1}, "pitcher"),
    ({"decision": "bid"}, "play decision, not bid"),
])
def test_bad_play_positions(change, message):
    from analyzer.errors import AnalyzerError
    from analyzer.games import get

    spec = get("pitch10")
    strat = np.array([[1, 25, 0, 0]] * 4, dtype=np.int64)
    with pytest.raises(AnalyzerError, match=message):
        spec.evaluation(spec.resolve_rules({}), {**ENDGAME, **change}, strat)


def test_bid_table_adds_up_and_is_fast():
    import time

    from analyzer.games import get

    spec = get("pitch10")
    rules = spec.resolve_rules({})
    strat = np.array([[1, 25, 0, 0]] * 4, dtype=np.int64)
    position = {"seat": 1, "dealer": 0, "hand": "AS KS QS JS 3S 2H 5D 7C 9C", "scores": [10, 20]}
    spec.bid_table(rules, position, strat, 10, 1, 1)
    started = time.perf_counter()
    tables = spec.bid_table(rules, position, strat, 10_000, 1, 1)
    assert time.perf_counter() - started < 60
    points, table = tables["bid_points"].set_index("trump"), tables["bid_table"]
    for suit in "CDHS":
        p = points.loc[suit, [f"p_{k}" for k in range(11)]].to_numpy()
        assert abs(p.sum() - 1) < 1e-9
        rows = table[table["trump"] == suit].set_index("bid")
        for b in range(4, 11):
            make = rows.loc[str(b), "make"]
            assert make == pytest.approx(p[b:].sum())
            assert rows.loc[str(b), "score_change"] == pytest.approx(make * b - (1 - make) * b)
            assert rows.loc[str(b), "make_hi"] - rows.loc[str(b), "make_lo"] < 0.02  # +-1%
        assert rows.loc["moon", "make"] == pytest.approx(p[10])
        # moon: a team above 0 that makes it wins (+target), a miss loses (-target)
        assert rows.loc["moon", "score_change"] == pytest.approx(p[10] * 52 - (1 - p[10]) * 52)
    # the seat holds A K Q J 3 of spades: spades is by far its best suit
    assert points["mean_points"].idxmax() == "S"
    assert table.loc[table["best"], "trump"].item() == "S"
    # same seed, same table; bids of the position do not matter
    again = spec.bid_table(rules, {**position, "bids": ["pass"]}, strat, 10_000, 1, 1)
    assert again["bid_table"].equals(table)


def test_mc_beats_heuristic():
    summary = api.simulate("pitch10", games=150, seed=4, seats=["mc:k=32", "heuristic", "mc:k=32", "heuristic"],
                           rules={"target": 21}, workers=2)
    teams = summary.tables["teams"]
    assert teams.loc[0, "win_rate_lo"] > 0.5, teams


def test_mc_games_are_the_same_whatever_the_chunking_and_threads(tmp_path):
    import pandas as pd

    seats = ["mc:k=4", "heuristic", "mc:k=2,base=random", "random"]
    api.simulate("pitch10", games=40, seed=3, seats=seats, workers=1, chunk=7, out=str(tmp_path / "a.csv"))
    api.simulate("pitch10", games=40, seed=3, seats=seats, workers=2, chunk=40, out=str(tmp_path / "b.csv"))
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    assert a.equals(b) and len(a) == 40
    [events] = api.play("pitch10", seed=3, index=17, seats=seats)
    assert a.iloc[17]["hands"] == events[-1]["hands"]
    assert a.iloc[17]["decisions"] == sum(e["ev"] == "decide" for e in events)


def test_the_stuck_dealers_forced_bid_is_answered_with_inference_on():
    # after three passes the dealer must bid 4: a forced move, answered without samples; the
    # bids were read first, and no deal of 20,000 fitted three heuristic passes here
    stuck = {"seat": 3, "dealer": 3, "hand": "KC 3D 4D 9D 4H 6H JH AH JS", "bids": ["pass", "pass", "pass"]}
    result = api.evaluate("pitch10", stuck, samples=200, infer=True, seed=1)
    assert result.stopped == "forced" and result.samples == 0
    assert list(result.table["option"]) == ["4"]


def test_the_bids_make_rate_is_clustered_by_game_as_every_other_share(tmp_path):
    """A bid level's make rate took the hands of all games as independent draws (a plain
    Wilson interval on the counts); the hands of one game are not, and every other share
    of the summary is clustered by game. Its interval is now the clustered one, computed
    here from the per-game rows; one game gives none."""
    import pandas as pd

    from analyzer.stats import ratio_share_interval

    out = tmp_path / "rows.csv"
    summary = api.simulate("pitch10", games=400, seed=2, workers=1, out=str(out))
    rows = pd.read_csv(out)
    bids = summary.tables["bids"].set_index("bid")
    for level in ("5", "6"):
        made, bid = rows[f"made_{level}"].to_numpy(float), rows[f"bids_{level}"].to_numpy(float)
        expected = ratio_share_interval(made.sum(), bid.sum(), (made ** 2).sum(), (bid ** 2).sum(),
                                        (made * bid).sum(), len(rows))
        got = tuple(bids.loc[level, ["make_rate", "make_rate_lo", "make_rate_hi"]])
        assert got == pytest.approx(expected, rel=1e-12)
    one = api.simulate("pitch10", games=1, seed=2, workers=1).tables["bids"]
    assert one["make_rate_lo"].isna().all()
