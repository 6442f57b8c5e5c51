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
#
# The model (also in docs/pitch10.md, "Sampling"): the deal is uniform; a seat's own choices
# (bids unless inference is on, trump, keep or give, discards, plays) are read for nothing
# beyond their legality, so every deal consistent with what ``me`` saw is equally likely; the
# discards down to six of another seat are uniform among its trumps that it has not played.

#: rejection sampling of the bids (inference) gives up after this many draws of one sample
MAX_TRIES = 1 << 20


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
def nine_fits(left, r, k):
    """Whether ``k`` trumps among a seat's nine cards fit its refill count ``r`` when ``left``
    cards were in the stock at its turn (the refill deals up to six counted with the trumps)."""
    if left > 0:
        if r < left:
            if r > 0:
                return k == 6 - r
            return k >= 6
        return k <= 6 - r
    return True


@njit(cache=True, _nrt=False)
def held_count(ph, i, turn, t, p):
    """Trumps still held by the seat at refill index ``i`` that had ``t`` after the rest and
    played ``p``: at most six once it has discarded (play phase, or a discarder before the
    current one), all of them before."""
    if ph == PH_PLAY:
        return (t if t < 6 else 6) - p
    if ph == PH_DISCARD and i < turn:
        return t if t < 6 else 6
    return t


@njit(cache=True, _nrt=False)
def hidden_weights(ws, me):
    """Weights of the hidden trump counts seen by ``me`` (post-trump phases).

    Reads the bundle (h54/got54 of ``me``, received, played, trick, sc); writes ``fw[g, t]``
    for g = the seats in refill order (the row of ``me`` stays 0; ``prepare_hidden`` puts the
    undealt rest there in a give decision), t = trumps of that seat in its nine cards + its
    refill + the rest if it got it. The weight of a count vector is the product over the
    groups, and is proportional to the number of deals consistent with what ``me`` saw:

        w_s(t) = C(t, p_s) * sum over k + g + x = t of C(9, k) C(r_s, g) C(n_s, x)

    (k trumps among its nine cards, fitting its refill count; g among its r_s refill cards;
    x among the n_s rest cards if it got the rest; the trumps t must fit the plays). C(t, p_s):
    the p_s trumps it played are known cards, which must be among its t: of the ways to
    place the trumps, a fraction proportional to C(t, p_s) puts those p_s at this seat (the
    number of deals with count t is C(9,k)C(r,g)C(n,x) times the ways to choose which trumps,
    and the played ones are fixed). Returns the number of trumps ``me`` did not see dealt to
    itself.
    """
    h54, received, sc, played, got54, fw = ws[3], ws[6], ws[13], ws[14], ws[16], ws[17]
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
            p = popcount(played[s])
            pb = p - pc
            done = i < sc[S_TURN]
            for k in range(10):
                if not nine_fits(left, r, k):
                    continue
                for g in range(r + 1):
                    for x in range(xn + 1):
                        t = k + g + x
                        if t <= 16 and group_ok(ph, t, done, alive, pb, pc):
                            fw[i, t] += BINOM[9, k] * BINOM[r, g] * BINOM[xn, x]
            for t in range(17):
                fw[i, t] *= BINOM[t, p]  # 0 when t < p
        left -= r
    return tu


@njit(cache=True, _nrt=False)
def resample_hidden(ws, me, rng):
    """Redeal what ``me`` cannot see, consistently with what it has seen.

    Reads and writes the bundle ``ws``: before trump deck (and h54 of the other seats),
    after trump h16 and disc of the other seats (and in a give decision the rest of the
    stock in ``deck[top:54]``); fw as scratch.

    Before trump (bid, trump decisions) the seat knows its nine cards: the other 45 are
    shuffled, nine to each other seat, the rest the stock (exactly uniform).

    After trump it knows its nine cards, its refill cards, the rest if it received it, its
    own discards, the refill counts of every seat, who got the rest, every trump played and
    by whom, and who still holds trumps at the start of the current trick. Only trumps
    matter now. The counts come first: per other seat, the trumps t in its nine cards +
    refill + rest, with the weights of ``hidden_weights`` (the number of consistent deals;
    t must fit the plays: at least as many as it played, still holding one iff it plays in
    the current trick, six at most after discards). The joint counts are drawn exactly by
    dynamic programming over the seats (forward sums, backward sampling; no rejection).
    Then the trumps nobody showed ``me`` are dealt at random to the counts (exchangeable
    given them): to each seat the ones it still holds, then its discards. The model: a
    uniform deal, nothing read into the others' choices beyond their legality (every
    consistent deal equally likely), and another seat's discards down to six uniform among
    its trumps that it did not play. Returns False when no deal fits.
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
    """One draw of the hidden trumps after trump (weights from ``prepare_hidden``): writes
    h16 and disc of the other seats (disc: the unplayed trumps it discarded down to six),
    and in a give decision the trumps of the undealt rest into ``deck[top:]`` (non-trump
    fillers after them). tmp[0:16] and tmp[40:44] are scratch."""
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
        held = held_count(ph, i, sc[S_TURN], t, popcount(played[s]))
        m = 0
        for j in range(held):
            m |= 1 << pool[p]
            p += 1
        h16[s] = m
    # what is left of the pool: the other seats' discards (out of play), t - min(t, 6) each
    # once it has discarded
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        if s == me:
            continue
        t = counts[i]
        dead = t - held_count(ph, i, sc[S_TURN], t, popcount(played[s])) - (popcount(played[s]) if ph == PH_PLAY else 0)
        m = 0
        for j in range(dead):
            m |= 1 << pool[p]
            p += 1
        disc[s] = m


@njit(cache=True, _nrt=False)
def complete_deal(ws, me, rng, buf):
    """After ``draw_hidden``: the rest of a whole deal of the cards ``me`` cannot see, so that
    the sampled state is a complete, consistent deal (the bids can be replayed on it, and a
    Monte Carlo rollout seat finds its own nine cards and refill).

    Reads h16/played/disc of the other seats (their trumps: held, played, discarded) and
    received; writes h54 of the other seats (nine cards), got54 of the other seats (refill
    cards), got54[4] when the rest went to another seat, and in a give decision the non-trump
    part of ``deck[top:54]``. ``buf``: int64[64] scratch. Per seat with t trumps, the split
    (k in the nine cards, g in the refill, x in the rest) is drawn with weight C(9,k) C(r,g)
    C(n,x) (k fitting the refill count), the trumps are split at random in those sizes, and
    the unseen non-trumps are dealt at random to the places left: given the trump counts
    this is the uniform deal."""
    deck, h54, h16, received, sc, played, disc, got54 = ws[0], ws[3], ws[4], ws[6], ws[13], ws[14], ws[15], ws[16]
    trump = sc[S_TRUMP]
    rest_to, rest_n = sc[S_REST_TO], sc[S_REST_N]
    known = h54[me] | got54[me]
    if rest_to == me:
        known |= got54[4]
    nt = 0
    for c in range(NCARDS):
        if STRENGTH[trump, c] < 0 and not ((known >> c) & 1):
            buf[nt] = c
            nt += 1
    q = 0  # non-trumps buf[0:q] are placed (drawn lazily from buf[q:nt])
    tl = buf[48:64]
    left = 18
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        r = received[s]
        if s != me:
            f = h16[s] | played[s] | disc[s]
            t = popcount(f)
            xn = rest_n if rest_to == s else 0
            total = 0.0
            for k in range(10):
                if nine_fits(left, r, k):
                    for g in range(r + 1):
                        x = t - k - g
                        if 0 <= x <= xn:
                            total += BINOM[9, k] * BINOM[r, g] * BINOM[xn, x]
            u = (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
            acc = 0.0
            pk, pg = -1, -1
            for k in range(10):
                if nine_fits(left, r, k):
                    for g in range(r + 1):
                        x = t - k - g
                        if 0 <= x <= xn:
                            w = BINOM[9, k] * BINOM[r, g] * BINOM[xn, x]
                            if w > 0.0 and (pk < 0 or u >= acc):
                                pk, pg = k, g
                            acc += w
            n = 0
            for b in range(16):
                if (f >> b) & 1:
                    tl[n] = b
                    n += 1
            for j in range(n - 1):
                draw_lazy(tl, j, n, rng)
            nine = np.int64(0)
            for j in range(pk):
                nine |= np.int64(1) << CARD_AT[trump, tl[j]]
            for j in range(9 - pk):
                nine |= np.int64(1) << draw_lazy(buf, q, nt, rng)
                q += 1
            refill = np.int64(0)
            for j in range(pk, pk + pg):
                refill |= np.int64(1) << CARD_AT[trump, tl[j]]
            for j in range(r - pg):
                refill |= np.int64(1) << draw_lazy(buf, q, nt, rng)
                q += 1
            h54[s] = nine
            got54[s] = refill
            if xn > 0:
                rest = np.int64(0)
                for j in range(pk + pg, t):
                    rest |= np.int64(1) << CARD_AT[trump, tl[j]]
                for j in range(xn - (t - pk - pg)):
                    rest |= np.int64(1) << draw_lazy(buf, q, nt, rng)
                    q += 1
                got54[4] = rest
        left -= r
    if sc[S_PHASE] == PH_GIVE:  # the undealt rest: its trumps (draw_hidden) and unseen non-trumps
        top = NCARDS - rest_n
        for j in range(rest_n):
            if STRENGTH[trump, deck[top + j]] < 0:
                deck[top + j] = draw_lazy(buf, q, nt, rng)
                q += 1


@njit(cache=True, _nrt=False)
def bids_fit(ws, me, strat):
    """Whether every other seat's bid so far is the one its bidding model makes with the
    nine cards of the (sampled) deal in ``h54``. Model per seat (``strat`` row): heuristic
    bids ``strategies.heuristic_bid`` of its hand with its partner share (deterministic);
    mc is modelled by its base strategy (heuristic with the default share); random bids
    uniformly among the legal bids, whatever the hand (no information). A stuck dealer's 4
    is forced."""
    h54, bids, sc = ws[3], ws[5], ws[13]
    high = 0
    pitcher = -1
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        b = bids[s]
        if b < 0:
            break
        if s != me:
            sid = strat[s, 0]
            share = strat[s, 1]
            if sid == st.MC:
                sid = strat[s, 2]
                share = st.PARTNER_SHARE
            if sid == st.HEURISTIC:
                partner_high = pitcher >= 0 and (pitcher & 1) == (s & 1)
                if st.heuristic_bid(h54[s], high, partner_high, i == 3 and high == 0, share) != MOVE_BID0 + b:
                    return False
        if b > 0:
            high = b
            pitcher = s
    return True


@njit(cache=True, _nrt=False)
def sample_state(base_ws, ws, me, rng, strat, infer, complete, buf):
    """One sample of the hidden cards for ``me`` into ``ws`` (overwritten with a copy of
    ``base_ws``; after trump its ``fw`` must hold ``prepare_hidden``'s weights: copy_bundle
    leaves fw alone). ``complete``: a whole deal
    (``complete_deal``); ``infer``: exact conditioning on the other seats' bids by rejection
    (redraw until ``bids_fit``; implies a whole deal). Returns the number of draws, or -1
    when none fitted in MAX_TRIES."""
    after_trump = base_ws[13][S_PHASE] > PH_TRUMP
    for tries in range(1, MAX_TRIES + 1):
        copy_bundle(base_ws, ws)
        if after_trump:
            draw_hidden(ws, me, rng)
            if complete or infer:
                complete_deal(ws, me, rng, buf)
        else:
            resample_hidden(ws, me, rng)
        if not infer or bids_fit(ws, me, strat):
            return tries
    return -1


@njit(cache=True)
def draw_samples(seed, base_ws, me, strat, infer, complete, h16_out, disc_out, h54_out, got_out, tries_out):
    """``n = h16_out.shape[0]`` samples as the evaluation draws them (sample j from the
    stream (seed, j, DEAL)): per sample the four seats' h16, disc and h54 (int64[n, 4]),
    got54 (int64[n, 5]) and the number of draws it took (-1: none fitted)."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    buf = np.zeros(64, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    copy_bundle(base_ws, ws)
    if ws[13][S_PHASE] > PH_TRUMP:
        prepare_hidden(ws, me)
    for j in range(h16_out.shape[0]):
        seed_stream(rng, seed, j, DEAL)
        tries_out[j] = sample_state(base_ws, ws, me, rng, strat, infer, complete, buf)
        for s in range(4):
            h16_out[j, s] = ws[4][s]
            disc_out[j, s] = ws[15][s]
            h54_out[j, s] = ws[3][s]
        for s in range(5):
            got_out[j, s] = ws[16][s]


@njit(cache=True)
def held_table(base_ws, me, out):
    """For enumerating worlds (play and discard decisions): ``out[a, b, c]`` (float64[17, 17,
    17]) = the total weight of the trump count vectors under which the other seats, in
    refill order, still hold a, b and c trumps. Given those held counts every placement of
    the unseen trumps (held by each seat, the rest dead) is equally likely, whatever the
    counts that led to them (each is a uniform split of the pool). Returns False when no
    deal fits."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    copy_bundle(base_ws, ws)
    if not prepare_hidden(ws, me):
        return False
    sc, played, fw = ws[13], ws[14], ws[17]
    ph = sc[S_PHASE]
    tu = np.int64(fw[9, 0])
    mi = (me - sc[S_DEALER] - 1) & 3
    rows = np.zeros(3, dtype=np.int64)
    ps = np.zeros(3, dtype=np.int64)
    n = 0
    for i in range(4):
        if i != mi:
            rows[n] = i
            ps[n] = popcount(played[(sc[S_DEALER] + 1 + i) & 3])
            n += 1
    out[:] = 0.0
    for a in range(tu + 1):
        wa = fw[rows[0], a]
        if wa == 0.0:
            continue
        for b in range(tu - a + 1):
            wb = fw[rows[1], b]
            c = tu - a - b
            wc = fw[rows[2], c]
            if wb == 0.0 or wc == 0.0:
                continue
            out[held_count(ph, rows[0], sc[S_TURN], a, ps[0]), held_count(ph, rows[1], sc[S_TURN], b, ps[1]),
                held_count(ph, rows[2], sc[S_TURN], c, ps[2])] += wa * wb * wc
    return True


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
        # built-ins pick from ``legal`` by construction; only user moves are checked, against
        # the list made again here: the one the strategy saw may have been written to
        if sid < 0 and not is_in(move, legal, decision(ws, True)[2]):
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
def evaluate_block(seed, start, params, strat, base_ws, seat, options, worlds, result, lo, hi, bid_decision,
                   infer, complete):
    """result[j, i] = [hand outcome, seat's team won the game] for samples lo..hi-1 and the
    options; the hand outcome is 1 if the pitcher's team made its bid, or for a bid decision
    the seat's team's score change. Sample j is drawn once (``sample_state`` from the stream
    (seed, start + j, DEAL)) and every option is played on it with the same future.
    ``worlds`` (int64[W, 4], the trumps each seat holds; empty: sample): sample j is played
    in world (start + j) % W instead (the other seats' discards left unknown: nothing reads
    them but an mc seat, and the spec samples instead when one is in the rollout).
    result[j, :, 0] = -998 when no sample fitted the bids (``infer``)."""
    ws = workspace(params)
    samp = workspace(params)
    mcws = mc_workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    buf = np.zeros(64, dtype=np.int64)
    team = seat & 1
    nw = worlds.shape[0]
    copy_bundle(base_ws, samp)
    if samp[13][S_PHASE] > PH_TRUMP:
        prepare_hidden(samp, seat)  # samp's fw: copy_bundle leaves it alone
    for j in range(lo, hi):
        seed_stream(sample_rng, seed, start + j, DEAL)
        if nw > 0:
            copy_bundle(base_ws, samp)
            w = (start + j) % nw
            for s in range(4):
                if s != seat:
                    samp[4][s] = worlds[w, s]
                    samp[15][s] = 0
        elif sample_state(base_ws, samp, seat, sample_rng, strat, infer, complete, buf) < 0:
            for i in range(options.shape[0]):
                result[j, i, 0] = -998
            continue
        for i in range(options.shape[0]):
            # the same hidden cards and the same future for every option (common random numbers)
            copy_bundle(samp, ws)
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
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, worlds, result, nblocks, bid_decision,
                   infer, complete):
    """``evaluate_block`` over samples 0..n-1 of ``result`` (int64[n, k, 2]) in ``nblocks``
    parallel blocks."""
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, worlds, result, b * n // nblocks,
                       (b + 1) * n // nblocks, bid_decision, infer, complete)


@njit(cache=True)
def count_fits(seed, base_ws, me, strat, n):
    """How many of ``n`` draws of the hidden cards (without inference) fit the other seats'
    bids under their bidding models (``bids_fit``): the acceptance rate of inference."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    buf = np.zeros(64, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    copy_bundle(base_ws, ws)
    if ws[13][S_PHASE] > PH_TRUMP:
        prepare_hidden(ws, me)
    seed_stream(rng, seed, 0, DEAL)
    fits = 0
    for j in range(n):
        sample_state(base_ws, ws, me, rng, strat, False, True, buf)
        if bids_fit(ws, me, strat):
            fits += 1
    return fits


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
