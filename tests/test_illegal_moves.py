"""A user strategy's illegal move: the one-line error names the decision's legal moves, in
every game and wherever a game can stop so (simulate, play, compare).

The reference is independent of the error path: the record of the same game played by
``first_legal``, which plays the same moves as ``first_legal_then_illegal`` up to the seat's
first real choice (tests/data/strategies.py), where the record's ``decide`` event lists the
legal moves through the game's ordinary trace and decoder.

Where no record exists (an evaluation's rollouts, a search strategy's user base), the
reference is what the strategy itself was given: ``first_legal_then_telling`` returns, as its
illegal move, its first legal move and how many it had, which the error must match; and a
rollout strategy given to one seat only must be the seat the error names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer import api, records
from analyzer import games as registry
from analyzer.errors import StrategyError
from test_user_strategies import H2_POSITION, NN_POSITION, P10_POSITION, TT_POSITION, TTJ_POSITION

DATA = Path(__file__).parent / "data"
GOOD = f"{DATA / 'strategies.py'}:first_legal"
BAD = f"{DATA / 'strategies.py'}:first_legal_then_illegal"
TELLING = f"{DATA / 'strategies.py'}:first_legal_then_telling"
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


#: a position per game for evaluate (tests/test_user_strategies.py's), and a seat other than
#: the deciding one that decides in its rollouts
ROLLOUT_POSITIONS = {"ninety-nine": (NN_POSITION, 1), "hearts2": (H2_POSITION, 1), "two-ten-jack": (TTJ_POSITION, 1),
                     "pitch10": (P10_POSITION, 1), "twenty-two": (TT_POSITION, 0)}
ROLLOUT_MESSAGE = re.compile(r"returned an illegal move '<(?:move|card) code (\d+)>' as seat (\d+) while a rollout "
                             r"or a search played (\S+); legal: (.+?)(?: and (\d+) more)?$")


def told(game: str, message: str) -> int:
    """The seat of a rollout's illegal-move line, after checking its legal moves against what
    ``first_legal_then_telling`` was given (its move: the first legal code, and the number of
    legal moves above bit 56)."""
    found = ROLLOUT_MESSAGE.search(message)
    assert found, message
    spec = registry.get(game)
    code = int(found.group(1))
    first, count = code & ((1 << 56) - 1), code >> 56
    named, more = found.group(4).split(" "), int(found.group(5) or 0)
    assert found.group(3) == spec.name
    assert named[0] == spec.move_name(first) and len(set(named)) == len(named)
    assert len(named) == min(count, records.NAMED_LEGAL) and len(named) + more == count
    return int(found.group(2))


@pytest.mark.parametrize("game", registry.names())
def test_an_evaluate_rollout_names_the_seat_and_the_legal_moves(game):
    position, seat = ROLLOUT_POSITIONS[game]
    with pytest.raises(StrategyError) as failed:
        api.evaluate(game, position, rollout={seat: TELLING}, samples=40, seed=2, workers=1)
    assert told(game, str(failed.value)) == seat


@pytest.mark.parametrize("game", registry.names())
def test_a_search_strategys_user_base_names_the_legal_moves(game):
    with pytest.raises(StrategyError) as failed:
        api.simulate(game, games=2, seed=SEED, seats={0: f"mc:k=2,base={TELLING}"}, workers=1)
    players = registry.get(game).default_players
    assert 0 <= told(game, str(failed.value)) < players
    # the culprit is the user's function, named as what it serves (not as if mc were the user's)
    assert str(failed.value).startswith(f"user strategy {TELLING}, the base of mc:k=2,base={TELLING}, returned ")
