"""Two-Ten-Jack play loops (compiled): one game from a fresh deal, many games in parallel,
and the same game with the trace buffer on.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``):
    stock    int64[52]   the deck; ``stock[top:52]`` is still to be drawn, lazily shuffled
                         from the game's DEAL stream (rng.draw_lazy)
    legal    int64[64]   legal move codes of a user decision / list scratch for the trace
    view     int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng   uint64[4] the game's two random streams
    taken    int64[2]    bit mask of the cards each seat took in tricks this round
    scores   int64[2]    running scores
Out row columns (spec.extra_columns), after winners, hands (rounds), decisions, score_0/1:
    points_dealer, points_nondealer   sums over the game's rounds
    as_led, as_led_trump              rounds where AS was led (as a trump)
    bin_dealer_k, bin_nondealer_k     rounds where the dealer's / non-dealer's round points
                                      fell in bin k (BIN_LABELS in spec.py)
    dealt_s                           rounds seat s dealt
    points_dealing_s, points_nondealing_s   seat s's points in the rounds it dealt / did not

User strategy view (``view``, int64): V_SEAT, V_DEALER, V_TARGET, V_STOCK (cards left in
the stock), V_TRICK (1..26), V_LEAD (card led, -1 when leading), V_SUIT (suit led, -1 when
leading), V_HAND (mask of the cards held), V_PLAYED (mask of the cards played in earlier
tricks of this round), V_TAKEN..+2 (mask of the cards each seat took this round),
V_SCORE..+2 (scores before this round), V_ROUND (round number from 1).

Dispatch: built-in strategies go through ``choose_move`` (inlined, scalar arguments and
the PLAY stream only); user strategies through ``choose_user`` (not inlined, it builds the
legal list). A non-inlined dispatcher taking arrays on every decision ran random play at
about a third of today's speed here, and an inlined one that still held the user call
at 0.85M rounds/s (one core, CPU time); split like this it runs 1.15M.
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.two_ten_jack import strategies as st
from analyzer.games.two_ten_jack.rules import (
    ACE_SPADES,
    AS_TRUMP,
    HAND_SIZE,
    P_TARGET,
    TRICKS,
    follow_moves,
    follower_wins,
    lead_card,
    lead_moves,
    lowest,
    mask_points,
    round_winners,
    suit_led,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, preview_order, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_STOCK, TAG_DRAWS = 100, 102

V_SEAT, V_DEALER, V_TARGET, V_STOCK, V_TRICK, V_LEAD, V_SUIT, V_HAND, V_PLAYED, V_TAKEN, V_SCORE, V_ROUND = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13)
VIEW_SIZE = 14

# out row layout
O_SCORE = 3
O_PTS_DEALER, O_PTS_NON, O_AS_LED, O_AS_TRUMP, O_BIN_DEALER = 5, 6, 7, 8, 9
N_BINS = 7
O_BIN_NON = O_BIN_DEALER + N_BINS
O_DEALT = O_BIN_NON + N_BINS
O_PTS_DEALING = O_DEALT + 2
O_PTS_NONDEALING = O_PTS_DEALING + 2
N_COLUMNS = O_PTS_NONDEALING + 2

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_user", "play_game", "run_block", "run_chunk", "run_traced"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True, inline="always")
def point_bin(x):
    """Histogram bin of a player's round points: <=-10, -9..-5, -4..0, 1..4, 5..9, 10..14, >=15."""
    if x <= -10:
        return 0
    if x <= -5:
        return 1
    if x <= 0:
        return 2
    if x <= 4:
        return 3
    if x <= 9:
        return 4
    if x <= 14:
        return 5
    return 6


@njit(cache=True)
def mask_list(mask, arr):
    """Write the set bits of ``mask`` (low to high) into ``arr``; returns how many."""
    n = 0
    m = mask
    while m:
        arr[n] = lowest(m)
        n += 1
        m &= m - 1
    return n


@njit(cache=True, inline="always")
def choose_move(sid, mask, hand, lead, stock_left, played, rng):
    """The move of a built-in strategy ``sid`` (strat[seat, 0]); ``lead`` is -1 when the
    seat leads. User strategies (negative ids) go through ``choose_user``."""
    if sid == st.RANDOM:
        return st.random_move(mask, rng)
    if lead < 0:
        return st.heuristic_lead(hand, played, stock_left)
    return st.heuristic_follow(mask, lead, stock_left)


@njit(cache=True)
def choose_user(sid, mask, rng, legal, view):
    """The move of user strategy slot ``-1 - sid``, given the legal moves as a list."""
    n = mask_list(mask, legal)
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def fill_view(view, seat, dealer, target, stock_left, trick, lead, suit, hand, played, taken, scores, rnd):
    view[V_SEAT] = seat
    view[V_DEALER] = dealer
    view[V_TARGET] = target
    view[V_STOCK] = stock_left
    view[V_TRICK] = trick
    view[V_LEAD] = lead
    view[V_SUIT] = suit
    view[V_HAND] = hand
    view[V_PLAYED] = played
    view[V_TAKEN] = taken[0]
    view[V_TAKEN + 1] = taken[1]
    view[V_SCORE] = scores[0]
    view[V_SCORE + 1] = scores[1]
    view[V_ROUND] = rnd


@njit(cache=True, inline="always")
def bad_move(move, mask):
    return move < 0 or move >= 64 or ((mask >> move) & 1) == 0


@njit(cache=True)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    stock, legal, view, deal_rng, play_rng, taken, scores = ws
    target = params[P_TARGET]
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    user0 = strat[0, 0] < 0
    user1 = strat[1, 0] < 0
    out[:] = 0
    err[0] = -1
    scores[0] = 0
    scores[1] = 0
    one = np.int64(1)
    dealer = randbelow(deal_rng, 2)
    rounds = 0
    decisions = 0
    winners = 0
    while True:
        rounds += 1
        for c in range(52):
            stock[c] = c
        top = 0
        non = 1 - dealer
        # hands by role: ``hl`` the leader's, ``hf`` the follower's (swapped when the
        # follower wins), so the hot loop keeps them in registers
        hl = np.int64(0)
        hf = np.int64(0)
        for k in range(HAND_SIZE):  # one at a time, non-dealer first
            hl |= one << draw_lazy(stock, top, 52, deal_rng)
            top += 1
            hf |= one << draw_lazy(stock, top, 52, deal_rng)
            top += 1
        if tracing:
            tr.emit(trace, EV_DEAL, rounds, dealer, 0, 0)
            for p in range(2):
                tr.emit_list(trace, p, legal, mask_list(hl if p == non else hf, legal))
            order = preview_order(stock, top, 52, deal_rng)
            tr.emit_list(trace, TAG_STOCK, order, order.shape[0])
        taken[0] = 0
        taken[1] = 0
        played = np.int64(0)
        leader = non
        for trick in range(TRICKS):
            follower = 1 - leader
            # ---- lead
            mask = lead_moves(hl)
            user = user0 if leader == 0 else user1
            if user:
                fill_view(view, leader, dealer, target, 52 - top, trick + 1, -1, -1, hl, played, taken,
                          scores, rounds)
                move = choose_user(strat[leader, 0], mask, play_rng, legal, view)
            else:
                move = choose_move(strat[leader, 0], mask, hl, -1, 52 - top, played, play_rng)
            decisions += 1
            if user and bad_move(move, mask):
                err[0] = decisions
                err[1] = leader
                err[2] = move
                return
            if tracing:
                tr.emit(trace, EV_DECIDE, leader, move, 0, 0)
                tr.emit_list(trace, 0, legal, mask_list(mask, legal))
            lc = lead_card(move)
            ls = suit_led(move)
            hl ^= one << lc
            if lc == ACE_SPADES:
                out[O_AS_LED] += 1
                if move == AS_TRUMP:
                    out[O_AS_TRUMP] += 1
            # ---- follow
            mask = follow_moves(hf, ls)
            user = user0 if follower == 0 else user1
            if user:
                fill_view(view, follower, dealer, target, 52 - top, trick + 1, lc, ls, hf, played, taken,
                          scores, rounds)
                fc = choose_user(strat[follower, 0], mask, play_rng, legal, view)
            else:
                fc = choose_move(strat[follower, 0], mask, hf, lc, 52 - top, played, play_rng)
            decisions += 1
            if user and bad_move(fc, mask):
                err[0] = decisions
                err[1] = follower
                err[2] = fc
                return
            if tracing:
                tr.emit(trace, EV_DECIDE, follower, fc, 0, 0)
                tr.emit_list(trace, 0, legal, mask_list(mask, legal))
            hf ^= one << fc
            # ---- resolve
            both = (one << lc) | (one << fc)
            played |= both
            if follower_wins(lc, fc):  # the follower leads next: swap the roles
                winner = follower
                hl, hf = hf, hl
            else:
                winner = leader
            taken[winner] |= both
            if tracing:
                tr.emit(trace, EV_TRICK, leader, lc, fc, winner)
            if top < 52:  # the winner (now ``hl``) draws, then the loser
                cw = draw_lazy(stock, top, 52, deal_rng)
                hl |= one << cw
                cl = draw_lazy(stock, top + 1, 52, deal_rng)
                hf |= one << cl
                top += 2
                if tracing:
                    tr.emit(trace, tr.LIST, TAG_DRAWS, cw, 0, 0)
                    tr.emit(trace, tr.LIST, TAG_DRAWS, cl, 0, 0)
            leader = winner
        p0 = mask_points(taken[0])
        p1 = mask_points(taken[1])
        scores[0] += p0
        scores[1] += p1
        pd = p0 if dealer == 0 else p1
        pn = p1 if dealer == 0 else p0
        out[O_PTS_DEALER] += pd
        out[O_PTS_NON] += pn
        out[O_BIN_DEALER + point_bin(pd)] += 1
        out[O_BIN_NON + point_bin(pn)] += 1
        out[O_DEALT + dealer] += 1
        out[O_PTS_DEALING + dealer] += pd
        out[O_PTS_NONDEALING + non] += pn
        if tracing:
            tr.emit(trace, EV_HAND_END, rounds, p0, p1, 0)
            tr.emit_list(trace, 0, scores, 2)
        winners = round_winners(scores[0], scores[1], target)
        if winners:
            break
        dealer = non
    out[0] = winners
    out[1] = rounds
    out[2] = decisions
    out[O_SCORE] = scores[0]
    out[O_SCORE + 1] = scores[1]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, rounds, 0, 0)
        tr.emit_list(trace, 0, scores, 2)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    return (np.zeros(52, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(2, dtype=np.int64),
            np.zeros(2, dtype=np.int64))


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
