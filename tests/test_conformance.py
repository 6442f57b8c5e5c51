"""One conformance test for every registered game (OpenSpiel's random-playout invariants):
legal moves only, scores consistent, play == simulate, results independent of threads and
chunks, and bad input refused. The per-game referees (tests/test_<game>.py) replay the
records card by card against independent implementations of the rules."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import api
from analyzer import games as registry
from analyzer.errors import AnalyzerError
from analyzer.records import to_jsonl, trace_game
from analyzer.runner import run_games
from analyzer.stats import Accumulator

GAMES = registry.names()


def _player_counts(spec) -> list[int]:
    return sorted({spec.min_players, spec.default_players, spec.max_players})


def _seatings(players: int) -> list[list[str]]:
    return [["random"] * players, ["heuristic"] * players, ["random", "heuristic"] * (players // 2) +
            ["random"] * (players % 2)]


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_keep_the_invariants(game):
    spec = registry.get(game)
    for players in _player_counts(spec):
        for seats in _seatings(players):
            for events in api.play(game, seed=17, index=0, games=4, players=players, seats=seats):
                head, body = events[0], events[1:]
                assert head["ev"] == "game" and head["game"] == spec.name and head["players"] == players
                assert body[-1]["ev"] == "game_end"
                decides = [ev for ev in body if ev["ev"] == "decide"]
                assert decides, "a game without a decision"
                for ev in decides:
                    assert 0 <= ev["seat"] < players
                    assert ev["legal"], "a decision with no legal move"
                    assert ev["move"] in ev["legal"], (ev["move"], ev["legal"])
                    assert len(set(ev["legal"])) == len(ev["legal"]), "a legal move listed twice"
                hands = [ev for ev in body if ev["ev"] == "hand_end"]
                end = body[-1]
                assert end["hands"] == len(hands) >= 1
                # the final scores are the last hand's running scores
                assert end["scores"] == hands[-1]["scores"]
                assert end["winners"] and all(0 <= w < players for w in end["winners"])


@pytest.mark.parametrize("game", GAMES)
def test_play_is_simulate(game):
    """A recorded game is the simulated game of the same seed and index, column for column."""
    spec = registry.get(game)
    s = api.setup(game)
    ncols = len(spec.columns(s.rules))
    rows = np.zeros((6, ncols), dtype=np.int64)
    err = np.full((6, 4), -1, dtype=np.int64)
    s.run_chunk(np.uint64(5), np.int64(10), s.params, s.strat, rows, err, np.int64(2))
    for k in range(6):
        _, out, _ = trace_game(spec, s.run_traced, 5, 10 + k, s.params, s.strat, ncols)
        assert list(out) == list(rows[k]), (k, out, rows[k])


def _sums(game: str, workers: int, chunk: int | None, players: int | None = None) -> tuple:
    s = api.setup(game, players)
    acc = Accumulator(s.spec.columns(s.rules), s.spec.players(s.rules), s.spec.ratio_pairs(s.rules))
    run_games(s.run_chunk, 3, 3000, s.params, s.strat, acc, workers=workers, chunk=chunk)
    return acc.n, acc.sums.tolist(), acc.sumsq.tolist(), acc.wins.tolist(), acc.cross.tolist()


@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_threads_or_chunks(game):
    reference = _sums(game, 1, 3000)
    assert _sums(game, 2, 257) == reference
    assert _sums(game, 2, None) == reference


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_refused_in_words(game):
    spec = registry.get(game)
    with pytest.raises(AnalyzerError, match="unknown rule option"):
        api.simulate(game, games=5, rules={"no_such_option": 1})
    with pytest.raises(AnalyzerError, match="unknown strategy"):
        api.simulate(game, games=5, seats={0: "no_such_strategy"})
    with pytest.raises(AnalyzerError):
        api.simulate(game, games=5, players=spec.max_players + 1)
    with pytest.raises(AnalyzerError):
        api.simulate(game, games=0)
    with pytest.raises(AnalyzerError):
        api.play(game, index=-1)


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_number_outside_the_record_is_refused_in_words(game, tmp_path):
    """``evaluate --at`` (and ``solve --at``, where the game has a solver) count a record's
    decisions from 1: 0 and one past the last are refused in one line that says the range."""
    spec = registry.get(game)
    (events,) = api.play(game, seed=4)
    record = tmp_path / "game.jsonl"
    record.write_text(to_jsonl([events]), encoding="utf-8")
    count = sum(ev["ev"] == "decide" for ev in events)
    for at in (0, count + 1):
        said = f"^--at must be a decision number from 1 to {count}, not {at}$"
        with pytest.raises(AnalyzerError, match=said):
            api.evaluate(game, record=str(record), at=at, samples=8)
        if spec.has_solver:
            with pytest.raises(AnalyzerError, match=said):
                api.solve(game, record=str(record), at=at)


@pytest.mark.parametrize("game", GAMES)
def test_the_text_of_a_game_shows_each_dealt_hand_on_a_line_of_its_own(game):
    """``play``'s text: after each deal, one line per seat dealt cards, holding exactly them."""
    from analyzer.records import to_text

    spec = registry.get(game)
    (events,) = api.play(game, seed=4)
    lines = to_text(spec, events).splitlines()
    deals = [ev for ev in events if ev["ev"] == "deal"]
    held = [line.split(" holds ") for line in lines if " holds " in line]
    expected = [(s, sorted(h)) for ev in deals for s, h in enumerate(ev["hands"]) if h]
    assert [(int(seat.split()[-1]), sorted(cards.split())) for seat, cards in held] == expected
