"""Ninety-Nine's paired escape-card study (study.py, kernel.first_deals / exchange_chunk): the
exchange is exact, the as-dealt arm is the plain game, both arms agree with an independent
referee round, the choice of the neutral card follows its description, and the table's
intervals stay in their ranges."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer import games as registry
from analyzer.cards import token
from analyzer.games.ninety_nine import study as nn
from test_ninety_nine import legal_after  # the tests' own plain-Python reading of the moves

# one worker: its tests share a module fixture and a kernel that two workers would each compile
pytestmark = pytest.mark.xdist_group("ninety_nine_paired")

SEED = 11
SPEC = registry.get("ninety-nine")
RULES = SPEC.resolve_rules()
ESCAPES = set("K49T")


@pytest.fixture(scope="module")
def played():
    """200 deals: hands, stock, the exchanges chosen and the results of every arm."""
    hands, stock = nn.first_deals(RULES, 200, SEED)
    swaps = nn.choose_exchanges(hands, stock, SEED)
    return hands, stock, swaps, nn.play_exchanges(RULES, swaps, SEED, threads=2)


def test_a_card_exchanged_with_itself_changes_nothing(played):
    hands, stock, swaps, result = played
    same = swaps.copy()
    used = same[:, :, 0] >= 0
    same[used, 1] = same[used, 0]
    again = nn.play_exchanges(RULES, same, SEED, threads=2)
    assert (again[used] == np.repeat(result[:, :1], same.shape[1], axis=1)[used]).all()
    frame = nn.paired_frame(hands, stock, same, again)
    assert len(frame) > 400 and (frame["over_diff"] == 0).all() and (frame["won_diff"] == 0).all()
    # a real exchange does change some games (else the test above could not fail)
    real = nn.paired_frame(hands, stock, swaps, result)
    assert (real["over_diff"] != 0).sum() > 50


def test_the_as_dealt_arm_is_the_plain_heuristic_game(played):
    hands, stock, swaps, result = played
    for i in range(0, 200, 7):
        [events] = api.play("ninety-nine", seed=SEED, index=i)
        deal = next(e for e in events if e["ev"] == "deal")
        assert [sorted(h) for h in deal["hands"]] == [sorted(token(int(c)) for c in h) for h in hands[i]]
        assert sorted(deal["stock"]) == sorted(token(int(c)) for c in stock[i, hands.shape[1] * 3:])
        first_bust = next(e for e in events if e["ev"] == "bust")
        assert result[i, 0, 0] == first_bust["seat"]
        assert result[i, 0, 1] == sum(1 << w for w in events[-1]["winners"])


# ---- an independent referee of one round (rules from RULES.md, the heuristic from its doc) ----

def referee_move(ranks: list[str], total: int) -> tuple[str, int] | None:
    """The heuristic's move (strategies.py's doc): an ordinary card landing highest at most 88,
    else the one landing lowest; with only escapes: K first with another escape held, then 9,
    4, T-10, T+10 (last but K's place when it lands above 88), K. None: no legal move."""
    legal = legal_after(ranks, total)
    if not legal:
        return None
    escapes = sum(r in ESCAPES for r in ranks)

    def score(move: str) -> int:
        new = legal[move]
        if move[0] not in ESCAPES:
            return 2000 + new if new <= 88 else 1000 - new
        if move == "T+10" and new > 88:
            return 0
        return {"9": 500, "4": 400, "T-10": 300, "T+10": 200, "K": 100 + (500 if escapes >= 2 else 0)}[move]

    move = max(legal, key=score)  # ties are J against Q: the same total, the same effect
    return move, legal[move]


def referee_round(hands: list[list[str]], stock: list[str], dealer: int) -> int | None:
    """The seat that goes over in a round of all seats playing the heuristic, the stock drawn
    in the order given; None if the stock runs out first (the referee does not rebuild it)."""
    hands, stock = [list(h) for h in hands], list(stock)
    p = len(hands)
    seat, direction, total = (dealer + 1) % p, 1, 0
    while True:
        chosen = referee_move([c[0] for c in hands[seat]], total)
        if chosen is None:
            return seat
        move, total = chosen
        hands[seat].remove(next(c for c in hands[seat] if c[0] == move[0]))
        if move == "4":
            direction = -direction
        if not stock:
            return None
        hands[seat].append(stock.pop(0))
        seat = (seat + direction) % p


def test_both_arms_agree_with_a_referee_round(played):
    hands, stock, swaps, result = played
    frame = nn.paired_frame(hands, stock, swaps, result)
    checked = 0
    for i in range(0, 200, 3):
        [events] = api.play("ninety-nine", seed=SEED, index=i)
        deal = next(e for e in events if e["ev"] == "deal")
        dealt, order = deal["hands"], deal["stock"]
        if referee_round(dealt, order, deal["dealer"]) != result[i, 0, 0]:
            raise AssertionError(f"deal {i}: as dealt")
        room = 3 * len(dealt)
        for a in np.nonzero(swaps[i, 1:, 0] >= 0)[0]:
            place, other = swaps[i, 1 + a]
            seat = place // 3
            card = token(int(hands[i].reshape(-1)[place]))
            neutral = token(int(hands[i].reshape(-1)[other] if other < room else stock[i, other - room]))
            new_hands = [list(h) for h in dealt]
            new_order = list(order)
            new_hands[seat][new_hands[seat].index(card)] = neutral
            if other < room:
                holder = new_hands[other // 3]
                holder[holder.index(neutral)] = card
            else:
                new_order[new_order.index(neutral)] = card
            over = referee_round(new_hands, new_order, deal["dealer"])
            if over is None:
                continue
            assert over == result[i, 1 + a, 0], (i, card, neutral)
            row = frame[(frame["deal"] == i) & (frame["seat"] == seat) & (frame["card"] == card[0])]
            assert int(over == seat) in set(row["over_without"])
            checked += 1
    assert checked > 100


def test_the_neutral_card_is_chosen_as_described(played):
    hands, stock, swaps, _ = played
    n, players, _ = hands.shape
    room = 3 * players
    for i in range(n):
        flat = hands[i].reshape(-1)
        for place in range(room):
            arm = swaps[i, 1 + place]
            if nn.IS_ESCAPE_CARD[flat[place]] == 0:
                assert (arm == -1).all()
                continue
            seat = place // 3
            # the candidates, listed plainly: non-escape cards outside the seat's hand, in place order
            places = [q for q in range(room) if q // 3 != seat and not nn.IS_ESCAPE_CARD[flat[q]]]
            places += [room + j for j in range(room, stock.shape[1]) if not nn.IS_ESCAPE_CARD[stock[i, j]]]
            u = nn._uniforms(SEED, np.array([i]), np.array([place]))[0]
            assert arm[0] == place and arm[1] == places[int(u * len(places))]
    assert (swaps[:, 0] == 0).all()  # arm 0: as dealt


def test_same_results_whatever_the_blocks_and_batches(played):
    hands, stock, swaps, result = played
    assert (nn.play_exchanges(RULES, swaps, SEED, threads=1) == result).all()
    whole = nn.paired_escape_frame(RULES, 200, SEED)
    parts = pd.concat([nn.paired_escape_frame(RULES, 120, SEED), nn.paired_escape_frame(RULES, 80, SEED, 120)],
                      ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)


def test_paired_tables_stay_in_range(played):
    frame = nn.paired_frame(*played)
    for by in ("card", "escapes"):
        table = nn.paired_table(frame, by)
        for name, low in (("with", 0), ("without", 0), ("won_with", 0), ("won_without", 0), ("difference", -1),
                          ("won_difference", -1)):
            assert (table[name + "_lo"] >= low).all() and (table[name + "_hi"] <= 1).all(), name
            assert (table[name + "_lo"] <= table[name]).all() and (table[name] <= table[name + "_hi"]).all(), name
        # the difference is the difference of the two shares (the same pairs)
        assert np.allclose(table["difference"], table["with"] - table["without"])
    table = nn.paired_table(frame, "card")
    assert set(table["card"]) == ESCAPES and (table["n"] >= table["deals"]).all()
    assert table["n"].sum() == len(frame) == (played[2][:, 1:, 0] >= 0).sum()


def test_escape_findings_follow_the_table():
    from analyzer import report

    table = pd.DataFrame({"card": ["K", "4", "T"], "n": [500, report.MIN_N - 1, 400], "deals": [450, 29, 380],
                          "difference": [-0.2, -0.5, -0.1], "difference_lo": [-0.21, -0.6, -0.11],
                          "difference_hi": [-0.19, -0.4, -0.09]})
    best, worst = nn.escape_findings(table, lambda a, b: (-0.1, -0.11, -0.09) if a == "K" else (0.1, 0.09, 0.11))
    assert "a K" in best and "-0.200 [-0.210, -0.190]" in best and "n = 500" in best  # the 4 is under MIN_N
    assert "most protective" in best and "in 450 deals" in best
    assert "a T" in worst and "-0.100" in worst and "least protective escape card" in worst


def test_deals_are_added_until_the_target_half_width():
    from types import SimpleNamespace

    def sized(target: float) -> list[dict]:
        sizes = SimpleNamespace(deals=100, convergence_target=target, convergence_max=300)
        frame, looks = nn.sized_paired_frame(SimpleNamespace(sizes=sizes, seed=SEED, workers=2), RULES)
        assert frame["deal"].max() < looks[-1]["deals"] and frame["deal"].nunique() > 0.9 * looks[-1]["deals"]
        return looks

    assert [look["deals"] for look in sized(1.0)] == [100]          # wide enough at the first look
    looks = sized(0.0)                                                # never: up to the largest size
    assert [look["deals"] for look in looks] == [100, 200, 300]
    assert looks[0]["half_width"] > looks[-1]["half_width"] > 0
