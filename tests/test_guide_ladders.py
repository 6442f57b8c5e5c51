"""The guides' strength ladders (docs/GAME.md) are generated from the committed reports'
tables (``python -m analyzer.report guides reports docs``): the renderer is checked on
hand-made tables against hand-written Markdown, and every committed guide against its
committed report, so a report rebuilt without its guide (or a hand edit) fails here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from analyzer import games as registry
from analyzer import report
from analyzer.errors import AnalyzerError

ROOT = Path(__file__).resolve().parent.parent


def _tables(folder: Path, speeds: bool = True) -> Path:
    folder.mkdir(parents=True)
    pd.DataFrame({"rank": [1, 2, 3], "strategy": ["a:k=2", "b", "c"], "mean_win_rate": [0.75, 0.5, 0.25],
                  "mean_win_rate_lo": [0.7, 0.45, 0.2], "mean_win_rate_hi": [0.8, 0.55, 0.3]}
                 ).to_csv(folder / "ladder_ranking.csv", index=False)
    # stored stronger first; the c-b pair is stored with c first (it won that head to head)
    pd.DataFrame({"strategy": ["a:k=2", "a:k=2", "c"], "opponent": ["b", "c", "b"],
                  "win_rate": [0.6, 0.9, 0.52], "win_rate_lo": [0.55, 0.85, 0.47],
                  "win_rate_hi": [0.65, 0.95, 0.57], "p_value": [0.0004, 1e-30, 0.25],
                  "deals": [50, 100, 200]}).to_csv(folder / "ladder_pairs.csv", index=False)
    if speeds:
        pd.DataFrame({"strategy": ["a:k=2", "b", "c"], "games": [1, 1, 1], "decisions": [9, 9, 9],
                      "ms_per_decision": [2.345, 0.001, 0.2]}).to_csv(folder / "ladder_speed.csv", index=False)
    pd.DataFrame({"item": ["game", "seed"], "value": ["g", "7"]}).to_csv(folder / "provenance.csv", index=False)
    return folder


EXPECTED = """\
<!-- ladder: generated from reports/g/tables by `python -m analyzer.report guides`; do not edit by hand -->

The committed report (`reports/g/report.md`, section "Search strategies"; `analyzer report
g` rebuilds it) plays every pair of these strategies on 50 to 200 duplicate deals per
pairing (each stops at its first look that tells the two apart), seed 7 (3 pairings, all
in `reports/g/tables/ladder_pairs.csv`). Ranked by the mean share of wins against the
others, with the time per decision (one core, CPU time, the heuristic's time subtracted):

| rank | strategy | mean share of wins [95%] | ms a decision |
|---|---|---|---|
| 1 | `a:k=2` | 0.750 [0.700, 0.800] | 2.35 |
| 2 | `b` | 0.500 [0.450, 0.550] | < 0.01 |
| 3 | `c` | 0.250 [0.200, 0.300] | 0.20 |

Each strategy against the next one down, the stronger of the pair first:

| strategy | opponent | share of wins [95%] | p | deals |
|---|---|---|---|---|
| `a:k=2` | `b` | 0.600 [0.550, 0.650] | < 1e-3 | 50 |
| `c` | `b` | 0.520 [0.470, 0.570] | 0.250 | 200 |

<!-- /ladder -->"""


def test_ladder_block_from_hand_made_tables(tmp_path):
    assert report.ladder_guide_block("g", _tables(tmp_path / "t")) == EXPECTED


def test_ladder_block_without_speeds_and_without_a_ladder(tmp_path):
    block = report.ladder_guide_block("g", _tables(tmp_path / "t", speeds=False))
    assert "| 1 | `a:k=2` | 0.750 [0.700, 0.800] | – |" in block
    (tmp_path / "empty").mkdir()
    assert report.ladder_guide_block("g", tmp_path / "empty") is None
    # every pairing played as long: one number of deals
    pairs = pd.read_csv(tmp_path / "t" / "ladder_pairs.csv").assign(deals=100)
    pairs.to_csv(tmp_path / "t" / "ladder_pairs.csv", index=False)
    text = " ".join(report.ladder_guide_block("g", tmp_path / "t").split())
    assert "on 100 duplicate deals per pairing, seed 7" in text and "stops" not in text


def test_guide_block_is_replaced_and_the_rest_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "names", lambda: ["g"])
    _tables(tmp_path / "reports" / "g" / "tables")
    docs = tmp_path / "docs"
    docs.mkdir()
    begin = report.LADDER_BEGIN.format(game="g")
    (docs / "g.md").write_text(f"# G\n\n## Strength ladder\n\n{begin}\nold table\n{report.LADDER_END}\n\nAfter.\n")
    assert report.write_guide_ladders(tmp_path / "reports", docs) == [docs / "g.md"]
    assert (docs / "g.md").read_text() == f"# G\n\n## Strength ladder\n\n{EXPECTED}\n\nAfter.\n"
    (docs / "g.md").write_text("# G, no markers\n")
    with pytest.raises(AnalyzerError, match="no generated ladder block"):
        report.write_guide_ladders(tmp_path / "reports", docs)


@pytest.mark.parametrize("game", registry.names())
def test_committed_guide_carries_its_reports_ladder(game):
    block = report.ladder_guide_block(game, ROOT / "reports" / game / "tables")
    if block is None:
        assert not (ROOT / "reports" / game / "tables" / "ladder_ranking.csv").exists()
        return
    assert block in (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8"), (
        f"docs/{game}.md: its ladder is not reports/{game}'s; run python -m analyzer.report guides reports docs")
