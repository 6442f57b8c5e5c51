"""Two-player Hearts: evaluate's enumerated worlds and its exact values against an
independent plain-Python brute force written here from docs/rules.md section 3.

The brute force tries every pair of dead cards among the cards the seat cannot see (the
opponent then holds the rest, plus what it played), replays the hand's history with the
rules restated below (the first lead by the holder of the lowest live 2C/4C/6C, following
suit, no heart led before one was played to an earlier trick unless the leader holds only
hearts) and keeps the pairs under which every play was legal. The existing test in
test_evaluate.py takes the forced dead cards from the code under test; this one does not.
Then evaluate, with a deterministic rollout (``first_legal``: the lowest card code), must
give per option exactly the mean of the hand's points over those worlds, the play-out
computed here too.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from analyzer import api
from analyzer.evaluate import evaluate
from analyzer.games import get

SPEC = get("hearts2")
RANKS = "23456789TJQKA"
DECK = [r + s for s in "CDHS" for r in "2468TQA"]
FIRST_LEADS = ("2C", "4C", "6C")
FIRST_LEGAL = str(Path(__file__).parent / "data" / "strategies.py") + ":first_legal"


def code(card: str) -> int:
    return "CDHS".index(card[1]) * 13 + RANKS.index(card[0])


def points(card: str) -> int:
    return 13 if card == "QS" else int(card[1] == "H")


def legal(hand, trick_no: int, led, broken: bool, first: str) -> list[str]:
    if led is not None:
        return [c for c in hand if c[1] == led[1]] or list(hand)
    if trick_no == 0:
        return [first] if first in hand else []
    if broken:
        return list(hand)
    return [c for c in hand if c[1] != "H"] or list(hand)


def winner(leader: int, led: str, follow: str) -> int:
    hearts = [(RANKS.index(c[0]), s) for c, s in ((led, leader), (follow, 1 - leader)) if c[1] == "H"]
    if hearts:
        return max(hearts)[1]
    return 1 - leader if follow[1] == led[1] and RANKS.index(follow[0]) > RANKS.index(led[0]) else leader


def replay(played: list[str], first_leader: int):
    """(leader now, points taken per seat, hearts broken, who played each card)."""
    leader, taken, broken, who = first_leader, [0, 0], False, []
    for t in range(0, len(played), 2):
        who.append(leader)
        if t + 1 < len(played):
            who.append(1 - leader)
            led, f = played[t], played[t + 1]
            w = winner(leader, led, f)
            taken[w] += points(led) + points(f)
            broken |= "H" in (led[1], f[1])
            leader = w
    return leader, taken, broken, who


def first_leader_of(seat: int, played: list[str]) -> int:
    for first in (0, 1):
        leader = replay(played, first)[0]
        if (leader if len(played) % 2 == 0 else 1 - leader) == seat:
            return first
    raise AssertionError("no first leader fits")


def fits(seat: int, hand: list[str], played: list[str], dead: set[str]) -> bool:
    """Could the hand have gone this way with these dead cards?"""
    first = next(c for c in FIRST_LEADS if c not in dead)
    pool = [c for c in DECK if c not in hand and c not in played and c not in dead]
    leader0 = first_leader_of(seat, played)
    who = replay(played, leader0)[3]
    hands = {seat: set(hand) | {c for c, s in zip(played, who) if s == seat},
             1 - seat: set(pool) | {c for c, s in zip(played, who) if s != seat}}
    if first not in hands[leader0]:
        return False
    broken = False
    for t in range(0, len(played), 2):
        led, leader = played[t], who[t]
        if led not in legal(hands[leader], t // 2, None, broken, first):
            return False
        hands[leader].discard(led)
        if t + 1 < len(played):
            follow = played[t + 1]
            if follow not in legal(hands[1 - leader], t // 2, led, broken, first):
                return False
            hands[1 - leader].discard(follow)
            broken |= "H" in (led[1], follow[1])
    return True


def worlds(position) -> list[set[str]]:
    hand, played = position["hand"], position["played"]
    pool = [c for c in DECK if c not in hand and c not in played]
    return [set(d) for d in itertools.combinations(pool, 2) if fits(position["seat"], hand, played, set(d))]


def exact_points(position, option: str, dead: set[str]) -> int:
    """The seat's points in the hand when it plays ``option`` and then both seats play their
    lowest legal card code (docs/rules.md: moon included)."""
    seat, hand, played = position["seat"], position["hand"], position["played"]
    leader, taken, broken, _ = replay(played, first_leader_of(seat, played))
    pool = [c for c in DECK if c not in hand and c not in played and c not in dead]
    hands = {seat: set(hand), 1 - seat: set(pool)}
    trick = len(played) // 2
    led = played[-1] if len(played) % 2 else None
    first = next(c for c in FIRST_LEADS if c not in dead)
    move = option
    while hands[0] or hands[1] or led is not None:
        mover = leader if led is None else 1 - leader
        if move is None:
            move = min(legal(hands[mover], trick, led, broken, first), key=code)
        hands[mover].discard(move)
        if led is None:
            led, move = move, None
            continue
        w = winner(leader, led, move)
        taken[w] += points(led) + points(move)
        broken |= "H" in (led[1], move[1])
        leader, led, move, trick = w, None, None, trick + 1
    in_play = 20 - sum(points(c) for c in dead)
    if in_play and in_play in taken:  # shot the moon
        return 0 if taken[seat] == in_play else 20
    return taken[seat]


# 6C led first: 2C and 4C are dead, the one world (seat 1 leads the third trick)
SIX_FIRST = {"seat": 1, "hand": "TC QC AC 6D 8D 4H 8H AH QS 2H TH", "played": "6C 8C 4D 2D"}
# decisions of random games (api.play seed, decision): 2C dead (4C led first; seed 5), and the
# opponent leading a heart before one was played, so holding nothing but hearts (seeds 3, 11, 17)
RECORDED = [(5, 9), (5, 13), (3, 20), (3, 23), (11, 22), (17, 19), (17, 24), (8, 12)]


def positions() -> list[dict]:
    out = [{**SIX_FIRST, "hand": SIX_FIRST["hand"].split(), "played": SIX_FIRST["played"].split()}]
    for seed, at in RECORDED:
        events = api.play("hearts2", seed=seed, index=0, seats=["random", "random"])[0]
        out.append(SPEC.position_from_record(events, at))
    return out


POSITIONS = positions()


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_worlds_are_the_consistent_dead_pairs(k):
    from analyzer.games.hearts2.spec import dead_worlds

    position = POSITIONS[k]
    pos = SPEC.read_position(SPEC.resolve_rules({}), position)
    masks = dead_worlds(pos.pool, pos.forced_dead, 10_000)
    got = {frozenset(c for c in DECK if int(m) >> code(c) & 1) for m in masks}
    assert got == {frozenset(d) for d in worlds(position)}


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_exact_values_over_the_worlds_with_a_deterministic_rollout(k):
    position = POSITIONS[k]
    dead = worlds(position)
    result = evaluate("hearts2", position, rollout=FIRST_LEGAL, samples=1, seed=k)
    assert result.facts["method"] == f"exact over {len(dead)} world" + ("s" if len(dead) > 1 else "")
    for _, row in result.table.iterrows():
        option = row["option"].split("/")[0]  # the card played for the row
        value = sum(exact_points(position, option, d) for d in dead) / len(dead)
        assert row["points"] == pytest.approx(value, abs=1e-12), (option, row["points"], value)
        assert row["points_lo"] == row["points_hi"] == row["points"]
