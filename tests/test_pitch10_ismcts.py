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
- ``hands=0`` (the hand, valued by the match-equity table of met.py): the table is a probability,
  monotone in each team's distance to the target and symmetric between the teams; it agrees with
  games played from the scores by the engine; the kernel reads it by distance and next dealer;
  the script that builds it rebuilds it; a hand that ends the game is 1 or 0; its games are the
  same for any workers and chunks;
- out-of-range parameters are refused in one line.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.engine import SEARCH_TIER
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
    kw = dict(games=12, seed=9, seats=["ismcts:iterations=20", "heuristic", "ismcts:iterations=20,search=2,hands=1000",
                                       "random"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=5, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 12
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

# the tests that call ``K.ismcts_move`` from Python share a worker: each worker would
# compile that entry again (5 s of CPU in Pitch), the cache not yet written
@pytest.mark.xdist_group("pitch10_ismcts_move")
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
            mcws = K.mc_workspace(params, strat, SEARCH_TIER)
            card = K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(0), np.int64(KIND_PLAY), np.int64(3),
                                 np.int64(300), np.int64(base), np.int64(70), np.int64(hands), np.int64(1))
            assert SPEC.move_name(int(card)) in ("AS", "QS"), (base, hands, seed)


# ---- strength ---------------------------------------------------------------------------------------

def test_ismcts_beats_the_heuristic_in_compare():
    result = api.compare(GAME, ["ismcts:iterations=200", "heuristic"], games=120, seed=3, workers=2)
    (pair,) = [p for p in result.tables["pairs"].to_dict("records") if p["strategy"] == "ismcts:iterations=200"]
    assert pair["games"] == 240  # each deal played both ways round
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
    mcws = K.mc_workspace(params, strat, SEARCH_TIER)
    n = K.decision(pos.ws, True)[2]
    card = K.ismcts_move(params, NO_USERS, pos.ws, mcws, np.int64(0), np.int64(KIND_PLAY), np.int64(n),
                         np.int64(iterations), np.int64(base), np.int64(30), np.int64(hands), np.int64(3))
    return SPEC.move_name(int(card)), mcws.future.copy()


@pytest.mark.xdist_group("pitch10_ismcts_move")
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


@pytest.mark.xdist_group("pitch10_ismcts_move")
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
        mcws = K.mc_workspace(params, strat, SEARCH_TIER)
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
    _reproducible_and_played(tmp_path, "hands=1000", seed=17)


def _reproducible_and_played(tmp_path, hands: str, seed: int) -> None:
    """Games with two ismcts seats valued by ``hands`` (one on a random base) are the same for
    any workers and chunks, play records simulate's games, and the value is played: hands=1
    (the hand's margin) gives other games on the same deals."""
    kw = dict(games=10, seed=seed, rules={"target": 21},
              seats=[f"ismcts:iterations=40,{hands}", "heuristic", f"ismcts:iterations=30,{hands},base=random",
                     "mc:k=4"])
    api.simulate(GAME, workers=1, out=str(tmp_path / "a.csv"), **kw)
    api.simulate(GAME, workers=2, chunk=3, out=str(tmp_path / "b.csv"), **kw)
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    pd.testing.assert_frame_equal(a, b)
    record = api.play(GAME, seed=seed, index=4, games=1, rules={"target": 21}, seats=kw["seats"])[0]
    assert record[-1]["scores"] == [int(a.loc[4, "score_0"]), int(a.loc[4, "score_1"])]
    one = {**kw, "seats": [s.replace(hands, "hands=1") for s in kw["seats"]]}
    api.simulate(GAME, workers=1, out=str(tmp_path / "c.csv"), **one)
    assert not pd.read_csv(tmp_path / "c.csv").equals(a)


# ---- parameters ------------------------------------------------------------------------------------

def test_ismcts_parameters_are_checked_in_one_line():
    import pytest

    from analyzer.errors import AnalyzerError

    for text, expected in (("ismcts:search=4", "parameter search must be from 1 to 3, not 4"),
                           ("ismcts:search=0", "parameter search must be from 1 to 3, not 0"),
                           ("ismcts:hands=-1", "parameter hands must be from 0 to 1,000, not -1"),
                           ("ismcts:hands=1001", "parameter hands must be from 0 to 1,000, not 1001"),
                           ("ismcts:iterations=1000001", "parameter iterations must be from 1 to 1,000,000"),
                           ("ismcts:explore=0", "parameter explore must be from 1 to"),
                           ("ismcts:hands=all", "parameter hands takes an integer")):
        with pytest.raises(AnalyzerError) as info:
            api.simulate(GAME, games=1, seed=1, seats=[text, "heuristic", "heuristic", "heuristic"])
        message = str(info.value)
        assert expected in message and "\n" not in message, message
    # the bounds are reachable
    api.simulate(GAME, games=1, seed=1, rules={"target": 11},
                 seats=["ismcts:iterations=5,hands=1000,search=1", "ismcts:iterations=5,hands=0,search=3",
                        "heuristic", "heuristic"])


# ---- hands=0: the hand, valued by the match-equity table (met.py, scripts/pitch10_met.py) ----------

def _met_script():
    from conftest import load_script

    return load_script("pitch10_met")


def test_match_equity_table_is_a_probability_monotone_and_symmetric():
    from analyzer.games.pitch10.met import MET, MET_DIST, MET_TARGET

    assert MET.shape == (2, MET_DIST, MET_DIST) and MET_TARGET == RULES["target"]
    assert ((MET >= 0) & (MET <= 1)).all()
    # team 0's chance never rises as it needs more points, never falls as team 1 needs more
    assert (np.diff(MET, axis=1) <= 0).all() and (np.diff(MET, axis=2) >= 0).all()
    # the teams' places swapped (distances and the next dealer's team): the complement (the table
    # is rounded to 1e-4)
    assert np.abs(MET[1] - (1 - MET[0].T)).max() <= 1.01e-4
    # level at the start, whoever deals (the first dealer is drawn: both equally likely); a team
    # one point away wins nearly surely against one far behind, and the dealing side matters
    assert abs(MET[0, 51, 51] - 0.5) < 0.02 and abs(MET[1, 51, 51] - 0.5) < 0.02
    assert MET[0, 0, MET_DIST - 1] > 0.95 and MET[1, MET_DIST - 1, 0] < 0.05
    assert MET[0, 0, 0] != MET[1, 0, 0]


def test_match_equity_chain_agrees_with_games_played_from_the_scores():
    # the script's method against the game's own engine: a table built from the hands of 1,000
    # recorded heuristic games (the heuristic ignores the scores, so its hands are alike at any
    # scores, as the chain assumes), and kernel.future_value playing the rest of the game from
    # given scores with the heuristic at every seat, 32 games a call from independent streams:
    # team 0's share of wins within a 99.9% interval, widened by 0.02 for the table's own
    # sampling error (about 14,000 hands)
    from analyzer import trace as tr
    from analyzer.stats import wilson

    script = _met_script()
    table = script.solve(script.transitions(script.hand_outcomes(1000, 5, ["heuristic"] * 4)))
    params = SPEC.params(RULES)
    roll = K.workspace(params)
    out, trace = np.zeros(K.N_COLUMNS, dtype=np.int64), np.zeros((1, tr.WIDTH), dtype=np.int64)
    calls = 300
    for scores, team in (((42, 32), 0), ((22, 27), 1), ((47, 47), 0), ((-8, 7), 1), ((49, 12), 1)):
        wins = 0.0
        for c in range(calls):
            roll.scores[0], roll.scores[1] = scores
            roll.sc[K.S_DEALER] = (team + 3) & 3  # the hand just played: the next is dealt by ``team``
            roll.sc[K.S_WINNER] = -1
            wins += K.future_value(params, NO_USERS, np.int64(S.HEURISTIC), roll, out, trace,
                                   np.uint64(1000 + c), np.uint64(5000 + c)) * K.FUTURES
        n = calls * K.FUTURES
        lo, hi = wilson(int(round(wins)), n, z=3.29)
        value = table[team, 52 - scores[0] - 1, 52 - scores[1] - 1]
        assert lo - 0.02 <= value <= hi + 0.02, (scores, team, wins / n, (lo, hi), value)


def test_match_equity_value_reads_the_table_by_distance_and_next_dealer():
    from analyzer.games.pitch10.met import MET, MET_DIST

    roll = K.workspace(SPEC.params(RULES))
    for target, scores, dealer, expected in (
            (52, (40, 31), 0, MET[1, 11, 20]),      # the next hand dealt by seat 1, team 1
            (52, (40, 31), 3, MET[0, 11, 20]),      # ... by seat 0
            (52, (-60, 51), 1, MET[0, MET_DIST - 1, 0]),  # team 0 beyond the table: 112 away, read at 100
            (21, (0, 11), 2, MET[1, 20, 9]),        # another target: the distances
            (10_000, (0, 10), 2, MET[1, MET_DIST - 1, MET_DIST - 11]),  # far away: the margin kept
            (10_000, (0, 500), 2, MET[1, MET_DIST - 1, 0])):           # a margin beyond the table
        roll.scores[0], roll.scores[1] = scores
        roll.sc[K.S_DEALER] = dealer
        params = SPEC.params(SPEC.resolve_rules({"target": target}))
        assert K.met_value(params, roll) == expected, (target, scores, dealer)


def test_match_equity_exploration_follows_the_tables_slope():
    # hands=0 scales UCB's exploration by the table's value per point at the decision's scores
    # (kernel.met_slope) over the margin's (1/40 a point): read here from the table by hand,
    # 10 points ahead for either team, and by what it should say of the game
    from analyzer.games.pitch10.met import MET

    params = SPEC.params(RULES)
    ws = K.workspace(params)

    def slope(scores, dealer):
        ws.scores[0], ws.scores[1] = scores
        ws.sc[K.S_DEALER] = dealer
        return K.met_slope(params, ws)

    assert K.MARGIN_SLOPE == 1 / 40 and K.SLOPE_STEP == 10
    # the start, the next hand dealt by team 1 (seat 1 after dealer 0): 52 points each to go
    assert slope((0, 0), 0) == pytest.approx((MET[1, 41, 51] - MET[1, 51, 41]) / 20)
    assert 0.008 < slope((0, 0), 0) < 0.016  # about 0.011 a point at the start
    # team 0 six points away: ten more points win it (1.0); team 1 ten more from 31
    assert slope((46, 31), 3) == pytest.approx((1.0 - MET[0, 5, 10]) / 20)
    # a close finish moves more a point than the start; a decided game next to nothing (the floor)
    assert slope((47, 47), 1) > 2 * slope((0, 0), 1)
    assert slope((51, -60), 2) == K.MARGIN_SLOPE / 10


def test_match_equity_chain_scores_hands_by_the_rules():
    # the script's chain on made-up hand outcomes whose values follow from the rules by hand
    script = _met_script()
    counts = np.zeros((2, 8, 11, 11), dtype=np.int64)
    counts[1, 7, 3, 7] = 1  # the dealer's team always bids the moon and misses: it loses at once
    v = script.solve(script.transitions(counts), size=60)
    assert (v[0] == 0).all() and (v[1] == 1).all()
    counts[:] = 0
    counts[1, 7, 10, 0] = 1  # ... always makes it: above 0 it wins at once, at or below 0 it is lifted to 0
    v = script.solve(script.transitions(counts), size=60)
    assert (v[0, :51] == 1).all() and (v[1, :, :51] == 0).all()
    # team 0 at or below 0 and dealing, team 1 above 0: 0 is lifted to 0, then team 1's moon wins
    assert v[0, 55, 10] == 0 and v[0, 51, 10] == 0
    counts[:] = 0
    counts[0, 2, 6, 4] = 1  # the other team bids 6, makes it, the dealer's team takes 4: +6 and +4
    v = script.solve(script.transitions(counts), size=60)
    # team 0 needs 6, team 1 needs 4: whichever deals, the other pitches and goes out first (+6 or +4)
    assert v[0, 5, 3] == 0 and v[1, 5, 3] == 1
    # team 0 needs 10, team 1 needs 12. Team 1 deals: 0 pitches (4 left), 1 takes 4 (8 left); then
    # 1 pitches (2 left) and 0 takes 4: out. Team 0 deals: 1 pitches (6 left), 0 takes 4 (6 left); then 0 pitches: out
    assert v[0, 9, 11] == 1 and v[1, 9, 11] == 1
    # ... team 0 needs 4, team 1 needs 6, team 1 deals: 0 pitches (+6), 1 takes 4 (+4): 0 out first
    assert v[1, 3, 5] == 1 and v[0, 3, 5] == 0


def test_match_equity_table_is_the_scripts():
    # the module is what the script writes for its table and the run that made it (the run itself,
    # ``python scripts/pitch10_met.py --check``, replays thousands of games: not run here)
    from analyzer.games.pitch10 import met

    script = _met_script()
    text = script.render(met.MET, met.MET_SEED, met.MET_GAMES, met.MET_HANDS, [met.MET_SEATS] * 4)
    assert text == Path(met.__file__).read_text()
    assert met.MET_HANDS > 10 * met.MET_GAMES and met.MET_DIST == script.MET_DIST


@pytest.mark.xdist_group("pitch10_ismcts_move")
def test_ismcts_match_equity_wins_the_game_at_once_and_is_reproducible(tmp_path):
    # a hand that ends the game is worth 1 or 0 as with hands=1000: at scores 45 to 47 the leads
    # AS or QS make the bid and win the game (test_ismcts_wins_the_game_at_once_when_a_card_does)
    deciding = {**ENDGAME, "scores": [45, 47]}
    for seed in range(3):
        assert _search(deciding, K.MATCH_EQUITY, seed)[0] in ("AS", "QS"), seed
    assert _search(ENDGAME, K.MATCH_EQUITY, 0)[0] in ("AS", "QS")
    _reproducible_and_played(tmp_path, "hands=0", seed=19)
