"""Twenty-Two play loops (compiled): set-up kept apart from play, so that the same pieces
play fresh games, traced games, Monte Carlo rollouts and evaluations from a position.

A game's state is a *bundle* (``workspace``), a tuple of arrays:
    deck    int64[52]     this hand's deck (cards not yet scored); ``deck[top:ndeck]`` is the
                          stock, lazily shuffled from the deal stream (rng.draw_lazy)
    hmask   int64[P]      card bitmask (bit = card code) of each seat's hand
    hpk     int64[P]      the same hand as a packed count vector (rules.py)
    scores  int64[P], active bool[P], gone int64[P] (hand in which the seat went out)
    dmask   int64[P]      cards each seat discarded this hand (face down, out of play)
    floor   int64[P]      lowest rank each seat can still hold this hand, as shown by the
                          rules (a follower who plays a set that does not match or beat the
                          best set has played its lowest cards: all its other cards rank at
                          least as high as the highest card of that set); 0 = nothing shown
    deal_rng, play_rng uint64[4]  (a fresh deal stream per hand: rng.hand_purpose)
    sc      int64[N_SC]   scalars: S_DEALER, S_PHASE (discard, lead, follow, final), S_SEAT
                          (to move), S_NDONE (discards made / cards sets played to this
                          trick), S_TOP, S_NDECK, S_SIZE (dealt), S_HS (hand size during the
                          tricks), S_LEADER, S_SET, S_BEST, S_WINNER, S_PLAYED (packed ranks
                          played to this hand's ordinary tricks), S_NACTIVE, S_SCORED (bitmask
                          of the cards scored this game), S_HANDS, S_DECISIONS, S_OVER,
                          S_WINNERS, S_HAS_USER, S_NUNABLE
    legal   int64[2048]   legal moves (packed sets) of the current decision
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    scr     int64[SCRATCH] scratch of the legal-set enumerator and sampler (rules.py)
    cards, order, fcards, takers int64[52], points int64[P]: small lists (draws, the final
                          trick, sampling)
    gid     uint64[2]     (seed, game index): the per-hand deal streams derive from it
    rscr    uint64[4]     scratch of the stock preview in records
    ppk     int64[P]      cards each seat played to this hand's tricks (packed)
    unable  int64[3 * MAX_UNABLE]  variant ``lowest_only_if_unable``: per "could not match
                          or beat" follow (S_NUNABLE of them this hand) the seat, the best
                          set it faced and its ``ppk`` before that play
    desc_cur, desc int64[DESC], wk int64[WORK], sinfo int64[N_INFO], tab float64[TAB_SIZE
                          in the variant, else 1]: the hidden-card sampler's description,
                          scratch and counting table (sampler.py; not state, not copied)
Out row columns (spec.extra_columns): winners, hands, decisions (discards, leads and
follows), score_s (final points), then per seat ``took_s`` (hands in which the seat took
the final trick), ``played_s`` (hands the seat was dealt into), ``place_s`` (finishing
place: 1 for a winner, else 1 + the players who stayed in longer; players out in the
same hand share a place).

The rules live once, in ``deal_hand``, ``apply_move`` and ``final_trick``. Two drivers
choose the moves: ``play_turns`` (any strategy: games, records, evaluations) and
``rollout_turns`` (built-in base strategies only: what ``mc`` rolls out with; keeping it
apart keeps the call graph free of recursion, which numba does not compile reliably).

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
    highest_rank,
    highest_set,
    legal_discards,
    legal_follows,
    legal_leads,
    lowest_rank,
    lowest_set,
    nib,
    one,
    set_size,
    take_cards,
    next_active,
)
from analyzer.games.twenty_two.sampler import (
    D_A, D_CL, D_F, D_FLR, D_H, D_M, D_NCL, D_NDF, D_NDH, D_NFL, D_NND, DESC, MAX_CLAUSES, MAX_DP, MAX_FLAGS,
    MAX_ND, TAB_SIZE, WORK, dp_draw, dp_fill,
)
from analyzer.jit import njit, prange
from analyzer.rng import DEAL, PLAY, draw_lazy, hand_purpose, next_u64, preview_into, randbelow, seed_stream, shuffle

# trace event codes
EV_DEAL, EV_DECIDE, EV_DRAW, EV_TRICK, EV_FINAL, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7
TAG_STOCK = 100
KIND_DISCARD, KIND_LEAD, KIND_FOLLOW = st.KIND_DISCARD, st.KIND_LEAD, st.KIND_FOLLOW
PH_DISCARD, PH_LEAD, PH_FOLLOW, PH_FINAL = 0, 1, 2, 3

(V_SEAT, V_PLAYERS, V_DEALER, V_KIND, V_STOCK, V_HAND_SIZE, V_HAND, V_SET, V_BEST, V_BEST_SEAT,
 V_LEADER, V_HAND_NO, V_TARGET) = range(13)
V_COUNTS, V_PLAYED, V_SCORES, V_ACTIVE = 13, 26, 39, 45
VIEW_SIZE = 51
MAX_PLAYERS = 6

(S_DEALER, S_PHASE, S_SEAT, S_NDONE, S_TOP, S_NDECK, S_SIZE, S_HS, S_LEADER, S_SET, S_BEST, S_WINNER,
 S_PLAYED, S_NACTIVE, S_SCORED, S_HANDS, S_DECISIONS, S_OVER, S_WINNERS, S_HAS_USER, S_NUNABLE) = range(21)
N_SC = 21
#: "could not match or beat" events of a hand (variant): a hand has at most 10 tricks of 5 followers
MAX_UNABLE = 64
#: a sample that the constrained sampler's rejection step (seats beyond its table) has not
#: accepted after this many proposals falls back to the floors only (resample_hidden: False)
MAX_TRIES = 1 << 20
# sampler scratch (``sinfo``): table states, valid flag, seat lists, drawn counts
I_NST, I_VALID, I_NREJ, I_DP, I_ND, I_REJ, I_COUNTS = 0, 1, 2, 8, 16, 24, 96
N_INFO = I_COUNTS + 13 * MAX_DP
#: ``mc`` considers every legal follow when there are at most this many (else: windows)
MC_ALL_FOLLOWS = 16

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_move", "play_turns", "play_rest", "play_game", "run_block", "run_chunk", "run_traced",
              "evaluate_block", "evaluate_chunk"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


@njit(cache=True)
def workspace(params):
    """One state bundle (see the module docstring), allocated once per block of games."""
    players = params[P_PLAYERS]
    return (np.zeros(52, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.bool_), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(N_SC, dtype=np.int64),
            np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(SCRATCH, dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(2, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(players, dtype=np.int64), np.zeros(3 * MAX_UNABLE, dtype=np.int64),
            np.zeros(DESC, dtype=np.int64), np.zeros(DESC, dtype=np.int64), np.zeros(WORK, dtype=np.int64),
            np.zeros(N_INFO, dtype=np.int64),
            # the counting table only where it can be needed (the variant)
            np.zeros(TAB_SIZE if params[P_LOWEST_ONLY] != 0 else 1, dtype=np.float64))


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole game state (``src`` into ``dst``; scratch arrays are not state)."""
    for i in range(52):
        dst[0][i] = src[0][i]
    for p in range(src[1].shape[0]):
        dst[1][p] = src[1][p]
        dst[2][p] = src[2][p]
        dst[3][p] = src[3][p]
        dst[4][p] = src[4][p]
        dst[5][p] = src[5][p]
        dst[6][p] = src[6][p]
        dst[7][p] = src[7][p]
    for j in range(4):
        dst[8][j] = src[8][j]
        dst[9][j] = src[9][j]
    for j in range(N_SC):
        dst[10][j] = src[10][j]
    dst[19][0] = src[19][0]
    dst[19][1] = src[19][1]
    for p in range(src[1].shape[0]):
        dst[21][p] = src[21][p]
    for j in range(3 * src[10][S_NUNABLE]):
        dst[22][j] = src[22][j]


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


@njit(cache=True, inline="always")
def popcount(mask):
    n = 0
    while mask != 0:
        mask &= mask - 1
        n += 1
    return n


# ---- the rules, once ----------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def start_game(seed, index, params, strat, ws, out, err):
    """A fresh game: scores 0, everyone in, a random first dealer."""
    scores, active, gone, deal_rng, play_rng, sc = ws[3], ws[4], ws[5], ws[8], ws[9], ws[10]
    players = params[P_PLAYERS]
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    ws[19][0] = np.uint64(seed)
    ws[19][1] = np.uint64(index)
    sc[:] = 0
    for p in range(players):
        scores[p] = 0
        active[p] = True
        gone[p] = 0
        if strat[p, 0] < 0:
            sc[S_HAS_USER] = 1
    out[:] = 0
    err[0] = -1
    sc[S_NACTIVE] = players
    sc[S_DEALER] = randbelow(deal_rng, players)
    sc[S_SIZE] = FIRST_HAND_SIZE


@njit(cache=True, _nrt=False, inline="always")
def deal_hand(params, ws, out, trace, tracing):
    """Gather the unscored cards and deal the next hand; False when the 0-card safeguard
    ends the game instead (winners set)."""
    deck, hmask, hpk, scores, active, gone, dmask, floor, deal_rng, play_rng, sc = ws[:11]
    players = params[P_PLAYERS]
    nactive = sc[S_NACTIVE]
    scored = sc[S_SCORED]
    size = sc[S_SIZE]
    dealer = sc[S_DEALER]
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
        winners = 0
        for p in range(players):
            if active[p] and scores[p] == low:
                winners |= 1 << p
        sc[S_WINNERS] = winners
        sc[S_OVER] = 1
        return False
    sc[S_HANDS] += 1
    # each hand deals from its own stream: hand k of a game is dealt alike whatever the
    # earlier hands drew (and evaluations share the future deals across options)
    seed_stream(deal_rng, ws[19][0], np.int64(ws[19][1]), hand_purpose(sc[S_HANDS]))
    ppk = ws[21]
    for p in range(players):
        hmask[p] = 0
        hpk[p] = 0
        dmask[p] = 0
        floor[p] = 0
        ppk[p] = 0
    sc[S_NUNABLE] = 0
    top = 0
    for c in range(size):
        p = dealer
        for k in range(nactive):
            p = next_active(p, active)
            card = draw_lazy(deck, top, ndeck, deal_rng)
            top += 1
            hmask[p] |= np.int64(1) << card
            hpk[p] += one(RANK_OF[card])
    nbase = 3 + players
    for p in range(players):
        if active[p]:
            out[nbase + players + p] += 1  # played_s
    if tracing:
        tr.emit(trace, EV_DEAL, sc[S_HANDS], dealer, size, 0)
        for p in range(players):
            if active[p]:
                emit_mask(trace, p, hmask[p])
        order = ws[15]
        tr.emit_list(trace, TAG_STOCK, order, preview_into(deck, top, ndeck, deal_rng, order, ws[20]))
    sc[S_TOP], sc[S_NDECK], sc[S_SIZE], sc[S_HS], sc[S_PLAYED] = top, ndeck, size, size, 0
    sc[S_PHASE], sc[S_NDONE], sc[S_SEAT] = PH_DISCARD, 0, next_active(dealer, active)
    return True


@njit(cache=True, _nrt=False, inline="always")
def apply_move(params, ws, move, trace, tracing):
    """The seat to move makes ``move`` (a discard, a lead or a follow); play passes on."""
    deck, hmask, hpk, scores, active, gone, dmask, floor, deal_rng, play_rng, sc = ws[:11]
    cards = ws[14]
    p = sc[S_SEAT]
    phase = sc[S_PHASE]
    before = hmask[p]
    hmask[p] = take_cards(before, move)
    hpk[p] -= move
    if phase == PH_DISCARD:
        dmask[p] |= before ^ hmask[p]
        ndraw = set_size(move)
        top, ndeck = sc[S_TOP], sc[S_NDECK]
        for j in range(ndraw):
            card = draw_lazy(deck, top, ndeck, deal_rng)
            top += 1
            cards[j] = card
            hmask[p] |= np.int64(1) << card
            hpk[p] += one(RANK_OF[card])
        sc[S_TOP] = top
        if tracing:
            tr.emit(trace, EV_DRAW, p, ndraw, 0, 0)
            tr.emit_list(trace, 0, cards, ndraw)
        sc[S_NDONE] += 1
        if sc[S_NDONE] == sc[S_NACTIVE]:
            leader = next_active(sc[S_DEALER], active)
            sc[S_LEADER] = leader
            sc[S_SEAT] = leader
            sc[S_PHASE] = PH_LEAD if sc[S_HS] >= 2 else PH_FINAL
        else:
            sc[S_SEAT] = next_active(p, active)
    elif phase == PH_LEAD:
        sc[S_PLAYED] += move
        ws[21][p] += move
        sc[S_SET] = set_size(move)
        sc[S_BEST] = move
        sc[S_WINNER] = p
        sc[S_NDONE] = 1
        sc[S_PHASE] = PH_FOLLOW
        sc[S_SEAT] = next_active(p, active)
    else:
        sc[S_PLAYED] += move
        s, best = sc[S_SET], sc[S_BEST]
        if move >= best if s == 1 else beats(move, best):  # singles: compare ranks
            sc[S_BEST] = move
            sc[S_WINNER] = p
        else:
            # not matching or beating: these were its lowest cards
            r = highest_rank(move)
            if r > floor[p]:
                floor[p] = r
            if params[P_LOWEST_ONLY] != 0:
                # ... and (variant) it could not match or beat ``best``: the hand it held then
                # (its cards now plus what it plays from here on) is constrained
                ne = sc[S_NUNABLE]
                if ne < MAX_UNABLE:
                    ws[22][3 * ne] = p
                    ws[22][3 * ne + 1] = best
                    ws[22][3 * ne + 2] = ws[21][p]
                    sc[S_NUNABLE] = ne + 1
        ws[21][p] += move
        sc[S_NDONE] += 1
        if sc[S_NDONE] == sc[S_NACTIVE]:
            sc[S_HS] -= s
            sc[S_LEADER] = sc[S_WINNER]
            sc[S_SEAT] = sc[S_WINNER]
            sc[S_PHASE] = PH_LEAD if sc[S_HS] >= 2 else PH_FINAL
            if tracing:
                tr.emit(trace, EV_TRICK, sc[S_WINNER], 0, 0, 0)
        else:
            sc[S_SEAT] = next_active(p, active)


@njit(cache=True, inline="always")
def final_top_rank(hpk, active):
    top = -1
    for p in range(hpk.shape[0]):
        if active[p]:
            r = lowest_rank(hpk[p])
            if r > top:
                top = r
    return top


@njit(cache=True, inline="always")
def seat_points(ws, seat):
    """Points ``seat`` takes in this hand's final trick (everyone holds one card)."""
    hpk, active = ws[2], ws[4]
    r = lowest_rank(hpk[seat])
    if r == final_top_rank(hpk, active):
        return RANK_POINTS[r]
    return 0


@njit(cache=True, _nrt=False)
def final_trick(params, ws, out, trace, tracing):
    """Everyone plays their last card from the leader; the highest rank takes it and
    scores; players at the target are out. Returns the takers (seat bit mask)."""
    deck, hmask, hpk, scores, active, gone, dmask, floor, deal_rng, play_rng, sc = ws[:11]
    cards, order, fcards, takers, points = ws[14], ws[15], ws[16], ws[17], ws[18]
    players = params[P_PLAYERS]
    nactive = sc[S_NACTIVE]
    nbase = 3 + players
    top_rank = -1
    p = sc[S_LEADER]
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
    took = 0
    for p in range(players):
        points[p] = 0
    for k in range(nactive):
        p = order[k]
        if RANK_OF[fcards[k]] == top_rank:
            takers[ntakers] = p
            ntakers += 1
            took |= 1 << p
            points[p] = RANK_POINTS[top_rank]
            scores[p] += points[p]
            sc[S_SCORED] |= np.int64(1) << fcards[k]
            out[nbase + p] += 1  # took_s
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
            if scores[p] >= params[P_TARGET]:
                active[p] = False
                gone[p] = sc[S_HANDS]
                nactive -= 1
                cards[nout] = p
                nout += 1
    sc[S_NACTIVE] = nactive
    if tracing:
        tr.emit(trace, EV_HAND_END, sc[S_HANDS], 0, 0, 0)
        tr.emit_list(trace, 0, points, players)
        tr.emit_list(trace, 1, scores, players)
        tr.emit_list(trace, 2, cards, nout)
    sc[S_DEALER] = takers[0]
    sc[S_SIZE] = RANK_POINTS[top_rank]
    if nactive == 1:
        for p in range(players):
            if active[p]:
                sc[S_WINNERS] = 1 << p
        sc[S_OVER] = 1
    elif nactive == 0:
        low = 1 << 30
        for p in range(players):
            if was_in & (1 << p) and scores[p] < low:
                low = scores[p]
        winners = 0
        for p in range(players):
            if was_in & (1 << p) and scores[p] == low:
                winners |= 1 << p
        sc[S_WINNERS] = winners
        sc[S_OVER] = 1
    return took


@njit(cache=True, _nrt=False)
def finish(params, ws, out, trace, tracing):
    """Finishing places, final scores and the game row."""
    scores, active, gone, sc = ws[3], ws[4], ws[5], ws[10]
    players = params[P_PLAYERS]
    winners = sc[S_WINNERS]
    hands = sc[S_HANDS]
    nbase = 3 + players
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
        out[nbase + 2 * players + p] = place
        out[3 + p] = scores[p]
    out[0] = winners
    out[1] = hands
    out[2] = sc[S_DECISIONS]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, hands, 0, 0)
        tr.emit_list(trace, 0, scores, players)


# ---- Monte Carlo: sampling what a seat cannot see, and rollouts ------------------------------

@njit(cache=True, _nrt=False)
def build_description(params, ws, seat):
    """What the sampler needs, as ``seat`` sees it: writes the description (sampler.py) into
    ``ws[24]`` and the seat lists into ``ws[26]`` (I_DP: DP seats, I_ND: the other hidden
    hands sorted by floor, highest first, I_REJ: the events left to rejection).

    Per other hand still in: its size, its floor, and, in the variant, its "could not
    match or beat" events. An event (seat q, best set B, q's played cards before it) says
    that q's hand then, H = its hand now + what it has played since, held for some i at
    most ``s - i`` cards of rank ``>= b_i`` (b sorted up): with K the known part of H, the
    clause ``S(b_i) <= s - i - K(b_i)`` on the hand now. Clauses that always hold end the
    event, clauses that never hold are dropped; one clause left is a hard bound, more
    share an "or" flag. Seats with events go to the counting table while it fits in the
    table (TAB_SIZE), the others' events are checked by rejection.
    """
    hmask, hpk, active, floor, sc = ws[1], ws[2], ws[4], ws[7], ws[10]
    ppk, unable, desc, info = ws[21], ws[22], ws[24], ws[26]
    players = params[P_PLAYERS]
    desc[:] = 0
    top, ndeck = sc[S_TOP], sc[S_NDECK]
    for p in range(players):
        if p != seat and active[p]:
            for c in range(52):
                if (hmask[p] | ws[6][p]) & (np.int64(1) << c):
                    desc[D_A + RANK_OF[c]] += 1
    for i in range(top, ndeck):
        desc[D_A + RANK_OF[ws[0][i]]] += 1
    nev = sc[S_NUNABLE]
    m = 0
    nfl = 0
    ncl = 0
    nrej = 0
    states = 1
    nd = 0
    for q in range(players):
        if q == seat or not active[q]:
            continue
        h = set_size(hpk[q])
        f = floor[q]
        # this seat's clauses, written after the committed ones (kept only if it fits)
        k0 = ncl
        g0 = nfl
        live_events = 0
        fits = m < MAX_DP
        for e in range(nev):
            if unable[3 * e] != q:
                continue
            best = unable[3 * e + 1]
            known = ppk[q] - unable[3 * e + 2]
            s = set_size(best)
            satisfied = False
            kfirst = ncl
            i = 0
            for r in range(13):
                for _ in range(nib(best, r)):
                    i += 1
                    above = 0
                    for t in range(r, 13):
                        above += nib(known, t)
                    c = s - i - above
                    if r <= f:
                        if h <= c:
                            satisfied = True
                        continue
                    if c >= h:
                        satisfied = True
                    elif c >= 0 and fits:
                        merged = False
                        for k in range(kfirst, ncl):
                            if desc[D_CL + 4 * k + 1] == r:
                                merged = True
                                if c > desc[D_CL + 4 * k + 2]:
                                    desc[D_CL + 4 * k + 2] = c
                        if not merged:
                            if ncl >= MAX_CLAUSES:
                                fits = False
                            else:
                                desc[D_CL + 4 * ncl] = m
                                desc[D_CL + 4 * ncl + 1] = r
                                desc[D_CL + 4 * ncl + 2] = c
                                desc[D_CL + 4 * ncl + 3] = -1
                                ncl += 1
            if satisfied:
                ncl = kfirst  # the event always holds: no clause
                continue
            live_events += 1
            if not fits:
                continue
            if ncl == kfirst:
                # no clause can hold: no deal fits (S(0) <= -1 never holds)
                desc[D_CL + 4 * ncl] = m
                desc[D_CL + 4 * ncl + 1] = 0
                desc[D_CL + 4 * ncl + 2] = -1
                desc[D_CL + 4 * ncl + 3] = -1
                ncl += 1
            elif ncl - kfirst > 1:
                if nfl >= MAX_FLAGS:
                    fits = False
                else:
                    low = 13
                    for k in range(kfirst, ncl):
                        desc[D_CL + 4 * k + 3] = nfl
                        if desc[D_CL + 4 * k + 1] < low:
                            low = desc[D_CL + 4 * k + 1]
                    desc[D_FLR + nfl] = low
                    nfl += 1
        if live_events == 0:
            fits = False
        elif fits and 14 * states * (h + 1) << nfl > ws[27].shape[0]:
            fits = False
        if fits:
            desc[D_H + m] = h
            desc[D_F + m] = f
            info[I_DP + m] = q
            m += 1
            states *= h + 1
            continue
        # a nested seat: size and floor only (its events, if any, by rejection)
        for k in range(k0, ncl):
            for j in range(4):
                desc[D_CL + 4 * k + j] = 0
        for g in range(g0, nfl):
            desc[D_FLR + g] = 0
        ncl, nfl = k0, g0
        if live_events > 0:
            for e in range(nev):
                if unable[3 * e] == q:
                    info[I_REJ + nrej] = e
                    nrej += 1
        # insertion by floor, highest first (ties: seat order)
        j = nd
        while j > 0 and desc[D_NDF + j - 1] < f:
            desc[D_NDF + j] = desc[D_NDF + j - 1]
            desc[D_NDH + j] = desc[D_NDH + j - 1]
            info[I_ND + j] = info[I_ND + j - 1]
            j -= 1
        desc[D_NDF + j] = f
        desc[D_NDH + j] = h
        info[I_ND + j] = q
        nd += 1
    desc[D_M], desc[D_NFL], desc[D_NCL], desc[D_NND] = m, nfl, ncl, nd
    info[I_NREJ] = nrej


@njit(cache=True, _nrt=False)
def _deal_nested(params, ws, seat, rng, pool, seats, first, nseats):
    """Deal the hands ``seats[first:first + nseats]`` (sorted by floor, highest first) from the cards of
    ``pool``: each a uniform draw from the pool cards at or above its floor. The allowed
    sets are nested, so the number of ways left never depends on the earlier draws: the
    result is uniform over the deals that respect the floors. Leaves the rest of the pool
    in ``order[:end]`` and returns ``end``."""
    hmask, hpk, floor = ws[1], ws[2], ws[7]
    start, order = ws[14], ws[15]
    n = 0
    for r in range(13):  # the pool sorted by rank: ranks >= f are a suffix
        start[r] = n
        for sv in range(4):
            c = sv * 13 + r
            if pool & (np.int64(1) << c):
                order[n] = c
                n += 1
    end = n
    for j in range(nseats):
        p = seats[first + j]
        h = set_size(hpk[p])
        lo = start[floor[p]]
        m = np.int64(0)
        pk = np.int64(0)
        for t in range(h):
            i = lo + randbelow(rng, end - lo)
            c = order[i]
            order[i] = order[end - 1]
            order[end - 1] = c
            end -= 1
            m |= np.int64(1) << c
            pk += one(RANK_OF[c])
        hmask[p] = m
        hpk[p] = pk
    return end


@njit(cache=True, _nrt=False)
def _deal_constrained(params, ws, seat, rng, pool):
    """The variant with "could not beat" events: the hands of the DP seats by the counting
    table (sampler.py), the others nested; events beyond the table by rejection.
    Returns the end of the rest of the pool in ``order`` (as _deal_nested), -1 when no
    proposal was accepted (no deal fits, or MAX_TRIES)."""
    hmask, hpk, unable, ppk = ws[1], ws[2], ws[22], ws[21]
    desc_cur, desc, wk, info, tab = ws[23], ws[24], ws[25], ws[26], ws[27]
    build_description(params, ws, seat)
    same = info[I_VALID] != 0
    if same:
        for j in range(DESC):
            if desc[j] != desc_cur[j]:
                same = False
                break
    if not same and desc[D_M] > 0:
        # a new table (the same decision's samples share it: mc's K samples, an evaluation)
        for j in range(DESC):
            desc_cur[j] = desc[j]
        info[I_NST] = dp_fill(desc, tab, wk)
        info[I_VALID] = 1
    nst = info[I_NST]
    m = desc[D_M]
    nd = desc[D_NND]
    cards = ws[16]
    for attempt in range(MAX_TRIES):
        if m > 0 and not dp_draw(desc, tab, nst, wk, rng, info, I_COUNTS):
            return np.int64(-1)
        rest = pool
        for j in range(m):
            p = info[I_DP + j]
            hmask[p] = 0
            hpk[p] = 0
        for r in range(13):
            # the pool's cards of rank r, handed out uniformly to the DP seats' counts
            n = 0
            for sv in range(4):
                c = sv * 13 + r
                if rest & (np.int64(1) << c):
                    cards[n] = c
                    n += 1
            for j in range(m):
                p = info[I_DP + j]
                for t in range(info[I_COUNTS + j * 13 + r]):
                    i = randbelow(rng, n)
                    c = cards[i]
                    cards[i] = cards[n - 1]
                    n -= 1
                    hmask[p] |= np.int64(1) << c
                    hpk[p] += one(r)
                    rest &= ~(np.int64(1) << c)
        end = _deal_nested(params, ws, seat, rng, rest, info, I_ND, nd)
        ok = True
        for j in range(info[I_NREJ]):
            e = info[I_REJ + j]
            q = unable[3 * e]
            best = unable[3 * e + 1]
            held = hpk[q] + ppk[q] - unable[3 * e + 2]
            if beats(highest_set(held, set_size(best)), best):
                ok = False
                break
        if ok:
            return end
    return np.int64(-1)


@njit(cache=True, _nrt=False)
def resample_hidden(params, ws, seat, rng):
    """Redeal what ``seat`` cannot see, uniformly over the deals consistent with what it saw.

    Reads the bundle (hands, discards, stock, floors, and the variant's events in ws[21],
    ws[22]); writes the other hands (hmask, hpk), the other seats' discards (dmask) and
    the stock ``deck[top:ndeck]``; the sampler's scratch and table live in ws[23..27].

    Known to the seat: its own hand and discards, the cards played to this hand's tricks,
    the scored cards, every hand's size, and what the rules make a follower show. A
    follower who plays a set that does not match or beat has played its lowest cards:
    its ``floor`` (it holds nothing below the highest of them). In the variant
    ``lowest_only_if_unable`` it also could not match or beat the best set: its hand then
    (its cards now plus the ones it has played since) had no set that matches or beats.
    Nothing else is read into the others' choices. Hidden: the other hands, the other
    seats' discards and the stock; they form one pool.

    Floors only (the default rules, or no such event yet): the other hands are dealt
    highest floor first, each a uniform draw from the pool cards at or above its floor
    (``_deal_nested``): exactly uniform over the consistent deals, no rejection. With
    events: the hands of the seats that showed them are drawn by rank from a table that
    counts the consistent deals (sampler.py), then the others nested; exactly uniform
    again. Seats beyond the table's size (rare: many players with large hands) are
    handled by rejection, which is exact too. The rest of the pool is shuffled into the
    other seats' discards and the stock.

    Returns True; False only when no consistent deal was found (an impossible position,
    or MAX_TRIES proposals rejected): the hands then respect the floors only.
    """
    deck, hmask, hpk, scores, active, gone, dmask, floor, deal_rng, play_rng, sc = ws[:11]
    order = ws[15]
    players = params[P_PLAYERS]
    pool = np.int64(0)
    for p in range(players):
        if p != seat and active[p]:
            pool |= hmask[p] | dmask[p]
    top, ndeck = sc[S_TOP], sc[S_NDECK]
    for i in range(top, ndeck):
        pool |= np.int64(1) << deck[i]
    exact = True
    end = np.int64(-1)
    if params[P_LOWEST_ONLY] != 0 and sc[S_NUNABLE] > 0:
        end = _deal_constrained(params, ws, seat, rng, pool)
        exact = end >= 0
    if end < 0:
        seats = ws[17]
        n = 0
        for f in range(12, -1, -1):
            for p in range(players):
                if p != seat and active[p] and floor[p] == f:
                    seats[n] = p
                    n += 1
        end = _deal_nested(params, ws, seat, rng, pool, seats, 0, n)
    shuffle(order, 0, end, rng)
    k = 0
    for p in range(players):
        if p != seat and active[p]:
            d = popcount(dmask[p])
            m = np.int64(0)
            for t in range(d):
                m |= np.int64(1) << order[k]
                k += 1
            dmask[p] = m
    for i in range(top, ndeck):
        deck[i] = order[k]
        k += 1
    return exact


@njit(cache=True)
def consistent(params, ws, seat):
    """True when some deal of the hidden cards fits what ``seat`` saw (a sample of a copy)."""
    work = workspace(params)
    copy_bundle(ws, work)
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream(rng, np.uint64(0), np.int64(0), DEAL)
    return resample_hidden(params, work, seat, rng)


@njit(cache=True, inline="always")
def base_move(sid, kind, hand, hs, s, best, stock_left, low_only, rng, scr):
    if sid == st.HEURISTIC:
        return st.heuristic_move(kind, hand, hs, s, best, stock_left)
    return st.random_move(kind, hand, hs, s, best, stock_left, low_only, scr, 0, rng, scr)


@njit(cache=True, _nrt=False)
def rollout_turns(base, params, ws, trace):
    """Play the hand on to its final trick with every seat using built-in strategy ``base``."""
    hpk, play_rng, sc, scr = ws[2], ws[9], ws[10], ws[13]
    low_only = params[P_LOWEST_ONLY] != 0
    while sc[S_PHASE] != PH_FINAL:
        p = sc[S_SEAT]
        phase = sc[S_PHASE]
        s = sc[S_SET] if phase == PH_FOLLOW else 0
        best = sc[S_BEST] if phase == PH_FOLLOW else 0
        move = base_move(base, phase, hpk[p], sc[S_HS], s, best, sc[S_NDECK] - sc[S_TOP], low_only,
                         play_rng, scr)
        apply_move(params, ws, move, trace, False)


@njit(cache=True, _nrt=False)
def mc_candidates(kind, hand, hs, s, best, stock_left, low_only, cand, scr):
    """The moves ``mc`` tries: every lead; every follow when there are at most
    MC_ALL_FOLLOWS, else the legal *windows* (the cards at positions i..i+s-1 of the hand
    sorted by rank); for a discard, the j highest cards for every legal j."""
    if kind == KIND_DISCARD:
        limit = hs if stock_left > hs else stock_left
        for j in range(limit + 1):
            cand[j] = highest_set(hand, j)
        return limit + 1
    if kind == KIND_LEAD:
        return legal_leads(hand, hs, cand)
    n = legal_follows(hand, s, best, low_only, cand, scr)
    if n <= MC_ALL_FOLLOWS:
        return n
    low = lowest_set(hand, s)
    n = 0
    for i in range(hs - s + 1):
        w = lowest_set(hand, i + s) - lowest_set(hand, i)
        if beats(w, best) or (w == low and not low_only):
            dup = False
            for t in range(n):
                if cand[t] == w:
                    dup = True
                    break
            if not dup:
                cand[n] = w
                n += 1
    return n


@njit(cache=True, _nrt=False)
def mc_move(params, ws, samp, roll, seat, k, base, trace):
    """``mc``: for K samples of the hidden cards, roll each candidate move out to the end
    of the hand with the base strategy (the same sample and the same random numbers for
    every move); play the move that took the fewest final-trick points (ties: the earlier
    candidate)."""
    hpk, play_rng, sc = ws[2], ws[9], ws[10]
    phase = sc[S_PHASE]
    s = sc[S_SET] if phase == PH_FOLLOW else 0
    best = sc[S_BEST] if phase == PH_FOLLOW else 0
    cand = samp[11]
    nc = mc_candidates(phase, hpk[seat], sc[S_HS], s, best, sc[S_NDECK] - sc[S_TOP],
                       params[P_LOWEST_ONLY] != 0, cand, samp[13])
    if nc == 1:
        return cand[0]
    total = roll[11]
    for i in range(nc):
        total[i] = 0
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp[8], play_rng[0], j, DEAL)
        seed_stream(samp[9], play_rng[1], j, PLAY)
        resample_hidden(params, samp, seat, samp[8])
        for i in range(nc):
            copy_bundle(samp, roll)
            apply_move(params, roll, cand[i], trace, False)
            rollout_turns(base, params, roll, trace)
            total[i] += seat_points(roll, seat)
    bi = 0
    for i in range(1, nc):
        if total[i] < total[bi]:
            bi = i
    next_u64(play_rng)  # fresh samples at the next decision
    return cand[bi]


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def choose_move(strat, params, ws, samp, roll, seat, kind, hand, hs, s, best, stock_left, low_only, n, trace):
    """The move of ``seat``'s strategy: built-in by id, ``mc``, or a user slot (view filled)."""
    legal, view, scr, play_rng = ws[11], ws[12], ws[13], ws[9]
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return st.random_move(kind, hand, hs, s, best, stock_left, low_only, legal, n, play_rng, scr)
    if sid == st.HEURISTIC:
        return st.heuristic_move(kind, hand, hs, s, best, stock_left)
    if sid == st.MC:
        return mc_move(params, ws, samp, roll, seat, strat[seat, 1], strat[seat, 2], trace)
    return user_strategy(-1 - sid, view, legal, n, play_rng)


@njit(cache=True, _nrt=False, inline="always")
def legal_set(kind, hand, hs, s, best, low_only, stock_left, legal, scr):
    """The legal moves of the decision ``kind`` into ``legal``; returns their number."""
    if kind == PH_DISCARD:
        return legal_discards(hand, stock_left, legal, scr)
    if kind == PH_LEAD:
        return legal_leads(hand, hs, legal)
    return legal_follows(hand, s, best, low_only, legal, scr)


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, ws, samp, roll, err, trace, tracing, forced):
    """Play the hand on to its final trick (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled).
    """
    hpk, scores, active, sc = ws[2], ws[3], ws[4], ws[10]
    legal, view, scr = ws[11], ws[12], ws[13]
    low_only = params[P_LOWEST_ONLY] != 0
    while sc[S_PHASE] != PH_FINAL:
        p = sc[S_SEAT]
        kind = sc[S_PHASE]
        hand = hpk[p]
        hs = sc[S_HS]
        stock_left = sc[S_NDECK] - sc[S_TOP]
        s = sc[S_SET] if kind == PH_FOLLOW else 0
        best = sc[S_BEST] if kind == PH_FOLLOW else 0
        sid = strat[p, 0]
        n = 0
        if tracing or sid < 0:
            n = legal_set(kind, hand, hs, s, best, low_only, stock_left, legal, scr)
        if forced >= 0:
            move = forced
            forced = -1
        else:
            if sid < 0 and sc[S_HAS_USER] != 0:
                if kind == PH_DISCARD:
                    fill_view(view, p, sc[S_DEALER], kind, stock_left, hs, hand, 0, 0, -1, -1,
                              sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], scores, active)
                elif kind == PH_LEAD:
                    fill_view(view, p, sc[S_DEALER], kind, stock_left, hs, hand, 0, 0, -1, p,
                              sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], scores, active)
                else:
                    fill_view(view, p, sc[S_DEALER], kind, stock_left, hs, hand, s, best, sc[S_WINNER],
                              sc[S_LEADER], sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], scores, active)
            move = choose_move(strat, params, ws, samp, roll, p, kind, hand, hs, s, best, stock_left,
                               low_only, n, trace)
            if sid < 0:
                # the strategy could write to ``legal``: make the set again from the state
                # (same enumeration as above), so the move is checked against the engine's own
                n = legal_set(kind, hand, hs, s, best, low_only, stock_left, legal, scr)
        sc[S_DECISIONS] += 1
        # built-ins pick legal moves by construction; only user moves are checked, each a
        # whole packed set compared with a whole legal set; nothing reads ``move`` before
        if sid < 0 and not is_in(move, legal, n):
            err[0] = sc[S_DECISIONS]
            err[1] = p
            err[2] = move
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, p, kind, move, 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(params, ws, move, trace, tracing)
    return 0


@njit(cache=True, _nrt=False)
def play_rest(params, strat, ws, samp, roll, out, err, trace, tracing, forced):
    """From the middle of a hand: finish it, then play hands until the game is over.

    Returns the seats that took this hand's final trick (bit mask), -1 after an error.
    """
    sc = ws[10]
    if play_turns(params, strat, ws, samp, roll, err, trace, tracing, forced) < 0:
        return -1
    took = final_trick(params, ws, out, trace, tracing)
    while sc[S_OVER] == 0:
        if not deal_hand(params, ws, out, trace, tracing):
            break
        if play_turns(params, strat, ws, samp, roll, err, trace, tracing, -1) < 0:
            return -1
        final_trick(params, ws, out, trace, tracing)
    finish(params, ws, out, trace, tracing)
    return took


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws, samp, roll):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    start_game(seed, index, params, strat, ws, out, err)
    if deal_hand(params, ws, out, trace, tracing):
        play_rest(params, strat, ws, samp, roll, out, err, trace, tracing, -1)
    else:
        finish(params, ws, out, trace, tracing)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi):
    ws = workspace(params)
    samp = workspace(params)
    roll = workspace(params)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, out[g], err[g], trace, False, ws, samp, roll)
        if err[g, 0] >= 0:
            return


@njit(parallel=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks):
    n = out.shape[0]
    for b in prange(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks)


@njit(cache=True)
def run_traced(seed, index, params, strat, out_row, err_row, trace):
    play_game(seed, index, params, strat, out_row, err_row, trace, True, workspace(params), workspace(params),
              workspace(params))


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi):
    ws = workspace(params)
    sample = workspace(params)
    samp = workspace(params)
    roll = workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        copy_bundle(base_ws, sample)
        seed_stream(sample[8], seed, start + j, DEAL)
        resample_hidden(params, sample, seat, sample[8])
        seed_stream(sample[8], seed, start + j, hand_purpose(0))
        seed_stream(sample[9], seed, start + j, PLAY)
        sample[19][0] = np.uint64(seed)
        sample[19][1] = np.uint64(start + j)
        for i in range(options.shape[0]):
            copy_bundle(sample, ws)
            out[:] = 0
            took = play_rest(params, strat, ws, samp, roll, out, err, trace, False, options[i])
            result[j, i, 0] = (took >> seat) & 1
            result[j, i, 1] = (out[0] >> seat) & 1


@njit(parallel=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [took this hand's final trick, won the game] per sample
    and option.
    """
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks)
