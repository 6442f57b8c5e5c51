"""Strategy tournaments on duplicate deals, sequential stopping, and rule-variant studies."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer import compare as cmp
from analyzer.fold import fold_pair_rows
from analyzer.stats import EXACT_VALUES, normal_p_value


def test_arrangements_are_balanced():
    for players in range(2, 7):
        seatings = cmp.arrangements(players, 0, 1)
        counts = np.zeros((players, 2))
        for seating in seatings:
            for seat, v in enumerate(seating):
                counts[seat, v] += 1
        assert (counts[:, 0] == counts[:, 1]).all(), players   # every seat hosts both equally
    assert cmp.arrangements(2, 0, 1) == [[0, 1], [1, 0]]
    assert cmp.arrangements(4, 0, 1) == [[0, 1, 0, 1], [1, 0, 1, 0]]  # partners share a strategy


def test_fold_rows_counts_shares_margins_and_hands_as_written_out_by_hand():
    rng = np.random.default_rng(3)
    players = 4
    out = np.zeros((500, 3 + players + 2), dtype=np.int64)
    out[:, 0] = rng.integers(0, 1 << players, 500)  # winners mask (0: nobody won)
    out[:, 1] = rng.integers(1, 30, 500)
    out[:, 3:3 + players] = rng.integers(-20, 60, (500, players))
    is_x = np.array([1, 0, 0, 1], dtype=np.int64)
    share, margin, hands = (np.empty(500) for _ in range(3))
    fold_pair_rows(out, is_x, share, margin, hands)
    for g in range(500):
        won = [s for s in range(players) if out[g, 0] >> s & 1]
        assert share[g] == (sum(1 for s in won if is_x[s]) / len(won) if won else 0.0)
        xs = [out[g, 3 + s] for s in range(players) if is_x[s]]
        ys = [out[g, 3 + s] for s in range(players) if not is_x[s]]
        assert margin[g] == pytest.approx(sum(xs) / len(xs) - sum(ys) / len(ys), abs=1e-12)
        assert hands[g] == out[g, 1]


def test_duplicate_deals_really_repeat_the_deals():
    """Through the records: every seating of deal i gets the same cards in the first round."""
    for index in (0, 7):
        firsts = []
        for seating in cmp.arrangements(3, 0, 1):
            names = [("heuristic", "random")[v] for v in seating]
            [events] = api.play("ninety-nine", seed=21, index=index, seats=names)
            deal = next(ev for ev in events if ev["ev"] == "deal")
            firsts.append((deal["dealer"], deal["hands"], deal["stock"]))
        assert all(f == firsts[0] for f in firsts)


def test_a_strategy_against_itself_is_a_draw():
    result = cmp.compare("ninety-nine", ["random", "random"], games=3000, seed=2)
    row = result.tables["pairs"].iloc[0]
    assert row["difference"] == 0 and row["p_value"] == 1
    assert result.strategies == ["random", "random#2"]


def test_difference_is_found_and_sequential_test_stops_early():
    result = cmp.compare("ninety-nine", ["heuristic", "random"], games=200_000, seed=3, until_significant=True)
    assert result.stopped_early and result.games == cmp.FIRST_LOOK
    row = result.tables["pairs"].iloc[0]
    assert row["decided"] and row["win_rate_lo"] > 0.5


def test_undecided_comparison_runs_the_whole_budget():
    result = cmp.compare("ninety-nine", ["random", "random"], games=5000, seed=3, until_significant=True)
    assert not result.stopped_early and result.games == 5000


def test_each_pairing_of_a_round_robin_can_stop_on_its_own():
    # heuristic against random is decided at the first look (100 deals), random against random
    # never: it plays the whole budget on the same deals as a run without looks
    strategies = ["heuristic", "random", "random"]
    result = cmp.compare("hearts2", strategies, games=400, seed=5, until_significant=True, first_look=100,
                         each_pair=True, workers=1)
    pairs = result.tables["pairs"].set_index(["strategy", "opponent"])
    assert pairs.loc[("heuristic", "random"), "deals"] == 100 and pairs.loc[("heuristic", "random#2"), "deals"] == 100
    assert pairs.loc[("random", "random#2"), "deals"] == 400 and not result.stopped_early
    whole = cmp.compare("hearts2", strategies, games=400, seed=5, workers=1).tables["pairs"]
    short = cmp.compare("hearts2", strategies[:2], games=100, seed=5, workers=1).tables["pairs"].iloc[0]
    assert whole.iloc[2]["win_rate"] == pairs.loc[("random", "random#2"), "win_rate"]
    assert short["win_rate"] == pairs.loc[("heuristic", "random"), "win_rate"]
    assert short["p_value"] == pairs.loc[("heuristic", "random"), "p_value"]
    # the ranking: each strategy's mean over its pairings, in an interval at least as wide as
    # the pairings' own (standard error: the mean of theirs)
    ranking = result.tables["ranking"].set_index("strategy")
    h = pairs.loc[("heuristic", "random"), "win_rate"]
    assert ranking.loc["heuristic", "mean_win_rate"] == pytest.approx(h)
    assert ranking.loc["random", "mean_win_rate"] == pytest.approx(((1 - h) + 0.5) / 2)
    lo, hi = ranking.loc["random", ["mean_win_rate_lo", "mean_win_rate_hi"]]
    assert 0 <= lo < ranking.loc["random", "mean_win_rate"] < hi <= 1
    # every pairing decided at a look: the whole round robin stops there
    decided = cmp.compare("hearts2", ["heuristic", "random"], games=400, seed=5, until_significant=True,
                          first_look=100, each_pair=True, workers=1)
    assert decided.stopped_early and decided.games == 100


def test_a_pairing_of_few_deals_gets_the_exact_sign_flip_test():
    # every deal won by the same side: the sign test's 2^(1-n)
    pair = cmp.PairStats(0, 1, [])
    pair.share.add(np.ones(10))
    assert pair.p_value() == 2.0 ** -9
    pair = cmp.PairStats(0, 1, [])
    pair.share.add(np.full(10, 0.5))
    assert pair.p_value() == 1.0
    pair.share.add(np.array([1.0, 1.0, 0.0]))  # two deals to X, one to Y: every sign vector reaches it
    assert pair.p_value() == 1.0
    pair.share.add(np.array([1.0, 1.0, 1.0]))  # five to one: 14 sign vectors of 64 reach 4 or more
    assert pair.p_value() == 14 / 64
    # past EXACT_VALUES deals the normal test of the per-deal shares
    many = cmp.PairStats(0, 1, [])
    shares = np.resize([1.0, 0.5, 0.0, 1.0], EXACT_VALUES + 4)
    many.share.add(shares)
    assert many.p_value() == pytest.approx(normal_p_value((shares.mean() - 0.5) / (shares.std(ddof=1) / np.sqrt(shares.size))))


def test_a_handful_of_deals_decides_nothing():
    # 7 games of 8 won on 4 deals is no finding (a normal test said p = 0.003 and stopped):
    # the exact test needs 9 deals all won to pass alpha / 6 looks
    small = cmp.compare("hearts2", ["heuristic", "random"], games=4, seed=3, workers=1)
    row = small.tables["pairs"].iloc[0]
    assert row["win_rate"] == 0.875 and row["p_value"] == 0.25 and not row["decided"]
    looked = cmp.compare("hearts2", ["heuristic", "random"], games=64, seed=3, until_significant=True,
                         first_look=2, workers=1)
    assert looked.games >= 16
    assert looked.tables["pairs"].iloc[0]["p_value"] < 0.05 / 6


def test_intervals_cover_the_truth_at_about_the_stated_rate():
    truth = cmp.compare("ninety-nine", ["heuristic", "random"], games=60_000, seed=1000, players=2)
    p = truth.tables["pairs"].iloc[0]["win_rate"]
    covered = 0
    runs = 150
    for seed in range(runs):
        row = cmp.compare("ninety-nine", ["heuristic", "random"], games=250, seed=seed, players=2,
                          workers=1).tables["pairs"].iloc[0]
        covered += row["win_rate_lo"] <= p <= row["win_rate_hi"]
    assert 0.88 <= covered / runs <= 0.995, covered


def test_round_robin_ranks_every_strategy():
    result = cmp.compare("ninety-nine", ["random", "heuristic", "random"], games=2000, seed=4)
    assert len(result.tables["pairs"]) == 3
    ranking = result.tables["ranking"]
    assert list(ranking["strategy"])[0] == "heuristic"
    assert (ranking["mean_win_rate_lo"] <= ranking["mean_win_rate"]).all()


def test_variant_study_plays_the_same_streams_under_each_variant():
    grid = cmp.rule_grid([("out_at_zero_chips", "false"), ("out_at_zero_chips", "true")])
    study = cmp.variants("ninety-nine", grid, games=3000, seed=5)
    frame = study.tables["variants"]
    assert list(frame["variant"]) == ["out_at_zero_chips=false", "out_at_zero_chips=true"]
    # leaving at zero chips means one bust fewer per player: shorter games, paired by deal
    assert frame.loc[1, "hands_vs_first_hi"] < 0
    # the first variant is exactly the simulate run with the same seed
    plain = api.simulate("ninety-nine", games=3000, seed=5)
    assert frame.loc[0, "hands_per_game"] == pytest.approx(plain.hands / 3000)
    # the verdict says it, from the table's own numbers (it was empty: two blank lines)
    d, lo, hi = frame.loc[1, ["hands_vs_first", "hands_vs_first_lo", "hands_vs_first_hi"]]
    assert study.verdict() == (f"out_at_zero_chips=true: {-d:.2f} fewer hands per game than out_at_zero_chips=false "
                               f"[{-hi:.2f}, {-lo:.2f}].")


def test_rule_grid_is_a_product():
    grid = cmp.rule_grid([("a", "1"), ("b", "x"), ("a", "2"), ("b", "y")])
    assert grid == [{"a": "1", "b": "x"}, {"a": "1", "b": "y"}, {"a": "2", "b": "x"}, {"a": "2", "b": "y"}]


def test_cli_compare_outputs(cli, tmp_path):
    table, plot = tmp_path / "pairs.csv", tmp_path / "p.png"
    code, out, err = cli("compare", "ninety-nine", "heuristic", "random", "--games", "1000", "--json",
                         "--csv", table, "--plot", plot)
    assert code == 0, err
    data = json.loads(out)
    assert data["deals"] == 1000 and data["pairs"][0]["strategy"] == "heuristic"
    assert list(pd.read_csv(table)["opponent"]) == ["random"]
    assert plot.read_bytes()[:4] == b"\x89PNG"
    code, out, err = cli("compare", "ninety-nine", "--rule", "chips=2", "--rule", "chips=4", "--games", "500",
                         "--plot", plot)
    assert code == 0, err
    assert out.splitlines()[:2] == [out.splitlines()[0], "variants"] and "chips=4" in out
    code, out, err = cli("compare", "ninety-nine", "heuristic", "random", "--games", "1", "--seed", "3")
    assert code == 0, err
    assert out.startswith("ninety-nine: 1 deal, seed 3, ")  # it said "1 deals"


@pytest.mark.parametrize("args,message", [
    (["compare", "ninety-nine", "random"], "at least two strategies"),
    (["compare", "ninety-nine", "random", "magic"], "unknown strategy 'magic'"),
    (["compare", "ninety-nine", "random", "heuristic", "--rule", "chips=2", "--rule", "chips=3"], "either strategies"),
    (["compare", "ninety-nine", "--rule", "chips=2"], "at least two strategies"),
    (["compare", "ninety-nine", "random", "heuristic", "--alpha", "2"], "--alpha must be between"),
])
def test_cli_compare_bad_input(cli, args, message):
    code, out, err = cli(*args)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_pairing_lowers_the_variance_on_duplicate_deals():
    """Two close strategies (pitch bidding with a different partner allowance): on the same
    deals they often play alike, and the seat swap cancels the luck of those deals."""
    result = cmp.compare("pitch10", ["heuristic", "heuristic:partner=22"], games=4000, seed=6,
                         rules={"target": 5})
    row = result.tables["pairs"].iloc[0]
    assert row["difference_se"] < 0.8 * row["difference_se_unpaired"], row


def test_a_strategy_name_with_spaces_around_is_the_strategy():
    spaced = cmp.compare("hearts2", ["heuristic ", " random"], games=20, seed=2, workers=1)
    plain = cmp.compare("hearts2", ["heuristic", "random"], games=20, seed=2, workers=1)
    assert spaced.strategies == ["heuristic", "random"]
    pd.testing.assert_frame_equal(spaced.tables["pairs"], plain.tables["pairs"])


def test_a_compare_interrupted_before_its_first_deal_says_so(monkeypatch):
    # it said "heuristic and random are not told apart: heuristic takes nan of the wins (no
    # interval from one deal), p = 1.000 (0 deals)"
    from analyzer import runner

    plain = runner.call_interruptibly

    def call(fn, *args, **kwargs):
        if "timeout" in kwargs:  # the first chunk of games: Ctrl-C
            raise KeyboardInterrupt
        return plain(fn, *args, **kwargs)

    monkeypatch.setattr(runner, "call_interruptibly", call)
    result = cmp.compare("ninety-nine", ["heuristic", "random"], games=100, seed=1, workers=1)
    assert result.interrupted and result.games == 0
    assert result.verdict().splitlines()[0] == "heuristic and random: no deal played."


def test_after_sequential_looks_the_verdict_calls_only_a_decided_pairing():
    # a run that never stopped early ends with p = 0.02: under alpha = 0.05 but above the
    # level of each of its 8 looks (0.05 / 8); calling it "stronger" raised the rate of a wrong
    # call under equal strength from 0.04 to 0.08 (simulated, 100,000 deals from 1,000)
    row = {"strategy": "heuristic", "opponent": "random", "win_rate": 0.52, "win_rate_lo": 0.503,
           "win_rate_hi": 0.537, "deals": 100_000, "p_value": 0.02, "decided": False}
    result = cmp.Comparison("hearts2", {}, 0, ["heuristic", "random"], 100_000, 1.0, False, False, 0.05,
                            {"pairs": pd.DataFrame([row])}, 0.05 / 8)
    first = result.verdict().splitlines()[0]
    assert first.startswith("heuristic and random are not told apart") and f"above {0.05 / 8:.2g}," in first, first
    assert result.to_dict()["level"] == 0.05 / 8
    decided = cmp.Comparison("hearts2", {}, 0, ["heuristic", "random"], 100_000, 1.0, False, True, 0.05,
                             {"pairs": pd.DataFrame([{**row, "p_value": 0.001, "decided": True}])}, 0.05 / 8)
    assert decided.verdict().startswith("heuristic is stronger than random: 0.520 of the wins")
