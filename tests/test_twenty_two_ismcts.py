"""Twenty-Two's ``ismcts`` (kernel.ismcts_move): information-set Monte Carlo tree search over
the worlds ``mc``'s sampler draws (analyzer.ismcts holds the tree), playouts by the base
strategy to the game's end (or for ``hands`` hands), each seat's own reward backed up.

- its games follow the rules (the independent referee of tests/test_twenty_two.py) and end,
  with 2 to 5 players, the variant included; they are the same whatever the threads and
  chunks, play records the games simulate plays, and a parameter changes the games;
- a single candidate is played without a search; where one follow keeps a king for the final
  trick of a seat that a king's 10 points put out (independently enumerated: it takes that
  trick most of the time), it plays the other, whatever its base;
- the rewards: a win shared by tied winners, else each seat's share of the room under the target;
- it beats ``heuristic`` in a duplicate-deal compare and serves as evaluate's rollout.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.cards import parse_cards
from analyzer.evaluate import evaluate
from analyzer.games.twenty_two import kernel as K
from analyzer.games.twenty_two import strategies as S
from analyzer.games.twenty_two.spec import SPEC, load_position
from analyzer.games.twenty_two.state import S_OVER, S_WINNERS
from test_twenty_two import RANKS, check_game, heuristic_follow_single  # independent referee

# one pytest-xdist worker runs this file: its tests that call ``search_decide`` from Python
# compile its twin (about 3 s) once, not on both workers at the same time
pytestmark = pytest.mark.xdist_group("twenty_two_search")


def test_ismcts_games_follow_the_rules_and_end():
    stats: Counter = Counter()
    records = api.play("twenty-two", seed=21, games=12, seats=["ismcts:iterations=30", "heuristic", "random", "mc:k=2"])
    records += api.play("twenty-two", seed=22, games=12, players=2,
                        seats=["random", "ismcts:iterations=30,base=random,hands=1"])
    records += api.play("twenty-two", seed=23, games=8, players=3, rules={"lowest_only_if_unable": True},
                        seats=["ismcts:iterations=20,hands=2", "heuristic", "ismcts:iterations=20"])
    records += api.play("twenty-two", seed=24, games=4, players=5, rules={"target": 30},
                        seats=["heuristic", "ismcts:iterations=15,explore=200"] + ["random"] * 3)
    for events in records:
        check_game(events, stats)  # every move legal, draws, final tricks, scores, the end
    assert stats["games"] == len(records) == 36
    choices = sum(1 for events in records for ev in events
                  if ev["ev"] == "decide" and len(ev["legal"]) > 1 and "ismcts" in events[0]["strategies"][ev["seat"]])
    assert choices > 1000


def test_ismcts_games_are_the_same_whatever_the_threads(tmp_path):
    kw = dict(games=24, seed=9, seats=["ismcts:iterations=30", "heuristic", "ismcts:iterations=20,hands=1", "random"])
    api.simulate("twenty-two", workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate("twenty-two", workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    record = api.play("twenty-two", seed=9, index=3, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, f"score_{s}"]) for s in range(4)]
    assert record[-1]["hands"] == int(a.loc[3, "hands"])
    # the parameters are played: another exploration constant, or horizon, gives other games
    for first in ("ismcts:iterations=30,explore=300", "ismcts:iterations=30,hands=1000"):
        api.simulate("twenty-two", workers=1, out=str(tmp_path / "c.csv"), **{**kw, "seats": [first] + kw["seats"][1:]})
        assert not pd.read_csv(tmp_path / "c.csv").equals(a), first


RULES3 = SPEC.resolve_rules({}, 3)


def decide(position: dict, strat_row: list[int], seed: int) -> tuple[str, bool]:
    """The move ``strat_row`` plays for the seat to move in ``position`` (3 players, the others
    heuristic), its PLAY stream from ``seed``; and whether it drew from that stream."""
    params = SPEC.params(RULES3)
    ws = load_position(RULES3, position).ws
    start = np.array([seed, seed + 11, seed + 23, 5], dtype=np.uint64)
    ws.play_rng[:] = start
    strat = np.zeros((3, 5), dtype=np.int64)
    strat[:, 0] = S.HEURISTIC
    strat[position["seat"]] = strat_row
    move = SPEC.user_kernel([]).search_decide(params, strat, ws)  # (the search strategies' entry for tests)
    return SPEC.move_name(int(move)), not np.array_equal(ws.play_rng, start)


def test_a_single_candidate_is_played_without_a_search():
    # 3D 4C against a 9: nothing matches or beats, the lowest card is the only legal follow
    position = {"seat": 1, "players": 3, "dealer": 2, "kind": "follow", "hand": "3D 4C", "trick": "9"}
    for base in (S.HEURISTIC, S.RANDOM):
        assert decide(position, [S.ISMCTS, 300, base, 70, 1000], seed=1) == ("3", False)
    # with a choice, it searches and draws once from the PLAY stream (fresh worlds next time)
    move, drew = decide({**position, "hand": "3D KC"}, [S.ISMCTS, 50, S.HEURISTIC, 70, 1000], seed=1)
    assert move in ("3", "K") and drew


def took_final_exactly(play: str) -> float:
    """The chance that seat 1 of KEEP_OR_SHED takes the final trick after ``play``, over every
    deal of the unseen cards (seat 2 follows as the heuristic does): enumerated here."""
    unseen = [c for c in range(52) if c not in parse_cards("3D KC")]
    unseen.remove(next(c for c in unseen if c % 13 == RANKS.index("9")))
    keep = RANKS.index("K" if play == "3" else "3")
    best = max(RANKS.index("9"), RANKS.index(play))
    took = total = 0
    for c0 in unseen:  # seat 0's last card
        for a, b in itertools.combinations([c for c in unseen if c != c0], 2):  # seat 2's two cards
            _, kept2 = heuristic_follow_single([a % 13, b % 13], best)
            total += 1
            took += keep >= max(c0 % 13, kept2)
    return took / total


#: seat 1 at 15 points holds 3D KC against a 9: playing the 3 keeps the king for the final
#: trick, whose 10 points put the seat out (target 22) whenever it takes it
KEEP_OR_SHED = {"seat": 1, "players": 3, "dealer": 2, "kind": "follow", "hand": "3D KC", "trick": "9",
                "scores": [0, 15, 0]}


def test_ismcts_sheds_the_king_that_would_put_it_out():
    keep_king, keep_three = took_final_exactly("3"), took_final_exactly("K")
    assert keep_king > 0.85 and keep_three < 0.05  # the independent enumeration: the 3 loses the game
    for base in (S.HEURISTIC, S.RANDOM):
        for hands in (1, 1000):
            for seed in range(2):
                move, _ = decide(KEEP_OR_SHED, [S.ISMCTS, 200, base, 70, hands], seed)
                assert move == "K", (base, hands, seed)


def test_rewards_share_a_win_else_the_room_under_the_target():
    rules = SPEC.resolve_rules({}, 4)
    params = SPEC.params(rules)
    ws = load_position(rules, {"seat": 0, "hand": "2C 5D 7C 7D", "kind": "discard", "scores": [4, 0, 12, 30]}).ws
    result = np.zeros(4)
    K.seat_rewards(params, ws, result)
    # seat 3 is out (30 >= 22): 0; the others by 22 - score: 18, 22, 10 of 50
    np.testing.assert_allclose(result, [18 / 50, 22 / 50, 10 / 50, 0.0])
    ws.sc[S_OVER], ws.sc[S_WINNERS] = 1, 0b0101  # a game over with seats 0 and 2 tied winners
    K.seat_rewards(params, ws, result)
    np.testing.assert_allclose(result, [0.5, 0.0, 0.5, 0.0])
    ws.sc[S_WINNERS] = 0b0010
    K.seat_rewards(params, ws, result)
    np.testing.assert_allclose(result, [0.0, 1.0, 0.0, 0.0])


def test_ismcts_beats_heuristic_on_duplicate_deals():
    # playouts of one hand, valued by the room left under the target (docs/twenty-two.md: the
    # strongest horizon; a whole game's playouts are too noisy for so few iterations)
    strategy = "ismcts:iterations=200,hands=1"
    result = api.compare("twenty-two", [strategy, "heuristic"], games=40, seed=3, workers=2)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == strategy]
    assert pair["deals"] == 40
    assert pair["win_rate_lo"] > 0.5


def test_ismcts_is_a_rollout_strategy_too():
    position = {k: v for k, v in KEEP_OR_SHED.items() if k != "scores"}
    # (exact_limit=0: the 64 samples asked for, not the enumeration's first round of every world)
    result = evaluate("twenty-two", position, samples=64, rollout="ismcts:iterations=20", workers=2, seed=4,
                      exact_limit=0)
    assert result.samples == 64 and sorted(result.table["option"]) == ["3", "K"]
    table = result.table.set_index("option")
    # keeping the king takes the final trick far more often (the enumeration above: > 85% against < 5%)
    assert table.loc["3", "took_final"] > 0.6 > 0.3 > table.loc["K", "took_final"]
