"""Batch ``review`` runs: the recorded games of a file or folder, each reviewed as
``analyzer review`` reviews it, one checkpoint per game, locally or on Dask."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer import batch
from analyzer.errors import AnalyzerError
from analyzer.review import review
from analyzer.stats import Z95

GOLDEN = Path(__file__).parent / "data" / "golden" / "hearts2.jsonl"  # two recorded games
SAMPLES = 30


def _job(tmp_path: Path, records: str, extra: str = "", samples: int = SAMPLES) -> Path:
    path = tmp_path / "job.toml"
    path.write_text(f'[[run]]\nname = "rev"\nkind = "review"\ngame = "hearts2"\nrecords = "{records}"\n'
                    f"seats = [0]\nsamples = {samples}\nseed = 5\n{extra}")
    return path


def _records_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(GOLDEN, folder / "a.jsonl")
    return folder


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> Path:
    """The job run once, locally on one thread; its output folder."""
    tmp = tmp_path_factory.mktemp("review")
    out = tmp / "out"
    batch.run_job(_job(tmp, str(_records_folder(tmp))), out, workers=1)
    return out


def test_each_game_is_reviewed_as_analyzer_review_reviews_it(reviewed, tmp_path):
    got = pd.read_parquet(reviewed / "rev" / "decisions.parquet")
    assert sorted(set(got["game_index"])) == [0, 1] and set(got["record"]) == {"a.jsonl"}
    for index in (0, 1):
        want = review("hearts2", str(GOLDEN), index, [0], samples=SAMPLES, seed=5, workers=1).tables["decisions"]
        mine = got[got["game_index"] == index].drop(columns=["record", "game_index"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, want)


def test_the_seat_totals_add_up_the_decisions(reviewed):
    decisions = pd.read_parquet(reviewed / "rev" / "decisions.parquet")
    seats = pd.read_parquet(reviewed / "rev" / "seats.parquet")
    games = pd.read_parquet(reviewed / "rev" / "games.parquet")
    assert list(seats["seat"]) == [0] and list(games["game_index"]) == [0, 1]
    row = seats.iloc[0]
    assert row["games"] == 2 and row["decisions"] == len(decisions)
    assert row["choices"] == int((decisions["options"] > 1).sum())
    assert math.isclose(row["loss_total"], decisions["loss_win"].sum())
    half = Z95 * math.sqrt((decisions["loss_win_se"] ** 2).sum())
    assert math.isclose(row["loss_total_hi"] - row["loss_total"], half)
    assert math.isclose(row["loss_per_game"], decisions.groupby("game_index")["loss_win"].sum().mean())
    assert math.isnan(row["loss_per_game_lo"])  # two games are too few for an interval of the mean
    assert row["flagged"] == int(decisions["flagged"].sum())
    summary = pd.read_csv(reviewed / "summary.csv")
    # in points of win probability, as review's own lines (a sum of losses, not a probability)
    assert summary.loc[0, "kind"] == "review" and summary.loc[0, "what"] == (
        f"seat 0 loses most: {100 * row['loss_per_game']:.1f} points of win probability per game, 2 games")


def test_a_lost_checkpoint_is_reviewed_again_to_the_same_files(reviewed, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(reviewed, out)
    chunks = sorted((out / ".chunks").rglob("*.pkl"))
    assert len(chunks) == 2  # one per recorded game
    chunks[1].unlink()
    before = {p.name: p.read_bytes() for p in (reviewed / "rev").iterdir()}
    job = _job(tmp_path, str(_records_folder(tmp_path)))
    again = batch.run_job(job, out, workers=1)
    assert again.chunks_done_before == 1 and again.chunks_total == 2
    assert {p.name: p.read_bytes() for p in (out / "rev").iterdir()} == before


def test_dask_reviews_the_same_games_with_the_records_travelling(reviewed, tmp_path):
    """A local cluster's workers get the records' text with the job (Run.travelling), as a
    remote one would, and give the same tables."""
    out = tmp_path / "out"
    job = _job(tmp_path, str(_records_folder(tmp_path)))
    subprocess.run([sys.executable, "-m", "analyzer", "batch", str(job), "--out", str(out), "--local-cluster", "1"],
                   check=True, capture_output=True)
    for table in ("decisions", "games", "seats"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / "rev" / f"{table}.parquet"),
                                      pd.read_parquet(reviewed / "rev" / f"{table}.parquet"))
    run = batch.load_job(job)[0]
    moved = run.travelling()
    assert moved.sources == {run.targets[0][0]: GOLDEN.read_text()}
    assert moved.key == run.key


def test_an_edited_record_is_reviewed_again(tmp_path):
    folder = _records_folder(tmp_path)
    key = batch.load_job(_job(tmp_path, str(folder)))[0].key
    (folder / "a.jsonl").write_text(GOLDEN.read_text() + "\n")
    assert batch.load_job(_job(tmp_path, str(folder)))[0].key != key


@pytest.mark.parametrize("records,extra,message", [
    ("missing.jsonl", "", "key 'records': missing.jsonl not found"),
    ("EMPTY", "", "holds no .jsonl record"),
    ("NN", "", "is 'ninety-nine', not hearts2"),
    ("GOLDEN", "games = 3\n", "key 'games': is 3, but the records hold 2 hearts2 game(s)"),
    ("GOLDEN", "rollout = 'zzz'\n", "key 'rollout': unknown strategy"),
    ("GOLDEN", "SAMPLES0", "key 'samples': must be a positive integer"),
    ("GOLDEN", "strategies = ['random']\n", "key 'strategies': a review run takes its players"),
])
def test_a_review_run_with_bad_keys_is_refused_in_words(tmp_path, records, extra, message):
    (tmp_path / "empty").mkdir()
    nn = tmp_path / "nn.jsonl"
    shutil.copy(GOLDEN.parent / "ninety-nine.jsonl", nn)
    path = {"EMPTY": str(tmp_path / "empty"), "NN": str(nn), "GOLDEN": str(GOLDEN)}.get(records, records)
    with pytest.raises(AnalyzerError) as info:
        batch.load_job(_job(tmp_path, path, "", 0) if extra == "SAMPLES0" else _job(tmp_path, path, extra))
    assert message in str(info.value) and str(info.value).startswith("run 1 ('rev')")


def test_seats_of_a_review_run_are_a_list_and_review_keys_belong_to_review_runs(tmp_path):
    job = tmp_path / "job.toml"
    job.write_text(f'[[run]]\nkind = "review"\ngame = "hearts2"\nrecords = "{GOLDEN}"\nseats = {{ 0 = "random" }}\n')
    with pytest.raises(AnalyzerError, match="a review run takes a list of seat numbers"):
        batch.load_job(job)
    # a seat the records' games do not have: refused as the job loads (it failed as it played)
    job.write_text(f'[[run]]\nkind = "review"\ngame = "hearts2"\nrecords = "{GOLDEN}"\nseats = [0, 5]\n')
    with pytest.raises(AnalyzerError) as info:
        batch.load_job(job)
    assert str(info.value) == (f"run 1, key 'seats': seat 5 does not exist in game 0 of {GOLDEN.resolve()} "
                               "(2 players: seats 0 to 1)")
    job.write_text('[[run]]\nkind = "simulate"\ngame = "hearts2"\ngames = 10\nsamples = 5\n')
    with pytest.raises(AnalyzerError, match="key 'samples': only a review run takes it"):
        batch.load_job(job)


def test_defaults_apply_to_the_runs_that_take_them_in_their_sense(tmp_path):
    """A simulate's [defaults] (games, chunk in simulated games, a seats table, players) made
    the review run one chunk of all its games, or refused it; review's samples refused the
    simulate run."""
    job = tmp_path / "job.toml"
    job.write_text(f'[defaults]\nseed = 9\ngames = 500\nchunk = 50000\nplayers = 2\nseats = {{ 0 = "random" }}\n'
                   f'samples = 40\n[[run]]\nname = "sim"\nkind = "simulate"\ngame = "hearts2"\n'
                   f'[[run]]\nname = "rev"\nkind = "review"\ngame = "hearts2"\nrecords = "{GOLDEN}"\n')
    sim, rev = batch.load_job(job)
    assert (sim.seed, sim.games, sim.chunk, sim.players, sim.seats) == (9, 500, 50000, 2, {0: "random"})
    assert (rev.seed, rev.games, rev.chunk, rev.review_seats, rev.samples) == (9, 2, 1, [], 40)
    assert rev.chunks() == [(0, 1), (1, 1)]   # one checkpoint per recorded game, as documented


def test_timeout_reaches_every_evaluation_of_a_review_run(tmp_path, monkeypatch):
    """--timeout stopped simulate and compare chunks only: a review run's rollout stuck in a
    loop hung the job."""
    from analyzer import api
    from analyzer.errors import StrategyError

    def evaluate(*args, timeout=None, **options):
        raise StrategyError(f"evaluated with timeout {timeout}")

    monkeypatch.setattr(api, "evaluate", evaluate)
    with pytest.raises(StrategyError) as info:
        batch.run_job(_job(tmp_path, str(GOLDEN)), tmp_path / "out", workers=1, timeout=7.5)
    assert str(info.value) == "run 'rev', game 0: evaluated with timeout 7.5"
