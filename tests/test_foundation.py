"""Cards, random streams, stats, and the command line (including every kind of bad input)."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import bits, cards, jit, rng, stats
from analyzer.cards import CardError

DATA = Path(__file__).parent / "data"

# ---- cards ---------------------------------------------------------------------------------


def test_tokens_accept_ten_and_lower_case():
    assert cards.parse_cards("TH 10h qs AS 2c HJ lj") == [
        cards.code(8, 2), cards.code(8, 2), cards.code(10, 3), cards.code(12, 3), cards.code(0, 0),
        cards.HIGH_JOKER, cards.LOW_JOKER]
    assert [cards.token(c) for c in cards.parse_cards("10h qs")] == ["TH", "QS"]
    assert all(cards.parse_card(cards.token(c)) == c for c in range(52))


def test_tokens_of_codes_and_codes_that_are_no_card():
    assert cards.tokens([0, 12, 13, 51, 52, 53]) == ["2C", "AC", "2D", "AS", "LJ", "HJ"]
    assert cards.tokens(np.array([8, 49])) == ["TC", "QS"]
    for bad in (-1, 54):
        with pytest.raises(CardError, match="no card has code"):
            cards.tokens([3, bad])


@pytest.mark.parametrize("bad", ["1H", "TX", "QSS", "", "11C", "J"])
def test_bad_token_is_named(bad):
    with pytest.raises(CardError, match="expected a rank"):
        cards.parse_card(bad)


def test_decks_reject_foreign_and_duplicate_cards():
    with pytest.raises(CardError, match="3C is not in the 28-card hearts2 deck"):
        cards.hearts2_deck().parse("2C 3C")
    with pytest.raises(CardError, match="duplicate card QS"):
        cards.standard_deck().parse("QS KS qs")
    assert len(cards.standard_deck(2).parse("QS qs")) == 2
    with pytest.raises(CardError, match="duplicate"):
        cards.standard_deck(2).parse("QS qs 12S".replace("12S", "QS"))
    assert cards.pitch_deck().size == 54 and cards.hearts2_deck().size == 28


# ---- bit helpers ---------------------------------------------------------------------------


def test_bit_helpers_match_plain_python():
    """analyzer.bits over random masks of every width, single bits, the empty mask and the
    sign bit (popcount counts it; highest says 63), against Python's integers."""
    gen = np.random.default_rng(5)
    words = [0, 1, 1 << 51, 1 << 53, (1 << 63) - 1, -1, -(1 << 63), 0x5555555555555555]
    words += [int(gen.integers(-(1 << 63), 1 << 63, dtype=np.int64)) >> int(gen.integers(0, 64)) for _ in range(3000)]
    for x in words:
        u = x & ((1 << 64) - 1)  # the word's 64 bits, as the helpers read them
        set_bits = [i for i in range(64) if u >> i & 1]
        assert bits.popcount(np.int64(x)) == len(set_bits), x
        assert bits.popcount(np.uint64(u)) == len(set_bits), x
        assert bits.lowest(np.int64(x)) == (set_bits[0] if set_bits else 64), x
        assert bits.highest(np.int64(x)) == (set_bits[-1] if set_bits else -1), x
        for k in {0, len(set_bits) // 2, len(set_bits) - 1, len(set_bits)}:
            if 0 <= k < 64:  # a k of 64 (a full word) only by clearing: nth_bit_by_deposit's notes
                for nth_bit in NTH_BIT_FORMS:
                    assert nth_bit(np.int64(x), k) == (set_bits[k] if k < len(set_bits) else 64), (x, k, nth_bit)
        if len(set_bits) == 64:
            assert bits.nth_bit_by_clearing(np.int64(x), 64) == 64


#: both forms of nth_bit where this CPU has a fast pdep (bits.py), else the one it runs
NTH_BIT_FORMS = [bits.nth_bit_by_clearing] + ([bits.nth_bit_by_deposit] if jit.FAST_DEPOSIT else [])


def test_nth_bit_is_one_pdep_where_the_cpu_has_a_fast_one():
    """On x86-64 with BMI2 (not Zen 1 or 2) the compiled nth_bit is a deposit: its machine
    code holds a pdep; elsewhere it is the loop of nth_bit_by_clearing."""
    from llvmlite import binding

    if jit.numba.config.CPU_NAME is None and jit.numba.config.CPU_FEATURES is None:  # compiled for this CPU
        fast = binding.get_host_cpu_features().get("bmi2", False) and binding.get_host_cpu_name() not in ("znver1",
                                                                                                         "znver2")
        assert jit.FAST_DEPOSIT == (fast and not jit.DEBUG)
    assert bits.nth_bit is (bits.nth_bit_by_deposit if jit.FAST_DEPOSIT else bits.nth_bit_by_clearing)
    if jit.FAST_DEPOSIT:
        @jit.numba.njit
        def third_card(hand):
            return bits.nth_bit(hand, 2)

        assert third_card(np.int64(0b1011_0100)) == 5
        assert "pdep" in third_card.inspect_asm(third_card.signatures[0])


def test_nth_bit_clears_bits_when_numba_compiles_for_a_cpu_without_bmi2(tmp_path):
    # a cache built for other machines (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES): no pdep, which that
    # CPU could not run, whatever this one has
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES="+sse2", ANALYZER_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    code = ("import numpy as np; from analyzer import bits, jit; import numba\n"
            "f = numba.njit(lambda x, k: bits.nth_bit(x, k))\n"
            "print(jit.FAST_DEPOSIT, f(np.int64(0b1011_0100), 2), 'pdep' in f.inspect_asm(f.signatures[0]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "5", "False"]


# ---- random streams ------------------------------------------------------------------------


def _stream(seed, index, purpose=rng.DEAL):
    state = np.zeros(4, dtype=np.uint64)
    rng.seed_stream(state, np.uint64(seed), index, purpose)
    return state


def test_streams_differ_by_seed_index_and_purpose():
    a = _stream(1, 0)
    outputs = {tuple(_stream(s, i, p)) for s in (1, 2) for i in (0, 1) for p in (rng.DEAL, rng.PLAY)}
    assert len(outputs) == 8
    assert tuple(a) == tuple(_stream(1, 0))


def test_randbelow_is_uniform():
    state = _stream(5, 0)
    n, draws = 7, 70_000
    counts = np.bincount([rng.randbelow(state, n) for _ in range(draws)], minlength=n)
    chi2 = ((counts - draws / n) ** 2 / (draws / n)).sum()
    assert chi2 < 22.5  # 6 degrees of freedom: p < 0.001


def test_lazy_draws_follow_the_previewed_shuffle():
    state = _stream(9, 3)
    deck = np.arange(52, dtype=np.int64)
    preview = rng.preview_order(deck, 0, 52, state)
    drawn = [rng.draw_lazy(deck, top, 52, state) for top in range(52)]
    assert list(preview) == drawn and sorted(drawn) == list(range(52))


def test_shuffle_positions_are_uniform():
    counts = np.zeros((5, 5))
    for i in range(20_000):
        state = _stream(1, i)
        deck = np.arange(5, dtype=np.int64)
        rng.shuffle(deck, 0, 5, state)
        counts[np.arange(5), deck] += 1
    chi2 = ((counts - 4000) ** 2 / 4000).sum()
    assert chi2 < 40  # 16 degrees of freedom: p < 0.001


def test_shuffle_front_is_the_first_steps_of_the_shuffle():
    """``shuffle_front`` (Ninety-Nine's sampler: only the hidden hands' places drawn) puts in
    ``deck[top:stop]`` what the whole shuffle from the same stream puts there, and keeps the
    other cards."""
    for i, (top, stop, end) in enumerate([(0, 6, 46), (3, 9, 52), (0, 0, 10), (0, 10, 10), (5, 7, 7)]):
        whole, front = np.arange(52, dtype=np.int64), np.arange(52, dtype=np.int64)
        rng.shuffle(whole, top, end, _stream(4, i))
        rng.shuffle_front(front, top, stop, end, _stream(4, i))
        assert list(front[top:stop]) == list(whole[top:stop])
        assert sorted(front[top:end]) == list(range(top, end))
        assert list(front[:top]) == list(range(top)) and list(front[end:]) == list(range(end, 52))


# ---- stats ----------------------------------------------------------------------------------


def test_trace_lists_are_grouped_under_their_event_in_the_order_written():
    """trace.split_lists (vectorized) against the row-by-row reading of the format, on random
    traces: lists of several tags, interleaved, empty, negative tags and values."""
    from analyzer.trace import LIST, split_lists

    def row_by_row(rows):
        grouped = []
        for row in rows:
            if row[0] == LIST:
                grouped[-1][1].setdefault(row[1], []).append(row[2])
            else:
                grouped.append((row, {}))
        return grouped

    generator = np.random.default_rng(3)
    for _ in range(300):
        rows = []
        for _ in range(int(generator.integers(1, 12))):
            rows.append([int(v) for v in generator.integers(0, 10, 5)])
            for _ in range(int(generator.choice([0, 0, 1, 3, 7]))):
                rows.append([LIST, int(generator.choice([0, 1, 2, 100, -2])), int(generator.integers(-5, 60)), 0, 0])
        grouped = split_lists(np.array(rows, dtype=np.int64))
        assert [(row, dict(lists)) for row, lists in grouped] == row_by_row(rows)


def test_wilson_interval_against_known_values():
    lo, hi = stats.wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0 and math.isclose(hi, 0.2775, abs_tol=1e-4)


def test_interval_covers_truth_at_about_95_percent():
    gen = np.random.default_rng(0)
    covered = 0
    for _ in range(2000):
        k = gen.binomial(200, 0.3)
        lo, hi = stats.wilson(k, 200)
        covered += lo <= 0.3 <= hi
    assert 0.93 < covered / 2000 < 0.97


def test_mean_interval_matches_numpy():
    x = np.random.default_rng(1).normal(3, 2, 500)
    mean, lo, hi = stats.mean_interval(x.sum(), (x * x).sum(), len(x))
    se = x.std(ddof=1) / math.sqrt(len(x))
    t499 = 1.964729  # a t table's t(0.975, 499): 500 values, Student's t (Z95 1.959964 in the limit)
    assert math.isclose(mean, x.mean()) and math.isclose(hi - mean, t499 * se, rel_tol=1e-6)


# ---- command line -----------------------------------------------------------------------------


def test_help_lists_commands(cli):
    code, out, _ = cli("--help")
    assert code == 0 and "simulate" in out and "play" in out
    # a flag takes no value: no "<bool>" beside --help or --install-completion (Typer 0.2x)
    assert "<bool>" not in out
    code, out, _ = cli("evaluate", "--help")
    assert code == 0 and "<bool>" not in out and "--no-infer" in out


COMMANDS = ["games", "strategies", "simulate", "play", "compare", "batch", "evaluate", "report", "review", "solve",
            "cache"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns_and_its_examples_paste_whole(command, cli, monkeypatch):
    # an example wider than the panel wrapped onto a second line: pasted, two broken commands;
    # an option's help with a word wider than its column was cut with an ellipsis
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = cli(command, "--help")
    assert code == 0 and "…" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    lines = [line.rstrip() for line in out.splitlines()]
    examples = [line.strip() for line in lines[lines.index(" Examples:") + 1:] if line.startswith("  ")] \
        if " Examples:" in lines else []
    assert examples or command in ("games", "strategies", "cache")
    for before, line in zip([""] + examples, examples):  # a line starts a command, or the one before goes on
        assert line.startswith(("analyzer ", "ANALYZER_")) or before.endswith(" \\"), (before, line)


def test_games_and_strategies(cli):
    code, out, _ = cli("games")
    assert code == 0 and "ninety-nine" in out and "out_at_zero_chips" in out
    code, out, _ = cli("strategies", "Ninety-Nine")
    assert code == 0 and "heuristic" in out and "random" in out
    # and where to read how to write one's own, a file that exists
    assert "path/to/file.py:function" in out and "docs/strategies.md" in out
    assert (Path(__file__).parent.parent / "docs" / "ninety-nine.md").exists() and "docs/ninety-nine.md" in out


def test_simulate_json_out_and_plot(cli, tmp_path):
    out, plot = tmp_path / "games.csv", tmp_path / "win.png"
    code, text, err = cli("simulate", "ninety-nine", "--games", "300", "--seed", "2", "--seat", "0=random",
                          "--json", "--out", out, "--plot", plot)
    assert code == 0, err
    summary = json.loads(text)
    assert summary["games"] == 300 and summary["hands"] > 300
    assert [s["strategy"] for s in summary["seats"]] == ["random", "heuristic", "heuristic"]
    assert sum(s["wins"] for s in summary["seats"]) == 300
    rows = pd.read_csv(out)
    assert len(rows) == 300 and rows["hands"].sum() == summary["hands"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_play_writes_records(cli, tmp_path):
    record = tmp_path / "g.jsonl"
    code, text, err = cli("play", "ninety-nine", "--seed", "3", "--index", "2", "--games", "2", "--record", record)
    assert code == 0, err
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["index"] for e in events if e["ev"] == "game"] == [2, 3]
    assert "game over" in text


def test_user_strategy_plays(cli):
    code, text, err = cli("simulate", "ninety-nine", "--games", "200", "--seat",
                          f"1={DATA / 'strategies.py'}:first_legal", "--json")
    assert code == 0, err
    assert json.loads(text)["strategies"][1].endswith("strategies.py:first_legal")


@pytest.mark.parametrize("args,message", [
    (["simulate", "chess"], "unknown game 'chess'"),
    (["simulate", "ninety-nine", "--seat", "0=genius"], "unknown strategy 'genius'"),
    (["simulate", "ninety-nine", "--seat", "0=mc:k=2,k=3"], "strategy mc: parameter k is given twice"),
    (["simulate", "ninety-nine", "--seat", "0=mine.py"], "user strategy mine.py names no function: write "
     "mine.py:function, an @njit"),
    (["simulate", "ninety-nine", "--seat", "0=mine.py:"], "user strategy mine.py: names no function: write mine.py:function"),
    # the file's strategies, read without running it (the name was repeated three times, none offered)
    (["simulate", "ninety-nine", "--seat", f"0={DATA.parent.parent / 'examples' / 'ninety_nine.py'}"],
     f"write {DATA.parent.parent / 'examples' / 'ninety_nine.py'}:saver (its @njit functions: saver); parameters after"),
    (["simulate", "ninety-nine", "--seat", "0=mine.py:f:k=1:j=2"], "separated by commas (mine.py:function:k=1,j=2)"),
    (["simulate", "hearts2", "--out", f"{__file__}/x.csv"], f"cannot write {__file__}/x.csv: folder {__file__} is a file"),
    (["simulate", "ninety-nine", "--seat", "7=random"], "seat 7 does not exist"),
    # an option of one value given twice: click kept the last one silently
    (["simulate", "hearts2", "--out", "a.csv", "--out", "b.csv"], "--out is given twice"),
    (["simulate", "hearts2", "-n", "5", "--games=9"], "-n and --games are the same option, given twice"),
    (["simulate", "ninety-nine", "--seat", "random"], "--seat takes SEAT=STRATEGY"),
    (["simulate", "ninety-nine", "--seat", "0=random", "--seat", "0=heuristic"], "seat 0 is given two"),
    (["simulate", "ninety-nine", "--rule", "jokers=2"], "unknown rule option 'jokers'"),
    (["simulate", "ninety-nine", "--rule", "chips=many"], "rule chips takes an integer"),
    (["simulate", "ninety-nine", "--rule", "chips=1_0"], "rule chips takes an integer, not '1_0'"),
    (["simulate", "ninety-nine", "--seat", "0=random:"],
     "strategy 'random:': nothing after the colon (random takes no parameters: leave the colon out)"),
    (["simulate", "ninety-nine", "--seat", "0=mc:"],
     "strategy 'mc:': nothing after the colon (parameters go there, mc:k=..., or leave the colon out)"),
    (["simulate", "ninety-nine", "--rule", "out_at_zero_chips=maybe"], "takes true or false"),
    (["simulate", "ninety-nine", "--players", "11"], "takes 2 to 10 players"),
    (["simulate", "ninety-nine", "--games", "0"], "--games must be a positive integer"),
    (["simulate", "ninety-nine", "--seed", "-1"], "seed must be an integer"),
    (["simulate", "ninety-nine", "--workers", "99"], "--workers must be between"),
    (["simulate", "ninety-nine", "--out", "x.txt"], "must end in .parquet or .csv"),
    (["simulate", "ninety-nine", "--out", "/no/such/dir/x.csv"], "does not exist"),
    (["simulate", "ninety-nine", "--seat", "1=missing.py:f"], "file missing.py not found"),
    (["simulate", "ninety-nine", "--seat", f"1={DATA / 'strategies.py'}:nothing"], "has no function 'nothing' (its "
     "@njit functions: first_legal, illegal, broken, first_legal_then_illegal, no_move_without_a_choice, never_a_move, "
     "first_legal_then_telling)"),  # not_jitted is not one
    (["simulate", "ninety-nine", "--seat", f"1={DATA / 'strategies.py'}:not_jitted"], "not an @njit function"),
    (["simulate", "ninety-nine", "--seat", f"1={DATA / 'strategies.py'}:broken"], "failed to compile"),
    (["play", "ninety-nine", "--record", "/no/such/dir/g.jsonl"], "does not exist"),
    (["strategies", "poker"], "unknown game 'poker'"),
    # a folder or a device where a file is read: said as it is, not "not found"
    (["evaluate", "hearts2", "--position", str(DATA)], f"position file {DATA} is a folder, not a file"),
    (["evaluate", "hearts2", "--position", "/dev/null"], "position file /dev/null is not a regular file"),
    (["evaluate", "hearts2", "--record", str(DATA), "--at", "1"], f"record file {DATA} is a folder, not a file"),
    (["batch", str(DATA), "--out", "/tmp/never-written"], f"job file {DATA} is a folder, not a file"),
])
def test_bad_input_is_one_clear_line(cli, args, message):
    code, out, err = cli(*args)
    assert code != 0
    # a first run of a strategy file may say it is compiling before it fails: a notice, not the error
    lines = [line for line in err.strip().splitlines() if not line.startswith("compiling ")]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], err
    assert "Traceback" not in err + out


def test_illegal_user_move_names_strategy_game_and_decision(cli, tmp_path):
    out = tmp_path / "rows.parquet"
    code, _, err = cli("simulate", "ninety-nine", "--games", "50", "--seat",
                       f"2={DATA / 'strategies.py'}:illegal", "--out", out)
    assert code == 3
    assert "strategies.py:illegal (seat 2) returned an illegal move 'K' in game" in err
    assert "decision" in err
    assert not out.exists() and not list(tmp_path.iterdir()), "no half-written file"


def test_every_command_result_is_one_result_type():
    """simulate, compare, variant studies and evaluate return a results.Result: facts, a
    verdict and tables in to_dict (what --json prints), NaN as null."""
    import math

    import pandas as pd

    from analyzer.api import Summary
    from analyzer.compare import Comparison, VariantStudy
    from analyzer.evaluate import EvaluationResult
    from analyzer.results import Result

    for cls in (Summary, Comparison, VariantStudy, EvaluationResult):
        assert issubclass(cls, Result)
    table = {"seats": pd.DataFrame({"seat": [0], "strategy": ["random"], "win_rate": [0.5], "win_rate_lo": [0.4],
                                    "win_rate_hi": [0.6], "score": [math.nan]})}
    out = Summary("hearts2", {}, 1, ["random"], 10, 20, 0.5, False, table, {"x": 1.0}).to_dict()
    assert out["game"] == "hearts2" and out["seats"][0]["score"] is None and out["verdict"].startswith("Seat 0")
    assert list(out).index("verdict") < list(out).index("seats")


def test_the_verdict_of_a_game_of_teams_speaks_of_teams():
    """Partners win together: seat 0 and its partner seat 2 have the same win rate, and the
    verdict must not call that an overlap; it compares the teams."""
    from analyzer import api

    summary = api.simulate("pitch10", games=400, seed=3, seats={0: "random", 2: "random"}, workers=1)
    seats = summary.tables["seats"].set_index("seat")["win_rate"]
    assert seats[0] == seats[2] and seats[1] == seats[3]
    line = summary.verdict()
    assert line.startswith("Team 1 (seats 1,3: heuristic, heuristic) won most often") and "seat " not in line
    assert line.endswith("clearly ahead of every other team.")


def test_the_verdict_names_the_seats_whose_intervals_reach_the_leader_in_plain_words():
    # "its intervals overlap seat 4, seat 1, seat 5 ...'s"
    import pandas as pd

    from analyzer.api import _leader_line

    def line(rates: list[float]) -> str:
        table = pd.DataFrame({"seat": range(len(rates)), "strategy": ["h"] * len(rates), "win_rate": rates,
                              "win_rate_lo": [r - 0.1 for r in rates], "win_rate_hi": [r + 0.1 for r in rates]})
        return _leader_line(table, "seat", lambda r: r["strategy"])

    assert line([0.5, 0.45]).endswith("; its interval overlaps seat 1's (compare on duplicate deals tells more).")
    assert "overlaps those of seats 1 and 2 (compare" in line([0.5, 0.45, 0.44])
    assert "overlaps those of seats 1, 2, 3 and 2 more (compare" in line([0.5, 0.45, 0.44, 0.43, 0.42, 0.41])
    assert line([0.9, 0.1]).endswith("; clearly ahead of every other seat.")


def test_terminal_tables_fit_and_keep_integers_whole():
    """analyzer.terminal.render: integers stay integers in an all-numeric frame (a row of
    it would be upcast to floats), intervals show as value ±half, text is left-aligned, and
    columns that do not fit 80 are named instead of cut."""
    import pandas as pd

    from analyzer.terminal import interval, render

    frame = pd.DataFrame({"seat": [0, 1], "games": [1500, 20], "win": [0.25, 0.75], "win_lo": [0.2, 0.7],
                          "win_hi": [0.3, 0.8]})
    lines = render(frame, total=80).splitlines()
    assert lines[2].split() == ["0", "1,500", "0.250", "±0.050"]
    # a lopsided interval (Wilson's for 1 of 1, 0 of 100) shows its ends: a ± would reach past 1 or below 0
    from analyzer.stats import wilson

    lo, hi = wilson(1, 1)
    assert interval(1.0, lo, hi) == f"1.00 [{lo:.2f}, 1.00]" and 1.0 - lo > 0.5
    lo, hi = wilson(0, 100)
    assert interval(0.0, lo, hi) == f"0.000 [0.000, {hi:.3f}]"
    # prose wraps under itself: a record's indented line goes on indented two more
    from analyzer.terminal import wrap

    assert wrap("   seat 1 plays 6C (legal: 6C TC QD AD 4S 8S QS)", 30) == [
        "   seat 1 plays 6C (legal: 6C", "     TC QD AD 4S 8S QS)"]
    # a p-value is never shown as 0
    shown = render(pd.DataFrame({"pair": ["a", "b"], "p_value": [3e-9, 0.0312]}), total=80).splitlines()
    assert shown[2].split() == ["a", "<0.0001"] and shown[3].split() == ["b", "0.0312"]
    wide = pd.DataFrame({f"column_{i}": [123456.5] for i in range(12)} | {"name": ["heuristic"]})
    text = render(wide, total=80)
    assert all(len(line) <= 80 for line in text.splitlines()) and "\u2026" not in text
    assert "with --wide or --json" in text
    assert render(pd.DataFrame({"strategy": ["mc", "heuristic"], "n": [1, 2]}), total=80).splitlines()[2].startswith("mc ")


def test_a_long_name_is_shortened_before_the_numbers_are_dropped():
    # a 58-character user strategy kept `games` and `wins` and dropped win_rate (simulate), or
    # kept only the two names (compare)
    import pandas as pd

    from analyzer.terminal import render, shorten

    long = "strategies/ninety_nine_experiments.py:margin_play:margin=5"
    assert shorten(long) == "\u2026:margin_play:margin=5"
    assert shorten("my/strategy/folder/mine.py:f:k=5") == "mine.py:f:k=5" and shorten("heuristic") == "heuristic"
    assert shorten("mc:k=8,base=strategies/x.py:a_func") == "mc:k=8,base=x.py:a_func"
    assert shorten("mc:k=8,base=strategies/xyz.py:a_function") == "mc:k=8,base=\u2026:a_function"
    assert shorten("a" * 40) == "a" * 12 + "\u2026" + "a" * 13
    # every file of the cell, and nothing before it: a batch run's "heuristic vs" was cut off (the
    # win rate read as the user strategy's), a team's second path kept whole ("…:f, /t…/pt.py:f")
    assert shorten("heuristic vs /tmp/me/nn.py:ceil") == "heuristic vs nn.py:ceil"
    assert shorten("/tmp/me/pt.py:bolder, /tmp/me/pt.py:bolder") == "pt.py:bolder, pt.py:bolder"
    sentence = pd.DataFrame({"what": ["seat 2 (heuristic) wins most of the games here"], "n": [1] * 1,
                             **{f"measure_{i}": [0.5] for i in range(6)}})
    assert "seat 2 (heuristic) wins most of the games here" in render(sentence, total=80)  # prose: whole
    frame = pd.DataFrame({"strategy": [long, "heuristic"], "opponent": ["heuristic", long],
                          **{f"measure_{i}": [0.5, 0.25] for i in range(3)}})
    lines = render(frame, total=80).splitlines()
    assert lines[0].split() == ["strategy", "opponent", *[f"measure_{i}" for i in range(3)]]
    assert lines[2].split()[:2] == ["\u2026:margin_play:margin=5", "heuristic"]
    assert lines[-1] == "(long names shortened: --wide or --json shows them whole)"
    assert all(len(line) <= 80 for line in lines)
    assert long in render(frame, total=80, wide=True)  # --wide: whole
    assert "shortened" not in render(frame.iloc[:, :3], total=200)  # it fits: whole


def test_cache_key_covers_every_file_of_a_game_and_the_compiled_shared_ones():
    """A game's kernels import constants from files that compile nothing (codes.py, view.py):
    those are in the game's cache key, so a changed constant can never leave a stale kernel;
    Python-only shared files (cli.py, stats.py) are not, so editing them compiles nothing."""
    from analyzer import jit

    files = {p.relative_to(jit._PACKAGE).as_posix() for p in jit._compiled_files()}
    games = jit._PACKAGE / "games"
    for package in (p for p in games.iterdir() if p.is_dir() and (p / "kernel.py").exists()):
        for path in package.glob("*.py"):
            if path.name in jit.PYTHON_SIDE:
                # left out of the key: it must compile nothing, and no file in the key may import it
                assert not jit._COMPILES.search(path.read_bytes()), path
                module = f"analyzer.games.{package.name}.{path.stem}"
                for other in (p for p in package.glob("*.py") if p.name not in jit.PYTHON_SIDE):
                    text = other.read_text()
                    assert f"import {path.stem}" not in text and f"{module} import" not in text, (other, path)
            else:
                assert path.relative_to(jit._PACKAGE).as_posix() in files
    assert {"rng.py", "bits.py", "jit.py", "slots.py"} <= files
    # engine.py compiles user strategies at run time, never cached: its edits recompile no kernel
    assert not {"cli.py", "stats.py", "strategies.py", "api.py", "engine.py"} & files


def test_kernels_are_cached_by_analyzers_locator_not_next_to_the_source():
    """numba reads its cache locators once, when it is first imported: if anything imports
    numba before analyzer.jit (a pytest option naming a numba class did), kernels are
    cached in __pycache__ keyed on one file's source, and a stale kernel can load."""
    from analyzer import api, jit

    api.simulate("ninety-nine", games=2, seed=1)
    from analyzer.games.ninety_nine import kernel

    assert str(kernel.run_chunk.stats.cache_path).startswith(str(jit._cache_root()))


def test_xdist_groups_keep_a_modules_tests_on_one_worker(tmp_path):
    """`make test` runs `-n 2 --dist loadgroup`: a module marked with an xdist group runs on
    one worker, so its module-scoped set-ups are made once (pytest 9.2 with pytest-xdist 3.8
    spread them over both, silently: the suite took 360 s instead of 309 on a warm cache)."""
    import subprocess
    import sys

    for name in ("a", "b"):
        (tmp_path / f"test_{name}.py").write_text(
            "import os, time, pytest\n"
            f"pytestmark = pytest.mark.xdist_group('{name}')\n"
            "@pytest.mark.parametrize('i', range(4))\n"
            f"def test_{name}(i):\n"
            "    time.sleep(0.05)\n"
            f"    with open('workers_{name}.txt', 'a') as f:\n"
            "        f.write(os.environ['PYTEST_XDIST_WORKER'] + '\\n')\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                           "--dist", "loadgroup", "-o", "addopts=", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    for name in ("a", "b"):
        workers = (tmp_path / f"workers_{name}.txt").read_text().split()
        assert len(workers) == 4 and len(set(workers)) == 1, (name, workers)


@pytest.mark.parametrize("game", ["twenty-two", "ninety-nine", "hearts2", "two-ten-jack", "pitch10"])
def test_simulate_says_where_its_columns_are_explained(game, cli):
    """simulate's tables name game-specific columns (final_share, busts_per_round, ...): the
    output points to the game's guide, whose "Summary" section names every column shown."""
    code, out, _ = cli("--wide", "simulate", game, "--games", "50")
    assert code == 0
    found = re.search(r"docs/([\w-]+\.md), section \"Summary\"", out)
    guide = (Path(__file__).parent.parent / "docs" / found.group(1)).read_text()
    section = guide[guide.index(f"## Summary (`simulate {game}`)"):]
    section = section[:section.index("\n## ", 1)]
    tables = re.findall(r"^(\w+)\n([\w ]+)\n[- ]+$", out, re.MULTILINE)
    columns = {c for _, header in tables for c in header.split()} - {"seat", "strategy", "games", "wins", "team",
                                                                     "seats", "strategies", "n"}
    missing = sorted(c for c in columns if f"`{c}`" not in section)
    assert columns and not missing, missing


def test_every_assert_of_the_suite_can_fail():
    """An assert whose message is a condition (``assert code == 0, err and "x" in out``)
    checks only its first half; one of a tuple is always true; a skip or an xfail leaves a
    test behind. None in the suite (two such messages hid checks that did not hold)."""
    import ast

    found = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assert) and (
                    isinstance(node.msg, (ast.BoolOp, ast.Compare)) or isinstance(node.test, ast.Tuple)):
                found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr in {"skip", "skipif", "xfail", "importorskip"}:
                found.append(f"{path.name}:{node.lineno} ({node.attr})")
    assert not found, found


def test_an_output_name_is_checked_and_quoted_as_given(tmp_path, monkeypatch):
    from analyzer.errors import AnalyzerError
    from analyzer.io import check_writable

    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    for given, why in [("d/", "it is a folder"), ("d", "it is a folder"),
                       ("x.csv/", "a name ending in / names a folder; give a file's name"),
                       ("x.txt", "the name must end in .csv"), ("no/x.csv", "folder no does not exist")]:
        with pytest.raises(AnalyzerError) as caught:
            check_writable(given, (".csv",))
        assert str(caught.value) == f"cannot write {given}: {why}"
    assert check_writable("x.csv", (".csv",)) == Path("x.csv") and not list(tmp_path.glob("x*"))


def test_an_output_through_a_link_replaces_the_file_it_names_and_a_device_is_refused(tmp_path, monkeypatch):
    """The atomic replace of an output put a new file in the place of a symbolic link (and,
    run as root, of /dev/full itself), exit 0: a link is written through, a device or a
    pipe refused."""
    import os

    from analyzer.errors import AnalyzerError
    from analyzer.io import write_text

    monkeypatch.chdir(tmp_path)
    Path("target.txt").write_text("old")
    os.symlink("target.txt", "link.txt")
    write_text("link.txt", "new")
    assert os.path.islink("link.txt") and Path("target.txt").read_text() == "new"
    # a pipe stands for a device here: a test that failed must not replace /dev/null
    os.mkfifo("pipe.csv")
    os.symlink("pipe.csv", "pipe-link.csv")
    for given in ("pipe.csv", "pipe-link.csv"):
        with pytest.raises(AnalyzerError, match=f"cannot write {given}: it is not a regular file"):
            write_text(given, "x")
    assert Path("pipe.csv").is_fifo() and os.path.islink("pipe-link.csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "pipe-link.csv", "pipe.csv", "target.txt"]


def test_a_position_is_shown_as_the_records_write_cards():
    # Pitch's tricks showed as Python lists: played: ['3:4D', '0:6D', ...] ['2:7D', ...]
    from analyzer.cli import _position_text

    assert _position_text([["3:4D", "0:6D"], ["2:7D", "3:9D"]]) == "3:4D 0:6D / 2:7D 3:9D"
    assert _position_text(["KS", "4D"]) == "KS 4D" and _position_text(92) == "92"
    assert _position_text([[], ["AS"]]) == " / AS"


def test_a_rule_value_is_an_integer_or_its_digits_never_rounded(tmp_path):
    # the API and batch jobs took target=30.5 as 30, True as 1, and the CLI "1_0" as 10
    from analyzer import api, batch
    from analyzer.errors import AnalyzerError

    for value in (30.5, True, "1_0", "3.0", None):
        with pytest.raises(AnalyzerError, match=f"rule target takes an integer, not {value!r}"):
            api.simulate("hearts2", games=2, rules={"target": value})
    assert api.simulate("hearts2", games=2, rules={"target": np.int64(40)}).rules["target"] == 40
    assert api.simulate("hearts2", games=2, rules={"target": " +40 "}).rules["target"] == 40
    job = tmp_path / "job.toml"
    job.write_text('[[run]]\nname = "h"\nkind = "simulate"\ngame = "hearts2"\ngames = 10\nrules = { target = 30.5 }\n')
    with pytest.raises(AnalyzerError, match="rule target takes an integer, not 30.5"):
        batch.load_job(job)


def test_the_plots_legends_hide_no_bar(monkeypatch, tmp_path):
    """The legend sat in the upper right corner, over a winning seat's bar and error bar
    (simulate pitch10 --plot); it now sits under the axes and their tick labels."""
    from analyzer import api, plots

    drawn = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    plots.win_rate_plot(api.simulate("pitch10", games=200, seed=0, seats={0: "random"}), tmp_path / "w.png")
    plots.comparison_plot(api.compare("hearts2", ["heuristic", "random"], games=50, seed=1), tmp_path / "c.png")
    plots.variants_plot(api.variants("ninety-nine", [{"chips": 2}, {"chips": 4}], games=100, seed=1), tmp_path / "v.png")
    for fig in drawn:
        fig.tight_layout()
        fig.canvas.draw()
        ax = fig.axes[0]
        legend = ax.get_legend().get_window_extent()
        ticks = [label.get_window_extent() for label in ax.get_xticklabels() if label.get_text()]
        assert legend.y1 <= ax.get_window_extent().y0  # below the axes: over no bar
        assert all(legend.y1 <= tick.y0 for tick in ticks)  # and under the tick labels
