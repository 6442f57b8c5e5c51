"""Ninety-Nine play loops (compiled): one game from a fresh deal, many games in parallel,
and the same game with the trace buffer on.

Arrays a game reads and writes (allocated once per block of games, see ``Workspace``):
    hands   int64[P, 3]   card codes (``id % 52``) held by each seat
    stock   int64[52*D]   the stock; ``stock[top:end]`` is still to be drawn, lazily
                          shuffled from the round's deal stream (rng.draw_lazy)
    pile    int64[52*D]   cards on the pile this round, oldest first
    chips   int64[P], active bool[P]
    legal   int64[15]     legal move codes of the current decision
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
Out row columns (spec.extra_columns): winners, hands (rounds), decisions (plays),
score_s (final chips), busts_s, busts_pos_k, rounds_pos_k for k = position clockwise
from the dealer (0 = dealer, 1 = first to play).

User strategy view (``view``, int64): V_SEAT, V_PLAYERS, V_DEALER, V_TOTAL, V_DIR,
V_STOCK (cards left in stock), V_HAND..+3 (ranks 0..12 = 2..A of the 3 cards held),
V_PILE..+13 (how many of each rank lie on the pile since the last rebuild),
V_CHIPS..+10 (chips per seat), V_ACTIVE..+10 (1 if the seat is still in).
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.ninety_nine import strategies as st
from analyzer.games.ninety_nine.rules import (
    MOVE_RANK,
    P_CHIPS,
    P_DECKS,
    P_OUT_AT_ZERO,
    P_PLAYERS,
    RANK_FOUR,
    RANK_OF,
    legal_moves,
    next_active,
    slot_of_rank,
    total_after,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, hand_purpose, preview_into, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_PILE, EV_DRAW, EV_RESHUFFLE, EV_BUST, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK, TAG_CHIPS = 100, 101

V_SEAT, V_PLAYERS, V_DEALER, V_TOTAL, V_DIR, V_STOCK, V_HAND, V_PILE, V_CHIPS, V_ACTIVE = (
    0, 1, 2, 3, 4, 5, 6, 9, 22, 32)
VIEW_SIZE = 42
MAX_PLAYERS = 10

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_move", "play_game", "run_block", "run_chunk", "run_traced"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True)
def fill_view(view, seat, dealer, total, direction, stock_left, hand, pile_counts, chips, active):
    view[:] = 0
    view[V_SEAT] = seat
    view[V_PLAYERS] = chips.shape[0]
    view[V_DEALER] = dealer
    view[V_TOTAL] = total
    view[V_DIR] = direction
    view[V_STOCK] = stock_left
    for i in range(3):
        view[V_HAND + i] = RANK_OF[hand[i]]
    for r in range(13):
        view[V_PILE + r] = pile_counts[r]
    for s in range(chips.shape[0]):
        view[V_CHIPS + s] = chips[s]
        view[V_ACTIVE + s] = 1 if active[s] else 0


@njit(cache=True, inline="always")
def choose_move(strat, seat, hands, total, legal, n, rng, view):
    """The move of ``seat``'s strategy (built-in by id, or a user slot)."""
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return st.random_move(legal, n, rng)
    if sid == st.HEURISTIC:
        return st.heuristic_move(hands, seat, total, legal, n)
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True, inline="always")
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    hands, stock, pile, chips, active, legal, view, pile_counts, position, deal_rng, play_rng, order, scratch = ws
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    out_at_zero = params[P_OUT_AT_ZERO] != 0
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    has_user = False
    for s in range(players):
        chips[s] = params[P_CHIPS]
        active[s] = True
        if strat[s, 0] < 0:
            has_user = True
    out[:] = 0
    err[0] = -1
    nbase = 3 + players  # winners, hands, decisions, scores
    nactive = players
    dealer = randbelow(deal_rng, players)
    rounds = 0
    decisions = 0
    while nactive > 1:
        rounds += 1
        # positions clockwise from the dealer, counting players still in
        s = dealer
        for k in range(nactive):
            position[s] = k
            out[nbase + 2 * players + k] += 1  # rounds_pos_k
            s = next_active(s, 1, active)
        # each round shuffles from its own stream: round k of game i is dealt alike whatever
        # happened before (duplicate deals across strategy permutations)
        seed_stream(deal_rng, seed, index, hand_purpose(rounds))
        for d in range(0, ncards, 52):  # all cards gathered: codes 0..51 once per deck
            for c in range(52):
                stock[d + c] = c
        top, end = 0, ncards
        s = dealer
        for c in range(3):
            for k in range(nactive):
                s = next_active(s, 1, active)
                hands[s, c] = draw_lazy(stock, top, end, deal_rng)
                top += 1
        if tracing:
            tr.emit(trace, EV_DEAL, rounds, dealer, 0, 0)
            for p in range(players):
                if active[p]:
                    tr.emit_list(trace, p, hands[p], 3)
            tr.emit_list(trace, TAG_STOCK, order, preview_into(stock, top, end, deal_rng, order, scratch))
            tr.emit_list(trace, TAG_CHIPS, chips, players)
        total, direction, npile = 0, 1, 0
        pile_counts[:] = 0
        seat = next_active(dealer, 1, active)
        while True:
            n = legal_moves(hands, seat, total, legal)
            if n == 0:
                break
            if has_user and strat[seat, 0] < 0:
                fill_view(view, seat, dealer, total, direction, end - top, hands[seat], pile_counts, chips, active)
            move = choose_move(strat, seat, hands, total, legal, n, play_rng, view)
            decisions += 1
            # built-ins pick from ``legal`` by construction; only user moves are checked
            if strat[seat, 0] < 0 and not is_in(move, legal, n):
                err[0] = decisions
                err[1] = seat
                err[2] = move
                return
            rank = MOVE_RANK[move]
            slot = slot_of_rank(hands, seat, rank)
            if tracing:
                tr.emit(trace, EV_DECIDE, seat, move, hands[seat, slot], 0)
                tr.emit_list(trace, 0, legal, n)
            pile[npile] = hands[seat, slot]
            npile += 1
            pile_counts[rank] += 1
            total = total_after(total, move)
            if rank == RANK_FOUR:
                direction = -direction
            if tracing:
                tr.emit(trace, EV_PILE, total, direction, 0, 0)
            if top == end:
                # rebuild: the card just played stays on the pile, the rest is the stock
                for i in range(npile - 1):
                    stock[i] = pile[i]
                    pile_counts[RANK_OF[pile[i]]] -= 1
                top, end = 0, npile - 1
                pile[0] = pile[npile - 1]
                npile = 1
                if tracing:
                    tr.emit(trace, EV_RESHUFFLE, 0, 0, 0, 0)
                    tr.emit_list(trace, TAG_STOCK, order, preview_into(stock, top, end, deal_rng, order, scratch))
            hands[seat, slot] = draw_lazy(stock, top, end, deal_rng)
            top += 1
            if tracing:
                tr.emit(trace, EV_DRAW, seat, hands[seat, slot], 0, 0)
            seat = next_active(seat, direction, active)
        # ``seat`` goes over: pays a chip, or is out if it has none left to pay
        paid = 0
        if chips[seat] > 0:
            chips[seat] -= 1
            paid = 1
            gone = out_at_zero and chips[seat] == 0
        else:
            gone = True
        out[nbase + seat] += 1  # busts_s
        out[nbase + players + position[seat]] += 1  # busts_pos_k
        if gone:
            active[seat] = False
            nactive -= 1
        if tracing:
            tr.emit(trace, EV_BUST, seat, chips[seat], 1 if gone else 0, 0)
            tr.emit(trace, EV_HAND_END, rounds, seat, paid, 0)
            tr.emit_list(trace, 0, chips, players)
        dealer = next_active(dealer, 1, active)
    winners = 0
    for s in range(players):
        if active[s]:
            winners |= 1 << s
        out[3 + s] = chips[s]
    out[0] = winners
    out[1] = rounds
    out[2] = decisions
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, rounds, 0, 0)
        tr.emit_list(trace, 0, chips, players)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    return (np.zeros((players, 3), dtype=np.int64), np.zeros(ncards, dtype=np.int64),
            np.zeros(ncards, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.bool_), np.zeros(15, dtype=np.int64),
            np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(13, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(ncards, dtype=np.int64),
            np.zeros(4, dtype=np.uint64))


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
