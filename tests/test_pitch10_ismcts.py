"""The ``ismcts`` strategy of 10-Point Pitch (kernel.ismcts_move): information-set Monte Carlo tree
search over worlds of the hidden cards drawn by ``mc``'s sampler (analyzer.ismcts holds the tree),
playouts by the base strategy for ``hands`` hands (1000: to the game's end), each seat's team's
result backed up; ``search=1`` searches the play only, ``search=2`` every decision, ``search=3``
(the default) every decision with the tree kept to the decision's phase.

- its games follow the rules (the independent referee of tests/test_pitch10.py) and end, and
  they are reproducible whatever the workers and chunks; play records the games simulate plays;
  a parameter changes the games;
- with ``search=1`` its bids, trump, keep or give and discards are exactly its base's;
- on the forced endgame of tests/test_pitch10.py (one placement of the hidden trumps; the lead
  of 3S sets the bid, an independent hand count says so) it leads a card that makes the bid;
- it beats ``heuristic`` in a duplicate-deal compare and serves as evaluate's rollout (the
  endgame's outcomes as counted by hand), and evaluate models its bids by its base's;
- ``hands=1000`` (the game's result, the rest of the game from shared futures): in the endgame at
  scores where a lead wins the game at once (counted by hand) it leads one, no future played; the
  futures table keeps the order common random numbers imply (a better score change never worth
  less); its games are the same for any workers and chunks;
- out-of-range parameters are refused in one line.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from analyzer import api
from analyzer.evaluate import evaluate
from analyzer.games.pitch10 import kernel as K
from analyzer.games.pitch10 import strategies as S
from analyzer.games.pitch10.codes import KIND_PLAY
from analyzer.games.pitch10.spec import SPEC, _informative_bidders, load_position
from analyzer.slots import SLOTS, empty_slot
from test_pitch10 import ENDGAME, _endgame_outcome, check_games  # independent referee and hand-counted outcome

GAME = "pitch10"
RULES = SPEC.resolve_rules({})
#: the user strategy slots of a run without user strategies (kernel calls from here)
NO_USERS = (empty_slot,) * SLOTS


# ---- legal, finished, reproducible games ------------------------------------------------------

def test_ismcts_games_follow_the_rules_and_end():
    played = api.play(GAME, seed=21, games=40, rules={"target": 21},
                      seats=["ismcts:iterations=30,search=2,hands=1000", "random",
                             "ismcts:iterations=20,base=random,hands=1,search=3", "heuristic"])
    played += api.play(GAME, seed=22, games=30, seats=["heuristic", "ismcts:iterations=30", "random",
                                                       "ismcts:iterations=20,search=2,hands=2"])
    facts = check_games(played[:40], target=21)  # every move legal, tricks, points and scores as docs/rules.md
    facts += check_games(played[40:], target=52)
    assert facts["games"] == 70 and all(events[-1]["ev"] == "game_end" for events in played)
    choices: Counter = Counter()
    for events in played:
        names = events[0]["strategies"]
        for ev in events:
            if ev["ev"] == "decide" and "ismcts" in names[ev["seat"]] and len(ev["legal"]) > 1:
                choices[ev["kind"]] += 1
    # the searching seats chose often, in every kind of decision (search=2)
    assert choices["play"] > 1000 and choices["bid"] > 200 and choices["trump"] > 50, choices


def test_ismcts_games_are_reproducible(tmp_path):
    kw = dict(games=24, seed=9, seats=["ismcts:iterations=20", "heuristic", "ismcts:iterations=20,search=2,hands=1000",
                                       "random"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=7, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 24
    # the same game as simulate plays (records and simulate run one loop)
    record = api.play(GAME, seed=9, index=3, games=1, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[3, "score_0"]), int(a.loc[3, "score_1"])]
    # the parameters are played: another exploration constant gives other games
    other = {**kw, "seats": ["ismcts:iterations=20,explore=300", *kw["seats"][1:]]}
    api.simulate(GAME, workers=1, out=str(tmp_path / "c.csv"), **other)
    assert not pd.read_csv(tmp_path / "c.csv").equals(a)


def test_ismcts_searching_the_play_bids_names_trump_and_discards_as_its_base():
    # search=1: everything before its first card is the same game as with the base itself
    # (the heuristic with its default partner share, or random drawing the same numbers)
    kinds: Counter = Counter()
    for base in ("heuristic", "random"):
        for index in range(60):
            seats = [f"ismcts:iterations=8,base={base},search=1", "heuristic", base, "random"]
            ours = api.play(GAME, seed=31, index=index, seats=seats)[0]
            theirs = api.play(GAME, seed=31, index=index, seats=[base, "heuristic", base, "random"])[0]
            first = next(i for i, ev in enumerate(ours) if ev["ev"] == "decide" and ev["kind"] == "play")
            assert ours[1:first] == theirs[1:first]  # (the game events name the strategies)
            kinds.update(ev["kind"] for ev in ours[:first] if ev["ev"] == "decide" and ev["seat"] == 0)
    assert kinds["bid"] > 100 and kinds["trump"] > 10 and kinds["give"] > 10, kinds


# ---- the forced endgame: a lead that makes the bid ------------------------------------------------

def test_ismcts_leads_a_card_that_makes_the_bid_in_the_forced_endgame():
    # tests/test_pitch10.py's endgame: seat 0 (the pitcher, bid 7) leads holding AS QS 3S, seat 1
    # must hold JS, seats 2 and 3 are out; leading 3S gives the 3 and the J away and sets the bid
    assert [_endgame_outcome(c) for c in ("AS", "QS", "3S")] == [1, 1, 0]
    params = SPEC.params(RULES)
    for base, hands in ((S.HEURISTIC, 1000), (S.HEURISTIC, 1), (S.RANDOM, 1)):
        for seed in range(3):
            pos = load_position(RULES, ENDGAME, params)
            pos.ws.play_rng[:] = np.arange(4, dtype=np.uint64) + np.uint64(seed)
            strat = np.array([[S.ISMCTS, 300, base, 70, hands, 1]] * 4, dtype=np.int64)
            mcws = K.mc_workspace(params, strat)
            card = K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(0), np.int64(KIND_PLAY), np.int64(3),
                                 np.int64(300), np.int64(base), np.int64(70), np.int64(hands), np.int64(1))
            assert SPEC.move_name(int(card)) in ("AS", "QS"), (base, hands, seed)


# ---- strength ---------------------------------------------------------------------------------------

def test_ismcts_beats_the_heuristic_in_compare():
    result = api.compare(GAME, ["ismcts:iterations=200", "heuristic"], games=40, seed=3, workers=2)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "ismcts:iterations=200"]
    assert pair["games"] == 80  # each deal played both ways round
    assert pair["win_rate_lo"] > 0.5


# ---- as evaluate's rollout strategy --------------------------------------------------------------

def test_ismcts_as_the_rollout_of_evaluate():
    # after any lead seat 1's JS is forced and seat 0 plays alone: the outcome of each lead
    # (exact_limit=0: the 40 samples asked for, not the enumeration's first round of 256 or more)
    result = evaluate(GAME, ENDGAME, samples=40, seed=4, workers=1, exact_limit=0, rollout="ismcts:iterations=30")
    table = result.table.set_index("option")
    for lead in ("AS", "QS", "3S"):
        assert table.loc[lead, "made_bid"] == _endgame_outcome(lead)
    # a bid decision of a recorded game, the rest of the hand played by ismcts seats (whole deals)
    events = api.play(GAME, seed=13, games=1, seats=["heuristic"] * 4)[0]
    position = SPEC.position_from_record(events, 2)
    runs = [evaluate(GAME, position, samples=12, seed=7, workers=w, rollout="ismcts:iterations=10,search=2").table
            for w in (1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert len(runs[0]) >= 2 and runs[0]["win"].between(0, 1).all()


def test_evaluate_reads_an_ismcts_bidder_as_its_base():
    # the bids of an ismcts seat are read into its hand as its base's (kernel.bids_fit: exact with
    # search=1, whose bids are the base's); a random base's bids tell nothing
    events = api.play(GAME, seed=13, games=1, seats=["heuristic"] * 4)[0]
    position = SPEC.position_from_record(events, 4)  # the fourth bid: three seats have bid
    pos = load_position(RULES, position, SPEC.params(RULES))
    row = {"heuristic": [S.ISMCTS, 1000, S.HEURISTIC, 70, 1000, 1], "random": [S.ISMCTS, 1000, S.RANDOM, 70, 1000, 1]}
    for base, expected in (("heuristic", 3), ("random", 0)):
        strat = np.array([row[base]] * 4, dtype=np.int64)
        assert len(_informative_bidders(pos, strat)) == expected


# ---- hands=1000: the game's result, the rest of the game valued by shared futures -----------------

def _search(position, hands, seed, iterations=300, base=S.HEURISTIC):
    """One ismcts search of seat 0's play decision in ``position``: (card name, the futures table)."""
    params = SPEC.params(RULES)
    pos = load_position(RULES, position, params)
    pos.ws.play_rng[:] = np.arange(4, dtype=np.uint64) + np.uint64(seed)
    strat = np.array([[S.ISMCTS, iterations, base, 30, hands, 3]] * 4, dtype=np.int64)
    mcws = K.mc_workspace(params, strat)
    n = K.decision(pos.ws, True)[2]
    card = K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(0), np.int64(KIND_PLAY), np.int64(n),
                         np.int64(iterations), np.int64(base), np.int64(30), np.int64(hands), np.int64(3))
    return SPEC.move_name(int(card)), mcws.future.copy()


def test_ismcts_wins_the_game_at_once_when_a_card_does():
    # the forced endgame at scores 45 (the pitcher's team, bid 7) to 47, target 52: leading AS or QS
    # makes the bid (the referee's hand count), 45 + 7 = 52 reaches the target and the pitcher's team
    # goes out first; leading 3S sets it (45 - 7 = 38) and gives team 1 the 3 and the J: its points
    # this hand, 1 taken so far + 4, lift it to 47 + 5 = 52, the target: team 1 wins. Every ending
    # decides the game, so no future is played (the table stays empty)
    assert [_endgame_outcome(c) for c in ("AS", "QS", "3S")] == [1, 1, 0]
    assert 45 + 7 >= RULES["target"] and 47 + 1 + 4 >= RULES["target"] and 45 - 7 < RULES["target"]
    deciding = {**ENDGAME, "scores": [45, 47]}
    for seed in range(3):
        card, future = _search(deciding, K.WHOLE_GAME, seed)
        assert card in ("AS", "QS"), seed
        assert (future == -1.0).all()
    # at 0 to 0 the same leads leave the game open: their values come from the futures table
    card, future = _search(ENDGAME, K.WHOLE_GAME, 0)
    assert card in ("AS", "QS")
    filled = future[future >= 0]
    assert 1 <= len(filled) <= 2  # the two endings: bid made (+7, +1) or set (-7, +5)
    assert ((filled * K.FUTURES) % 1 == 0).all() and (filled <= 1).all()


def _futures_by_change(future):
    """{(team 0's change, team 1's change): value} of a search's filled futures table."""
    keys = np.flatnonzero(future >= 0)
    return {(int(k // K.FUTURE_SPAN) + K.FUTURE_LOW, int(k % K.FUTURE_SPAN) + K.FUTURE_LOW): float(future[k])
            for k in keys}


def test_ismcts_futures_meet_the_same_deals_for_every_ending():
    # common random numbers: with the heuristic base (its moves ignore the scores and draw no random
    # numbers) future f plays the same hands whatever the scores, so team 0's chance to win can only
    # grow with its own score change and shrink with the other team's; with independent futures for
    # each ending, 32 playouts apiece, that order would break among dozens of endings
    events = api.play(GAME, seed=13, games=1, seats=["heuristic"] * 4)[0]
    checked = 0
    for at in (1, 2, 3, 4):  # the first hand's bids: many endings (pitcher, bid, made or set)
        position = SPEC.position_from_record(events, at)
        params = SPEC.params(RULES)
        pos = load_position(RULES, position, params)
        seat = int(position["seat"])
        strat = np.array([[S.ISMCTS, 400, S.HEURISTIC, 30, K.WHOLE_GAME, 3]] * 4, dtype=np.int64)
        mcws = K.mc_workspace(params, strat)
        kind, n = K.decision(pos.ws, True)[1:]
        if n < 2:
            continue
        K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(seat), np.int64(kind), np.int64(n), np.int64(400),
                      np.int64(S.HEURISTIC), np.int64(30), np.int64(K.WHOLE_GAME), np.int64(3))
        values = _futures_by_change(mcws.future)
        assert len(values) >= 5, values
        for (a0, a1), va in values.items():
            for (b0, b1), vb in values.items():
                if a0 >= b0 and a1 <= b1:
                    assert va >= vb, ((a0, a1), va, (b0, b1), vb)
                    checked += 1
    assert checked > 50


def test_ismcts_whole_game_searches_are_reproducible(tmp_path):
    # the futures' streams come from the deciding seat's PLAY stream: the same games for any workers
    # and chunks, with a built-in and with a random base
    kw = dict(games=10, seed=17, rules={"target": 21},
              seats=["ismcts:iterations=40,hands=1000", "heuristic", "ismcts:iterations=30,hands=1000,base=random",
                     "mc:k=4"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=3, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    record = api.play(GAME, seed=17, index=4, games=1, rules={"target": 21}, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[4, "score_0"]), int(a.loc[4, "score_1"])]
    # the value is played: hands=1 (the hand's margin) gives other games on the same deals
    one = {**kw, "seats": [s.replace("hands=1000", "hands=1") for s in kw["seats"]]}
    api.simulate(GAME, workers=1, out=str(tmp_path / "c.csv"), **one)
    assert not pd.read_csv(tmp_path / "c.csv").equals(a)


# ---- parameters ------------------------------------------------------------------------------------

def test_ismcts_parameters_are_checked_in_one_line():
    import pytest

    from analyzer.errors import AnalyzerError

    for text, expected in (("ismcts:search=4", "parameter search must be from 1 to 3, not 4"),
                           ("ismcts:search=0", "parameter search must be from 1 to 3, not 0"),
                           ("ismcts:hands=0", "parameter hands must be from 1 to 1,000, not 0"),
                           ("ismcts:hands=1001", "parameter hands must be from 1 to 1,000, not 1001"),
                           ("ismcts:iterations=1000001", "parameter iterations must be from 1 to 1,000,000"),
                           ("ismcts:explore=0", "parameter explore must be from 1 to"),
                           ("ismcts:hands=all", "parameter hands takes an integer")):
        with pytest.raises(AnalyzerError) as info:
            api.simulate(GAME, games=1, seed=1, seats=[text, "heuristic", "heuristic", "heuristic"])
        message = str(info.value)
        assert expected in message and "\n" not in message, message
    # the bounds are reachable
    api.simulate(GAME, games=1, seed=1, rules={"target": 11},
                 seats=["ismcts:iterations=5,hands=1000,search=1", "ismcts:iterations=5,hands=1,search=3",
                        "heuristic", "heuristic"])
