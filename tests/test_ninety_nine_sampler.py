"""Ninety-Nine's hidden-card sampler against independent exact computations.

One deck, after a rebuild of the stock: a round is played here in plain Python (deal,
random plays, draws, the rebuild), and the seat's posterior over the other hands is
enumerated from the rebuild on, branching over every card another player may have drawn
and keeping the branches in which every card it later played was in its hand. Both the
class sampler (one deck) and the history sampler (what two or more decks use) must match.

Two decks: identical copies make the posterior a question of multisets; the measure is
uniform over the physical shuffles (hypergeometric over codes). A plain-Python forward
dynamic programme over the other hands, with every card read as "a card its holder plays
this round" or "any other card" (exact: the other cards are exchangeable), gives the exact
law of the other hands; the history sampler must match it, and the pooled assumption
(every hidden card equally likely anywhere) must be told apart by the same test."""

from __future__ import annotations

import functools
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
from analyzer.games.ninety_nine.codes import MOVE_NAMES

# one pytest-xdist worker runs this file: the tests that call ``sample_hidden`` from Python
# compile its twin (about 2 s) once, not on both workers at the same time
pytestmark = pytest.mark.xdist_group("ninety_nine_sampler")

SPEC = api.registry.get("ninety-nine")
OLD: set[int] = set()
FOUR = 2  # rank of a 4: it reverses the direction


def lowest_play(rnd: random.Random, hand: list[int], total: int) -> tuple[int, int]:
    """(card, total after it): the legal play of ``hand`` that leaves the pile total lowest
    (a random one of those), so that a round lasts long enough to rebuild its stock. The
    card values of docs/rules.md, restated here as the test's own referee: 4 and 9 add 0, a
    ten adds 10 or takes 10 away (from 10 up), an ace adds 1 or 11, a king makes the total
    99, a jack or a queen adds 10, the others their face; never past 99."""
    options = []
    for card in hand:
        rank = card % 13  # 0 = two ... 8 = ten, 9 = jack, 10 = queen, 11 = king, 12 = ace
        values = {8: [10] + ([-10] if total >= 10 else []), 12: [1, 11], 11: [99 - total],
                  FOUR: [0], 7: [0]}.get(rank, [10 if rank in (9, 10) else rank + 2])
        options += [(total + v, card) for v in values if total + v <= 99]
    if not options:
        raise RuntimeError("the generated round went over: take another seed")
    low = min(after for after, _ in options)
    after, card = rnd.choice(sorted(o for o in options if o[0] == low))
    return card, after


#: ranks of the jacks, queens and eights (0 = two): the cards a long round must keep in hand
HIGH_RANKS = (6, 9, 10)


def play_round(players: int, dealer: int, seed: int, stop):
    """A round with one deck that rebuilds its stock: each player plays the card of its hand
    that leaves the total lowest (``lowest_play``), and the jacks, queens and eights are
    drawn last (a shuffle like any other: the sampler's law does not depend on it). A round
    reaches its rebuild only when the cards played before it add up to 99 or less: of the
    52 cards' values, 168 net (the four tens taking 10 away), 52 - 3 * players are played,
    so two players never get there, and four only while most of those twelve cards stay in
    the hands. Returns the plays [(seat, card)], the draws [(seat, card, index of the play
    before it)], the index of each rebuild's play, the hands, the stock and the pile total
    when ``stop`` says so."""
    rnd = random.Random(seed)
    high = [c for c in range(52) if c % 13 in HIGH_RANKS]
    deck = [c for c in range(52) if c % 13 not in HIGH_RANKS]
    rnd.shuffle(high)
    rnd.shuffle(deck)
    deck = high + deck  # dealt and drawn from the end
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    s = dealer
    for _ in range(3):
        for _ in range(players):
            s = (s + 1) % players
            hands[s].append(deck.pop())
    stock, pile, plays, draws, rebuilds = deck, [], [], [], []
    who, direction, total = (dealer + 1) % players, 1, 0
    while True:
        card, total = lowest_play(rnd, hands[who], total)
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
            return plays, draws, rebuilds, hands, stock, total


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


@functools.lru_cache(maxsize=None)  # (read only) two tests take the same scenario
def scenario(players: int, seed: int, after: int):
    """A round stopped when seat 0 is to move ``after`` plays after the first rebuild."""
    def stop(plays, rebuilds, who):
        return rebuilds and len(plays) - 1 - rebuilds[0] >= after and who == 0

    plays, draws, rebuilds, hands, stock, total = play_round(players, players - 1, seed, stop)
    lowest_play(random.Random(0), hands[0], total)  # seat 0 can play (a decision), or this raises
    rebuild = rebuilds[0]
    # seat 0's hand at the rebuild, rebuilt from the true play: its hand now, minus what it
    # drew since, plus what it played since
    hand0 = set(hands[0]) - {c for s, c, i in draws if s == 0 and i >= rebuild}
    hand0 |= {c for i, (s, c) in enumerate(plays) if s == 0 and i > rebuild}
    exact = brute_force(players, 0, plays, draws, rebuild, sorted(hand0))
    position = {"seat": 0, "players": players, "dealer": players - 1, "hand": [token(c) for c in hands[0]],
                "history": [token(c) for _, c in plays], "total": total, "rules": {"decks": 1}}
    truth = tuple(frozenset(hands[s]) for s in range(1, players))
    return position, exact, truth


def draws(position, n, method=K.SAMPLER_OWN, rules=None):
    """n samples drawn by the kernel (kernel.sample_hidden): the hands int64[n, P, 3], the
    stock int64[n, stock size], and the seat."""
    rules = SPEC.resolve_rules(rules or position.get("rules", {}), position["players"])
    params, ws, seat, _, _ = SPEC.load(rules, position)
    facts = K.scalars(ws)
    hands = np.zeros((n, position["players"], 3), dtype=np.int64)
    stock = np.zeros((n, facts["stock_end"] - facts["stock_top"]), dtype=np.int64)
    ok = K.sample_hidden(ws, seat, np.uint64(9), n, hands, stock, method)
    assert ok == n
    assert (hands[:, seat] == ws.hands[seat]).all()  # the seat's own hand never moves
    return hands, stock, seat


def sample(position, n, method=K.SAMPLER_OWN, rules=None):
    """The other hands of n samples (frozensets per seat), drawn by the kernel."""
    hands, _, seat = draws(position, n, method, rules)
    got: Counter = Counter()
    for h in hands:
        got[tuple(frozenset(int(c) for c in h[s]) for s in range(position["players"]) if s != seat)] += 1
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


#: a legal round of four players with one deck, stopped when seat 0 is first to move after
#: the rebuild (two plays after it): the other hands hold 8 cards nobody saw and 2 of the new
#: stock, 327,600 joint outcomes
REBUILT = {"players": 4, "seed": 35, "after": 0}


@pytest.mark.parametrize("method", [K.SAMPLER_OWN, K.SAMPLER_HISTORY])
def test_four_players_after_a_rebuild_match_brute_force(method):
    global OLD
    position, exact, truth = scenario(**REBUILT)
    # the cards nobody saw before the rebuild (never played): in the old hands only
    OLD = set(range(52)) - {parse_card(c) for c in position["history"]} - {parse_card(c) for c in position["hand"]}
    assert truth in exact
    n = 30000
    got = sample(position, n, method)
    assert set(got) <= set(exact)
    # the joint of the three hands has too many cells for n samples: test it through each
    # hand, through the cards seen before the rebuild that each one holds, and each card's place
    for key in (lambda k: k[0], lambda k: k[1], lambda k: k[2], lambda k: tuple(frozenset(h & OLD) for h in k)):
        value, df = chi2(got, exact, n, key)
        assert df > 20 and value < limit(df), (value, df)
    exact_places, got_places = places(exact), places(got)
    for card in range(52):
        value, df = chi2(got_places[card], exact_places[card], n)
        assert value < limit(df), (token(card), value, df)


def places(law: Counter) -> dict[int, Counter]:
    """Each card's place in ``law`` (outcomes: the other hands as frozensets): the weight of
    each hand holding it, ``-1`` for none of them (the stock), in one pass over the law."""
    held: dict[int, Counter] = {card: Counter() for card in range(52)}
    for hands, weight in law.items():
        for place, hand in enumerate(hands):
            for card in hand:
                held[card][place] += weight
    total = sum(law.values())
    for card in range(52):
        held[card][-1] = total - sum(held[card].values())
    return held


def test_without_history_the_old_assumption_is_far_off():
    position, exact, _ = scenario(**REBUILT)
    _, _, _, _, replay = SPEC.load(SPEC.resolve_rules(position["rules"], 4), position)
    old = {k: v for k, v in position.items() if k != "history"}
    old["pile"] = [token(c) for c in replay["pile"]]
    n = 5000
    got = sample(old, n)
    missing = sum(c for k, c in got.items() if k not in exact) / n
    assert missing > 0.5  # most old-format samples give the others cards they cannot hold


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
    # every sample deals each unseen card once, and each slot a card of the stock the slot
    # was drawn from (the classes, computed here from the history: the last stock a card went into)
    last, pile, left, epoch = {}, [], 52 - 30, 0
    for c in (parse_card(t) for t in position["history"]):
        pile.append(c)
        if left == 0:
            epoch += 1
            for x in pile[:-1]:
                last[x] = epoch
            left, pile = len(pile) - 1, pile[-1:]
        left -= 1
    assert epoch == replay["epoch"]
    unseen = set(range(52)) - set(int(c) for c in ws.hands[seat]) - set(replay["pile"])
    hands, stock, _ = draws(position, 50, rules=position["rules"])
    for h, st in zip(hands, stock):
        held = [int(c) for s in range(10) if s != seat for c in h[s]]
        assert sorted(held + [int(c) for c in st]) == sorted(unseen)
        for s in range(10):
            if s != seat:
                for c, label in zip(h[s], ws.slab[s]):
                    assert last.get(int(c), 0) == label
        assert all(last.get(int(c), 0) == epoch for c in st)
    # an old position file (no history) still loads
    old = {k: v for k, v in position.items() if k != "history"}
    assert SPEC.load(r, old)[4] is None


@pytest.mark.parametrize("change,message", [
    ({"history": "5C 5C"}, "still on the pile"),
    ({"history": "5C", "seat": 0}, "is to move, not seat 0"),
    ({"history": "5C 6C", "pile": "5C 7C"}, "pile: the cards since the last rebuild"),
    # the king makes 99: the queen after it would pass 99, its player went over instead
    ({"history": "KC QC"}, r"QC \(play 2\) passes 99 from a total of 99"),
    # the ace counts 1 or 11, the ten then +10 (or -10 from 11): 1, 11 or 21, never 5
    ({"history": "AC TD", "total": 5}, "the history leaves 1, 11 or 21, not 5"),
    ({"history": "AC TD"}, "the history leaves 1, 11 or 21 .*give the total"),
    ({"history": "AC TD", "total": 5, "dealer": None}, "the history leaves 1, 11 or 21, not 5"),
])
def test_bad_histories_are_refused(change, message):
    position = {"seat": 2, "players": 3, "dealer": 2, "hand": "KS 4D 7D", **change}
    position = {k: v for k, v in position.items() if v is not None}  # "dealer": None: every dealer tried
    with pytest.raises(AnalyzerError, match=message):
        SPEC.load(SPEC.resolve_rules({}, 3), position)


@pytest.mark.parametrize("history,total,found,legal", [
    ("KC", None, 99, ["4", "K"]),            # after a king only the escapes: not the 7
    ("7C", None, 7, ["4", "7", "K"]),
    ("AC TD", 21, 21, ["4", "7", "K"]),       # a total the history can leave, given
    ("AC TD TH", 11, 11, ["4", "7", "K"]),
    ("9C KH TS", None, 89, ["4", "7", "K"]),  # from 99 the ten can only take 10 away
])
def test_the_total_is_the_one_the_history_leaves(history, total, found, legal):
    # no four in these histories: seat 0 is to move after k plays when the dealer is -(k + 1)
    position = {"seat": 0, "players": 3, "dealer": -(len(history.split()) + 1) % 3, "hand": "KS 4D 7D",
                "history": history, **({} if total is None else {"total": total})}
    _, ws, _, codes, replay = SPEC.load(SPEC.resolve_rules({}, 3), position)
    assert replay["total"] == found and K.scalars(ws)["total"] == found
    assert [MOVE_NAMES[m] for m in codes] == legal


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


# ---- two decks: the exact law by a forward dynamic programme ---------------------------------------

OTHER_CARD = -1  # a symbol: "a card no other seat plays this round"


def play_round_two_decks(players: int, dealer: int, seed: int, plays_wanted: int):
    """A round with two decks, stopped when seat 0 is to move after ``plays_wanted`` plays
    (before any rebuild): each player plays the card of its hand that leaves the total lowest
    (``lowest_play``). Returns the plays, the hands and the pile total."""
    rnd = random.Random(seed)
    deck = [c for _ in range(2) for c in range(52)]
    rnd.shuffle(deck)
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    s = dealer
    for _ in range(3):
        for _ in range(players):
            s = (s + 1) % players
            hands[s].append(deck.pop())
    plays: list[tuple[int, int]] = []
    who, direction, total = (dealer + 1) % players, 1, 0
    while not (len(plays) >= plays_wanted and who == 0):
        card, total = lowest_play(rnd, hands[who], total)
        hands[who].remove(card)
        plays.append((who, card))
        if card % 13 == FOUR:
            direction = -direction
        hands[who].append(deck.pop())
        who = (who + direction) % players
    return plays, hands, total


def exact_two_decks(players: int, plays, hand):
    """The exact law, for seat 0, of the other hands as sorted tuples of symbols (a card some
    other seat plays this round, or OTHER_CARD), before any rebuild.

    The deal and every draw of another seat take a card uniformly from what is left of the
    two decks less the seat's own cards (its plays and hand: with one stock their order does
    not matter to the others); a play keeps only the states in which its player holds the
    card. Cards nobody else plays are exchangeable, so one symbol stands for them all.
    Returns (law, pool Counter, relevant codes)."""
    others = list(range(1, players))
    pool = Counter({c: 2 for c in range(52)})
    pool.subtract(Counter(c for s, c in plays if s == 0))
    pool.subtract(Counter(hand))
    relevant = sorted({c for s, c in plays if s != 0})
    size = {c: pool[c] for c in relevant}
    size[OTHER_CARD] = sum(v for c, v in pool.items() if c not in size)
    played: Counter = Counter()
    states: dict[tuple, float] = {tuple(() for _ in others): 1.0}

    def draw(states, qi):
        out: dict[tuple, float] = {}
        for st, w in states.items():
            used = Counter(played)
            for h in st:
                used.update(h)
            left_total = sum(size.values()) - sum(used.values())
            for sym, n in size.items():
                left = n - used[sym]
                if left > 0:
                    new = list(st)
                    new[qi] = tuple(sorted(st[qi] + (sym,)))
                    out[tuple(new)] = out.get(tuple(new), 0.0) + w * left / left_total
        return out

    for qi in range(len(others)):
        for _ in range(3):
            states = draw(states, qi)
    for s, c in plays:
        if s == 0:
            continue
        qi = others.index(s)
        kept: dict[tuple, float] = {}
        for st, w in states.items():
            if c in st[qi]:
                h = list(st[qi])
                h.remove(c)
                new = list(st)
                new[qi] = tuple(h)
                kept[tuple(new)] = kept.get(tuple(new), 0.0) + w
        states = kept
        played[c] += 1
        states = draw(states, qi)
    z = sum(states.values())
    return {k: v / z for k, v in states.items()}, pool, relevant


def two_deck_position(players: int, plays, hands, total: int):
    return {"seat": 0, "players": players, "dealer": players - 1, "hand": [token(c) for c in hands[0]],
            "history": [token(c) for _, c in plays], "total": total, "rules": {"decks": 2}}


def symbols(hands, players: int, relevant) -> Counter:
    rel = set(relevant)
    got: Counter = Counter()
    for h in hands:
        got[tuple(tuple(sorted(int(c) if int(c) in rel else OTHER_CARD for c in h[s])) for s in range(1, players))] += 1
    return got


def test_two_decks_two_players_match_the_exact_law():
    plays, hands, total = play_round_two_decks(2, 1, seed=3, plays_wanted=30)
    exact, pool, relevant = exact_two_decks(2, plays, hands[0])
    position = two_deck_position(2, plays, hands, total)
    n = 40000
    drawn, stock, _ = draws(position, n, rules={"decks": 2})
    got = symbols(drawn, 2, relevant)
    value, df = chi2(got, exact, n)
    assert df > 30 and value < limit(df), (value, df)
    # the test tells the pooled assumption apart: under its law (the other hand a uniform draw
    # of the hidden cards) the expected chi-square, df + n * sum (pooled - exact)^2 / exact,
    # is three times the limit
    hidden = Counter(pool)
    hidden.subtract(Counter(c for s, c in plays if s != 0))
    sizes = {c: hidden[c] for c in relevant}
    sizes[OTHER_CARD] = sum(v for c, v in hidden.items() if c not in sizes)
    whole = math.comb(sum(sizes.values()), 3)
    pooled = {}
    for combo in itertools.combinations_with_replacement(sorted(sizes), 3):
        p = math.prod(math.comb(sizes[k], m) for k, m in Counter(combo).items()) / whole
        if p:
            pooled[(tuple(sorted(combo)),)] = p
    excess = n * sum((pooled.get(k, 0.0) - p) ** 2 / p for k, p in exact.items() if n * p >= 5)
    assert df + excess > 3 * limit(df), (df, excess)
    # the cards nobody else plays are dealt in proportion to their copies left
    rel = set(relevant)
    held = Counter(int(c) for h in drawn for c in h[1] if int(c) not in rel)
    others_total = sum(held.values())
    pool_other = {c: v for c, v in pool.items() if c not in rel and v > 0}
    n_other = sum(pool_other.values())
    value = sum((held[c] - others_total * v / n_other) ** 2 / (others_total * v / n_other) for c, v in pool_other.items())
    assert value < limit(len(pool_other) - 1), value
    # and every sample deals exactly the hidden cards
    for h, st in zip(drawn[:200], stock[:200]):
        assert Counter(int(c) for c in list(h[1]) + list(st)) == +hidden


def test_two_decks_three_players_match_the_exact_law():
    plays, hands, total = play_round_two_decks(3, 2, seed=1, plays_wanted=12)
    exact, _, relevant = exact_two_decks(3, plays, hands[0])
    position = two_deck_position(3, plays, hands, total)
    n = 40000
    drawn, _, _ = draws(position, n, rules={"decks": 2})
    got = symbols(drawn, 3, relevant)
    for key in (lambda k: k, lambda k: k[0], lambda k: k[1]):
        value, df = chi2(got, exact, n, key)
        assert value < limit(df), (value, df)


def test_two_decks_impossible_history_is_refused():
    # seat 1 plays the 5C a third time while both copies lie on the pile: the engine refuses it
    position = {"seat": 0, "players": 2, "dealer": 0, "hand": "KS 4D 7C", "history": "5C 2D 5C 3D 5C",
                "rules": {"decks": 2}}
    with pytest.raises(AnalyzerError, match="still on the pile"):
        SPEC.load(SPEC.resolve_rules({"decks": 2}, 2), position)
