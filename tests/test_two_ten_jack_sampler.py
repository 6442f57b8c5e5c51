"""Two-Ten-Jack: exact sampling of the hidden cards, enumerated worlds and equivalent options,
checked against an independent brute force written here from docs/rules.md section 4.

The brute force replays a position's public history in plain Python, gives every card the
other seat received a slot (6 at the deal, one per drawing trick), and enumerates every
assignment of the cards it played to the slots it held at the time, each slot's card
avoiding every void shown while that slot was held (computed per slot from the raw
history). The weight of a hand H is then the number of such assignments times the number of
ways to put H in the slots still held (all permutations tried). A uniform deal gives every
assignment the same probability, so these are the exact relative probabilities.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

import numpy as np
import pytest
from scipy import stats as sps

from analyzer import api
from analyzer.cards import parse_card, token
from analyzer.games.two_ten_jack import kernel as K
from analyzer.games.two_ten_jack.codes import KN_STATES, cards_held
from analyzer.games.two_ten_jack.spec import SPEC, check_position, hidden_worlds, option_groups

GAME = "two-ten-jack"
RULES = {"target": 31}
RANKS = "23456789TJQKA"
ALL = frozenset(r + s for r in RANKS for s in "CDHS")
POINTS = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5,
          "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}


# ---------------------------------------------------------------------------------------
# the independent reference


def is_trump(x: str) -> bool:
    return x[1] == "H" or x == "AS"


def follows(x: str, suit: str) -> bool:
    """Whether card x follows the suit led (AS is a spade, and a trump when trumps are led)."""
    return is_trump(x) if suit == "H" else x[1] == suit


def winner(leader: int, lead: str, follow: str) -> int:
    def order(x):
        return 100 if x == "AS" else RANKS.index(x[0])
    trumps = [(order(x), s) for x, s in ((lead, leader), (follow, 1 - leader)) if is_trump(x)]
    if trumps:
        return max(trumps)[1]
    if follow[1] == lead[1] and RANKS.index(follow[0]) > RANKS.index(lead[0]):
        return 1 - leader
    return leader


def cards_of(value) -> list[str]:
    return value.split() if isinstance(value, str) else list(value or [])


def seat_to_move(position: dict) -> int:
    played, trick = cards_of(position.get("played")), cards_of(position.get("trick"))
    leader = 1 - position["dealer"]
    for t in range(len(played) // 2):
        leader = winner(leader, played[2 * t][:2], played[2 * t + 1])
    return 1 - leader if trick else leader


def other_events(position: dict) -> tuple[list, int]:
    """The other seat's history, in order: ("recv", slot), ("void", cards), ("play", card)."""
    played, trick = cards_of(position.get("played")), cards_of(position.get("trick"))
    other = 1 - seat_to_move(position)
    events: list = [("recv", i) for i in range(6)]
    nslots = 6
    leader = 1 - position["dealer"]
    for t in range(len(played) // 2):
        move, f = played[2 * t], played[2 * t + 1]
        lead = move[:2]
        suit = {"AS:spade": "S", "AS:trump": "H"}.get(move, lead[1])
        if leader == other:
            events.append(("play", lead))
        else:
            if not follows(f, suit):  # no card of the suit led; and no trump unless it trumped
                void = {x for x in ALL if follows(x, suit)}
                if not is_trump(f):
                    void |= {x for x in ALL if is_trump(x)}
                events.append(("void", frozenset(void)))
            events.append(("play", f))
        if t < 20:  # both draw while the stock lasts
            events.append(("recv", nslots))
            nslots += 1
        leader = winner(leader, lead, f)
    if trick and leader == other:
        events.append(("play", trick[0][:2]))
    return events, nslots


def final_slots(position: dict) -> tuple[dict[tuple, int], set[str], int]:
    """The slots the other seat may hold now, enumerated: {the masks its held slots must avoid:
    the number of assignments of its played cards leading there}, the unseen cards, the
    size of its hand."""
    events, _ = other_events(position)
    received = {val: e for e, (kind, val) in enumerate(events) if kind == "recv"}

    @functools.lru_cache(maxsize=None)
    def lacks(slot: int, upto: int) -> frozenset:
        out: set = set()
        for kind, val in events[received[slot] + 1:upto]:
            if kind == "void":
                out |= val
        return frozenset(out)

    held: dict[frozenset, int] = {frozenset(): 1}
    for e, (kind, val) in enumerate(events):
        if kind == "recv":
            held = {s | {val}: n for s, n in held.items()}
        elif kind == "play":
            new: dict[frozenset, int] = defaultdict(int)
            for s, n in held.items():
                for slot in s:
                    if val not in lacks(slot, e + 1):
                        new[s - {slot}] += n
            held = dict(new)
    by_masks: dict[tuple, int] = defaultdict(int)
    for s, n in held.items():
        by_masks[tuple(lacks(slot, len(events)) for slot in sorted(s))] += n
    seen = set(cards_of(position["hand"])) | {x[:2] for x in cards_of(position.get("played"))}
    seen |= {x[:2] for x in cards_of(position.get("trick"))}
    return dict(by_masks), set(ALL - seen), len(next(iter(held)))


def exact_weight(by_masks: dict[tuple, int], hand) -> int:
    """Number of consistent assignments with ``hand`` in the slots held now: for each set of
    held slots, every way to place the cards of ``hand`` one slot after the other (memoized
    on the cards used so far)."""
    cards = sorted(hand)
    total = 0
    for masks, n in by_masks.items():
        ways = {0: 1}
        for m in masks:
            new: dict[int, int] = defaultdict(int)
            for used, k in ways.items():
                for j, x in enumerate(cards):
                    if not used >> j & 1 and x not in m:
                        new[used | 1 << j] += k
            ways = new
        total += n * ways.get((1 << len(cards)) - 1, 0)
    return total


def exact_hands(position: dict) -> dict[frozenset, int]:
    """{hand of the other seat: number of consistent slot assignments} (zero ones left out)."""
    by_masks, unseen, h = final_slots(position)
    out = {}
    for hand in itertools.combinations(sorted(unseen), h):
        w = exact_weight(by_masks, hand)
        if w:
            out[frozenset(hand)] = w
    return out


def void_times(position: dict) -> list[tuple[int, frozenset]]:
    """(slots received before it, cards) of each void the other seat showed."""
    events, _ = other_events(position)
    out, recv = [], 0
    for kind, val in events:
        recv += kind == "recv"
        if kind == "void":
            out.append((recv, val))
    return out


# ---------------------------------------------------------------------------------------
# helpers


def record(seed: int, index: int, seats=("random", "random")) -> list[dict]:
    (events,) = api.play(GAME, seed=seed, index=index, seats=list(seats))
    return events


def hand_of(m: int) -> frozenset:
    return frozenset(token(c) for c in range(52) if int(m) >> c & 1)


def sampled(pos, n: int, seed: int = 7) -> dict[frozenset, int]:
    out = np.zeros(n, dtype=np.int64)
    K.sample_hands(pos.ws, pos.seat, np.uint64(seed), n, out)
    values, counts = np.unique(out, return_counts=True)
    return {hand_of(v): int(c) for v, c in zip(values, counts)}


def check_sampled(exact: dict[frozenset, int], got: dict[frozenset, int], n: int) -> tuple[float, float]:
    """Chi-square p-value and total-variation distance of the sampled hands to the exact law;
    every sampled hand must be consistent."""
    assert set(got) <= set(exact), "a sampled hand the history rules out"
    total = sum(exact.values())
    keys = sorted(exact, key=sorted)
    p = np.array([exact[k] / total for k in keys])
    obs = np.array([got.get(k, 0) for k in keys], dtype=float)
    tv = 0.5 * np.abs(obs / n - p).sum()
    if len(keys) == 1:
        return 1.0, tv
    chi2 = ((obs - n * p) ** 2 / (n * p)).sum()
    return float(sps.chi2.sf(chi2, len(keys) - 1)), float(tv)


def check_worlds(pos, exact: dict[frozenset, int]) -> None:
    """The enumerated worlds are the consistent hands, with the brute force's weights."""
    found = hidden_worlds(pos, 10 ** 6)
    assert found is not None
    hands, weights = found
    mine = {hand_of(m): w for m, w in zip(hands, weights)}
    assert len(mine) == len(hands) == len(exact)
    assert set(mine) == set(exact)
    # relative weights: the same up to float rounding (the brute force counts exactly)
    ref = next(iter(exact))
    for k in exact:
        assert mine[k] / mine[ref] == pytest.approx(exact[k] / exact[ref], rel=1e-12, abs=0)


# ---------------------------------------------------------------------------------------
# the sampler and the worlds against the brute force


def test_recorded_game_decision_40_is_sampled_exactly():
    """``play --seed 2 --index 0`` (random vs random), decision 40: the lead of the last
    drawing trick is on the table; the follower's opponent showed a club and a diamond void
    at different times, with cards of different ages held (the case the old sampler got wrong)."""
    position = SPEC.position_from_record(record(2, 0), 40)
    pos = check_position(position, RULES, SPEC.position_keys)
    voids = void_times(position)
    assert len({v for _, v in voids}) >= 2 and len({r for r, _ in voids}) >= 2
    exact = exact_hands(position)
    assert len(exact) > 10
    check_worlds(pos, exact)
    n = 40_000
    pvalue, tv = check_sampled(exact, sampled(pos, n), n)
    assert pvalue > 1e-4 and tv < 0.02, (pvalue, tv)


def late_positions(count: int):
    """Positions at the last two drawing tricks (decisions 37..40) of random games where the
    other seat showed voids at two or more different times, until ``count`` are found."""
    out = []
    for index in range(200):
        events = record(31, index)
        for at in (37, 38, 39, 40):
            position = SPEC.position_from_record(events, at)
            voids = void_times(position)
            if len({r for r, _ in voids}) >= 2:
                out.append(position)
                break
        if len(out) == count:
            return out
    raise AssertionError("not enough positions")


POSITIONS = late_positions(6)


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_last_drawing_tricks_sampled_and_weighed_exactly(k):
    position = POSITIONS[k]
    pos = check_position(position, RULES, SPEC.position_keys)
    exact = exact_hands(position)
    check_worlds(pos, exact)
    n = 20_000
    pvalue, tv = check_sampled(exact, sampled(pos, n, seed=k), n)
    assert pvalue > 1e-4, (pvalue, tv)


def test_positions_cover_the_ace_of_spades_and_trump_voids():
    """The positions above include voids in spades (AS with them) and in trumps (AS too)."""
    shown = [v for position in POSITIONS for _, v in void_times(position)]
    spades = frozenset(r + "S" for r in RANKS)
    trumps = frozenset(r + "H" for r in RANKS) | {"AS"}
    assert any(spades <= v for v in shown) and any(trumps <= v for v in shown)
    assert any(trumps <= v and not spades <= v for v in shown)


SHORT = [
    # seat 1 shows no club, heart or AS (9D); then trumps a spade (3H: from the card drawn,
    # the older ones have no heart); leads 8D (from any age); trumps a club (7H); leads 6D:
    # cards of three ages held, under three different masks
    {"dealer": 1, "played": "5C 9D KS 3H 8D TD 4C 7H 6D QD", "hand": "2C 3D 4S 7C KD AH"},
    # AS:trump led: no heart and no AS (spades stay possible: QS follows a spade later); then
    # a spade lead trumped with 2H (from a card drawn)
    {"dealer": 1, "played": "AS:trump 4C 9S QS 3D 5D 7S 2H 8C KC", "hand": "2C 3C 4S 7H KD QC"},
    # the other seat leads the trick in progress; a diamond void (8S: no trump either), a
    # trump void (6S), then the led QD must be a card drawn since
    {"dealer": 0, "played": "9C KC 3D 8S 5H 6S 2S 4S", "trick": "QD", "hand": "2C 3C 4D 7C KD TC"},
]


@pytest.mark.parametrize("k", range(len(SHORT)))
def test_exact_weights_on_short_histories(k):
    """Early in a round there are too many hands to list them all: the kernel's weight of
    hands it samples and of uniformly drawn hands (most of them ruled out) against the brute
    force, relative to the first sampled hand, and zero exactly where the brute force finds
    no assignment."""
    position = SHORT[k]
    pos = check_position(position, RULES, SPEC.position_keys)
    other = 1 - pos.seat
    assert pos.seat == seat_to_move(position)
    by_masks, unseen, h = final_slots(position)
    assert h == cards_held(pos.ws, other)
    assert pos.ws.kn[other, KN_STATES] >= 2  # a played card that could have come from cards of different ages
    got = sampled(pos, 150, seed=k)
    gen = np.random.default_rng(k)
    pool = sorted(unseen)
    hands = list(got) + [frozenset(gen.choice(pool, size=h, replace=False)) for _ in range(150)]
    ref_hand = hands[0]
    ref_exact = exact_weight(by_masks, ref_hand)
    assert ref_exact > 0

    def kernel_weight(hand):
        return K.hidden_weight(pos.ws, other, np.int64(sum(1 << parse_card(x) for x in hand)))

    ref_kernel = kernel_weight(ref_hand)
    zero = 0
    for hand in hands:
        e = exact_weight(by_masks, hand)
        assert e > 0 or hand not in got  # the sampler never draws a hand the history rules out
        w = kernel_weight(hand)
        assert w / ref_kernel == pytest.approx(e / ref_exact, rel=1e-12, abs=0), sorted(hand)
        zero += e == 0
    assert 0 < zero < len(hands)


# ---------------------------------------------------------------------------------------
# evaluation: worlds, sampled runs, groups


def evaluation(position: dict, rollout: str = "random"):
    from analyzer.strategies import resolve_seats, strategy_array

    strat, _ = strategy_array(SPEC, resolve_seats(SPEC, 2, [rollout, rollout]))
    return SPEC.evaluation(RULES, position, strat, infer=False)


def test_evaluation_interface():
    ev = evaluation({"dealer": 1, "hand": "2C 3D 4S 7H KD QS", "played": "5C 9D"})
    assert ev.outcome == "points" and ev.lower_is_better is False and not ev.outcome_binary
    # the start of a round: far too many hands to enumerate
    assert ev.worlds(2000) is None


def test_worlds_after_the_stock_is_one_world_the_real_hand():
    events = record(5, 0)
    at = 45  # the lead of trick 23: the stock ran out after trick 20
    position = SPEC.position_from_record(events, at)
    pos = check_position(position, RULES, SPEC.position_keys)
    hands, weights = hidden_worlds(pos, 1)
    # the real hand, replayed from the record
    real: list[set] = [set(), set()]
    n = 0
    for ev in events[1:]:
        if ev["ev"] == "deal":
            real = [set(h) for h in ev["hands"]]
        elif ev["ev"] == "decide":
            n += 1
            if n == at:
                break
            real[ev["seat"]].discard(ev["move"][:2])
        elif ev["ev"] == "trick":
            for s, x in ev["draws"]:
                real[s].add(x)
    assert len(hands) == 1 and weights[0] > 0
    assert hand_of(hands[0]) == real[1 - pos.seat]


def test_worlds_run_plays_sample_j_in_world_j_mod_w():
    """Sample j of the worlds' run is world j % W: the same result as a run given that world
    alone at sample j (same stock order and rollout coin flips)."""
    position = SPEC.position_from_record(record(2, 0), 40)
    ev = evaluation(position)
    worlds = ev.worlds(2000)
    assert worlds is not None
    hands, _ = hidden_worlds(check_position(position, RULES, SPEC.position_keys), 2000)
    w = len(worlds.weights)
    codes = np.array(ev.options, dtype=np.int64)
    n = 2 * w + 3
    got = worlds.run(5, 7, codes, n, 1)
    pos = check_position(position, RULES, SPEC.position_keys)
    from analyzer.strategies import resolve_seats, strategy_array

    strat, _ = strategy_array(SPEC, resolve_seats(SPEC, 2, ["random", "random"]))
    params = SPEC.params(RULES)
    for j in range(n):
        one = np.zeros((1, len(codes), 2), dtype=np.int64)
        SPEC.user_kernel([]).evaluate_chunk(np.uint64(5), np.int64(7 + j), params, strat, pos.ws, pos.seat, codes,
                                            one, np.int64(1), np.array([hands[(7 + j) % w]], dtype=np.int64))
        assert (one[0] == got[j]).all(), j
    # and the worlds differ: not every sample played the same hidden hand
    assert len({int(h) for h in hands}) == w > 1


def test_sampled_evaluation_agrees_with_the_exact_worlds():
    """The recorded game's decision 40 (random rollouts): the sampled run's mean points per
    option against the exact mean over the worlds (their brute-force-checked weights, each
    world played equally often), within sampling error."""
    position = SPEC.position_from_record(record(2, 0), 40)
    ev = evaluation(position)
    worlds = ev.worlds(2000)
    w = len(worlds.weights)
    codes = np.array(ev.options, dtype=np.int64)
    n = 6000
    sampled_run = ev.run(3, 0, codes, n, 1)[:, :, 0].astype(float)
    exact_run = worlds.run(3, 0, codes, w * 300, 1)[:, :, 0].astype(float)
    p = worlds.weights / worlds.weights.sum()
    per_world = exact_run.reshape(300, w, len(codes))  # sample j is world j % w
    exact_mean = (per_world.mean(axis=0) * p[:, None]).sum(axis=0)
    exact_se = np.sqrt((per_world.var(axis=0, ddof=1) / 300 * p[:, None] ** 2).sum(axis=0))
    mean = sampled_run.mean(axis=0)
    se = sampled_run.std(axis=0, ddof=1) / np.sqrt(n)
    z = (mean - exact_mean) / np.sqrt(se ** 2 + exact_se ** 2)
    assert np.abs(z).max() < 4, (mean, exact_mean, z)


def position_with(hand: str, played: str = "", trick: str = "", dealer: int = 1):
    return check_position({"dealer": dealer, "hand": hand, "played": played, "trick": trick}, RULES,
                          SPEC.position_keys)


def named_groups(pos) -> list[set[str]]:
    groups = option_groups(pos) or [[i] for i in range(len(pos.options))]
    return [{SPEC.move_name(pos.options[i]) for i in g} for g in groups]


def test_groups_examples():
    # 3H 4H 5H: a run of zero-point trumps; TH JH: +5 each, adjacent; 9H: next to TH but 0 points
    g = named_groups(position_with("3H 4H 5H 9H TH JH"))
    assert {"3H", "4H", "5H"} in g and {"TH", "JH"} in g and {"9H"} in g
    # 3S and 5S: 4S is live; once played, they are equivalent; AS is never merged
    assert {"3S"} in named_groups(position_with("3S 5S KS AS 2D 3D"))
    g = named_groups(position_with("3S 5S KS AS 2D 3D", played="4S 7S"))
    assert {"3S", "5S"} in g and {"AS:spade"} in g and {"AS:trump"} in g and {"2D", "3D"} in g
    assert {"KS"} in g  # QS and JS are live
    # TC JC (-5 both) merge; 2C (-5) and 3C (0) do not
    g = named_groups(position_with("2C 3C TC JC 5D 9S"))
    assert {"TC", "JC"} in g and {"2C"} in g and {"3C"} in g
    # the card led to this trick is live: 3D and 5D around the led 4D stay apart
    g = named_groups(position_with("3D 5D 7C 8C 9S QH", trick="4D", dealer=0))
    assert {"3D"} in g and {"5D"} in g
    # own cards between two cards do not separate them (they never meet in a trick)
    g = named_groups(position_with("9S TS JS QS 2D 4D"))
    assert {"9S", "QS"} in g and {"TS", "JS"} in g


def test_groups_merge_only_interchangeable_cards():
    """Over many recorded positions: two merged cards score the same and, against every card
    still live (unseen, or led to this trick), win and lose the same tricks, led or following,
    and follow the same suits (the reference's own rules)."""
    merged = 0
    for index in range(6):
        events = record(17, index)
        decides = [ev for ev in events if ev["ev"] == "decide"]
        for at in range(1, len(decides) + 1, 2):
            position = SPEC.position_from_record(events, at)
            pos = check_position(position, RULES, SPEC.position_keys)
            seen = set(position["hand"]) | {x[:2] for x in position["played"]}
            live = (ALL - seen) | {x[:2] for x in position["trick"]}
            for group in named_groups(pos):
                for x, y in itertools.combinations(sorted(group), 2):
                    merged += 1
                    assert POINTS.get(x, 0) == POINTS.get(y, 0)
                    for z in live:
                        assert winner(0, x, z) == winner(0, y, z), (x, y, z)
                        assert winner(0, z, x) == winner(0, z, y), (x, y, z)
                    for suit in "CDHS":
                        assert follows(x, suit) == follows(y, suit)
    assert merged > 50
