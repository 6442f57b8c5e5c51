"""The ``ismcts`` strategy of two-player Hearts (kernel.ismcts_move): information-set Monte Carlo
tree search over sampled worlds of the hidden cards (analyzer.ismcts holds the tree).

- its games follow the rules (the independent referee of tests/test_hearts2.py) and end, and
  they are reproducible whatever the workers and chunks; play records the games simulate plays;
- where the seat can infer every hidden card, with playouts scored on the hand alone, its card
  is a best card of the independent brute-force minimax of tests/test_hearts2_solver.py;
- it beats ``heuristic`` in a duplicate-deal compare, and serves as evaluate's rollout.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd

from analyzer import api
from analyzer.cards import token
from analyzer.evaluate import evaluate
from analyzer.games.hearts2 import kernel as K
from analyzer.games.hearts2 import solver
from analyzer.games.hearts2 import strategies as S
from analyzer.games.hearts2.codes import G_TARGET
from analyzer.games.hearts2.spec import SPEC
from test_hearts2 import FORCED, Seen, forced_outcome, referee  # independent referee and hand-played outcome
from test_hearts2 import NO_USERS, user_arrays  # kernel calls without user strategies
from test_hearts2_pimc import known_world_position, mask  # positions whose hidden cards the seat can infer
from test_hearts2_solver import bf_solve  # independent brute force

RULES = {"target": 100}


def test_ismcts_games_follow_the_rules_and_end():
    seen = Seen()
    records = api.play("hearts2", seed=21, games=60, seats=["ismcts:iterations=40", "random"], rules={"target": 40})
    records += api.play("hearts2", seed=22, games=60, seats=["heuristic", "ismcts:iterations=40,base=random,hands=1"],
                        rules={"target": 40})
    for events in records:
        referee(events, seen)  # every card legal, tricks, points and scores as docs/rules.md says
        assert events[-1]["ev"] == "game_end"
    choices = sum(1 for events in records for ev in events if ev["ev"] == "decide" and len(ev["legal"]) > 1)
    assert choices > 2000


def test_ismcts_games_are_reproducible(tmp_path):
    kw = dict(games=30, seed=9, seats=["ismcts:iterations=30", "heuristic"])
    api.simulate("hearts2", workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate("hearts2", workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    record = api.play("hearts2", seed=9, index=3, games=1, seats=["ismcts:iterations=30", "heuristic"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, "score_0"]), int(a.loc[3, "score_1"])]
    # the parameters are played: more iterations give other games
    api.simulate("hearts2", workers=1, out=str(tmp_path / "c.csv"), **{**kw, "seats": ["ismcts:iterations=31", "heuristic"]})
    assert not pd.read_csv(tmp_path / "c.csv")["score_0"].equals(a["score_0"])


def ismcts_card(hands, turn, played, iterations, base, search, seed, hands_played=1):
    """ismcts's card at the position (the seat knowing what the engine's replay of the public
    history tells it), playouts scored on ``hands_played`` hands; the PLAY stream from ``seed``."""
    pos = SPEC.read_position(RULES, {"seat": turn, "hand": " ".join(hands[turn]), "played": " ".join(played)})
    assert token(pos.first) == "6C" and pos.forced_dead == mask(["2C", "4C"])  # every hidden card inferred
    search.game[G_TARGET] = 10_000  # no game ends in these playouts
    view, codes, _ = user_arrays()
    card, *_ = K.ismcts_move(NO_USERS, np.int64(turn), np.int64(iterations), np.int64(base), np.int64(70),
                             np.int64(hands_played), np.int64(mask(hands[0])), np.int64(mask(hands[1])),
                             np.int64(mask(["2C", "4C"])), pos.first, pos.leader, pos.trick, pos.led, pos.taken0,
                             pos.taken1, pos.ntr0, pos.void1 if turn == 0 else pos.void0, pos.legal,
                             np.zeros(4, dtype=np.uint64), search, view, codes,
                             *[np.uint64(seed + i) for i in range(4)])
    return token(card)


def test_ismcts_plays_a_best_card_when_every_card_is_known():
    """With one world, the tree is a perfect-information game tree: UCT finds a minimax card
    (the hand's point margin is the solver's value, scaled)."""
    rng = random.Random(20261202)
    search = K.search_arrays(solver.new_table(2), 3001)
    checked = matters = 0
    while checked < 120:
        found = known_world_position(rng, rng.randint(2, 4))
        if found is None:
            continue
        hands, turn, trick, taken, played = found
        values = bf_solve({"hands": hands, "turn": turn, "trick": trick, "taken": taken, "dead": ["2C", "4C"]})
        top = max(values.values())
        card = ismcts_card(hands, turn, played, 3000, S.RANDOM, search, seed=checked)
        assert values[card] == top, (hands, turn, played, values, card)
        checked += 1
        matters += top > min(values.values())
    assert matters > 20, matters  # the choice mattered often (some legal card was worse)


def test_ismcts_plays_the_forced_answer():
    # the position of tests/test_hearts2.py: QS loses 20 points (a moon), 2H loses 1
    known = SPEC.read_position(RULES, FORCED)
    search = K.search_arrays(solver.new_table(2), 301)
    search.game[G_TARGET] = 10_000
    view, codes, _ = user_arrays()
    for base in (S.HEURISTIC, S.RANDOM):
        card, *_ = K.ismcts_move(NO_USERS, np.int64(0), np.int64(300), np.int64(base), np.int64(70), np.int64(1),
                                 np.int64(mask(["QS", "2H"])), np.int64(mask(["AH"])), np.int64(mask(["2C", "4C"])),
                                 known.first, known.leader, known.trick, known.led, known.taken0, known.taken1,
                                 known.ntr0, known.void1, known.legal, np.zeros(4, dtype=np.uint64), search, view,
                                 codes, np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4))
        assert token(card) == "2H"


def test_ismcts_beats_the_heuristic_in_compare():
    result = api.compare("hearts2", ["ismcts:iterations=200", "heuristic"], games=40, seed=3, workers=1)
    (pair,) = result.tables["pairs"].to_dict("records")
    assert pair["strategy"] == "ismcts:iterations=200" and pair["games"] == 80
    assert pair["win_rate_lo"] > 0.5


def test_ismcts_as_the_rollout_of_evaluate():
    # both last tricks are forced after either card: the outcomes are those played by hand
    result = evaluate("hearts2", FORCED, samples=40, seed=4, workers=1, rollout="ismcts:iterations=50")
    table = result.table.set_index("option")
    for option in ("QS", "2H"):
        points, win = forced_outcome(option)
        assert table.loc[option, "points"] == points and table.loc[option, "win"] == win
