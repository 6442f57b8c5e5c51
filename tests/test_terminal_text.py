"""What a reader sees: numbers that never round to what they are not (an estimate at its
interval's end, an interval without width, a certainty, a signed zero), verdicts that say
their units, and the lines of simulate, evaluate and review as the tables give them.

Expected texts are worked out here by hand (plain arithmetic), not by the code under test."""

from __future__ import annotations

import pandas as pd

from analyzer.terminal import chance, interval, number, texts_apart

Z95 = 1.959963984540054  # the normal's 97.5% point


def test_no_rounding_says_an_estimate_sits_at_its_end_or_is_zero():
    # 0.9996 of the wins, Wilson's upper end exactly 1: at 3 decimals both read "1.000"
    assert interval(0.9996, 0.981, 1.0) == "0.9996 [0.9810, 1.0000]"
    # an estimate at its end (every game won) keeps its 3 decimals
    assert interval(1.0, 0.981, 1.0) == "1.000 [0.981, 1.000]"
    # 3 of 10,000 beside a lower end of exactly 0: "0.000 [0.000, ...]" said none
    assert interval(0.0003, 0.0, 0.0157) == "0.0003 [0.0000, 0.0157]"
    # ends that differ by noise only are left alike, not printed to 6 decimals
    assert interval(0.0, 1e-17, 0.016) == "0.000 [0.000, 0.016]"


def test_a_zero_has_no_sign():
    # compare's score margin of two equal strategies came out as -9.7e-19: "-0.000 ±0.058"
    assert interval(-9.7e-19, -0.0576, 0.0576) == "0.000 ±0.058"
    assert number(-0.00001) == "0.0000" and number(-0.0) == "0.0000"
    assert number(-0.5) == "-0.5000" and interval(-1.296, -1.393, -1.199) == "-1.296 ±0.097"


def test_verdict_numbers_part_where_they_differ():
    assert texts_apart((0.352, 0.307, 0.401), 3) == ["0.352", "0.307", "0.401"]
    assert texts_apart((0.9996, 0.981, 1.0), 1, percent=True) == ["99.96%", "98.10%", "100.00%"]
    assert texts_apart((1.0, 0.981, 1.0), 1, percent=True) == ["100.0%", "98.1%", "100.0%"]
    # an interval of width 0.0008 about 0.5 is not "[0.500, 0.500]"
    assert texts_apart((0.5, 0.4996, 0.5004), 3) == ["0.5000", "0.4996", "0.5004"]


def test_a_chance_is_never_rounded_to_a_certainty():
    assert chance(0.9996) == ">0.999" and chance(1.0) == "1.000"
    assert chance(0.0004) == "<0.001" and chance(0.0) == "0.000"
    assert chance(0.4751) == "0.475"


def test_simulate_names_its_leader_with_the_table_s_digits():
    from analyzer.api import _leader_line

    table = pd.DataFrame({"seat": [0, 1], "strategy": ["heuristic", "random"], "win_rate": [0.9996, 0.0004],
                          "win_rate_lo": [0.981, 0.0], "win_rate_hi": [1.0, 0.019]})
    assert _leader_line(table, "seat", lambda r: r["strategy"]).startswith(
        "Seat 0 (heuristic) won most often: 0.9996 of the games [0.9810, 1.0000]; clearly ahead")


def test_compare_verdict_does_not_round_a_share_to_its_end():
    import analyzer.compare as cmp

    row = {"strategy": "heuristic", "opponent": "random", "win_rate": 0.9996, "win_rate_lo": 0.981,
           "win_rate_hi": 1.0, "deals": 2_500, "p_value": 1e-30, "decided": True}
    result = cmp.Comparison("hearts2", {}, 0, ["heuristic", "random"], 2_500, 1.0, False, False, 0.05,
                            {"pairs": pd.DataFrame([row])})
    assert result.verdict().startswith(
        "heuristic is stronger than random: 0.9996 of the wins [0.9810, 1.0000], p < 0.0001 (2,500 deals).")
    # the weaker one named first: its share is 1 minus the table's, the ends swapped
    low = {**row, "strategy": "random", "opponent": "heuristic", "win_rate": 0.25, "win_rate_lo": 0.2,
           "win_rate_hi": 0.3}
    result.tables["pairs"] = pd.DataFrame([low])
    assert result.verdict().startswith("heuristic is stronger than random: 0.750 of the wins [0.700, 0.800]")


def _evaluation_verdict(win: float, win_lo: float, win_hi: float, second: dict) -> str:
    from analyzer.evaluate import EvaluationResult

    base = {"went_over": 0.1, "went_over_lo": 0.0, "went_over_hi": 0.2, "outcome_diff": 0.0,
            "outcome_diff_se": 0.01, "dropped": False}
    rows = [{**base, "option": "7", "win": win, "win_lo": win_lo, "win_hi": win_hi, "p_best": 0.97,
             "diff_to_best": 0.0, "diff_se": 0.0},
            {**base, "option": "K", "win_lo": 0.0, "win_hi": 1.0, "p_best": 0.03, **second}]
    return EvaluationResult("ninety-nine", {}, 1000, 0.1, "separated", {"options": pd.DataFrame(rows)},
                            {"ranked_by": "win", "confidence": 0.95, "outcome_binary": True}).verdict()


def test_evaluate_gives_a_gap_in_percentage_points_and_no_false_certainty():
    # 65.1% against 64.0%: 1.1 percentage points (it read "1.1% worse", a relative change)
    line = _evaluation_verdict(0.651, 0.636, 0.666, {"win": 0.64, "diff_to_best": -0.011, "diff_se": 0.004})
    half = Z95 * 0.004  # 0.00784: 0.8 points
    assert f"wins 65.1% [63.6%, 66.6%]; K is 1.1 percentage points worse (±{100 * half:.1f})." in line
    # a gap and a half-width that differ print apart: 1.23 against 1.24 points, not "1.2 (±1.2...)"
    se = 0.0124 / Z95
    line = _evaluation_verdict(0.651, 0.636, 0.666, {"win": 0.64, "diff_to_best": -0.0123, "diff_se": se})
    assert "K is 1.23 percentage points worse (±1.24: it may be as good)" in line
    # 0.9996 wins: not "100.0%"
    line = _evaluation_verdict(0.9996, 0.99, 1.0, {"win": 0.99, "diff_to_best": -0.0096, "diff_se": 0.002})
    assert "wins 99.96% [99.00%, 100.00%]" in line


def test_review_says_each_loss_in_points_with_its_interval():
    from analyzer.review import ReviewResult

    decisions = pd.DataFrame([{"decision": 145, "hand": 3, "seat": 0, "played": "2H", "best": "AC",
                               "loss_win": 0.109375, "loss_win_se": 0.0195, "loss_outcome": 6.0,
                               "loss_outcome_se": 0.0, "p_best_played": 0.0, "flagged": True, "note": ""}])
    seats = pd.DataFrame([{"seat": 0, "decisions": 130, "choices": 105, "loss_win": 1.1459, "loss_win_lo": 0.9022,
                           "loss_win_hi": 1.3897, "loss_per_choice": 0.010914, "flagged": 23, "unclear": 37}])
    result = ReviewResult("two-ten-jack", "r.jsonl", 0, [0], "heuristic", 256, 1.0,
                          {"decisions": decisions, "seats": seats})
    first, line = result.verdict().splitlines()
    assert first == ("Seat 0: 105 choice(s) cost 114.6 points of win probability in all [90.2, 139.0], 1.09 per "
                     "choice; 23 flagged, 37 not separated.")
    lo, hi = 100 * (0.109375 - Z95 * 0.0195), 100 * (0.109375 + Z95 * 0.0195)  # 7.11, 14.76
    assert line == (f"hand 3, decision 145 (seat 0): played 2H, best AC: cost 10.9 points of win probability "
                    f"[{lo:.1f}, {hi:.1f}] (flagged)")
    assert f"{lo:.1f}, {hi:.1f}" == "7.1, 14.8"


def test_review_table_gives_the_loss_in_points_as_the_verdict_does():
    from analyzer.cli import _decisions_in_points
    from analyzer.terminal import render

    decisions = pd.DataFrame([{"decision": 145, "hand": 3, "seat": 0, "played": "2H", "best": "AC",
                               "loss_win": 0.109375, "loss_win_se": 0.0195, "p_best_played": 0.0, "note": ""}])
    text = render(_decisions_in_points(decisions), "decisions", total=80)
    row = text.splitlines()[3].split()
    # 10.9375 points, half-width 1.96 * 1.95 = 3.82: two significant digits of the half-width
    assert row[:7] == ["145", "3", "0", "2H", "AC", "10.9", "±3.8"], row


def test_simulate_counts_ninety_nine_s_rounds_and_a_short_run_s_time(monkeypatch, capsys):
    from analyzer import cli
    from analyzer.api import Summary

    monkeypatch.setenv("COLUMNS", "80")
    summary = Summary("ninety-nine", {"players": 3}, 3, ["heuristic"] * 3, 400, 6_117, 0.0044, False, {}, {})
    cli._print_summary(summary)
    first = capsys.readouterr().out.splitlines()[0]
    # 6,117 / 0.0044 s = 1,390,227 rounds a second
    assert first == "ninety-nine: 400 games, 6,117 rounds, seed 3, 0.0044 s (1,390,227 rounds/s)", first
    assert cli._seconds(0.28) == "0.28 s" and cli._seconds(12.345) == "12.35 s" and cli._seconds(1.5) == "1.50 s"


def test_evaluate_s_solver_sentence_gives_no_interval_of_zero_width():
    from analyzer.evaluate import EvaluationResult

    rows = [{"option": "8S", "win": 0.413, "win_lo": 0.36, "win_hi": 0.469, "points": 14.0, "points_lo": 14.0,
             "points_hi": 14.0, "p_best": 1.0, "diff_to_best": 0.0, "diff_se": 0.0, "outcome_diff": 0.0,
             "outcome_diff_se": 0.0, "dropped": False, "solved": -3 / 13, "solved_lo": -3 / 13, "solved_hi": -3 / 13}]
    facts = {"ranked_by": "win", "confidence": 0.95, "outcome_binary": False, "solver": {"samples": 156}}
    result = EvaluationResult("hearts2", {}, 312, 0.1, "separated", {"options": pd.DataFrame(rows)}, facts)
    # every world solved: -3/13 = -0.2308 exactly, "[-0.23, -0.23]" read as an interval
    assert result.verdict().endswith("8S is best: -0.23 (exact over these worlds); the solver agrees.")
    rows[0]["solved_lo"], rows[0]["solved_hi"] = -0.9, 0.44
    result.tables["options"] = pd.DataFrame(rows)
    assert result.verdict().endswith("8S is best: -0.23 [-0.90, 0.44]; the solver agrees.")


def test_review_names_the_decision_evaluate_refused_and_takes_no_infer(tmp_path, cli, monkeypatch):
    """Pitch's review stopped at a decision whose bids no sampled deal fits, with a hint to
    --no-infer, an option review did not have (and no word of which decision)."""
    from analyzer import api
    from analyzer.errors import AnalyzerError

    record = tmp_path / "h.jsonl"
    assert cli("play", "hearts2", "--seed", "7", "--record", str(record), "--quiet")[0] == 0
    seen = []

    def evaluate(game, position=None, **options):  # every decision refused, as Pitch's was
        seen.append(options["infer"])
        raise AnalyzerError("none of 20,000 deals consistent with the cards seen fits the bids: (--no-infer)")

    monkeypatch.setattr(api, "evaluate", evaluate)
    code, out, err = cli("review", "hearts2", "--record", str(record), "--seat", "0", "--no-infer")
    # hearts2's first decision of seat 0 with a choice: the record's numbering (1 = first)
    import json

    events = [json.loads(line) for line in record.read_text().splitlines()]
    decides = [e for e in events if e.get("ev") == "decide"]
    first = next(i + 1 for i, e in enumerate(decides) if e["seat"] == 0 and len(e["legal"]) > 1)
    assert code == 2 and err.strip() == f"error: decision {first}: none of 20,000 deals consistent with the cards " \
                                        "seen fits the bids: (--no-infer)", err
    assert seen == [False]


def test_evaluate_points_to_the_guide_for_its_other_tables(monkeypatch, capsys):
    from analyzer import cli
    from analyzer.evaluate import EvaluationResult

    monkeypatch.setenv("COLUMNS", "80")
    facts = {"description": "bid decision of seat 2", "seat": 2, "options_legal": ["pass"], "lower_is_better": False,
             "ranked_by": "win", "method": "nothing to sample"}
    options = pd.DataFrame([{"rank": 1, "option": "pass", "samples": 0, "score_change": float("nan"),
                             "score_change_lo": float("nan"), "score_change_hi": float("nan")}])
    extra = pd.DataFrame({"trump": ["C"], "bid": ["4"], "make": [0.766]})
    result = EvaluationResult("pitch10", {"seat": 2}, 0, 0.01, "forced", {"options": options, "bid_table": extra},
                              facts)
    cli._print_evaluation(result, "heuristic", None, None)
    out = capsys.readouterr().out
    assert "(what bid_table holds: docs/pitch10.md)" in out and out.rstrip().endswith("it is the only legal move.")


def test_simulate_names_leaders_with_the_same_win_rate_as_tied():
    # 2 games of 6 players: seats 3 and 4 won one each, "Seat 4 won most often" hid seat 3
    from analyzer.api import _leader_line

    rates = [0.0, 0.0, 0.0, 0.5, 0.5, 0.0]
    table = pd.DataFrame({"seat": range(6), "strategy": ["heuristic"] * 5 + ["random"], "win_rate": rates,
                          "win_rate_lo": [0.0, 0.0, 0.0, 0.095, 0.095, 0.0],
                          "win_rate_hi": [0.658, 0.658, 0.658, 0.905, 0.905, 0.658]})
    assert _leader_line(table, "seat", lambda r: r["strategy"]) == (
        "Seats 3 (heuristic) and 4 (heuristic) tied for the most wins: 0.500 of the games each [0.095, 0.905]; "
        "their intervals overlap those of seats 0, 1, 2 and 1 more (compare on duplicate deals tells more).")
    table["win_rate_hi"] = [0.05] * 3 + [0.905, 0.905, 0.05]
    assert _leader_line(table, "seat", lambda r: r["strategy"]).endswith("; clearly ahead of every other seat.")
    two = table.iloc[3:5]  # every seat tied: nobody is ahead of anybody
    assert _leader_line(two, "seat", lambda r: r["strategy"]).endswith("[0.095, 0.905].")


def test_json_has_no_nan_nor_infinity():
    import json

    import numpy as np

    from analyzer.results import clean

    data = clean({"z": float("inf"), "low": -np.inf, "nan": np.float64("nan"), "n": np.int64(3),
                  "rows": [{"x": np.float32(0.5)}]})
    assert data == {"z": None, "low": None, "nan": None, "n": 3, "rows": [{"x": 0.5}]}
    assert type(data["n"]) is int
    json.dumps(data, allow_nan=False)  # valid JSON: raises on NaN or Infinity


def test_games_and_strategies_json_give_numbers_as_numbers(cli):
    import json

    code, out, _ = cli("games", "--json")
    rows = {r["game"]: r for r in json.loads(out)}
    nn = rows["ninety-nine"]  # docs/rules.md: 2 to 10 players, 3 by default; 5 chips, one deck for 3
    assert (nn["min_players"], nn["max_players"], nn["default_players"]) == (2, 10, 3)
    assert nn["defaults"] == {"decks": 1, "chips": 5, "out_at_zero_chips": False}
    assert rows["hearts2"]["defaults"] == {"target": 100} and rows["pitch10"]["min_players"] == 4
    code, out, _ = cli("strategies", "hearts2", "--json")
    assert {r["strategy"]: r["defaults"] for r in json.loads(out)}["mc"] == {"k": 32, "base": "heuristic"}
