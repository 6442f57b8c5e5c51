"""Two-player Hearts play loops (compiled): one game from a fresh deal, many games in
parallel, the same game with the trace buffer on, Monte Carlo (``mc``) decisions and
evaluation from a given position.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``):
    deck    int64[28]     card codes, set up once per game, shuffled in place each hand
                          (DEAL stream)
    hands   int64[2]      each seat's hand as dealt (card masks; the loop then keeps the
                          hands in registers)
    codes   int64[13]     the legal cards as codes (only for records and user strategies)
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng uint64[4]  the game's two random streams
    scratch uint64[4]     seeds the Monte Carlo sample streams
    sums    int64[16]     Monte Carlo: points per option
Out row columns (spec.extra_columns): winners, hands, decisions, score_0, score_1,
moons, moons_0, moons_1 (hands in which the seat shot the moon), tricks_0, tricks_1
(tricks won), qs_0, qs_1 (hands in which the seat took QS).

The state of a hand in progress is a handful of scalars: ``h0, h1`` (hands, masks),
``dead`` (mask), ``first`` (the forced first lead), ``leader``, ``trick`` (0..12),
``led`` (card led to the current trick, -1 before the lead), ``taken0, taken1`` (points
taken in tricks), ``ntr0`` (tricks won by seat 0), ``void0, void1`` (cards each seat has
publicly shown it does not hold: see rules.shown_void). The rules of one play are the
functions of rules.py (legal_now, end_trick, shown_void); two drivers choose the cards:
``play_hand`` (any strategy: built-in, ``mc``, user; records) and ``rollout_hand``
(built-in base strategies only: what ``mc`` rolls out with; keeping it apart keeps the
call graph free of recursion, which numba does not compile reliably).

User strategy: ``f(view, legal, n, rng) -> card code`` where ``legal[:n]`` are the legal
card codes and ``view`` (int64) holds: V_SEAT, V_HAND_NO (from 1), V_DEALER, V_TRICK
(0..12), V_LEADER (seat leading this trick), V_LED (card led, -1 when leading), V_BROKEN
(1 once a heart was played to an earlier trick), V_HAND (own cards, mask), V_PLAYED
(cards of the completed tricks of this hand, mask), V_TAKEN..+2 (points taken in tricks
this hand, per seat), V_SCORES..+2 (scores before this hand), V_TARGET, V_TRICKS..+2
(tricks won this hand, per seat).
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.hearts2 import strategies as st
from analyzer.games.hearts2.rules import (
    DECK_CODES,
    DECK_MASK,
    DECK_SIZE,
    HEART_MASK,
    KNOWN_DEAD,
    P_TARGET,
    POINT_MASK,
    QS,
    SUIT_OF,
    TRICKS,
    end_trick,
    first_lead,
    game_winners,
    hand_score,
    hearts_broken,
    legal_now,
    mask_to_codes,
    sample_hidden,
    shown_void,
    shuffle_deal,
    xoshiro,
    bit_index,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, hand_purpose, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_DEAD = 100

V_SEAT, V_HAND_NO, V_DEALER, V_TRICK, V_LEADER, V_LED, V_BROKEN, V_HAND, V_PLAYED = 0, 1, 2, 3, 4, 5, 6, 7, 8
V_TAKEN, V_SCORES, V_TARGET, V_TRICKS = 9, 11, 13, 14
VIEW_SIZE = 16

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["user_move", "play_hand", "play_rest", "play_game", "run_block", "run_chunk", "run_traced",
              "evaluate_block", "evaluate_chunk"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True, inline="always")
def choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3):
    """The card of a built-in strategy by id: (card, PLAY stream state r0..r3).

    Scalars only (no arrays): the hot loop stays free of reference counting. ``mc`` and
    user strategies (negative ids) are not handled here: see ``mc_move``, ``user_move``.
    """
    if sid == st.RANDOM:
        return st.random_move(legal, r0, r1, r2, r3)
    return st.heuristic_move(hand, legal, led, mine, theirs), r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def user_move(sid, seat, hand, legal, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0,
              view, codes, play_rng, err, r0, r1, r2, r3):
    """The card of the user strategy in slot ``-1 - sid``, given its view: (card, PLAY
    stream state). An illegal card gives -1 with ``err[1:3]`` filled."""
    view[V_SEAT] = seat
    view[V_TRICK] = trick
    view[V_LEADER] = leader
    view[V_LED] = led
    gone = DECK_MASK & ~(h0 | h1 | dead)  # played so far, the card led included
    if led >= 0:
        gone ^= 1 << led
    view[V_BROKEN] = 1 if gone & HEART_MASK else 0
    view[V_HAND] = hand
    view[V_PLAYED] = gone
    view[V_TAKEN] = taken0
    view[V_TAKEN + 1] = taken1
    view[V_TRICKS] = ntr0
    view[V_TRICKS + 1] = trick - ntr0
    n = mask_to_codes(legal, codes)
    play_rng[0], play_rng[1], play_rng[2], play_rng[3] = r0, r1, r2, r3
    card = user_strategy(-1 - sid, view, codes, n, play_rng)
    r0, r1, r2, r3 = play_rng[0], play_rng[1], play_rng[2], play_rng[3]
    # built-ins pick from ``legal`` by construction; only user moves are checked
    if card < 0 or card >= 52 or not (legal >> card) & 1:
        err[1] = seat
        err[2] = card
        return -1, r0, r1, r2, r3
    return card, r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def trace_decide(trace, seat, card, legal, codes):
    n = mask_to_codes(legal, codes)
    tr.emit(trace, EV_DECIDE, seat, card, 0, 0)
    tr.emit_list(trace, 0, codes, n)


# ---- Monte Carlo -------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def rollout_hand(base, h0, h1, dead, first, leader, trick, led, taken0, taken1, forced, r0, r1, r2, r3):
    """Play the hand on with built-in strategy ``base`` for both seats (the first card
    ``forced``); returns the points taken in tricks (taken0, taken1).

    Stops early once no point card is left in either hand: the points are then settled.
    """
    while trick < TRICKS:
        if led < 0:
            if forced < 0 and (h0 | h1) & POINT_MASK == 0:
                break
            seat = leader
        else:
            seat = 1 - leader
        if forced >= 0:
            card = forced
            forced = -1
        else:
            hand = h0 if seat == 0 else h1
            legal = legal_now(hand, trick, first, led, h0, h1, dead)
            mine = taken0 if seat == 0 else taken1
            theirs = taken1 if seat == 0 else taken0
            card, r0, r1, r2, r3 = choose_move(base, hand, legal, led, mine, theirs, r0, r1, r2, r3)
        flip = 1 << card
        h0 ^= flip & (seat - 1)
        h1 ^= flip & -seat
        if led < 0:
            led = card
        else:
            leader, taken0, taken1, _ = end_trick(leader, led, card, taken0, taken1, 0)
            led = -1
            trick += 1
    return taken0, taken1


@njit(cache=True, inline="always")
def distinct_cards(legal, pool):
    """The legal cards that are not equivalent to a lower legal one: two cards of a suit
    are equivalent when no unseen card (``pool``) lies between them (only own or played
    ones) and neither is QS; then playing either changes nothing but which of the two
    is left. Keeps the lowest card of each such run."""
    keep = legal
    rest = legal
    prev = -1
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit_index(bit)
        if (prev >= 0 and SUIT_OF[prev] == SUIT_OF[card] and card != QS and prev != QS
                and pool & (bit - (2 << prev)) == 0):
            keep ^= bit
        prev = card
    return keep


@njit(cache=True, _nrt=False)
def mc_move(seat, k, base, h0, h1, dead, first, leader, trick, led, taken0, taken1, void_opp, legal, scratch, sums,
            r0, r1, r2, r3):
    """``mc``: K samples of the hidden cards; on each, every legal card is rolled out to
    the end of the hand with ``base`` for both seats (the same sample and the same random
    numbers for every card: common random numbers); plays the card with the fewest
    points for ``seat`` in all (moons included; ties: the lowest card). Cards equivalent
    to a lower one (``distinct_cards``) are not tried.

    What the seat sees: its hand, the cards played (so the pool of unseen cards: the
    opponent's hand and the 2 dead cards, ``h_opp | dead``), the opponent's shown voids
    and the first lead; the hidden cards are redealt by ``rules.sample_hidden``.
    Returns (card, PLAY stream state): one draw of the game's PLAY stream seeds the
    sample streams.
    """
    if legal & (legal - 1) == 0:
        return bit_index(legal), r0, r1, r2, r3
    own = h0 if seat == 0 else h1
    pool = (h1 if seat == 0 else h0) | dead  # = the deck less own hand and cards played
    options = distinct_cards(legal, pool)
    if options & (options - 1) == 0:
        return bit_index(options), r0, r1, r2, r3
    seed, r0, r1, r2, r3 = xoshiro(r0, r1, r2, r3)
    forced_dead = pool & (void_opp | KNOWN_DEAD[first])
    n = 0
    rest = options
    while rest:
        sums[n] = 0
        n += 1
        rest &= rest - 1
    for j in range(k):
        seed_stream(scratch, seed, j, PLAY)
        opp, dd, s0, s1, s2, s3 = sample_hidden(pool, forced_dead, scratch[0], scratch[1], scratch[2], scratch[3])
        a = own if seat == 0 else opp
        b = opp if seat == 0 else own
        rest = options
        i = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            t0, t1 = rollout_hand(base, a, b, dd, first, leader, trick, led, taken0, taken1, bit_index(bit),
                                  s0, s1, s2, s3)
            p0, p1, _ = hand_score(t0, t1)
            sums[i] += p0 if seat == 0 else p1
            i += 1
    best = -1
    best_sum = 1 << 62
    rest = options
    i = 0
    while rest:
        bit = rest & -rest
        rest ^= bit
        if sums[i] < best_sum:
            best, best_sum = bit_index(bit), sums[i]
        i += 1
    return best, r0, r1, r2, r3


# ---- drivers -------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def play_hand(strat, nhands, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void0, void1,
              forced, view, codes, play_rng, scratch, sums, err, trace, tracing, r0, r1, r2, r3):
    """Play the hand on from its current state (the first card ``forced`` if >= 0), each
    seat with its strategy. Returns (ok, taken0, taken1, ntr0, r0..r3); ok is False after
    an illegal user move (``err`` filled)."""
    sid0 = strat[0, 0]
    sid1 = strat[1, 0]
    # only ``mc`` reads the shown voids
    track_voids = sid0 == st.MC or sid1 == st.MC
    while trick < TRICKS:
        seat = leader if led < 0 else 1 - leader
        hand = h0 if seat == 0 else h1
        legal = legal_now(hand, trick, first, led, h0, h1, dead)
        sid = sid0 if seat == 0 else sid1
        if forced >= 0:
            card = forced
            forced = -1
        elif sid == st.MC:
            card, r0, r1, r2, r3 = mc_move(seat, strat[seat, 1], strat[seat, 2], h0, h1, dead, first, leader,
                                           trick, led, taken0, taken1, void1 if seat == 0 else void0, legal,
                                           scratch, sums, r0, r1, r2, r3)
        elif sid >= 0:
            mine = taken0 if seat == 0 else taken1
            theirs = taken1 if seat == 0 else taken0
            card, r0, r1, r2, r3 = choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3)
        else:
            card, r0, r1, r2, r3 = user_move(sid, seat, hand, legal, led, leader, trick, h0, h1, dead, taken0,
                                             taken1, ntr0, view, codes, play_rng, err, r0, r1, r2, r3)
            if card < 0:
                err[0] = 26 * (nhands - 1) + 2 * trick + (1 if led < 0 else 2)
                return False, taken0, taken1, ntr0, r0, r1, r2, r3
        if tracing:
            trace_decide(trace, seat, card, legal, codes)
        if track_voids:
            shown = shown_void(trick, led, card, led < 0 and hearts_broken(h0, h1, dead))
            void0 |= shown & (seat - 1)
            void1 |= shown & -seat
        flip = 1 << card
        h0 ^= flip & (seat - 1)
        h1 ^= flip & -seat
        if led < 0:
            led = card
        else:
            winner, taken0, taken1, ntr0 = end_trick(leader, led, card, taken0, taken1, ntr0)
            if tracing:
                tr.emit(trace, EV_TRICK, leader, led, card, winner)
            leader = winner
            led = -1
            trick += 1
    return True, taken0, taken1, ntr0, r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def play_rest(params, strat, ws, out, err, trace, tracing, nhands, dealer, score0, score1, h0, h1, dead, leader,
              trick, led, taken0, taken1, ntr0, void0, void1, forced):
    """Finish hand ``nhands`` from the state given (``h0 < 0``: deal it first), then play
    hands until the game ends; fill ``out`` (counts from this hand on). Returns
    (ok, points of seat 0 this hand, points of seat 1 this hand)."""
    deck, hands, codes, view, deal_rng, play_rng, scratch, sums = ws
    target = params[P_TARGET]
    r0, r1, r2, r3 = play_rng[0], play_rng[1], play_rng[2], play_rng[3]
    moons0 = 0
    moons1 = 0
    tricks0 = 0
    played = 0
    ntricks = 0
    qs0 = 0
    qs1 = 0
    first_p0 = 0
    first_p1 = 0
    winners = 0
    first_hand = True
    while winners == 0:
        if h0 < 0:
            # each hand shuffles the deck as the last hand left it (any order will do: the
            # shuffle makes every order equally likely), so it is set up once per game
            dead = shuffle_deal(deck, deal_rng, dealer, hands)
            if tracing:
                tr.emit(trace, EV_DEAL, nhands, dealer, 0, 0)
                for k in range(13):
                    tr.emit(trace, tr.LIST, 1 - dealer, deck[1 + 2 * k], 0, 0)
                for k in range(13):
                    tr.emit(trace, tr.LIST, dealer, deck[2 + 2 * k], 0, 0)
                tr.emit(trace, tr.LIST, TAG_DEAD, deck[0], 0, 0)
                tr.emit(trace, tr.LIST, TAG_DEAD, deck[DECK_SIZE - 1], 0, 0)
            h0 = hands[0]
            h1 = hands[1]
            leader = 0 if h0 & (1 << first_lead(dead)) else 1
            trick, led, taken0, taken1, ntr0, void0, void1 = 0, -1, 0, 0, 0, 0, 0
        if strat[0, 0] < 0 or strat[1, 0] < 0:
            view[V_HAND_NO] = nhands
            view[V_DEALER] = dealer
            view[V_SCORES] = score0
            view[V_SCORES + 1] = score1
            view[V_TARGET] = target
        played += 2 * (TRICKS - trick) - (0 if led < 0 else 1)
        ntricks += TRICKS - trick
        ok, taken0, taken1, ntr0, r0, r1, r2, r3 = play_hand(
            strat, nhands, h0, h1, dead, first_lead(dead), leader, trick, led, taken0, taken1, ntr0, void0, void1,
            forced, view, codes, play_rng, scratch, sums, err, trace, tracing, r0, r1, r2, r3)
        forced = -1
        if not ok:
            return False, 0, 0
        tricks0 += ntr0
        # only QS is worth 13 or more: 7 hearts make at most 7
        qs0 += taken0 >= 13
        qs1 += taken1 >= 13
        p0, p1, moon = hand_score(taken0, taken1)
        if first_hand:
            first_p0, first_p1 = p0, p1
            first_hand = False
        score0 += p0
        score1 += p1
        if moon == 0:
            moons0 += 1
        elif moon == 1:
            moons1 += 1
        if tracing:
            tr.emit(trace, EV_HAND_END, nhands, moon, p0, p1)
            tr.emit(trace, tr.LIST, 0, score0, 0, 0)
            tr.emit(trace, tr.LIST, 0, score1, 0, 0)
        winners = game_winners(score0, score1, target)
        if winners == 0:
            dealer = 1 - dealer
            nhands += 1
            h0 = -1
    play_rng[0], play_rng[1], play_rng[2], play_rng[3] = r0, r1, r2, r3
    out[0] = winners
    out[1] = nhands
    out[2] = played
    out[3] = score0
    out[4] = score1
    out[5] = moons0 + moons1
    out[6] = moons0
    out[7] = moons1
    out[8] = tricks0
    out[9] = ntricks - tricks0
    out[10] = qs0
    out[11] = qs1
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, nhands, 0, 0)
        tr.emit(trace, tr.LIST, 0, score0, 0, 0)
        tr.emit(trace, tr.LIST, 0, score1, 0, 0)
    return True, first_p0, first_p1


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deck, deal_rng, play_rng = ws[0], ws[4], ws[5]
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    for i in range(out.shape[0]):
        out[i] = 0
    err[0] = -1
    dealer = randbelow(deal_rng, 2)
    for i in range(DECK_SIZE):
        deck[i] = DECK_CODES[i]
    play_rest(params, strat, ws, out, err, trace, tracing, 1, dealer, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, -1)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    return (np.zeros(DECK_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(13, dtype=np.int64),
            np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(16, dtype=np.int64))


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi):
    ws = workspace(params)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, out[g], err[g], trace, False, ws)
        if err[g, 0] >= 0:
            return


@njit(parallel=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks):
    n = out.shape[0]
    for b in prange(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks)


@njit(cache=True)
def run_traced(seed, index, params, strat, out_row, err_row, trace):
    play_game(seed, index, params, strat, out_row, err_row, trace, True, workspace(params))


# ---- sampling and evaluation from a position ----------------------------------------------------

@njit(cache=True)
def sample_many(seed, pool, forced, n, out):
    """``n`` samples of the hidden cards (``out[j] = [opponent's hand, dead]``), for tests."""
    rng = np.zeros(4, dtype=np.uint64)
    for j in range(n):
        seed_stream(rng, seed, j, DEAL)
        opp, dd, _, _, _, _ = sample_hidden(pool, forced, rng[0], rng[1], rng[2], rng[3])
        out[j, 0] = opp
        out[j, 1] = dd


@njit(cache=True)
def evaluate_block(seed, start, params, strat, pos, options, worlds, result, lo, hi):
    """Samples ``lo .. hi - 1`` (see evaluate_chunk)."""
    seat, own, pool, forced_dead = pos[0], pos[1], pos[2], pos[3]
    ws = workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(12, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        if worlds.shape[0] > 0:  # enumerated: sample j is played in world j mod W
            dd = worlds[(start + j) % worlds.shape[0]]
            opp = pool & ~dd
        else:
            seed_stream(sample_rng, seed, start + j, DEAL)
            opp, dd, _, _, _, _ = sample_hidden(pool, forced_dead, sample_rng[0], sample_rng[1], sample_rng[2],
                                                sample_rng[3])
        h0 = own if seat == 0 else opp
        h1 = opp if seat == 0 else own
        for i in range(options.shape[0]):
            for c in range(DECK_SIZE):
                ws[0][c] = DECK_CODES[c]
            seed_stream(ws[4], seed, start + j, hand_purpose(0))
            seed_stream(ws[5], seed, start + j, PLAY)
            ok, p0, p1 = play_rest(params, strat, ws, out, err, trace, False, pos[4], pos[5], pos[6], pos[7], h0,
                                   h1, dd, pos[8], pos[9], pos[10], pos[11], pos[12], pos[13], pos[14], pos[15],
                                   options[i])
            result[j, i, 0] = p0 if seat == 0 else p1
            result[j, i, 1] = (out[0] >> seat) & 1


@njit(parallel=True, cache=True)
def evaluate_chunk(seed, start, params, strat, pos, options, worlds, result, nblocks):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    ``worlds`` (int64[W]): empty to sample the hidden cards (``sample_hidden``), else the
    dead-card masks of every consistent world (spec.evaluation), sample j played in world
    (start + j) mod W; the opponent holds the rest of the pool.

    ``pos`` (int64[16], from spec.evaluation): seat, own hand, pool (unseen cards),
    forced dead cards, hand number, dealer, score0, score1, leader, trick, led, taken0,
    taken1, ntr0, void0, void1. result int64[n, n_options, 2]: [the seat's points this
    hand, won the game] per sample and option.
    """
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, pos, options, worlds, result, b * n // nblocks,
                       (b + 1) * n // nblocks)
