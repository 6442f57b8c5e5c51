"""Two-player Hearts play loops (compiled): one game from a fresh deal, many games in
parallel, and the same game with the trace buffer on.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``):
    deck    int64[28]     card codes, set up once per game, shuffled in place each hand
                          (DEAL stream)
    hands   int64[2]      each seat's hand as dealt (card masks; the loop then keeps the
                          hands in registers)
    codes   int64[13]     the legal cards as codes (only for records and user strategies)
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng uint64[4]  the game's two random streams
Out row columns (spec.extra_columns): winners, hands, decisions, score_0, score_1,
moons, moons_0, moons_1 (hands in which the seat shot the moon), tricks_0, tricks_1
(tricks won), qs_0, qs_1 (hands in which the seat took QS).

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
    P_TARGET,
    first_lead,
    follow_mask,
    game_winners,
    hand_score,
    hearts_broken,
    legal_follow,
    legal_lead,
    mask_to_codes,
    second_wins,
    shuffle_deal,
    trick_points,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_DEAD = 100

V_SEAT, V_HAND_NO, V_DEALER, V_TRICK, V_LEADER, V_LED, V_BROKEN, V_HAND, V_PLAYED = 0, 1, 2, 3, 4, 5, 6, 7, 8
V_TAKEN, V_SCORES, V_TARGET, V_TRICKS = 9, 11, 13, 14
VIEW_SIZE = 16

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["user_move", "play_game", "run_block", "run_chunk", "run_traced"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True, inline="always")
def choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3):
    """The card of a built-in strategy by id: (card, PLAY stream state r0..r3).

    Scalars only (no arrays): the hot loop stays free of reference counting. A user
    strategy (negative id) is not handled here: see ``user_move``.
    """
    if sid == st.RANDOM:
        return st.random_move(legal, r0, r1, r2, r3)
    return st.heuristic_move(hand, legal, led, mine, theirs), r0, r1, r2, r3


@njit(cache=True)
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


@njit(cache=True)
def trace_decide(trace, seat, card, legal, codes):
    n = mask_to_codes(legal, codes)
    tr.emit(trace, EV_DECIDE, seat, card, 0, 0)
    tr.emit_list(trace, 0, codes, n)


@njit(cache=True)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deck, hands, codes, view, deal_rng, play_rng = ws
    target = params[P_TARGET]
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    r0, r1, r2, r3 = play_rng[0], play_rng[1], play_rng[2], play_rng[3]
    sid0 = strat[0, 0]
    sid1 = strat[1, 0]
    for i in range(out.shape[0]):
        out[i] = 0
    err[0] = -1
    score0 = 0
    score1 = 0
    moons0 = 0
    moons1 = 0
    tricks0 = 0
    qs0 = 0
    qs1 = 0
    dealer = randbelow(deal_rng, 2)
    for i in range(DECK_SIZE):
        deck[i] = DECK_CODES[i]
    nhands = 0
    winners = 0
    while winners == 0:
        nhands += 1
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
        first = first_lead(dead)
        h0 = hands[0]
        h1 = hands[1]
        leader = 0 if h0 & (1 << first) else 1
        taken0 = 0  # points taken in tricks this hand
        taken1 = 0
        ntr0 = 0
        if sid0 < 0 or sid1 < 0:
            view[V_HAND_NO] = nhands
            view[V_DEALER] = dealer
            view[V_SCORES] = score0
            view[V_SCORES + 1] = score1
            view[V_TARGET] = target
        for trick in range(13):
            # the lead
            seat = leader
            hand = h0 if seat == 0 else h1
            legal = (1 << first) if trick == 0 else legal_lead(hand, hearts_broken(h0, h1, dead))
            sid = sid0 if seat == 0 else sid1
            if sid >= 0:
                mine = taken0 if seat == 0 else taken1
                theirs = taken1 if seat == 0 else taken0
                led, r0, r1, r2, r3 = choose_move(sid, hand, legal, -1, mine, theirs, r0, r1, r2, r3)
            else:
                led, r0, r1, r2, r3 = user_move(sid, seat, hand, legal, -1, leader, trick, h0, h1, dead, taken0,
                                                taken1, ntr0, view, codes, play_rng, err, r0, r1, r2, r3)
                if led < 0:
                    err[0] = 26 * (nhands - 1) + 2 * trick + 1
                    return
            if tracing:
                trace_decide(trace, seat, led, legal, codes)
            flip = 1 << led
            h0 ^= flip & (seat - 1)
            h1 ^= flip & -seat
            # the follow
            seat = 1 - leader
            hand = h0 if seat == 0 else h1
            follow = follow_mask(led)
            legal = legal_follow(hand, follow)
            sid = sid0 if seat == 0 else sid1
            if sid >= 0:
                mine = taken0 if seat == 0 else taken1
                theirs = taken1 if seat == 0 else taken0
                card, r0, r1, r2, r3 = choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3)
            else:
                card, r0, r1, r2, r3 = user_move(sid, seat, hand, legal, led, leader, trick, h0, h1, dead, taken0,
                                                 taken1, ntr0, view, codes, play_rng, err, r0, r1, r2, r3)
                if card < 0:
                    err[0] = 26 * (nhands - 1) + 2 * trick + 2
                    return
            if tracing:
                trace_decide(trace, seat, card, legal, codes)
            flip = 1 << card
            h0 ^= flip & (seat - 1)
            h1 ^= flip & -seat
            # the trick (branch-free where the outcome is a coin flip)
            winner = leader ^ np.int64(second_wins(led, card, follow))
            pts = trick_points(led, card)
            taken0 += pts & (winner - 1)
            taken1 += pts & -winner
            ntr0 += 1 - winner
            if tracing:
                tr.emit(trace, EV_TRICK, leader, led, card, winner)
            leader = winner
        tricks0 += ntr0
        # only QS is worth 13 or more: 7 hearts make at most 7
        qs0 += taken0 >= 13
        qs1 += taken1 >= 13
        p0, p1, moon = hand_score(taken0, taken1)
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
        dealer = 1 - dealer
    out[0] = winners
    out[1] = nhands
    out[2] = 26 * nhands
    out[3] = score0
    out[4] = score1
    out[5] = moons0 + moons1
    out[6] = moons0
    out[7] = moons1
    out[8] = tricks0
    out[9] = 13 * nhands - tricks0
    out[10] = qs0
    out[11] = qs1
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, nhands, 0, 0)
        tr.emit(trace, tr.LIST, 0, score0, 0, 0)
        tr.emit(trace, tr.LIST, 0, score1, 0, 0)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    return (np.zeros(DECK_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(13, dtype=np.int64),
            np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64))


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
