"""Ninety-Nine's hidden-card sampler after a rebuild of the stock, against an independent
brute force: a round is played here in plain Python (deal, random plays, draws, the
rebuild), and the seat's posterior over the other hands is enumerated from the rebuild on,
branching over every card another player may have drawn and keeping the branches in
which every card it later played was in its hand."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from analyzer import api
from analyzer.cards import parse_card, token
from analyzer.errors import AnalyzerError
from analyzer.games.ninety_nine import kernel as K
from analyzer.rng import DEAL, seed_stream

SPEC = api.registry.get("ninety-nine")
OLD: set[int] = set()
FOUR = 2  # rank of a 4: it reverses the direction


def play_round(players: int, dealer: int, seed: int, stop):
    """A round with one deck: each player plays a random card of its hand. Returns the
    plays [(seat, card)], the draws [(seat, card, index of the play before it)], the
    index of each rebuild's play, the hands and the stock when ``stop`` says so."""
    rnd = random.Random(seed)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    s = dealer
    for _ in range(3):
        for _ in range(players):
            s = (s + 1) % players
            hands[s].append(deck.pop())
    stock, pile, plays, draws, rebuilds = deck, [], [], [], []
    who, direction = (dealer + 1) % players, 1
    while True:
        card = rnd.choice(hands[who])
        hands[who].remove(card)
        pile.append(card)
        plays.append((who, card))
        if card % 13 == FOUR:
            direction = -direction
        if not stock:
            stock, pile = pile[:-1], pile[-1:]
            rnd.shuffle(stock)
            rebuilds.append(len(plays) - 1)
        drawn = stock.pop()
        hands[who].append(drawn)
        draws.append((who, drawn, len(plays) - 1))
        who = (who + direction) % players
        if stop(plays, rebuilds, who):
            return plays, draws, rebuilds, hands, stock, pile


def brute_force(players: int, seat: int, plays, draws, rebuild: int, hands_at_rebuild_of_seat: list[int]):
    """Exact joint distribution of the other hands (frozensets) for ``seat``.

    At the rebuild the stock is empty, so the cards the seat has not seen (not in its
    hand, not on the pile) are exactly the other hands: ``unseen`` is split among them.
    Before the first rebuild every unseen card is equally likely anywhere (the deal is a
    uniform shuffle and a play pins only the card played), so every split with the right
    sizes has the same weight. From the rebuild on every draw of another player branches
    over the cards still in the stock (each with the same chance); the seat's own draws
    are what it saw; a branch ends when a player plays a card it does not hold.
    """
    pile_at = [c for _, c in plays[:rebuild + 1]]
    # the pile at the rebuild: everything played since the deal (first rebuild)
    new_stock = set(pile_at[:-1])
    unseen = [c for c in range(52) if c not in set(hands_at_rebuild_of_seat) | set(pile_at)]
    others = [s for s in range(players) if s != seat]
    triggering = plays[rebuild][0]
    sizes = {s: 3 - (s == triggering) for s in others}
    out: Counter = Counter()

    def walk(hands, stock, k, d):
        # k: next play index after the rebuild; d: next draw index
        while d < len(draws) and draws[d][2] < k:
            who, card, _ = draws[d]
            if who == seat:
                if card not in stock:
                    return
                stock = stock - {card}
            else:
                for c in sorted(stock):
                    walk({**hands, who: hands[who] | {c}}, stock - {c}, k, d + 1)
                return
            d += 1
        if k == len(plays):
            out[tuple(hands[s] for s in others)] += 1
            return
        who, card = plays[k]
        if who != seat:
            if card not in hands[who]:
                return
            hands = {**hands, who: hands[who] - {card}}
        walk(hands, stock, k + 1, d)

    def splits(i, left, chosen):
        if i == len(others):
            walk(chosen, frozenset(new_stock), rebuild + 1, next(j for j, dr in enumerate(draws) if dr[2] == rebuild))
            return
        for combo in itertools.combinations(left, sizes[others[i]]):
            splits(i + 1, [c for c in left if c not in combo], {**chosen, others[i]: frozenset(combo)})

    splits(0, unseen, {})
    return out


def scenario(players: int, seed: int, after: int):
    """A round stopped when seat 0 is to move ``after`` plays after the first rebuild."""
    def stop(plays, rebuilds, who):
        return rebuilds and len(plays) - 1 - rebuilds[0] >= after and who == 0

    plays, draws, rebuilds, hands, stock, pile = play_round(players, players - 1, seed, stop)
    rebuild = rebuilds[0]
    # seat 0's hand at the rebuild, rebuilt from the true play: its hand now, minus what it
    # drew since, plus what it played since
    hand0 = set(hands[0]) - {c for s, c, i in draws if s == 0 and i >= rebuild}
    hand0 |= {c for i, (s, c) in enumerate(plays) if s == 0 and i > rebuild}
    exact = brute_force(players, 0, plays, draws, rebuild, sorted(hand0))
    position = {"seat": 0, "players": players, "dealer": players - 1, "hand": [token(c) for c in hands[0]],
                "history": [token(c) for _, c in plays], "total": 0}
    truth = tuple(frozenset(hands[s]) for s in range(1, players))
    return position, exact, truth


def sample(position, n):
    """The other hands of n samples (frozensets per seat), drawn by the kernel."""
    rules = SPEC.resolve_rules({}, position["players"])
    params, ws, seat, _, _ = SPEC.load(rules, position)
    work = K.workspace(params)
    rng = np.zeros(4, dtype=np.uint64)
    got: Counter = Counter()
    for i in range(n):
        K.copy_bundle(ws, work)
        seed_stream(rng, np.uint64(9), i, DEAL)
        K.resample_hidden(work, seat, rng)
        assert sorted(work[0][seat]) == sorted(ws[0][seat])
        got[tuple(frozenset(int(c) for c in work[0][s]) for s in range(position["players"]) if s != seat)] += 1
    return got


def chi2(got: Counter, exact: Counter, n: int, key=lambda k: k) -> tuple[float, int]:
    """Chi-square of ``got`` against ``exact`` after mapping outcomes by ``key`` (cells under
    5 expected merged)."""
    e_map: Counter = Counter()
    g_map: Counter = Counter()
    total = sum(exact.values())
    for k, w in exact.items():
        e_map[key(k)] += n * w / total
    for k, c in got.items():
        g_map[key(k)] += c
    value, df, small_e, small_o = 0.0, -1, 0.0, 0
    for k, e in e_map.items():
        if e < 5:
            small_e, small_o = small_e + e, small_o + g_map[k]
            continue
        value += (g_map[k] - e) ** 2 / e
        df += 1
    if small_e:
        value += (small_o - small_e) ** 2 / small_e
        df += 1
    assert set(g_map) <= set(e_map)
    return value, df


def limit(df: int) -> float:
    return df + 3.1 * math.sqrt(2 * df) + 10


def test_two_players_after_a_rebuild_match_brute_force():
    position, exact, truth = scenario(2, seed=3, after=4)
    assert truth in exact
    # the stock was rebuilt: the history says so, and the opponent's old cards are known
    n = 30000
    got = sample(position, n)
    assert set(got) <= set(exact)
    value, df = chi2(got, exact, n)
    assert df > 50 and value < limit(df), (value, df)


def test_three_players_after_a_rebuild_match_brute_force():
    global OLD
    position, exact, truth = scenario(3, seed=8, after=2)
    # the cards nobody saw before the rebuild (never played): in the old hands only
    OLD = set(range(52)) - {parse_card(c) for c in position["history"]} - {parse_card(c) for c in position["hand"]}
    assert truth in exact
    n = 30000
    got = sample(position, n)
    assert set(got) <= set(exact)
    # the joint of both hands has too many cells for n samples: test it through each hand,
    # through the cards seen before the rebuild that each one holds, and each card's place
    for key in (lambda k: k[0], lambda k: k[1], lambda k: (frozenset(k[0] & OLD), frozenset(k[1] & OLD))):
        value, df = chi2(got, exact, n, key)
        assert value < limit(df), (value, df)
    for card in range(52):
        value, df = chi2(got, exact, n, lambda k: (card in k[0], card in k[1]))
        assert value < limit(df), (token(card), value, df)


def test_without_history_the_old_assumption_is_far_off():
    position, exact, _ = scenario(2, seed=3, after=4)
    params, ws, seat, _, replay = SPEC.load(SPEC.resolve_rules({}, 2), position)
    old = {k: v for k, v in position.items() if k != "history"}
    old["pile"] = [token(c) for c in replay["pile"]]
    n = 5000
    got = sample(old, n)
    missing = sum(c for k, c in got.items() if k not in exact) / n
    assert missing > 0.5  # most old-format samples give the opponent cards it cannot hold


def test_record_positions_carry_the_history():
    # ten players with one deck: the stock of 22 cards is rebuilt often
    rules = {"decks": 1}
    for index in range(40):
        [events] = api.play("ninety-nine", seed=3, index=index, seats=["heuristic"] * 10, players=10, rules=rules)
        deals = [i for i, e in enumerate(events) if e["ev"] == "deal"]
        rebuilt = [i for i, e in enumerate(events) if e["ev"] == "reshuffle"]
        decisions = [i for i, e in enumerate(events) if e["ev"] == "decide"]
        after = [k + 1 for k, i in enumerate(decisions) if rebuilt and i > rebuilt[0]
                 and not any(rebuilt[0] < d < i for d in deals)]
        if after:
            break
    at = after[0]
    position = SPEC.position_from_record(events, at)
    start = max(i for i in deals if i < decisions[at - 1])
    assert position["history"] == [e["card"] for e in events[start:decisions[at - 1]] if e["ev"] == "decide"]
    r = SPEC.resolve_rules(position["rules"], 10)
    params, ws, seat, legal, replay = SPEC.load(r, position)
    assert replay["epoch"] >= 1 and [token(c) for c in replay["pile"]] == position["pile"]
    # the true hidden cards are one of the deals the sampler can give: each class holds
    # the cards that the stock it names leaves, and the classes fill every place
    assert sorted(replay["classes"][replay["epoch"]]) != []
    rng = np.zeros(4, dtype=np.uint64)
    work = K.workspace(params)
    for i in range(50):
        K.copy_bundle(ws, work)
        seed_stream(rng, np.uint64(1), i, DEAL)
        K.resample_hidden(work, seat, rng)
        for q, labels in replay["labels"].items():
            for c, j in zip(work[0][q], work[13][q]):
                assert int(c) in replay["classes"][int(j)]
    # an old position file (no history) still loads
    old = {k: v for k, v in position.items() if k != "history"}
    assert SPEC.load(r, old)[4] is None


@pytest.mark.parametrize("change,message", [
    ({"history": "5C 5C"}, "still on the pile"),
    ({"history": "5C", "seat": 0}, "is to move, not seat 0"),
    ({"history": "5C 6C", "pile": "5C 7C"}, "pile: the cards since the last rebuild"),
])
def test_bad_histories_are_refused(change, message):
    position = {"seat": 2, "players": 3, "dealer": 2, "hand": "KS 4D 7D", **change}
    with pytest.raises(AnalyzerError, match=message):
        SPEC.load(SPEC.resolve_rules({}, 3), position)


def test_jack_and_queen_are_one_group_with_effect_blind_rollouts():
    position = {"seat": 0, "players": 3, "hand": "JS QD 5C", "total": 40}
    strat = np.zeros((3, 4), dtype=np.int64)
    strat[:, 0] = 1  # heuristic
    ev = SPEC.evaluation(SPEC.resolve_rules({}, 3), position, strat)
    assert ev.lower_is_better
    j, q = ev.names.index("J"), ev.names.index("Q")
    assert ev.groups == [[j, q]]
    result = ev.run(4, 0, np.array(ev.options, dtype=np.int64), 3000, 1)
    assert (result[:, j] == result[:, q]).all()  # every sample ends alike
    strat[1, 0] = 0  # random tells them apart
    assert SPEC.evaluation(SPEC.resolve_rules({}, 3), position, strat).groups is None
