"""``analyzer --debug``: the engine runs uncompiled, so a user strategy's ``print`` and
tracebacks show, and the games are the very games of the compiled run (issue #18, item 5).

Each game is checked on a few games of its built-in ``random``: the uncompiled games must
equal the compiled ones. Where a user strategy reimplements that ``random``
(tests/data/user_random.py: Hearts and Ninety-Nine), the uncompiled user strategy must
play them too, which shows that the debug path plays the user's own function.

``--debug`` is decided before numba loads, so it runs in a process of its own: forked from a
server started with numba's JIT off (tests/forkrun.py, which pays the imports once), and once
as a new ``python -m analyzer --debug`` (the prints and traceback test), the path a user takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import forkrun

# one worker runs this file: its forked runner is started once
pytestmark = pytest.mark.xdist_group("debug")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

#: the function of tests/data/user_random.py that draws as the game's built-in random does
UNIFORM = {"hearts2": "uniform", "ninety-nine": "uniform_always"}
GAMES = ["hearts2", "ninety-nine", "pitch10", "twenty-two", "two-ten-jack"]


def _process(*args: str) -> subprocess.CompletedProcess:
    """``python -m analyzer ARGS``: a new interpreter, as a user runs it."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=900)


_RUNNER = forkrun.Runner({**os.environ, "NUMBA_DISABLE_JIT": "1"})


def _run(*args: str) -> subprocess.CompletedProcess:
    """``analyzer ARGS`` (``--debug`` among them) forked from the server whose numba has its
    JIT off, as ``--debug`` sets it before numba loads."""
    return _RUNNER.run(*args, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module", autouse=True)
def _close_runner():
    yield
    _RUNNER.close()


def _compiled(cli, *args: str) -> dict:
    """The compiled games, played in this process (the reference: nothing about a new process)."""
    code, out, err = cli(*args)
    assert code == 0, err
    return _games(out)


def _games(out: str) -> dict:
    """The games of a ``--json`` simulate: totals and per-seat numbers, without the labels."""
    facts = json.loads(out)
    seats = [{k: v for k, v in seat.items() if k != "strategy"} for seat in facts["seats"]]
    return {"games": facts["games"], "hands": facts["hands"], "totals": facts["totals"], "seats": seats}


@pytest.mark.parametrize("game", GAMES)
def test_debug_games_equal_the_compiled_games(game, cli):
    common = ["simulate", game, "--games", "3", "--seed", "5", "--json", "--seat", "0=random"]
    compiled = _compiled(cli, *common)
    debug = _run("--debug", *common)  # --debug needs a new process: it is decided before numba loads
    assert debug.returncode == 0, debug.stderr
    assert "compiling" not in debug.stderr  # nothing is compiled under --debug
    assert _games(debug.stdout) == compiled


@pytest.mark.parametrize("game", sorted(UNIFORM))
def test_a_debugged_user_strategy_plays_the_compiled_games(game, cli):
    common = ["simulate", game, "--games", "3", "--seed", "5", "--json"]
    compiled = _compiled(cli, *common, "--seat", "0=random")
    debug = _run("--debug", *common, "--seat", f"0={DATA / 'user_random.py'}:{UNIFORM[game]}")
    assert debug.returncode == 0, debug.stderr
    assert _games(debug.stdout) == compiled


def test_debug_shows_prints_and_the_traceback_into_the_strategy(tmp_path):
    path = tmp_path / "talk.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef talk(view, legal, n, rng):\n"
                    "    print('deciding among', n)\n    return legal[0]\n\n\n"
                    "@njit\ndef boom(view, legal, n, rng):\n    return legal[n + 100]\n")
    talk = _process("--debug", "simulate", "ninety-nine", "--games", "1", "--seed", "2", "--seat", f"0={path}:talk")
    assert talk.returncode == 0, talk.stderr
    assert "deciding among" in talk.stdout
    boom = _process("--debug", "simulate", "ninety-nine", "--games", "1", "--seed", "2", "--seat", f"0={path}:boom")
    assert boom.returncode == 3
    assert "Traceback" in boom.stderr and f'File "{path}", line 12, in boom' in boom.stderr, boom.stderr
    assert boom.stderr.strip().splitlines()[-1].startswith("error: user strategy ")


def test_debug_reports_an_illegal_move_in_one_line_without_a_traceback(tmp_path):
    """The engine's own finding, not a failure in the user's code: no traceback to show."""
    path = tmp_path / "wrong.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef wrong(view, legal, n, rng):\n    return -7\n")
    done = _run("--debug", "simulate", "ninety-nine", "--games", "1", "--seed", "2", "--seat", f"0={path}:wrong")
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().startswith(f"error: strategy {path}:wrong (seat 0) returned an illegal move")
    assert "; legal: " in done.stderr


@pytest.mark.parametrize("game", ["ninety-nine", "hearts2"])
def test_debug_says_a_move_that_is_not_an_integer_as_the_compiled_run_says_it(tmp_path, game):
    """Uncompiled, nothing typed the result: 4.5 was read as the illegal move "4" (Ninety-Nine)
    or failed inside the engine (Hearts); now each is said as compiled code says it."""
    path = tmp_path / "kinds.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef half(view, legal, n, rng):\n    return legal[0] + 0.5\n\n\n"
                    "@njit\ndef flag(view, legal, n, rng):\n    return legal[0] > 0\n\n\n"
                    "@njit\ndef none(view, legal, n, rng):\n    if n > 100:\n        return legal[0]\n")
    for name, said in [("half", "returns float64, not an integer move"), ("flag", "returns bool, not an integer move"),
                       ("none", "returns no move on some path (None): every path must return one of legal[:n]")]:
        done = _run("--debug", "simulate", game, "--games", "2", "--seed", "2", "--seat", f"0={path}:{name}")
        assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip().splitlines()[-1] == f"error: user strategy {path}:{name} {said}"


def test_a_pitch_position_where_other_seats_played_evaluates_as_compiled(tmp_path, cli):
    """Replaying another seat's plays, its hidden trumps stand as a placeholder bit (PHANTOM,
    bit 16) that has no card: the replay listed its legal plays through a table of 16
    columns, a read outside the table (silent compiled; an IndexError under --debug on every
    position where another seat had played). The replay now tests the card's bit."""
    position = tmp_path / "endgame.json"
    position.write_text(json.dumps({
        "seat": 0, "dealer": 3, "hand": "AS KS QS 3S 2S TS 2H 3H 4H", "bids": ["7", "pass", "pass", "pass"],
        "trump": "S", "received": [0, 5, 5, 5], "rest_to": 0, "rest": "5H 6H 7H",
        "played": "0:2S 1:4S 2:5S 3:6S | 3:7S 0:TS 1:8S 2:9S | 0:KS 1:LJ 2:HJ 3:JC", "out": [2, 3]}))
    # --no-infer: the bids read into the hands would probe 20,000 deals, slow uncompiled
    common = ["evaluate", "pitch10", "--position", str(position), "--samples", "6", "--seed", "3", "--no-infer",
              "--json"]
    code, out, err = cli(*common)
    assert code == 0, err
    debug = _run("--debug", *common)
    assert debug.returncode == 0, debug.stderr
    assert json.loads(debug.stdout)["options"] == json.loads(out)["options"]
