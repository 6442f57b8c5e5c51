"""The 10-Point Pitch play-phase solver (analyzer/games/pitch10/solver.py) against an
independent brute force.

The brute force below is plain Python with its own reading of docs/rules.md, section 5
(the 16 trumps A K Q J off-jack HJ LJ T 9..2, the off-jack being the jack of the other suit
of the same colour; the leader plays, then clockwise every seat that held a trump when the
trick started; the highest trump wins; the winner leads, or the next seat clockwise with a
trump; A J off-jack HJ LJ T 2 one point each, the 3 three, to the team that takes them):
full minimax, no pruning, no table, no merging of cards. Every card's value must match
exactly, on random endgames and on the late decisions of real records. Expected values
never come from the solver.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from analyzer.errors import AnalyzerError
from analyzer.games.pitch10 import solver

SUITS = "CDHS"
PARTNER_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}


# ---- the independent brute force -------------------------------------------------------------

def bf_trumps(trump: str) -> list[str]:
    """The 16 trumps, from high to low."""
    return [r + trump for r in "AKQJ"] + ["J" + PARTNER_SUIT[trump], "HJ", "LJ"] + [r + trump for r in "T98765432"]


def bf_points(card: str, trump: str) -> int:
    """A, J, off-jack, HJ, LJ, T and 2 of trump one each; the 3 three; else 0."""
    if card == "3" + trump:
        return 3
    return 1 if card in ("A" + trump, "J" + trump, "J" + PARTNER_SUIT[trump], "HJ", "LJ", "T" + trump,
                         "2" + trump) else 0


def bf_next(hands, leader, trick):
    """The seat to play next, or None when the trick is complete: the seats that held a
    trump when it started, clockwise from the leader, that have not played yet."""
    played = [s for s, _ in trick]
    for i in range(4):
        s = (leader + i) % 4
        held = bool(hands[s]) or s in played
        if held and s not in played:
            return s
    return None


def bf_value(hands, leader, trick, taken, trump):
    """The round's final points (team 0, team 1) with every seat maximising its team's."""
    seat = bf_next(hands, leader, trick)
    if seat is None:  # the trick is complete: its winner's team takes its points
        if trick:
            order = bf_trumps(trump)
            winner = min(trick, key=lambda p: order.index(p[1]))[0]
            taken = list(taken)
            taken[winner % 2] += sum(bf_points(c, trump) for _, c in trick)
            leader = winner
        nxt = [s for s in ((leader + i) % 4 for i in range(4)) if hands[s]]
        if not nxt:
            return tuple(taken)
        return bf_value(hands, nxt[0], [], taken, trump)
    best = None
    for card in hands[seat]:
        result = bf_value(bf_without(hands, seat, card), leader, trick + [(seat, card)], taken, trump)
        if best is None or result[seat % 2] > best[seat % 2]:
            best = result
    return best


def bf_without(hands, seat, card):
    """The hands with ``card`` gone from ``seat``'s."""
    return [[c for c in h if c != card] if s == seat else h for s, h in enumerate(hands)]


def bf_trick(position):
    """The trick of a solver position as (seat, card) pairs."""
    out = []
    for play in position.get("trick", []):
        if isinstance(play, str):
            seat, card = play.split(":")
            out.append((int(seat), card))
        else:
            out.append((play[0], play[1]))
    return out


def bf_solve(position):
    """{card: the points of the seat to move's team} of a solver-format position."""
    trump = position["trump"].upper()
    hands = [list(h) for h in position["hands"]]
    trick = bf_trick(position)
    taken = [t if isinstance(t, int) else sum(bf_points(c, trump) for c in t)
             for t in position.get("taken", [0, 0])]
    turn = position["turn"]
    leader = trick[0][0] if trick else turn
    assert bf_next(hands_at_start(hands, trick), leader, trick) == turn
    return {card: bf_value(bf_without(hands, turn, card), leader, trick + [(turn, card)], taken, trump)[turn % 2]
            for card in hands[turn]}


def hands_at_start(hands, trick):
    """The hands with the trick's cards given back (who held what when it started)."""
    out = [list(h) for h in hands]
    for s, c in trick:
        out[s].append(c)
    return out


def bf_size(hands) -> int:
    """A bound on the brute force's leaves: the product of the hands' factorials."""
    return math.prod(math.factorial(len(h)) for h in hands)


# ---- random endgames -------------------------------------------------------------------------

def random_endgame(rng: random.Random, limit: int = 1500) -> dict:
    """A random position: a trump suit, hands of 0..4 trumps (some seats out, the brute
    force kept small), a random leader and a few random plays of the trick in progress, the
    other trumps taken by either team or out of play, as cards or as points."""
    trump = rng.choice(SUITS)
    cards = bf_trumps(trump)
    rng.shuffle(cards)
    while True:
        sizes = [rng.choice((0, 1, 2, 2, 3, 3, 4, 4)) for _ in range(4)]
        if sum(sizes) >= 2 and math.prod(math.factorial(n) for n in sizes) <= limit:
            break
    hands, i = [], 0
    for n in sizes:
        hands.append(cards[i:i + n])
        i += n
    rest = cards[i:]
    leader = rng.choice([s for s in range(4) if hands[s]])
    alive = sum(1 for h in hands if h)
    trick = []
    for _ in range(rng.randint(0, alive - 1)):
        seat = bf_next(hands_at_start(hands, trick), leader, trick)
        card = rng.choice(hands[seat])
        hands[seat].remove(card)
        trick.append((seat, card))
    taken = [[], []]
    for card in rest:
        r = rng.random()
        if r < 0.4:
            taken[0].append(card)
        elif r < 0.8:
            taken[1].append(card)
    turn = bf_next(hands_at_start(hands, trick), leader, trick)
    form = rng.random()
    position = {"trump": trump if rng.random() < 0.8 else trump.lower(), "hands": hands, "turn": turn,
                "trick": [f"{s}:{c}" for s, c in trick] if form < 0.5 else [[s, c] for s, c in trick]}
    if form < 0.3:
        position["taken"] = [sum(bf_points(c, trump) for c in t) for t in taken]
    elif form < 0.9:
        position["taken"] = taken
    return position


def check_against_brute_force(position: dict) -> dict:
    """Solve ``position`` and assert every card's value and the best cards equal the brute
    force's; returns the solver's answer."""
    expected = bf_solve(position)
    got = solver.solve_position(position, {"target": 52})
    values = {o["option"]: o["value"] for o in got["options"]}
    assert values == expected, position
    best = max(expected.values())
    assert sorted(got["best"]) == sorted(c for c, v in expected.items() if v == best)
    assert got["nodes"] >= 1
    return got


def test_random_endgames_match_brute_force():
    """500 random endgames, a third or more inside a trick."""
    rng = random.Random(20240520)
    mid_trick = differ = 0
    for _ in range(500):
        position = random_endgame(rng)
        got = check_against_brute_force(position)
        mid_trick += bool(position["trick"])
        differ += len({o["value"] for o in got["options"]}) > 1
    assert mid_trick > 150 and differ > 100  # tricks in progress and real choices were exercised


def test_larger_endgames_match_brute_force():
    """Fewer, bigger positions (up to 4 cards in three hands)."""
    rng = random.Random(99)
    for _ in range(25):
        check_against_brute_force(random_endgame(rng, limit=14000))


def test_one_table_serves_many_positions():
    """A small reused table (collisions, replacements) gives the brute force's values."""
    from analyzer.cards import token
    from analyzer.games.pitch10.rules import CARD_AT

    rng = random.Random(7)
    tt = solver.new_table(6)
    moves = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    for _ in range(120):
        position = random_endgame(rng)
        pos = solver.parse_position(position)
        n, _ = solver.solve_moves(np.array(pos["h16"], dtype=np.int64),
                                  *(np.int64(pos[k]) for k in ("leader", "turn", "win_k", "win_seat", "trick_points",
                                                               "taken0", "taken1")), tt, moves, values)
        got = {token(int(CARD_AT[pos["trump"], moves[i]])): int(values[i]) for i in range(n)}
        assert got == bf_solve(position)


# ---- real records ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def records():
    """Four recorded games, from different strategies."""
    from analyzer import api

    games = api.play("pitch10", seed=11, index=0, games=2, seats=["heuristic", "random", "heuristic", "random"])
    games += api.play("pitch10", seed=5, index=3, games=2, seats=["random"] * 4)
    return games


def _team0(value: int, seat: int, total: int) -> int:
    """A value of ``seat``'s team in team 0's terms (the two teams take ``total``)."""
    return value if seat % 2 == 0 else total - value


def test_record_positions(records):
    """Every play decision of real records: the solver's options are the record's legal
    cards; the value of the card played equals the best value of the next decision of the
    round (in team 0's terms: the teams share the points in play); the last decision of a
    round is worth what the record says its team took; and the late decisions match the
    brute force."""
    brute = checked = 0
    for events in records:
        decisions = [ev for ev in events if ev["ev"] == "decide"]
        ends = {ev["hand"]: ev for ev in events if ev["ev"] == "hand_end"}
        results = []
        for at, ev in enumerate(decisions, start=1):
            if ev["kind"] != "play":
                continue
            position = solver.position_at(events, at)
            got = solver.solve_position(position)
            assert sorted(o["option"] for o in got["options"]) == sorted(ev["legal"])
            results.append((position, ev, {o["option"]: o["value"] for o in got["options"]}))
            if bf_size(position["hands"]) <= 1500:
                check_against_brute_force(position)
                brute += 1
        for k, (position, ev, values) in enumerate(results):
            taken = ends[position["hand"]]["taken"]
            total = sum(taken)
            mine = _team0(values[ev["move"]], ev["seat"], total)
            if k + 1 == len(results) or results[k + 1][0]["hand"] != position["hand"]:
                assert mine == taken[0]
            else:
                nxt_position, nxt_ev, nxt_values = results[k + 1]
                assert mine == _team0(max(nxt_values.values()), nxt_ev["seat"], total)
            checked += 1
    assert brute > 100 and checked > 200


def test_position_at_reads_the_record(records):
    """The first play of a record: the seat's trumps, an empty trick; then the trick."""
    events = records[0]
    decisions = [ev for ev in events if ev["ev"] == "decide"]
    first = next(i for i, ev in enumerate(decisions, start=1) if ev["kind"] == "play")
    position = solver.position_at(events, first)
    seat = decisions[first - 1]["seat"]
    assert sorted(position["hands"][seat]) == sorted(decisions[first - 1]["legal"])
    assert position["trick"] == [] and position["taken"] == [[], []] and position["turn"] == seat
    nxt = solver.position_at(events, first + 1)
    assert nxt["trick"] == [f"{seat}:{decisions[first - 1]['move']}"]
    assert {"trump", "hand", "dealer", "pitcher", "bid", "scores"} <= set(position)
    with pytest.raises(AnalyzerError, match="bid decision"):
        solver.position_at(events, 1)
    with pytest.raises(AnalyzerError, match="decision number"):
        solver.position_at(events, 0)
    with pytest.raises(AnalyzerError, match="not pitch10"):
        solver.position_at([{"ev": "game", "game": "hearts2"}], 1)


# ---- malformed positions --------------------------------------------------------------------

BASE = {"trump": "S", "hands": [["AS", "2S"], ["JS", "5S"], [], ["3S", "QS"]], "turn": 0,
        "taken": [["KS", "TS"], 3]}


def test_base_position_solves():
    """The docstring's example."""
    got = check_against_brute_force(BASE)
    assert [o["option"] for o in got["options"]] == ["2S", "AS"]


@pytest.mark.parametrize("change, message", [
    ({"turn": 4}, "turn"),
    ({"trump": "X"}, "trump"),
    ({"hands": [["AS"]]}, "four lists"),
    ({"hands": [["AS", "2H"], ["JS"], [], ["3S"]]}, "not a trump"),
    ({"hands": [["AS", "XS"], ["JS"], [], ["3S"]]}, "XS"),
    ({"hands": [["AS", "2S"], ["2S"], [], ["3S"]]}, "duplicate"),
    ({"hands": [["AS", "2S", "4S", "5S", "6S", "7S", "8S"], ["JS"], [], ["3S"]], "taken": [0, 0]}, "at most 6"),
    ({"taken": [["KS", "TS"], 5]}, "exceed"),
    ({"taken": [["KS"]]}, "taken"),
    ({"turn": 2}, "holds no trump"),
    ({"turn": 1, "trick": ["3:3S"], "hands": [["AS", "2S"], ["JS", "5S"], [], ["QS"]]}, "out of turn"),
    ({"turn": 1, "trick": ["0:2S", "1:5S"], "hands": [["AS"], ["JS"], [], ["3S", "QS"]]}, "out of turn"),
    ({"turn": 0, "trick": ["0:2S", "1:5S", "3:QS"], "hands": [["AS"], ["JS"], [], ["3S"]]}, "complete"),
    ({"trick": ["x:2S"]}, "seat"),
    ({"colour": 1}, "no 'colour'"),
    ({"hands": [[], [], [], []], "turn": 0}, "over"),
])
def test_malformed_positions_are_refused(change, message):
    """One-line AnalyzerErrors for impossible or malformed positions."""
    position = {**BASE, **change}
    with pytest.raises(AnalyzerError, match=message):
        solver.solve_position(position)


def test_value_sentence():
    """VALUE is the sentence the CLI prints."""
    assert "team" in solver.VALUE and solver.VALUE.startswith("value:")
