"""The committed strategy reports (reports/<game>/tables) keep the promises of
docs/reports.md, checked on the files as committed (no engine run):

- every interval holds its estimate, and a proportion's interval stays inside [0, 1];
- a pairing's two shares of the wins add up to 1;
- every finding states its n, and that n (and the games or deals it states) is at least the
  report's minimum; a finding that calls a row the most, least or best states the interval
  of its difference to the others (a superlative the data support, not an order of estimates);
- every table with an interval counts its rows' observations (its CSV's ``below_min_n``
  column), and a row from fewer than the minimum of games or deals (its clusters) is marked
  below the minimum, however many observations it holds;
- Pitch's bid tables are counterfactual: every dealt-hand class has a row for every bid,
  whatever the bidding would have done.

A report regenerated with a fault of this kind fails here before it is committed.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import games
from analyzer.report import MIN_N

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"
COMMITTED = sorted(p.parent for p in REPORTS.glob("*/report.md"))

#: columns that hold a proportion (a share of games, hands, turns or cards), by name
PROPORTIONS = {"win_rate", "opponent_win_rate", "mean_win_rate", "bust_rate", "made", "make_chance", "make_rate",
               "over_now", "over_this_round", "pitch_rate", "share", "took_as", "went_over", "dealer_share",
               "nondealer_share"}
#: proportions whose name means points elsewhere: (game, table) -> columns
PROPORTIONS_IN = {("twenty-two", "final_trick"): {"taken"},
                  ("ninety-nine", "escape_card_value"): {"with", "without", "won_with", "won_without"},
                  ("ninety-nine", "escape_card_value_observed"): {"with", "without"},
                  ("pitch10", "give_value_paired"): {"keep", "give", "heuristic_gives"},
                  ("twenty-two", "discard_value_paired"): {"keep", "discard", "heuristic_discards"}}


def _intervals(table: pd.DataFrame) -> list[str]:
    """The columns X of ``table`` that have X_lo and X_hi beside them."""
    return [c for c in table.columns if f"{c}_lo" in table.columns and f"{c}_hi" in table.columns]


def test_every_game_has_a_committed_report():
    assert [p.name for p in COMMITTED] == sorted(games.names())


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: p.name)
def test_intervals_hold_their_estimates_and_proportions_stay_in_0_1(folder):
    checked = 0
    for file in sorted((folder / "tables").glob("*.csv")):
        table = pd.read_csv(file)
        proportions = PROPORTIONS | PROPORTIONS_IN.get((folder.name, file.stem), set())
        for column in _intervals(table):
            x, lo, hi = (pd.to_numeric(table[c], errors="coerce").to_numpy(float)
                         for c in (column, f"{column}_lo", f"{column}_hi"))
            shown = ~np.isnan(lo) & ~np.isnan(hi)
            eps = 1e-9
            assert np.all(lo[shown] <= x[shown] + eps) and np.all(x[shown] <= hi[shown] + eps), \
                f"{file.relative_to(ROOT)}: {column} outside its interval"
            if column in proportions:
                assert np.all(lo[shown] >= -eps) and np.all(hi[shown] <= 1 + eps), \
                    f"{file.relative_to(ROOT)}: an interval of {column} leaves [0, 1]"
            checked += int(shown.sum())
    assert checked > 0


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: p.name)
def test_each_pairing_shares_its_wins_between_its_two_strategies(folder):
    # a two-strategy pairing: what one does not win the other does, interval mirrored
    tables = [t for t in sorted((folder / "tables").glob("*pairs.csv"))]
    assert tables
    for file in tables:
        pairs = pd.read_csv(file)
        for end in ("", "_lo", "_hi"):
            other = {"": "", "_lo": "_hi", "_hi": "_lo"}[end]
            assert np.allclose(pairs[f"win_rate{end}"] + pairs[f"opponent_win_rate{other}"], 1), \
                f"{file.relative_to(ROOT)}: win_rate{end} and opponent_win_rate{other} do not add up to 1"


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: p.name)
def test_every_finding_states_an_n_of_at_least_the_minimum(folder):
    findings = pd.read_csv(folder / "tables" / "findings.csv")["finding"]
    assert 3 <= len(findings) <= 5
    for finding in findings:
        counts = [int(n.replace(",", "")) for n in re.findall(r"\bn = ([\d,]+)", finding)]
        assert counts, f"{folder.name}: a finding without its n: {finding}"
        assert min(counts) >= MIN_N, f"{folder.name}: a finding on fewer than {MIN_N}: {finding}"
        clusters = [int(n.replace(",", "")) for n in re.findall(r"\b([\d,]+) (?:games|deals)\b", finding)]
        assert min(clusters, default=MIN_N) >= MIN_N, f"{folder.name}: a finding on fewer than {MIN_N} clusters"


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: p.name)
def test_a_superlative_finding_states_its_difference_to_the_others(folder):
    for finding in pd.read_csv(folder / "tables" / "findings.csv")["finding"]:
        if re.search(r"\bthe (?:most|least|best)\b", finding) and "the class with the most" not in finding:
            assert "not told apart" in finding or re.search(r"by [-+][\d.]+ \[[-+][\d.]+, [-+][\d.]+\] against",
                                                             finding), f"{folder.name}: an unsupported superlative: {finding}"


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: p.name)
def test_every_interval_has_its_n_and_too_few_clusters_are_below_the_minimum(folder):
    for file in sorted((folder / "tables").glob("*.csv")):
        table = pd.read_csv(file)
        if not _intervals(table):
            continue
        where = file.relative_to(ROOT)
        assert "below_min_n" in table.columns, f"{where}: intervals without the n they stand on"
        marked = table["below_min_n"].astype(bool)
        for clusters in ("clusters", "deals", "games"):
            if clusters in table.columns:
                few = pd.to_numeric(table[clusters], errors="coerce").fillna(0) < MIN_N
                assert marked[few].all(), f"{where}: a row of fewer than {MIN_N} {clusters} is not marked"


@pytest.mark.parametrize("table, classes", [("bid_table_trump_length", {"<=3", "4", "5", "6", "7+"}),
                                            ("bid_table_top_trumps", {"0", "1", "2", "3"})])
def test_pitch_bid_tables_are_counterfactual(table, classes):
    """Every dealt-hand class has a row for every bid: each hand was put in the pitcher's
    chair with each bid, not read from who won the bidding."""
    frame = pd.read_csv(REPORTS / "pitch10" / "tables" / f"{table}.csv", dtype=str)
    grid = set(zip(frame.iloc[:, 0], frame["bid"]))
    bids = {"4", "5", "6", "7", "8", "9", "10", "moon"}
    assert set(frame.iloc[:, 0]) == classes
    assert {(c, b) for c in set(frame.iloc[:, 0]) for b in bids} == grid
    # the same dealt hands behind every bid of a class (one deal set, every bid on it)
    n = frame.assign(n=frame["n"].astype(int)).groupby(frame.columns[0])["n"].nunique()
    assert (n == 1).all()
