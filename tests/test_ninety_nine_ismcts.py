"""Ninety-Nine's ``ismcts`` (kernel.ismcts_move): information-set Monte Carlo tree search over
redeals of the hidden cards (analyzer.ismcts holds the tree), playouts by the base strategy
for ``rounds`` rounds, each seat's share of the game backed up.

- its games follow the rules (the independent referee of tests/test_ninety_nine.py, which
  also checks every draw against the stock previewed at the deal) and end, they are the same
  whatever the threads and chunks, and play records the games simulate plays;
- on the position of tests/test_ninety_nine_mc.py whose one move loses the game at once (an
  independent enumeration says so) it does not play that move, although its base does;
- it beats ``heuristic`` in a duplicate-deal compare and serves as evaluate's rollout.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.evaluate import evaluate
from analyzer.games.ninety_nine import strategies as S
from analyzer.games.ninety_nine.codes import MOVE_NAMES
from analyzer.games.ninety_nine.spec import SPEC
from test_ninety_nine import check_record  # independent referee
from test_ninety_nine_mc import brute_force_loses_at_once, loaded_position

# one pytest-xdist worker runs this file and test_ninety_nine_mc.py (pyproject's markers): both
# call kernel.mc_decide, the search strategies' entry for tests, which then compiles once
pytestmark = pytest.mark.xdist_group("ninety_nine_search")


def test_ismcts_games_follow_the_rules_and_end():
    records = api.play("ninety-nine", seed=21, games=30, seats=["ismcts:iterations=40", "heuristic", "random"])
    records += api.play("ninety-nine", seed=22, games=20, players=2,
                        seats=["random", "ismcts:iterations=30,rounds=1000,base=random"])
    records += api.play("ninety-nine", seed=23, games=10, players=4,
                        seats=["ismcts:iterations=20,rounds=2", "heuristic", "ismcts:iterations=20", "random"])
    for events in records:
        check_record(events)  # every move legal, every draw the stock's next card, chips, the end
    choices = sum(1 for events in records for ev in events
                  if ev["ev"] == "decide" and len(ev["legal"]) > 1 and "ismcts" in events[0]["strategies"][ev["seat"]])
    assert choices > 1000


def test_ismcts_games_are_the_same_whatever_the_threads(tmp_path):
    kw = dict(games=30, seed=9, seats=["ismcts:iterations=30", "heuristic", "ismcts:iterations=20,rounds=2"])
    api.simulate("ninety-nine", workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate("ninety-nine", workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    record = api.play("ninety-nine", seed=9, index=3, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, f"score_{s}"]) for s in range(3)]
    # the parameters are played: another exploration constant gives other games
    api.simulate("ninety-nine", workers=1, out=str(tmp_path / "c.csv"),
                 **{**kw, "seats": ["ismcts:iterations=30,explore=300", "heuristic", "ismcts:iterations=20,rounds=2"]})
    assert not pd.read_csv(tmp_path / "c.csv").equals(a)


def test_ismcts_does_not_play_the_move_that_loses_the_game_at_once():
    assert brute_force_loses_at_once("5")  # the independent enumeration (7 and 8 do not lose at once)
    assert not brute_force_loses_at_once("7") and not brute_force_loses_at_once("8")
    params, ws = loaded_position()
    kernel = SPEC.user_kernel([])
    for iterations, rounds in ((200, 1), (400, 1000)):
        for seed in range(3):
            ws.play_rng[:] = np.array([seed, seed + 11, seed + 23, 5], dtype=np.uint64)
            strat = np.array([[S.ISMCTS, iterations, S.HEURISTIC, 70, rounds], [S.HEURISTIC, 0, 0, 0, 0]],
                             dtype=np.int64)
            move = MOVE_NAMES[kernel.mc_decide(params, strat, ws)]  # (the search strategies' entry for tests)
            assert move in ("7", "8"), (iterations, rounds, seed, move)


def test_ismcts_beats_heuristic_on_duplicate_deals():
    # 30 deals: 0.65 of the wins, 95% interval [0.585, 0.71] (60 deals gave 0.633 [0.587, 0.677])
    result = api.compare("ninety-nine", ["ismcts:iterations=300", "heuristic"], games=30, seed=3, workers=2)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "ismcts:iterations=300"]
    assert pair["games"] == 180  # 3 players: every deal under the 6 seatings of 2 strategies
    assert pair["win_rate_lo"] > 0.5


def test_ismcts_is_a_rollout_strategy_too():
    result = evaluate("ninety-nine", {"hand": "KS 4D 7C", "total": 92, "chips": "3,1,2"}, samples=64,
                      rollout="ismcts:iterations=20", workers=2)
    assert result.samples >= 64 and len(result.table) == 3
