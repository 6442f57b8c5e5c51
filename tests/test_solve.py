"""``analyzer solve``: the CLI and API over the games' perfect-information solvers (each
solver is checked against brute force in tests/test_<game>_solver.py)."""

from __future__ import annotations

import json

import pytest

from analyzer import api, records
from analyzer.errors import AnalyzerError


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("solve") / "h.jsonl"
    path.write_text(records.to_jsonl(api.play("hearts2", seed=3, index=0, rules={"target": 15})))
    return path


def test_solve_a_recorded_decision_values_every_legal_move(record):
    events = [json.loads(line) for line in record.read_text().splitlines()]
    decide = [e for e in events if e["ev"] == "decide"]
    at = 20
    result = api.solve("hearts2", record=str(record), at=at)
    options = result.tables["options"]
    assert sorted(options["option"]) == sorted(decide[at - 1]["legal"])
    assert list(options["value"]) == sorted(options["value"], reverse=True)
    assert set(result.best) == set(options[options["value"] == options["value"].max()]["option"])
    assert result.nodes > 0 and "opponent's points minus" in result.value_meaning


def test_solve_cli_json_and_table(record, cli):
    code, out, err = cli("solve", "hearts2", "--record", str(record), "--at", "21", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"options", "best", "nodes", "elapsed_s", "verdict"} <= set(data)
    assert all({"option", "value"} <= set(o) for o in data["options"])
    code, out, err = cli("solve", "hearts2", "--record", str(record), "--at", "21")
    assert code == 0 and "Best:" in out and all(len(line) <= 80 for line in out.splitlines())


def test_solve_a_position_file_as_the_record_gives_it(record, tmp_path, cli):
    """The full-information position of decision 24 written as JSON solves to the same values."""
    from analyzer.games.hearts2 import solver

    events = [json.loads(line) for line in record.read_text().splitlines()]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(solver.position_at(events, 24)))
    code, out, err = cli("solve", "hearts2", "--position", str(path), "--json")
    assert code == 0, err
    from_file = {o["option"]: o["value"] for o in json.loads(out)["options"]}
    from_record = api.solve("hearts2", record=str(record), at=24).tables["options"]
    assert from_file == dict(zip(from_record["option"], from_record["value"]))


def test_solve_refuses_games_without_a_solver_and_bad_input(record, cli):
    with pytest.raises(AnalyzerError, match="solve is not available for ninety-nine"):
        api.solve("ninety-nine", record=str(record), at=1)
    code, _, err = cli("solve", "hearts2", "--record", str(record))
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = cli("solve", "hearts2")
    assert code == 2 and "give the position one way" in err


def test_two_ten_jack_solves_a_late_decision_and_refuses_a_huge_one(tmp_path):
    """Two-Ten-Jack: exact once the stock is short; a first lead (40 stock cards) is beyond
    the node cap and is refused in one line instead of running for an hour."""
    from analyzer.games.two_ten_jack import solver

    path = tmp_path / "t.jsonl"
    path.write_text(records.to_jsonl(api.play("two-ten-jack", seed=3, index=0)))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    late = max(k for k in range(1, len([e for e in events if e["ev"] == "decide"]) + 1)
               if len(solver.position_at(events, k)["stock"]) == 0)
    result = api.solve("two-ten-jack", record=str(path), at=late)
    assert result.nodes > 0 and len(result.tables["options"]) >= 1
    old, solver.NODE_LIMIT = solver.NODE_LIMIT, 20_000
    try:
        with pytest.raises(AnalyzerError, match="not solved within 20,000 nodes"):
            api.solve("two-ten-jack", record=str(path), at=1)
    finally:
        solver.NODE_LIMIT = old


def test_pitch10_solves_a_play_decision_of_a_record(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(records.to_jsonl(api.play("pitch10", seed=2, index=0)))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    plays = [k for k, e in enumerate([e for e in events if e["ev"] == "decide"], 1) if e["kind"] == "play"]
    decide = [e for e in events if e["ev"] == "decide"][plays[0] - 1]
    result = api.solve("pitch10", record=str(path), at=plays[0])
    assert sorted(result.tables["options"]["option"]) == sorted(decide["legal"])
    assert ((0 <= result.tables["options"]["value"]) & (result.tables["options"]["value"] <= 10)).all()
