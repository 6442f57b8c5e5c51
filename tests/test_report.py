"""Strategy reports (analyzer/report.py and each game's study.py): a quick report for every
game builds, its figures are valid PNGs, its tables have the expected columns and intervals
that hold their estimate and stay inside [0, 1] for shares, no cell under the minimum n is a
finding, the Pitch bid table is counterfactual (a row for every dealt-hand class), findings
follow the data, the report's common part names no game, the HTML is self-contained, and
the numbers do not depend on the number of workers."""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import math
import re
import struct
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import games as registry
from analyzer.errors import AnalyzerError
from analyzer import compare, report

# one pytest-xdist worker runs this file (pyproject's markers): the quick report builds, shared by this file's tests
pytestmark = pytest.mark.xdist_group("report")

GAMES = ["ninety-nine", "twenty-two", "hearts2", "two-ten-jack", "pitch10"]
SEED = 7

COMMON_TABLES = {
    "options": ["option", "value", "meaning"],
    "strategies": ["strategy", "description"],
    "tournament_pairs": ["strategy", "opponent", "deals", "games", "win_rate", "win_rate_lo", "win_rate_hi",
                         "difference", "p_value"],
    "tournament_ranking": ["rank", "strategy", "mean_win_rate", "mean_win_rate_lo", "mean_win_rate_hi"],
    "convergence": ["deals", "games", "win_rate", "win_rate_lo", "win_rate_hi", "half_width", "win_rate_se",
                    "win_rate_se_unpaired"],
    "provenance": ["item", "value"],
    "runs": ["part", "call", "strategies", "seconds"],
}

GAME_TABLES = {
    "ninety-nine": {
        "risk_by_total_and_hand": ["total_bin", "escapes_held", "n", "over_this_round", "over_this_round_lo",
                                   "over_this_round_hi", "over_now"],
        "escape_card_value": ["card", "n", "deals", "with", "with_lo", "with_hi", "without", "without_lo",
                              "without_hi", "difference", "difference_lo", "difference_hi", "won_difference",
                              "won_difference_lo", "won_difference_hi"],
        "went_over_by_escapes_dealt": ["escapes", "n", "deals", "with", "without", "difference", "difference_lo",
                                       "difference_hi"],
        "escape_card_value_observed": ["card", "n_with", "n_without", "n", "with", "without", "difference",
                                       "difference_lo", "difference_hi"],
        "went_over_by_escapes_dealt_observed": ["escapes", "n", "went_over"],
        "seats": ["seat", "strategy", "win_rate", "win_rate_lo", "win_rate_hi"],
        "positions": ["position", "label", "bust_rate", "bust_rate_lo", "bust_rate_hi"],
        "players_sweep": ["players", "games"],
        "players_positions": ["players", "position", "bust_rate", "bust_rate_lo", "bust_rate_hi"],
    },
    "twenty-two": {
        "discard_value_paired": ["rank", "measure", "n", "keep", "keep_lo", "keep_hi", "discard", "difference",
                                 "difference_lo", "difference_hi", "heuristic_discards"],
        "discard_value": ["players_strategy", "rank", "held", "discarded_share", "points_difference",
                          "points_difference_lo", "points_difference_hi"],
        "final_trick": ["players", "rank", "n", "taken", "taken_lo", "taken_hi"],
        "hand_size_by_hand": ["hand", "n", "size", "size_lo", "size_hi", "players_in"],
        "hand_size_distribution": ["size", "hands", "share"],
    },
    "hearts2": {
        "moon_rate": ["pairing", "seat", "strategy", "moon_rate", "moon_rate_lo", "moon_rate_hi"],
        "qs_value_paired": ["partner", "measure", "n", "with", "with_lo", "with_hi", "without", "difference",
                            "difference_lo", "difference_hi"],
        "qs_value": ["qs", "n", "points", "points_lo", "points_hi", "took_qs"],
        "first_lead": ["role", "n", "points", "points_lo", "points_hi"],
        "points_by_hearts": ["hearts_held", "n", "points", "points_lo", "points_hi", "moon"],
    },
    "two-ten-jack": {
        "as_value_paired": ["partner", "n", "with", "without", "difference", "difference_lo", "difference_hi",
                            "margin_difference"],
        "scoring_card_value_paired": ["card", "card_value", "n", "with", "without", "difference", "difference_lo",
                                      "difference_hi", "margin_difference"],
        "as_value_dealt": ["as_dealt", "n", "points", "points_lo", "points_hi", "took_as"],
        "as_value_taken": ["took_as", "n", "points"],
        "scoring_card_value": ["card", "card_value", "n_with", "n_without", "difference", "difference_lo",
                               "difference_hi"],
        "points_by_value_dealt": ["value_bin", "n", "points"],
        "dealer_advantage": ["position", "points_per_round", "points_per_round_lo", "points_per_round_hi"],
    },
    "pitch10": {
        "bid_table_trump_length": ["trump_length", "bid", "n", "rollouts", "make_chance", "make_chance_lo",
                                   "make_chance_hi", "score_change"],
        "bid_table_top_trumps": ["top_trumps", "bid", "n", "make_chance"],
        "bids_made": ["bid", "n", "made", "taken"],
        "give_value_paired": ["trumps", "measure", "n", "keep", "keep_lo", "keep_hi", "give", "difference",
                              "difference_lo", "difference_hi", "heuristic_gives"],
        "bids": ["bid", "hands", "share", "share_lo", "share_hi"],
        "points_by_seat": ["relative_seat", "seat", "n", "team_points", "team_points_lo", "team_points_hi",
                           "pitch_rate"],
    },
}

GAME_FIGURES = {
    "ninety-nine": ["risk_by_total", "escape_card_value", "position_bust_rate", "players_positions"],
    "twenty-two": ["discard_value_paired", "discard_value", "final_trick", "hand_size"],
    "hearts2": ["moon_rate", "qs_value", "first_lead", "points_by_hearts"],
    "two-ten-jack": ["as_value", "scoring_card_value", "points_by_value_dealt", "dealer_advantage"],
    "pitch10": ["bid_table_trump_length", "bid_table_top_trumps", "give_value", "points_by_seat"],
}  # give_value: the paired keep-or-give difference


#: game -> (out folder, report path): each quick report is built once per process, and read
#: by every test that needs it (a build is the bulk of this file's time)
_BUILT: dict[str, tuple[Path, Path]] = {}


def quick_report(game: str, tmp_path_factory) -> tuple[Path, Path]:
    """The quick report of ``game`` (seed SEED, two workers), built on first use."""
    if game not in _BUILT:
        out = tmp_path_factory.mktemp(game.replace("-", "_"))
        _BUILT[game] = out, report.build_report(game, out, quick=True, seed=SEED, workers=2)
    return _BUILT[game]


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory):
    game = request.param
    out, path = quick_report(game, tmp_path_factory)
    return game, out, path


# ---- an independent PNG reader (zlib + struct): signature, chunks, CRCs, IHDR, pixels -------

@functools.lru_cache(maxsize=None)
def check_png(data: bytes) -> tuple[int, int]:
    """The checks below; cached by content (a pure function of the bytes): the HTML test
    checks the embedded copies of the very figures test_figures_... checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, chunks, idat = 8, [], b""
    width = height = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad CRC in {kind!r}"
        chunks.append(kind)
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
        if kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND"
    raw = zlib.decompress(idat)
    channels = 4 if colour == 6 else 3
    assert len(raw) == height * (1 + width * channels)
    assert 200 <= width <= 3000 and 150 <= height <= 3000
    # decoded (by Pillow): the same size, and not a blank image
    from PIL import Image

    image = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    assert image.shape == (height, width, 3)
    # distinct colours, each packed into one integer (np.unique over rows took seconds a figure)
    packed = (image[..., 0].astype(np.uint32) << 16) | (image[..., 1].astype(np.uint32) << 8) | image[..., 2]
    assert len(np.unique(packed)) > 20
    return width, height


def test_report_files(built):
    game, out, path = built
    assert path == out / "report.md"
    assert (out / "report.html").is_file()
    md = path.read_text(encoding="utf-8")
    assert md.startswith("# ")
    for heading in ("## How this report was made", "## Rules in brief and options used", "## Strategy tournament",
                    "## Convergence of the headline number"):
        assert heading in md
    title = registry.get(game).title
    assert f"## {title} study" in md


def test_figures_are_valid_pngs_and_referenced(built):
    game, out, path = built
    md = path.read_text(encoding="utf-8")
    referenced = re.findall(r"!\[[^\]]*\]\((figures/[^)]+\.png)\)", md)
    on_disk = sorted(p.relative_to(out).as_posix() for p in (out / "figures").glob("*.png"))
    assert sorted(referenced) == on_disk
    names = {Path(p).stem for p in on_disk}
    assert {"tournament", "convergence", *GAME_FIGURES[game]} <= names
    for p in on_disk:
        check_png((out / p).read_bytes())


def _check_intervals(name: str, frame: pd.DataFrame) -> None:
    for col in frame.columns:
        if col + "_lo" in frame.columns and col + "_hi" in frame.columns:
            v, lo, hi = (pd.to_numeric(frame[c], errors="coerce").to_numpy(dtype=float)
                         for c in (col, col + "_lo", col + "_hi"))
            ok = np.isfinite(lo) & np.isfinite(hi)
            assert np.all(lo[ok] <= v[ok] + 1e-9) and np.all(v[ok] <= hi[ok] + 1e-9), f"{name}.{col} outside CI"


def test_tables_have_expected_columns(built):
    game, out, path = built
    expected = {**COMMON_TABLES, **GAME_TABLES[game]}
    md = path.read_text(encoding="utf-8")
    for name, columns in expected.items():
        file = out / "tables" / f"{name}.csv"
        assert file.is_file(), f"missing table {name}"
        frame = pd.read_csv(file)
        assert len(frame) > 0, name
        missing = [c for c in columns if c not in frame.columns]
        assert not missing, f"{name} lacks {missing}"
        assert f"tables/{name}.csv" in md
        _check_intervals(name, frame)


def test_the_search_ladder_is_there_where_the_game_has_a_search_beyond_mc(built):
    game, out, path = built
    md = path.read_text()
    spec = registry.get(game)
    ladder = out / "tables" / "ladder_ranking.csv"
    searches = [name for name in ("pimc", "ismcts") if name in spec.strategies]
    if not searches:
        assert not ladder.exists() and "## Search strategies" not in md
        return
    q = report.QUICK
    budgets = {"pimc": {f"pimc:k={q.pimc_k}", f"pimc:k={q.pimc_k_low}"},
               "ismcts": {f"ismcts:iterations={q.ismcts_iterations}", f"ismcts:iterations={q.ismcts_iterations_low}"},
               "mc": {f"mc:k={q.mc_k}", f"mc:k={q.mc_k_low}"}}
    expected = set().union(*(budgets[name] for name in [*searches, "mc"])) | {"heuristic", "random"}
    assert len(expected) == 2 * len(searches) + 4  # two budgets each: the sizes differ
    assert set(pd.read_csv(ladder)["strategy"]) == expected
    pairs = pd.read_csv(out / "tables" / "ladder_pairs.csv")
    n = len(expected)
    assert len(pairs) == n * (n - 1) // 2 and (pairs["win_rate"] >= 0.5).all()
    # each pairing sized sequentially: it stops at its first decided look, else plays them all
    looks = compare._looks(q.ladder, q.ladder_first_look)
    assert set(pairs["deals"]) <= set(looks) and len(looks) > 1
    assert (pairs.loc[pairs["deals"] < q.ladder, "p_value"] < 0.05 / len(looks)).all()
    assert "## Search strategies" in md and "figures/ladder.png" in md
    # each strategy's time per decision, over decisions that were counted
    speed = pd.read_csv(out / "tables" / "ladder_speed.csv")
    assert set(speed["strategy"]) == expected and (speed["decisions"] > 0).all()
    assert (speed["ms_per_decision"] >= 0).all() and "tables/ladder_speed.csv" in md


def test_tournament_and_convergence(built):
    game, out, _ = built
    spec = registry.get(game)
    ranking = pd.read_csv(out / "tables" / "tournament_ranking.csv")
    expected = {"random", "heuristic"} | ({f"mc:k={report.QUICK.mc_k}"} if "mc" in spec.strategies else set())
    assert set(ranking["strategy"]) == expected
    pairs = pd.read_csv(out / "tables" / "tournament_pairs.csv")
    n = len(expected)
    assert len(pairs) == n * (n - 1) // 2
    assert (pairs["win_rate"] >= 0.5).all(), "each pairing names the stronger strategy first"
    # turned round whole: the opponent's share is what the first-named does not win
    assert np.allclose(pairs["win_rate"] + pairs["opponent_win_rate"], 1)
    assert np.allclose(pairs["win_rate_lo"] + pairs["opponent_win_rate_hi"], 1)
    conv = pd.read_csv(out / "tables" / "convergence.csv")
    # sequential sizing: the looks double from the first, and stop at the first within the target
    looks, d = [], report.QUICK.convergence_first
    while d < report.QUICK.convergence_max:
        looks.append(d)
        d *= 2
    looks.append(report.QUICK.convergence_max)
    assert list(conv["deals"]) == looks[:len(conv)]
    half = ((conv["win_rate_hi"] - conv["win_rate_lo"]) / 2).to_numpy()
    assert np.all(half[:-1] > report.QUICK.convergence_target)
    assert half[-1] <= report.QUICK.convergence_target or len(conv) == len(looks)
    # heuristic beats random clearly in every game
    assert conv["win_rate_lo"].iloc[-1] > 0.5


_NOT_SHARES = ("difference", "points", "margin", "change", "score", "size", "players_in", "_se", "taken_per")


def _share_columns(frame: pd.DataFrame) -> list[str]:
    """Columns with an interval whose estimates are all in [0, 1] and whose name is no points or
    difference measure: shares (a points mean that happens to lie in [0, 1] is left out by name)."""
    out = []
    for col in frame.columns:
        if col + "_lo" in frame.columns and col + "_hi" in frame.columns and not any(w in col for w in _NOT_SHARES):
            v = pd.to_numeric(frame[col], errors="coerce").dropna()
            if len(v) and v.between(0, 1).all():
                out.append(col)
    return out


def test_no_share_interval_outside_0_1(built):
    game, out, _ = built
    checked = 0
    for file in (out / "tables").glob("*.csv"):
        frame = pd.read_csv(file)
        for col in _share_columns(frame):
            lo = pd.to_numeric(frame[col + "_lo"], errors="coerce").dropna()
            hi = pd.to_numeric(frame[col + "_hi"], errors="coerce").dropna()
            assert (lo >= 0).all() and (hi <= 1).all(), f"{file.name}.{col}: interval outside [0, 1]"
            checked += 1
    assert checked >= 3


def test_findings_only_from_cells_of_minimum_size(built):
    game, out, path = built
    findings = list(pd.read_csv(out / "tables" / "findings.csv")["finding"])
    assert 2 <= len(findings) <= report.MAX_FINDINGS
    md = path.read_text(encoding="utf-8")
    assert md.index("## Findings") < md.index("## How this report was made")
    for text in findings:
        assert text in md
        sizes = [int(x.replace(",", "")) for x in re.findall(r"n = ([\d,]+)", text)]
        assert sizes and min(sizes) >= report.MIN_N, text
        numbers = re.findall(r"\[([-+\d.]+), ([-+\d.]+)\]", text)
        assert numbers, f"a finding without its interval: {text}"
    # a table row under the minimum shows "n < MIN_N" instead of its interval
    for file in (out / "tables").glob("*.csv"):
        frame = pd.read_csv(file)
        if "below_min_n" in frame.columns and frame["below_min_n"].any():
            assert f"n < {report.MIN_N}" in md
            break


def test_pitch_bid_table_has_a_row_for_every_dealt_hand_class(tmp_path_factory):
    """The quick Pitch report's counterfactual bid table, checked against hands dealt from the
    same records with an independent trump counter: every dealt hand is in a row, whatever the
    bidding did, and the rows are the classes of those hands (ends merged to MIN_N)."""
    from analyzer import api
    from analyzer.games.pitch10 import study

    records = api.play("pitch10", seed=SEED, index=0, games=report.QUICK.records_batch)
    hands = [h for g in records for e in g if e["ev"] == "deal" for h in e["hands"]][:report.QUICK.deals]
    same_colour = {"C": "S", "S": "C", "D": "H", "H": "D"}

    def longest(hand):  # the reference: suit, jokers, the jack of the same colour
        return max(sum(c in ("LJ", "HJ") or c[1] == t or (c[0] == "J" and c[1] == same_colour[t]) for c in hand)
                   for t in "CDHS")

    lengths = pd.Series([longest(h) for h in hands]).value_counts().sort_index()
    low, high = lengths.index.min(), lengths.index.max()
    while lengths[lengths.index <= low].sum() < report.MIN_N:
        low += 1
    while lengths[lengths.index >= high].sum() < report.MIN_N:
        high -= 1
    expected = {study.length_label(k, low, high): int(v) for k, v in
                lengths.groupby(lengths.index.to_series().clip(low, high)).sum().items()}
    out, _ = quick_report("pitch10", tmp_path_factory)  # the report of seed SEED, as the records above
    table = pd.read_csv(out / "tables" / "bid_table_trump_length.csv", dtype={"trump_length": str})
    for bid, part in table.groupby("bid"):
        assert dict(zip(part["trump_length"], part["n"])) == expected, bid
    assert set(table["bid"].astype(str)) == {"4", "5", "6", "7", "8", "9", "10", "moon"}
    # make chances fall as the bid rises, within each class
    for _, part in table[table["bid"] != "moon"].groupby("trump_length"):
        chance = part.sort_values("bid", key=lambda b: b.astype(int))["make_chance"].to_numpy()
        assert np.all(np.diff(chance) <= 1e-12)


def test_pitch_keep_or_give_is_paired_at_every_recorded_decision(tmp_path_factory):
    """The quick Pitch report's keep-or-give table, checked against the same records read
    independently: its rows hold the pitcher's first keep-or-give decisions by the trumps held
    then (suit letters, jokers, the jack of the same colour), and how often the heuristic gave."""
    from analyzer import api
    from analyzer.games.pitch10 import study

    records = api.play("pitch10", seed=SEED, index=0, games=report.QUICK.records_batch)
    same_colour = {"C": "S", "S": "C", "D": "H", "H": "D"}

    def trumps(cards, t):
        return sum(c in ("LJ", "HJ") or c[1] == t or (c[0] == "J" and c[1] == same_colour[t]) for c in cards)

    held, gave = [], []
    for game in records:
        for e in game:
            if e["ev"] == "deal":
                dealt, refill = e["hands"], {}
            elif e["ev"] == "pitcher":
                pitcher = e["seat"]
            elif e["ev"] == "decide" and e["kind"] == "trump":
                suit = e["move"]
            elif e["ev"] == "refill":
                refill[e["seat"]] = e["cards"]
            elif e["ev"] == "decide" and e["kind"] == "give":
                held.append(trumps(dealt[pitcher] + refill.get(pitcher, []), suit))
                gave.append(e["move"] == "give")
    want = report.QUICK.deals // study.DEALS_PER_POSITION
    frame = pd.DataFrame({"held": held, "gave": gave}).head(want)
    assert len(frame) == want
    counts = frame["held"].value_counts()
    low, high = counts.index.min(), counts.index.max()
    while counts[counts.index <= low].sum() < report.MIN_N:
        low += 1
    while counts[counts.index >= high].sum() < report.MIN_N:
        high -= 1
    frame["cls"] = [study.length_label(v, low, high) for v in frame["held"].clip(low, high)]
    out, _ = quick_report("pitch10", tmp_path_factory)
    table = pd.read_csv(out / "tables" / "give_value_paired.csv", dtype={"trumps": str})
    assert set(table["measure"]) == set(study.GIVE_MEASURES)
    for _, part in table.groupby("measure"):
        assert dict(zip(part["trumps"], part["n"])) == frame["cls"].value_counts().to_dict()
        shares = frame.groupby("cls")["gave"].mean()
        assert np.allclose(part.set_index("trumps")["heuristic_gives"].loc[shares.index], shares)
    assert np.allclose(table["difference"], table["give"] - table["keep"])
    for col in ("give", "keep", "heuristic_gives"):
        assert table[col + "_lo"].min() >= 0 and table[col + "_hi"].max() <= 1


def test_pitch_keep_or_give_plays_the_samples_evaluate_plays(tmp_path):
    """Each keep-or-give position of the study is the recorded decision as ``evaluate`` sees it:
    with the same seed and samples, the same chances for keep and give (decision by decision)."""
    import json

    from analyzer import api
    from analyzer.games.pitch10 import study

    game = api.play("pitch10", seed=3, index=0, games=1)[0]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in game))
    gives: list = []
    study.reduce_games([game], 0, report.Cells("bid", {"m": ("made", "prop")}),
                       report.Cells("relative_seat", {"p": ("pitched", "prop")}), [], 0, gives, 4)
    decisions = [e for e in game if e["ev"] == "decide"]
    at = [i + 1 for i, e in enumerate(decisions) if e["kind"] == "give"][:len(gives)]
    assert len(at) == len(gives) == 4
    samples = 32
    rules = dict(game[0]["rules"])
    together = study.give_outcomes(rules, [g[0] for g in gives], samples, 11)
    differs = 0
    for h, n in enumerate(at):
        # alone, a position plays streams 0 .. samples - 1, as evaluate does (in the study,
        # position h plays those from h * samples)
        mine = study.give_outcomes(rules, [gives[h][0]], samples, 11)[0]
        assert h > 0 or np.array_equal(mine, together[0])
        res = api.evaluate("pitch10", record=str(path), at=n, samples=samples, seed=11, exact_limit=0)
        table = res.table.set_index("option")
        for o, option in enumerate(["keep", "give"]):
            assert table.loc[option, "made_bid"] == mine[:, o, 0].mean()
            assert table.loc[option, "win"] == mine[:, o, 1].mean()
        differs += not np.array_equal(mine[:, 0], mine[:, 1])
    assert differs  # the two options are not played alike


def test_twenty_two_discard_value_is_paired_at_every_recorded_discard(tmp_path_factory):
    """The quick Twenty-Two report's paired discard table, checked against the same records
    read independently: per rank, the first discard decisions of the heuristic games whose seat
    held the rank with a one-card discard of it legal (the record's own legal list), and how
    often the heuristic discarded the rank there."""
    from analyzer import api
    from analyzer.games.twenty_two import study

    records = api.play("twenty-two", seed=SEED, index=0, games=report.QUICK.records_batch)
    decisions = [e for g in records for e in g if e["ev"] == "decide" and e["kind"] == "discard"]
    decisions = decisions[:report.QUICK.deals // study.DEALS_PER_POSITION]
    assert len(decisions) == report.QUICK.deals // study.DEALS_PER_POSITION
    held: dict[str, list[bool]] = {}
    for e in decisions:
        for rank in set(e["legal"]) & set("23456789TJQKA"):  # the one-card discards
            held.setdefault(rank, []).append(rank in e["move"])
    out, _ = quick_report("twenty-two", tmp_path_factory)
    table = pd.read_csv(out / "tables" / "discard_value_paired.csv", dtype={"rank": str})
    assert set(table["measure"]) == set(study.DISCARD_MEASURES)
    for _, part in table.groupby("measure"):
        assert dict(zip(part["rank"], part["n"])) == {r: len(v) for r, v in held.items()}
        shares = part.set_index("rank")["heuristic_discards"]
        assert all(np.isclose(shares[r], np.mean(v)) for r, v in held.items())
    assert np.allclose(table["difference"], table["discard"] - table["keep"])
    for col in ("keep", "discard", "heuristic_discards"):
        assert table[col + "_lo"].min() >= 0 and table[col + "_hi"].max() <= 1


def test_twenty_two_discard_value_plays_the_samples_evaluate_plays(tmp_path):
    """Each discard position of the study is the recorded decision as ``evaluate`` sees it: with
    the same seed and samples, the same chances for keeping every card and for each one-card
    discard."""
    import json

    from analyzer import api
    from analyzer.games.twenty_two import study

    game = api.play("twenty-two", seed=4, index=0, games=1)[0]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in game))
    decisions = [e for e in game if e["ev"] == "decide"]
    at = [i + 1 for i, e in enumerate(decisions) if e["kind"] == "discard"][:3]
    positions: list = []
    study.reduce_games([game], 0, study.new_cells(), "", 4, positions, 3)
    assert len(positions) == len(at) == 3
    samples = 16
    rules = dict(game[0]["rules"])
    compared = 0
    for h, n in enumerate(at):
        alone = study.discard_frame(rules, [positions[h]], samples, 11)  # streams 0 .., as evaluate's
        ranks = [study.RANKS[i] for i in alone["rank_index"]]
        res = api.evaluate("twenty-two", record=str(path), at=n, samples=samples, seed=11, exact_limit=0,
                           keep=["", *ranks])
        table = res.table.set_index("option")
        for rank, row in zip(ranks, alone.to_dict("records")):
            assert table.loc["-", "took_final"] == row["take the final trick|keep"]
            assert table.loc[rank, "took_final"] == row["take the final trick|discard"]
            assert table.loc[rank, "win"] == row["win the game|discard"]
            compared += 1
    assert compared


def test_findings_follow_the_data():
    from analyzer.games.ninety_nine import study as nn
    from analyzer.games.pitch10 import study as pitch

    table = pd.DataFrame({"trump_length": ["4", "4", "5"], "bid": ["4", "5", "4"], "n": [100, 100, 40],
                          "score_change": [1.0, 2.0, 3.0], "score_change_lo": [0.5, 1.5, 2.0],
                          "score_change_hi": [1.5, 2.5, 4.0], "make_chance": [0.8, 0.6, 0.9],
                          "make_chance_lo": [0.7, 0.5, 0.8], "make_chance_hi": [0.9, 0.7, 0.95]})
    apart = lambda label, a, b: (1.0, 0.5, 1.5)  # noqa: E731 (the leader's paired difference to the other bid)
    first = pitch.bid_findings(table, apart)
    assert "bidding 5 as pitcher changes your team's score by +2.00 [+1.50, +2.50]" in first[0] and "n = 100" in first[0]
    assert "the bid with the best expected score, by +1.00 [+0.50, +1.50] against bidding 4" in first[0]
    changed = table.assign(score_change=[2.5, 2.0, 3.0], score_change_lo=[2.0, 1.5, 2.0],
                           score_change_hi=[3.0, 2.5, 4.0])
    second = pitch.bid_findings(changed, apart)
    assert second != first and "bidding 4 as pitcher changes your team's score by +2.50 [+2.00, +3.00]" in second[0]
    # a leader whose paired difference to the runner-up holds 0 is not called the best
    tied = pitch.bid_findings(table, lambda label, a, b: (1.0, -0.2, 2.2))
    assert "best expected score" not in tied[0] and "not told apart from bidding 4 as the best bid" in tied[0]
    # a cell under the minimum n is never a finding, whatever its value
    risk = pd.DataFrame({"total_bin": [80, 90, 90], "totals": ["80-89", "90-99", "90-99"],
                         "escapes_held": ["0", "0", "1"], "n": [500, report.MIN_N - 1, 400],
                         "over_this_round": [0.3, 0.99, 0.4], "over_this_round_lo": [0.25, 0.9, 0.35],
                         "over_this_round_hi": [0.35, 1.0, 0.45]})
    text = nn.risk_findings(risk)
    assert len(text) == 1 and "80-89" in text[0] and "0.300 [0.250, 0.350]" in text[0]
    risk.loc[1, "n"] = report.MIN_N
    assert "90-99" in nn.risk_findings(risk)[0]
    # paired tables: a finding only where the interval excludes no change, the largest effect
    from analyzer.games.twenty_two import study as tt

    paired = pd.DataFrame({"rank": ["2", "9", "A", "K"], "measure": "win the game", "n": [100, 100, 100, 10],
                           "difference": [-0.02, 0.03, -0.01, -0.5], "difference_lo": [-0.03, 0.02, -0.02, -0.6],
                           "difference_hi": [-0.01, 0.04, 0.001, -0.4]})
    found = tt.discard_findings(paired)
    assert len(found) == 2 and "one 9" in found[0] and "discard it" in found[0] and "one 2" in found[1]
    assert tt.discard_findings(paired.assign(difference_lo=-1.0, difference_hi=1.0)) == []
    give = pd.DataFrame({"trumps": ["4", "6+"], "measure": "made the bid", "n": [200, 50],
                         "difference": [-0.05, 0.02], "difference_lo": [-0.06, -0.01], "difference_hi": [-0.04, 0.05]})
    text = pitch.give_findings(give)
    assert len(text) == 1 and "holding 4 trumps" in text[0] and "keeping is better" in text[0]
    assert report.finding_text("{value} {n}", {"n": report.MIN_N - 1, "x": 1.0, "x_lo": 0.0, "x_hi": 2.0}, "x") is None


def test_the_common_part_names_no_game():
    """report.py and report_plots.py hold no game name, title, package or per-game constant:
    each game's study and rules prose live in its package (issue #16)."""
    source = (Path(report.__file__).read_text() + Path(report.plots.__file__).read_text()).lower()
    for name in registry.names():
        spec = registry.get(name)
        for word in (name, spec.title.lower(), spec.package.rsplit(".", 1)[-1]):
            assert word not in source, word
    for word in ("escapes", "ttj_scoring", "is_trump", "off_suit", "rules_brief = {", "study_", "\"qs\"",
                 "ranks =", "suits =", "hearts", "pitcher", "trump"):
        assert word not in source, word
    for name in registry.names():
        spec = registry.get(name)
        assert spec.study() is not None, name
        study_file = Path(spec.study().__file__)
        assert study_file.name == "study.py" and "njit" not in study_file.read_text()
        for room in ("kernel", "rules", "strategies"):
            assert "study" not in re.sub(r"#.*", "", Path(spec.module(room).__file__).read_text()), (name, room)


def test_html_is_self_contained(built):
    game, out, _ = built
    text = (out / "report.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    lowered = text.lower()
    for banned in ("<script", "<link", "@import", "<iframe"):
        assert banned not in lowered
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//|file:)""", lowered)
    assert not re.search(r"url\(", lowered)
    sources = re.findall(r"""<img[^>]*\ssrc="([^"]*)\"""", text)
    figures = list((out / "figures").glob("*.png"))
    assert len(sources) == len(figures) > 0
    embedded = set()
    for src in sources:
        assert src.startswith("data:image/png;base64,")
        data = base64.b64decode(src.split(",", 1)[1], validate=True)
        check_png(data)
        embedded.add(data)
    assert embedded == {p.read_bytes() for p in figures}
    # every table of the Markdown is in the HTML too
    assert text.count("<table>") == (out / "report.md").read_text(encoding="utf-8").count("\n|---")


def test_provenance(built):
    game, out, path = built
    facts = dict(pd.read_csv(out / "tables" / "provenance.csv", dtype=str).values)
    import numba

    assert facts["game"] == game and facts["seed"] == str(SEED) and facts["quick"] == "True"
    assert facts["numba"] == numba.__version__ and facts["numpy"] == np.__version__
    assert facts["pandas"] == pd.__version__
    assert float(facts["time taken (s)"]) > 0
    md = path.read_text(encoding="utf-8")
    assert f"analyzer report {game} --out {out} --seed {SEED} --quick" in md
    runs = pd.read_csv(out / "tables" / "runs.csv")
    assert {"tournament", "convergence", "study"} <= set(runs["part"])


def test_same_numbers_whatever_the_workers(tmp_path, tmp_path_factory):
    """The report's numbers depend on the seed only (per-game random streams): one worker
    gives the tables of the two-worker report the other tests read. Pitch: its quick report
    plays a tournament, a ladder of mc, pimc and ismcts, and its study's evaluations
    (``evaluate_chunk``), in half the time of hearts2's."""
    a = report.build_report("pitch10", tmp_path / "a", quick=True, seed=SEED, workers=1)
    _, b = quick_report("pitch10", tmp_path_factory)
    for file in sorted((a.parent / "tables").glob("*.csv")):
        if file.stem in ("runs", "provenance"):
            continue
        timing = ["ms_per_decision"] if file.stem == "ladder_speed" else []  # a timing, not a number of the seed
        pd.testing.assert_frame_equal(pd.read_csv(file).drop(columns=timing),
                                      pd.read_csv(b.parent / "tables" / file.name).drop(columns=timing))


def test_strategies_given_join_the_tournament_and_the_ladder(tmp_path, tmp_path_factory):
    # tests/data/user_random.py:uniform draws as hearts2's built-in random does: its games
    # against each strategy are random's, and the pairings without it are the plain report's
    user_file = Path(__file__).parent / "data" / "user_random.py"
    given = f"{user_file}:uniform"
    md = report.build_report("hearts2", tmp_path / "g", quick=True, seed=SEED, strategies=[given])
    _, plain = quick_report("hearts2", tmp_path_factory)
    for name in ("tournament", "ladder"):
        assert given in set(pd.read_csv(md.parent / "tables" / f"{name}_ranking.csv")["strategy"])
        pairs = pd.read_csv(md.parent / "tables" / f"{name}_pairs.csv")
        before = pd.read_csv(plain.parent / "tables" / f"{name}_pairs.csv")
        mine = pairs[(pairs["strategy"] != given) & (pairs["opponent"] != given)]
        key = ["strategy", "opponent"]
        pd.testing.assert_frame_equal(mine.sort_values(key).reset_index(drop=True),
                                      before.sort_values(key).reset_index(drop=True))
        share = {(row.strategy, row.opponent): row.win_rate for row in pairs.itertuples()}
        as_random = share.get(("heuristic", "random"), 1 - share.get(("random", "heuristic"), math.nan))
        as_given = share.get(("heuristic", given), 1 - share.get((given, "heuristic"), math.nan))
        assert as_given == as_random
    facts = dict(pd.read_csv(md.parent / "tables" / "provenance.csv").to_numpy())
    digest = hashlib.sha256(user_file.read_bytes()).hexdigest()[:12]
    assert facts["strategies given (--strategies)"] == f"{given} (sha256 {digest})"
    assert f"--strategies {given}" in md.read_text()
    # refused before anything is written: unknown, played anyway, given twice
    # a strategy is known by what it plays, not by its spelling: mc:base=heuristic,k=08 is mc:k=8
    mc = f"mc:base=heuristic,k=0{report.QUICK.mc_k}"
    for bad, said in ((["nonsense"], "unknown strategy"), (["heuristic"], "plays it already"),
                      ([given, given], "given twice"), ([mc], "plays it already"),
                      (["mc:k=5", "mc:k=05"], "given twice")):
        with pytest.raises(AnalyzerError, match=said):
            report.build_report("hearts2", tmp_path / "bad", quick=True, strategies=bad)
        assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("stopped", ["compare hearts2", "report"])
def test_a_report_stopped_by_ctrl_c_or_sigterm_writes_nothing(tmp_path, monkeypatch, stopped):
    """compare and run_arms return what they played when interrupted; the report went on
    with it and wrote pairings of 0 or 1 deals, exit 0. Interrupted in the tournament
    (compare) or in the convergence run (run_arms, label "report"), it now stops, and the
    folder it made is removed."""
    from analyzer import runner

    plain_call, plain_arms, state = runner.call_interruptibly, runner.run_arms, {"armed": False}

    def run_arms(*args, **kwargs):
        state["armed"] = kwargs.get("label") == stopped or state["armed"]
        return plain_arms(*args, **kwargs)

    def call(fn, *args, **kwargs):
        if state["armed"] and "timeout" in kwargs:  # a chunk of games, not the empty first call
            raise KeyboardInterrupt
        return plain_call(fn, *args, **kwargs)

    from analyzer import compare

    monkeypatch.setattr(runner, "call_interruptibly", call)
    monkeypatch.setattr(compare, "run_arms", run_arms)
    monkeypatch.setattr(report, "run_arms", run_arms)
    with pytest.raises(KeyboardInterrupt):
        report.build_report("hearts2", tmp_path / "stopped", quick=True)
    assert state["armed"] and list(tmp_path.iterdir()) == []  # nor the folder it was built in
    # into a folder that holds an earlier report: that report is left whole, not partly replaced
    earlier = tmp_path / "earlier"
    (earlier / "figures").mkdir(parents=True)
    (earlier / "figures" / "tournament.png").write_bytes(b"earlier figure")
    (earlier / "report.md").write_text("earlier report")
    state["armed"] = False
    with pytest.raises(KeyboardInterrupt):
        report.build_report("hearts2", earlier, quick=True)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "earlier", "earlier/figures", "earlier/figures/tournament.png", "earlier/report.md"]
    assert (earlier / "figures" / "tournament.png").read_bytes() == b"earlier figure"


def test_unknown_game_and_bad_seed(tmp_path):
    with pytest.raises(AnalyzerError):
        report.build_report("poker", tmp_path / "x", quick=True)
    with pytest.raises(AnalyzerError):
        report.build_report("hearts2", tmp_path / "y", quick=True, seed=-1)
    (tmp_path / "file").write_text("x")
    with pytest.raises(AnalyzerError):
        report.build_report("hearts2", tmp_path / "file", quick=True)


# ---- the statistics helpers and the record readers, checked independently -----------------

def test_interval_helpers():
    from scipy import stats as sps  # Student's t: the variance of n values or clusters has n - 1 df

    m, lo, hi = report.mean_ci([1.0, 2.0, 3.0, 4.0])
    half = sps.t.ppf(0.975, 3) * math.sqrt(np.var([1, 2, 3, 4], ddof=1) / 4)
    assert m == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    p, lo, hi = report.prop_ci([True, False, False, True, True])
    assert p == pytest.approx(0.6) and 0 < lo < 0.6 < hi < 1
    # clusters of one observation: the cluster-robust interval is the ordinary one
    x = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    m, lo, hi = report.clustered_interval(x, np.ones(5), "mean")
    half = sps.t.ppf(0.975, 4) * math.sqrt(np.var(x, ddof=1) / 5)
    assert m == pytest.approx(4.0) and hi - m == pytest.approx(half)
    # clipped to the range the data take, and shares always inside [0, 1]
    assert report.clustered_interval(np.array([0.0, 0.0, 1.0]), np.ones(3), "mean", 0.0, 1.0)[1] == 0.0
    p, lo, hi = report.clustered_interval(np.array([0.0, 0.0, 1.0, 0.0]), np.array([5, 3, 4, 6]), "prop")
    assert p == pytest.approx(1 / 18) and 0 <= lo < p < hi <= 1
    # two clusters of perfectly correlated observations: wider than if they were independent
    y = np.array([3.0, 0.0])
    n = np.array([3.0, 3.0])
    _, lo_c, hi_c = report.clustered_interval(y, n, "prop")
    _, lo_i, hi_i = report.prop_ci([1, 1, 1, 0, 0, 0])
    assert hi_c - lo_c > hi_i - lo_i
    # a clustered share of exactly 0 or 1 (no spread to size it by): Wilson at the clusters
    # (Kish's (sum m)^2 / sum m^2 for unequal ones), by the textbook formula, not at the observations
    z = 1.959963984540054
    for counts in (np.full(40, 5.0), np.array([2.0, 8.0] * 20)):
        k = counts.sum() ** 2 / (counts ** 2).sum()
        upper = z * z / (k + z * z)  # Wilson's upper end at 0 successes of k
        assert report.clustered_interval(np.zeros(40), counts, "prop") == (0.0, 0.0, pytest.approx(upper, abs=1e-12))
        p, lo, hi = report.clustered_interval(counts, counts, "prop")
        assert (p, hi) == (1.0, 1.0) and lo == pytest.approx(1 - upper, abs=1e-12)
    # a clustered difference by hand: a - b per cluster, by the linearised variance
    d, lo, hi = report.clustered_difference([2, 4, 6], [1, 1, 1], [1, 1, 1], [1, 1, 1])
    diffs = np.array([1.0, 3.0, 5.0])
    assert d == pytest.approx(3.0) and hi - d == pytest.approx(sps.t.ppf(0.975, 2) * math.sqrt(diffs.var(ddof=1) / 3))
    table = report.grouped(pd.DataFrame({"g": [1, 1, 2], "x": [1.0, 3.0, 5.0]}), "g", {"x": ("x", "mean")})
    assert list(table["n"]) == [2, 1] and list(table["x"]) == [2.0, 5.0]
    # a p-value in a report's table is never "0.000"
    shown = report.display_frame(pd.DataFrame({"p_value": [0.0, 4e-4, 0.0312]}))
    assert list(shown["p_value"]) == ["< 1e-12", "< 1e-3", "0.031"]


def test_readers_agree_with_the_rules():
    from analyzer import api
    from analyzer.games.hearts2 import study as hearts
    from analyzer.games.ninety_nine import study as nn
    from analyzer.games.pitch10 import study as pitch
    from analyzer.games.two_ten_jack import study as ttj

    # ninety-nine: exactly one player goes over per round; the escape ranks are K 4 9 T
    assert sorted(nn.ESCAPE_RANKS) == sorted("K49T")
    records = api.play("ninety-nine", seed=5, games=20)
    rounds = sum(e["ev"] == "hand_end" for g in records for e in g)
    risk, held, count = (report.Cells(["total_bin", "escapes_held"], {"o": ("over_now", "prop")}),
                         report.Cells(["card", "held"], {"w": ("went_over", "prop")}),
                         report.Cells("escapes", {"w": ("went_over", "prop")}))
    nn.reduce_games(records, 0, risk, held, count)
    per_card = held.table()
    for _, part in per_card.groupby("card"):
        assert round(float((part["w"] * part["n"]).sum())) == rounds
    turns = risk.table()
    assert round(float((turns["o"] * turns["n"]).sum())) == rounds
    assert (turns[turns["escapes_held"] != "0"]["o"] == 0).all()  # an escape card is always playable
    # hearts2: the scoring cards from the game's table
    assert hearts.QS_NAME == "QS" and hearts.is_heart("AH") and not hearts.is_heart("QS")
    # two-ten-jack: the scoring cards from the game's table
    assert ttj.SCORING == {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5, "2S": 1, "TS": 1, "JS": 1,
                           "AS": 1, "6D": 1}
    # pitch10: trumps from the game's strength table (jokers and the off-jack count)
    assert list(pitch.trumps_by_suit(["JC", "JS", "HJ", "2S", "AD"])) == [3, 2, 1, 4]
    assert pitch.hand_class(["AS", "KS", "QS", "JC", "2D", "3D", "4D", "5D", "LJ"]) == (5, 3)
    points = np.zeros((2, 4, 4), dtype=np.int64)
    points[0, :, 2] = [6, 7, 6, 7]   # hand 0 does best in hearts on every rollout
    points[1, 0::2, 0] = 9           # hand 1: clubs on the even rollouts only, spades on the odd ones
    points[1, 1::2, 3] = 8
    chosen = pitch.chosen_points(points)
    assert list(chosen[0]) == [7, 7, 6, 6]
    assert list(chosen[1]) == [0, 0, 0, 0]  # chosen on one half, measured on the other


def test_run_lines_say_what_starts_in_a_few_words():
    row = {"part": "ladder", "call": "compare.compare", "strategies": "pimc:k=8 pimc:k=2 heuristic random",
           "players": "", "deals": "200", "games": ""}
    assert report._run_line("hearts2", "ladder", row) == "hearts2 ladder: 4 strategies, 200 deals"
    row.update(strategies="heuristic random", deals="", games="1", players="3")
    assert report._run_line("ninety-nine", "study", row) == "ninety-nine study: heuristic random, 1 game, 3 players"
    row.update(strategies="heuristic (all)", games="4,000", players="")
    assert report._run_line("g", "study", row) == "g study: heuristic (all), 4,000 games"


def test_the_tournament_sentence_states_no_interval_of_fewer_than_min_n_deals():
    # it said "0.938 [0.887, 0.966] over 24 deals" where the table shows n < 30
    pairs = pd.DataFrame([
        {"strategy": "heuristic", "opponent": "random", "win_rate": 0.9375, "win_rate_lo": 0.887,
         "win_rate_hi": 0.966, "deals": 24},
        {"strategy": "mc:k=8", "opponent": "random", "win_rate": 0.95, "win_rate_lo": 0.91, "win_rate_hi": 0.97,
         "deals": 400}])
    assert report._tournament_sentence(pairs) == (
        f"Tournament shares of wins (stronger first): `heuristic` vs `random`: 0.938 (n < {report.MIN_N}) over 24 "
        "deals; `mc:k=8` vs `random`: 0.950 [0.910, 0.970] over 400 deals.")


def test_hearts2_first_lead_margin_is_the_first_leaders_one_row_per_hand():
    # the margin's cells also took every row (the followers' margins, sign turned, came first
    # and made the finding: "the first leader scores -0.92 ... (negative: an advantage)" where
    # the leader took 0.92 points more a hand)
    from analyzer import api
    from analyzer.games.hearts2 import study as hearts

    records = api.play("hearts2", seed=11, games=6, seats=["heuristic", "heuristic"])
    margins = []  # by hand from the events: the seat of the hand's first decision leads
    for game in records:
        leader = None
        for e in game:
            if e["ev"] == "deal":
                leader = None
            elif e["ev"] == "decide" and leader is None:
                leader = int(e["seat"])
            elif e["ev"] == "hand_end":
                margins.append(float(e["points"][leader]) - float(e["points"][1 - leader]))
    cells = {"lead": report.Cells("first_lead", {"points": ("points", "mean")})}
    margin = report.Cells("first_lead", {"lead_margin": ("lead_margin", "mean")})
    hearts.reduce_games(records, 0, cells, margin)
    table = margin.table()
    assert len(table) == 1 and bool(table["first_lead"].iloc[0]) and table["n"].iloc[0] == len(margins)
    assert table["lead_margin"].iloc[0] == pytest.approx(sum(margins) / len(margins))
    row = {"n": 100, "lead_margin": 0.9, "lead_margin_lo": 0.8, "lead_margin_hi": 1.0}
    assert "leading first costs points" in hearts.lead_finding(row)
    assert "no clear effect" in hearts.lead_finding({**row, "lead_margin_lo": -0.1})
    assert "leading first helps" in hearts.lead_finding({**row, "lead_margin": -0.9, "lead_margin_lo": -1.0,
                                                          "lead_margin_hi": -0.8})


def test_hearts2_moon_rate_is_one_clustered_wilson_interval(tmp_path_factory, tmp_path):
    """The moon table holds the simulation's share as it comes (a Wilson interval at the
    effective number of hands of the per-game counts, once), recomputed here from the
    simulation's per-game rows: the report once turned that interval's width back into a
    standard error and applied Wilson a second time."""
    from analyzer import api

    out, _ = quick_report("hearts2", tmp_path_factory)
    moon = pd.read_csv(out / "tables" / "moon_rate.csv").set_index(["pairing", "seat"])
    api.simulate("hearts2", games=report.QUICK.simulate, seed=SEED, seats=["heuristic", "random"], workers=1,
                 out=str(tmp_path / "rows.csv"))
    rows = pd.read_csv(tmp_path / "rows.csv")
    from scipy import stats as sps

    z = 1.959963984540054
    for seat in (0, 1):
        x, m = rows[f"moons_{seat}"].to_numpy(float), rows["hands"].to_numpy(float)
        k = len(x)
        p = x.sum() / m.sum()
        var = ((x - p * m) ** 2).sum() / (k - 1) / k / m.mean() ** 2  # delta method, games as clusters
        n = p * (1 - p) / var  # effective number of hands
        n *= (z / sps.t.ppf(0.975, k - 1)) ** 2  # the variance of k games: k - 1 df (Korn and Graubard)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        got = moon.loc[("heuristic vs random", seat), ["moon_rate", "moon_rate_lo", "moon_rate_hi"]]
        assert tuple(got) == pytest.approx((p, centre - half, centre + half), rel=1e-9)


def test_a_superlative_needs_its_difference_to_every_other_row_to_exclude_0():
    from analyzer.games.ninety_nine import study as nn
    from analyzer.games.pitch10 import study as pitch

    table = pd.DataFrame({"card": ["K", "4", "9", "T"], "n": [500, 500, 500, 500], "deals": [400, 400, 400, 400],
                          "difference": [-0.20, -0.15, -0.14, -0.10], "difference_lo": [-0.21, -0.16, -0.15, -0.11],
                          "difference_hi": [-0.19, -0.14, -0.13, -0.09]})
    gaps = {("K", "4"): (-0.05, -0.07, -0.03), ("K", "9"): (-0.06, -0.08, -0.04), ("K", "T"): (-0.1, -0.12, -0.08),
            ("T", "9"): (0.04, -0.01, 0.09), ("T", "4"): (0.05, 0.02, 0.08), ("T", "K"): (0.1, 0.08, 0.12)}
    most, least = nn.escape_findings(table, lambda a, b: gaps[(a, b)])
    assert "a K" in most and "the most protective escape card, by -0.050 [-0.070, -0.030] against the 4" in most
    assert "in 400 deals" in most
    # the T is above the 4 and the K clearly, but not above the 9: no superlative
    assert "a T" in least and "least protective escape card" not in least
    assert "not told apart from the 9 as the least protective: difference +0.040 [-0.010, +0.090]" in least
    # a card of too few deals takes no part, however many cards it counts
    few = table.assign(deals=[400, 400, 400, report.MIN_N - 1])
    most, least = nn.escape_findings(few, lambda a, b: gaps.get((a, b), (0.04, 0.01, 0.07)))
    assert "a K" in most and "a T" not in least and "a 9" in least

    # the paired differences themselves, against the per-deal (per-hand) differences by hand:
    # each deal holds one K and one 4, each hand is scored for both bids on its own rollouts
    # (Student's t: the variance of n deals or hands has n - 1 degrees of freedom)
    from scipy import stats as sps

    k_diff, four_diff = [-1, 0, -1, 0, 1, -1, 0, 0], [0, 0, -1, 1, 0, 0, -1, 0]
    frame = pd.DataFrame({"deal": list(range(8)) * 2, "card": ["K"] * 8 + ["4"] * 8, "over_diff": k_diff + four_diff})
    d = np.array(k_diff, dtype=float) - np.array(four_diff)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    assert nn.card_difference(frame, "K", "4") == pytest.approx((d.mean(), d.mean() - half, d.mean() + half))
    scores = {"score_4": [2, -4, 2, 2, 2, 2, -4, 2, 2], "score_5": [5, -5, -5, 5, 5, -5, 5, -5, 5]}
    bids = pd.DataFrame({"hand": [0, 0, 0, 1, 1, 1, 2, 2, 2], "order": [4] * 9, **scores})
    per_hand = (np.array(scores["score_5"]) - np.array(scores["score_4"])).reshape(3, 3).mean(axis=1)
    half = sps.t.ppf(0.975, 2) * per_hand.std(ddof=1) / math.sqrt(3)
    want = (per_hand.mean(), per_hand.mean() - half, per_hand.mean() + half)
    assert pitch.bid_difference(bids, "order", 4, "5", "4") == pytest.approx(want)
    assert pitch.bid_difference(bids.assign(order=5), "order", 4, "5", "4")[0] != pytest.approx(want[0])


def test_a_cell_of_many_observations_from_few_games_is_below_the_minimum(tmp_path):
    # 40 turns of 3 games: 40 observations, but 3 games' worth of evidence
    few = pd.DataFrame({"game": [0] * 20 + [1] * 15 + [2] * 5, "cell": "a", "x": [1.0, 0.0] * 20})
    many = pd.DataFrame({"game": np.arange(100, 140), "cell": "b", "x": [1.0, 0.0] * 20})
    cells = report.Cells("cell", {"x": ("x", "prop")})
    cells.add(pd.concat([few, many], ignore_index=True))
    table = cells.table()
    assert list(table["n"]) == [40, 40] and list(table["clusters"]) == [3, 40]
    assert list(report.enough(table)["cell"]) == ["b"]
    a, b = (table.iloc[i].to_dict() for i in (0, 1))
    assert report.finding_text("{value} ({n} of {clusters})", a, "x") is None
    assert report.finding_text("{value} ({n} of {clusters})", b, "x").endswith("(n = 40 of 40 games)")
    r = report.Report("test", tmp_path, True, 1, None)
    (tmp_path / "tables").mkdir()
    written = r.table("cells", table, "cells", show=["cell", "n", "x"])
    assert list(written["below_min_n"]) == [True, False]
    md = report.render_markdown(r.blocks)
    assert "| cell | n | clusters | x [95% CI] |" in md  # the games are shown beside the count
    assert "| a | 40 | 3 | n < 30 |" in md and "| b | 40 | 40 | 0.500 [" in md
    # a difference of two groups counts the games of each side, and the smaller
    flagged = pd.DataFrame({"game": [0, 0, 1, 2, 2, 3], "cell": "a", "flag": [True, False, True, True, False, False],
                            "x": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]})
    both = report.Cells(["cell", "flag"], {"x": ("x", "mean")})
    both.add(flagged)
    diff = both.difference("flag", "x", within=["cell"]).iloc[0]
    assert (diff["clusters_with"], diff["clusters_without"], diff["clusters"]) == (3, 3, 3)


def test_quick_tables_say_when_their_intervals_stand_on_fewer_than_the_minimum(tmp_path_factory):
    out, path = quick_report("hearts2", tmp_path_factory)
    pairs = pd.read_csv(out / "tables" / "ladder_pairs.csv")
    ranking = pd.read_csv(out / "tables" / "ladder_ranking.csv")
    # each strategy's deals: the fewest of its pairings, counted here from the pairs
    for _, row in ranking.iterrows():
        mine = pairs[(pairs["strategy"] == row["strategy"]) | (pairs["opponent"] == row["strategy"])]
        assert row["deals"] == mine["deals"].min() and row["below_min_n"] == (mine["deals"].min() < report.MIN_N)
    assert ranking["below_min_n"].all()  # quick: 1 or 2 deals a pairing
    md = path.read_text(encoding="utf-8")
    section = md[md.index("## Search strategies"):md.index("## Convergence")]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    head = next(r for r in rows if "difference_se" in r)
    se, deals = head.index("difference_se"), head.index("deals")
    ladder_rows = [r for r in rows if len(r) == len(head) and r is not head]
    assert ladder_rows and all(r[se] == f"n < {report.MIN_N}" for r in ladder_rows if int(r[deals]) < report.MIN_N)
    rank_head = next(r for r in rows if "mean_win_rate [95% CI] |" in r)
    assert "deals" in rank_head
