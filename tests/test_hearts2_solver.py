"""The two-player Hearts solver (analyzer/games/hearts2/solver.py) against an independent
brute force.

The brute force below is plain Python with its own reading of docs/rules.md, section 3
(follow suit, the first lead, hearts broken once a heart was played to an earlier trick,
the highest heart or the higher card of the suit led wins, 1 point a heart and 13 for QS,
the moon over the point cards in play): full minimax, no pruning, no table, no merging
of cards. Every legal move's value must match exactly, on random endgames and on the
late decisions of real records. Expected values never come from the solver.
"""

from __future__ import annotations

import random

import pytest

from analyzer.errors import AnalyzerError
from analyzer.games.hearts2 import solver

RANKS = "2468TQA"
ORDER = "23456789TJQKA"
DECK = [r + s for s in "CDHS" for r in RANKS]
POINT_CARDS = [c for c in DECK if c[1] == "H"] + ["QS"]


# ---- the independent brute force -------------------------------------------------------------

def bf_points(cards):
    """1 per heart, 13 for QS."""
    return sum(1 for c in cards if c[1] == "H") + (13 if "QS" in cards else 0)


def bf_first_lead(dead):
    """2C leads the first trick, 4C when 2C is dead, 6C when both are."""
    for card in ("2C", "4C", "6C"):
        if card not in dead:
            return card
    raise AssertionError("three clubs cannot be dead")


def bf_legal(hands, turn, trick, taken, dead):
    """The cards seat ``turn`` may play."""
    hand = hands[turn]
    if trick:
        same = [c for c in hand if c[1] == trick[0][1]]
        return same or list(hand)
    if not taken[0] and not taken[1]:
        first = bf_first_lead(dead)
        return [first] if first in hand else []
    broken = any(c[1] == "H" for c in taken[0] + taken[1])
    if broken:
        return list(hand)
    others = [c for c in hand if c[1] != "H"]
    return others or list(hand)


def bf_trick_winner(leader, lead, follow):
    """The highest heart in the trick wins it, else the higher card of the suit led."""
    if lead[1] == "H" or follow[1] == "H":
        if lead[1] != "H":
            return 1 - leader
        if follow[1] != "H":
            return leader
        return leader if ORDER.index(lead[0]) > ORDER.index(follow[0]) else 1 - leader
    if follow[1] == lead[1] and ORDER.index(follow[0]) > ORDER.index(lead[0]):
        return 1 - leader
    return leader


def bf_final(taken, dead):
    """Seat 1's points minus seat 0's at the end of the hand, the moon included: a seat
    that took every point card in play scores 0 and the other 20."""
    in_play = [c for c in POINT_CARDS if c not in dead]
    for s in (0, 1):
        if all(c in taken[s] for c in in_play):
            pts = [0, 0]
            pts[1 - s] = 20
            return pts[1] - pts[0]
    return bf_points(taken[1]) - bf_points(taken[0])


def bf_value(hands, turn, trick, taken, dead):
    """Minimax value in seat 0's frame (seat 0 maximises seat 1's points minus its own)."""
    if not hands[0] and not hands[1]:
        return bf_final(taken, dead)
    values = [bf_value(*bf_play(hands, turn, trick, taken, card), dead)
              for card in bf_legal(hands, turn, trick, taken, dead)]
    return max(values) if turn == 0 else min(values)


def bf_play(hands, turn, trick, taken, card):
    """(hands, turn, trick, taken) after seat ``turn`` plays ``card``."""
    hands = [list(h) for h in hands]
    hands[turn].remove(card)
    if not trick:
        return hands, 1 - turn, [card], taken
    winner = bf_trick_winner(1 - turn, trick[0], card)
    taken = [list(t) for t in taken]
    taken[winner] += [trick[0], card]
    return hands, winner, [], taken


def bf_solve(position):
    """{card: value for the seat to move} of a solver-format position."""
    hands = [list(h) for h in position["hands"]]
    taken = [list(t) for t in position.get("taken", [[], []])]
    trick = list(position.get("trick", []))
    turn = position["turn"]
    dead = position.get("dead") or [c for c in DECK if c not in hands[0] + hands[1] + trick + taken[0] + taken[1]]
    sign = 1 if turn == 0 else -1
    return {card: sign * bf_value(*bf_play(hands, turn, trick, taken, card), dead)
            for card in bf_legal(hands, turn, trick, taken, dead)}


# ---- random endgames -------------------------------------------------------------------------

def random_endgame(rng: random.Random) -> dict:
    """A random position with 2..5 cards per hand: random dead cards and hands, a random
    history (complete tricks given to random winners, sometimes all to one seat, sometimes
    no heart played yet), a lead or a follow."""
    n = rng.randint(2, 5)
    follow = rng.random() < 0.5
    cards = DECK[:]
    rng.shuffle(cards)
    dead, rest = cards[:2], cards[2:]
    nplayed = 26 - 2 * n
    if rng.random() < 0.3:  # hearts unbroken when possible: non-hearts played first
        rest.sort(key=lambda c: (c[1] == "H", rng.random()))
    played, live = rest[:nplayed], rest[nplayed:]
    rng.shuffle(live)
    leader = rng.randint(0, 1)
    hands = [[], []]
    hands[leader] = live[:n]
    hands[1 - leader] = live[n:]
    taken = [[], []]
    mode = rng.random()
    for i in range(0, len(played), 2):
        pair = played[i:i + 2]
        if mode < 0.25:
            winner = 0
        elif mode < 0.5:
            winner = 1
        elif mode < 0.7:  # every point card taken by one seat: moons in reach
            winner = 0 if bf_points(pair) or "QS" in pair else rng.randint(0, 1)
        else:
            winner = rng.randint(0, 1)
        taken[winner] += pair
    position = {"hands": hands, "turn": leader, "trick": [], "taken": taken, "dead": dead}
    if follow:
        choices = bf_legal(hands, leader, [], taken, dead)
        card = rng.choice(choices)
        hands[leader].remove(card)
        position.update(turn=1 - leader, trick=[card])
    if rng.random() < 0.3:
        del position["dead"]  # the default: the rest of the deck
    return position


def check_against_brute_force(position: dict) -> dict:
    """Solve ``position`` and assert every card's value and the best cards equal the brute
    force's; returns the solver's answer."""
    expected = bf_solve(position)
    got = solver.solve_position(position, {"target": 100})
    values = {o["option"]: o["value"] for o in got["options"]}
    assert values == expected, position
    best = max(expected.values())
    assert sorted(got["best"]) == sorted(c for c, v in expected.items() if v == best)
    assert got["nodes"] >= 1
    return got


def test_random_endgames_match_brute_force():
    rng = random.Random(20240519)
    moons = unbroken = 0
    for _ in range(400):
        position = random_endgame(rng)
        got = check_against_brute_force(position)
        moons += any(abs(o["value"]) == 20 for o in got["options"])
        unbroken += not any(c[1] == "H" for t in position["taken"] for c in t)
    assert moons > 20 and unbroken > 20  # the moon and unbroken hearts were exercised


def test_one_table_serves_many_positions_with_new_stamps():
    """A reused table (new stamp per position) gives the same values as a fresh one."""
    import numpy as np

    from analyzer.cards import token

    rng = random.Random(7)
    tt = solver.new_table(12)  # small: collisions and replacements happen
    for stamp in range(1, 80):
        position = random_endgame(rng)
        pos = solver.parse_position(position)
        moves = np.zeros(13, dtype=np.int64)
        values = np.zeros(13, dtype=np.int64)
        n, _ = solver.solve_moves(*(np.int64(pos[k]) for k in ("h0", "h1", "dead", "turn", "led", "taken0",
                                                               "taken1")), tt, np.int64(stamp), moves, values)
        got = {token(int(moves[i])): int(values[i]) for i in range(n)}
        assert got == bf_solve(position)


# ---- real records ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def records():
    """Three recorded games (26 hands), from different strategies."""
    from analyzer import api

    games = api.play("hearts2", seed=11, index=0, games=2, seats=["heuristic", "random"])
    games += api.play("hearts2", seed=5, index=3, games=1, seats=["mc:k=4", "heuristic"])
    return games


def test_record_positions(records):
    """Every decision of real records: the solver's options are the record's legal cards;
    the value of the card played equals the value of the next decision of the hand (seen
    from the same seat); the last decision of a hand is worth the recorded points; and the
    late decisions (5 cards or fewer in the deciding hand) match the brute force."""
    brute = 0
    for events in records:
        decisions = [ev for ev in events if ev["ev"] == "decide"]
        hand_ends = [ev for ev in events if ev["ev"] == "hand_end"]
        results = []
        for at in range(1, len(decisions) + 1):
            position = solver.position_at(events, at)
            got = solver.solve_position(position)
            assert sorted(o["option"] for o in got["options"]) == sorted(decisions[at - 1]["legal"])
            results.append((position, {o["option"]: o["value"] for o in got["options"]}))
            if len(position["hands"][position["turn"]]) <= 5:
                check_against_brute_force(position)
                brute += 1
        hand = 0
        for k, (position, values) in enumerate(results):
            played = decisions[k]["move"]
            seat = position["turn"]
            last = k + 1 == len(results) or results[k + 1][0]["hand"] != position["hand"]
            if last:
                points = hand_ends[hand]["points"]
                assert values[played] == points[1 - seat] - points[seat]
                hand += 1
            else:
                nxt_position, nxt_values = results[k + 1]
                sign = 1 if nxt_position["turn"] == seat else -1
                assert values[played] == sign * max(nxt_values.values())
    assert brute > 100


def test_position_at_reads_the_record(records):
    events = records[0]
    first = solver.position_at(events, 1)
    deal = next(ev for ev in events if ev["ev"] == "deal")
    assert first["hands"] == deal["hands"] and first["dead"] == deal["dead"]
    assert first["trick"] == [] and first["taken"] == [[], []] and first["hand"] == 1
    second = solver.position_at(events, 2)
    assert second["trick"] == [events[2]["move"]] and second["turn"] == events[3]["seat"]
    with pytest.raises(AnalyzerError, match="decision number"):
        solver.position_at(events, 0)
    with pytest.raises(AnalyzerError, match="not hearts2"):
        solver.position_at([{"ev": "game", "game": "pitch10"}], 1)


# ---- malformed positions --------------------------------------------------------------------

_REST = [c for c in DECK if c not in ("2H", "QS", "4H", "AS")]
BASE = {"hands": [["2H", "QS"], ["4H", "AS"]], "turn": 0, "trick": [],
        "taken": [_REST[2:14], _REST[14:24]], "dead": _REST[:2]}


@pytest.mark.parametrize("change, message", [
    ({"turn": 2}, "turn"),
    ({"hands": [["2H"]]}, "two lists"),
    ({"hands": [["2H", "QS"], ["4H", "XS"]]}, "XS"),
    ({"hands": [["2H", "QS"], ["4H", "QS"]]}, "duplicate"),
    ({"dead": ["6C", "8C"]}, "duplicate"),
    ({"hands": [["2H", "QS"], ["4H"]]}, "AS"),
    ({"trick": ["4H"], "hands": [["2H", "QS"], ["AS"]], "turn": 1}, "hands hold"),
    ({"taken": [_REST[2:13], _REST[13:24]]}, "whole tricks"),
    ({"colour": 1}, "no 'colour'"),
    ({"hands": [[], []], "taken": [_REST[2:14] + ["2H", "QS"], _REST[14:24] + ["4H", "AS"]]}, "over"),
])
def test_malformed_positions_are_refused(change, message):
    position = {**BASE, **change}
    with pytest.raises(AnalyzerError, match=message):
        solver.solve_position(position)


def test_rule_checks_of_positions():
    hands = [DECK[0:26:2], DECK[1:26:2]]  # 2C and 6C with seat 0, 4C with seat 1
    dead = DECK[26:]
    with pytest.raises(AnalyzerError, match="first lead"):
        solver.solve_position({"hands": hands, "turn": 1, "dead": dead})
    lead = {"hands": [[c for c in hands[0] if c != "6C"], hands[1]], "turn": 1, "trick": ["6C"], "dead": dead}
    with pytest.raises(AnalyzerError, match="cannot lead the first trick"):
        solver.solve_position(lead)
    # no heart played yet: 2H may not be led by a seat that held non-hearts
    others = [c for c in DECK if c[1] != "H"]
    heart_lead = {"hands": [others[19:21] + ["6H", "8H", "TH"], others[16:19] + ["4H"]], "turn": 0,
                  "trick": ["2H"], "taken": [others[:8], others[8:16]], "dead": ["QH", "AH"]}
    with pytest.raises(AnalyzerError, match="could not lead 2H"):
        solver.solve_position(heart_lead)
    heart_lead["hands"][1] = ["4H", "6H", "8H", "TH"]  # only hearts left: the lead is legal
    heart_lead["hands"][0] = others[16:21]
    assert solver.solve_position(heart_lead)["options"]
