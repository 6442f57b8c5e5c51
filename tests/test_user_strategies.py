"""User strategies (``file.py:function``) wherever a built-in works: compare, evaluate
rollouts, batch runs; their failures in one line.

The kernels take user strategies as first-class functions (engine.SlotKernel): a user
function compiles alone, in about a second, once per process for each distinct list.
"""

from __future__ import annotations

import enum
import json
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import api, batch
from analyzer.errors import AnalyzerError, StrategyError

# one pytest-xdist worker runs this file (pyproject's markers): the round-robin fixtures and the user strategies' compiles (once per process)
pytestmark = pytest.mark.xdist_group("user_strategies")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CAUTIOUS = f"{ROOT / 'examples' / 'my_strategy.py'}:cautious"
USER = DATA / "user_random.py"
UNIFORM = f"{USER}:uniform"                  # hearts2's random, reimplemented
UNIFORM_ALWAYS = f"{USER}:uniform_always"    # ninety-nine's and pitch10's random, reimplemented
TT_RANDOM = f"{USER}:twenty_two_random"      # twenty-two's random, as a user strategy
LAST = f"{USER}:last_legal"

NN_POSITION = {"hand": "QS 9H 5C", "total": 88, "chips": "3,3,3"}
H2_POSITION = {"seat": 0, "hand": "8C TC QC 2D 4D 6D 8D 2H 4H 2S 4S", "played": "2C 4C 6C 8S"}
TTJ_POSITION = {"dealer": 1, "hand": "2C 3D 4S 7H KD QS", "played": "5C 9D", "scores": "12,20"}
P10_POSITION = {"seat": 0, "dealer": 3, "hand": "AS KS QS 3S 2S TS 2H 3H 4H", "bids": ["7", "pass", "pass", "pass"],
                "trump": "S", "received": [0, 5, 5, 5], "rest_to": 0, "rest": "5H 6H 7H",
                "played": "0:2S 1:4S 2:5S 3:6S", "trick": "3:7S"}
TT_POSITION = {"seat": 2, "dealer": 3, "kind": "lead", "hand": "4C 7D JH", "played": "Q 5 K 8"}


def pair(result, x: str, y: str) -> pd.Series:
    t = result.tables["pairs"]
    return t[(t["strategy"] == x) & (t["opponent"] == y)].iloc[0]


# ---- ninety-nine: [cautious, uniform_always] for compare and batch ----------------------------

@pytest.fixture(scope="module")
def dask_cluster():
    """One Dask cluster of two worker processes for this file's Dask tests, reached by its
    address as ``--scheduler tcp://HOST:8786`` reaches one on other machines (the docs'
    example cannot run without one). Each start is some seconds of processes importing the
    engine; ``--local-cluster``'s own is started below and in tests/test_batch.py."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0",
                      scheduler_kwargs={"dashboard": False}, silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def nn_round_robin():
    return api.compare("ninety-nine", [CAUTIOUS, UNIFORM_ALWAYS, "heuristic", CAUTIOUS], games=1500, seed=5,
                       workers=2)


def test_compare_round_robin_of_user_and_builtin(nn_round_robin):
    r = nn_round_robin
    assert r.games == 1500 and len(r.tables["pairs"]) == 6 and len(r.tables["ranking"]) == 4
    # user vs built-in, user vs user: told apart (cautious keeps its escapes: it beats random play)
    assert pair(r, CAUTIOUS, UNIFORM_ALWAYS)["p_value"] < 0.01
    assert 0 < pair(r, CAUTIOUS, "heuristic")["win_rate"] < 1
    # the same deterministic strategy on both sides of every arrangement: exactly half the wins
    same = pair(r, CAUTIOUS, CAUTIOUS + "#2")
    assert same["win_rate"] == 0.5 and same["difference"] == 0.0 and same["score_margin"] == 0.0


def test_user_reimplementing_random_plays_the_same_games(nn_round_robin):
    """uniform_always draws from the same stream as the built-in random: every deal is the
    same game, so the user-bound kernel gives the built-in path's numbers.

    To the last few bits only: the runner sizes its chunks by the clock, and the two runs
    (a round robin of four, a pair) add the same per-deal values in different chunks, so
    their float sums may round differently (seen: 0.07722222222222222 against ...223)."""
    builtin = api.compare("ninety-nine", ["random", "heuristic"], games=1500, seed=5, workers=2)
    mine, theirs = pair(nn_round_robin, UNIFORM_ALWAYS, "heuristic"), pair(builtin, "random", "heuristic")
    assert mine["deals"] == theirs["deals"] == 1500
    for column in ("win_rate", "win_rate_lo", "win_rate_hi", "p_value", "score_margin",
                   "difference_se", "difference_se_unpaired"):
        assert mine[column] == pytest.approx(theirs[column], rel=1e-12, abs=1e-15), column


def test_compare_until_significant_with_a_user_strategy():
    r = api.compare("ninety-nine", [CAUTIOUS, UNIFORM_ALWAYS], games=16_000, seed=1, until_significant=True,
                    workers=2)
    assert r.stopped_early and r.games < 16_000
    assert pair(r, CAUTIOUS, UNIFORM_ALWAYS)["p_value"] < 0.01


def test_cli_compare_with_user_strategies(cli, tmp_path):
    csv = tmp_path / "pairs.csv"
    code, out, err = cli("compare", "ninety-nine", CAUTIOUS, UNIFORM_ALWAYS, "--games", "300", "--json",
                         "--csv", csv)
    assert code == 0, err
    data = json.loads(out)
    assert data["strategies"] == [CAUTIOUS, UNIFORM_ALWAYS] and data["deals"] == 300
    assert csv.is_file()


def _job(tmp_path: Path, strategies: list[str], seats: dict[int, str], game: str = "ninety-nine",
         games: int = 1000, chunk: int = 500) -> Path:
    seat_text = ", ".join(f'{k} = "{v}"' for k, v in seats.items())
    text = f"""
[defaults]
seed = 9
chunk = {chunk}
game = "{game}"

[[run]]
name = "cmp"
kind = "compare"
games = {games}
strategies = {json.dumps(strategies)}

[[run]]
name = "sim"
kind = "simulate"
games = {games}
seats = {{ {seat_text} }}
"""
    path = tmp_path / "job.toml"
    path.write_text(text)
    return path


def test_local_batch_with_user_strategies(tmp_path):
    job = _job(tmp_path, [CAUTIOUS, UNIFORM_ALWAYS], {0: CAUTIOUS, 1: UNIFORM_ALWAYS})
    result = batch.run_job(job, tmp_path / "out", workers=2)
    assert result.chunks_total == 4
    pairs = pd.read_parquet(tmp_path / "out" / "cmp" / "pairs.parquet")
    direct = api.compare("ninety-nine", [CAUTIOUS, UNIFORM_ALWAYS], games=1000, seed=9, workers=2)
    row, ref = pairs.iloc[0], pair(direct, CAUTIOUS, UNIFORM_ALWAYS)
    assert row["deals"] == ref["deals"] == 1000
    assert row["win_rate"] == pytest.approx(ref["win_rate"], abs=1e-12)
    sim = api.simulate("ninety-nine", games=1000, seed=9, seats={0: CAUTIOUS, 1: UNIFORM_ALWAYS}, workers=2)
    seats = pd.read_parquet(tmp_path / "out" / "sim" / "seats.parquet")
    assert list(seats["wins"]) == list(sim.tables["seats"]["wins"])
    # resuming plays nothing again
    again = batch.run_job(job, tmp_path / "out", workers=2)
    assert again.chunks_done_before == 4


def test_batch_key_follows_the_strategy_file(tmp_path):
    """Editing a user strategy's file gives its runs a new key (checkpoint folder); loading a
    job compiles nothing."""
    copy = tmp_path / "mine.py"
    copy.write_text(USER.read_text())
    job = _job(tmp_path, [f"{copy}:uniform", "heuristic"], {0: f"{copy}:last_legal"})
    before = [r.key for r in batch.load_job(job)]
    copy.write_text(USER.read_text() + "\n# an edit\n")
    after = [r.key for r in batch.load_job(job)]
    assert before[0] != after[0] and before[1] != after[1]
    # or what the file computes when it loads (a table read from a data file), as the
    # compiled slot's cache: a resumed job must not merge chunks played with another table
    from analyzer.strategies import load_user_function

    chooser = tmp_path / "chooser.py"
    chooser.write_text("from numba import njit\n\nPICK = 0\n\n\n@njit\ndef pick(view, legal, n, rng):\n"
                       "    return legal[min(PICK, n - 1)]\n")
    picking = _job(tmp_path, [f"{chooser}:pick", "heuristic"], {0: f"{chooser}:pick"})
    first = [r.key for r in batch.load_job(picking)]
    module = load_user_function(f"{chooser}:pick", module=True)
    module.UNREAD = np.arange(3)  # read by no strategy: the same keys
    assert [r.key for r in batch.load_job(picking)] == first
    module.PICK = 1  # as a process finds it whose data file says 1
    assert all(a != b for a, b in zip(first, [r.key for r in batch.load_job(picking)]))
    # a run without user strategies keeps its key whatever the file says
    plain = _job(tmp_path, ["random", "heuristic"], {0: "random"})
    assert [r.key for r in batch.load_job(plain)] == [r.key for r in batch.load_job(plain)]


def test_dask_batch_with_user_strategies_equals_the_local_one(tmp_path, dask_cluster):
    """The strategy files travel with the job (batch.Run.travelling): the workers of a Dask
    cluster play the same games as the local backend."""
    job = _job(tmp_path, [CAUTIOUS, UNIFORM_ALWAYS], {0: CAUTIOUS, 1: UNIFORM_ALWAYS})
    batch.run_job(job, tmp_path / "local", workers=2)
    batch.run_job(job, tmp_path / "dask", scheduler=dask_cluster)
    for name in ("cmp/pairs", "sim/seats"):
        local = pd.read_parquet(tmp_path / "local" / f"{name}.parquet")
        dask = pd.read_parquet(tmp_path / "dask" / f"{name}.parquet")
        pd.testing.assert_frame_equal(local, dask)


def test_a_travelling_run_plays_where_its_file_is_gone(tmp_path):
    """A worker that cannot see the user's file plays the chunk from the text sent along."""
    copy = tmp_path / "mine.py"
    copy.write_text(USER.read_text())
    run = batch.load_job(_job(tmp_path, [f"{copy}:uniform_always", "heuristic"], {0: f"{copy}:uniform_always"}))[1]
    here = batch.play_chunk(run, 0, 300, threads=1)
    travelling = run.travelling()
    assert travelling.key == run.key and list(travelling.sources) == [str(copy)]
    copy.unlink()
    landed = travelling.landed()
    assert landed.seats[0].endswith("mine.py:uniform_always") and not landed.seats[0].startswith(str(tmp_path))
    there = batch.play_chunk(travelling, 0, 300, threads=1)
    assert np.array_equal(here.sums, there.sums) and np.array_equal(here.wins, there.wins)


# ---- evaluate with user rollouts ------------------------------------------------------------

def test_evaluate_ninety_nine_with_a_user_rollout():
    every = api.evaluate("ninety-nine", NN_POSITION, rollout=CAUTIOUS, samples=600, seed=3, workers=2)
    assert every.samples > 0 and set(every.table["option"]) >= {"9"}
    per_seat = api.evaluate("ninety-nine", NN_POSITION, rollout={1: CAUTIOUS, 2: "random"}, samples=600, seed=3,
                            workers=2)
    assert per_seat.samples > 0


def test_cli_evaluate_with_a_user_rollout(cli, tmp_path):
    position = tmp_path / "position.json"
    position.write_text(json.dumps(NN_POSITION))
    code, out, err = cli("evaluate", "ninety-nine", "--position", position, "--rollout", f"1={CAUTIOUS}",
                         "--samples", "300", "--json")
    assert code == 0, err
    assert json.loads(out)["samples"] > 0


@pytest.mark.parametrize("exact_limit", [2000, 0])
def test_evaluate_user_rollout_reimplementing_random_is_random(exact_limit):
    """hearts2: ``uniform`` is the built-in random card for card (same stream): the
    evaluation is the same to the last bit, enumerated worlds or sampled."""
    mine = api.evaluate("hearts2", H2_POSITION, rollout=UNIFORM, samples=1000, seed=2, workers=2,
                        exact_limit=exact_limit)
    builtin = api.evaluate("hearts2", H2_POSITION, rollout="random", samples=1000, seed=2, workers=2,
                           exact_limit=exact_limit)
    assert mine.facts["method"] == builtin.facts["method"]
    assert mine.samples == builtin.samples > 0
    pd.testing.assert_frame_equal(mine.table, builtin.table)


# ---- hearts2: [uniform, last_legal] ----------------------------------------------------------

@pytest.fixture(scope="module")
def h2_round_robin():
    return api.compare("hearts2", [UNIFORM, LAST, "heuristic"], games=1200, seed=4, workers=2)


def test_hearts2_compare_user_vs_user_and_builtin(h2_round_robin):
    r = h2_round_robin
    assert len(r.tables["pairs"]) == 3 and r.games == 1200
    assert pair(r, UNIFORM, "heuristic")["win_rate_hi"] < 0.5  # random play loses to the heuristic
    assert 0 <= pair(r, UNIFORM, LAST)["win_rate"] <= 1
    builtin = api.compare("hearts2", ["random", "heuristic"], games=1200, seed=4, workers=2)
    mine, theirs = pair(r, UNIFORM, "heuristic"), pair(builtin, "random", "heuristic")
    for column in ("win_rate", "p_value", "score_margin", "difference_se"):
        assert mine[column] == theirs[column], column


def test_hearts2_local_batch_with_user_strategies(tmp_path, h2_round_robin):
    job = _job(tmp_path, [UNIFORM, LAST], {0: UNIFORM, 1: LAST}, game="hearts2")
    batch.run_job(job, tmp_path / "out", workers=2)
    pairs = pd.read_parquet(tmp_path / "out" / "cmp" / "pairs.parquet")
    assert pairs.iloc[0]["deals"] == 1000 and pairs.iloc[0]["strategy"] == UNIFORM
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["sim"]["strategies"] == [UNIFORM, LAST]


# ---- failures: one line, exit 3 (the strategy's fault) or 2 (bad input), nothing written ---

def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("compiling ")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("strategy, message", [
    ("nowhere/missing.py:f", "not found"),
    (f"{DATA / 'strategies.py'}:nothing_here", "has no function"),
    (f"{DATA / 'strategies.py'}:not_jitted", "not an @njit function"),
])
def test_compare_with_a_bad_strategy_reference(cli, tmp_path, strategy, message):
    csv = tmp_path / "t.csv"
    code, out, err = cli("compare", "ninety-nine", strategy, "heuristic", "--games", "100", "--csv", csv)
    assert code == 3 and message in _one_line(err) and not csv.exists()


@pytest.mark.parametrize("name, message", [
    ("no_move_without_a_choice", "no_move_without_a_choice returns no move on some path (OptionalType(int64))"),
    ("never_a_move", "never_a_move failed to compile: it returns no move: no path reaches a return"),
])
def test_a_strategy_that_does_not_always_return_a_move(cli, tmp_path, name, message):
    """What numba says of it (a return type of Optional or None) in the strategy's terms."""
    csv = tmp_path / "t.csv"
    code, out, err = cli("compare", "ninety-nine", f"{DATA / 'strategies.py'}:{name}", "heuristic",
                         "--games", "100", "--csv", csv)
    assert code == 3 and message in _one_line(err) and not csv.exists()


@pytest.mark.parametrize("source, message", [
    # was "failed to compile: No conversion from Literal[str](K) to int64 for '$42return_value.8', defined at None"
    ("@njit\ndef f(view, legal, n, rng):\n    return 'K'",
     "returns a string ('K'), not an integer move (one of legal[:n])"),
    # was cut at 200 characters, mid-word, naming no remedy
    ("PREFS = [7, 2]\n\n@njit\ndef f(view, legal, n, rng):\n    for p in PREFS:\n        return p\n    return legal[0]",
     "failed to compile: reads the global list 'PREFS', which numba cannot compile in: make it a tuple "
     "(or a numpy array) (s.py, line 7)"),
    # was "No implementation of function Function(<built-in function setitem>) found for signature:"
    ("import numpy as np\nSEEN = np.zeros(4, dtype=np.int64)\n\n@njit\ndef bump():\n    SEEN[0] += 1\n\n"
     "@njit\ndef f(view, legal, n, rng):\n    bump()\n    return legal[0]",
     "failed to compile: writes to a read-only array: numba compiles an array of the module's in as a "
     "constant (a strategy keeps nothing between decisions; write to a local array) (s.py, line 8)"),
    ("def helper(legal):\n    return legal[0]\n\n@njit\ndef f(view, legal, n, rng):\n    return helper(legal)",
     "failed to compile: Untyped global name 'helper': Cannot determine Numba type of <class 'function'> "
     "(a plain Python function or class: a strategy calls only @njit functions) (s.py, line 8)"),
])
def test_a_compile_error_is_said_in_a_strategys_terms_with_its_line(tmp_path, source, message):
    """numba's many lines reduced to the cause a new user meets, and the line of their file."""
    path = tmp_path / "s.py"
    path.write_text("from numba import njit\n\n" + source + "\n")
    with pytest.raises(StrategyError) as caught:
        api.simulate("ninety-nine", games=5, seats={0: f"{path}:f"}, workers=1)
    assert str(caught.value) == f"user strategy {path}:f {message}"


def test_under_debug_a_fault_of_the_engines_own_code_is_not_blamed_on_the_strategy(tmp_path, monkeypatch):
    """--debug runs the engine as Python: an index out of range in its own code (pitch10's
    replay of a position read CARD_AT[trump, 16]) was said as 'user strategy x.py:f raised
    IndexError'. The user's code is to blame only with a frame of its files on the stack."""
    from analyzer import jit, terminal

    monkeypatch.setattr(jit, "DEBUG", True)
    labels = [f"mc:k=2,base={tmp_path / 'mine.py'}:f"]
    with pytest.raises(TypeError) as engine:
        terminal.shorten(None)  # the analyzer's code raises, called from no file of the user's
    assert api._engine_fault_under_debug(engine.value, labels).startswith("terminal.py, line ")
    (tmp_path / "mine.py").write_text("from analyzer import terminal\n\n\ndef f():\n    terminal.shorten(None)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import mine

    with pytest.raises(TypeError) as user:
        mine.f()  # the user's code called it: the user's fault
    assert api._engine_fault_under_debug(user.value, labels) is None
    monkeypatch.setattr(jit, "DEBUG", False)  # compiled: never said so
    assert api._engine_fault_under_debug(engine.value, labels) is None


def test_compare_with_a_syntax_error(cli, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from numba import njit\n@njit\ndef f(view, legal, n, rng)\n    return legal[0]\n")
    code, out, err = cli("compare", "ninety-nine", f"{bad}:f", "heuristic", "--games", "100")
    assert code == 3 and "failed to load: SyntaxError" in _one_line(err)


def test_evaluate_and_batch_with_a_missing_strategy(cli, tmp_path):
    position = tmp_path / "position.json"
    position.write_text(json.dumps(NN_POSITION))
    code, out, err = cli("evaluate", "ninety-nine", "--position", position, "--rollout", "nowhere.py:f")
    assert code == 3 and "not found" in _one_line(err)
    job = _job(tmp_path, ["nowhere.py:f", "heuristic"], {0: "random"})
    code, out, err = cli("batch", job, "--out", tmp_path / "out")
    assert code == 3 and "not found" in _one_line(err) and not (tmp_path / "out").exists()


def test_compare_with_a_strategy_that_does_not_compile(cli):
    code, out, err = cli("compare", "ninety-nine", f"{DATA / 'strategies.py'}:broken", "heuristic",
                         "--games", "100")
    assert code == 3 and "failed to compile" in _one_line(err)


def test_compare_with_an_illegal_move(cli, tmp_path):
    csv = tmp_path / "t.csv"
    code, out, err = cli("compare", "ninety-nine", f"{USER}:never_legal", "heuristic", "--games", "200",
                         "--csv", csv)
    line = _one_line(err)
    assert code == 3 and "never_legal" in line and "returned an illegal move" in line and "in game" in line
    assert not csv.exists()


def test_evaluate_with_a_rollout_that_raises(cli, tmp_path):
    position = tmp_path / "position.json"
    position.write_text(json.dumps(H2_POSITION))
    csv = tmp_path / "t.csv"
    code, out, err = cli("evaluate", "hearts2", "--position", position, "--rollout", f"{USER}:raises",
                         "--samples", "300", "--csv", csv)
    line = _one_line(err)
    assert code == 3 and "raises" in line and "no move for you" in line and not csv.exists()


# ---- a user strategy as mc's base (the games whose kernel declares USER_BASES) ------------------

MC_USER = f"mc:k=3,base={UNIFORM_ALWAYS}"   # the same rollouts as mc:k=3,base=random
MC_RANDOM = "mc:k=3,base=random"


def _unlabelled(seats: pd.DataFrame) -> pd.DataFrame:
    return seats.drop(columns="strategy").reset_index(drop=True)


def _reported(summary) -> list:
    """All a simulate run reports but the strategies' labels: its tables (seats, and the game's
    own: Pitch's teams and bids) and its totals. The seats table alone can hide a difference
    (a Pitch team that bids at random loses every game whatever it plays)."""
    tables = [t.drop(columns=[c for c in ("strategy", "strategies") if c in t.columns]).reset_index(drop=True)
              for t in summary.tables.values()]
    return tables + [pd.Series(summary.totals, dtype=float)]


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x.equals(y) for x, y in zip(a, b))


def test_mc_with_a_user_base_plays_the_games_of_its_built_in_twin():
    user = api.simulate("ninety-nine", games=150, seed=4, seats={0: MC_USER}, workers=2)
    builtin = api.simulate("ninety-nine", games=150, seed=4, seats={0: MC_RANDOM}, workers=2)
    pd.testing.assert_frame_equal(_unlabelled(user.tables["seats"]), _unlabelled(builtin.tables["seats"]))
    # and the base is really played: another base gives other games
    other = api.simulate("ninety-nine", games=150, seed=4, seats={0: f"mc:k=3,base={LAST}"}, workers=2)
    assert not _unlabelled(other.tables["seats"]).equals(_unlabelled(builtin.tables["seats"]))


def test_an_illegal_move_on_dask_is_one_error_naming_the_file_as_given(tmp_path, capfd, dask_cluster):
    """On a Dask worker the file lives under the cache; the error names it as the job did,
    comes back once (not retried, no worker traceback), and nothing is written."""
    job = _job(tmp_path, ["heuristic", "random"], {0: f"{USER}:never_legal"}, games=400, chunk=200)
    with pytest.raises(StrategyError) as failed:
        batch.run_job(job, tmp_path / "out", scheduler=dask_cluster)
    message = str(failed.value)
    # led by the run and the chunk's games (either chunk may fail first)
    assert re.match(rf"run '[\w-]+', games (0 to 199|200 to 399): strategy {re.escape(str(USER))}:never_legal \(seat 0\) "
                    r"returned an illegal move '<move code -7>'", message), message
    assert "; legal: " in message
    assert "Compute Failed" not in capfd.readouterr().err
    assert not (tmp_path / "out" / "summary.csv").exists()


def test_compare_and_evaluate_with_a_user_base():
    user = api.compare("ninety-nine", [MC_USER, "heuristic"], games=300, seed=6, workers=2)
    builtin = api.compare("ninety-nine", [MC_RANDOM, "heuristic"], games=300, seed=6, workers=2)
    assert pair(user, MC_USER, "heuristic")["win_rate"] == pair(builtin, MC_RANDOM, "heuristic")["win_rate"]
    a = api.evaluate("ninety-nine", NN_POSITION, rollout=MC_USER, samples=60, seed=2, workers=2)
    b = api.evaluate("ninety-nine", NN_POSITION, rollout=MC_RANDOM, samples=60, seed=2, workers=2)
    assert a.samples == b.samples > 0
    pd.testing.assert_frame_equal(a.table, b.table)


def test_batch_with_a_user_base_travels_to_dask(tmp_path):
    # mc's rollouts are slow: 200 games, in chunks of 50, still spread over both workers
    job = _job(tmp_path, [MC_USER, "heuristic"], {0: MC_USER}, games=200, chunk=50)
    runs = batch.load_job(job)
    assert runs[0].user_strategies() == [UNIFORM_ALWAYS]
    assert UNIFORM_ALWAYS.rsplit(":", 1)[0] in runs[0].travelling().sources
    batch.run_job(job, tmp_path / "local", workers=2)
    batch.run_job(job, tmp_path / "dask", local_cluster=2)  # the cluster of --local-cluster 2
    for name in ("cmp/pairs", "sim/seats"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "local" / f"{name}.parquet"),
                                      pd.read_parquet(tmp_path / "dask" / f"{name}.parquet"))


def test_a_user_base_that_plays_illegally_is_one_line(cli):
    code, out, err = cli("simulate", "ninety-nine", "--games", "20", "--seat", f"0=mc:k=2,base={USER}:never_legal")
    line = _one_line(err)
    assert code == 3 and "illegal move" in line and "never_legal" in line


#: the other games whose ``mc`` takes a user base: a user strategy that reimplements one of the
#: game's built-ins exactly (the same draws from the same stream), that built-in, a position
USER_BASE_GAMES = {
    "hearts2": (UNIFORM, "random", H2_POSITION),
    "two-ten-jack": (UNIFORM, "random", TTJ_POSITION),
    "pitch10": (UNIFORM_ALWAYS, "random", P10_POSITION),
    "twenty-two": (TT_RANDOM, "random", TT_POSITION),
}


@pytest.mark.parametrize("game", list(USER_BASE_GAMES))
def test_mc_with_a_user_base_plays_its_twins_games_in(game):
    twin, builtin, _ = USER_BASE_GAMES[game]

    def reported(base: str) -> list:
        return _reported(api.simulate(game, games=120, seed=4, seats={0: f"mc:k=3,base={base}"}, workers=2))

    same = reported(builtin)
    assert _same(reported(twin), same)
    assert not _same(reported(LAST), same)


@pytest.mark.parametrize("game", list(USER_BASE_GAMES))
def test_evaluate_with_mc_rollouts_on_a_user_base_in(game):
    twin, builtin, position = USER_BASE_GAMES[game]

    def table(base: str) -> pd.DataFrame:
        result = api.evaluate(game, position, rollout=f"mc:k=2,base={base}", samples=16, seed=2, workers=2)
        assert result.samples > 0
        return result.table

    same = table(builtin)
    pd.testing.assert_frame_equal(table(twin), same)
    assert not table(LAST).equals(same)


@pytest.mark.parametrize("game", ["hearts2", "two-ten-jack", "pitch10"])
def test_pimc_breaks_ties_with_a_user_base_in(game):
    """pimc's base breaks its ties, in the true position (and plays two-ten-jack's rounds
    until its exact tricks, as mc's base; pitch10's bids, trump, keep or give and discards):
    the twin of random plays as random does (a tie it did not break would leave the PLAY
    stream behind random's), the last legal card otherwise."""
    twin = USER_BASE_GAMES[game][0]

    def reported(base: str) -> list:
        return _reported(api.simulate(game, games=12, seed=5, seats={0: f"pimc:k=4,base={base}"}, workers=2))

    same = reported("random")
    assert _same(reported(twin), same)
    assert not _same(reported(LAST), same)


#: per game, a user strategy that checks the view it is given against what a seat of the game
#: sees (it raises on a view short of it) and then plays as ``random``; the search strategies
VIEW_CHECKED = {
    "hearts2": ("hearts2_view_checked", ("mc:k=3,base={}", "pimc:k=3,base={}")),
    "pitch10": ("pitch10_view_checked", ("mc:k=2,base={}", "pimc:k=3,base={}")),
    "twenty-two": ("twenty_two_view_checked", ("mc:k=3,base={}",)),
}


@pytest.mark.parametrize("game", list(VIEW_CHECKED))
def test_mc_base_sees_what_a_seat_sees_in(game):
    """The view of a user base in mc's rollouts (and pimc's ties and other decisions) holds
    what a seat's holds, and the checked strategy still plays the games of random."""
    name, strategies = VIEW_CHECKED[game]
    checked = f"{USER}:{name}"

    def reported(strategy: str) -> list:
        return _reported(api.simulate(game, games=30, seed=8, seats={0: strategy}, workers=2))

    for strategy in strategies:
        assert _same(reported(strategy.format(checked)), reported(strategy.format("random"))), strategy
    assert _same(reported(checked), reported("random"))  # the checks hold for a seat


def test_a_game_without_user_bases_refuses_one_in_one_line(monkeypatch):
    """Every game's kernel declares USER_BASES now; a game whose kernel does not (here pitch10's
    with the declaration taken away) still refuses a user base in one line, before anything runs."""
    from analyzer.games.pitch10 import kernel

    monkeypatch.delattr(kernel, "USER_BASES")
    with pytest.raises(AnalyzerError) as caught:
        api.setup("pitch10", seats={0: f"mc:base={UNIFORM}"})
    line = str(caught.value)
    assert "\n" not in line and "built-in strategies only" in line and "user strategy" in line


def test_a_user_strategy_in_a_number_parameter_is_refused_in_one_line():
    with pytest.raises(AnalyzerError) as caught:
        api.setup("hearts2", seats={0: f"mc:k={UNIFORM}"})
    line = str(caught.value)
    assert "\n" not in line and "parameter k takes an integer" in line and "base=" in line


@pytest.mark.parametrize("game", ["pitch10", "twenty-two"])
@pytest.mark.parametrize("base, code, words", [
    ("no_such", 3, ("no_such", "has no function")),  # fails to load
    ("raises", 3, ("raises", "no move for you")),    # raises in a rollout
])
def test_a_broken_user_base_is_one_line_in(cli, game, base, code, words):
    """Every game's mc takes a user base now (no game is left to refuse one): a base that
    cannot load, or that raises in a rollout, still ends the run with one line."""
    got, out, err = cli("compare", game, f"mc:k=2,base={USER}:{base}", "heuristic", "--games", "20")
    line = _one_line(err)
    assert got == code and all(w in line for w in words), line


def test_user_strategies_are_loaded_once_per_content():
    from analyzer.strategies import load_user_function

    assert load_user_function(CAUTIOUS) is load_user_function(CAUTIOUS)
    with pytest.raises(StrategyError):
        load_user_function(f"{USER}:no_such")


# ---- compiled once: the kernels take user strategies as first-class functions ----------------------

def _run_cli(*args: str) -> "subprocess.CompletedProcess[str]":
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=900)


def test_a_new_strategy_file_compiles_only_itself(tmp_path):
    """A fresh file (unique content) plays on the game's cached kernels: no compile notice,
    the games of a process that compiled nothing else; its parameters reach the function
    (a new value plays other games), and the same file in another folder plays the same."""
    import uuid

    path = tmp_path / "low.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef low(view, legal, n, rng, skip=0):\n"
                    f"    return legal[min(skip, n - 1)]  # {{uuid.uuid4()}}\n")
    args = ["simulate", "ninety-nine", "--games", "500", "--seed", "3", "--json"]
    warm = _run_cli(*args)  # the game's kernels, compiled once for every strategy
    first = _run_cli(*args, "--seat", f"1={path}:low:skip=1")
    other = _run_cli(*args, "--seat", f"1={path}:low")
    assert warm.returncode == first.returncode == other.returncode == 0, first.stderr + other.stderr
    assert "compiling" not in first.stderr + other.stderr

    def facts(out: str) -> dict:
        d = json.loads(out)
        return {k: d[k] for k in ("strategies", "games", "hands", "totals", "seats")}

    def unlabelled(seats: list) -> list:  # the label names the file's path
        return [{k: v for k, v in seat.items() if k != "strategy"} for seat in seats]

    assert facts(first.stdout)["seats"] != facts(other.stdout)["seats"]  # skip=1 is not skip=0
    moved = tmp_path / "elsewhere" / "low.py"
    moved.parent.mkdir()
    moved.write_text(path.read_text())
    third = _run_cli(*args, "--seat", f"1={moved}:low:skip=1")
    assert third.returncode == 0 and "compiling" not in third.stderr, third.stderr
    assert unlabelled(facts(third.stdout)["seats"]) == unlabelled(facts(first.stdout)["seats"])


def _strategy_in(folder: Path, pick: str, mark, body: str = "return move(legal, n)") -> str:
    """``mine.py:mine`` in ``folder``, playing ``pick`` (an expression of legal and n) through a
    helpers.py beside it; ``mark`` in a comment makes its code new."""
    folder.mkdir(parents=True)
    (folder / "helpers.py").write_text(f"from numba import njit\n\n@njit\ndef move(legal, n):\n"
                                       f"    return {pick}\n")
    (folder / "mine.py").write_text(f"from numba import njit\nfrom helpers import move\n\n@njit\n"
                                    f"def mine(view, legal, n, rng):\n    {body}  # {mark}\n")
    return f"{folder / 'mine.py'}:mine"


def _bound(spec: str) -> tuple[int, int]:
    """(compiled, loaded) by binding ``spec``'s slot afresh, in this process."""
    from analyzer import engine
    from analyzer.strategies import user_strategy

    slot = engine.user_slot(user_strategy(spec), check_legal=False)
    return sum(slot.stats.cache_misses.values()), sum(slot.stats.cache_hits.values())


def _in_other_processes(specs: list[str], count: int = 1, compare: bool = False) -> list[list[str]]:
    """What ``count`` new processes at once print after binding each of ``specs`` in turn, as
    lines: the last one's (compiled, loaded) and, with ``compare``, the difference in win rate
    of the first two over 300 ninety-nine deals (``analyzer compare``: one kernel, both slots)."""
    import subprocess
    import sys

    script = ("import sys; from analyzer import api, engine; from analyzer.strategies import user_strategy\n"
              "for spec in sys.argv[2:]:\n"
              "    slot = engine.user_slot(user_strategy(spec), check_legal=False)\n"
              "print(sum(slot.stats.cache_misses.values()), sum(slot.stats.cache_hits.values()))\n"
              "if sys.argv[1]:\n"
              "    done = api.compare('ninety-nine', sys.argv[2:4], games=300, seed=3, workers=1)\n"
              "    print(done.tables['pairs'].loc[0, 'difference'])\n")
    runs = [subprocess.Popen([sys.executable, "-c", script, "compare" if compare else "", *specs],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
            for _ in range(count)]
    said = [run.communicate(timeout=300) for run in runs]
    assert all(run.returncode == 0 for run in runs), [err for _, err in said]
    return [out.splitlines() for out, _ in said]


def test_a_compiled_user_strategy_is_cached_on_its_code(tmp_path, monkeypatch):
    """A user strategy compiled once is loaded, not compiled, by the next binding of the same
    code (another process, or the same files in another folder); an edited helper module is
    other code, beside the file or elsewhere on ``sys.path``; a strategy whose checks fail is
    never loaded from the cache (it fails again)."""
    import sys
    import uuid

    from analyzer import engine, strategies
    from analyzer.strategies import user_strategy

    mark = uuid.uuid4()  # code no other test (or run) has compiled

    def strategy_in(folder: Path, pick: str, body: str = "return move(legal, n)") -> str:
        return _strategy_in(folder, pick, mark, body)

    bound = _bound
    first = strategy_in(tmp_path / "a", "legal[0]")
    assert bound(first) == (1, 0)
    assert bound(first) == (0, 1)
    assert bound(strategy_in(tmp_path / "b", "legal[0]")) == (0, 1)  # the same files elsewhere
    assert bound(strategy_in(tmp_path / "c", "legal[n - 1]")) == (1, 0)  # another helper
    # cached or not, it plays the same: the first legal move, as tests/data/strategies.py:first_legal;
    # and another process loads it (its helper's functions, whose module that process forgets too;
    # what it plays there: the next test)
    assert _same(_reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: first}, workers=1)),
                 _reported(api.simulate("ninety-nine", games=300, seed=3,
                                        seats={0: f"{DATA / 'strategies.py'}:first_legal"}, workers=1)))
    assert _in_other_processes([first]) == [["0 1"]]  # loaded, not compiled
    # two processes that bind a new strategy at once both play (each compiles it, or finds it
    # written), and leave it cached
    fresh = strategy_in(tmp_path / "f", "legal[n - 1] if n > 1 else legal[0]")
    assert all(out in (["1 0"], ["0 1"]) for out in _in_other_processes([fresh], 2))
    assert bound(fresh) == (0, 1)
    # a helper outside the strategy's folder (on sys.path), edited before a later process loads it
    library = tmp_path / "library"
    library.mkdir()
    common = f"common_{mark.hex}"
    monkeypatch.syspath_prepend(str(library))
    (library / f"{common}.py").write_text("from numba import njit\n\n@njit\ndef move(legal, n):\n    return legal[0]\n")
    outside = strategy_in(tmp_path / "e", "legal[0]", body=f"return {common}.move(legal, n)")
    (tmp_path / "e" / "mine.py").write_text(f"import {common}\n" + (tmp_path / "e" / "mine.py").read_text())
    assert bound(outside) == (1, 0)
    (library / f"{common}.py").write_text("from numba import njit\n\n@njit\ndef move(legal, n):\n"
                                         "    return legal[n - 1]\n")
    del sys.modules[common]  # as a new process finds it
    for key in [k for k in strategies._MODULES if k[0] == str((tmp_path / "e" / "mine.py").resolve())]:
        del strategies._MODULES[key]
    assert bound(outside) == (1, 0)
    assert _same(_reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: outside}, workers=1)),
                 _reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: LAST}, workers=1)))
    floating = strategy_in(tmp_path / "d", "legal[0]", body="return 0.5")
    for _ in range(2):
        with pytest.raises(engine.NotAMove, match="returns float64"):
            engine.user_slot(user_strategy(floating), check_legal=False)
    assert engine._SlotCache.of(user_strategy(floating), check_legal=False).verdict() is None


def test_a_helper_reached_through_a_module_of_the_users_is_bounds_checked(tmp_path):
    """``import tools.choose`` and ``tools.choose.past(...)``: the helper is the user's code,
    checked as one reached by name (it read and wrote past its arrays unchecked before: a
    segmentation fault at 100,000 places past the end, exit 139 and no word). The user's
    modules themselves are left as they were."""
    import uuid

    from analyzer import engine
    from analyzer.strategies import load_user_function, user_strategy

    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "__init__.py").write_text("")
    (tmp_path / "tools" / "choose.py").write_text(
        "from numba import njit\n\n\n@njit\ndef past(legal, n):\n    return legal[n + 2]\n\n\n"
        "@njit\ndef first(legal, n):\n    return legal[0]\n")
    (tmp_path / "mine.py").write_text(
        f"from numba import njit\n\nimport tools.choose\n\n# {uuid.uuid4()}\n\n\n"
        "@njit\ndef bad(view, legal, n, rng):\n    return tools.choose.past(legal, n)\n\n\n"
        "@njit\ndef good(view, legal, n, rng):\n    return tools.choose.first(legal, n)\n")
    module = load_user_function(f"{tmp_path / 'mine.py'}:bad", module=True)
    tools, past = module.tools, module.tools.choose.past
    view, legal, rng = np.zeros(8, np.int64), np.arange(3, dtype=np.int64), np.zeros(4, np.uint64)
    for _ in range(2):  # compiled, then loaded from the cache
        with pytest.raises(IndexError):
            engine.user_slot(user_strategy(f"{tmp_path / 'mine.py'}:bad"), check_legal=False)(view, legal, 3, rng)
        assert engine.user_slot(user_strategy(f"{tmp_path / 'mine.py'}:good"), check_legal=False)(
            view, legal, 3, rng) == 0
    assert module.tools is tools and tools.choose.past is past


def test_values_computed_when_the_strategy_loads_are_part_of_its_cache_key(tmp_path):
    """numba compiles the globals a strategy reads in as constants. A value its file computes
    when it loads (here from a data file, in the file itself and in a helper module read by
    attribute) is not in any file's text: a slot compiled for other values must not be loaded
    for it (it played the old values, before the key held them)."""
    import uuid

    from analyzer.strategies import load_user_function

    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "choice.txt").write_text("first")
    (folder / "tables.py").write_text("import numpy as np\n\nSHIFT = np.zeros(1, np.int64)\n")
    (folder / "mine.py").write_text(
        "from enum import IntEnum\nfrom pathlib import Path\n\nfrom numba import njit\n\nimport tables\n\n"
        "LAST = Path(__file__).with_name('choice.txt').read_text() == 'last'\n"
        "Skip = IntEnum('Skip', {'BY': 0})\n\n\n@njit\n"
        f"def mine(view, legal, n, rng):\n    # {uuid.uuid4()}\n"
        "    k = n - 1 if LAST else 0\n    return legal[(k + tables.SHIFT[0] + Skip.BY) % n]\n")
    spec = f"{folder / 'mine.py'}:mine"
    module = load_user_function(spec, module=True)
    assert _bound(spec) == (1, 0) and _bound(spec) == (0, 1)
    module.LAST = True  # as a process finds it after choice.txt says "last"
    assert _bound(spec) == (1, 0)
    assert _same(_reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: spec}, workers=1)),
                 _reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: LAST}, workers=1)))
    module.LAST = False
    assert _bound(spec) == (0, 1)
    module.tables.SHIFT[0] = 1  # a helper module's table, changed in place
    assert _bound(spec) == (1, 0)
    module.tables.SHIFT[0] = 0
    assert _bound(spec) == (0, 1)
    skip = module.Skip
    module.Skip = enum.IntEnum("Skip", {"BY": 1}, module=module.__name__)  # an enum built from data
    assert _bound(spec) == (1, 0)
    module.Skip = skip
    assert _bound(spec) == (0, 1)


def test_slots_cached_by_two_processes_play_their_own_code_in_a_third(tmp_path):
    """Two strategies, each compiled first in a process of its own, then loaded side by side
    by a third into one kernel (a compare): each plays its own code there. numba numbers what
    it compiles from a counter, which started at 1 in every process: both slots had one name,
    and the third process ran one's code for both, a compare of equals (analyzer/jit.py)."""
    import uuid

    mark = uuid.uuid4()
    first = _strategy_in(tmp_path / "first", "legal[0]", mark)
    last = _strategy_in(tmp_path / "last", "legal[n - 1]", mark)
    assert _in_other_processes([first]) == _in_other_processes([last]) == [["1 0"]]  # compiled, cached
    loaded, difference = _in_other_processes([first, last], compare=True)[0]
    assert loaded == "0 1" and float(difference) != 0.0  # equal play would be a difference of exactly 0
    here = api.compare("ninety-nine", [first, last], games=300, seed=3, workers=1)
    assert float(difference) == here.tables["pairs"].loc[0, "difference"]


@pytest.mark.parametrize("source, spec, message", [
    ("def f(view, legal, n):\n    return legal[0]", "f", "a strategy takes (view, legal, n, rng), not (view, legal, n)"),
    ("def f(view, legal, n, rng, k):\n    return legal[0]", "f", "parameter k needs an integer default"),
    # *args was said as "parameter args needs an integer default (e.g. args=3)"
    ("def f(view, legal, n, rng, *args):\n    return legal[0]", "f",
     "after (view, legal, n, rng) a strategy takes integer parameters with defaults, not *args"),
    # a colon with nothing after it was taken, and the strategy labelled with it
    ("def f(view, legal, n, rng, k=1):\n    return legal[0]", "f:", "nothing after the last colon"),
    ("def f(view, legal, n, rng, k=1):\n    return legal[0]", "f:j=2", "bad parameter 'j=2' (parameters: k)"),
    ("def f(view, legal, n, rng, k=1):\n    return legal[0]", "f:k=x", "parameter k takes an integer, not 'x'"),
    ("def f(view, legal, n, rng):\n    return legal[0]", "f:k=1", "bad parameter 'k=1' (parameters: none)"),
    ("def f(view, legal, n, rng, k=1):\n    return legal[0]", "f:k=1,k=2", "parameter k is given twice"),
    ("def f(view, legal, n, rng, k=1):\n    return legal[0]", "f:k=9223372036854775808",
     "parameter k must be from -2**63 to 2**63-1, not 9223372036854775808"),
])
def test_user_strategy_signature_and_parameters_are_checked(tmp_path, source, spec, message):
    from analyzer.strategies import user_strategy

    path = tmp_path / "s.py"
    path.write_text("from numba import njit\n\n\n@njit\n" + source + "\n")
    with pytest.raises(StrategyError, match=re.escape(message)):
        user_strategy(f"{path}:{spec}")


def test_user_strategy_parameters_in_declared_order(tmp_path):
    from analyzer.strategies import user_strategy

    path = tmp_path / "s.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef f(view, legal, n, rng, a=1, b=2):\n    return legal[0]\n")
    assert user_strategy(f"{path}:f").params == (1, 2)
    assert user_strategy(f"{path}:f:b=7").params == (1, 7)
    assert user_strategy(f"{path}:f: b=7 , a=-3").params == (-3, 7)


# ---- a user strategy as ismcts's base (its playouts) ----------------------------------------------

@pytest.mark.parametrize("game, twin", [("hearts2", UNIFORM), ("ninety-nine", UNIFORM_ALWAYS),
                                        ("pitch10", UNIFORM_ALWAYS), ("twenty-two", TT_RANDOM),
                                        ("two-ten-jack", UNIFORM)])
def test_ismcts_with_a_user_base_plays_its_twins_games_in(game, twin, tmp_path):
    # the games' own rows, not the seats table: 20 games of a weak search can end with the same
    # wins per seat on other moves (Pitch's, valued by match equity, did with either base)
    n = 6 if game == "two-ten-jack" else 20  # a Two-Ten-Jack game is rounds to 31 points, long

    def games(base: str) -> pd.DataFrame:
        out = tmp_path / f"{len(list(tmp_path.iterdir()))}.csv"
        api.simulate(game, games=n, seed=4, seats={0: f"ismcts:iterations=12,base={base}"}, workers=2, out=str(out))
        return pd.read_csv(out)

    same = games("random")
    pd.testing.assert_frame_equal(games(twin), same)
    assert not games(LAST).equals(same)


# ---- reference counting: off in the user's code when it can be --------------------------------

_ALLOCATING = """\
import numpy as np
from numba import njit
from analyzer.rng import randbelow
import fresh_helpers


@njit
def allocating(view, legal, n, rng):
    # the uniform draw of tests/data/user_random.py:uniform, through a new array
    pick = np.zeros(1, dtype=np.int64)
    if n > 1:
        pick[0] = randbelow(rng, n)
    return legal[pick[0]]


@njit
def receiving(view, legal, n, rng):
    # the same, through an array a helper reached as a module attribute returns
    pick = fresh_helpers.one_zero()
    if n > 1:
        pick[0] = randbelow(rng, n)
    return legal[pick[0]]
"""

_HELPERS = """\
import numpy as np
from numba import njit


@njit
def one_zero():
    return np.zeros(1, dtype=np.int64)
"""


def test_user_code_runs_without_reference_counting_when_it_can(tmp_path, monkeypatch):
    """perf measured the atomic reference counts on the arrays passed at each decision at a
    quarter of a user strategy's game time (hearts2): ``uniform`` compiles without them. A
    strategy that allocates, or that receives a new array from a helper compiled before it
    (with reference counting: it would never be released), compiles with them, and plays the
    same games as ``uniform``."""
    from analyzer import engine
    from analyzer.strategies import user_strategy

    (tmp_path / "alloc.py").write_text(_ALLOCATING)
    (tmp_path / "fresh_helpers.py").write_text(_HELPERS)
    monkeypatch.syspath_prepend(str(tmp_path))
    import fresh_helpers

    fresh_helpers.one_zero()  # compiled here, with reference counting, before the strategy

    def counted(spec: str) -> bool:
        strategy = user_strategy(spec)
        cache = engine._SlotCache.of(strategy, check_legal=False)
        shutil.rmtree(cache.folder, ignore_errors=True)  # compiled here: code loaded from the cache has no IR to read
        slot = engine.user_slot(strategy, check_legal=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numba warns, and returns nothing useful, for cached code
            llvm = slot.inspect_llvm(engine.USER_SIGNATURE.args)
        assert cache.verdict() == ("counted" if "call void @NRT_incref" in llvm else "plain")
        return "call void @NRT_incref" in llvm

    assert not counted(UNIFORM)
    assert counted(f"{tmp_path / 'alloc.py'}:allocating")
    assert counted(f"{tmp_path / 'alloc.py'}:receiving")
    games = [_unlabelled(api.simulate("hearts2", games=300, seed=8, seats={0: s, 1: s}).tables["seats"])
             for s in (UNIFORM, f"{tmp_path / 'alloc.py'}:allocating", f"{tmp_path / 'alloc.py'}:receiving",
                       "random")]
    for other in games[1:]:
        pd.testing.assert_frame_equal(games[0], other)


# ---- a strategy file with helpers of its own ------------------------------------------------------

def _helped(folder: Path, pick: str) -> str:
    """A strategy file in ``folder`` that plays ``pick`` (an expression of legal and n) through
    a helper module beside it and one in a package below it, as a script could import them."""
    (folder / "tools").mkdir(parents=True)
    (folder / "tools" / "__init__.py").write_text("")
    (folder / "tools" / "choose.py").write_text(f"from numba import njit\n\n@njit\ndef pick(legal, n):\n"
                                                f"    return {pick}\n")
    (folder / "helpers.py").write_text("from numba import njit\nimport tools.choose\n\n@njit\n"
                                       "def move(legal, n):\n    return tools.choose.pick(legal, n)\n")
    (folder / "mine.py").write_text("from numba import njit\nfrom helpers import move\n\n@njit\n"
                                    "def helped(view, legal, n, rng):\n    return move(legal, n)\n")
    return f"{folder / 'mine.py'}:helped"


def test_a_strategy_imports_its_own_helpers_and_they_travel_with_it(tmp_path):
    """Two folders, the same strategy file, each with its own helpers.py: each plays its
    own (the first legal move, the last: the games of first_legal and last_legal); its
    helpers travel with it to a worker that cannot see them, and are in the batch key."""
    from analyzer.strategies import user_sources

    first, last = _helped(tmp_path / "a", "legal[0]"), _helped(tmp_path / "b", "legal[n - 1]")

    def reported(strategy: str) -> list:
        return _reported(api.simulate("ninety-nine", games=300, seed=3, seats={0: strategy}, workers=1))

    assert _same(reported(first), reported(f"{DATA / 'strategies.py'}:first_legal"))
    assert _same(reported(last), reported(LAST))
    own, *helpers = user_sources(first)
    assert own == str(tmp_path / "a" / "mine.py")
    assert sorted(helpers) == ["helpers.py", "tools/__init__.py", "tools/choose.py"]
    job = _job(tmp_path, [first, "heuristic"], {0: first}, games=300, chunk=300)
    run = batch.load_job(job)[1]
    here = batch.play_chunk(run, 0, 300, threads=1)
    travelling = run.travelling()
    assert sorted(travelling.sources) == sorted([str(tmp_path / "a" / "mine.py")] + [
        f"{tmp_path / 'a' / 'mine.py'}{batch.HELPER}{p}" for p in ("helpers.py", "tools/choose.py", "tools/__init__.py")])
    import shutil

    shutil.rmtree(tmp_path / "a")
    there = batch.play_chunk(travelling, 0, 300, threads=1)
    assert np.array_equal(here.sums, there.sums) and np.array_equal(here.wins, there.wins)
    # an edited helper is another run (its checkpoints are not taken for this one's), and
    # what plays, in this process too
    _helped(tmp_path / "a", "legal[n - 1]")
    assert batch.load_job(job)[1].key != run.key
    assert _same(reported(first), reported(LAST))
