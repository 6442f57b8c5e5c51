"""10-Point Pitch play loops (compiled): one game from a fresh deal, many games in
parallel, and the same game with the trace buffer on.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``):
    deck     int64[54]   the shuffled deck, drawn lazily (rng.draw_lazy): 36 cards dealt,
                         ``deck[top:54]`` is the stock
    legal    int64[16]   legal move codes of the current decision (rules.py)
    view     int64[VIEW_SIZE]  what a user strategy sees (layout below)
    h54      int64[4]    the nine cards dealt to each seat (54-bit masks)
    h16      int64[4]    trumps held by each seat once trump is named (strength masks)
    bids     int64[4]    each seat's bid this round (-1 not yet, 0 pass, 4..10, 11 moon)
    received int64[4]    cards each seat was dealt in the refill (-1 before it)
    tmp      int64[64]   scratch for trace lists
    trick    int64[4]    card played by each seat in the current trick (-1 none)
    scores   int64[2], taken int64[2]   per team
Out row columns (spec.extra_columns): winners (both partners' bits), hands (rounds),
decisions, score_s (the final score of seat s's team), then per round counts summed
over the game: bids_4..bids_10, bids_moon (winning bids), made_4..made_moon (the
pitcher's team made it), taken_0/1 (points each team took), pitched_0/1, made_team_0/1,
stuck (rounds the dealer was stuck with 4), lost_points (points discarded unplayed).

User strategy view (``view``, int64): V_SEAT, V_KIND (0 bid, 1 trump, 2 give, 3 discard,
4 play), V_DEALER, V_PITCHER (-1 while bidding), V_HIGH (highest bid so far / the
winning bid; 11 = moon), V_TRUMP (-1 before it is named), V_HAND (own cards as a 54-bit
mask: the nine dealt while bidding and naming trump, then the trumps held), V_SEEN
(trumps played so far this round, 54-bit mask), V_TRICK..+4 (card each seat played in
the current trick, -1 none), V_LEADER, V_SCORES..+2 (team scores), V_TAKEN..+2 (points
each team took so far this round), V_REST (cards left in the stock for the give
decision), V_RECEIVED..+4 (cards dealt to each seat in the refill, -1 before it),
V_BIDS..+4 (each seat's bid: -1 none yet, 0 pass, 4..10, 11 moon), V_TARGET.
A user strategy is ``f(view, legal, n, rng) -> move code`` (codes in rules.py).
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.pitch10 import strategies as st
from analyzer.games.pitch10.rules import (
    CARD_AT,
    MOON,
    MOVE_BID0,
    MOVE_GIVE,
    MOVE_KEEP,
    MOVE_TRUMP0,
    NCARDS,
    P_TAKEN_VARIANT,
    P_TARGET,
    POINTS16,
    STRENGTH,
    bid_options,
    first_with_trumps,
    game_winner,
    popcount,
    refill_need,
    score_round,
    trumps_of,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, preview_order, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_PITCHER, EV_REFILL, EV_REST, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK = 100
K_BID, K_TRUMP, K_GIVE, K_DISCARD, K_PLAY = 0, 1, 2, 3, 4

V_SEAT, V_KIND, V_DEALER, V_PITCHER, V_HIGH, V_TRUMP, V_HAND, V_SEEN = 0, 1, 2, 3, 4, 5, 6, 7
V_TRICK, V_LEADER, V_SCORES, V_TAKEN, V_REST, V_RECEIVED, V_BIDS, V_TARGET = 8, 12, 13, 15, 17, 18, 22, 26
VIEW_SIZE = 27

# out row layout
C_SCORE = 3
C_BIDS = 7  # + bid - 4, bid 4..11
C_MADE = 15
C_TAKEN = 23
C_PITCHED = 25
C_MADE_TEAM = 27
C_STUCK = 29
C_LOST = 30
N_COLUMNS = 31

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_bid", "choose_trump", "choose_give", "choose_discard", "choose_play",
              "play_game", "run_block", "run_chunk", "run_traced"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True)
def cards_of16(h16, trump):
    """A strength mask as a 54-bit card mask."""
    m = 0
    for k in range(16):
        if (h16 >> k) & 1:
            m |= np.int64(1) << CARD_AT[trump, k]
    return m


@njit(cache=True)
def fill_view(view, seat, kind, dealer, pitcher, high, trump, hand54, seen16, trick, leader, scores,
              taken, rest, received, bids, target):
    view[V_SEAT] = seat
    view[V_KIND] = kind
    view[V_DEALER] = dealer
    view[V_PITCHER] = pitcher
    view[V_HIGH] = high
    view[V_TRUMP] = trump
    view[V_HAND] = hand54
    view[V_SEEN] = cards_of16(seen16, trump) if trump >= 0 else 0
    for s in range(4):
        view[V_TRICK + s] = trick[s]
        view[V_RECEIVED + s] = received[s]
        view[V_BIDS + s] = bids[s]
    view[V_LEADER] = leader
    for t in range(2):
        view[V_SCORES + t] = scores[t]
        view[V_TAKEN + t] = taken[t]
    view[V_REST] = rest
    view[V_TARGET] = target


@njit(cache=True)
def choose_bid(strat, seat, hand54, high, partner_high, stuck, legal, n, rng, view):
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return legal[randbelow(rng, n)]
    if sid == st.HEURISTIC:
        return st.heuristic_bid(hand54, high, partner_high, stuck, strat[seat, 1])
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def choose_trump(strat, seat, hand54, legal, n, rng, view):
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return legal[randbelow(rng, n)]
    if sid == st.HEURISTIC:
        return MOVE_TRUMP0 + st.best_suit(hand54)[0]
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def choose_give(strat, seat, own16, partner_received, legal, n, rng, view):
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return legal[randbelow(rng, n)]
    if sid == st.HEURISTIC:
        return st.heuristic_give(own16, partner_received)
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def choose_discard(strat, seat, own16, trump, legal, n, rng, view):
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return CARD_AT[trump, st.random_trump_card(own16, rng)]
    if sid == st.HEURISTIC:
        return CARD_AT[trump, st.heuristic_discard(own16)]
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def choose_play(strat, seat, own16, seen16, win_k, win_seat, trick_points, later, trump, legal, n, rng, view):
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return CARD_AT[trump, st.random_trump_card(own16, rng)]
    if sid == st.HEURISTIC:
        return CARD_AT[trump, st.heuristic_play(own16, seen16, seat, win_k, win_seat, trick_points, later)]
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True)
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


@njit(cache=True)
def trump_legal(h16, trump, legal):
    """The trumps held, as card codes (low to high); returns how many."""
    n = 0
    for k in range(16):
        if (h16 >> k) & 1:
            legal[n] = CARD_AT[trump, k]
            n += 1
    return n


@njit(cache=True)
def emit_mask(trace, tag, mask, tmp):
    """A 54-bit card mask as a trace list (codes low to high)."""
    n = 0
    for c in range(NCARDS):
        if (mask >> c) & 1:
            tmp[n] = c
            n += 1
    tr.emit_list(trace, tag, tmp, n)


@njit(cache=True)
def emit_decide(trace, seat, kind, move, legal, n):
    tr.emit(trace, EV_DECIDE, seat, kind, move, 0)
    tr.emit_list(trace, 0, legal, n)


@njit(cache=True)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deck, legal, view, h54, h16, bids, received, tmp, trick, scores, taken, deal_rng, play_rng = ws
    target = params[P_TARGET]
    scores_taken = params[P_TAKEN_VARIANT] != 0
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    has_user = False
    for s in range(4):
        if strat[s, 0] < 0:
            has_user = True
    out[:] = 0
    err[0] = -1
    scores[0] = 0
    scores[1] = 0
    dealer = randbelow(deal_rng, 4)
    hands = 0
    decisions = 0
    winner = -1
    while winner < 0:
        hands += 1
        # ---- deal: nine cards each, one at a time from left of the dealer
        for c in range(NCARDS):
            deck[c] = c
        top = 0
        for s in range(4):
            h54[s] = 0
            bids[s] = -1
            received[s] = -1
            trick[s] = -1
            h16[s] = 0
        taken[0] = 0
        taken[1] = 0
        s = dealer
        for i in range(36):
            s = (s + 1) & 3
            c = draw_lazy(deck, top, NCARDS, deal_rng)
            top += 1
            h54[s] |= np.int64(1) << c
        if tracing:
            tr.emit(trace, EV_DEAL, hands, dealer, 0, 0)
            for p in range(4):
                emit_mask(trace, p, h54[p], tmp)
            order = preview_order(deck, top, NCARDS, deal_rng)
            tr.emit_list(trace, TAG_STOCK, order, order.shape[0])
        # ---- bidding: once around from left of the dealer
        high = 0
        pitcher = -1
        s = dealer
        for i in range(4):
            s = (s + 1) & 3
            stuck = i == 3 and high == 0
            if stuck:
                out[C_STUCK] += 1
            n = bid_options(high, stuck, legal)
            partner_high = pitcher >= 0 and (pitcher & 1) == (s & 1)
            if has_user and strat[s, 0] < 0:
                fill_view(view, s, K_BID, dealer, -1, high, -1, h54[s], 0, trick, -1, scores, taken, 0,
                          received, bids, target)
            move = choose_bid(strat, s, h54[s], high, partner_high, stuck, legal, n, play_rng, view)
            decisions += 1
            if strat[s, 0] < 0 and not is_in(move, legal, n):
                err[0] = decisions
                err[1] = s
                err[2] = move
                return
            if tracing:
                emit_decide(trace, s, K_BID, move, legal, n)
            b = move - MOVE_BID0
            bids[s] = b
            if b > 0:
                high = b
                pitcher = s
                if b == MOON:
                    break
        if tracing:
            tr.emit(trace, EV_PITCHER, pitcher, high, 0, 0)
        # ---- trump
        for t in range(4):
            legal[t] = MOVE_TRUMP0 + t
        if has_user and strat[pitcher, 0] < 0:
            fill_view(view, pitcher, K_TRUMP, dealer, pitcher, high, -1, h54[pitcher], 0, trick, -1, scores,
                      taken, 0, received, bids, target)
        move = choose_trump(strat, pitcher, h54[pitcher], legal, 4, play_rng, view)
        decisions += 1
        if strat[pitcher, 0] < 0 and not is_in(move, legal, 4):
            err[0] = decisions
            err[1] = pitcher
            err[2] = move
            return
        if tracing:
            emit_decide(trace, pitcher, K_TRUMP, move, legal, 4)
        trump = move - MOVE_TRUMP0
        for p in range(4):
            h16[p] = trumps_of(h54[p], trump)  # non-trumps discarded
        # ---- refill from the stock, from left of the dealer
        s = dealer
        for i in range(4):
            s = (s + 1) & 3
            need = refill_need(h16[s])
            cnt = 0
            while need > 0 and top < NCARDS:
                c = draw_lazy(deck, top, NCARDS, deal_rng)
                top += 1
                tmp[cnt] = c
                cnt += 1
                need -= 1
                k = STRENGTH[trump, c]
                if k >= 0:
                    h16[s] |= 1 << k
            received[s] = cnt
            if tracing:
                tr.emit(trace, EV_REFILL, s, 0, 0, 0)
                tr.emit_list(trace, 0, tmp, cnt)
        # ---- the rest of the stock: keep or give
        if top < NCARDS:
            legal[0] = MOVE_KEEP
            legal[1] = MOVE_GIVE
            if has_user and strat[pitcher, 0] < 0:
                fill_view(view, pitcher, K_GIVE, dealer, pitcher, high, trump, cards_of16(h16[pitcher], trump), 0,
                          trick, -1, scores, taken, NCARDS - top, received, bids, target)
            move = choose_give(strat, pitcher, h16[pitcher], received[(pitcher + 2) & 3], legal, 2, play_rng, view)
            decisions += 1
            if strat[pitcher, 0] < 0 and not is_in(move, legal, 2):
                err[0] = decisions
                err[1] = pitcher
                err[2] = move
                return
            if tracing:
                emit_decide(trace, pitcher, K_GIVE, move, legal, 2)
            receiver = pitcher if move == MOVE_KEEP else (pitcher + 2) & 3
            cnt = 0
            while top < NCARDS:
                c = draw_lazy(deck, top, NCARDS, deal_rng)
                top += 1
                tmp[cnt] = c
                cnt += 1
                k = STRENGTH[trump, c]
                if k >= 0:
                    h16[receiver] |= 1 << k
            if tracing:
                tr.emit(trace, EV_REST, receiver, 0, 0, 0)
                tr.emit_list(trace, 0, tmp, cnt)
        # ---- more than six trumps: discard down to six, from left of the dealer
        s = dealer
        for i in range(4):
            s = (s + 1) & 3
            while popcount(h16[s]) > 6:
                user = strat[s, 0] < 0
                n = popcount(h16[s])
                if tracing or user:
                    trump_legal(h16[s], trump, legal)
                if has_user and user:
                    fill_view(view, s, K_DISCARD, dealer, pitcher, high, trump, cards_of16(h16[s], trump), 0,
                              trick, -1, scores, taken, 0, received, bids, target)
                move = choose_discard(strat, s, h16[s], trump, legal, n, play_rng, view)
                decisions += 1
                if user and not is_in(move, legal, n):
                    err[0] = decisions
                    err[1] = s
                    err[2] = move
                    return
                if tracing:
                    emit_decide(trace, s, K_DISCARD, move, legal, n)
                k = STRENGTH[trump, move]
                h16[s] &= ~(1 << k)
                out[C_LOST] += POINTS16[k]
        # ---- play: tricks until nobody holds a trump
        seen = 0
        leader = first_with_trumps(pitcher, h16)
        while leader >= 0:
            win_k, win_seat, points = -1, -1, 0
            for j in range(4):
                trick[j] = -1
            for j in range(4):
                s = (leader + j) & 3
                if h16[s] == 0:
                    continue
                later = False
                for d in range(j + 1, 4):
                    if h16[(leader + d) & 3] != 0:
                        later = True
                user = strat[s, 0] < 0
                n = popcount(h16[s])
                if tracing or user:
                    trump_legal(h16[s], trump, legal)
                if has_user and user:
                    fill_view(view, s, K_PLAY, dealer, pitcher, high, trump, cards_of16(h16[s], trump), seen,
                              trick, leader, scores, taken, 0, received, bids, target)
                move = choose_play(strat, s, h16[s], seen, win_k, win_seat, points, later, trump, legal, n,
                                   play_rng, view)
                decisions += 1
                if user and not is_in(move, legal, n):
                    err[0] = decisions
                    err[1] = s
                    err[2] = move
                    return
                if tracing:
                    emit_decide(trace, s, K_PLAY, move, legal, n)
                k = STRENGTH[trump, move]
                h16[s] &= ~(1 << k)
                seen |= 1 << k
                trick[s] = move
                points += POINTS16[k]
                if k > win_k:
                    win_k = k
                    win_seat = s
            taken[win_seat & 1] += points
            if tracing:
                tr.emit(trace, EV_TRICK, leader, win_seat, 0, 0)
                for j in range(4):
                    p = (leader + j) & 3
                    if trick[p] >= 0:
                        tr.emit(trace, tr.LIST, 0, p, 0, 0)
                        tr.emit(trace, tr.LIST, 1, trick[p], 0, 0)
            leader = first_with_trumps(win_seat, h16)
        for j in range(4):
            trick[j] = -1
        # ---- scoring
        pt = pitcher & 1
        old0, old1 = scores[0], scores[1]
        sp, so, outcome = score_round(high, taken[pt], taken[1 - pt], scores[pt], scores[1 - pt], scores_taken)
        scores[pt] = sp
        scores[1 - pt] = so
        made = taken[pt] >= high if high < MOON else taken[pt] == 10
        out[C_BIDS + high - 4] += 1
        out[C_PITCHED + pt] += 1
        out[C_TAKEN] += taken[0]
        out[C_TAKEN + 1] += taken[1]
        if made:
            out[C_MADE + high - 4] += 1
            out[C_MADE_TEAM + pt] += 1
        winner = game_winner(scores, pt, outcome, target)
        if tracing:
            tr.emit(trace, EV_HAND_END, hands, high, pitcher, 0)
            tr.emit(trace, tr.LIST, 0, scores[0] - old0, 0, 0)
            tr.emit(trace, tr.LIST, 0, scores[1] - old1, 0, 0)
            tr.emit(trace, tr.LIST, 1, scores[0], 0, 0)
            tr.emit(trace, tr.LIST, 1, scores[1], 0, 0)
            tr.emit(trace, tr.LIST, 2, taken[0], 0, 0)
            tr.emit(trace, tr.LIST, 2, taken[1], 0, 0)
        dealer = (dealer + 1) & 3
    winners = 5 if winner == 0 else 10
    out[0] = winners
    out[1] = hands
    out[2] = decisions
    for s in range(4):
        out[C_SCORE + s] = scores[s & 1]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, hands, 0, 0)
        tr.emit_list(trace, 0, scores, 2)


@njit(cache=True)
def workspace(params):
    """The arrays one game needs, allocated once per block of games."""
    return (np.zeros(NCARDS, dtype=np.int64), np.zeros(16, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(4, dtype=np.uint64),
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
