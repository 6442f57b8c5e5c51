"""Ninety-Nine: positions, sampling of hidden cards, evaluation and the mc strategy."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from analyzer import api, compare
from analyzer.cards import RANKS, parse_cards, token
from analyzer.errors import AnalyzerError
from analyzer.evaluate import evaluate
from analyzer.games.ninety_nine import kernel as K
from analyzer.rng import DEAL, seed_stream

ALL = [r + s for r in RANKS for s in "CDHS"]


def test_a_sure_win_is_evaluated_exactly():
    """Everything is known: 46 cards on the pile, so the opponent's hand is the 3 unseen cards.

    Playing K makes 99 and the opponent, holding 2D 3D 5D, has no legal move: it goes over
    with no chip left and is out, so the seat surely wins and surely does not go over.
    """
    hand, theirs = ["KS", "9H", "5C"], ["2D", "3D", "5D"]
    pile = [c for c in ALL if c not in hand + theirs]
    result = evaluate("ninety-nine", {"seat": 0, "players": 2, "dealer": 1, "hand": hand, "total": 95,
                                      "chips": [0, 0], "pile": pile}, samples=2000, seed=1)
    row = result.table.set_index("option").loc["K"]
    assert row["win"] == 1.0 and row["went_over"] == 0.0
    assert result.table.iloc[0]["option"] == "K" and set(result.table["option"]) == {"K", "9"}


def test_only_one_safe_card():
    result = evaluate("ninety-nine", {"hand": "QS 9H 5C", "total": 95, "chips": "3,3,3"}, samples=500)
    assert list(result.table["option"]) == ["9"] and result.table.iloc[0]["p_best"] == 1.0


def test_hidden_cards_are_sampled_uniformly_and_never_the_seen_ones():
    """P(a given unseen card is in seat 1's hand) = 3 / (number of unseen cards)."""
    spec = api.registry.get("ninety-nine")
    rules = spec.resolve_rules({}, 3)
    params = spec.params(rules)
    hand, pile = parse_cards("KS 4D 7C"), parse_cards("2C 2D 9S TH")
    ws = K.workspace(params)
    K.load_position(params, ws, 0, 2, 40, 1, np.array([5, 5, 5]), np.array([True] * 3),
                    np.array(hand), np.array(pile), 52)
    seen = set(hand + pile)
    counts = np.zeros(52)
    hist = K.scratch(3, 52)
    rng = np.zeros(4, dtype=np.uint64)
    draws = 6000
    for i in range(draws):
        seed_stream(rng, np.uint64(5), i, DEAL)
        K.resample_hidden(ws, hist, 0, rng)
        for c in ws.hands[1]:
            counts[c] += 1
        assert not seen & set(ws.hands[1]) and not seen & set(ws.hands[2])
        assert sorted(ws.hands[0]) == sorted(hand)
    unseen = 52 - len(seen)
    p = 3 / unseen
    expected = draws * p
    for c in range(52):
        if c in seen:
            assert counts[c] == 0, token(c)
        else:
            assert abs(counts[c] - expected) < 5 * math.sqrt(expected * (1 - p)), token(c)


def test_position_from_a_record_sees_only_the_deciding_seat():
    [events] = api.play("ninety-nine", seed=4, index=1, seats=["random"] * 3)
    spec = api.registry.get("ninety-nine")
    decisions = [e for e in events if e["ev"] == "decide"]
    for at in (1, 5, len(decisions)):
        position = spec.position_from_record(events, at)
        decide = decisions[at - 1]
        assert position["seat"] == decide["seat"]
        # the legal moves of that hand at that total are exactly the recorded ones
        from tests.test_ninety_nine import legal_after

        assert sorted(legal_after([c[0] for c in position["hand"]], position["total"])) == sorted(decide["legal"])
        assert decide["card"] in position["hand"]
        assert "hands" not in position   # nobody else's cards


def test_record_cli_round_trip(cli, tmp_path):
    record = tmp_path / "g.jsonl"
    assert cli("play", "ninety-nine", "--seed", "2", "--record", record, "--quiet")[0] == 0
    code, out, err = cli("evaluate", "ninety-nine", "--record", record, "--at", "3", "--samples", "600", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["options"] and data["samples"] <= 600
    assert all(0 <= o["win_lo"] <= o["win"] <= o["win_hi"] <= 1 for o in data["options"])


def test_cli_flags_csv_and_plot(cli, tmp_path):
    table, plot = tmp_path / "e.csv", tmp_path / "e.png"
    code, out, err = cli("evaluate", "ninety-nine", "--hand", "KS 4D 7C", "--total", "92", "--chips", "3,1,2",
                         "--samples", "1000", "--csv", table, "--plot", plot)
    assert code == 0, err
    assert "legal: 4 7 K" in out and out.count("\n1  ") == 1  # the options' table, ranked
    assert table.read_text().startswith("rank,option") and plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("position,message", [
    ({"hand": "KS 4D"}, "exactly 3 cards"),
    ({"hand": "KS 4D 1C"}, "bad card '1C'"),
    ({"hand": "KS KS 4D"}, "duplicate card KS"),
    ({"hand": "KS 4D 7C", "pile": "7C"}, "duplicate card 7C"),
    ({"hand": "KS 4D 7C", "total": 120}, "between 0 and 99"),
    ({"hand": "QS QD 5C", "total": 95}, "no legal move"),
    ({"hand": "KS 4D 7C", "chips": "3,3"}, "chips takes 3"),
    ({"hand": "KS 4D 7C", "seat": 5}, "seat 5 does not exist"),
    ({"hand": "KS 4D 7C", "out": "0"}, "is out of the game"),
    ({"hand": "KS 4D 7C", "colour": "red"}, "have no 'colour'"),
])
def test_impossible_positions_are_refused(position, message):
    with pytest.raises((AnalyzerError, ValueError), match=None) as info:
        evaluate("ninety-nine", position, samples=10)
    assert message in str(info.value)


def test_cli_position_sources_are_exclusive(cli, tmp_path):
    spot = tmp_path / "p.json"
    spot.write_text(json.dumps({"hand": ["KS", "4D", "7C"], "total": 92}))
    assert cli("evaluate", "ninety-nine", "--position", spot, "--samples", "300")[0] == 0
    code, _, err = cli("evaluate", "ninety-nine", "--position", spot, "--hand", "KS 4D 7C")
    assert code == 2 and "one way" in err
    spot.write_text("{not json")
    code, _, err = cli("evaluate", "ninety-nine", "--position", spot)
    assert code == 2 and "not valid JSON" in err


def test_mc_beats_heuristic():
    result = compare.compare("ninety-nine", ["mc:k=32", "heuristic"], games=400, seed=3, players=2)
    row = result.tables["pairs"].iloc[0]
    assert row["win_rate_lo"] > 0.5, row


def test_mc_is_a_rollout_strategy_too():
    result = evaluate("ninety-nine", {"hand": "KS 4D 7C", "total": 92, "chips": "3,1,2"}, samples=256,
                      rollout="mc:k=4")
    assert result.samples >= 256 and len(result.table) == 3
