"""The generic evaluator's statistics: checked against plain numpy on the same numbers,
against exact enumeration, and for agreement between ranking, racing and P(best)."""

from __future__ import annotations

import json
import math
from itertools import combinations

import numpy as np
import pytest

from analyzer import api
from analyzer.errors import AnalyzerError
from analyzer.evaluate import Evaluation, _Plan, _table, evaluate
from analyzer.stats import OptionStats, normal_quantile, prob_best, proportion_interval, wilson


# ---- the statistics module ---------------------------------------------------------------

def test_option_stats_unweighted_equal_plain_numpy():
    gen = np.random.default_rng(1)
    x = gen.integers(0, 2, size=(500, 3, 2))
    x[:, :, 0] = gen.integers(-5, 10, size=(500, 3))
    stats = OptionStats(3)
    stats.add([0, 1, 2], x[:200], 0)
    stats.add([0, 1, 2], x[200:], 200)
    for i in range(3):
        for col in (0, 1):
            m, v = stats.mean_var(i, col)
            assert m == pytest.approx(x[:, i, col].mean())
            assert v == pytest.approx(x[:, i, col].var(ddof=1) / 500)
    d, se = stats.diff(0, 2, 1)
    diff = x[:, 0, 1] - x[:, 2, 1]
    assert d == pytest.approx(diff.mean()) and se == pytest.approx(math.sqrt(diff.var(ddof=1) / 500))


def test_option_stats_stratified_weighs_worlds_and_keeps_only_the_within_world_spread():
    # three worlds with probabilities 1/2, 1/3, 1/6; option values deterministic per world
    pi = np.array([3.0, 2.0, 1.0])
    value = np.array([[1, 0], [0, 1], [1, 1]])   # world x option (win)
    n = 60                                        # 20 samples per world, in world order
    x = np.zeros((n, 2, 2), dtype=np.int64)
    for j in range(n):
        x[j, :, 1] = value[j % 3]
    stats = OptionStats(2, pi)
    stats.add([0, 1], x, 0)
    exact = (pi / pi.sum()) @ value
    for i in range(2):
        m, v = stats.mean_var(i, 1)
        assert m == pytest.approx(exact[i]) and v == pytest.approx(0.0)
    # over the listed worlds, when a play of a world can end only one way (deterministic
    # rollouts, no stock order left: evaluate's _Plan.exact), a variance of 0 is exactness:
    # evaluate gives the estimate as its own interval. Otherwise plays that ended alike may
    # have done so by chance: the interval of 60 draws, as for sampled data
    from analyzer.evaluate import _interval

    lo, hi = _interval(stats, 0, 1, True, exact=True)
    assert lo == hi == pytest.approx(exact[0])
    lo, hi = _interval(stats, 0, 1, True, exact=False)
    z, p = 1.959964, exact[0]  # Wilson's interval by its textbook formula
    centre, half = (p + z * z / 120) / (1 + z * z / 60), z / (1 + z * z / 60) * math.sqrt(p * (1 - p) / 60 + z * z / 14400)
    assert (lo, hi) == pytest.approx((centre - half, centre + half), abs=1e-5)


def test_option_stats_importance_weights_equal_the_weighted_formulas():
    gen = np.random.default_rng(2)
    x = gen.integers(0, 2, size=(400, 2, 2))
    w = gen.uniform(0.1, 3.0, size=400)
    stats = OptionStats(2)
    stats.add([0, 1], x, 0, w)
    m, v = stats.mean_var(1, 1)
    xs = x[:, 1, 1]
    mean = (w * xs).sum() / w.sum()
    ness = w.sum() ** 2 / (w * w).sum()
    var = (w * w * (xs - mean) ** 2).sum() / w.sum() ** 2 * ness / (ness - 1)
    assert m == pytest.approx(mean) and v == pytest.approx(var)
    assert stats.effective_samples(0) == pytest.approx(ness)


def test_prob_best_follows_the_means_and_sums_to_one():
    gen = np.random.default_rng(3)
    for _ in range(200):
        k = int(gen.integers(2, 8))
        means = gen.normal(0.5, 0.02, size=k)
        p = prob_best(means, float(gen.uniform(0.001, 0.05)))
        assert p.sum() == pytest.approx(1.0)
        order = np.argsort(-means)
        assert np.all(np.diff(p[order]) <= 1e-12)          # never contradicts the ranking
    # two options: P(best) is the normal tail of the standardised difference
    assert prob_best(np.array([0.51, 0.50]), 0.01)[0] == pytest.approx(0.841344746, abs=1e-6)
    assert list(prob_best(np.array([0.2, 0.2, 0.1]), 0.0)) == [0.5, 0.5, 0.0]


def test_prob_best_equals_the_integral_computed_by_scipy():
    """The compiled products (analyzer.normal) against scipy's normal CDF and quadrature:
    P(i best) = integral of phi(z) prod_j Phi((m_i - m_j) / a + z) dz, a = spread / sqrt 2."""
    from scipy import integrate, special

    gen = np.random.default_rng(11)
    for k in (3, 5, 12):
        means = gen.normal(0.5, 0.03, size=k)
        spread = float(gen.uniform(0.005, 0.05))
        a = spread / np.sqrt(2)
        want = np.array([integrate.quad(lambda z: np.exp(-z * z / 2) / np.sqrt(2 * np.pi)
                                        * np.prod(special.ndtr((means[i] - np.delete(means, i)) / a + z)),
                                        -12, 12, epsabs=1e-13, limit=200)[0] for i in range(k)])
        assert prob_best(means, spread) == pytest.approx(want / want.sum(), abs=1e-7)


def test_intervals_for_proportions_stay_inside_0_1():
    for p, v, n in [(0.0, 0.0, 50), (1.0, 0.0, 50), (0.001, 1e-6, 1000), (0.999, 1e-7, 10), (0.5, 0.25, 1)]:
        lo, hi = proportion_interval(p, v, n)
        assert 0.0 <= lo <= p <= hi <= 1.0
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    for q in (1e-9, 0.001, 0.025, 0.5, 0.975, 0.9999):
        assert 0.5 * math.erfc(-normal_quantile(q) / math.sqrt(2)) == pytest.approx(q, rel=1e-9)


# ---- ranking, ties and dropped options -------------------------------------------------------

def _evaluation(k: int, lower_is_better: bool = False) -> Evaluation:
    return Evaluation(seat=0, options=list(range(k)), names=[f"o{i}" for i in range(k)], outcome="points",
                      outcome_binary=False, run=None, lower_is_better=lower_is_better)


def test_ties_on_the_win_are_ranked_by_the_hand_outcome_in_its_direction():
    # every option wins every sample: the points decide, and fewer are better here
    x = np.zeros((64, 3, 2), dtype=np.int64)
    x[:, :, 1] = 1
    x[:, 0, 0], x[:, 1, 0], x[:, 2, 0] = 11, 10, 12
    stats = OptionStats(3)
    stats.add([0, 1, 2], x, 0)
    table, ranked_by = _table(_evaluation(3, lower_is_better=True), [[0], [1], [2]], stats, [0, 1, 2])
    assert ranked_by == "points" and list(table["option"]) == ["o1", "o0", "o2"]
    assert table["p_best"].iloc[0] == 1.0


def test_dropped_options_rank_after_kept_ones_with_p_best_zero():
    x = np.zeros((100, 3, 2), dtype=np.int64)
    x[:50, 0, 1] = 1        # option 0 wins half
    x[:20, 1, 1] = 1        # option 1 (dropped) wins a fifth
    x[:10, 2, 1] = 1        # option 2 (kept, e.g. large SE) wins a tenth
    stats = OptionStats(3)
    stats.add([0, 1, 2], x, 0)
    table, _ = _table(_evaluation(3), [[0], [1], [2]], stats, [0, 2])
    assert list(table["option"]) == ["o0", "o2", "o1"]
    assert table.set_index("option").loc["o1", "p_best"] == 0.0
    assert list(table["p_best"]) == sorted(table["p_best"], reverse=True)


def test_racing_threshold_keeps_the_family_wise_error_at_five_percent():
    plan = _Plan(_evaluation(5), [[i] for i in range(5)], 20_000, 0.95, 0)
    looks = plan.looks
    assert looks == len(list(plan.rounds())) and sum(plan.rounds()) == 20_000
    one_sided = 0.5 * math.erfc(plan.race_z / math.sqrt(2))
    assert one_sided * 5 * 4 * looks == pytest.approx(0.05)  # every ordered pair of the 5 options


def test_racing_drops_no_option_of_equal_value_more_than_five_percent_of_the_time():
    """Options of equal value, simulated at the looks of a 20,000-sample run: racing drops one
    when the leader's paired lead passes race_z standard errors, so any look where the range of
    the means passes it is an error. Bonferroni over options but not ordered pairs dropped one
    of 3 equal options 8.6% of the time (of 10, 25%)."""
    rng = np.random.default_rng(8)
    k, runs = 3, 20_000
    plan = _Plan(_evaluation(k), [[i] for i in range(k)], 20_000, 0.95, 0)
    sums, n, dropped = np.zeros((runs, k)), 0, np.zeros(runs, dtype=bool)
    for size in plan.rounds():
        sums += rng.normal(0.0, math.sqrt(size), (runs, k))  # each option's own noise (sd 1 a sample)
        n += size
        spread = (sums.max(axis=1) - sums.min(axis=1)) / n
        dropped |= spread > plan.race_z * math.sqrt(2 / n)  # paired difference's SE: sqrt(2 / n)
    assert dropped.mean() < 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs), dropped.mean()


# ---- whole evaluations ------------------------------------------------------------------------

def test_forced_move_is_answered_at_once():
    events = api.play("hearts2", seed=5, index=0, seats=["random", "random"])[0]
    from analyzer.games import get

    spec = get("hearts2")
    position = spec.position_from_record(events, 1)  # the first lead is forced (2C, 4C or 6C)
    result = evaluate("hearts2", position, samples=5000)
    assert result.samples == 0 and result.stopped == "forced" and len(result.table) == 1


def test_a_record_decision_keeps_the_move_played_among_the_options(tmp_path):
    """Twenty-Two screens a decision of more than 128 legal discards down to the 128 best on a
    first pass; at a record's decision the move played stays in the evaluation all the same
    (review compares it with the best), and ``facts["played"]`` names its row. Seed 1's game:
    decision 65 is seat 0 discarding TTJQ from 288 legal sets, which the screen leaves out;
    decision 68 is the forced empty discard (the table calls it "-")."""
    from analyzer import records

    path = tmp_path / "t.jsonl"
    path.write_text(records.to_jsonl(api.play("twenty-two", seed=1)))
    decide = [e for e in (json.loads(line) for line in path.read_text().splitlines()) if e["ev"] == "decide"]
    assert (decide[64]["move"], len(decide[64]["legal"])) == ("TTJQ", 288)
    result = evaluate("twenty-two", record=str(path), at=65, samples=8)
    options = list(result.table["option"])
    assert len(options) == 129 and "TTJQ" in options  # the 128 screened in, and the move played
    assert result.facts["played"] == "TTJQ"
    assert len(result.facts["options_legal"]) == 129
    assert decide[67]["move"] == "" and evaluate("twenty-two", record=str(path), at=68).facts["played"] == "-"


def _assert_agrees(result) -> None:
    """P(best) follows the rank, dropped options have none, every proportion in [0, 1]."""
    table = result.table
    if result.samples == 0:  # forced or all equivalent: one row, nothing estimated
        assert len(table) == 1 and result.stopped.split(":")[0] in ("forced", "equivalent")
        return
    p = list(table["p_best"])
    assert p == sorted(p, reverse=True), table
    assert (table.loc[table["dropped"], "p_best"] == 0).all()
    if result.stopped.startswith("separated"):
        assert p[0] >= 0.95
    for col in ("win_lo", "win", "win_hi"):
        values = table[col].dropna()
        assert ((values >= 0) & (values <= 1)).all()
    assert (table["win_lo"] <= table["win"] + 1e-12).all() and (table["win"] <= table["win_hi"] + 1e-12).all()


@pytest.mark.parametrize("game,seats", [("hearts2", ["random", "heuristic"]),
                                        ("ninety-nine", ["random", "heuristic", "heuristic"])])
def test_p_best_never_contradicts_ranking_or_racing(game, seats, tmp_path):
    from analyzer.games import get

    spec = get(game)
    events = api.play(game, seed=11, index=0, seats=seats)[0]
    decisions = [ev for ev in events if ev["ev"] == "decide"]
    checked = 0
    for at in range(1, len(decisions) + 1, max(1, len(decisions) // 8)):
        position = spec.position_from_record(events, at)
        for seed in (1, 2):
            result = evaluate(game, position, samples=3000, seed=seed, rollout="random")
            _assert_agrees(result)
            checked += 1
    assert checked >= 8


def test_enumerated_worlds_are_every_consistent_deal_once():
    from analyzer.games import get
    from analyzer.games.hearts2.spec import dead_worlds

    spec = get("hearts2")
    events = api.play("hearts2", seed=5, index=0, seats=["random", "random"])[0]
    rules = spec.resolve_rules(events[0]["rules"])
    for at in (2, 10, 20):
        known = spec.read_position(rules, spec.position_from_record(events, at))
        pool, forced = known.pool, known.forced_dead
        free = [c for c in range(52) if (pool & ~forced) >> c & 1]
        expected = {forced | sum(1 << c for c in pick) for pick in combinations(free, 2 - bin(forced).count("1"))}
        worlds = dead_worlds(pool, forced, 10_000)
        assert sorted(worlds.tolist()) == sorted(expected)
        # the sampler draws exactly these worlds, each about equally often
        draws = spec.hidden_samples(rules, spec.position_from_record(events, at), 4000, seed=at)[:, 1]
        assert set(draws.tolist()) <= expected
        counts = np.array([np.sum(draws == w) for w in sorted(expected)])
        expected_count = 4000 / len(expected)
        chi2 = ((counts - expected_count) ** 2 / expected_count).sum()
        assert chi2 < len(expected) + 5 * math.sqrt(2 * len(expected))


def test_hearts2_merges_only_interchangeable_cards():
    from analyzer.cards import parse_card
    from analyzer.games.hearts2.spec import equivalent_cards

    def cards(text):
        return [parse_card(t) for t in text.split()]

    def mask(text):
        return sum(1 << c for c in cards(text))

    legal = cards("4S 6S TS QS 2H 4H 8H")
    # live: 8S (between 6S and TS), AS, 6H (between 4H and 8H); QS has 13 points
    groups = equivalent_cards(legal, mask("8S AS 6H 2S"), -1)
    named = sorted(sorted(" ".join(str(legal[i]) for i in g) for g in groups))
    by_text = [sorted(legal[i] for i in g) for g in groups]
    assert sorted(by_text) == sorted([cards("4S 6S"), cards("TS"), cards("QS"), cards("2H 4H"), cards("8H")])
    assert named  # (readable on failure)
    # the card led to the trick counts as live: 6S led splits 4S from TS
    legal = cards("4S TS")
    assert equivalent_cards(legal, mask("2S"), parse_card("6S")) is None
    assert equivalent_cards(legal, mask("2S"), -1) == [[0, 1]]


def test_cli_evaluate_json_reports_method_and_ranking(cli, tmp_path):
    record = tmp_path / "g.jsonl"
    code, _, err = cli("play", "hearts2", "--seed", "5", "--seat", "0=random", "--seat", "1=random",
                       "--record", str(record))
    assert code == 0, err
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "20", "--samples", "1000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["method"].startswith("exact over") and data["ranked_by"] in ("win", "points")
    assert data["race_alpha"] == 0.05


def test_cli_evaluate_restates_answers_and_fits_80_columns(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    record = tmp_path / "g.jsonl"
    code, _, err = cli("play", "hearts2", "--seed", "5", "--seat", "0=random", "--seat", "1=random",
                       "--record", str(record))
    assert code == 0, err
    code, out, err = cli("evaluate", "hearts2", "--record", str(record), "--at", "5", "--samples", "2000",
                         "--rollout", "random")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("hearts2: seat 1, trick 3")
    assert any(line.strip().startswith("hand:") for line in lines)
    assert any(line.strip().startswith("legal: 8C TC AC 4D 8D 2S") for line in lines)
    assert any("ranked by win, then points (fewer is better)" in line for line in lines)
    assert "…" not in out and max(len(line) for line in lines) <= 80
    assert not any(line.endswith(" ") for line in lines)  # the table's last column pads nothing
    verdict = [i for i, line in enumerate(lines) if line.startswith(("Play ", "Best guess "))]
    assert verdict and all(line.startswith("  ") for line in lines[verdict[-1] + 1:])  # the verdict, wrapped
    assert "8C/TC/AC" in out  # interchangeable clubs share a row


def test_option_groups_complete_a_partial_partition():
    """A game may list only its merged options (Ninety-Nine's J/Q): every other option is
    then a group of its own, never dropped from the table (found by analyzer review)."""
    from analyzer.evaluate import Evaluation, option_groups

    ev = Evaluation(seat=0, options=[5, 10, 11], names=["7", "J", "Q"], outcome="went_over", outcome_binary=True,
                    run=lambda *a: None, groups=[[1, 2]])
    assert option_groups(ev) == [[0], [1, 2]]
    ev.groups = None
    assert option_groups(ev) == [[0], [1], [2]]
    ev.groups = [[0, 1], [1, 2]]
    with pytest.raises(ValueError):
        option_groups(ev)


def _verdict(rows: list[dict], samples: int = 1000, ranked_by: str = "win") -> str:
    """The verdict of a result whose table holds ``rows`` (the best first): the columns the
    verdict reads, the others as an evaluation fills them."""
    from analyzer.evaluate import EvaluationResult
    import pandas as pd

    base = {"win_lo": 0.0, "win_hi": 1.0, "went_over": 0.1, "went_over_lo": 0.0, "went_over_hi": 0.2,
            "diff_se": 0.01, "outcome_diff": 0.0, "outcome_diff_se": 0.01, "dropped": False}
    table = pd.DataFrame([{**base, **row} for row in rows])
    return EvaluationResult("ninety-nine", {}, samples, 0.1, "separated", {"options": table},
                            {"ranked_by": ranked_by, "confidence": 0.95, "outcome_binary": True}).verdict()


def test_the_verdict_never_says_play_and_not_separated_nor_rounds_to_certainty():
    rows = [{"option": "8S", "win": 0.41, "p_best": 0.995, "diff_to_best": 0.0, "diff_se": 0.0},
            {"option": "2D", "win": 0.40, "p_best": 0.004, "diff_to_best": -0.016},
            {"option": "TD", "win": 0.39, "p_best": 0.001, "diff_to_best": -0.02}]
    line = _verdict(rows)
    assert line.startswith("Play 8S (P(best) > 0.99)") and "1 more behind" in line and "not separated" not in line
    rows[0]["p_best"], rows[1]["p_best"] = 0.60, 0.399
    line = _verdict(rows)
    assert line.startswith("Best guess 8S (P(best) 0.60)") and "1 more not separated" in line


def test_a_second_option_whose_interval_reaches_level_is_said_to_be_maybe_as_good():
    # P(best) 0.96 is one-sided; the difference's interval is two-sided: 1.5% +- 1.96 * 0.9%
    # reaches level, which the verdict says (it read as a contradiction of "Play")
    rows = [{"option": "7", "win": 0.648, "p_best": 0.96, "diff_to_best": 0.0, "diff_se": 0.0},
            {"option": "K", "win": 0.633, "p_best": 0.04, "diff_to_best": -0.015, "diff_se": 0.009}]
    assert "; K is 1.5 percentage points worse (±1.8: it may be as good)." in _verdict(rows)
    rows[1]["diff_se"] = 0.005  # 1.5% +- 1.0%: worse, and nothing more said
    assert "; K is 1.5 percentage points worse (±1.0)." in _verdict(rows)


def test_options_that_end_alike_in_every_sample_are_named_with_the_best():
    # the paired differences all exactly zero: no number of samples tells them apart
    alike = {"diff_to_best": 0.0, "diff_se": 0.0, "outcome_diff": 0.0, "outcome_diff_se": 0.0}
    rows = [{"option": "QS", "win": 0.61, "p_best": 0.5, **alike}, {"option": "AS", "win": 0.61, "p_best": 0.5, **alike},
            {"option": "3S", "win": 0.33, "p_best": 0.0, "diff_to_best": -0.28, "dropped": True}]
    line = _verdict(rows, samples=20000)
    assert line.startswith("Play QS or AS (P(best) 1.00)")
    assert "both ended alike in all 20,000 samples; the rest are clearly worse." in line and "--samples" not in line
    # a win the same in every sample is said as a fact of those samples, not of the game
    line = _verdict([{"option": "9", "win": 1.0, "p_best": 0.2, "diff_to_best": 0.0, "diff_se": 0.0,
                      "outcome_diff": 0.0},
                     {"option": "T+10", "win": 1.0, "p_best": 0.2, "diff_to_best": 0.0, "diff_se": 0.0}],
                    samples=1, ranked_by="went_over")
    assert "(the win was the same for every option in the one sample)" in line
    assert "went_over 10.0% [0.0%, 20.0%]" in line


def test_an_exact_answer_over_the_worlds_has_an_interval_of_zero_width():
    # hearts2, the last trick but one: 2H wins the game in the one world (docs/evaluate.md:
    # with deterministic rollouts an interval of zero width), also at 100%
    spot = {"seat": 0, "hand": "QS 2H", "scores": "99,99", "trick": "2D",
            "played": "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD"}
    result = evaluate("hearts2", spot, samples=300, seed=1)
    assert result.facts["method"] == "exact over 1 world"
    best = result.table.iloc[0]
    assert best["option"] == "2H" and best["win"] == best["win_lo"] == best["win_hi"] == 1.0


@pytest.mark.parametrize("edit, said", [
    (lambda evs: evs[1].update(hands=[[c.lower() for c in h] for h in evs[1]["hands"]]),
     "line 2: '{card}' is not a card as a record writes it ({CARD})"),
    (lambda evs: [e for e in evs if e["ev"] == "decide"][4].update(seat=5),
     "line {line}: seat 5 is not a seat of a 2-player game (0 to 1)"),
    (lambda evs: [e for e in evs if e["ev"] == "decide"][4].update(seat="1"),
     "line {line}: seat '1' is not a seat of a 2-player game (0 to 1)"),
    (lambda evs: evs[0].pop("players"), "line 1: the game event needs \"players\", the number of players, not None"),
])
def test_an_edited_record_is_refused_in_the_same_words_by_evaluate_review_and_solve(tmp_path, edit, said):
    """Each said something else (``list.remove(x): x not in list``, a duplicate card, an
    IndexError) or, without players, reviewed a "0-player game"."""
    from analyzer import records

    events = api.play("hearts2", seed=7)[0]
    edit(events)
    path = tmp_path / "edited.jsonl"
    path.write_text(records.to_jsonl([events]))
    fifth = [i for i, e in enumerate(events) if e["ev"] == "decide"][4] + 1
    first = events[1]["hands"][0][0]
    expected = f"record file {path}, " + said.format(line=fifth, card=first, CARD=first.upper())
    for call in (lambda: api.evaluate("hearts2", record=str(path), at=8, samples=20),
                 lambda: api.review("hearts2", str(path), samples=20),
                 lambda: api.solve("hearts2", record=str(path), at=8)):
        with pytest.raises(AnalyzerError) as caught:
            call()
        assert str(caught.value) == expected


def test_a_record_saved_with_a_byte_order_mark_is_read(tmp_path):
    from analyzer import records

    path = tmp_path / "bom.jsonl"
    path.write_text(records.to_jsonl(api.play("hearts2", seed=7)), encoding="utf-8-sig")  # as some editors save
    assert api.evaluate("hearts2", record=str(path), at=8, samples=20).position["seat"] in (0, 1)


def _uses_numpy_random(view, legal, n, rng):
    return legal[np.random.randint(n)]


def _calls_a_helper_that_draws(view, legal, n, rng):
    return _uses_numpy_random(view, legal, n, None)


def _reads_its_stream(view, legal, n, rng):
    return legal[rng[0] % n]


def _first(view, legal, n, rng, margin=3):
    return legal[0] if n < margin else legal[n - 1]


def test_exactness_over_worlds_needs_rollouts_that_draw_nothing():
    """evaluate calls a column without variance over the listed worlds exact only when no
    rollout strategy draws (_Plan.exact): built-ins by their declaration, a user strategy by
    its code (its rng never read, no numpy.random, nor in a function of its own it calls)."""
    from analyzer import games
    from analyzer.evaluate import _draws_nothing
    from analyzer.strategies import SeatStrategy, UserStrategy, parse_strategy

    spec = games.get("hearts2")
    assert _draws_nothing(spec, parse_strategy(spec, "heuristic"))
    for name in ("random", "mc", "mc:k=4,base=heuristic", "pimc", "ismcts"):
        assert not _draws_nothing(spec, parse_strategy(spec, name)), name
    user = {f: _draws_nothing(spec, SeatStrategy(f.__name__, function=UserStrategy(f)))
            for f in (_first, _reads_its_stream, _uses_numpy_random, _calls_a_helper_that_draws)}
    assert user == {_first: True, _reads_its_stream: False, _uses_numpy_random: False,
                    _calls_a_helper_that_draws: False}
    import types

    module = types.ModuleType("user_tools")  # a helper reached through a module: tools.pick(...)
    module.pick = _uses_numpy_random

    def _through_a_module(view, legal, n, rng):
        return user_tools.pick(view, legal, n, None)  # noqa: F821 - found in the globals below

    through = types.FunctionType(_through_a_module.__code__, {"user_tools": module})
    assert not _draws_nothing(spec, SeatStrategy("through", function=UserStrategy(through)))
