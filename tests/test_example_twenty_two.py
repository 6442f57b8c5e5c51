"""examples/twenty_two.py through the CLI: simulate, compare against random, and as the
rollout strategy of an evaluation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# one pytest-xdist worker runs this file (pyproject's markers): the example strategy's compile (once per process)
pytestmark = pytest.mark.xdist_group("example_twenty_two")

ROOT = Path(__file__).resolve().parents[1]
KEEP_LOW = f"{ROOT / 'examples' / 'twenty_two.py'}:keep_low"


def test_example_simulates_and_beats_random(cli):
    code, out, err = cli("simulate", "twenty-two", "--games", "400", "--seed", "3", "--seat", f"0={KEEP_LOW}",
                         "--seat", "1=random", "--seat", "2=random", "--seat", "3=random", "--json")
    assert code == 0, err
    seats = json.loads(out)["seats"]
    # against three random players, a player with a plan wins far more than its 1/4
    assert seats[0]["win_rate_lo"] > 0.5, seats[0]
    code, out, err = cli("compare", "twenty-two", KEEP_LOW, "random", "--games", "400", "--seed", "4", "--json")
    assert code == 0, err
    pair = json.loads(out)["pairs"][0]
    assert pair["strategy"] == KEEP_LOW and pair["opponent"] == "random"
    # the compare's own interval is clear of an even match
    assert pair["win_rate"] > 0.5 and pair["win_rate_lo"] > 0.5, pair


def test_example_as_the_rollout_of_an_evaluation(cli):
    # seat 1 of 3 follows a 9 holding 3 and K: keeping the K loses the final trick unless
    # someone keeps an ace; with keep_low playing the rest, playing the K is better
    code, out, err = cli("evaluate", "twenty-two", "--players", "3", "--seat", "1", "--dealer", "2", "--hand",
                         "3D KC", "--set", "trick=9", "--rollout", KEEP_LOW, "--samples", "2000", "--seed", "1",
                         "--workers", "1", "--json")
    assert code == 0, err
    result = json.loads(out)
    took = {o["option"]: o["took_final"] for o in result["options"]}
    assert sorted(took) == ["3", "K"]
    assert took["3"] > 0.5 > took["K"], took
