"""Golden playthroughs: two recorded games per game, diffed byte for byte.

``tests/data/golden/<game>.jsonl`` are the records of
``analyzer play GAME --seed 2026 --games 2 --seat 0=random --record FILE`` (a random seat
against the heuristic), written by the engine of commit bf8d26d, whose records the
independent replays of docs/record.md checked. Any change of the rules, the built-in
strategies, the random streams or the record format shows here as a diff; a deliberate
one means writing the files again, and saying why in the commit.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from analyzer import games as registry

GOLDEN = Path(__file__).parent / "data" / "golden"
GAMES = registry.names()


def test_every_game_has_a_golden_record():
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_recorded_game_is_the_golden_one_byte_for_byte(game, cli, tmp_path):
    out = tmp_path / "record.jsonl"
    code, _, err = cli("play", game, "--seed", "2026", "--games", "2", "--seat", "0=random", "--record", str(out))
    assert code == 0, err
    golden = (GOLDEN / f"{game}.jsonl").read_text()
    made = out.read_text()
    if made != golden:  # the first lines that differ, not a wall of JSON
        diff = list(difflib.unified_diff(golden.splitlines(), made.splitlines(), "golden", "now", lineterm="", n=1))
        pytest.fail("\n".join(diff[:12]))
    assert out.read_bytes() == (GOLDEN / f"{game}.jsonl").read_bytes()


@pytest.mark.parametrize("game", GAMES)
def test_the_golden_records_are_two_whole_games_of_legal_moves(game):
    """What the files hold, checked without the engine: two games, each from its header to
    its end, every move among the legal ones listed for it."""
    events = [json.loads(line) for line in (GOLDEN / f"{game}.jsonl").read_text().splitlines()]
    heads = [i for i, ev in enumerate(events) if ev["ev"] == "game"]
    assert len(heads) == 2 and heads[0] == 0
    assert [events[i]["index"] for i in heads] == [0, 1]
    assert all(events[i]["strategies"][0] == "random" for i in heads)
    assert events[heads[1] - 1]["ev"] == "game_end" and events[-1]["ev"] == "game_end"
    decides = [ev for ev in events if ev["ev"] == "decide"]
    assert len(decides) > 20
    assert all(ev["move"] in ev["legal"] for ev in decides)
