"""examples/pitch10.py through the CLI: simulate, compare against random, evaluate with it as
the rollout strategy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# one pytest-xdist worker runs this file (pyproject's markers): the example strategy's compile (once per process)
pytestmark = pytest.mark.xdist_group("example_pitch10")

ROOT = Path(__file__).resolve().parents[1]
STEADY = f"{ROOT / 'examples' / 'pitch10.py'}:steady"

# Seat 0 leads the fourth trick holding AS QS 3S (spades trump; it bid 7); seats 2 and 3 are
# out and seat 1 holds the one trump nobody has seen, the JS. Whatever the rollout strategy
# the rest is forced: seat 1 must play the JS to the lead, then seat 0 plays alone. Team 0
# has 4 points (TS; LJ HJ JC under the KS), team 1 has 1 (the 2S). Leading the AS or the QS
# wins the JS and everything after: 9 points, the bid is made. Leading the 3S gives seat 1
# the 3S and the JS (4 points): team 0 ends with 5, set.
ENDGAME = {"seat": 0, "dealer": 3, "hand": "AS KS QS 3S 2S TS 2H 3H 4H", "bids": ["7", "pass", "pass", "pass"],
           "trump": "S", "received": [0, 5, 5, 5], "rest_to": 0, "rest": "5H 6H 7H",
           "played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:JC", "out": [2, 3]}


def test_simulate_with_the_example(cli):
    code, out, err = cli("simulate", "pitch10", "--games", "300", "--seed", "5", "--seat", f"0={STEADY}",
                         "--seat", f"2={STEADY}", "--seat", "1=random", "--seat", "3=random", "--json",
                         "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 300
    teams = data["teams"]
    assert teams[0]["wins"] + teams[1]["wins"] == 300
    # the example's team makes its bids far more often than random bidders, and wins
    assert teams[0]["make_rate_lo"] > teams[1]["make_rate_hi"]
    assert teams[0]["win_rate_lo"] > 0.5


def test_the_example_beats_random_in_compare(cli):
    code, out, err = cli("compare", "pitch10", STEADY, "random", "--games", "200", "--seed", "2", "--json",
                         "--workers", "1")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert pair["strategy"] == STEADY and pair["opponent"] == "random"
    # every deal played under every seating of the two; the interval lies above one half
    assert pair["win_rate_lo"] > 0.5, pair


def test_evaluate_with_the_example_as_rollout(cli, tmp_path):
    spot = tmp_path / "spot.json"
    spot.write_text(json.dumps(ENDGAME))
    code, out, err = cli("evaluate", "pitch10", "--position", str(spot), "--rollout", STEADY, "--samples", "200",
                         "--workers", "1", "--json")
    assert code == 0, err
    options = {o["option"]: o for o in json.loads(out)["options"]}
    assert set(options) == {"AS", "QS", "3S"}
    # forced outcomes (worked out in tests/test_pitch10.py::_endgame_outcome): the AS or QS
    # lead makes the 7 bid on every sample, the 3S lead never does
    assert options["AS"]["made_bid"] == 1 and options["QS"]["made_bid"] == 1
    assert options["3S"]["made_bid"] == 0
