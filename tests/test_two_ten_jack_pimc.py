"""The ``pimc`` strategy of Two-Ten-Jack (kernel.pimc_move): in the last ``tricks`` tricks
of a round (default 6, the stock gone) sampled worlds of the hidden cards, each solved
exactly (solver.py), the move with the best mean value played; before them it plays as mc.

- its games follow the rules (the independent referee of tests/test_two_ten_jack.py) and
  end, with the default and with worlds solved while the stock lasts, and they are
  reproducible whatever the workers and chunks;
- once the stock is gone the seat can infer every hidden card (the other hand is the
  unseen cards): its move is a best move of the independent brute-force minimax of
  tests/test_two_ten_jack_solver.py, and a round finished by pimc on both sides ends with
  the brute force's value of each option (evaluate with pimc rollouts);
- it beats ``heuristic`` in a duplicate-deal compare.
"""

from __future__ import annotations

import pandas as pd

from analyzer import api
from analyzer.evaluate import evaluate
from analyzer.games.two_ten_jack import solver
from analyzer.games.two_ten_jack.spec import SPEC
from test_two_ten_jack import check_records  # the independent referee
from test_two_ten_jack_solver import brute_position  # the independent brute force

GAME = "two-ten-jack"


def choices(records, seats=(0, 1)) -> int:
    """Decisions of the given seats with more than one legal move."""
    return sum(1 for events in records for ev in events
               if ev["ev"] == "decide" and ev["seat"] in seats and len(ev["legal"]) > 1)


# ---- legal, finished, reproducible games ------------------------------------------------------

def test_pimc_games_follow_the_rules_and_end():
    records = api.play(GAME, seed=21, games=120, seats=["pimc:k=2", "random"], rules={"target": 15})
    records += api.play(GAME, seed=22, games=120, seats=["heuristic", "pimc:k=2,base=random"],
                        rules={"target": 15})
    # worlds solved while the stock lasts (its last 4 cards: 8 tricks), both seats pimc
    records += api.play(GAME, seed=23, games=60, seats=["pimc:k=3,tricks=8", "pimc:k=2,tricks=7,base=random"],
                        rules={"target": 15})
    stats = check_records(records)  # every move legal, tricks, draws, points and scores as docs/rules.md says
    assert all(events[-1]["ev"] == "game_end" for events in records)
    assert len(records) == 300 and stats["as_led"] > 0
    assert choices(records[:120], (0,)) + choices(records[120:240], (1,)) > 5000


def test_pimc_games_are_reproducible(tmp_path):
    kw = dict(games=40, seed=9, seats=["pimc:k=3,tricks=8", "heuristic"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 40
    first = api.play(GAME, seed=5, index=2, games=2, seats=["random", "pimc:k=3,tricks=8"])
    assert first == api.play(GAME, seed=5, index=2, games=2, seats=["random", "pimc:k=3,tricks=8"])
    # the same game as simulate plays (records and simulate run one loop)
    record = api.play(GAME, seed=9, index=3, games=1, seats=["pimc:k=3,tricks=8", "heuristic"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, "score_0"]), int(a.loc[3, "score_1"])]


# ---- the stock gone: every hidden card known, pimc plays a best move of the brute force ------------------

def small_endgames(records, seats, most_cards=8):
    """(events, decision number, the decision) of every decision of ``seats`` with the stock
    gone, more than one legal move and at most ``most_cards`` cards in the two hands (the
    brute force's size)."""
    for events in records:
        number, drawing = 0, True
        for ev in events:
            if ev["ev"] in ("deal", "trick"):  # a trick without draws: the stock is gone
                drawing = ev["ev"] == "deal" or bool(ev["draws"])
            if ev["ev"] != "decide":
                continue
            number += 1
            # (replaying the record up to the decision takes time: only once the stock is gone)
            if drawing or ev["seat"] not in seats or len(ev["legal"]) < 2:
                continue
            pos = solver.position_at(events, number)
            if not pos["stock"] and len(pos["hands"][0]) + len(pos["hands"][1]) <= most_cards:
                yield events, number, ev


def test_pimc_plays_a_best_move_once_the_stock_is_gone():
    records = api.play(GAME, seed=31, games=30, seats=["pimc:k=2", "heuristic"], rules={"target": 15})
    records += api.play(GAME, seed=32, games=30, seats=["random", "pimc:k=2,base=random,tricks=9"],
                        rules={"target": 15})
    checked = matters = 0
    for events, number, ev in small_endgames(records[:30], (0,)):
        values = brute_position(solver.position_at(events, number))
        assert ev["move"] in {m for m, v in values.items() if v == max(values.values())}, (number, values, ev)
        checked += 1
        matters += len(set(values.values())) > 1
    for events, number, ev in small_endgames(records[30:], (1,)):
        values = brute_position(solver.position_at(events, number))
        assert ev["move"] in {m for m, v in values.items() if v == max(values.values())}, (number, values, ev)
        checked += 1
        matters += len(set(values.values())) > 1
    # the choice mattered often (some legal move was worse)
    assert checked > 300 and matters > 60, (checked, matters)


def test_pimc_rollouts_finish_a_round_at_its_exact_value():
    # with the stock gone, both seats playing pimc play perfectly: every option of evaluate
    # ends the round with the brute force's value of that option, on every sample
    records = api.play(GAME, seed=41, games=4, seats=["heuristic", "heuristic"], rules={"target": 15})
    checked = 0
    for events, number, ev in small_endgames(records, (0, 1)):
        values = brute_position(solver.position_at(events, number))
        if len(set(values.values())) < 2:
            continue
        position = SPEC.position_from_record(events, number)
        table = evaluate(GAME, position, samples=8, seed=4, workers=1, rollout="pimc:k=2").table
        for option, row in table.set_index("option").iterrows():
            # the value is mine - the other's, and a round's points sum to 5
            expected = {(values[o] + 5) / 2 for o in option.split("/")}
            assert expected == {row["points"]}, (option, row["points"], values)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_pimc_as_the_rollout_of_evaluate_is_reproducible():
    events = api.play(GAME, seed=13, games=1, seats=["heuristic", "heuristic"])[0]
    position = SPEC.position_from_record(events, 37)  # seat 0 leads trick 19 (a stock of 4): 7 moves
    # (exact_limit=0: the 12 samples asked for, not the enumeration's first round of every world twice)
    runs = [evaluate(GAME, position, samples=12, seed=7, workers=w, exact_limit=0, rollout="pimc:k=2,tricks=9").table
            for w in (1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    legal = [ev for ev in events if ev["ev"] == "decide"][36]["legal"]
    assert len(legal) == 7 and sorted(m for o in runs[0]["option"] for m in o.split("/")) == sorted(legal)
    assert runs[0]["points"].between(-15, 20).all()


# ---- strength ---------------------------------------------------------------------------------------

def test_pimc_beats_the_heuristic_in_compare():
    result = api.compare(GAME, ["pimc:k=8", "heuristic"], games=100, seed=3, workers=1)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "pimc:k=8"]
    assert pair["games"] == 200  # each deal played both ways round
    # measured: 0.77 (0.705-0.824) with these deals and seed; 0.735 (0.697-0.770) with 300
    assert pair["win_rate_lo"] > 0.5
    assert pair["score_margin_lo"] > 0
