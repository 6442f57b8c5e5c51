"""Two-Ten-Jack perfect-information solver (analyzer/games/two_ten_jack/solver.py) against an
independent plain-Python brute force: full minimax without pruning or tables, with its own
reading of the rules of docs/rules.md section 4 (nothing imported from the game package)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.cards import parse_card
from analyzer.errors import AnalyzerError
from analyzer.games.two_ten_jack import solver as S

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]


# ---- the brute force: its own rules, straight from docs/rules.md ----------------------------

def points(card: str) -> int:
    """The scoring table: 2H TH JH +5; 2C TC JC -5; 2S TS JS AS +1; 6D +1."""
    if card in ("2H", "TH", "JH"):
        return 5
    if card in ("2C", "TC", "JC"):
        return -5
    if card in ("2S", "TS", "JS", "AS", "6D"):
        return 1
    return 0


def is_trump(card: str) -> bool:
    return card[1] == "H" or card == "AS"


def trump_rank(card: str) -> int:
    """AS above AH above KH ... above 2H."""
    return 13 if card == "AS" else RANKS.index(card[0])


def lead_options(hand: list[str]) -> list[str]:
    """Any card; a led AS is declared a spade or a trump."""
    out = [c for c in hand if c != "AS"]
    if "AS" in hand:
        out += ["AS:spade", "AS:trump"]
    return out


def led_suit(lead: str) -> str:
    if lead == "AS:spade":
        return "S"
    if lead == "AS:trump":
        return "H"
    return lead[1]


def card_of(move: str) -> str:
    return "AS" if move.startswith("AS:") else move


def follow_options(hand: list[str], suit: str) -> list[str]:
    """Follow the suit led (AS counts as a spade and as a trump); else trump; else anything."""
    follow = [c for c in hand if c[1] == suit or (c == "AS" and suit in "SH")]
    if follow:
        return follow
    trumps = [c for c in hand if is_trump(c)]
    return trumps or list(hand)


def follower_takes(lead: str, card: str) -> bool:
    """The highest trump wins if a trump was played; else the higher card of the suit led."""
    lc = card_of(lead)
    if is_trump(lc) or is_trump(card):
        if not is_trump(card):
            return False
        if not is_trump(lc):
            return True
        return trump_rank(card) > trump_rank(lc)
    return card[1] == lc[1] and RANKS.index(card[0]) > RANKS.index(lc[0])


def brute(hands: list[list[str]], stock: list[str], leader: int, lead: str | None) -> dict[str, int]:
    """Every legal move's value for the side to move: its future points minus the other's."""
    if lead is None:
        return {m: -best_follow(hands_without(hands, leader, card_of(m)), stock, leader, m)
                for m in lead_options(hands[leader])}
    follower = 1 - leader
    out = {}
    for c in follow_options(hands[follower], led_suit(lead)):
        h = hands_without(hands, follower, c)
        p = points(card_of(lead)) + points(c)
        winner = follower if follower_takes(lead, c) else leader
        rest = stock
        if stock:
            h[winner] = h[winner] + [stock[0]]
            h[1 - winner] = h[1 - winner] + [stock[1]]
            rest = stock[2:]
        future = best_lead(h, rest, winner)
        out[c] = p + future if winner == follower else -p - future
    return out


def hands_without(hands: list[list[str]], seat: int, card: str) -> list[list[str]]:
    h = [list(hands[0]), list(hands[1])]
    h[seat].remove(card)
    return h


def best_lead(hands, stock, leader) -> int:
    if not hands[leader]:
        return 0
    return max(brute(hands, stock, leader, None).values())


def best_follow(hands, stock, leader, lead) -> int:
    return max(brute(hands, stock, leader, lead).values())


def brute_position(pos: dict) -> dict[str, int]:
    """Move values of a solver position (its own JSON format), taken points included."""
    lead = pos["trick"][0] if pos["trick"] else None
    mover = pos["leader"] if lead is None else 1 - pos["leader"]
    taken = sum(points(c) for c in pos["taken"][mover]) - sum(points(c) for c in pos["taken"][1 - mover])
    return {m: v + taken for m, v in brute(pos["hands"], pos["stock"], pos["leader"], lead).items()}


def test_brute_force_reads_the_rules():
    assert sum(points(c) for c in DECK) == 5
    assert follower_takes("AS:spade", "AH") is False and follower_takes("AS:trump", "KS") is False
    assert follower_takes("KD", "2H") and not follower_takes("KD", "AC") and follower_takes("KD", "AD")
    assert follow_options(["AS", "3C"], "H") == ["AS"] and follow_options(["AS", "3C"], "S") == ["AS"]
    assert follow_options(["KS", "3C"], "H") == ["KS", "3C"] and follow_options(["2H", "3C"], "S") == ["2H"]


# ---- random endgames -----------------------------------------------------------------------

def random_position(rng: random.Random, size: int, stock_size: int, suits: str = SUITS) -> dict:
    """``size`` cards each (the leader one fewer when a lead is in progress), a stock, the
    other cards taken at random; the live cards drawn from ``suits`` (fewer suits: more
    following, trumping and equivalent cards)."""
    pool = [c for c in DECK if c[1] in suits]
    rng.shuffle(pool)
    live = pool[:2 * size + stock_size]
    hands = [live[:size], live[size:2 * size]]
    stock = live[2 * size:]
    leader = rng.randrange(2)
    trick: list[str] = []
    if rng.random() < 0.5:
        card = hands[leader].pop(rng.randrange(size))
        trick = [card if card != "AS" else rng.choice(["AS:spade", "AS:trump"])]
    rest = [c for c in DECK if c not in live]
    rng.shuffle(rest)
    cut = rng.randrange(len(rest) + 1)
    return {"hands": hands, "stock": stock, "leader": leader, "trick": trick, "taken": [rest[:cut], rest[cut:]]}


def merges(pos: dict) -> int:
    """How many root moves the solver merges into a lower equivalent card."""
    mover = pos["leader"] if not pos["trick"] else 1 - pos["leader"]
    hand = sum(1 << parse_card(c) for c in pos["hands"][mover])
    live = hand | sum(1 << parse_card(c) for c in pos["hands"][1 - mover] + pos["stock"])
    live |= sum(1 << parse_card(card_of(c)) for c in pos["trick"])
    reps = int(S.representatives(np.int64(hand), np.int64(hand), np.int64(live)))
    return bin(hand).count("1") - bin(reps).count("1")


SHAPES = [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (1, 2), (1, 4), (1, 6), (2, 2), (2, 4), (2, 6), (3, 2), (3, 4),
          (4, 2)]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_move_value_equals_the_brute_force(shape):
    size, stock_size = shape
    rng = random.Random(1000 * size + stock_size)
    count = 60 if size * 2 + stock_size <= 8 else 30
    merged = 0
    for _ in range(count):
        suits = rng.choice([SUITS, "HS", "CHS", "DH", "S"]) if 2 * size + stock_size <= 13 else SUITS
        pos = random_position(rng, size, stock_size, suits)
        got = S.solve_position(pos, {})
        expected = brute_position(pos)
        values = {o["option"]: o["value"] for o in got["options"]}
        assert values == expected, pos
        top = max(expected.values())
        assert sorted(got["best"]) == sorted(m for m, v in expected.items() if v == top)
        merged += merges(pos)
    assert merged > 0 or size == 1  # equivalent cards were merged at the root of some positions


def test_equivalent_cards_share_a_value():
    """QD and KD with JD played are one move; with JD live between 9D and QD they are not."""
    pos = {"hands": [["QD", "KD", "2H"], ["9D", "3C", "4S"]], "stock": [], "leader": 0, "trick": []}
    live = {c for h in pos["hands"] for c in h}
    rest = [c for c in DECK if c not in live]
    pos["taken"] = [rest[:20], rest[20:]]
    got = {o["option"]: o["value"] for o in S.solve_position(pos, {})["options"]}
    assert got == brute_position(pos) and got["QD"] == got["KD"]


# ---- positions from real records -----------------------------------------------------------

@pytest.fixture(scope="module")
def records():
    from analyzer import api

    return [g for seed in (3, 11) for g in api.play("two-ten-jack", seed=seed, index=0, games=2)]


def decisions(events):
    return [e for e in events if e["ev"] == "decide"]


def test_record_positions_match_the_brute_force(records):
    """The last decisions of every round (10 cards or fewer left in the hands, no stock):
    the solver's best value equals the brute force's, its moves are the record's legal ones."""
    checked = 0
    for events in records:
        dec = decisions(events)
        for at, e in enumerate(dec, start=1):
            pos = S.position_at(events, at)
            assert pos["seat"] == e["seat"]
            if pos["stock"] or len(pos["hands"][0]) + len(pos["hands"][1]) > 9:
                continue
            got = S.solve_position(pos, {})
            expected = brute_position(pos)
            assert sorted(o["option"] for o in got["options"]) == sorted(e["legal"])
            assert max(o["value"] for o in got["options"]) == max(expected.values())
            assert {o["option"]: o["value"] for o in got["options"]} == expected
            checked += 1
    assert checked > 60


def test_record_values_are_consistent_along_the_game(records):
    """From stock positions too big for the brute force: a move's value is what the solver
    gives the position after it (the sign following the mover)."""
    events = records[0]
    dec = decisions(events)
    checked = 0
    for at in range(1, len(dec)):
        pos = S.position_at(events, at)
        nxt = S.position_at(events, at + 1)
        if len(pos["stock"]) > 8 or (not pos["hands"][0] and not pos["hands"][1]):
            continue
        if len(nxt["stock"]) + len(nxt["hands"][0]) + len(nxt["hands"][1]) > \
                len(pos["stock"]) + len(pos["hands"][0]) + len(pos["hands"][1]):
            continue  # a new round
        got = {o["option"]: o["value"] for o in S.solve_position(pos, {})["options"]}
        after = max(o["value"] for o in S.solve_position(nxt, {})["options"])
        same = nxt["seat"] == pos["seat"]
        assert got[dec[at - 1]["move"]] == (after if same else -after)
        checked += 1
    assert checked > 20


def test_position_at_reads_the_record(records):
    events = records[0]
    first = S.position_at(events, 1)
    deal = next(e for e in events if e["ev"] == "deal")
    assert first["stock"] == deal["stock"] and first["taken"] == [[], []] and first["trick"] == []
    assert sorted(first["hands"][0]) == sorted(deal["hands"][0])
    second = S.position_at(events, 2)
    lead = decisions(events)[0]
    assert second["trick"] == [lead["move"]] and second["leader"] == lead["seat"]
    with pytest.raises(AnalyzerError):
        S.position_at(events, 0)
    with pytest.raises(AnalyzerError):
        S.position_at(events, len(decisions(events)) + 1)


# ---- refusals ------------------------------------------------------------------------------

def base_position():
    pos = {"hands": [["QD", "KD"], ["9D", "3C"]], "stock": ["2H", "5S"], "leader": 0, "trick": []}
    live = {c for h in pos["hands"] for c in h} | set(pos["stock"])
    rest = [c for c in DECK if c not in live]
    pos["taken"] = [rest[:20], rest[20:]]
    return pos


@pytest.mark.parametrize("change", [
    lambda p: p["hands"][0].append("9D"),                       # a card twice
    lambda p: p["taken"][0].pop(),                              # a card missing
    lambda p: p["stock"].pop(),                                 # odd stock (and a card missing)
    lambda p: p.update(trick=["AS"]),                           # an undeclared led AS
    lambda p: p.update(trick=["QD"]),                           # QD led and still held
    lambda p: p.update(leader=2),
    lambda p: p.update(seat=1),                                 # seat 0 leads here
    lambda p: p.update(hands=[["QD"], ["9D", "3C", "KD"]]),     # uneven hands
    lambda p: p.update(extra=1),
    lambda p: p["hands"][0].__setitem__(0, "XX"),
])
def test_malformed_positions_are_refused(change):
    pos = base_position()
    S.solve_position(pos, {})
    change(pos)
    with pytest.raises(AnalyzerError) as err:
        S.solve_position(pos, {})
    assert "\n" not in str(err.value)


def test_node_cap_stops_the_search():
    rng = random.Random(5)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [[parse_card(c) for c in deck[:6]], [parse_card(c) for c in deck[6:12]]]
    stock = np.array([parse_card(c) for c in deck[12:]], dtype=np.int64)
    table, work = S.new_table(12), S.new_work()
    work[S.W_LIMIT] = 1000
    moves, values = np.zeros(8, np.int64), np.zeros(8, np.int64)
    n, nodes = S.solve_moves(np.int64(sum(1 << c for c in hands[0])), np.int64(sum(1 << c for c in hands[1])),
                             np.int64(-1), stock, np.int64(40), np.int64(0), np.int64(0), table, work, moves,
                             values)
    assert n == -1 and nodes > 1000
