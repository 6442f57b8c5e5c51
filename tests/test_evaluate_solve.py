"""``evaluate --method solve``: the solver values every option in the worlds the rollouts
play (paired). Checked against ``analyzer solve`` run on each of those worlds written out
as a full-information position (a separate entry: the solver's Python front end), the
worlds drawn by the game's ``hidden_samples`` (the sampler mc and evaluate draw from)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer import api, records
from analyzer.cards import token
from analyzer.errors import AnalyzerError


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("evaluate_solve") / "h.jsonl"
    path.write_text(records.to_jsonl(api.play("hearts2", seed=3, index=0, rules={"target": 15})))
    return path


def _cards(mask: int) -> list[str]:
    return [token(c) for c in range(64) if (int(mask) >> c) & 1]


@pytest.mark.parametrize("at", [4, 9, 16])
def test_the_solver_column_is_the_mean_of_solving_each_sampled_world(record, at):
    from analyzer import games
    from analyzer.games.hearts2 import solver

    spec = games.get("hearts2")
    events = [json.loads(line) for line in record.read_text().splitlines()]
    n, seed = 24, 11
    result = api.evaluate("hearts2", record=str(record), at=at, method="solve", solve_samples=n, samples=256,
                          exact_limit=0, seed=seed)
    assert result.facts["solver"]["samples"] == n
    truth = solver.position_at(events, at)       # every card as the record has it
    seat = truth["turn"]
    seen = spec.position_from_record(events, at)  # what the seat knows
    worlds = spec.hidden_samples(spec.resolve_rules(events[0].get("rules")), seen, n, seed=seed)
    values: dict[str, list[int]] = {}
    for opp, dead in worlds:
        world = dict(truth, dead=_cards(dead))
        world["hands"] = [list(h) for h in truth["hands"]]
        world["hands"][1 - seat] = _cards(opp)
        for row in api.solve("hearts2", world).tables["options"].itertuples():
            values.setdefault(row.option, []).append(row.value)
    for row in result.table.itertuples():
        first = row.option.split("/")[0]
        assert row.solved == pytest.approx(np.mean(values[first]), abs=1e-9), row.option
        for card in row.option.split("/"):  # equivalent cards: the same value in every world
            assert values[card] == values[first]
    top = max(result.table.itertuples(), key=lambda r: r.solved)
    assert result.facts["solver"]["best"] == top.option
    assert all(result.table["solved_lo"] <= result.table["solved"])
    assert (result.table["solved_diff"] <= 1e-9).all()


def test_enumerated_worlds_are_each_solved_and_exact(record):
    result = api.evaluate("hearts2", record=str(record), at=22, method="solve", samples=2000)
    assert result.facts["method"].startswith("exact over")
    worlds = int(result.facts["method"].split()[2].replace(",", ""))
    assert result.facts["solver"]["samples"] == 2 * worlds
    assert (result.table["solved_hi"] - result.table["solved_lo"]).abs().max() < 1e-9  # a solve is exact


def test_solve_method_on_the_command_line(record, cli):
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "9", "--method", "solve",
                         "--samples", "512", "--solve-samples", "64")
    assert code == 0, err
    assert "solved" in out and "With every card open" in out
    assert all(len(line) <= 80 for line in out.splitlines())
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "9", "--method", "solve",
                         "--samples", "512", "--solve-samples", "64", "--exact-limit", "0", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["solver"]["samples"] == 64 and "opponent's points" in data["solver"]["value"]


def test_solve_method_refusals(record, cli):
    with pytest.raises(AnalyzerError, match="--method solve is not available for ninety-nine"):
        api.evaluate("ninety-nine", {"hand": "KS 4D 7C", "total": 92, "chips": "3,1,2"}, method="solve")
    with pytest.raises(AnalyzerError, match="--method must be one of rollout, solve"):
        api.evaluate("hearts2", record=str(record), at=9, method="exact")
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "9", "--solve-samples", "0",
                         "--method", "solve")
    assert code != 0 and len(err.strip().splitlines()) == 1 and "--solve-samples" in err


def test_pitch10_solver_column_is_the_mean_of_solving_each_sampled_world(tmp_path):
    """A play decision of a Pitch record: the same check as hearts2's, the worlds the
    other seats' trumps (hidden_samples, drawn as the evaluation draws them)."""
    from analyzer import games
    from analyzer.games.pitch10 import solver
    from analyzer.games.pitch10.rules import CARD_AT

    spec = games.get("pitch10")
    path = tmp_path / "p.jsonl"
    path.write_text(records.to_jsonl(api.play("pitch10", seed=2, index=0)))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    decisions = [e for e in events if e["ev"] == "decide"]
    plays = [k for k, e in enumerate(decisions, 1) if e["kind"] == "play" and len(e["legal"]) > 1]
    at = plays[1]
    n, seed = 16, 5
    result = api.evaluate("pitch10", record=str(path), at=at, method="solve", solve_samples=n, samples=256,
                          exact_limit=0, infer=False, seed=seed)
    truth = solver.position_at(events, at)
    seat = truth["turn"]
    trump = "CDHS".index(truth["trump"]) if isinstance(truth["trump"], str) else truth["trump"]
    seen = spec.position_from_record(events, at)
    drawn = spec.hidden_samples(spec.resolve_rules(events[0].get("rules")), seen, n, seed=seed, infer=False,
                                complete=False)["h16"]
    values: dict[str, list[int]] = {}
    for world in drawn:
        pos = dict(truth)
        pos["hands"] = [list(h) for h in truth["hands"]]
        for s in range(4):
            if s != seat:
                pos["hands"][s] = [spec.move_name(int(CARD_AT[trump, k])) for k in range(16) if (int(world[s]) >> k) & 1]
        for row in api.solve("pitch10", pos).tables["options"].itertuples():
            values.setdefault(row.option, []).append(row.value)
    assert result.facts["solver"]["samples"] == n
    for row in result.table.itertuples():
        first = row.option.split("/")[0]
        assert row.solved == pytest.approx(np.mean(values[first]), abs=1e-9), row.option
    with pytest.raises(AnalyzerError, match="--method solve in pitch10: it does not value this decision"):
        bid = next(k for k, e in enumerate(decisions, 1) if e["kind"] == "bid" and len(e["legal"]) > 1)
        api.evaluate("pitch10", record=str(path), at=bid, method="solve", samples=256)


def test_two_ten_jack_solver_column_once_the_stock_is_gone_is_the_exact_value(tmp_path):
    """With the stock gone the other hand is the unseen cards: one world, the true deal, so
    every option's solved value is ``analyzer solve``'s on the record's position. Earlier
    in the round (at most 14 tricks left) the stock's order is drawn too; at the first lead
    the solver is refused in one line."""
    from analyzer.games.two_ten_jack import solver

    path = tmp_path / "t.jsonl"
    path.write_text(records.to_jsonl(api.play("two-ten-jack", seed=3, index=0)))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    decisions = [e for e in events if e["ev"] == "decide"]
    late = [k for k in range(1, len(decisions) + 1)
            if len(solver.position_at(events, k)["stock"]) == 0 and len(decisions[k - 1]["legal"]) > 1]
    assert late
    for at in late[:3]:
        result = api.evaluate("two-ten-jack", record=str(path), at=at, method="solve", samples=256)
        exact = api.solve("two-ten-jack", record=str(path), at=at).tables["options"]
        values = dict(zip(exact["option"], exact["value"]))
        for row in result.table.itertuples():
            for option in row.option.split("/"):
                assert row.solved == pytest.approx(values[option], abs=1e-9), (at, option)
    middle = next(k for k in range(1, len(decisions) + 1)
                  if 0 < len(solver.position_at(events, k)["stock"]) <= 8 and len(decisions[k - 1]["legal"]) > 1)
    result = api.evaluate("two-ten-jack", record=str(path), at=middle, method="solve", samples=256,
                          solve_samples=16, exact_limit=0)
    assert result.facts["solver"]["samples"] == 16
    assert ((result.table["solved"] >= -35) & (result.table["solved"] <= 35)).all()
    with pytest.raises(AnalyzerError, match="tricks are left in this round; the solver values the last 14"):
        api.evaluate("two-ten-jack", record=str(path), at=1, method="solve", samples=256)
