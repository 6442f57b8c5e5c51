"""examples/two_ten_jack.py through the CLI: simulate, compare against random, evaluate with
it as the rollout strategy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# one pytest-xdist worker runs this file (pyproject's markers): the example strategy's compile (once per process)
pytestmark = pytest.mark.xdist_group("example_two_ten_jack")

ROOT = Path(__file__).resolve().parents[1]
TAKER = f"{ROOT / 'examples' / 'two_ten_jack.py'}:point_taker"
HAND = ["2C", "3D", "4S", "7H", "KD", "QS"]


def test_simulate_with_the_example(cli):
    code, out, err = cli("simulate", "two-ten-jack", "--games", "300", "--seed", "5", "--seat", f"0={TAKER}",
                         "--seat", "1=random", "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 300
    seats = data["seats"]
    assert seats[0]["wins"] + seats[1]["wins"] == 300
    # it scores more points per round than random play, by a clear margin
    assert seats[0]["points_per_round_lo"] > seats[1]["points_per_round_hi"]


def test_the_example_beats_random_in_compare(cli):
    code, out, err = cli("compare", "two-ten-jack", TAKER, "random", "--games", "300", "--seed", "2", "--json",
                         "--workers", "1")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert pair["strategy"] == TAKER and pair["opponent"] == "random"
    # each deal played both ways round: 600 games; the interval lies above one half
    assert pair["games"] == 600 and pair["win_rate_lo"] > 0.5


def test_evaluate_with_the_example_as_rollout(cli):
    # seat 1 (dealer) led 5C, seat 0 discarded 9D (no club, no trump); seat 1 leads trick 2
    args = ("evaluate", "two-ten-jack", "--dealer", "1", "--hand", " ".join(HAND), "--played", "5C 9D",
            "--rollout", TAKER, "--samples", "300", "--seed", "2", "--workers", "1", "--json")
    code, out, err = cli(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["samples"] == 300
    assert sorted(c for o in data["options"] for c in o["option"].split("/")) == sorted(HAND)
    # a round's points lie between -15 (the three -5 clubs) and +20 (the +5 hearts and the +1s)
    assert all(-15 <= o["points"] <= 20 and 0 <= o["win"] <= 1 for o in data["options"])
    # the same seed plays the same samples and the same rollouts
    code, again, err = cli(*args)
    assert code == 0, err
    assert json.loads(again)["options"] == data["options"]
