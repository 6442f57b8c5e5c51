"""``make warm``'s plan (scripts/warm.py): which games each process compiles, one after the other."""

from __future__ import annotations

from conftest import load_script

from analyzer import games as registry

warm = load_script("warm")


def _longest(lanes, seconds) -> float:
    return max(sum(seconds[g] for g in lane) for lane in lanes)


def test_two_lanes_run_the_two_longest_warm_ups_one_after_the_other():
    # by hand: with 93 beside any of the three shorter ones, the other lane holds 84 and at
    # least 100 more (63 + 40); 93 and 84 together make 177, the other three 163
    seconds = {"a": 93, "b": 84, "c": 63, "d": 60, "e": 40}
    lanes = warm.plan(seconds, 2)
    assert sorted(map(sorted, lanes)) == [["a", "b"], ["c", "d", "e"]]
    assert _longest(lanes, seconds) == 177
    assert all(lane == sorted(lane, key=lambda g: -seconds[g]) for lane in lanes)  # each lane longest first


def test_every_game_is_warmed_once_whatever_the_lanes():
    seconds = {"a": 5, "b": 3, "c": 3, "d": 1}
    assert warm.plan(seconds, 1) == [["a", "b", "c", "d"]]
    assert sorted(map(sorted, warm.plan(seconds, 8))) == [["a"], ["b"], ["c"], ["d"]]  # no empty lane
    lanes = warm.plan(seconds, 2)
    assert sorted(g for lane in lanes for g in lane) == ["a", "b", "c", "d"] and _longest(lanes, seconds) == 6
    # many games: the longest first into the lane that ends first, each lane within the
    # longest game of an even share
    many = {f"g{i}": float(i + 1) for i in range(20)}
    lanes = warm.plan(many, 3)
    assert sorted(g for lane in lanes for g in lane) == sorted(many)
    assert _longest(lanes, many) <= sum(many.values()) / 3 + max(many.values())


def test_every_game_has_a_warm_up_time_of_a_plausible_size():
    for name in registry.names():
        assert 10 <= warm.warm_up_seconds(name) <= 300, name


def _main_with(monkeypatch, argv, returncodes):
    """warm.main() on ``argv`` with each game's process replaced by one that exits with
    ``returncodes[game]`` (no compiling): its exit status and the games started."""
    import subprocess
    import sys

    started = []

    def fake_run(command, **kwargs):
        game = command[-1]
        started.append(game)
        return subprocess.CompletedProcess(command, returncodes[game], "", "boom\n")

    monkeypatch.setattr(warm.subprocess, "run", fake_run)
    monkeypatch.setattr(sys, "argv", ["warm.py", *argv])
    return warm.main(), sorted(started)


def test_a_game_that_fails_or_is_killed_fails_the_warm_up(monkeypatch, capsys):
    assert _main_with(monkeypatch, ["hearts2", "pitch10"], {"hearts2": 0, "pitch10": 0}) == (0, ["hearts2", "pitch10"])
    # killed by a signal (SIGKILL: the machine out of memory) is a negative status, not a success
    assert _main_with(monkeypatch, ["hearts2", "pitch10"], {"hearts2": 0, "pitch10": -9})[0] == 1
    assert _main_with(monkeypatch, ["hearts2", "pitch10"], {"hearts2": 3, "pitch10": 0})[0] == 1
    out = capsys.readouterr().out
    assert "warm pitch10: FAILED (killed by signal 9)" in out and "warm hearts2: FAILED (exit status 3)" in out
    # a game named twice is warmed once
    assert _main_with(monkeypatch, ["hearts2", "hearts2"], {"hearts2": 0})[1] == ["hearts2"]


def test_a_bad_argument_is_one_line_and_nothing_starts(monkeypatch, capsys):
    import pytest

    for argv in (["nosuch"], ["--jobs", "0"], ["--jobs", "x"], ["--nosuch"]):
        with pytest.raises(SystemExit) as exit_:
            _main_with(monkeypatch, argv, {})
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, (argv, err)
