"""10-Point Pitch play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a *bundle* (``workspace``), a tuple of arrays:
    0 deck     int64[54]   the shuffled deck, drawn lazily (rng.draw_lazy): 36 cards dealt,
                           ``deck[top:54]`` is the stock
    1 legal    int64[16]   legal move codes of the current decision (rules.py)
    2 view     int64[VIEW_SIZE]  what a user strategy sees (layout below)
    3 h54      int64[4]    the nine cards dealt to each seat (54-bit masks)
    4 h16      int64[4]    trumps held by each seat once trump is named (strength masks)
    5 bids     int64[4]    each seat's bid this round (-1 not yet, 0 pass, 4..10, 11 moon)
    6 received int64[4]    cards each seat was dealt in the refill (-1 before it)
    7 tmp      int64[64]   scratch for trace lists
    8 trick    int64[4]    card played by each seat in the current trick (-1 none)
    9 scores   int64[2], 10 taken int64[2]   per team
    11 deal_rng, 12 play_rng  uint64[4]
    13 sc      int64[N_SC] scalars (S_* below)
    14 played  int64[4]    trumps each seat played this hand (strength masks)
    15 disc    int64[4]    trumps each seat discarded this hand (strength masks)
    16 got54   int64[5]    refill cards dealt to each seat (54-bit), [4] the rest of the stock
    17 fw      float64[10, 17] the Monte Carlo sampler's weights (``prepare_hidden``)
    18 scratch uint64[4]   for trace previews of the stock
A hand moves through phases (S_PHASE): bid, trump, give, discard, play, done. The rules
live once, in ``start_hand`` (deal) and ``apply_move`` (a decision and everything
automatic that follows it: refill, the rest of the stock, tricks, scoring). Two drivers
choose the moves: ``play_turns`` (any strategy: games, records, Monte Carlo, evaluation)
and ``rollout_turns`` (built-in base strategies only: what ``mc`` rolls out with; keeping
it apart avoids a recursive call graph, which numba does not compile reliably).

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

Monte Carlo (``mc``, strategy row ``[MC, k, base, 0]``): at each of its decisions, K
samples (4K for bid and trump decisions) of the hidden cards (``resample_hidden``, exact conditional sampling described
there), each legal move rolled out to the end of the hand with the base strategy for
every seat, the same sample and the same random numbers for every move (common random
numbers); it plays the move with the best mean of (own team's score change - the other
team's), a made moon that wins the game counting +target and a missed moon -target.
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.pitch10 import strategies as st
from analyzer.games.pitch10.rules import (
    CARD_AT,
    FULL16,
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
    TRUMP54,
    bid_options,
    first_with_trumps,
    game_winner,
    popcount,
    refill_need,
    score_round,
    trumps_of,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, next_u64, preview_into, randbelow, seed_stream

# trace event codes
EV_DEAL, EV_DECIDE, EV_PITCHER, EV_REFILL, EV_REST, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK = 100
K_BID, K_TRUMP, K_GIVE, K_DISCARD, K_PLAY = 0, 1, 2, 3, 4
PH_BID, PH_TRUMP, PH_GIVE, PH_DISCARD, PH_PLAY, PH_DONE = 0, 1, 2, 3, 4, 5

V_SEAT, V_KIND, V_DEALER, V_PITCHER, V_HIGH, V_TRUMP, V_HAND, V_SEEN = 0, 1, 2, 3, 4, 5, 6, 7
V_TRICK, V_LEADER, V_SCORES, V_TAKEN, V_REST, V_RECEIVED, V_BIDS, V_TARGET = 8, 12, 13, 15, 17, 18, 22, 26
VIEW_SIZE = 27

#: stream purpose of the deal stream of evaluation rollouts (rng: DEAL 0, PLAY 1, HAND 16+)
ROLL_DEAL = 2

# scalars (sc)
(S_PHASE, S_SEAT, S_DEALER, S_HIGH, S_PITCHER, S_TRUMP, S_TOP, S_TURN, S_LEADER, S_WIN_K, S_WIN_SEAT,
 S_POINTS, S_SEEN, S_HANDS, S_DECISIONS, S_REST_TO, S_REST_N, S_ALIVE, S_DELTA0, S_DELTA1, S_OUTCOME,
 S_WINNER, S_HAS_USER) = range(23)
N_SC = 23

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
USER_CHAIN = ["choose_move", "play_turns", "play_rest", "play_game", "evaluate_block", "bid_table_block",
              "evaluate_chunk", "bid_table_chunk", "run_block", "run_chunk", "run_traced"]

#: binomial coefficients as floats (sampler weights)
BINOM = np.zeros((28, 28), dtype=np.float64)
for _n in range(28):
    BINOM[_n, 0] = 1.0
    for _k in range(1, _n + 1):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k]
#: a non-trump card of each trump suit (filler for the hidden part of the stock)
NON_TRUMPS = np.zeros((4, 38), dtype=np.int64)
for _t in range(4):
    _n = 0
    for _c in range(NCARDS):
        if STRENGTH[_t, _c] < 0:
            NON_TRUMPS[_t, _n] = _c
            _n += 1


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True, _nrt=False)
def cards_of16(h16, trump):
    """A strength mask as a 54-bit card mask."""
    m = 0
    for k in range(16):
        if (h16 >> k) & 1:
            m |= np.int64(1) << CARD_AT[trump, k]
    return m


@njit(cache=True)
def workspace(params):
    """One state bundle (see the module docstring), allocated once per block of games."""
    return (np.zeros(NCARDS, dtype=np.int64), np.zeros(16, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(N_SC, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(5, dtype=np.int64), np.zeros((10, 17), dtype=np.float64), np.zeros(4, dtype=np.uint64))


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``)."""
    for a, b in ((src[0], dst[0]), (src[1], dst[1]), (src[3], dst[3]), (src[4], dst[4]), (src[5], dst[5]),
                 (src[6], dst[6]), (src[8], dst[8]), (src[9], dst[9]), (src[10], dst[10]), (src[13], dst[13]),
                 (src[14], dst[14]), (src[15], dst[15]), (src[16], dst[16])):
        for i in range(a.shape[0]):
            b[i] = a[i]
    for j in range(4):
        dst[11][j] = src[11][j]
        dst[12][j] = src[12][j]


@njit(cache=True, _nrt=False)
def fill_view(ws, seat, kind, params):
    deck, legal, view, h54, h16, bids, received, tmp, trick, scores, taken = ws[:11]
    sc = ws[13]
    trump = sc[S_TRUMP]
    view[V_SEAT] = seat
    view[V_KIND] = kind
    view[V_DEALER] = sc[S_DEALER]
    view[V_PITCHER] = sc[S_PITCHER] if kind != K_BID else -1
    view[V_HIGH] = sc[S_HIGH]
    view[V_TRUMP] = trump if kind >= K_GIVE else -1
    view[V_HAND] = h54[seat] if kind <= K_TRUMP else cards_of16(h16[seat], trump)
    view[V_SEEN] = cards_of16(sc[S_SEEN], trump) if kind == K_PLAY else 0
    for s in range(4):
        view[V_TRICK + s] = trick[s]
        view[V_RECEIVED + s] = received[s]
        view[V_BIDS + s] = bids[s]
    view[V_LEADER] = sc[S_LEADER] if kind == K_PLAY else -1
    for t in range(2):
        view[V_SCORES + t] = scores[t]
        view[V_TAKEN + t] = taken[t]
    view[V_REST] = NCARDS - sc[S_TOP] if kind == K_GIVE else 0
    view[V_TARGET] = params[P_TARGET]


@njit(cache=True, _nrt=False, inline="always")
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


@njit(cache=True, _nrt=False)
def trump_legal(h16, trump, legal):
    """The trumps held, as card codes (low to high); returns how many."""
    n = 0
    for k in range(16):
        if (h16 >> k) & 1:
            legal[n] = CARD_AT[trump, k]
            n += 1
    return n


@njit(cache=True, _nrt=False)
def emit_mask(trace, tag, mask, tmp):
    """A 54-bit card mask as a trace list (codes low to high)."""
    n = 0
    for c in range(NCARDS):
        if (mask >> c) & 1:
            tmp[n] = c
            n += 1
    tr.emit_list(trace, tag, tmp, n)


# ---- the rules, once ----------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def start_hand(ws, out, trace, tracing):
    """Deal hand ``sc[S_HANDS] + 1`` (nine cards each, one at a time from left of the
    dealer, from the game's deal stream) and open the bidding."""
    deck, legal, view, h54, h16, bids, received, tmp, trick, scores, taken, deal_rng = ws[:12]
    sc, played, disc, got54 = ws[13], ws[14], ws[15], ws[16]
    sc[S_HANDS] += 1
    dealer = sc[S_DEALER]
    for c in range(NCARDS):
        deck[c] = c
    for s in range(4):
        h54[s] = 0
        bids[s] = -1
        received[s] = -1
        trick[s] = -1
        h16[s] = 0
        played[s] = 0
        disc[s] = 0
        got54[s] = 0
    got54[4] = 0
    taken[0] = 0
    taken[1] = 0
    s = dealer
    for i in range(36):
        s = (s + 1) & 3
        c = draw_lazy(deck, i, NCARDS, deal_rng)
        h54[s] |= np.int64(1) << c
    sc[S_TOP] = 36
    sc[S_PHASE] = PH_BID
    sc[S_TURN] = 0
    sc[S_HIGH] = 0
    sc[S_PITCHER] = -1
    sc[S_TRUMP] = -1
    sc[S_SEAT] = (dealer + 1) & 3
    sc[S_SEEN] = 0
    sc[S_REST_TO] = -1
    sc[S_REST_N] = 0
    sc[S_LEADER] = -1
    sc[S_ALIVE] = 0
    if tracing:
        tr.emit(trace, EV_DEAL, sc[S_HANDS], dealer, 0, 0)
        for p in range(4):
            emit_mask(trace, p, h54[p], tmp)
        tr.emit_list(trace, TAG_STOCK, tmp, preview_into(deck, 36, NCARDS, deal_rng, tmp, ws[18]))


@njit(cache=True, _nrt=False, inline="always")
def decision(ws, fill):
    """(seat, kind, number of legal moves) of the current decision; ``legal`` is written
    for bids, trumps and give always, for discards and plays only when ``fill``."""
    legal, h16, sc = ws[1], ws[4], ws[13]
    ph = sc[S_PHASE]
    seat = sc[S_SEAT]
    if ph == PH_BID:
        stuck = sc[S_TURN] == 3 and sc[S_HIGH] == 0
        return seat, K_BID, bid_options(sc[S_HIGH], stuck, legal)
    if ph == PH_TRUMP:
        for t in range(4):
            legal[t] = MOVE_TRUMP0 + t
        return seat, K_TRUMP, 4
    if ph == PH_GIVE:
        legal[0] = MOVE_KEEP
        legal[1] = MOVE_GIVE
        return seat, K_GIVE, 2
    if fill:
        trump_legal(h16[seat], sc[S_TRUMP], legal)
    return seat, (K_DISCARD if ph == PH_DISCARD else K_PLAY), popcount(h16[seat])


@njit(cache=True, _nrt=False, inline="always")
def start_trick(ws, leader):
    trick, h16, sc = ws[8], ws[4], ws[13]
    for j in range(4):
        trick[j] = -1
    alive = 0
    for s in range(4):
        if h16[s] != 0:
            alive |= 1 << s
    sc[S_ALIVE] = alive
    sc[S_LEADER] = leader
    sc[S_SEAT] = leader
    sc[S_WIN_K] = -1
    sc[S_WIN_SEAT] = -1
    sc[S_POINTS] = 0


@njit(cache=True, _nrt=False, inline="always")
def later_in_trick(sc, seat):
    """Whether a player plays after ``seat`` in the current trick."""
    leader = sc[S_LEADER]
    s = (seat + 1) & 3
    while s != leader:
        if (sc[S_ALIVE] >> s) & 1:
            return True
        s = (s + 1) & 3
    return False


@njit(cache=True, _nrt=False)
def next_discarder(ws):
    """From turn ``sc[S_TURN]`` on (0 = left of the dealer), the first seat holding more
    than six trumps becomes the one to move; play starts when there is none."""
    h16, sc = ws[4], ws[13]
    while sc[S_TURN] < 4:
        s = (sc[S_DEALER] + 1 + sc[S_TURN]) & 3
        if popcount(h16[s]) > 6:
            sc[S_PHASE] = PH_DISCARD
            sc[S_SEAT] = s
            return
        sc[S_TURN] += 1
    sc[S_PHASE] = PH_PLAY
    leader = first_with_trumps(sc[S_PITCHER], h16)
    if leader >= 0:
        start_trick(ws, leader)
    else:
        sc[S_PHASE] = PH_DONE


@njit(cache=True, _nrt=False)
def score_hand(params, ws, out, trace, tracing):
    """The hand is over: score it (sc gets the score changes and the game's winner)."""
    scores, taken, sc, trick = ws[9], ws[10], ws[13], ws[8]
    for j in range(4):
        trick[j] = -1
    high, pitcher = sc[S_HIGH], sc[S_PITCHER]
    pt = pitcher & 1
    old0, old1 = scores[0], scores[1]
    sp, so, outcome = score_round(high, taken[pt], taken[1 - pt], scores[pt], scores[1 - pt],
                                  params[P_TAKEN_VARIANT] != 0)
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
    sc[S_DELTA0] = scores[0] - old0
    sc[S_DELTA1] = scores[1] - old1
    sc[S_OUTCOME] = outcome
    sc[S_WINNER] = game_winner(scores, pt, outcome, params[P_TARGET])
    sc[S_PHASE] = PH_DONE
    if tracing:
        tr.emit(trace, EV_HAND_END, sc[S_HANDS], high, pitcher, 0)
        tr.emit(trace, tr.LIST, 0, scores[0] - old0, 0, 0)
        tr.emit(trace, tr.LIST, 0, scores[1] - old1, 0, 0)
        tr.emit(trace, tr.LIST, 1, scores[0], 0, 0)
        tr.emit(trace, tr.LIST, 1, scores[1], 0, 0)
        tr.emit(trace, tr.LIST, 2, taken[0], 0, 0)
        tr.emit(trace, tr.LIST, 2, taken[1], 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def apply_move(params, ws, move, out, trace, tracing):
    """The player to move makes ``move``; then everything automatic up to the next
    decision (or the end of the hand, scored)."""
    deck, legal, view, h54, h16, bids, received, tmp, trick, scores, taken, deal_rng = ws[:12]
    sc, played, disc, got54 = ws[13], ws[14], ws[15], ws[16]
    ph = sc[S_PHASE]
    seat = sc[S_SEAT]
    dealer = sc[S_DEALER]
    if ph == PH_BID:
        if sc[S_TURN] == 3 and sc[S_HIGH] == 0:
            out[C_STUCK] += 1
        b = move - MOVE_BID0
        bids[seat] = b
        if b > 0:
            sc[S_HIGH] = b
            sc[S_PITCHER] = seat
        if b == MOON or sc[S_TURN] == 3:
            sc[S_PHASE] = PH_TRUMP
            sc[S_SEAT] = sc[S_PITCHER]
            if tracing:
                tr.emit(trace, EV_PITCHER, sc[S_PITCHER], sc[S_HIGH], 0, 0)
        else:
            sc[S_TURN] += 1
            sc[S_SEAT] = (seat + 1) & 3
        return
    if ph == PH_TRUMP:
        trump = move - MOVE_TRUMP0
        sc[S_TRUMP] = trump
        for p in range(4):
            h16[p] = trumps_of(h54[p], trump)  # non-trumps discarded
        # refill from the stock, from left of the dealer
        top = sc[S_TOP]
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
                got54[s] |= np.int64(1) << c
                k = STRENGTH[trump, c]
                if k >= 0:
                    h16[s] |= 1 << k
            received[s] = cnt
            if tracing:
                tr.emit(trace, EV_REFILL, s, 0, 0, 0)
                tr.emit_list(trace, 0, tmp, cnt)
        sc[S_TOP] = top
        sc[S_REST_N] = NCARDS - top
        if top < NCARDS:
            sc[S_PHASE] = PH_GIVE
            sc[S_SEAT] = sc[S_PITCHER]
            return
        sc[S_TURN] = 0
        next_discarder(ws)
    elif ph == PH_GIVE:
        trump = sc[S_TRUMP]
        receiver = seat if move == MOVE_KEEP else (seat + 2) & 3
        sc[S_REST_TO] = receiver
        top = sc[S_TOP]
        cnt = 0
        while top < NCARDS:
            c = draw_lazy(deck, top, NCARDS, deal_rng)
            top += 1
            tmp[cnt] = c
            cnt += 1
            got54[4] |= np.int64(1) << c
            k = STRENGTH[trump, c]
            if k >= 0:
                h16[receiver] |= 1 << k
        sc[S_TOP] = top
        if tracing:
            tr.emit(trace, EV_REST, receiver, 0, 0, 0)
            tr.emit_list(trace, 0, tmp, cnt)
        sc[S_TURN] = 0
        next_discarder(ws)
    elif ph == PH_DISCARD:
        k = STRENGTH[sc[S_TRUMP], move]
        h16[seat] &= ~(1 << k)
        disc[seat] |= 1 << k
        out[C_LOST] += POINTS16[k]
        if popcount(h16[seat]) <= 6:
            sc[S_TURN] += 1
            next_discarder(ws)
    else:  # PH_PLAY
        k = STRENGTH[sc[S_TRUMP], move]
        h16[seat] &= ~(1 << k)
        played[seat] |= 1 << k
        sc[S_SEEN] |= 1 << k
        trick[seat] = move
        sc[S_POINTS] += POINTS16[k]
        if k > sc[S_WIN_K]:
            sc[S_WIN_K] = k
            sc[S_WIN_SEAT] = seat
        leader = sc[S_LEADER]
        s = (seat + 1) & 3
        while s != leader and not ((sc[S_ALIVE] >> s) & 1):
            s = (s + 1) & 3
        if s != leader:
            sc[S_SEAT] = s
            return
        win_seat = sc[S_WIN_SEAT]
        taken[win_seat & 1] += sc[S_POINTS]
        if tracing:
            tr.emit(trace, EV_TRICK, leader, win_seat, 0, 0)
            for j in range(4):
                p = (leader + j) & 3
                if trick[p] >= 0:
                    tr.emit(trace, tr.LIST, 0, p, 0, 0)
                    tr.emit(trace, tr.LIST, 1, trick[p], 0, 0)
        nxt = first_with_trumps(win_seat, h16)
        if nxt >= 0:
            start_trick(ws, nxt)
        else:
            sc[S_PHASE] = PH_DONE
    if sc[S_PHASE] == PH_DONE:
        score_hand(params, ws, out, trace, tracing)


@njit(cache=True, _nrt=False)
def hand_value(params, ws, team):
    """What ``mc`` maximises for ``team`` once the hand is scored: its score change minus
    the other team's; a moon that decides the game counts +-target for the pitcher's team."""
    sc = ws[13]
    v = sc[S_DELTA0] - sc[S_DELTA1]
    if team == 1:
        v = -v
    if sc[S_OUTCOME] != 0:
        win = sc[S_OUTCOME] == 1
        if (sc[S_PITCHER] & 1) != team:
            win = not win
        v += params[P_TARGET] if win else -params[P_TARGET]
    return v


@njit(cache=True, _nrt=False)
def own_change(params, ws, team):
    """The evaluation outcome of a bid decision: ``team``'s score change this hand; a moon
    that decides the game counts +target for the team that wins, -target for the other."""
    sc = ws[13]
    v = sc[S_DELTA0] if team == 0 else sc[S_DELTA1]
    if sc[S_OUTCOME] != 0:
        win = (sc[S_OUTCOME] == 1) == ((sc[S_PITCHER] & 1) == team)
        v = params[P_TARGET] if win else -params[P_TARGET]
    return v


@njit(cache=True, _nrt=False)
def made_bid(ws):
    """1 if the pitcher's team made its bid this (scored) hand."""
    sc, taken = ws[13], ws[10]
    pt = sc[S_PITCHER] & 1
    high = sc[S_HIGH]
    if high == MOON:
        return 1 if taken[pt] == 10 else 0
    return 1 if taken[pt] >= high else 0


# ---- Monte Carlo: sampling what a seat cannot see, and rollouts ------------------------------

@njit(cache=True, _nrt=False)
def group_ok(ph, t, done, alive, pb, pc):
    """Whether a seat holding ``t`` trumps after the rest (before discards) fits what is public."""
    if ph != PH_PLAY:
        return True
    c = t if t < 6 else 6
    if c < pb + pc:
        return False
    return (c - pb >= 1) == alive


@njit(cache=True, _nrt=False)
def hidden_weights(ws, me):
    """Weights of the hidden trump counts seen by ``me`` (post-trump phases).

    Fills ``fw[g, t]`` for the groups g = the three other seats in refill order (t: trumps in
    its nine cards + its refill + the rest if it got it, the rest unknown to ``me``) and g = 3
    the rest of the stock while still undealt (give phase, filled by ``prepare_hidden``).
    Returns the number of trumps ``me`` has not seen at the deal; the weight of a count
    vector is the product over groups, which is the number of deals giving it (uniform
    deals: multivariate hypergeometric).
    """
    h54, h16, received, sc, played, disc, got54, fw = ws[3], ws[4], ws[6], ws[13], ws[14], ws[15], ws[16], ws[17]
    ph = sc[S_PHASE]
    trump = sc[S_TRUMP]
    mine = TRUMP54[trump] & (h54[me] | got54[me])
    rest_to, rest_n = sc[S_REST_TO], sc[S_REST_N]
    if rest_to == me:
        mine |= TRUMP54[trump] & got54[4]
    tu = 16 - popcount(mine)
    left = 18
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        r = received[s]
        for t in range(17):
            fw[i, t] = 0.0
        if s != me:
            xn = rest_n if (rest_to == s) else 0
            alive = ((sc[S_ALIVE] >> s) & 1) == 1
            pc = 1 if ws[8][s] >= 0 else 0
            pb = popcount(played[s]) - pc
            done = i < sc[S_TURN]
            for k in range(10):
                if left > 0:
                    if r < left:
                        if r > 0 and k != 6 - r:
                            continue
                        if r == 0 and k < 6:
                            continue
                    elif k > 6 - r:
                        continue
                for g in range(r + 1):
                    for x in range(xn + 1):
                        t = k + g + x
                        if t <= 16 and group_ok(ph, t, done, alive, pb, pc):
                            fw[i, t] += BINOM[9, k] * BINOM[r, g] * BINOM[xn, x]
        left -= r
    # group 3 slot: reuse the row of ``me`` for the undealt rest (give phase)
    return tu


@njit(cache=True, _nrt=False)
def resample_hidden(ws, me, rng):
    """Redeal what ``me`` cannot see, consistently with what it has seen.

    Before trump (bid, trump decisions) the seat knows its nine cards: the other 45 are
    shuffled, nine to each other seat, the rest the stock (exactly uniform).

    After trump it knows its nine cards, its refill cards, the rest if it received it, its
    own discards, the refill counts of every seat, who got the rest, every trump played
    and who still holds trumps at the start of the current trick. Only trumps matter now.
    The counts come first: per other seat, the trumps t in its nine cards + refill + rest.
    A refill count fixes or bounds the trumps in the nine cards (k = 6 - r when it got r > 0
    cards before the stock ran out, k >= 6 when it got none, k <= 6 - r when the stock ran
    out on it). Each (k, g refill trumps, x rest trumps) is weighted by the number of deals
    giving it, C(9,k) C(r,g) C(rest,x), and t must fit the plays (at least as many as it
    played, still holding one iff it plays in the current trick; six at most after
    discards). The joint counts are drawn exactly by dynamic programming over the seats
    (forward sums, backward sampling; no rejection). Then the unseen trumps are dealt at
    random to the counts (exchangeable given the counts), the remainder being other seats'
    discards. Exact for uniform deals given those facts, ignoring what bids and choices of
    play suggest, and treating the others' discards as random among their unplayed trumps.
    Returns False when no deal fits (an impossible position).
    """
    deck, h54, h16, sc, played, disc, fw = ws[0], ws[3], ws[4], ws[13], ws[14], ws[15], ws[17]
    ph = sc[S_PHASE]
    if ph <= PH_TRUMP:
        n = 0
        for c in range(NCARDS):
            if not ((h54[me] >> c) & 1):
                deck[n] = c
                n += 1
        for i in range(n - 1):
            draw_lazy(deck, i, n, rng)
        n = 0
        for s in range(4):
            if s != me:
                h54[s] = 0
                for j in range(9):
                    h54[s] |= np.int64(1) << deck[n]
                    n += 1
        # the stock: deck[36:54] (the order is drawn lazily anyway)
        for i in range(17, -1, -1):
            deck[36 + i] = deck[27 + i]
        sc[S_TOP] = 36
        return True
    if not prepare_hidden(ws, me):
        return False
    draw_hidden(ws, me, rng)
    return True


@njit(cache=True, _nrt=False)
def prepare_hidden(ws, me):
    """The sampler's weights for ``me`` after trump (``fw`` rows 0..3: per group, 4..8:
    forward sums, 9: unknown trumps). They depend on public facts only, so a decision
    computes them once for all its samples. Returns False when no deal fits."""
    sc, fw = ws[13], ws[17]
    tu = hidden_weights(ws, me)
    rest_open = sc[S_PHASE] == PH_GIVE
    rest_n = sc[S_REST_N]
    # the undealt rest (give phase): a group of its own, in the row of ``me``
    mi = (me - sc[S_DEALER] - 1) & 3
    if rest_open:
        for t in range(17):
            fw[mi, t] = BINOM[rest_n, t] if t <= rest_n else 0.0
    # forward sums over rows 0..3 (the row of me is the rest group or nothing)
    for u in range(17):
        fw[4, u] = 0.0
    fw[4, 0] = 1.0
    for i in range(4):
        if i == mi and not rest_open:
            for u in range(17):
                fw[5 + i, u] = fw[4 + i, u]
            continue
        for u in range(17):
            acc = 0.0
            for t in range(u + 1):
                acc += fw[4 + i, u - t] * fw[i, t]
            fw[5 + i, u] = acc
    fw[9, 0] = tu
    return fw[8, tu] > 0.0


@njit(cache=True, _nrt=False)
def draw_hidden(ws, me, rng):
    """One draw of the hidden trumps after trump (weights from ``prepare_hidden``)."""
    deck, h16, sc, played, disc, fw = ws[0], ws[4], ws[13], ws[14], ws[15], ws[17]
    ph = sc[S_PHASE]
    trump = sc[S_TRUMP]
    rest_open = ph == PH_GIVE
    rest_n = sc[S_REST_N]
    mi = (me - sc[S_DEALER] - 1) & 3
    tu = np.int64(fw[9, 0])
    counts = ws[7][40:44]  # tmp[0:16] is the pool below
    rem = tu
    for i in range(3, -1, -1):
        if i == mi and not rest_open:
            continue
        total = fw[5 + i, rem]
        u = (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
        pick = -1
        acc = 0.0
        for t in range(rem + 1):
            w = fw[4 + i, rem - t] * fw[i, t]
            if w > 0.0:
                pick = t
                acc += w
                if u < acc:
                    break
        counts[i] = pick
        rem -= pick
    # the trumps nobody has shown to ``me``
    v = FULL16 & ~(h16[me] | disc[me] | sc[S_SEEN])
    pool = ws[7]
    n = 0
    for k in range(16):
        if (v >> k) & 1:
            pool[n] = k
            n += 1
    for i in range(n - 1):
        draw_lazy(pool, i, n, rng)
    p = 0
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        t = counts[i]
        if s == me:
            if rest_open:  # the rest of the stock: t trumps and fillers, order drawn lazily
                top = NCARDS - rest_n
                for j in range(t):
                    deck[top + j] = CARD_AT[trump, pool[p]]
                    p += 1
                for j in range(rest_n - t):
                    deck[top + t + j] = NON_TRUMPS[trump, j]
            continue
        if ph == PH_PLAY:
            held = (t if t < 6 else 6) - popcount(played[s])
        elif ph == PH_DISCARD and i < sc[S_TURN]:
            held = t if t < 6 else 6
        else:
            held = t
        m = 0
        for j in range(held):
            m |= 1 << pool[p]
            p += 1
        h16[s] = m
        disc[s] = 0
    # the remaining pool cards are the other seats' discards (out of play)


@njit(cache=True, _nrt=False, inline="always")
def base_move(sid, share, ws, seat, kind, n):
    """A move of built-in strategy ``sid`` (random or heuristic) at the current decision."""
    legal, h54, h16, bids, received, play_rng, sc = ws[1], ws[3], ws[4], ws[5], ws[6], ws[12], ws[13]
    trump = sc[S_TRUMP]
    if kind == K_BID:
        if sid == st.RANDOM:
            return legal[randbelow(play_rng, n)]
        pitcher = sc[S_PITCHER]
        partner_high = pitcher >= 0 and (pitcher & 1) == (seat & 1)
        stuck = sc[S_TURN] == 3 and sc[S_HIGH] == 0
        return st.heuristic_bid(h54[seat], sc[S_HIGH], partner_high, stuck, share)
    if kind == K_TRUMP:
        if sid == st.RANDOM:
            return legal[randbelow(play_rng, n)]
        return MOVE_TRUMP0 + st.best_suit(h54[seat])[0]
    if kind == K_GIVE:
        if sid == st.RANDOM:
            return legal[randbelow(play_rng, n)]
        return st.heuristic_give(h16[seat], received[(seat + 2) & 3])
    if sid == st.RANDOM:
        return CARD_AT[trump, st.random_trump_card(h16[seat], play_rng)]
    if kind == K_DISCARD:
        return CARD_AT[trump, st.heuristic_discard(h16[seat])]
    return CARD_AT[trump, st.heuristic_play(h16[seat], sc[S_SEEN], seat, sc[S_WIN_K], sc[S_WIN_SEAT],
                                            sc[S_POINTS], later_in_trick(sc, seat))]


@njit(cache=True, _nrt=False)
def rollout_turns(params, base, ws, out, trace):
    """Play the hand out with every seat using built-in strategy ``base`` (heuristic with
    its default partner share)."""
    sc = ws[13]
    while sc[S_PHASE] != PH_DONE:
        seat, kind, n = decision(ws, False)
        apply_move(params, ws, base_move(base, st.PARTNER_SHARE, ws, seat, kind, n), out, trace, False)


@njit(cache=True, _nrt=False)
def mc_move(params, ws, mcws, seat, n, k, base):
    """``mc``: for K samples of the hidden cards, roll each legal move out to the end of the
    hand with the base strategy (same sample and same random numbers for every move);
    the move with the best mean value (``hand_value``; ties: the earlier legal move)."""
    roll, samp, scratch, trace, totals = mcws
    legal, play_rng = ws[1], ws[12]
    if n == 1:
        return legal[0]
    team = seat & 1
    totals[:] = 0
    after_trump = ws[13][S_PHASE] > PH_TRUMP
    if after_trump:
        copy_bundle(ws, samp)
        prepare_hidden(samp, seat)
    else:
        k = 4 * k  # bid and trump: once a hand, and a moon's +-target swing needs more samples
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp[11], play_rng[0], j, DEAL)
        if after_trump:
            draw_hidden(samp, seat, samp[11])
        else:
            resample_hidden(samp, seat, samp[11])
        for i in range(n):
            copy_bundle(samp, roll)
            seed_stream(roll[11], play_rng[1], j, DEAL)
            seed_stream(roll[12], play_rng[1], j, PLAY)
            apply_move(params, roll, legal[i], scratch, trace, False)
            rollout_turns(params, base, roll, scratch, trace)
            totals[i] += hand_value(params, roll, team)
    best = 0
    for i in range(1, n):
        if totals[i] > totals[best]:
            best = i
    next_u64(play_rng)  # fresh samples at the next decision
    return legal[best]


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def choose_move(params, strat, ws, mcws, seat, kind, n):
    """The move of ``seat``'s strategy: built-in by id, ``mc``, or a user slot."""
    sid = strat[seat, 0]
    if sid == st.RANDOM or sid == st.HEURISTIC:
        return base_move(sid, strat[seat, 1], ws, seat, kind, n)
    if sid == st.MC:
        return mc_move(params, ws, mcws, seat, n, strat[seat, 1], strat[seat, 2])
    fill_view(ws, seat, kind, params)
    return user_strategy(-1 - sid, ws[2], ws[1], n, ws[12])


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, ws, mcws, out, err, trace, tracing, forced):
    """Play the hand on from the current decision (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled)."""
    legal, sc = ws[1], ws[13]
    while sc[S_PHASE] != PH_DONE:
        seat = sc[S_SEAT]
        sid = strat[seat, 0]
        seat, kind, n = decision(ws, tracing or sid < 0 or sid == st.MC)
        if forced >= 0:
            move = forced
            forced = -1
        else:
            move = choose_move(params, strat, ws, mcws, seat, kind, n)
        sc[S_DECISIONS] += 1
        # built-ins pick from ``legal`` by construction; only user moves are checked
        if sid < 0 and not is_in(move, legal, n):
            err[0], err[1], err[2] = sc[S_DECISIONS], seat, move
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, seat, kind, move, 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(params, ws, move, out, trace, tracing)
    return 0


@njit(cache=True, _nrt=False)
def finish(ws, out, trace, tracing):
    scores, sc = ws[9], ws[13]
    winners = 5 if sc[S_WINNER] == 0 else 10
    out[0] = winners
    out[1] = sc[S_HANDS]
    out[2] = sc[S_DECISIONS]
    for s in range(4):
        out[C_SCORE + s] = scores[s & 1]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, sc[S_HANDS], 0, 0)
        tr.emit_list(trace, 0, scores, 2)


@njit(cache=True, _nrt=False)
def play_rest(params, strat, ws, mcws, out, err, trace, tracing, forced):
    """From the middle of a hand: finish it, then play hands until a team has won.
    Returns 0, or -1 after an illegal user move."""
    sc = ws[13]
    if play_turns(params, strat, ws, mcws, out, err, trace, tracing, forced) < 0:
        return -1
    while sc[S_WINNER] < 0:
        sc[S_DEALER] = (sc[S_DEALER] + 1) & 3
        start_hand(ws, out, trace, tracing)
        if play_turns(params, strat, ws, mcws, out, err, trace, tracing, -1) < 0:
            return -1
    finish(ws, out, trace, tracing)
    return 0


@njit(cache=True)
def mc_workspace(params):
    return (workspace(params), workspace(params), np.zeros(N_COLUMNS, dtype=np.int64),
            np.zeros((1, tr.WIDTH), dtype=np.int64), np.zeros(16, dtype=np.int64))


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws, mcws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    scores, sc = ws[9], ws[13]
    seed_stream(ws[11], seed, index, DEAL)
    seed_stream(ws[12], seed, index, PLAY)
    out[:] = 0
    err[0] = -1
    scores[0] = 0
    scores[1] = 0
    sc[:] = 0
    sc[S_WINNER] = -1
    sc[S_DEALER] = randbelow(ws[11], 4)
    start_hand(ws, out, trace, tracing)
    play_rest(params, strat, ws, mcws, out, err, trace, tracing, -1)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi):
    ws = workspace(params)
    mcws = mc_workspace(params)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, out[g], err[g], trace, False, ws, mcws)
        if err[g, 0] >= 0:
            return


@njit(parallel=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks):
    n = out.shape[0]
    for b in prange(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks)


@njit(cache=True)
def run_traced(seed, index, params, strat, out_row, err_row, trace):
    play_game(seed, index, params, strat, out_row, err_row, trace, True, workspace(params), mc_workspace(params))


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi, bid_decision):
    """result[j, i] = [hand outcome, seat's team won the game]; the hand outcome is 1 if the
    pitcher's team made its bid, or for a bid decision the seat's team's score change."""
    ws = workspace(params)
    mcws = mc_workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    team = seat & 1
    after_trump = base_ws[13][S_PHASE] > PH_TRUMP
    if after_trump:
        copy_bundle(base_ws, ws)
        prepare_hidden(ws, seat)
    for j in range(lo, hi):
        for i in range(options.shape[0]):
            copy_bundle(base_ws, ws)
            # the same hidden cards and the same future for every option (common random numbers)
            seed_stream(sample_rng, seed, start + j, DEAL)
            if after_trump:
                draw_hidden(ws, seat, sample_rng)
            else:
                resample_hidden(ws, seat, sample_rng)
            seed_stream(ws[11], seed, start + j, ROLL_DEAL)
            seed_stream(ws[12], seed, start + j, PLAY)
            if play_turns(params, strat, ws, mcws, out, err, trace, False, options[i]) < 0:
                result[j, i, 0] = -999
                continue
            result[j, i, 0] = own_change(params, ws, team) if bid_decision else made_bid(ws)
            if ws[13][S_WINNER] < 0:
                play_rest(params, strat, ws, mcws, out, err, trace, False, -1)
            result[j, i, 1] = 1 if ws[13][S_WINNER] == team else 0


@njit(parallel=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks, bid_decision):
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks, bid_decision)


@njit(cache=True)
def bid_table_block(seed, start, params, strat, base_ws, seat, result, lo, hi):
    """result[j, t] = points the seat's team takes when the seat pitches in suit t (sample j,
    the same hidden cards for every suit), the rest played by the rollout strategies."""
    ws = workspace(params)
    mcws = mc_workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        for t in range(4):
            copy_bundle(base_ws, ws)
            seed_stream(sample_rng, seed, start + j, DEAL)
            resample_hidden(ws, seat, sample_rng)
            seed_stream(ws[11], seed, start + j, ROLL_DEAL)
            seed_stream(ws[12], seed, start + j, PLAY)
            # the seat is the pitcher (at 4: no strategy's play depends on the bid level)
            sc = ws[13]
            sc[S_PHASE] = PH_TRUMP
            sc[S_PITCHER] = seat
            sc[S_HIGH] = 4
            sc[S_SEAT] = seat
            play_turns(params, strat, ws, mcws, out, err, trace, False, MOVE_TRUMP0 + t)
            result[j, t] = ws[10][seat & 1]


@njit(parallel=True, cache=True)
def bid_table_chunk(seed, start, params, strat, base_ws, seat, result, nblocks):
    n = result.shape[0]
    for b in prange(nblocks):
        bid_table_block(seed, start, params, strat, base_ws, seat, result, b * n // nblocks,
                        (b + 1) * n // nblocks)
