"""Robustness: every bad input is one `error:` line with exit 2, never a traceback and never
a file left behind or damaged; interrupts and damaged checkpoints never fake results.

The corpus runs the real entry point in a process of its own (a traceback, a crash or a hang
is then seen as it would be by a user): forked from one interpreter that imported the engine
once (tests/forkrun.py), not a new ``python -m analyzer`` that pays seconds of imports per
command. The tests about signals start the real ``python -m analyzer``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forkrun

# one pytest-xdist worker runs this file (pyproject's markers): the forked runner and the batch reference, shared by this file's tests
pytestmark = pytest.mark.xdist_group("robustness")

ROOT = Path(__file__).resolve().parent.parent
ANALYZER = [sys.executable, "-m", "analyzer"]


_RUNNER = forkrun.Runner({**os.environ, "COLUMNS": "80"})


def run(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``analyzer ARGS`` as a process of its own in ``cwd`` (forked: module docstring)."""
    return _RUNNER.run(*args, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module", autouse=True)
def _close_runner():
    yield
    _RUNNER.close()


def _interruptible() -> None:
    """In a child before it starts: Ctrl-C as a user's shell gives it. A pytest-xdist worker
    ignores SIGINT, an ignored signal is inherited, and Python then installs no handler for it:
    the child would never see the interrupt these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _error_lines(stderr: str) -> list[str]:
    """stderr without the notice a cold compile cache prints first (it is not an error)."""
    return [line for line in stderr.strip().splitlines() if not line.startswith("compiling ")]


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """A folder with the files the corpus refers to."""
    d = tmp_path_factory.mktemp("bad")
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "hand5.json").write_text(json.dumps({"hand": 5}))
    (d / "nested.json").write_text(json.dumps({"hand": [["AS"]], "seat": 0}))
    (d / "inf.json").write_text('{"hand": "KS 4D 7C", "total": Infinity}')
    (d / "huge.json").write_text('{"hand": "KS 4D 7C", "total": 1e400}')
    (d / "rules.json").write_text(json.dumps({"hand": "KS 4D 7C", "total": 5, "rules": [1, 2]}))
    (d / "seatfloat.json").write_text(json.dumps({"hand": "KS 4D 7C", "total": 5, "seat": 1.5}))
    (d / "players37.json").write_text(json.dumps({"hand": "KS 4D 7C", "total": 5, "players": 3.7}))
    (d / "seatbool.json").write_text(json.dumps({"hand": "KS 4D 7C", "total": 5, "seat": True}))
    (d / "list.jsonl").write_text("[1, 2]\n")
    (d / "number.jsonl").write_text("7\n")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage\n")
    (d / "nodeal.jsonl").write_text('{"ev": "game", "game": "hearts2", "rules": {"target": 100}, "players": 2}\n'
                                    '{"ev": "decide", "move": "2C"}\n')
    (d / "runlist.toml").write_text("run = [1, 2]\n")
    (d / "defaults5.toml").write_text('defaults = 5\n[[run]]\nkind = "simulate"\ngame = "hearts2"\ngames = 10\n')
    (d / "players35.toml").write_text('[[run]]\nkind = "simulate"\ngame = "hearts2"\ngames = 10\nplayers = 3.5\n')
    (d / "longname.toml").write_text(f'[[run]]\nname = "{"x" * 300}"\nkind = "simulate"\ngame = "hearts2"\ngames = 10\n')
    (d / "summary.toml").write_text('[[run]]\nname = "summary.csv"\nkind = "simulate"\ngame = "hearts2"\ngames = 10\n')
    (d / "ok.toml").write_text('[[run]]\nname = "a"\nkind = "simulate"\ngame = "hearts2"\ngames = 10\nchunk = 5\n')
    return d


BAD = [
    # command line shapes (Click's usage errors)
    ("simulat", "ninety-nine"),
    ("simulate", "ninety-nine", "--games", "many"),
    ("simulate", "ninety-nine", "--bogus"),
    ("compare", "ninety-nine", "heuristic", "random", "--alpha", "low"),
    ("batch", "ok.toml"),
    # values out of range or of the wrong kind
    ("simulate", "ninety-nine", "--games", "0"),
    ("simulate", "ninety-nine", "--rule", "players=x"),
    ("simulate", "ninety-nine", "--seat", "0=mc:k=99999999999999999999"),
    ("simulate", "ninety-nine", "--seat", "0=mc:base=mc"),
    ("simulate", "ninety-nine", "--seat", "0=random:"),  # was played, labelled "random:"
    ("simulate", "ninety-nine", "--seat", "0=mc:"),
    ("play", "ninety-nine", "--index", "99999999999999999999"),
    ("evaluate", "ninety-nine", "--hand", "KS 4D 7C", "--total", "92", "--chips", "100000000000000000000,1,2"),
    ("evaluate", "ninety-nine", "--hand", "KS 4D 7C", "--total", "92", "--time", "-5"),
    ("evaluate", "ninety-nine", "--hand", "KS " * 30_000, "--total", "92"),
    # output locations
    ("simulate", "hearts2", "--games", "10", "--out", ""),
    ("simulate", "hearts2", "--games", "10", "--out", "/proc/x.csv"),
    ("simulate", "hearts2", "--games", "10", "--out", "ok.toml/x.csv"),
    ("simulate", "hearts2", "--games", "10", "--plot", "p.txt"),
    ("simulate", "hearts2", "--games", "10", "--out", "nowhere/x.csv"),
    ("simulate", "hearts2", "--games", "10", "--out", "x.csv/"),  # wrote the file x.csv
    ("play", "hearts2", "--record", "g.jsonl/"),
    ("play", "hearts2", "--record", "nowhere/g.jsonl"),
    ("batch", "ok.toml", "--out", "/proc/results"),
    ("report", "hearts2", "--out", "/proc/report", "--quick"),
    ("report", "hearts2", "--out", "r7", "--quick", "--workers", "0"),
    # position files
    ("evaluate", "ninety-nine", "--position", "deep.json"),
    ("evaluate", "hearts2", "--position", "hand5.json"),
    ("evaluate", "hearts2", "--position", "nested.json"),
    ("evaluate", "ninety-nine", "--position", "inf.json"),
    ("evaluate", "ninety-nine", "--position", "huge.json"),
    ("evaluate", "ninety-nine", "--position", "rules.json"),
    ("evaluate", "ninety-nine", "--position", "seatfloat.json"),
    ("evaluate", "ninety-nine", "--position", "seatbool.json"),
    ("evaluate", "ninety-nine", "--position", "players37.json"),
    # record files
    ("evaluate", "hearts2", "--record", "list.jsonl", "--at", "1"),
    ("evaluate", "hearts2", "--record", "number.jsonl", "--at", "1"),
    ("evaluate", "hearts2", "--record", "binary.jsonl", "--at", "1"),
    ("evaluate", "hearts2", "--record", "nodeal.jsonl", "--at", "1"),
    # job files and schedulers
    ("batch", "runlist.toml", "--out", "r1"),
    ("batch", "defaults5.toml", "--out", "r2"),
    ("batch", "players35.toml", "--out", "r3"),
    ("batch", "longname.toml", "--out", "r4"),
    ("batch", "summary.toml", "--out", "r5"),
    ("batch", "ok.toml", "--out", "r6", "--scheduler", "not a scheduler"),
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a)[:60] for a in BAD])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(args, work):
    before = sorted(p.relative_to(work) for p in work.rglob("*"))
    result = run(*args, cwd=work)
    lines = _error_lines(result.stderr)
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    assert len(lines[0]) <= 400
    after = sorted(p.relative_to(work) for p in work.rglob("*"))
    assert after == before, set(after) ^ set(before)


#: options that mean nothing without another, or contradict the record they go with: refused in
#: words (they were ignored, or failed later in words about something else)
MISPLACED = [
    (("play", "ninety-nine", "--quiet"), "--quiet leaves nothing to show: give --record FILE to write the records"),
    (("compare", "hearts2", "heuristic", "random", "--each-pair"),
     "--each-pair goes with --until-significant (it sets when the sequential test looks)"),
    (("compare", "hearts2", "heuristic", "random", "--first-look", "10"),
     "--first-look goes with --until-significant (it sets when the sequential test looks)"),
    # a rule-variant study took them and played every variant on all its games, untested
    (("compare", "hearts2", "--rule", "target=50", "--rule", "target=100", "--until-significant"),
     "--until-significant is for comparing strategies; a rule-variant study plays every variant on all --games"),
    (("compare", "hearts2", "--rule", "target=50", "--rule", "target=100", "--alpha", "0.5"),
     "--alpha is for comparing strategies; a rule-variant study plays every variant on all --games"),
    (("evaluate", "ninety-nine", "--hand", "2C 3C 4C", "--at", "2"),
     "--at picks a decision of a record: give --record FILE"),
    (("evaluate", "ninety-nine", "--record", "RECORD"),
     "a record's position needs --at N, the decision (from 1 to DECISIONS)"),
    (("evaluate", "ninety-nine", "--record", "RECORD", "--at", "2", "--players", "5"),
     "--players 5: the record's game has 3 players"),
    (("evaluate", "ninety-nine", "--record", "RECORD", "--at", "2", "--rule", "chips=3"),
     "--rule chips=3: the record's game was played with chips=5"),
    (("play", "hearts2", "--index", str(2**62)), f"--index must be from 0 to {2**62 - 1:,} (2**62 - 1), not {2**62:,}"),
    (("play", "hearts2", "--index", str(2**62 - 1), "--games", "3"),
     "--games must be from 1 to 1 (the last game's index stays below 2**62), not 3"),
]


@pytest.mark.parametrize("args,message", MISPLACED, ids=[" ".join(a)[:50] for a, _ in MISPLACED])
def test_misplaced_options_are_refused_in_words(args, message, cli, tmp_path):
    from analyzer import api, records

    record = tmp_path / "nn.jsonl"
    played = api.play("ninety-nine", seed=7)
    record.write_text(records.to_jsonl(played))
    decisions = str(sum(e["ev"] == "decide" for e in played[0]))
    code, out, err = cli(*[str(record) if a == "RECORD" else a for a in args])
    assert code == 2 and out == "" and err == f"error: {message.replace('DECISIONS', decisions)}\n"


def test_plot_failure_does_not_damage_an_existing_output(work, tmp_path):
    out = tmp_path / "rows.csv"
    out.write_text("precious\n")
    result = run("simulate", "hearts2", "--games", "10", "--out", str(out), "--plot", str(work / "ok.toml" / "p.png"),
                 cwd=tmp_path)
    assert result.returncode == 2 and out.read_text() == "precious\n"


def test_output_files_honour_the_umask(tmp_path):
    result = subprocess.run(["sh", "-c", f"umask 022; {sys.executable} -m analyzer play hearts2 --record g.jsonl"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "g.jsonl").stat().st_mode & 0o777 == 0o644


# ---- batch faults ------------------------------------------------------------------------------

JOB = '[[run]]\nname = "nn"\nkind = "simulate"\ngame = "ninety-nine"\ngames = {games}\nseed = 8\nchunk = {chunk}\n'


def _summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text())["nn"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    d = tmp_path_factory.mktemp("ref")
    (d / "job.toml").write_text(JOB.format(games=60_000, chunk=10_000))
    result = run("batch", "job.toml", "--out", "out", cwd=d)
    assert result.returncode == 0, result.stderr
    return d, _summary(d / "out")


def test_interrupted_batch_saves_only_whole_chunks_and_resumes_exactly(tmp_path, reference):
    _, expected = reference
    # 20 chunks, interrupted after 2; the job must outlast the wait for them (200,000 games in
    # chunks of 10,000 can finish in 5 s; the 18 chunks left here take about 10)
    (tmp_path / "job.toml").write_text(JOB.format(games=400_000, chunk=20_000))
    proc = subprocess.Popen([*ANALYZER, "batch", "job.toml", "--out", "out"], cwd=tmp_path,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    chunks = tmp_path / "out" / ".chunks"
    deadline = time.time() + 240
    while time.time() < deadline and len(list(chunks.rglob("*.pkl"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "saved" in err and "Traceback" not in err
    assert not (tmp_path / "out" / "summary.json").exists()
    assert not list((tmp_path / "out").rglob("*.part"))
    # every saved chunk is whole: resuming gives every game once
    (tmp_path / "job.toml").write_text(JOB.format(games=400_000, chunk=20_000))
    result = run("batch", "job.toml", "--out", "out", cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    assert _summary(tmp_path / "out")["games"] == 400_000


def test_sigterm_exits_143_and_leaves_no_partial_file(tmp_path):
    # chunks of 20,000 (were 100,000): the first is saved sooner, and saves come more often
    (tmp_path / "job.toml").write_text(JOB.format(games=2_000_000, chunk=20_000))
    proc = subprocess.Popen([*ANALYZER, "batch", "job.toml", "--out", "out"], cwd=tmp_path,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    chunks = tmp_path / "out" / ".chunks"
    deadline = time.time() + 240
    while time.time() < deadline and not list(chunks.rglob("*.pkl")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert not list((tmp_path / "out").rglob("*.part")) and "Traceback" not in err


@pytest.mark.parametrize("damage", ["swap", "truncate", "garbage", "empty"])
def test_damaged_checkpoints_are_played_again_never_used(damage, reference):
    folder, expected = reference
    chunk_dir = next(p for p in (folder / "out" / ".chunks").iterdir() if p.is_dir())
    files = sorted(chunk_dir.glob("*.pkl"))
    original = files[1].read_bytes()
    if damage == "swap":
        files[1].write_bytes(files[2].read_bytes())
    elif damage == "truncate":
        files[1].write_bytes(original[: len(original) // 2])
    elif damage == "garbage":
        files[1].write_bytes(b"not a checkpoint at all")
    else:
        files[1].write_bytes(b"")
    result = run("batch", "job.toml", "--out", "out", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "warning: checkpoint" in result.stderr and "Traceback" not in result.stderr
    assert _summary(folder / "out") == expected
    assert files[1].read_bytes() == original  # the chunk was played again, identically


def test_two_batches_on_one_folder_the_second_refuses(tmp_path):
    (tmp_path / "job.toml").write_text(JOB.format(games=2_000_000, chunk=100_000))
    first = subprocess.Popen([*ANALYZER, "batch", "job.toml", "--out", "out"], cwd=tmp_path,
                             stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    try:
        deadline = time.time() + 240
        while time.time() < deadline and not (tmp_path / "out" / ".chunks" / "lock").exists():
            time.sleep(0.05)
        second = run("batch", "job.toml", "--out", "out", cwd=tmp_path)
        assert second.returncode == 2 and "another batch job is running" in second.stderr
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)


# ---- hostile strategies ----------------------------------------------------------------------

HOSTILE = str(ROOT / "tests" / "data" / "hostile.py")
HOSTILE_GAMES = ["hearts2", "pitch10", "ninety-nine", "two-ten-jack", "twenty-two"]


# smuggling is checked in every game (each has its own move check); the faults that the shared
# wrapper catches in two games
HOSTILE_CASES = ([(game, "smuggle", "illegal move") for game in HOSTILE_GAMES]
                 + [(game, name, expect) for game in ("hearts2", "ninety-nine")
                    for name, expect in [("out_of_bounds", "IndexError"), ("out_of_bounds_in_helper", "IndexError"),
                                         ("raises", "raised"), ("returns_float", "returns float64, not an integer move")]])


# what else user code raises: a failed allocation, an exception class of its own, a built-in
# one (a traceback and status 1 before)
HOSTILE_CASES += [("ninety-nine", "hogs_memory", "raised MemoryError: Allocation failed"),
                  ("ninety-nine", "raises_a_kind:kind=0", "raised GaveUp: no idea what to play"),
                  ("ninety-nine", "raises_a_kind:kind=1", "raised RuntimeError: stuck")]
# a crash of compiled code, said by the process that watched it (analyzer.supervise)
HOSTILE_CASES.append(("ninety-nine", "recurses", "the engine crashed (SIGSEGV) while user strategy "))


@pytest.mark.parametrize("game,name,expect", HOSTILE_CASES)
def test_a_hostile_strategy_is_one_line_exit_3(game, name, expect, tmp_path):
    result = run("simulate", game, "--games", "20", "--seat", f"0={HOSTILE}:{name}", "--out", "rows.csv",
                 cwd=tmp_path, timeout=600)
    lines = _error_lines(result.stderr)
    assert result.returncode == 3, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("error: ") and expect in lines[0] and f"{name}" in lines[0]
    assert not list(tmp_path.iterdir())  # no rows, no partial file


def test_the_commands_watched_are_those_that_name_a_user_strategy(tmp_path):
    from analyzer.supervise import user_strategies_named

    assert user_strategies_named(["simulate", "hearts2", "--seat", "0=random", "--out", "x.py"]) == []
    assert user_strategies_named(["simulate", "hearts2", "--seat", "0=/a b/s.py:f:k=2", "--seat", "1=s.py:g"]) == [
        "/a b/s.py:f", "s.py:g"]
    assert user_strategies_named(["compare", "ninety-nine", "x.py:f", "heuristic", "mc:k=8,base=y.py:g",
                                  "--rollout", "x.py:f"]) == ["x.py:f", "y.py:g"]
    assert user_strategies_named(["report", "pitch10", "--strategies", "a.py:one,heuristic,b.py:two"]) == [
        "a.py:one", "b.py:two"]
    job = tmp_path / "job.toml"
    job.write_text('[[run]]\nkind = "compare"\nstrategies = ["heuristic", "mine.py:cautious"]\n')
    assert user_strategies_named(["batch", str(job), "--out", "o"]) == ["mine.py:cautious"]
    job.write_text('[[run]]\nkind = "compare"\nstrategies = ["heuristic", "random"]\n')
    assert user_strategies_named(["batch", str(job), "--out", "o"]) == []
    assert user_strategies_named(["batch", str(tmp_path / "missing.toml"), "--out", "o"]) == []
    named = tmp_path / "job.txt"  # a job file by any name
    named.write_text('[[run]]\nkind = "simulate"\nseats = { 0 = "mine.py:cautious" }\n')
    assert user_strategies_named(["batch", "--workers", "2", str(named), "--out", "o"]) == ["mine.py:cautious"]


def test_user_strategies_are_found_as_the_plain_pattern_finds_them():
    """The finder matches each stretch between ``= , ' " newline`` on its own (a search of
    the whole text was quadratic: a 90,000-character --hand took 14 s to refuse); on short
    texts, where the quadratic search is cheap, it finds what that search finds."""
    import random
    import re

    from analyzer.supervise import user_strategies_named

    plain = re.compile(r"[^=,'\"\n]+\.py:[A-Za-z_]\w*")
    pieces = [".py:", "a", "b_1", " ", "=", ",", "'", '"', "\n", "/", ".", ":", "py", "9", "x.py:f"]
    draw = random.Random(5)
    for _ in range(20_000):
        texts = ["".join(draw.choice(pieces) for _ in range(draw.randint(0, 12))) for _ in range(draw.randint(1, 3))]
        expected = list(dict.fromkeys(m.strip() for text in texts for m in plain.findall(text)))
        assert user_strategies_named(texts) == expected, texts


def test_where_the_system_cannot_watch_the_command_runs_unwatched(monkeypatch):
    """No fork and no child on a system without ``sigwaitinfo`` (macOS): None, run here."""
    import signal

    from analyzer import supervise

    monkeypatch.delattr(signal, "sigwaitinfo")
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    assert supervise.run_watched(["x.py:f"]) is None


def test_a_strategys_prints_go_to_stderr_and_leave_the_output_whole(tmp_path):
    """What a strategy prints as it loads and as it plays (numba's print, from the kernels'
    threads) is on stderr; stdout holds the command's own output (valid JSON here)."""
    result = run("simulate", "ninety-nine", "--games", "3", "--seat", f"0={ROOT / 'tests' / 'data' / 'noisy.py'}:talks",
                 "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 3
    said = result.stderr.splitlines()
    assert said[0] == "noisy.py loading" and said.count("choosing among 3") > 3
    # and from the workers of a batch job's own Dask cluster, whose stdout is the command's
    _write_job(tmp_path, "noisy", "ninety-nine", 2, 2, f"{ROOT / 'tests' / 'data' / 'noisy.py'}:talks")
    result = run("batch", "job.toml", "--out", "out", "--local-cluster", "1", cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "choosing" not in result.stdout and "choosing among 3" in result.stderr


def test_a_strategy_module_that_exits_is_one_line(tmp_path):
    result = run("simulate", "hearts2", "--games", "5", "--seat", f"0={ROOT / 'tests' / 'data' / 'exits.py'}:never",
                 cwd=tmp_path)
    assert result.returncode == 3 and "sys.exit" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command, what", [
    (["compare", "hearts2", f"{HOSTILE}:loops", "heuristic", "--games", "20", "--csv", "t.csv"], "a chunk"),
    (["compare", "hearts2", "--rule", "target=50", "--rule", "target=100", "--seat", f"0={HOSTILE}:loops",
      "--games", "20", "--csv", "t.csv"], "a chunk"),
    # play's kernel releases the GIL as the others do, or the wait never saw the time pass
    (["play", "hearts2", "--seat", f"0={HOSTILE}:loops", "--record", "g.jsonl"], "game 0"),
    (["evaluate", "ninety-nine", "--hand", "KS 4D 7C", "--total", "52", "--chips", "3,1,2", "--rollout",
      f"{HOSTILE}:loops", "--csv", "t.csv"], "a round of samples"),
])
def test_compare_variants_and_play_stop_a_strategy_stuck_in_a_loop_at_timeout(command, what, tmp_path):
    result = run(*command, "--timeout", "1.5", cwd=tmp_path, timeout=300)
    lines = _error_lines(result.stderr)
    assert result.returncode == 3 and lines == [f"error: {what} took longer than --timeout 1.5 s: user strategy "
                                                f"{HOSTILE}:loops may be stuck in a loop"], result.stderr
    assert not list(tmp_path.iterdir())


def test_review_stops_a_rollout_stuck_in_a_loop_at_timeout(tmp_path):
    """review had no --timeout (batch's review runs passed theirs): a rollout stuck in a loop
    hung it. The error is evaluate's, led by the decision (evaluate --at N replays it)."""
    assert run("play", "ninety-nine", "--seed", "3", "--record", "g.jsonl", "--quiet", cwd=tmp_path).returncode == 0
    events = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    decides = [e for e in events if e.get("ev") == "decide"]
    first = next(k for k, e in enumerate(decides, start=1) if len(e["legal"]) > 1)  # forced moves play nothing
    result = run("review", "ninety-nine", "--record", "g.jsonl", "--rollout", f"{HOSTILE}:loops", "--timeout", "1.5",
                 "--csv", "t.csv", cwd=tmp_path, timeout=300)
    assert result.returncode == 3 and _error_lines(result.stderr) == [
        f"error: decision {first}: a round of samples took longer than --timeout 1.5 s: user strategy "
        f"{HOSTILE}:loops may be stuck in a loop"], result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
    result = run("review", "ninety-nine", "--record", "g.jsonl", "--timeout", "0", cwd=tmp_path)
    assert result.returncode == 2 and _error_lines(result.stderr) == [
        "error: --timeout must be a positive number of seconds, not 0.0"], result.stderr


def _write_looping_job(folder: Path, games: int) -> None:
    """``folder/job.toml``: one simulate run of hearts2, chunks of 20 games, seat 0 stuck in a loop."""
    _write_job(folder, "loop", "hearts2", games, 20, f"{HOSTILE}:loops")


def _write_job(folder: Path, name: str, game: str, games: int, chunk: int, seat0: str) -> None:
    """``folder/job.toml``: one simulate run ``name`` of ``game``, seat 0 playing ``seat0``."""
    (folder / "job.toml").write_text(f"""[[run]]
name = "{name}"
kind = "simulate"
game = "{game}"
games = {games}
chunk = {chunk}
seats = {{ 0 = "{seat0}" }}
""")


def test_a_batch_job_stops_a_strategy_stuck_in_a_loop_at_timeout_locally_and_on_dask(tmp_path):
    _write_looping_job(tmp_path, games=40)
    # port 8787 busy, as when another Dask cluster runs: the local cluster must not warn of it
    import socket

    busy = socket.socket()
    try:
        busy.bind(("127.0.0.1", 8787))
        busy.listen()
    except OSError:
        pass  # busy already
    for backend in ([], ["--local-cluster", "2"]):
        result = run("batch", "job.toml", "--out", "out", "--timeout", "1.5", *backend, cwd=tmp_path, timeout=300)
        # the error names the run and the games of the chunk (on Dask either chunk may be first)
        [line] = _error_lines(result.stderr)
        assert result.returncode == 3 and re.fullmatch(
            r"error: run 'loop', games (0 to 19|20 to 39): a chunk took longer than --timeout 1\.5 s: user strategy "
            + re.escape(f"{HOSTILE}:loops") + r" may be stuck in a loop", line), result.stderr
        assert [p.name for p in tmp_path.iterdir()] == ["job.toml"]
    busy.close()


def test_a_batch_job_whose_strategy_crashes_the_engine_is_one_line_locally_and_on_dask(tmp_path):
    """A strategy that recurses without end overflows the stack of the process that plays it:
    locally the command's watching process says so (analyzer.supervise) and removes the
    folder the job made; on Dask every try of the chunk kills its worker (KilledWorker, a
    traceback before)."""
    _write_job(tmp_path, "deep", "ninety-nine", 20, 20, f"{HOSTILE}:recurses")
    result = run("batch", "job.toml", "--out", "out", cwd=tmp_path, timeout=300)
    assert result.returncode == 3 and _error_lines(result.stderr) == [
        f"error: the engine crashed (SIGSEGV) while user strategy {HOSTILE}:recurses played: a strategy that "
        "recurses without end (or too deep) overflows the stack"], result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["job.toml"]
    result = run("batch", "job.toml", "--out", "out", "--local-cluster", "1", cwd=tmp_path, timeout=300)
    assert result.returncode == 3 and _error_lines(result.stderr) == [
        "error: run 'deep': the Dask workers died playing its games 0 to 19 (every try): the engine crashed "
        f"while user strategy {HOSTILE}:recurses played? A strategy that recurses without end (or too deep) "
        "overflows the stack"], result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["job.toml"]


def test_a_report_whose_strategy_crashes_the_engine_leaves_no_folder(tmp_path):
    result = run("report", "ninety-nine", "--out", "rep", "--quick", "--strategies", f"{HOSTILE}:recurses",
                 cwd=tmp_path, timeout=300)
    assert result.returncode == 3 and "Traceback" not in result.stderr, result.stderr
    assert _error_lines(result.stderr)[-1] == (  # after the report's progress lines
        f"error: the engine crashed (SIGSEGV) while user strategy {HOSTILE}:recurses played: a strategy that "
        "recurses without end (or too deep) overflows the stack")
    assert not list(tmp_path.iterdir())


def test_a_remote_dask_worker_left_spinning_past_timeout_is_restarted(tmp_path):
    """On a user's own Dask cluster (``--scheduler``) the chunk stopped at ``--timeout`` would
    spin on its worker's thread for ever (compiled code cannot be stopped from Python): the
    job restarts that worker (its nanny starts it again) and says so, besides its error."""
    import logging

    from distributed import Client, LocalCluster

    from analyzer.runner import kernel_left_running

    _write_looping_job(tmp_path, games=20)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0",
                      scheduler_kwargs={"dashboard": False}, silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        before = set(client.scheduler_info()["workers"])
        result = run("batch", "job.toml", "--out", "out", "--timeout", "1.5", "--scheduler", cluster.scheduler_address,
                     cwd=tmp_path, timeout=300)
        lines = _error_lines(result.stderr)
        assert result.returncode == 3 and lines[-1] == ("error: run 'loop', games 0 to 19: a chunk took longer than "
                                                        f"--timeout 1.5 s: user strategy {HOSTILE}:loops may be stuck "
                                                        "in a loop"), result.stderr
        assert [line for line in lines[:-1] if "Dask worker" in line] == [
            f"warning: restarted Dask worker {next(iter(before))}: the chunk stopped at --timeout still ran there"]
        client.wait_for_workers(1, timeout=60)
        assert list(client.run(kernel_left_running).values()) == [False]
        assert set(client.scheduler_info()["workers"]) != before  # a new process
    assert [p.name for p in tmp_path.iterdir()] == ["job.toml"]


def test_a_strategy_stuck_in_a_loop_stops_at_ctrl_c_and_at_timeout(tmp_path):
    args = [*ANALYZER, "simulate", "hearts2", "--games", "20", "--seat", f"0={HOSTILE}:loops"]
    # the timeout first: it compiles the strategy (then cached) and says how long a run takes
    # to reach the loop (its time less the second and a half it spins)
    started = time.time()
    result = subprocess.run([*args, "--timeout", "1.5"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3 and "--timeout" in result.stderr and "Traceback" not in result.stderr
    to_the_loop = time.time() - started - 1.5
    proc = subprocess.Popen(args, cwd=tmp_path, stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    time.sleep(min(to_the_loop, 20) + 1.5)  # loaded from the cache, then spinning
    started = time.time()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.time() - started < 5 and "Traceback" not in err, err


def test_a_report_with_a_strategy_stuck_in_a_loop_stops_at_timeout_and_writes_nothing(tmp_path):
    """report had no --timeout: a given strategy stuck in a loop spun on past SIGTERM (the
    tournament returned its 0 deals and the ladder spun again), leaving a half-written folder."""
    result = run("report", "hearts2", "--out", "rep", "--quick", "--strategies", f"{HOSTILE}:loops", "--timeout", "1.5",
                 cwd=tmp_path, timeout=300)
    lines = _error_lines(result.stderr)  # after the report's line per run
    assert result.returncode == 3 and lines[-1] == (
        f"error: a chunk took longer than --timeout 1.5 s: user strategy {HOSTILE}:loops may be stuck in a loop"), \
        result.stderr
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


# ---- a full disk (simulated: this machine cannot mount a small file system for a test) ---------

def _full_disk(*args, **kwargs):
    raise OSError(28, "No space left on device")


def test_a_full_disk_is_one_line_and_damages_nothing(tmp_path, monkeypatch):
    import pandas as pd

    from analyzer import api
    from analyzer.errors import AnalyzerError
    from analyzer.io import write_text

    target = tmp_path / "rows.csv"
    target.write_text("precious\n")
    monkeypatch.setattr(pd.DataFrame, "to_csv", _full_disk)
    with pytest.raises(AnalyzerError, match="No space left"):
        api.simulate("hearts2", games=50, out=str(target))
    assert target.read_text() == "precious\n" and sorted(p.name for p in tmp_path.iterdir()) == ["rows.csv"]
    monkeypatch.undo()
    note = tmp_path / "note.txt"
    note.write_text("old")
    monkeypatch.setattr(Path, "write_text", _full_disk)
    with pytest.raises(AnalyzerError, match="No space left"):
        write_text(note, "new")
    monkeypatch.undo()
    assert note.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["note.txt", "rows.csv"]
