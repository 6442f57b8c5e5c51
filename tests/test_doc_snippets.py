"""The strategy snippets of the game guides (```python blocks of docs/<game>.md that define an
``@njit`` function) compile, play, and beat ``random``, as the guides say with their figures.

tests/test_docs.py runs the shell blocks only; this file saves each snippet as its own file,
as a reader would, and puts it against ``random`` in a small duplicate-deal compare (another
seed than the guides' figures, which are from seed 0 and 1,000 deals).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer import api

# one pytest-xdist worker runs this file (pyproject's markers): the snippets' compiles (once per process)
pytestmark = pytest.mark.xdist_group("doc_snippets")

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("twenty-two", "ninety-nine", "hearts2", "two-ten-jack", "pitch10")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
STRATEGY = re.compile(r"^@njit\ndef (\w+)\(view, legal, n, rng\)", re.M)


def snippets(game: str) -> list[tuple[str, str]]:
    """(function name, block text) of each strategy snippet of the game's guide."""
    text = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    return [(m.group(1), block) for block in BLOCK.findall(text) for m in [STRATEGY.search(block)] if m]


CASES = [(game, name, block) for game in GAMES for name, block in snippets(game)]


def test_every_guide_has_a_strategy_snippet():
    assert sorted({game for game, _, _ in CASES}) == sorted(GAMES)


@pytest.mark.parametrize("game, name, block", CASES, ids=[f"{g}:{n}" for g, n, _ in CASES])
def test_the_snippet_beats_random(game, name, block, tmp_path):
    path = tmp_path / f"{name}.py"
    path.write_text(block)
    strategy = f"{path}:{name}"
    result = api.compare(game, [strategy, "random"], games=300, seed=11, workers=1)
    row = result.tables["pairs"].iloc[0]
    assert row["strategy"] == strategy and row["opponent"] == "random"
    assert row["win_rate_lo"] > 0.5 and row["p_value"] < 1e-3, row.to_dict()
