"""examples/hearts2.py through the CLI: simulate, compare against random, evaluate with it as
the rollout strategy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# one pytest-xdist worker runs this file (pyproject's markers): the example strategy's compile (once per process)
pytestmark = pytest.mark.xdist_group("example_hearts2")

ROOT = Path(__file__).resolve().parents[1]
DUCKER = f"{ROOT / 'examples' / 'hearts2.py'}:ducker"

# Seat 0 follows 2D at trick 12 holding QS 2H (docs/hearts2.md): 6C was the first lead, so
# 2C and 4C are dead and seat 1's last card is AH; seat 1 took 5 hearts, seat 0 none. Both
# last tricks are forced whatever the rollout strategy: on QS seat 1 takes every point (a
# moon: 20 for seat 0), on 2H seat 0 takes 2D 2H (1 point) and seat 1 the last trick.
FORCED = ["--seat", "0", "--hand", "QS 2H", "--scores", "99,99", "--set", "trick=2D",
          "--played", "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD"]


def test_simulate_with_the_example(cli):
    code, out, err = cli("simulate", "hearts2", "--games", "300", "--seed", "5", "--seat", f"0={DUCKER}",
                         "--seat", "1=random", "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 300
    seats = data["seats"]
    assert seats[0]["wins"] + seats[1]["wins"] == 300
    # it takes fewer points per hand than random play, by a clear margin
    assert seats[0]["points_per_hand_hi"] < seats[1]["points_per_hand_lo"]


def test_the_example_beats_random_in_compare(cli):
    code, out, err = cli("compare", "hearts2", DUCKER, "random", "--games", "300", "--seed", "2", "--json",
                         "--workers", "1")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert pair["strategy"] == DUCKER and pair["opponent"] == "random"
    # each deal played both ways round: 600 games; the interval lies above one half
    assert pair["games"] == 600 and pair["win_rate_lo"] > 0.5


def test_evaluate_with_the_example_as_rollout(cli):
    code, out, err = cli("evaluate", "hearts2", *FORCED, "--rollout", DUCKER, "--samples", "200", "--workers", "1",
                         "--json")
    assert code == 0, err
    options = {o["option"]: o for o in json.loads(out)["options"]}
    assert set(options) == {"QS", "2H"}
    assert options["2H"]["points"] == 1 and options["QS"]["points"] == 20
    # the game ends with this hand (99 + points >= 100): 2H wins it, QS loses it
    assert options["2H"]["win"] == 1 and options["QS"]["win"] == 0
