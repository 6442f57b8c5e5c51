"""Rare edge cases of docs/rules.md, each met in a chosen recorded game and checked there.

Random playouts reach some rules seldom or never (a Twenty-Two game ended by the 0-card
safeguard with a shared win, a Ninety-Nine dealer knocked out, Hearts' first lead when 2C
is dead, a Pitch moon made at a score of exactly 0, ...). Each test below plays the few
games (seed, index, seats, rules) that were found to contain its case, checks the case
against the rule text with plain Python written here (nothing of the game packages is
imported), and insists the case really occurred, so the check is never vacuous.

How often each case turns up in 2,000 random games (every seat ``random``, default rules,
seed 2024), to show why chosen games are needed; a 0 is a case that default random play
never reaches:

===================================================  ================================
case                                                 in 2,000 random games
===================================================  ================================
Twenty-Two: the 0-card safeguard ends the game       0 (4 players, target 22)
Twenty-Two: a hand of one card (no ordinary trick)   0
Twenty-Two: the last hand leaves nobody in           80 games (23 shared wins)
Twenty-Two: tied final trick, its leader no taker    880 of 18,492 hands
Twenty-Two: discard with an empty stock (only "")    12,825 decisions
Ninety-Nine: stock rebuilt                           0 (3 players, 1 deck)
Ninety-Nine: a deal after the dealer went out        650 of 31,434 rounds
Ninety-Nine: T-10 legal at a total of exactly 10     2,507 decisions
Hearts: 2C dead, 4C leads / 2C and 4C dead, 6C       1,342 / 58 of 18,871 hands
Hearts: a moon with QS dead                          195 hands
Hearts: a lead of QS forced (hearts and QS held)     283 leads
Hearts: equal scores at or over the target           6 hands
Two-Ten-Jack: both at the target, equal scores       0 (impossible at target 31)
Two-Ten-Jack: both at the target, unequal            3 games
Pitch: the stuck dealer                              6 of 3,004 hands
Pitch: moon made above 0 / at exactly 0 / below 0    15 / 115 / 23 hands
Pitch: the pitcher holds no trump after the refill   2 of 3,004 hands
Pitch: both teams past the target in one round       0 (heuristic seats reach it)
===================================================  ================================
"""

from __future__ import annotations

import itertools
from collections import Counter

from analyzer import api

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def play(game: str, seed: int, index: int, seats: list[str], rules: dict | None = None,
         players: int | None = None) -> list[dict]:
    (events,) = api.play(game, seed=seed, index=index, seats=seats, rules=rules, players=players)
    return events


def next_in(seat: int, active: list[bool], step: int = 1) -> int:
    """The next seat from ``seat`` in direction ``step`` whose player is still in."""
    p = len(active)
    for k in range(1, p + 1):
        s = (seat + step * k) % p
        if active[s]:
            return s
    raise AssertionError("nobody in")


# ---- Twenty-Two (docs/rules.md section 1) -------------------------------------------------

VALUE22 = dict(zip(RANKS, [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]))


def t22_hands(events: list[dict]) -> list[list[dict]]:
    """The events of each hand, from its ``deal`` to its ``hand_end``."""
    hands, cur = [], None
    for e in events:
        if e["ev"] == "deal":
            cur = [e]
        elif cur is not None:
            cur.append(e)
            if e["ev"] == "hand_end":
                hands.append(cur)
                cur = None
    return hands


def t22_check(events: list[dict]) -> Counter:
    """Final tricks, deck, next hand's dealer and size, who starts a hand, the discard cap,
    the end of the game; returns the rare cases met."""
    met: Counter = Counter()
    head = events[0]
    players, target = head["players"], head["rules"]["target"]
    active = [True] * players
    deck = 52
    scores = [0] * players
    expect_dealer = expect_size = None
    for hand in t22_hands(events):
        deal = hand[0]
        nact = sum(active)
        if expect_dealer is not None:
            assert deal["dealer"] == expect_dealer, "the loser of the last hand deals"
            assert deal["size"] == min(expect_size, deck // nact), "size of the card played, or a share of the deck"
            if deal["size"] < expect_size:
                met["short deck"] += 1
            if not active[deal["dealer"]]:
                met["a player who is out deals"] += 1
        size = deal["size"]
        left = next_in(deal["dealer"], active)
        decisions = [e for e in hand if e["ev"] == "decide"]
        # discards: from left of the dealer, each at most as many cards as the stock holds
        stock = len(deal["stock"])
        assert stock == deck - size * nact
        discards = [e for e in decisions if e["kind"] == "discard"]
        assert discards[0]["seat"] == left
        for e in discards:
            ranks = Counter(c[0] for c in deal["hands"][e["seat"]])
            keys = sorted(ranks, key=RANKS.index)
            legal = {"".join(r * n for r, n in zip(keys, counts))
                     for counts in itertools.product(*(range(ranks[r] + 1) for r in keys)) if sum(counts) <= stock}
            assert set(e["legal"]) == legal, (e, stock)
            if stock < size:
                met["discard capped by the stock"] += 1
            if stock == 0:
                assert e["legal"] == [""]
                met["discard with an empty stock"] += 1
            stock -= len(e["move"])
        final = next(e for e in hand if e["ev"] == "final")
        if size == 1:  # no ordinary trick: the player left of the dealer leads the final trick
            assert not [e for e in decisions if e["kind"] == "lead"]
            assert final["plays"][0][0] == left
            met["one-card hand"] += 1
        else:
            assert [e for e in decisions if e["kind"] == "lead"][0]["seat"] == left
        # the final trick: every highest card takes it and scores its value
        top = max(rank(c) for _, c in final["plays"])
        takers = [s for s, c in final["plays"] if rank(c) == top]
        assert final["takers"] == takers
        value = VALUE22[RANKS[top]]
        end = hand[-1]
        assert end["points"] == [value if s in takers else 0 for s in range(players)]
        scores = [a + b for a, b in zip(scores, end["points"])]
        assert end["scores"] == scores
        if len(takers) > 1 and final["plays"][0][0] not in takers:
            met["tied final trick, its leader not a taker"] += 1
        deck -= len(takers)  # the scored cards leave the deck
        was_in = [s for s in range(players) if active[s]]
        out = [s for s in was_in if scores[s] >= target]
        assert end["out"] == out
        for s in out:
            active[s] = False
        expect_dealer, expect_size = takers[0], value  # the first taker in play order deals
    last = events[-1]
    assert last["ev"] == "game_end" and last["scores"] == scores
    nact = sum(active)
    if nact == 1:
        assert last["winners"] == [active.index(True)]
    elif nact == 0:
        low = min(scores[s] for s in was_in)
        assert last["winners"] == [s for s in was_in if scores[s] == low]
        met["the last hand leaves nobody in"] += 1
    else:  # the safeguard: the next deal would give 0 cards each
        assert min(expect_size, deck // nact) == 0
        low = min(scores[s] for s in range(players) if active[s])
        assert last["winners"] == [s for s in range(players) if active[s] and scores[s] == low]
        met["safeguard"] += 1
        if len(last["winners"]) > 1:
            met["safeguard, shared win"] += 1
    if len(last["winners"]) > 1:
        met["shared win"] += 1
    return met


T22_GAMES = [  # (seed, index, players, seats, rules): found by scanning random games
    (5, 75, 2, ["random"] * 2, {"target": 1000}),  # the safeguard ends it, 190 : 190 (and one-card hands)
    (3, 67, 3, ["random"] * 3, {"target": 9}),     # the last hand leaves nobody in
    (3, 34, 3, ["random"] * 3, {"target": 9}),     # a player who is out deals
    (3, 46, 3, ["random"] * 3, {"target": 9}),     # tied final trick won by two followers
    (3, 91, 4, ["random"] * 4, {}),                # discards capped by a short or empty stock
]


def test_twenty_two_rare_cases():
    met: Counter = Counter()
    for seed, index, players, seats, rules in T22_GAMES:
        met += t22_check(play("twenty-two", seed, index, seats, rules, players))
    for case in ("safeguard, shared win", "short deck", "one-card hand", "a player who is out deals",
                 "tied final trick, its leader not a taker", "discard with an empty stock",
                 "discard capped by the stock", "the last hand leaves nobody in"):
        assert met[case] > 0, (case, dict(met))


# ---- Ninety-Nine (docs/rules.md section 2) ------------------------------------------------

def n99_moves(hand: list[str], total: int) -> dict[str, int]:
    """The table of card effects: every move of ``hand`` that keeps the total at 99 or
    below -> the new total."""
    moves = {}
    for r in {c[0] for c in hand}:
        if r == "A":
            options = {"A+1": total + 1, "A+11": total + 11}
        elif r == "T":
            options = {"T+10": total + 10}
            if total >= 10:
                options["T-10"] = total - 10
        elif r == "K":
            options = {"K": 99}
        elif r in "49":
            options = {r: total}
        else:
            options = {r: total + (10 if r in "JQ" else int(r))}
        moves.update({m: t for m, t in options.items() if t <= 99})
    return moves


def n99_check(events: list[dict]) -> Counter:
    """Legal moves at the totals where the special cards matter, the direction, who deals
    next and who plays first; returns the rare cases met."""
    met: Counter = Counter()
    players = events[0]["players"]
    active = [True] * players
    dealer = None
    for e in events[1:]:
        kind = e["ev"]
        if kind == "deal":
            if dealer is not None:
                assert e["dealer"] == next_in(dealer, active), "the deal passes clockwise to a player still in"
                if not active[dealer]:
                    met["the last dealer is out"] += 1
            dealer = e["dealer"]
            hands = [list(h) for h in e["hands"]]
            stock, pile = list(e["stock"]), []
            total, direction = 0, 1
            turn = next_in(dealer, active)
        elif kind == "decide":
            assert e["seat"] == turn
            moves = n99_moves(hands[turn], total)
            assert sorted(e["legal"]) == sorted(moves), (e, hands[turn], total)
            if total == 99:
                assert set(moves) <= {"K", "4", "9", "T-10"}
                met["a turn at 99"] += 1
            if total == 10 and "T-10" in moves:
                met["T-10 possible at exactly 10"] += 1
                if e["move"] == "T-10":
                    met["T-10 played at exactly 10"] += 1
            if 0 < total < 10 and "T+10" in moves:
                assert "T-10" not in e["legal"]
                met["T below 10: only +10"] += 1
            if 89 <= total <= 98 and "A+1" in moves:
                assert "A+11" not in e["legal"]
                met["an ace only as 1"] += 1
            hands[turn].remove(e["card"])
            pile.append(e["card"])
            total = moves[e["move"]]
            if e["move"] == "4":
                direction = -direction
                if sum(active) == 2:
                    met["a four with two players in"] += 1
        elif kind == "pile":
            assert e == {"ev": "pile", "total": total, "dir": direction}
        elif kind == "reshuffle":  # only when a player must draw from an empty stock
            assert not stock and Counter(e["stock"]) == Counter(pile[:-1]), "the top card stays on the pile"
            stock, pile = list(e["stock"]), pile[-1:]
            met["stock rebuilt"] += 1
        elif kind == "draw":
            assert e["card"] == stock.pop(0)
            hands[e["seat"]].append(e["card"])
            turn = next_in(turn, active, direction)
        elif kind == "bust":
            assert e["seat"] == turn and not n99_moves(hands[turn], total), "over only without a legal move"
            if e["out"]:
                active[turn] = False
                if turn == dealer:
                    met["the dealer goes out"] += 1
        elif kind == "game_end":  # when one player is left, who wins
            assert e["winners"] == [s for s in range(players) if active[s]]
    assert events[-1]["ev"] == "game_end" and sum(active) == 1
    return met


N99_GAMES = [  # (seed, index, players, seats, rules): ten players on one deck rebuild the stock
    (7, 3, 10, ["random"] * 10, {"decks": 1}),
]


def test_ninety_nine_rare_cases():
    met: Counter = Counter()
    for seed, index, players, seats, rules in N99_GAMES:
        met += n99_check(play("ninety-nine", seed, index, seats, rules, players))
    for case in ("stock rebuilt", "the last dealer is out", "the dealer goes out", "a turn at 99", "T-10 played at exactly 10",
                 "T below 10: only +10", "an ace only as 1", "a four with two players in"):
        assert met[case] > 0, (case, dict(met))


# ---- Two-player Hearts (docs/rules.md section 3) ------------------------------------------

def h_points(card: str) -> int:
    return 13 if card == "QS" else (1 if card[1] == "H" else 0)


def hearts_check(events: list[dict]) -> Counter:
    """The first lead when clubs are dead, leads before hearts are broken, QS on the first
    trick, the moon over the point cards in play, the end; returns the rare cases met."""
    met: Counter = Counter()
    target = events[0]["rules"]["target"]
    scores = [0, 0]
    for e in events[1:]:
        kind = e["ev"]
        if kind == "deal":
            assert max(scores) < target or scores[0] == scores[1], "the game should have ended"
            dead = set(e["dead"])
            held = [set(e["hands"][0]), set(e["hands"][1])]
            first = next(c for c in ("2C", "4C", "6C") if c not in dead)
            if first != "2C":
                met[f"2C dead, {first} leads"] += 1
            taken = [[], []]
            broken, trick, lead = False, 0, None
        elif kind == "decide":
            hand = held[e["seat"]]
            if lead is None and trick == 0:
                assert e["seat"] == (0 if first in held[0] else 1) and e["legal"] == [first]
            elif lead is None:
                hearts = {c for c in hand if c[1] == "H"}
                if not broken and hearts and hand == hearts | {"QS"} and "QS" in hand:
                    assert e["legal"] == ["QS"], "a heart may not be led yet: QS must be"
                    met["hearts and QS: QS led"] += 1
                elif not broken and hearts and hand == hearts:
                    assert sorted(e["legal"]) == sorted(hand), "only hearts: a heart may be led"
                    met["only hearts, led before broken"] += 1
            else:
                same = {c for c in hand if c[1] == lead[1]}
                assert set(e["legal"]) == (same or hand)
                if trick == 0 and not same and "QS" in hand:
                    assert "QS" in e["legal"]
                    met["QS may be thrown on the first trick"] += 1
            hand.remove(e["move"])
            lead = e["move"] if lead is None else None
        elif kind == "trick":
            a, b = e["cards"]
            taken[e["winner"]] += e["cards"]
            if "QS" in e["cards"] and not broken and a[1] != "H" and b[1] != "H":
                met["QS played, hearts not broken"] += 1
            broken = broken or a[1] == "H" or b[1] == "H"
            trick += 1
        elif kind == "hand_end":
            in_play = {c for c in held_all(dead) if h_points(c)}
            shooter = next((s for s in (0, 1) if in_play <= set(taken[s])), None)
            if shooter is None:
                points = [sum(map(h_points, taken[s])) for s in (0, 1)]
            else:
                points = [0, 0]
                points[1 - shooter] = 20
                if "QS" in dead:
                    met["moon with QS dead"] += 1
                if any(c[1] == "H" for c in dead):
                    met["moon with a heart dead"] += 1
            assert e["moon"] == shooter and e["points"] == points
            scores = [scores[0] + points[0], scores[1] + points[1]]
            assert e["scores"] == scores
            if max(scores) >= target and scores[0] == scores[1]:
                met["equal at or over the target: play on"] += 1
        elif kind == "game_end":
            assert max(scores) >= target and scores[0] != scores[1]
            assert e["winners"] == [scores.index(min(scores))]
    return met


def held_all(dead: set[str]) -> set[str]:
    """The 28 cards of the deck less the dead ones."""
    return {r + s for r in "2468TQA" for s in "CDHS"} - dead


HEARTS_GAMES = [  # (seed, index, seats, rules)
    (2024, 189, ["random"] * 2, {}),            # 2C and 4C dead: 6C leads
    (5, 21, ["random"] * 2, {"target": 20}),    # equal at 20 or more: another hand
    (5, 7, ["random"] * 2, {"target": 20}),     # QS thrown on the first trick
    (5, 83, ["random"] * 2, {"target": 20}),    # a hand of hearts and QS before hearts are broken
    (5, 110, ["random"] * 2, {"target": 20}),   # a moon with QS dead
]


def test_hearts2_rare_cases():
    met: Counter = Counter()
    for seed, index, seats, rules in HEARTS_GAMES:
        met += hearts_check(play("hearts2", seed, index, seats, rules))
    for case in ("2C dead, 4C leads", "2C dead, 6C leads", "hearts and QS: QS led", "only hearts, led before broken",
                 "QS may be thrown on the first trick", "QS played, hearts not broken", "moon with QS dead",
                 "moon with a heart dead", "equal at or over the target: play on"):
        assert met[case] > 0, (case, dict(met))


# ---- Two-Ten-Jack (docs/rules.md section 4) -----------------------------------------------

POINTS210 = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5, "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}


def is_trump(card: str) -> bool:
    return card[1] == "H" or card == "AS"


def two_ten_jack_check(events: list[dict]) -> Counter:
    """Following and winning around AS, the draws, the scoring and the end; returns the rare
    cases met."""
    met: Counter = Counter()
    target = events[0]["rules"]["target"]
    scores = [0, 0]
    for e in events[1:]:
        kind = e["ev"]
        if kind == "deal":
            assert max(scores) < target or scores[0] == scores[1], "the game should have ended"
            held = [set(e["hands"][0]), set(e["hands"][1])]
            stock = list(e["stock"])
            taken = [[], []]
            lead = None
        elif kind == "decide":
            hand = held[e["seat"]]
            if lead is None:
                lead = e["move"]
                hand.discard(lead.split(":")[0])
                continue
            suit = {"AS:spade": "S", "AS:trump": "H"}.get(lead, lead[1])
            same = {c for c in hand if c[1] == suit or (suit == "H" and c == "AS")}
            trumps = {c for c in hand if is_trump(c)}
            assert set(e["legal"]) == (same or trumps or hand), (lead, hand, e)
            if lead == "AS:spade" and not same and trumps:
                met["AS led as a spade: a follower void in spades trumps"] += 1
            if lead == "AS:trump" and not same and not trumps and hand & {c for c in hand if c[1] == "S"}:
                met["AS led as a trump: no heart, a spade not required"] += 1
            if suit == "S" and lead != "AS:spade" and e["move"] == "AS":
                met["AS played on a spade lead"] += 1
            if e["legal"] == ["AS"]:
                met["AS forced"] += 1
            hand.discard(e["move"])
            follow, lead = e["move"], None
        elif kind == "trick":
            first, second = e["cards"]
            trumps = [(100 if c == "AS" else rank(c), s) for c, s in ((first, e["leader"]), (second, 1 - e["leader"]))
                      if is_trump(c)]
            if trumps:
                winner = max(trumps)[1]
            else:
                winner = 1 - e["leader"] if second[1] == first[1] and rank(second) > rank(first) else e["leader"]
            assert e["winner"] == winner
            if second == "AS" and first[1] == "S":
                assert winner == 1 - e["leader"], "AS is a trump even when it follows a spade"
                met["AS wins a spade lead as the follower"] += 1
            taken[winner] += e["cards"]
            if stock:  # the winner draws first
                assert e["draws"] == [[winner, stock[0]], [1 - winner, stock[1]]]
                held[winner].add(stock[0])
                held[1 - winner].add(stock[1])
                stock = stock[2:]
            else:
                assert e["draws"] == []
                met["a trick after the stock is gone"] += 1
        elif kind == "hand_end":
            points = [sum(POINTS210.get(c, 0) for c in taken[s]) for s in (0, 1)]
            assert e["points"] == points and sum(points) == 5
            scores = [scores[0] + points[0], scores[1] + points[1]]
            assert e["scores"] == scores
            if min(scores) < 0:
                met["a negative score"] += 1
            if min(scores) >= target:
                met["both at the target, equal" if scores[0] == scores[1] else "both at the target, unequal"] += 1
        elif kind == "game_end":
            over = [s for s in (0, 1) if scores[s] >= target]
            assert over and scores[0] != scores[1]
            assert e["winners"] == (over if len(over) == 1 else [scores.index(max(scores))])
    return met


TWO_TEN_JACK_GAMES = [  # (seed, index, seats, rules): target 4, where a tie at the target can happen
    (2024, 159, ["random"] * 2, {"target": 4}),  # both at 4 or more with equal scores: another round
    (2024, 17, ["random"] * 2, {"target": 4}),   # both at 4 or more, unequal: the higher wins
    (2024, 116, ["random"] * 2, {"target": 4}),  # AS led as a spade, the follower void in spades
    (2024, 30, ["random"] * 2, {"target": 4}),   # AS led as a trump, the follower without hearts
    (2024, 9, ["random"] * 2, {"target": 4}),    # AS played on a spade lead wins it
]


def test_two_ten_jack_rare_cases():
    met: Counter = Counter()
    for seed, index, seats, rules in TWO_TEN_JACK_GAMES:
        met += two_ten_jack_check(play("two-ten-jack", seed, index, seats, rules))
    for case in ("AS led as a spade: a follower void in spades trumps", "AS led as a trump: no heart, a spade not required",
                 "AS played on a spade lead", "AS wins a spade lead as the follower", "AS forced",
                 "a trick after the stock is gone", "a negative score", "both at the target, equal",
                 "both at the target, unequal"):
        assert met[case] > 0, (case, dict(met))


# ---- 10-Point Pitch (docs/rules.md section 5) ---------------------------------------------

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
BID_ORDER = ["4", "5", "6", "7", "8", "9", "10", "moon"]


def pitch_trumps(suit: str) -> list[str]:
    """The 16 trumps from high to low."""
    return [f"{r}{suit}" for r in "AKQJ"] + [f"J{SAME_COLOUR[suit]}", "HJ", "LJ"] + [f"{r}{suit}" for r in "T98765432"]


def pitch_points(suit: str) -> dict[str, int]:
    return {f"A{suit}": 1, f"J{suit}": 1, f"J{SAME_COLOUR[suit]}": 1, "HJ": 1, "LJ": 1, f"T{suit}": 1, f"2{suit}": 1,
            f"3{suit}": 3}


def pitch_check(events: list[dict]) -> Counter:
    """The bidding, who leads when a player has no trump, the scoring of bids and moons, the
    end; returns the rare cases met."""
    met: Counter = Counter()
    rules = events[0]["rules"]
    target, taken_variant = rules["target"], rules["made_bid_scores_taken"]
    scores = [0, 0]
    it = iter(events[1:])
    for e in it:
        assert e["ev"] == "deal", "the game goes on after a round that does not end it"
        dealer = e["dealer"]
        hands = [list(h) for h in e["hands"]]
        # bidding, from left of the dealer
        high, order = -1, [(dealer + k) % 4 for k in range(1, 5)]
        for k, seat in enumerate(order):
            d = next(it)
            assert d["kind"] == "bid" and d["seat"] == seat
            if k == 3 and high < 0:
                assert d["legal"] == ["4"], "the stuck dealer must bid 4"
                met["stuck dealer"] += 1
            else:
                assert sorted(d["legal"]) == sorted(["pass"] + BID_ORDER[high + 1:])
            if d["move"] != "pass":
                high, pitcher = BID_ORDER.index(d["move"]), seat
                if d["move"] == "moon":
                    met["a moon bid by the dealer" if k == 3 else "a moon bid ends the bidding"] += 1
                    break
        bid = BID_ORDER[high]
        assert next(it) == {"ev": "pitcher", "seat": pitcher, "bid": bid}
        d = next(it)
        assert d["kind"] == "trump" and d["seat"] == pitcher
        trumps = pitch_trumps(d["move"])
        points = pitch_points(d["move"])
        held = [[c for c in h if c in trumps] for h in hands]
        # the refill, the rest, the discards, the play: followed by events until hand_end
        for e in it:
            if e["ev"] in ("refill", "rest"):
                held[e["seat"]] += [c for c in e["cards"] if c in trumps]
            elif e["ev"] == "decide" and e["kind"] == "discard":
                held[e["seat"]].remove(e["move"])
            elif e["ev"] == "decide" and e["kind"] == "play":
                break  # (a give decision changes nothing here: its rest event names the receiver)
        # the first leader: the pitcher, or the next seat clockwise holding a trump
        leader = next(s for s in ((pitcher + k) % 4 for k in range(4)) if held[s])
        if leader != pitcher:
            met["the pitcher holds no trump"] += 1
        taken = [0, 0]
        first_play = e
        while True:
            plays = []
            for k in range(4):
                s = (leader + k) % 4
                if held[s]:
                    d = first_play if first_play is not None else next(it)
                    first_play = None
                    assert d["kind"] == "play" and d["seat"] == s, (d, s)
                    held[s].remove(d["move"])
                    plays.append([s, d["move"]])
            t = next(it)
            winner = min(plays, key=lambda p: trumps.index(p[1]))[0]
            assert t == {"ev": "trick", "leader": leader, "plays": plays, "winner": winner}
            taken[winner % 2] += sum(points.get(c, 0) for _, c in plays)
            if not any(held):
                break
            leader = next(s for s in ((winner + k) % 4 for k in range(4)) if held[s])
            if leader != winner:
                met["the trick's winner holds no trump"] += 1
        end = next(it)
        assert end["ev"] == "hand_end" and end["taken"] == taken and end["bid"] == bid
        team, before = pitcher % 2, list(scores)
        over = None
        if bid == "moon":
            if taken[team] == 10 and before[team] > 0:
                over = team  # wins at once, score unchanged
                met["moon made above 0"] += 1
            elif taken[team] == 10:
                scores[team] = 0
                met["moon made at exactly 0" if before[team] == 0 else "moon made below 0"] += 1
                if taken_variant:
                    met["moon made, variant on"] += 1
            else:
                over = 1 - team  # the bidding team loses at once
                met["moon missed"] += 1
        elif taken[team] >= int(bid):
            scores[team] += taken[team] if taken_variant else int(bid)
        else:
            scores[team] -= int(bid)
        scores[1 - team] += taken[1 - team]
        assert end["scores"] == scores and end["points"] == [scores[0] - before[0], scores[1] - before[1]]
        if over is None and max(scores) >= target:
            over = team if min(scores) >= target else scores.index(max(scores))
            if min(scores) >= target:
                met["both past the target: the pitcher's team wins"] += 1
        if over is not None:
            e = next(it)
            assert e == {"ev": "game_end", "winners": [over, over + 2], "scores": scores, "hands": end["hand"]}
            break
    assert next(it, None) is None
    return met


PITCH_GAMES = [  # (seed, index, seats, rules)
    (2024, 521, ["random"] * 4, {}),                                # the stuck dealer bids 4
    (2024, 28, ["random"] * 4, {}),                                 # the dealer bids moon
    (2024, 128, ["random"] * 4, {}),                                # a moon made above 0 wins at once
    (2024, 135, ["random"] * 4, {"made_bid_scores_taken": True}),   # a moon made at exactly 0
    (2024, 101, ["random"] * 4, {}),                                # a moon made below 0
    (2024, 395, ["random"] * 4, {}),                                # the pitcher holds no trump
    (5, 316, ["heuristic"] * 4, {}),                                # both teams past 52 in one round
]


def test_pitch10_rare_cases():
    met: Counter = Counter()
    for seed, index, seats, rules in PITCH_GAMES:
        met += pitch_check(play("pitch10", seed, index, seats, rules))
    for case in ("stuck dealer", "a moon bid by the dealer", "a moon bid ends the bidding", "the pitcher holds no trump",
                 "the trick's winner holds no trump", "moon made above 0", "moon made at exactly 0",
                 "moon made below 0", "moon missed", "moon made, variant on",
                 "both past the target: the pitcher's team wins"):
        assert met[case] > 0, (case, dict(met))
