"""The ``ismcts`` strategy of Two-Ten-Jack (kernel.ismcts_move): information-set Monte Carlo
tree search over sampled worlds of the hidden cards (analyzer.ismcts holds the tree), its
playouts played to the end of the game (or ``rounds`` rounds).

- its games follow the rules (the independent referee of tests/test_two_ten_jack.py) and
  end, and they are reproducible whatever the workers and chunks; play records the games
  simulate plays; each parameter changes the games;
- a single legal move is played without a search (the PLAY stream left as it was);
- once the stock is gone the seat can infer every hidden card: with playouts scored on the
  round alone its move is a best move of the independent brute-force minimax of
  tests/test_two_ten_jack_solver.py;
- it beats ``heuristic`` in a duplicate-deal compare, and serves as evaluate's rollout (a
  round it finishes ends at the brute force's value of each option).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.engine import SEARCH_TIER
from analyzer.evaluate import evaluate
from analyzer.games.two_ten_jack import kernel as K
from analyzer.games.two_ten_jack import solver
from analyzer.games.two_ten_jack import strategies as S
from analyzer.games.two_ten_jack.spec import SPEC, check_position
from analyzer.slots import SLOTS, empty_slot
from test_two_ten_jack import check_records  # the independent referee
from test_two_ten_jack_pimc import choices, small_endgames  # decisions with a choice; endgames of a record
from test_two_ten_jack_solver import brute_position  # the independent brute force

GAME = "two-ten-jack"
#: the user strategy slots of a run without user strategies (kernel calls from here)
NO_USERS = (empty_slot,) * SLOTS
#: a target no round reaches: playouts with rounds=1 then score the round's point margin
NO_END = 10_000


# ---- legal, finished, reproducible games ------------------------------------------------------

def test_ismcts_games_follow_the_rules_and_end():
    records = api.play(GAME, seed=21, games=40, seats=["ismcts:iterations=40", "random"], rules={"target": 15})
    records += api.play(GAME, seed=22, games=40, seats=["heuristic", "ismcts:iterations=40,base=random,rounds=1"],
                        rules={"target": 15})
    stats = check_records(records)  # every move legal, tricks, draws, points and scores as docs/rules.md says
    assert all(events[-1]["ev"] == "game_end" for events in records)
    assert len(records) == 80 and stats["as_led"] > 0
    assert choices(records[:40], (0,)) + choices(records[40:], (1,)) > 2000


def test_ismcts_games_are_reproducible(tmp_path):
    kw = dict(games=6, seed=9, seats=["ismcts:iterations=30", "heuristic"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=2, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 6
    # the same game as simulate plays (records and simulate run one loop)
    record = api.play(GAME, seed=9, index=3, games=1, seats=["ismcts:iterations=30", "heuristic"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, "score_0"]), int(a.loc[3, "score_1"])]
    # every parameter is played: each change gives other games
    for other in ("ismcts:iterations=31", "ismcts:iterations=30,explore=20", "ismcts:iterations=30,rounds=1",
                  "ismcts:iterations=30,base=random"):
        api.simulate(GAME, workers=1, out=str(tmp_path / "c.csv"), **{**kw, "seats": [other, "heuristic"]})
        assert not pd.read_csv(tmp_path / "c.csv")["score_0"].equals(a["score_0"]), other


# ---- decisions, called directly -----------------------------------------------------------------

def ismcts_move(position: dict, iterations: int, base: int, rounds: int, seed: int, target: int = NO_END):
    """ismcts's move at a position (the seat knowing what the replay of the public history
    tells it), its PLAY stream from ``seed``: (move, the stream after)."""
    pos = check_position(position, {"target": target}, SPEC.position_keys)
    params = np.array([target], dtype=np.int64)
    strat = np.array([[S.ISMCTS, iterations, base, 70, rounds]] * 2, dtype=np.int64)
    mcws = K.mc_workspace(params, strat, SEARCH_TIER)
    pos.ws.play_rng[:] = np.arange(seed, seed + 4, dtype=np.uint64)
    mask = np.int64(sum(1 << m for m in pos.options))
    move = K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(pos.seat), mask, np.int64(iterations),
                         np.int64(base), np.int64(70), np.int64(rounds))
    return SPEC.move_name(int(move)), pos.ws.play_rng.copy()


# the tests that call ``K.ismcts_move`` from Python share a worker: each worker would
# compile that entry again (5 s of CPU in Pitch), the cache not yet written
@pytest.mark.xdist_group("two_ten_jack_ismcts_move")
def test_a_single_legal_move_is_played_without_a_search():
    # seat 0 follows 5C holding one club: the 4C it must play; no draw from the PLAY stream
    position = {"dealer": 0, "trick": "5C", "hand": "4C 3D 4D 5S 9S KD"}
    move, after = ismcts_move(position, 200, S.HEURISTIC, 1000, seed=7)
    assert move == "4C" and list(after) == [7, 8, 9, 10]
    # with a choice the search runs and moves the stream on
    position["hand"] = "4C 8C 4D 5S 9S KD"
    move, after = ismcts_move(position, 200, S.HEURISTIC, 1000, seed=7)
    assert move in ("4C", "8C") and list(after) != [7, 8, 9, 10]


@pytest.mark.xdist_group("two_ten_jack_ismcts_move")
def test_ismcts_plays_a_best_move_once_the_stock_is_gone():
    """With the stock gone there is one world: the tree is a perfect-information game tree,
    and with playouts scored on the round's point margin (rounds=1, no game end) UCT finds
    a minimax move."""
    records = api.play(GAME, seed=31, games=12, seats=["heuristic", "random"], rules={"target": 15})
    checked = matters = 0
    for events, number, ev in small_endgames(records, (0, 1), most_cards=6):
        values = brute_position(solver.position_at(events, number))
        position = SPEC.position_from_record(events, number)
        move, _ = ismcts_move(position, 2000, S.RANDOM, 1, seed=checked)
        assert move in {m for m, v in values.items() if v == max(values.values())}, (number, values, move)
        checked += 1
        matters += len(set(values.values())) > 1
    assert checked > 40 and matters > 10, (checked, matters)  # the choice mattered often


@pytest.mark.xdist_group("two_ten_jack_ismcts_move")
def test_ismcts_plays_to_win_the_game_when_the_round_decides_it():
    """At 30:30 with target 31 every end of the round ends the game, and the seat wins exactly
    when its round points exceed the other's (30 + p against 35 - p: both reach 31 unless one
    scores 0 or less). With the stock gone (one world) and playouts played to the game's end
    (the default), a won or lost game is the reward: a winning move is a move of positive
    brute-force value (the minimax of the sign is the sign of the minimax), found whenever one
    exists."""
    records = api.play(GAME, seed=33, games=60, seats=["heuristic", "random"], rules={"target": 15})
    checked = 0
    for events, number, ev in small_endgames(records, (0, 1), most_cards=6):
        values = brute_position(solver.position_at(events, number))
        if max(values.values()) <= 0 or min(values.values()) > 0:
            continue  # the game is lost whatever the seat does, or won whatever it does
        position = {**SPEC.position_from_record(events, number), "scores": [30, 30]}
        move, _ = ismcts_move(position, 2000, S.RANDOM, 1000, seed=checked, target=31)
        assert values[move] > 0, (number, values, move)
        checked += 1
    assert checked > 10, checked


# ---- strength, and evaluate's rollouts --------------------------------------------------------------

def test_ismcts_beats_the_heuristic_in_compare():
    # 30 deals: 0.82 of the wins, 95% interval [0.70, 0.90] (60 deals gave 0.83 [0.76, 0.89])
    result = api.compare(GAME, ["ismcts:iterations=300", "heuristic"], games=30, seed=3, workers=1)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "ismcts:iterations=300"]
    assert pair["games"] == 60  # each deal played both ways round
    assert pair["win_rate_lo"] > 0.5


def test_ismcts_as_the_rollout_of_evaluate():
    """Three cards or fewer each, the stock gone, the round unable to end the game (scores 10
    or less, a round's points 20 at most): after each option both seats' ismcts (rounds=1:
    the round's margin) play with every card known, a tree small enough to search whole, so
    every sample ends the round at the brute force's value of the option."""
    records = api.play(GAME, seed=41, games=6, seats=["heuristic", "heuristic"], rules={"target": 31})
    checked = 0
    for events, number, ev in small_endgames(records, (0, 1), most_cards=6):
        position = SPEC.position_from_record(events, number)
        values = brute_position(solver.position_at(events, number))
        if max(position["scores"]) > 10 or len(set(values.values())) < 2:
            continue
        # exact_limit=0: 4 sampled worlds (the one world an empty stock leaves, 4 times), not
        # the enumeration's first round of 256 games of ismcts to the game's end per option
        table = evaluate(GAME, position, samples=4, seed=4, workers=1, exact_limit=0,
                         rollout="ismcts:iterations=500,rounds=1").table
        for option, row in table.set_index("option").iterrows():
            # the value is mine - the other's, and a round's points sum to 5
            expected = {(values[o] + 5) / 2 for o in option.split("/")}
            assert expected == {row["points"]}, (option, row["points"], values)
        checked += 1
        if checked == 4:
            break
    assert checked == 4
