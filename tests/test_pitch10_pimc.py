"""The ``pimc`` strategy of 10-Point Pitch (kernel.pimc_move): in the play phase sampled worlds
of the hidden trumps, each solved exactly (solver.py), the card with the best mean of its
team's points played; bids, trump, keep or give and discards are the base strategy's.

- its games follow the rules (the independent referee of tests/test_pitch10.py) and end,
  and they are reproducible whatever the workers and chunks;
- up to its first play it makes exactly the base strategy's moves;
- where the seat's view leaves one placement of the hidden trumps (spec.enumerate_worlds),
  its card is a best card of the independent brute force of tests/test_pitch10_solver.py
  on the true hands (from records, and called directly on the forced endgame of
  tests/test_pitch10.py);
- it beats ``heuristic`` in a duplicate-deal compare;
- it serves as the rollout strategy of evaluate.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from analyzer import api
from analyzer.engine import SEARCH_TIER
from analyzer.evaluate import evaluate
from analyzer.games.pitch10 import kernel as K
from analyzer.games.pitch10 import solver
from analyzer.games.pitch10 import strategies as S
from analyzer.games.pitch10.codes import KIND_PLAY
from analyzer.games.pitch10.spec import SPEC, enumerate_worlds, load_position, position_from_record
from analyzer.slots import SLOTS, empty_slot
from test_pitch10 import ENDGAME, _endgame_outcome, check_games  # independent referee and hand-played outcome
from test_pitch10_solver import bf_size, bf_solve  # independent brute force

GAME = "pitch10"
RULES = SPEC.resolve_rules({})
#: the user strategy slots of a run without user strategies (kernel calls from here: pimc_move)
NO_USERS = (empty_slot,) * SLOTS


# ---- legal, finished, reproducible games ------------------------------------------------------

def test_pimc_games_follow_the_rules_and_end():
    played = api.play(GAME, seed=21, games=120, seats=["pimc:k=2", "random", "pimc:k=2,base=random", "heuristic"],
                      rules={"target": 21})
    played += api.play(GAME, seed=22, games=120, seats=["heuristic", "pimc:k=2", "random", "pimc:k=3"])
    facts = check_games(played[:120], target=21)  # every move legal, tricks, points and scores as docs/rules.md
    facts += check_games(played[120:], target=52)
    assert facts["games"] == 240 and all(events[-1]["ev"] == "game_end" for events in played)
    plays = sum(1 for events in played[:120] for ev in events
                if ev["ev"] == "decide" and ev["kind"] == "play" and ev["seat"] in (0, 2) and len(ev["legal"]) > 1)
    assert plays > 1000  # the pimc seats chose among several cards many times


def test_pimc_games_are_reproducible(tmp_path):
    kw = dict(games=40, seed=9, seats=["pimc:k=3", "heuristic", "pimc:k=3,base=random", "heuristic"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 40
    seats = ["random", "pimc:k=3", "random", "pimc:k=3"]
    assert api.play(GAME, seed=5, index=2, games=2, seats=seats) == api.play(GAME, seed=5, index=2, games=2,
                                                                              seats=seats)
    # the same game as simulate plays (records and simulate run one loop)
    record = api.play(GAME, seed=9, index=3, games=1, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, "score_0"]), int(a.loc[3, "score_1"])]


def test_pimc_bids_names_trump_and_discards_as_its_base():
    # everything before the first card played is the same game as with the base itself
    # (the heuristic with its default partner share, or random drawing the same numbers)
    kinds: Counter = Counter()
    for base, plain in (("heuristic", "heuristic"), ("random", "random")):
        for index in range(150):
            ours = api.play(GAME, seed=31, index=index, seats=[f"pimc:k=2,base={base}", "heuristic", plain, "random"])[0]
            theirs = api.play(GAME, seed=31, index=index, seats=[plain, "heuristic", plain, "random"])[0]
            first = next(i for i, ev in enumerate(ours) if ev["ev"] == "decide" and ev["kind"] == "play")
            assert ours[1:first] == theirs[1:first]  # (the game events name the strategies)
            kinds.update(ev["kind"] for ev in ours[:first] if ev["ev"] == "decide" and ev["seat"] == 0)
    assert kinds["bid"] > 250 and kinds["trump"] > 30 and kinds["give"] > 30 and kinds["discard"] > 2, kinds


# ---- one placement of the hidden trumps: pimc plays a best card of the brute force ----------------------

def test_pimc_plays_a_best_card_where_the_hidden_trumps_are_forced():
    played = api.play(GAME, seed=3, games=40, seats=["pimc:k=2", "heuristic", "pimc:k=2,base=random", "heuristic"])
    params = SPEC.params(RULES)
    checked = matters = 0
    for events in played:
        decisions = [ev for ev in events if ev["ev"] == "decide"]
        for at, ev in enumerate(decisions, start=1):
            if ev["kind"] != "play" or ev["seat"] not in (0, 2) or len(ev["legal"]) < 2:
                continue
            pos = load_position(RULES, position_from_record(events, at), params)
            worlds = enumerate_worlds(pos.ws, ev["seat"], 1)
            if worlds is None or len(worlds[0]) != 1:
                continue  # the seat's view leaves more than one placement
            truth = solver.position_at(events, at)  # every hand as it is
            if bf_size(truth["hands"]) > 3000:
                continue
            values = bf_solve(truth)
            assert ev["move"] in {c for c, v in values.items() if v == max(values.values())}, (at, values, ev)
            checked += 1
            matters += len(set(values.values())) > 1
    # measured 231 such decisions, 65 where a card was worse than another
    assert checked > 150 and matters > 40, (checked, matters)


def test_pimc_plays_the_forced_endgame():
    # tests/test_pitch10.py's endgame: seat 0 leads holding AS QS 3S, seat 1 must hold JS,
    # seats 2 and 3 are out; leading 3S gives the 3 and the J away
    truth = {"trump": "S", "hands": [["AS", "QS", "3S"], ["JS"], [], []], "turn": 0, "taken": [4, 1]}
    values = bf_solve(truth)
    assert values == {"AS": 9, "QS": 9, "3S": 5}
    params = SPEC.params(RULES)
    for base in (S.HEURISTIC, S.RANDOM):
        for seed in range(5):
            pos = load_position(RULES, ENDGAME, params)
            pos.ws.play_rng[:] = np.arange(4, dtype=np.uint64) + np.uint64(seed)
            strat = np.array([[S.PIMC, 8, base, 0]] * 4, dtype=np.int64)
            mcws = K.mc_workspace(params, strat, SEARCH_TIER)
            card = K.pimc_move(params, NO_USERS, pos.ws, mcws, np.int64(0), np.int64(KIND_PLAY), np.int64(3),
                               np.int64(8), np.int64(base))
            assert SPEC.move_name(int(card)) in ("AS", "QS")


# ---- strength ---------------------------------------------------------------------------------------

def test_pimc_beats_the_heuristic_in_compare():
    result = api.compare(GAME, ["pimc:k=8", "heuristic"], games=80, seed=3, workers=1)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "pimc:k=8"]
    assert pair["games"] == 160  # each deal played both ways round
    # measured: 0.765 (0.710-0.812) with 100 deals of this seed
    assert pair["win_rate_lo"] > 0.5
    assert pair["score_margin_lo"] > 0


# ---- as evaluate's rollout strategy --------------------------------------------------------------

def test_pimc_as_the_rollout_of_evaluate():
    # after any lead seat 1's JS is forced and seat 0 plays alone: the outcome of each lead
    # (exact_limit=0: the 40 samples asked for, not the enumeration's first round of 256 or more)
    result = evaluate(GAME, ENDGAME, samples=40, seed=4, workers=1, exact_limit=0, rollout="pimc:k=4")
    table = result.table.set_index("option")
    for lead in ("AS", "QS", "3S"):
        assert table.loc[lead, "made_bid"] == _endgame_outcome(lead)
    # the first play of a recorded hand, the rest of the game played by pimc seats
    events = api.play(GAME, seed=13, games=1, seats=["heuristic"] * 4)[0]
    at = next(i for i, ev in enumerate([e for e in events if e["ev"] == "decide"], start=1)
              if ev["kind"] == "play" and len(ev["legal"]) >= 3)
    position = SPEC.position_from_record(events, at)
    runs = [evaluate(GAME, position, samples=16, seed=7, workers=w, rollout="pimc:k=2").table for w in (1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert len(runs[0]) >= 2 and runs[0]["made_bid"].between(0, 1).all() and runs[0]["win"].between(0, 1).all()
