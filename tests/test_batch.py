"""Batch jobs: validation, resume after SIGKILL, identical results across backends, lost workers."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analyzer import batch
from analyzer.errors import AnalyzerError

# one pytest-xdist worker runs this file (pyproject's markers): the batch reference, shared by this file's tests
pytestmark = pytest.mark.xdist_group("batch")

JOB = """
[defaults]
seed = 77
chunk = 4000

[[run]]
name = "sim"
kind = "simulate"
game = "ninety-nine"
games = 48000
seats = { 0 = "random" }

[[run]]
name = "cmp"
kind = "compare"
game = "ninety-nine"
games = 12000
players = 2
strategies = ["heuristic", "random"]
"""


def write_job(tmp_path: Path, text: str = JOB) -> Path:
    path = tmp_path / "job.toml"
    path.write_text(text)
    return path


def analyzer_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "analyzer", *args]


def result_files(out: Path) -> dict[str, bytes]:
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
             if p.is_file() and ".chunks" not in p.parts}
    assert "summary.json" in files and "sim/seats.parquet" in files and "cmp/pairs.parquet" in files
    return files


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, bytes]:
    """The job run once, uninterrupted, locally (two threads), in this process (the tests that
    kill or resume the job start the real ``python -m analyzer batch``)."""
    tmp = tmp_path_factory.mktemp("ref")
    out = tmp / "out"
    batch.run_job(write_job(tmp), out, workers=2)
    return result_files(out)


def test_results_hold_the_expected_numbers(reference, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "seats.parquet").write_bytes(reference["sim/seats.parquet"])
    seats = pd.read_parquet(out / "seats.parquet")
    assert seats["games"].tolist() == [48000] * 3 and seats["wins"].sum() == 48000
    from analyzer import api

    plain = api.simulate("ninety-nine", games=48000, seed=77, seats={0: "random"}).tables["seats"]
    assert seats["wins"].tolist() == plain["wins"].tolist()   # the same games as simulate


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                found.append(int(entry.name))
    return found


def _workers(pid: int) -> list[int]:
    """Descendant processes that run multiprocessing workers (not the resource tracker)."""
    result, frontier = [], [pid]
    while frontier:
        for child in _children(frontier.pop()):
            frontier.append(child)
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "multiprocessing" in cmd and "resource_tracker" not in cmd:
                result.append(child)
    return result


def _saved_chunks(out: Path) -> int:
    return len(list((out / ".chunks").rglob("*.pkl"))) if (out / ".chunks").exists() else 0


def test_resume_after_sigkill_is_bit_identical(reference, tmp_path):
    """Kill the job (SIGKILL, the whole process group) at random points mid-job, resume."""
    job, out = write_job(tmp_path), tmp_path / "out"
    rng = random.Random(4)
    kills = 0
    for _ in range(3):
        target = _saved_chunks(out) + rng.randint(1, 4)
        proc = subprocess.Popen(analyzer_cmd("batch", str(job), "--out", str(out), "--workers", "2"),
                                start_new_session=True)
        deadline = time.time() + 300
        while proc.poll() is None and _saved_chunks(out) < target and time.time() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.05))   # anywhere in the next chunk, or while saving
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
    assert kills >= 2
    assert 0 < _saved_chunks(out) < 15, "the kills landed mid-job"
    subprocess.run(analyzer_cmd("batch", str(job), "--out", str(out), "--workers", "2"), check=True)
    assert result_files(out) == reference


def test_one_thread_gives_the_same_results(reference, tmp_path):
    out = tmp_path / "out"
    batch.run_job(write_job(tmp_path), out, workers=1)
    assert result_files(out) == reference


def test_dask_local_cluster_gives_the_same_results(reference, tmp_path):
    out = tmp_path / "out"
    subprocess.run(analyzer_cmd("batch", str(write_job(tmp_path)), "--out", str(out), "--local-cluster", "2"),
                   check=True)
    assert result_files(out) == reference


def test_a_worker_killed_during_the_job_is_survived(reference, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.Popen(analyzer_cmd("batch", str(write_job(tmp_path)), "--out", str(out), "--local-cluster", "2"))
    killed = None
    deadline = time.time() + 120
    while proc.poll() is None and time.time() < deadline and killed is None:
        chunks = list((out / ".chunks").rglob("*.pkl")) if (out / ".chunks").exists() else []
        workers = _workers(proc.pid)
        if chunks and workers:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.05)
    assert proc.wait(timeout=300) == 0
    assert killed is not None, "the job finished before a worker could be killed"
    assert result_files(out) == reference


def test_changing_one_run_recomputes_only_that_run(tmp_path):
    job = write_job(tmp_path, JOB.replace("games = 48000", "games = 8000").replace("games = 12000", "games = 4000"))
    out = tmp_path / "out"
    first = batch.run_job(job, out, workers=1)
    assert first.chunks_done_before == 0 and first.chunks_total == 3
    job.write_text(job.read_text().replace('strategies = ["heuristic", "random"]', 'strategies = ["random", "heuristic"]'))
    second = batch.run_job(job, out, workers=1)
    assert second.chunks_done_before == 2 and second.chunks_total == 3
    # the one result type (it had no to_dict): the summary as its table, the counts as facts
    data = second.to_dict()
    assert {k: data[k] for k in ("out", "chunks", "chunks_done_before")} == {
        "out": str(out), "chunks": 3, "chunks_done_before": 2}
    summary = pd.read_csv(out / "summary.csv")
    assert [row["name"] for row in data["runs"]] == list(summary["name"])
    assert [row["win_rate"] for row in data["runs"]] == pytest.approx(list(summary["win_rate"]), rel=1e-12)
    json.dumps(data)  # JSON-ready


@pytest.mark.parametrize("text,message", [
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\n", "run 1, key 'games': missing"),
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\ncolour = 'red'\n", "run 1, key 'colour': unknown key"),
    ("[[run]]\nname = 'x'\nkind = 'explode'\ngame = 'ninety-nine'\ngames = 10\n", "run 1 ('x'), key 'kind'"),
    ("[[run]]\nkind = 'simulate'\ngame = 'chess'\ngames = 10\n", "key 'game': unknown game 'chess'"),
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = -4\n", "key 'games': must be a positive integer"),
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\nrules = { chips = 'x' }\n", "key 'rules'"),
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\nseats = { 0 = 'zzz' }\n", "key 'seats': unknown strategy"),
    ("[[run]]\nkind = 'compare'\ngame = 'ninety-nine'\ngames = 10\nstrategies = ['random']\n", "key 'strategies': a compare run needs"),
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\n[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\nseed = 'abc'\n", "run 2, key 'seed'"),
    ("[[run]]\nname='a'\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\n[[run]]\nname='a'\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\n", "two runs are named 'a'"),
    ("[defaults]\ncolour = 1\n[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\n",
     "[defaults], key 'colour': unknown key"),   # not "run 1", which has no such key
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 10\nseats = { 0 = 'random', 00 = 'heuristic' }\n",
     "key 'seats': seat 0 is given twice"),
    # 2**63-1 games in chunks of 5: refused at once (listing the chunks took for ever)
    ("[[run]]\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 9223372036854775807\nchunk = 5\n",
     "key 'chunk': 5 makes 1,844,674,407,370,955,162 chunks"),
    ("this is = = not toml", "not valid TOML"),
    ("[defaults]\nseed = 1\n", "has no runs"),
])
def test_malformed_job_files_give_clear_errors(tmp_path, text, message):
    with pytest.raises(AnalyzerError, match=None) as info:
        batch.load_job(write_job(tmp_path, text))
    assert message in str(info.value)


def test_cli_batch_errors_are_one_line(cli, tmp_path):
    code, _, err = cli("batch", tmp_path / "missing.toml", "--out", tmp_path / "o")
    assert code == 2 and err.strip().startswith("error: job file") and len(err.strip().splitlines()) == 1


SEARCH_JOB = """
[defaults]
seed = 31
chunk = 8

[[run]]
name = "sim"
kind = "simulate"
game = "hearts2"
games = 24
seats = { 0 = "ismcts:iterations=30", 1 = "pimc:k=2" }
rules = { target = 40 }

[[run]]
name = "cmp"
kind = "compare"
game = "hearts2"
games = 8
strategies = ["ismcts:iterations=20", "mc:k=4"]
rules = { target = 40 }
"""


def test_search_strategies_in_a_batch_play_simulates_games_on_every_backend(tmp_path):
    """pimc and ismcts in both run kinds: the simulate run wins the games api.simulate plays
    (its chunks of 8 the same games as one run), and a Dask cluster gives the same files."""
    from analyzer import api

    local, dask = tmp_path / "local", tmp_path / "dask"
    batch.run_job(write_job(tmp_path, SEARCH_JOB), local, workers=2)
    subprocess.run(analyzer_cmd("batch", str(write_job(tmp_path, SEARCH_JOB)), "--out", str(dask),
                                "--local-cluster", "2"), check=True)
    files = {p.relative_to(local).as_posix(): p.read_bytes() for p in local.rglob("*.parquet")}
    assert {"sim/seats.parquet", "cmp/pairs.parquet"} <= set(files)
    assert files == {p.relative_to(dask).as_posix(): p.read_bytes() for p in dask.rglob("*.parquet")}
    seats = pd.read_parquet(local / "sim" / "seats.parquet")
    plain = api.simulate("hearts2", games=24, seed=31, seats={0: "ismcts:iterations=30", 1: "pimc:k=2"},
                         rules={"target": 40}).tables["seats"]
    assert seats["wins"].tolist() == plain["wins"].tolist() and seats["wins"].sum() == 24


TINY = "[[run]]\nname = 'r'\nkind = 'simulate'\ngame = 'ninety-nine'\ngames = 20\nchunk = 10\n"


@pytest.mark.parametrize("where", ["run folder", "summary", ".chunks", "lock", "checkpoint"])
def test_an_output_path_held_by_something_else_is_one_line_before_any_play(tmp_path, where):
    """Each of these was a traceback (the run folder's only at the very end of the job)."""
    job, out = write_job(tmp_path, TINY), tmp_path / "out"
    out.mkdir()
    run = batch.load_job(job)[0]
    {"run folder": lambda: (out / "r").write_text("mine"),
     "summary": lambda: (out / "summary.json").mkdir(),
     ".chunks": lambda: (out / ".chunks").write_text(""),
     "lock": lambda: (out / ".chunks" / "lock").mkdir(parents=True),
     "checkpoint": lambda: batch.Checkpoints(out).path(run, 0).mkdir(parents=True)}[where]()
    played = []
    with pytest.raises(AnalyzerError) as info:
        batch.run_job(job, out, workers=1, warn=played.append)
    assert "\n" not in str(info.value) and ("not a folder" in str(info.value) or "is a folder" in str(info.value)
                                            or "Is a directory" in str(info.value))
    assert not list(out.rglob("*.pkl")) or where == "checkpoint"
    assert not (out / "summary.csv").exists()


def test_a_table_the_run_no_longer_makes_is_removed(tmp_path):
    """A run renamed from simulate to compare: its folder held the simulate's tables too."""
    compare = TINY.replace("'simulate'", "'compare'") + "strategies = ['heuristic', 'random']\n"
    alone = tmp_path / "alone"
    batch.run_job(write_job(tmp_path, compare), alone, workers=1)
    out = tmp_path / "out"
    batch.run_job(write_job(tmp_path, TINY), out, workers=1)
    assert (out / "r" / "seats.parquet").exists()
    batch.run_job(write_job(tmp_path, compare), out, workers=1)
    assert sorted(p.name for p in (out / "r").iterdir()) == sorted(p.name for p in (alone / "r").iterdir())


def test_a_strategy_file_edited_while_the_job_runs_saves_nothing_more(tmp_path, monkeypatch):
    """The chunks after the edit played the new text (loaded again) under the old text's key:
    merged with the chunks before, in one run's results (and found by later runs of the old text)."""
    strategy = tmp_path / "mine.py"
    strategy.write_text((Path(__file__).parent.parent / "examples" / "my_strategy.py").read_text())
    job = write_job(tmp_path, TINY + f"seats = {{ 0 = '{strategy}:cautious' }}\n")
    played = batch.play_chunk

    def play_then_edit(run, start, count, *args):
        result = played(run, start, count, *args)
        strategy.write_text(strategy.read_text() + "\n# edited\n")
        return result

    monkeypatch.setattr(batch, "play_chunk", play_then_edit)
    out = tmp_path / "out"
    with pytest.raises(AnalyzerError) as info:
        batch.run_job(job, out, workers=1)
    assert str(info.value) == (f"run 'r', games 0 to 9: {strategy} changed while the job ran (that chunk is not "
                               "saved): run the same command again to play the run with the file as it is now")
    assert not list(out.rglob("*.pkl"))


def test_a_large_chunk_is_played_in_bounded_calls_with_the_same_sums(monkeypatch):
    """A chunk's rows are held while it plays: chunk = 10**8 would take gigabytes in one call."""
    import numpy as np

    from analyzer import runner

    run = batch.Run(name="r", kind="simulate", game="ninety-nine", games=1000, seed=5, players=3, chunk=1000)
    whole = batch.play_chunk(run, 0, 1000, 1)
    sizes = []
    call = runner.call_interruptibly
    monkeypatch.setattr(runner, "call_interruptibly", lambda fn, *a, **k: sizes.append(a[4].shape[0]) or call(fn, *a, **k))
    monkeypatch.setattr(batch, "CALL_GAMES", 300)
    split = batch.play_chunk(run, 0, 1000, 1)
    assert sorted(sizes) == [0, 100, 300, 300, 300]   # the empty warm-up call, then 1000 in calls of 300 at most
    assert split.n == whole.n == 1000
    assert np.array_equal(split.sums, whole.sums) and np.array_equal(split.wins, whole.wins)


def test_cli_batch_refuses_workers_with_dask_and_prints_json(cli, tmp_path):
    code, _, err = cli("batch", write_job(tmp_path, TINY), "--out", tmp_path / "o", "--local-cluster", "2",
                       "--workers", "2")
    assert code == 2 and err.startswith("error: --workers") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
    code, out, _ = cli("batch", write_job(tmp_path, TINY), "--out", tmp_path / "o", "--workers", "1", "--json")
    data = json.loads(out)   # the "(+1 column(s) with --wide or --json ...)" hint named an option batch lacked
    assert code == 0 and data["chunks"] == 2 and [r["name"] for r in data["runs"]] == ["r"]
    assert data["runs"][0]["games"] == 20


def test_counts_in_the_summary_are_integers_for_every_kind(cli, tmp_path):
    """A compare run has no hands: read back from summary.csv the column was float, and
    --json printed a simulate run's hands as 313.0."""
    compare = "[[run]]\nname = 'c'\nkind = 'compare'\ngame = 'ninety-nine'\ngames = 4\nchunk = 2\n" \
              "strategies = ['heuristic', 'random']\n"
    job = write_job(tmp_path, TINY + compare)
    code, out, _ = cli("batch", job, "--out", tmp_path / "o", "--workers", "1", "--json")
    simulate, pairs = json.loads(out)["runs"]
    from analyzer import api

    # the hands counted in the records of the same 20 games (play, not simulate's sums)
    hands = sum(e["ev"] == "deal" for g in api.play("ninety-nine", seed=0, games=20) for e in g)
    assert code == 0 and type(simulate["hands"]) is int and simulate["hands"] == hands
    assert type(simulate["games"]) is int and type(pairs["games"]) is int and pairs["hands"] is None
    frame = batch.summary_frame(tmp_path / "o")
    assert str(frame["hands"].dtype) == "Int64" and frame["hands"].tolist()[0] == hands



def test_a_local_cluster_above_twice_the_cores_is_refused_before_anything(cli, tmp_path, monkeypatch):
    """Each worker loads the kernels again (hundreds of MB): --local-cluster 64 on two cores
    started 64 processes."""
    from analyzer import runner

    monkeypatch.setattr(runner, "available_cores", lambda: 3)
    job = write_job(tmp_path, TINY)
    code, _, err = cli("batch", job, "--out", tmp_path / "o", "--local-cluster", "7")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: --local-cluster 7: at most 6 on this machine (3 cores): ")
    with pytest.raises(AnalyzerError, match="at most 6"):
        batch.run_job(job, tmp_path / "o", local_cluster=7)   # the API too
    assert not (tmp_path / "o").exists()


def test_the_next_run_removes_the_temporary_files_a_killed_write_left(tmp_path):
    """kill -9 mid-write leaves io.atomic_path's hidden .part file (only a watched run's
    watcher removed them): the next run of the job, holding the folder's lock, removes those
    of its own writes, and nothing else."""
    import fcntl

    job, out = write_job(tmp_path, TINY), tmp_path / "out"
    batch.run_job(job, out, workers=1)
    [key] = [p for p in (out / ".chunks").iterdir() if p.is_dir()]
    stale = [key / ".000000000010.pkl.k3j_9xq0.part", out / "r" / ".seats.parquet.a1b2c3d4.part",
             out / ".summary.csv.zz99yy88.part", out / ".summary.json.qwertyui.part",
             out / ".chunks" / "0123456789abcdef" / ".000000000000.pkl.abcdefgh.part"]  # an old key's too
    kept = [out / ".notes.txt.abcdefgh.part",        # not a file batch writes
            out / "r" / "seats.parquet.a1b2c3d4.part",  # not hidden: not atomic_path's
            key / ".000000000010.pkl.short.part",     # not tempfile's 8 characters
            out / "elsewhere" / ".seats.parquet.a1b2c3d4.part"]  # not a folder of the job's runs
    for path in stale + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half")
    with open(out / ".chunks" / "lock", "a+") as other:  # another live batch holds the folder
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(AnalyzerError, match="another batch job is running"):
            batch.run_job(job, out, workers=1)
        assert all(p.exists() for p in stale)
    again = batch.run_job(job, out, workers=1)
    assert again.chunks_done_before == 2
    assert [p for p in stale if p.exists()] == [] and all(p.exists() for p in kept)


def test_a_compare_run_gives_the_same_bits_whatever_its_chunk_size():
    """The README promises the same files whatever the backend or the workers; with float
    sums a compare run's win rate depended on its chunk size in the last bits
    (0.9226625000000004 against 0.9226625): its sums are exact now (stats.Moments' scale)."""
    for strategies, games in ((["heuristic", "random"], 600), (["heuristic", "random", "random"], 300)):
        tables = []
        for chunk in (games, 201, 97):
            run = batch.Run(name="c", kind="compare", game="ninety-nine", games=games, seed=2, players=3,
                            strategies=strategies, chunk=chunk)
            tables.append(batch.finish_run(run, [batch.play_chunk(run, s, c, 2) for s, c in run.chunks()])["tables"])
        for other in tables[1:]:
            assert other.keys() == tables[0].keys()
            for name in other:   # pairs, and the ranking of three
                pd.testing.assert_frame_equal(other[name], tables[0][name], check_exact=True)


def test_a_completed_job_removes_the_checkpoints_of_its_runs_earlier_versions(tmp_path, monkeypatch):
    """Every edit of a run (or of the analyzer) makes a new key folder under .chunks/: the old
    ones were never removed. A completed job removes those of its own runs' earlier versions
    (their results were just replaced), and nothing else."""
    compare = "[[run]]\nname = 'c'\nkind = 'compare'\ngame = 'ninety-nine'\ngames = 4\nchunk = 2\n" \
              "strategies = ['heuristic', 'random']\n"
    job, out = write_job(tmp_path, TINY + compare), tmp_path / "out"
    batch.run_job(job, out, workers=1)
    chunks = out / ".chunks"
    first = {p.name for p in chunks.iterdir() if p.is_dir()}
    foreign = chunks / "0123456789abcdef"   # an older analyzer's folder: no owner named
    gone = chunks / "fedcba9876543210"      # a run no longer in the job
    foreign.mkdir()
    gone.mkdir()
    (gone / "run.json").write_text(json.dumps({"run": "gone"}))
    job.write_text(job.read_text().replace("games = 4", "games = 6"))
    played = batch.play_chunk

    def fails_on_the_compare(run, *args):
        if run.name == "c":
            raise AnalyzerError("stopped")
        return played(run, *args)

    monkeypatch.setattr(batch, "play_chunk", fails_on_the_compare)
    with pytest.raises(AnalyzerError):
        batch.run_job(job, out, workers=1)
    assert first <= {p.name for p in chunks.iterdir()}   # a job that did not finish removes nothing
    monkeypatch.setattr(batch, "play_chunk", played)
    again = batch.run_job(job, out, workers=1)
    now = {p.name for p in chunks.iterdir() if p.is_dir()}
    keys = {run.key for run in again.runs}
    assert len(keys & first) == 1                        # the simulate run is unchanged
    assert now == keys | {foreign.name, gone.name}       # the compare's old folder is gone
    assert {json.loads((chunks / k / "run.json").read_text())["run"] for k in keys} == {"r", "c"}
