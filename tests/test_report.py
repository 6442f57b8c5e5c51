"""Strategy reports (analyzer/report.py): a quick report for every game builds, its figures
are valid PNGs, its tables have the expected columns and consistent intervals, the HTML is
self-contained, and the numbers do not depend on the number of workers."""

from __future__ import annotations

import base64
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
from analyzer import report

GAMES = ["ninety-nine", "twenty-two", "hearts2", "two-ten-jack", "pitch10"]
SEED = 7

COMMON_TABLES = {
    "options": ["option", "value", "meaning"],
    "strategies": ["strategy", "description"],
    "tournament_pairs": ["strategy", "opponent", "deals", "games", "win_rate", "win_rate_lo", "win_rate_hi",
                         "difference", "p_value"],
    "tournament_ranking": ["rank", "strategy", "mean_win_rate", "mean_win_rate_lo", "mean_win_rate_hi"],
    "convergence": ["deals", "games", "win_rate", "win_rate_lo", "win_rate_hi", "win_rate_se",
                    "win_rate_se_unpaired"],
    "provenance": ["item", "value"],
    "runs": ["part", "call", "strategies", "seconds"],
}

GAME_TABLES = {
    "ninety-nine": {
        "risk_by_total_and_hand": ["total_bin", "escapes_held", "n", "over_this_round", "over_this_round_lo",
                                   "over_this_round_hi", "over_now"],
        "escape_card_value": ["card", "n_with", "n_without", "with", "without", "difference", "difference_lo",
                              "difference_hi"],
        "went_over_by_escapes_dealt": ["escapes", "n", "went_over"],
        "seats": ["seat", "strategy", "win_rate", "win_rate_lo", "win_rate_hi"],
        "positions": ["position", "label", "bust_rate", "bust_rate_lo", "bust_rate_hi"],
        "players_sweep": ["players", "games"],
        "players_positions": ["players", "position", "bust_rate", "bust_rate_lo", "bust_rate_hi"],
    },
    "twenty-two": {
        "discard_value": ["players_strategy", "rank", "held", "discarded_share", "points_difference",
                          "points_difference_lo", "points_difference_hi"],
        "final_trick": ["players", "rank", "n", "taken", "taken_lo", "taken_hi"],
        "hand_size_by_hand": ["hand", "n", "size", "size_lo", "size_hi", "players_in"],
        "hand_size_distribution": ["size", "hands", "share"],
    },
    "hearts2": {
        "moon_rate": ["pairing", "seat", "strategy", "moon_rate", "moon_rate_lo", "moon_rate_hi"],
        "qs_value": ["qs", "n", "points", "points_lo", "points_hi", "took_qs"],
        "first_lead": ["role", "n", "points", "points_lo", "points_hi"],
        "points_by_hearts": ["hearts_held", "n", "points", "points_lo", "points_hi", "moon"],
    },
    "two-ten-jack": {
        "as_value_dealt": ["as_dealt", "n", "points", "points_lo", "points_hi", "took_as"],
        "as_value_taken": ["took_as", "n", "points"],
        "scoring_card_value": ["card", "card_value", "with", "without", "difference", "difference_lo",
                               "difference_hi"],
        "points_by_value_dealt": ["value_bin", "n", "points"],
        "dealer_advantage": ["position", "points_per_round", "points_per_round_lo", "points_per_round_hi"],
    },
    "pitch10": {
        "bid_table_trump_length": ["trump_length", "bid", "hands", "make_chance", "make_chance_lo",
                                   "make_chance_hi"],
        "bid_table_top_trumps": ["top_trumps", "bid", "hands", "make_chance"],
        "bids_made": ["bid", "n", "made", "taken"],
        "give_value": ["give", "holding", "n", "taken", "made"],
        "points_by_seat": ["relative_seat", "seat", "n", "team_points", "team_points_lo", "team_points_hi",
                           "pitch_rate"],
    },
}

GAME_FIGURES = {
    "ninety-nine": ["risk_by_total", "escape_card_value", "position_bust_rate", "players_positions"],
    "twenty-two": ["discard_value", "final_trick", "hand_size"],
    "hearts2": ["moon_rate", "qs_value", "first_lead", "points_by_hearts"],
    "two-ten-jack": ["as_value", "scoring_card_value", "points_by_value_dealt", "dealer_advantage"],
    "pitch10": ["bid_table_trump_length", "bid_table_top_trumps", "give_value", "points_by_seat"],
}


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp(game.replace("-", "_"))
    path = report.build_report(game, out, quick=True, seed=SEED, workers=2)
    return game, out, path


# ---- an independent PNG reader (zlib + struct): signature, chunks, CRCs, IHDR, pixels -------

def check_png(data: bytes) -> tuple[int, int]:
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
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20
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


def test_tournament_and_convergence(built):
    game, out, _ = built
    spec = registry.get(game)
    ranking = pd.read_csv(out / "tables" / "tournament_ranking.csv")
    expected = {"random", "heuristic"} | ({f"mc:k={report.QUICK.mc_k}"} if "mc" in spec.strategies else set())
    assert set(ranking["strategy"]) == expected
    pairs = pd.read_csv(out / "tables" / "tournament_pairs.csv")
    n = len(expected)
    assert len(pairs) == n * (n - 1) // 2
    conv = pd.read_csv(out / "tables" / "convergence.csv")
    looks, d = [], report.QUICK.convergence_first
    while d < report.QUICK.convergence:
        looks.append(d)
        d *= 2
    assert list(conv["deals"]) == looks + [report.QUICK.convergence]
    # the band narrows as deals grow, roughly like 1/sqrt(n)
    se = conv["win_rate_se"].to_numpy()
    assert se[-1] <= se[0] and (se[-1] < se[0] or se[0] == 0)
    # heuristic beats random clearly in every game
    assert conv["win_rate_lo"].iloc[-1] > 0.5


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


def test_same_numbers_whatever_the_workers(tmp_path):
    """The report's numbers depend on the seed only (per-game random streams)."""
    a = report.build_report("hearts2", tmp_path / "a", quick=True, seed=3, workers=1)
    b = report.build_report("hearts2", tmp_path / "b", quick=True, seed=3, workers=2)
    for file in sorted((a.parent / "tables").glob("*.csv")):
        if file.stem in ("runs", "provenance"):
            continue
        pd.testing.assert_frame_equal(pd.read_csv(file), pd.read_csv(b.parent / "tables" / file.name))


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
    m, lo, hi = report.mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt(np.var([1, 2, 3, 4], ddof=1) / 4)
    assert m == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    p, lo, hi = report.prop_ci([True, False, False, True, True])
    assert p == pytest.approx(0.6) and 0 < lo < 0.6 < hi < 1
    d, lo, hi = report.diff_ci([1, 2, 3], [0, 0, 1])
    assert d == pytest.approx(2 - 1 / 3)
    half = 1.959963984540054 * math.sqrt(1 / 3 + (1 / 3) / 3)
    assert hi - d == pytest.approx(half)
    table = report.grouped(pd.DataFrame({"g": [1, 1, 2], "x": [1.0, 3.0, 5.0]}), "g", {"x": ("x", "mean")})
    assert list(table["n"]) == [2, 1] and list(table["x"]) == [2.0, 5.0]


def test_readers_agree_with_the_rules():
    from analyzer import api

    # ninety-nine: exactly one player goes over per round, and only one with no escape card
    turns, dealt = report.nn_frames(api.play("ninety-nine", seed=5, games=20))
    assert (dealt.groupby(["game", "round"])["went_over"].sum() == 1).all()
    assert not turns[turns["over_now"]]["escapes"].any()
    assert (turns["over_now"].sum() == dealt["went_over"].sum())
    # hearts2: 7 hearts in all per hand (hands plus dead cards); QS with one seat, dead or the other
    records = api.play("hearts2", seed=5, games=10)
    hands = report.hearts_frame(records)
    dead_hearts = [sum(c[1] == "H" for c in e["dead"]) for g in records for e in g if e["ev"] == "deal"]
    per_hand = hands["hearts_held"].to_numpy().reshape(-1, 2).sum(axis=1)
    assert list(per_hand + np.array(dead_hearts)) == [7] * len(dead_hearts)
    # two-ten-jack: AS is always played, so exactly one seat takes it each round
    rounds = report.ttj_frame(api.play("two-ten-jack", seed=5, games=10))
    assert (rounds["took_as"].to_numpy().reshape(-1, 2).sum(axis=1) == 1).all()
    # pitch10: a made bid scores the bid (default rules), a missed one loses it
    hands, seats = report.pitch_frames(api.play("pitch10", seed=5, games=10))
    bids = hands["bid"].map(lambda b: 10 if b == "moon" else int(b))
    normal = hands["bid"] != "moon"
    assert (hands[normal & hands["made"]]["points"] == bids[normal & hands["made"]]).all()
    assert (hands[normal & ~hands["made"]]["points"] == -bids[normal & ~hands["made"]]).all()
    assert len(seats) == 4 * len(hands)
    # twenty-two: in every final trick somebody takes it, and takers hold the highest rank
    held, final, deals = report.tt_frames(api.play("twenty-two", seed=5, games=10))
    for _, trick in final.groupby("trick"):
        top = trick["rank_index"].max()
        assert list(trick["taken"]) == list(trick["rank_index"] == top)
    assert (deals["size"] >= 1).all() and (deals["in"] >= 2).all()
    assert set(final["rank"]) <= set(report.RANKS)
