"""The paired card-value studies (``paired_swap_chunk`` of hearts2 and two-ten-jack, and the
report helpers behind their tables).

Independent checks: the as-dealt arm is the first hand/round of the recorded game of the
same index (api.play), and both arms equal a plain-Python playout of the deal they name
(the recorded deal, with the card and its partner exchanged by hand here), driven by the
games' rule and strategy functions one card at a time, not by the kernels' play loops.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer import games as registry
from analyzer import report as rp
from analyzer.cards import parse_card, token
from analyzer.strategies import resolve_seats, strategy_array

# one worker: its tests share a module fixture and a kernel that two workers would each compile
pytestmark = pytest.mark.xdist_group("paired_swaps")

SEED = 77
N = 400


def mask(cards: list[str]) -> int:
    return sum(1 << parse_card(c) for c in cards)


def run_kernel(game: str, seats: list[str], n: int, start: int = 0, nblocks: int = 3, **args):
    """(info, result) of ``game``'s paired_swap_chunk for deals start .. start + n - 1."""
    spec = registry.get(game)
    strat, _ = strategy_array(spec, resolve_seats(spec, 2, seats))
    params = spec.params(spec.resolve_rules({}))
    if game == "hearts2":
        from analyzer.games.hearts2.kernel import PS_COLUMNS

        info, result = np.zeros((n, 4), dtype=np.int64), np.zeros((n, 2, PS_COLUMNS), dtype=np.int64)
        spec.user_kernel([]).paired_swap_chunk(np.uint64(SEED), np.int64(start), params, strat, np.int64(args["card"]),
                                               np.int64(args["neutral"]), info, result, np.int64(nblocks))
    else:
        k = len(args["cards"])
        info, result = np.zeros((n, k + 1, 3), dtype=np.int64), np.zeros((n, k + 1, 2), dtype=np.int64)
        spec.user_kernel([]).paired_swap_chunk(np.uint64(SEED), np.int64(start), params, strat, args["cards"],
                                               np.int64(args["neutral"]), info, result, np.int64(nblocks))
    return info, result


# ---- hearts2 ----------------------------------------------------------------------------------

def hearts_playout(h0: int, h1: int, dead: int) -> tuple[int, int, int, list[int]]:
    """Hand 1 played by the heuristic for both seats from the deal, in plain Python over the
    game's rule functions: (points 0, points 1, moon seat or -1, points taken in tricks)."""
    from analyzer.games.hearts2 import rules
    from analyzer.games.hearts2.strategies import heuristic_move

    first = int(rules.first_lead(dead))
    leader = 0 if h0 >> first & 1 else 1
    hands = [h0, h1]
    taken = [0, 0]
    ntr0 = 0
    for trick in range(rules.TRICKS):
        led = -1
        for k in range(2):
            seat = leader if k == 0 else 1 - leader
            legal = int(rules.legal_now(hands[seat], trick, first, led, hands[0], hands[1], dead))
            card = int(heuristic_move(hands[seat], legal, led, taken[seat], taken[1 - seat]))
            assert legal >> card & 1
            hands[seat] ^= 1 << card
            if k == 0:
                led = card
            else:
                leader, taken[0], taken[1], ntr0 = (int(v) for v in rules.end_trick(leader, led, card, taken[0],
                                                                                     taken[1], ntr0))
    p0, p1, moon = (int(v) for v in rules.hand_score(taken[0], taken[1]))
    return p0, p1, moon, taken


def test_hearts_arms_are_the_recorded_deal_and_the_deal_with_qs_exchanged():
    from analyzer.games.hearts2.kernel import PS_MOON, PS_OPPONENT, PS_POINTS, PS_TOOK_QS
    from analyzer.games.hearts2.rules import QS
    from analyzer.games.hearts2.study import NEUTRAL

    n = 40
    info, result = run_kernel("hearts2", ["heuristic", "heuristic"], n, card=QS, neutral=NEUTRAL)
    records = api.play("hearts2", seed=SEED, index=0, games=n)
    checked = 0
    for j, game in enumerate(records):
        deal = next(e for e in game if e["ev"] == "deal")
        end = next(e for e in game if e["ev"] == "hand_end")
        h0, h1, dead = mask(deal["hands"][0]), mask(deal["hands"][1]), mask(deal["dead"])
        seat = 0 if h0 >> QS & 1 else (1 if h1 >> QS & 1 else -1)
        assert info[j, 0] == seat and info[j, 3] == deal["dealer"]
        if seat < 0:
            continue
        checked += 1
        partner = int(info[j, 1])
        assert NEUTRAL >> partner & 1 and not (h0, h1)[seat] >> partner & 1
        assert info[j, 2] == dead >> partner & 1
        # arm 0: the recorded game's first hand, and the Python playout of its deal
        assert result[j, 0, PS_POINTS] == end["points"][seat]
        assert result[j, 0, PS_OPPONENT] == end["points"][1 - seat]
        assert hearts_playout(h0, h1, dead)[:2] == tuple(end["points"])
        # arm 1: the deal with QS and the partner exchanged, by hand
        flip = (1 << QS) | (1 << partner)
        hands, dd = [h0, h1], dead
        hands[seat] ^= flip
        if dead >> partner & 1:
            dd ^= flip
        else:
            hands[1 - seat] ^= flip
        p0, p1, moon, taken = hearts_playout(hands[0], hands[1], dd)
        points = (p0, p1)
        assert result[j, 1, PS_POINTS] == points[seat] and result[j, 1, PS_OPPONENT] == points[1 - seat]
        assert result[j, 1, PS_MOON] == (moon == seat)
        assert result[j, 1, PS_TOOK_QS] == (taken[seat] >= 13)
    assert checked >= 30


def test_hearts_no_op_swap_is_exactly_zero_and_results_ignore_blocks():
    from analyzer.games.hearts2.rules import QS

    # QS "exchanged" with itself: the arms must agree exactly, even under random play
    # (the same PLAY stream for both arms)
    info, result = run_kernel("hearts2", ["random", "random"], N, card=QS, neutral=1 << QS)
    held = info[:, 0] >= 0
    assert held.sum() > 0.8 * N and (info[held, 1] == QS).all()
    assert (result[held, 0] == result[held, 1]).all()
    # a real swap moves the numbers, and does not depend on the blocks or the start
    from analyzer.games.hearts2.study import NEUTRAL

    a = run_kernel("hearts2", ["random", "random"], N, nblocks=1, card=QS, neutral=NEUTRAL)
    b = run_kernel("hearts2", ["random", "random"], N, nblocks=7, card=QS, neutral=NEUTRAL)
    c = run_kernel("hearts2", ["random", "random"], N // 2, start=N // 2, card=QS, neutral=NEUTRAL)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    assert (a[0][N // 2:] == c[0]).all() and (a[1][N // 2:] == c[1]).all()
    assert (a[1][held, 0] != a[1][held, 1]).any()


def test_hearts_paired_table_intervals():
    from analyzer.games.hearts2 import study

    frame = study.qs_swaps(registry.get("hearts2").resolve_rules({}), SEED, 0, N)
    table = study.paired_table(frame)
    for _, row in table.iterrows():
        kind = study.PAIRED[row["measure"]][1]
        for name in ("with", "without", "difference"):
            assert row[name + "_lo"] <= row[name] <= row[name + "_hi"]
        if kind == "prop":
            assert 0 <= row["with_lo"] and row["with_hi"] <= 1 and 0 <= row["without_lo"] and row["without_hi"] <= 1
            assert -1 <= row["difference_lo"] and row["difference_hi"] <= 1
    top = table.iloc[0]
    assert top["partner"] == "anywhere" and top["measure"] == "points this hand" and top["n"] == len(frame)
    assert study.qs_finding(top.to_dict()).startswith("Holding QS changes your points this hand by ")


# ---- two-ten-jack -------------------------------------------------------------------------------

def ttj_playout(hands: list[int], stock: list[int], dealer: int) -> tuple[int, int]:
    """Round 1 played by the heuristic for both seats from both hands and the stock's order,
    in plain Python over the game's rule and strategy functions: each seat's points."""
    from analyzer.games.two_ten_jack import rules
    from analyzer.games.two_ten_jack.strategies import heuristic_follow, heuristic_lead

    hands, stock = list(hands), list(stock)
    leader, taken, played = 1 - dealer, [0, 0], 0
    for _ in range(rules.TRICKS):
        left = len(stock)
        lead = int(heuristic_lead(hands[leader], played, left))
        assert rules.lead_moves(hands[leader]) >> lead & 1
        lc = int(rules.lead_card(lead))
        hands[leader] ^= 1 << lc
        follower = 1 - leader
        legal = int(rules.follow_moves(hands[follower], rules.suit_led(lead)))
        card = int(heuristic_follow(legal, lc, left))
        assert legal >> card & 1
        hands[follower] ^= 1 << card
        winner = follower if rules.follower_wins(lc, card) else leader
        taken[winner] |= (1 << lc) | (1 << card)
        played |= (1 << lc) | (1 << card)
        if stock:
            hands[winner] |= 1 << stock.pop(0)
            hands[1 - winner] |= 1 << stock.pop(0)
        leader = winner
    return int(rules.mask_points(taken[0])), int(rules.mask_points(taken[1]))


def test_ttj_arms_are_the_recorded_deal_and_the_deal_with_the_card_exchanged():
    from analyzer.games.two_ten_jack.study import CARD_CODES, NEUTRAL

    n = 30
    info, result = run_kernel("two-ten-jack", ["heuristic", "heuristic"], n, cards=CARD_CODES, neutral=NEUTRAL)
    records = api.play("two-ten-jack", seed=SEED, index=0, games=n)
    k = len(CARD_CODES)
    swaps = 0
    for j, game in enumerate(records):
        deal = next(e for e in game if e["ev"] == "deal")
        end = next(e for e in game if e["ev"] == "hand_end")
        hands = [mask(deal["hands"][0]), mask(deal["hands"][1])]
        stock = [parse_card(c) for c in deal["stock"]]
        assert info[j, k, 0] == deal["dealer"]
        assert tuple(result[j, 0]) == tuple(end["points"]) == ttj_playout(hands, stock, deal["dealer"])
        for i, card in enumerate(CARD_CODES):
            seat = 0 if hands[0] >> card & 1 else (1 if hands[1] >> card & 1 else -1)
            assert info[j, i, 0] == seat
            if seat < 0:
                continue
            x = int(info[j, i, 1])
            assert NEUTRAL >> x & 1 and not hands[seat] >> x & 1 and info[j, i, 2] == hands[1 - seat] >> x & 1
            # the card and its partner exchanged by hand: in the hands, or at the partner's place in the stock
            h, st = list(hands), [int(card) if c == x else c for c in stock]
            h[seat] ^= (1 << int(card)) | (1 << x)
            if hands[1 - seat] >> x & 1:
                h[1 - seat] ^= (1 << int(card)) | (1 << x)
            assert tuple(result[j, i + 1]) == ttj_playout(h, st, deal["dealer"]), (j, token(int(card)), token(x))
            swaps += 1
    assert swaps >= 30


def test_ttj_no_op_swap_is_exactly_zero_and_results_ignore_blocks():
    from analyzer.games.two_ten_jack.rules import CARD_POINTS
    from analyzer.games.two_ten_jack.study import CARD_CODES, NEUTRAL

    # every card exchanged with itself (each card its own "neutral" set, one at a time)
    for card in CARD_CODES[[0, -1]]:
        info, result = run_kernel("two-ten-jack", ["random", "random"], N, cards=np.array([card]),
                                  neutral=1 << int(card))
        held = info[:, 0, 0] >= 0
        assert held.sum() > 0.15 * N and (info[held, 0, 1] == card).all()
        assert (result[held, 0] == result[held, 1]).all()
    a = run_kernel("two-ten-jack", ["random", "random"], N, nblocks=1, cards=CARD_CODES, neutral=NEUTRAL)
    b = run_kernel("two-ten-jack", ["random", "random"], N, nblocks=5, cards=CARD_CODES, neutral=NEUTRAL)
    c = run_kernel("two-ten-jack", ["random", "random"], N // 2, start=N // 2, cards=CARD_CODES, neutral=NEUTRAL)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    assert (a[0][N // 2:] == c[0]).all() and (a[1][N // 2:] == c[1]).all()
    # every card is taken by someone: each arm's points add up to the deck's total
    played = np.concatenate([a[1][:, 0]] + [a[1][a[0][:, i, 0] >= 0, i + 1] for i in range(len(CARD_CODES))])
    assert (played.sum(axis=1) == CARD_POINTS.sum()).all()


def test_ttj_paired_rows_and_the_margin():
    from analyzer.games.two_ten_jack import study

    frame = study.card_swaps(registry.get("two-ten-jack").resolve_rules({}), SEED, 0, N)
    assert set(frame["card"]) == set(study.SCORING)
    table = study.paired_rows(frame, "card")
    for _, row in table.iterrows():
        assert row["difference_lo"] <= row["difference"] <= row["difference_hi"]
        # the points in a round add up to a constant, so the margin moves twice as much
        assert math.isclose(row["margin_difference"], 2 * row["difference"], abs_tol=1e-9)
    assert study.as_precision(frame) == rp.half_width(table[table["card"] == "AS"].iloc[0].to_dict())


# ---- the report helpers -----------------------------------------------------------------------------

def test_paired_row_is_the_interval_of_the_per_deal_differences():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 20, 500)
    b = a + rng.integers(-3, 4, 500)  # strongly correlated with a: pairing must narrow the interval
    row = rp.paired_row(a, b, "mean")
    d = a - b
    from scipy import stats as sps  # Student's t: 500 deals, 499 degrees of freedom

    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    assert row["n"] == 500 and math.isclose(row["difference"], d.mean())
    assert math.isclose(row["difference_hi"] - row["difference"], half, rel_tol=1e-3)
    assert rp.half_width(row) < rp.half_width(row, "with")
    flags = rp.paired_row(np.ones(50), np.zeros(50), "prop")
    assert flags["with"] == 1 and flags["with_hi"] <= 1 and flags["difference_hi"] <= 1
    assert rp.half_width({"difference": 0.0}) == math.inf


def test_sequential_stops_at_the_first_look_within_the_target():
    calls = []

    def play(start, n):
        calls.append((start, n))
        return pd.DataFrame({"x": np.arange(start, start + n)})

    rows, done = rp.sequential(10, 100, 0.3, play, lambda f: 10 / len(f))
    assert done == 40 and calls == [(0, 10), (10, 10), (20, 20)] and list(rows["x"]) == list(range(40))
    rows, done = rp.sequential(10, 100, 0.0, play, lambda f: 1.0)
    assert done == 100 and len(rows) == 100


@pytest.mark.parametrize("game", ["hearts2", "two-ten-jack"])
def test_neutral_cards_from_the_game_tables(game):
    if game == "hearts2":
        from analyzer.games.hearts2.study import NEUTRAL

        names = {token(c) for c in range(64) if NEUTRAL >> c & 1}
        assert len(names) == 20 and "QS" not in names and not any(n.endswith("H") for n in names)
    else:
        from analyzer.games.two_ten_jack.study import NEUTRAL, SCORING

        names = {token(c) for c in range(64) if NEUTRAL >> c & 1}
        assert len(names) == 31 and not names & set(SCORING) and not any(n.endswith("H") for n in names)
