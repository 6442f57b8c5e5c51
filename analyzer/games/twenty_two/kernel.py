"""Twenty-Two play loops (compiled): one game from the first deal, many games in
parallel, and the same game with the trace buffer on.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``):
    deck    int64[52]     the cards of this hand's deck (not yet scored); ``deck[top:ndeck]``
                          is the stock, lazily shuffled from the game's DEAL stream
    hmask   int64[P]      card bitmask (bit = card code) of each seat's hand
    hpk     int64[P]      the same hand as a packed count vector (rules.py)
    scores  int64[P], active bool[P], gone int64[P] (hand in which the seat went out)
    legal   int64[2048]   legal moves (packed sets) of the current decision
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    scr     int64[SCRATCH] scratch of the legal-set enumerator and sampler (rules.py)
    cards, order, fcards, takers  int64[52] small lists for draws and the final trick
Out row columns (spec.extra_columns): winners, hands, decisions (discards, leads and
follows), score_s (final points), then per seat ``took_s`` (hands in which the seat took
the final trick), ``played_s`` (hands the seat was dealt into), ``place_s`` (finishing
place: 1 for a winner, else 1 + the players who stayed in longer; players out in the
same hand share a place).

User strategy ``f(view, legal, n, rng) -> move`` (a packed set, one of ``legal[:n]``);
``view`` (int64): V_SEAT, V_PLAYERS, V_DEALER, V_KIND (0 discard, 1 lead, 2 follow),
V_STOCK (cards left in the stock), V_HAND_SIZE, V_HAND (own hand, packed), V_SET (set
size to follow, 0 otherwise), V_BEST (best set so far, packed; 0 when not following),
V_BEST_SEAT, V_LEADER, V_HAND_NO, V_TARGET, V_COUNTS..+13 (own cards per rank),
V_PLAYED..+13 (cards per rank played to this hand's ordinary tricks so far),
V_SCORES..+6, V_ACTIVE..+6 (1 if the seat is still in).
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.twenty_two import strategies as st
from analyzer.games.twenty_two.rules import (
    FIRST_HAND_SIZE,
    MAX_LEGAL,
    P_LOWEST_ONLY,
    P_PLAYERS,
    P_TARGET,
    RANK_OF,
    RANK_POINTS,
    SCRATCH,
    beats,
    legal_discards,
    legal_follows,
    legal_leads,
    lowest_rank,
    nib,
    one,
    set_size,
    take_cards,
    next_active,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, preview_order, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_DRAW, EV_TRICK, EV_FINAL, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7
TAG_STOCK = 100
KIND_DISCARD, KIND_LEAD, KIND_FOLLOW = st.KIND_DISCARD, st.KIND_LEAD, st.KIND_FOLLOW

(V_SEAT, V_PLAYERS, V_DEALER, V_KIND, V_STOCK, V_HAND_SIZE, V_HAND, V_SET, V_BEST, V_BEST_SEAT,
 V_LEADER, V_HAND_NO, V_TARGET) = range(13)
V_COUNTS, V_PLAYED, V_SCORES, V_ACTIVE = 13, 26, 39, 45
VIEW_SIZE = 51
MAX_PLAYERS = 6

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_move", "play_game", "run_block", "run_chunk", "run_traced"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True)
def fill_view(view, seat, dealer, kind, stock_left, hand_size, hand, s, best, best_seat, leader,
              hand_no, target, played, scores, active):
    view[:] = 0
    view[V_SEAT] = seat
    view[V_PLAYERS] = scores.shape[0]
    view[V_DEALER] = dealer
    view[V_KIND] = kind
    view[V_STOCK] = stock_left
    view[V_HAND_SIZE] = hand_size
    view[V_HAND] = hand
    view[V_SET] = s
    view[V_BEST] = best
    view[V_BEST_SEAT] = best_seat
    view[V_LEADER] = leader
    view[V_HAND_NO] = hand_no
    view[V_TARGET] = target
    for r in range(13):
        view[V_COUNTS + r] = nib(hand, r)
        view[V_PLAYED + r] = nib(played, r)
    for p in range(scores.shape[0]):
        view[V_SCORES + p] = scores[p]
        view[V_ACTIVE + p] = 1 if active[p] else 0


@njit(cache=True)
def choose_move(strat, seat, kind, hand, hand_size, s, best, stock_left, low_only, legal, n, rng,
                view, scr):
    """The move of ``seat``'s strategy (built-in by id, or a user slot)."""
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return st.random_move(kind, hand, hand_size, s, best, stock_left, low_only, legal, n, rng, scr)
    if sid == st.HEURISTIC:
        return st.heuristic_move(kind, hand, hand_size, s, best, stock_left)
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


@njit(cache=True)
def emit_mask(trace, tag, mask):
    """A card bitmask as a trace list (codes ascending)."""
    for c in range(52):
        if mask & (np.int64(1) << c):
            tr.emit(trace, tr.LIST, tag, c, 0, 0)


@njit(cache=True)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deck, hmask, hpk, scores, active, gone, legal, view, scr, cards, order, fcards, takers, points = ws
    players = params[P_PLAYERS]
    target = params[P_TARGET]
    low_only = params[P_LOWEST_ONLY] != 0
    deal_rng = np.empty(4, dtype=np.uint64)
    play_rng = np.empty(4, dtype=np.uint64)
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    has_user = False
    for p in range(players):
        scores[p] = 0
        active[p] = True
        gone[p] = 0
        if strat[p, 0] < 0:
            has_user = True
    out[:] = 0
    err[0] = -1
    nbase = 3 + players  # winners, hands, decisions, scores
    c_took, c_played, c_place = nbase, nbase + players, nbase + 2 * players
    nactive = players
    scored = np.int64(0)
    dealer = randbelow(deal_rng, players)
    size = FIRST_HAND_SIZE
    hands = 0
    decisions = 0
    winners = 0
    while True:
        ndeck = 0
        for c in range(52):
            if not scored & (np.int64(1) << c):
                deck[ndeck] = c
                ndeck += 1
        if ndeck < size * nactive:
            size = ndeck // nactive
        if size == 0:
            # safeguard: nobody can be dealt a card; lowest score among active players wins
            low = 1 << 30
            for p in range(players):
                if active[p] and scores[p] < low:
                    low = scores[p]
            for p in range(players):
                if active[p] and scores[p] == low:
                    winners |= 1 << p
            break
        hands += 1
        # ---- deal: one card at a time, clockwise from left of the dealer
        for p in range(players):
            hmask[p] = 0
            hpk[p] = 0
        top = 0
        for c in range(size):
            p = dealer
            for k in range(nactive):
                p = next_active(p, active)
                card = draw_lazy(deck, top, ndeck, deal_rng)
                top += 1
                hmask[p] |= np.int64(1) << card
                hpk[p] += one(RANK_OF[card])
        for p in range(players):
            if active[p]:
                out[c_played + p] += 1
        played = np.int64(0)
        if tracing:
            tr.emit(trace, EV_DEAL, hands, dealer, size, 0)
            for p in range(players):
                if active[p]:
                    emit_mask(trace, p, hmask[p])
            stock_order = preview_order(deck, top, ndeck, deal_rng)
            tr.emit_list(trace, TAG_STOCK, stock_order, stock_order.shape[0])
        # ---- discard phase
        p = dealer
        for k in range(nactive):
            p = next_active(p, active)
            stock_left = ndeck - top
            sid = strat[p, 0]
            n = 0
            if tracing or sid < 0:
                n = legal_discards(hpk[p], stock_left, legal, scr)
            if has_user and sid < 0:
                fill_view(view, p, dealer, KIND_DISCARD, stock_left, size, hpk[p], 0, 0, -1, -1,
                          hands, target, played, scores, active)
            move = choose_move(strat, p, KIND_DISCARD, hpk[p], size, 0, 0, stock_left, low_only,
                               legal, n, play_rng, view, scr)
            decisions += 1
            if sid < 0 and not is_in(move, legal, n):
                err[0] = decisions
                err[1] = p
                err[2] = move
                return
            if tracing:
                tr.emit(trace, EV_DECIDE, p, KIND_DISCARD, move, 0)
                tr.emit_list(trace, 0, legal, n)
            hmask[p] = take_cards(hmask[p], move)
            hpk[p] -= move
            ndraw = set_size(move)
            for j in range(ndraw):
                card = draw_lazy(deck, top, ndeck, deal_rng)
                top += 1
                cards[j] = card
                hmask[p] |= np.int64(1) << card
                hpk[p] += one(RANK_OF[card])
            if tracing:
                tr.emit(trace, EV_DRAW, p, ndraw, 0, 0)
                tr.emit_list(trace, 0, cards, ndraw)
        # ---- ordinary tricks
        hs = size
        leader = next_active(dealer, active)
        while hs >= 2:
            sid = strat[leader, 0]
            n = 0
            if tracing or sid < 0:
                n = legal_leads(hpk[leader], hs, legal)
            if has_user and sid < 0:
                fill_view(view, leader, dealer, KIND_LEAD, ndeck - top, hs, hpk[leader], 0, 0, -1,
                          leader, hands, target, played, scores, active)
            move = choose_move(strat, leader, KIND_LEAD, hpk[leader], hs, 0, 0, ndeck - top, low_only,
                               legal, n, play_rng, view, scr)
            decisions += 1
            if sid < 0 and not is_in(move, legal, n):
                err[0] = decisions
                err[1] = leader
                err[2] = move
                return
            if tracing:
                tr.emit(trace, EV_DECIDE, leader, KIND_LEAD, move, 0)
                tr.emit_list(trace, 0, legal, n)
            hmask[leader] = take_cards(hmask[leader], move)
            hpk[leader] -= move
            played += move
            s = set_size(move)
            best = move
            winner = leader
            p = leader
            for k in range(nactive - 1):
                p = next_active(p, active)
                sid = strat[p, 0]
                n = 0
                if tracing or sid < 0:
                    n = legal_follows(hpk[p], s, best, low_only, legal, scr)
                if has_user and sid < 0:
                    fill_view(view, p, dealer, KIND_FOLLOW, ndeck - top, hs, hpk[p], s, best, winner,
                              leader, hands, target, played, scores, active)
                move = choose_move(strat, p, KIND_FOLLOW, hpk[p], hs, s, best, ndeck - top, low_only,
                                   legal, n, play_rng, view, scr)
                decisions += 1
                if sid < 0 and not is_in(move, legal, n):
                    err[0] = decisions
                    err[1] = p
                    err[2] = move
                    return
                if tracing:
                    tr.emit(trace, EV_DECIDE, p, KIND_FOLLOW, move, 0)
                    tr.emit_list(trace, 0, legal, n)
                hmask[p] = take_cards(hmask[p], move)
                hpk[p] -= move
                played += move
                if move >= best if s == 1 else beats(move, best):  # singles: compare ranks
                    best = move
                    winner = p
            hs -= s
            leader = winner
            if tracing:
                tr.emit(trace, EV_TRICK, winner, 0, 0, 0)
        # ---- final trick: everyone plays their last card, from the leader clockwise
        top_rank = -1
        p = leader
        for k in range(nactive):
            order[k] = p
            r = lowest_rank(hpk[p])
            for sv in range(4):
                if hmask[p] & (np.int64(1) << (sv * 13 + r)):
                    fcards[k] = sv * 13 + r
                    break
            if r > top_rank:
                top_rank = r
            p = next_active(p, active)
        ntakers = 0
        for p in range(players):
            points[p] = 0
        for k in range(nactive):
            p = order[k]
            if RANK_OF[fcards[k]] == top_rank:
                takers[ntakers] = p
                ntakers += 1
                points[p] = RANK_POINTS[top_rank]
                scores[p] += points[p]
                scored |= np.int64(1) << fcards[k]
                out[c_took + p] += 1
        loser = takers[0]
        if tracing:
            tr.emit(trace, EV_FINAL, nactive, ntakers, 0, 0)
            tr.emit_list(trace, 0, order, nactive)
            tr.emit_list(trace, 1, fcards, nactive)
            tr.emit_list(trace, 2, takers, ntakers)
        # ---- elimination
        was_in = 0
        nout = 0
        for p in range(players):
            if active[p]:
                was_in |= 1 << p
                if scores[p] >= target:
                    active[p] = False
                    gone[p] = hands
                    nactive -= 1
                    cards[nout] = p
                    nout += 1
        if tracing:
            tr.emit(trace, EV_HAND_END, hands, 0, 0, 0)
            tr.emit_list(trace, 0, points, players)
            tr.emit_list(trace, 1, scores, players)
            tr.emit_list(trace, 2, cards, nout)
        dealer = loser
        size = RANK_POINTS[top_rank]
        if nactive == 1:
            for p in range(players):
                if active[p]:
                    winners = 1 << p
            break
        if nactive == 0:
            low = 1 << 30
            for p in range(players):
                if was_in & (1 << p) and scores[p] < low:
                    low = scores[p]
            for p in range(players):
                if was_in & (1 << p) and scores[p] == low:
                    winners |= 1 << p
            break
    # finishing places: winners stay longest, then players still in, then by hand out
    for p in range(players):
        if winners & (1 << p):
            gone[p] = hands + 2
        elif active[p]:
            gone[p] = hands + 1
    for p in range(players):
        place = 1
        for q in range(players):
            if gone[q] > gone[p]:
                place += 1
        out[c_place + p] = place
        out[3 + p] = scores[p]
    out[0] = winners
    out[1] = hands
    out[2] = decisions
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, hands, 0, 0)
        tr.emit_list(trace, 0, scores, players)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    players = params[P_PLAYERS]
    return (np.zeros(52, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.bool_), np.zeros(players, dtype=np.int64),
            np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(SCRATCH, dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
            np.zeros(players, dtype=np.int64))


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
