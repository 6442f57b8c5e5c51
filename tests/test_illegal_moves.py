"""A user strategy's illegal move: the one-line error names the decision's legal moves, in
every game and wherever a game can stop so (simulate, play, compare).

The reference is independent of the error path: the record of the same game played by
``first_legal``, which plays the same moves as ``first_legal_then_illegal`` up to the seat's
first real choice (tests/data/strategies.py), where the record's ``decide`` event lists the
legal moves through the game's ordinary trace and decoder.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer import api, records
from analyzer import games as registry
from analyzer.errors import StrategyError

DATA = Path(__file__).parent / "data"
GOOD = f"{DATA / 'strategies.py'}:first_legal"
BAD = f"{DATA / 'strategies.py'}:first_legal_then_illegal"
SEED = 5
MESSAGE = re.compile(r"returned an illegal move '<(?:move|card) code -7>' in game 0, decision (\d+); "
                     r"legal: (.+?)(?: and (\d+) more)?$")


def first_choice(game: str) -> tuple[int, list[str]]:
    """(decision number, legal moves) of seat 0's first decision with a choice, in game 0 of
    seed SEED with seat 0 playing ``first_legal``, from its record."""
    (events,) = api.play(game, seed=SEED, seats={0: GOOD})
    decisions = [ev for ev in events if ev["ev"] == "decide"]
    for number, ev in enumerate(decisions, 1):
        if ev["seat"] == 0 and len(ev["legal"]) > 1:
            return number, ev["legal"]
    raise AssertionError(f"{game}: seat 0 has no choice in game 0")


def parse(message: str) -> tuple[int, list[str], int]:
    """(decision, legal moves named, legal moves not named) of the error's line."""
    found = MESSAGE.search(message)
    assert found, message
    return int(found.group(1)), found.group(2).split(" "), int(found.group(3) or 0)


@pytest.mark.parametrize("game", registry.names())
def test_simulate_names_the_legal_moves_of_the_decision(game):
    number, legal = first_choice(game)
    with pytest.raises(StrategyError) as failed:
        api.simulate(game, games=1, seed=SEED, seats={0: BAD}, workers=1)
    decision, named, more = parse(str(failed.value))
    assert named == legal[:records.NAMED_LEGAL] and len(named) + more == len(legal)
    if game != "hearts2":  # hearts2 numbers a decision by its place in the hand's tricks
        assert decision == number


def test_play_and_compare_name_the_same_legal_moves():
    game = "two-ten-jack"
    _, legal = first_choice(game)
    with pytest.raises(StrategyError) as played:
        api.play(game, seed=SEED, seats={0: BAD})
    assert parse(str(played.value))[1] == legal
    # compare: deal 0 seated BAD then GOOD is the game above
    with pytest.raises(StrategyError) as compared:
        api.compare(game, [BAD, GOOD], games=1, seed=SEED, workers=1)
    assert parse(str(compared.value))[1] == legal


def test_the_message_names_twelve_moves_at_most():
    class Spec:
        def move_name(self, code):
            return f"m{code}"
    err = [3, 1, 99]
    text = records.illegal_move_message(Spec(), ["a", "b"], 4, err, list(range(20)))
    assert text == ("strategy b (seat 1) returned an illegal move 'm99' in game 4, decision 3; "
                    "legal: m0 m1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 and 8 more")
    assert records.illegal_move_message(Spec(), ["a", "b"], 4, err, None).endswith("decision 3")


def test_a_variant_study_names_the_legal_moves_too():
    game = "two-ten-jack"
    _, legal = first_choice(game)
    # the first variant is the game's default rules: its game 0 is the game above
    with pytest.raises(StrategyError) as failed:
        api.variants(game, [{}, {"target": 21}], games=1, seed=SEED, seats={0: BAD}, workers=1)
    assert parse(str(failed.value))[1] == legal
