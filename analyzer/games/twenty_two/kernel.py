"""Twenty-Two play loops (compiled): set-up kept apart from play, so that the same pieces
play fresh games, traced games, Monte Carlo rollouts and evaluations from a position.

A game's state is a *bundle*: ``state.Bundle``, a NamedTuple of arrays with named fields
(hands, scores, floors, the scalar registers ``sc`` indexed by ``state.S_*``, scratch);
``state.workspace`` allocates one, ``state.copy_bundle`` copies one.

Out row columns (spec.extra_columns): winners, hands, decisions (discards, leads and
follows), score_s (final points), then per seat ``took_s`` (hands in which the seat took
the final trick), ``played_s`` (hands the seat was dealt into), ``place_s`` (finishing
place: 1 for a winner, else 1 + the players who stayed in longer; players out in the
same hand share a place).

The rules live once, in ``deal_hand``, ``apply_move`` and ``final_trick``. Two drivers
choose the moves: ``play_turns`` (any strategy: games, records, evaluations) and
``rollout_turns`` (built-in base strategies only: what ``mc`` and ``ismcts`` roll out with;
keeping it apart keeps the call graph free of recursion, which numba does not compile
reliably), with its twin ``user_rollout_turns`` for a user strategy as the base
(``mc:base=file.py:f``). ``ismcts``'s tree walk plays its moves with ``apply_move`` too, and
its playouts deal further hands with ``deal_hand`` and score them with ``final_trick``.
``load_position`` replays a position's public history through ``apply_move`` (and checks
it with the legal-move functions), so evaluations start from the engine's own state.

User strategy ``f(view, legal, n, rng) -> move`` (a packed set, one of ``legal[:n]``);
the layout of ``view`` is in view.py (``fill_view`` writes it with those constants).
"""

from __future__ import annotations

import numpy as np

from analyzer import ismcts
from analyzer import trace as tr
from analyzer.bits import popcount
from analyzer.blocks import in_blocks
from analyzer.slots import refuse_move
from analyzer.games.twenty_two import strategies as st
from analyzer.games.twenty_two import view as V
from analyzer.games.twenty_two.codes import (
    E_BELOW_FLOOR, E_DEAL_SIZE, E_FIRST_DISCARDER, E_FLOORS, E_FOLLOW_SIZE, E_GAME_OVER, E_LEAD_KEEP,
    E_LEAD_RANKS, E_NOT_LEADER, E_NOT_TO_MOVE, E_NOTHING_TO_DECIDE, E_OWN_COULD_BEAT, E_OWN_ILLEGAL,
    E_OWN_LOWER, E_SEAT_OUT, E_STOCK_RANGE, E_TOO_MANY, E_TRICK_COMPLETE, E_TRICK_LENGTH, E_UNSEEN_SHORT,
    EV_DEAL, EV_DECIDE, EV_DRAW, EV_FINAL, EV_GAME_END, EV_HAND_END, EV_TRICK, KIND_DISCARD, KIND_FOLLOW,
    KIND_LEAD, PH_DISCARD, PH_FINAL, PH_FOLLOW, PH_LEAD, TAG_STOCK,
)
from analyzer.games.twenty_two.rules import (
    FIRST_HAND_SIZE,
    MAX_LEGAL,
    P_LOWEST_ONLY,
    P_PLAYERS,
    P_TARGET,
    RANK_OF,
    RANK_POINTS,
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
    dp_draw, dp_fill,
)
from analyzer.games.twenty_two.state import (  # noqa: F401  (workspace, copy_bundle: kernel API)
    I_COUNTS, I_DP, I_ND, I_NREJ, I_NST, I_REJ, I_VALID, MAX_UNABLE, N_SC, S_BEST, S_DEALER, S_DECISIONS,
    S_HANDS, S_HAS_USER, S_HS, S_LEADER, S_NACTIVE, S_NDECK, S_NDONE, S_NUNABLE, S_OVER, S_PHASE, S_PLAYED,
    S_SCORED, S_SEAT, S_SET, S_SIZE, S_TOP, S_WINNER, S_WINNERS, Bundle, copy_bundle, search_space,
    workspace,
)
from analyzer.jit import njit
from analyzer.rng import DEAL, PLAY, draw_lazy, hand_purpose, next_u64, preview_into, randbelow, seed_stream, shuffle

#: a sample that the constrained sampler's rejection step (seats beyond its table) has not
#: accepted after this many proposals falls back to the floors only (resample_hidden: False)
MAX_TRIES = 1 << 20
#: ``mc`` considers every legal follow when there are at most this many (else: windows)
MC_ALL_FOLLOWS = 16

#: the entry points that take the user strategy slots as their last but one argument ``users``: a
#: tuple of engine.SLOTS compiled functions ``(view, legal, n, rng) -> move`` (engine.SlotKernel);
#: a seat with strategy id ``sid < 0`` plays ``users[-1 - sid]``
USER_ENTRIES = ("run_chunk", "run_traced", "evaluate_chunk", "search_decide", "mc_work")
#: a user slot can be the base of ``mc`` (``mc:base=file.py:f``): ``user_rollout_turns`` plays
#: mc's rollouts with it
USER_BASES = True
#: the entry points take the compile tier after ``users`` (engine.search_tier): strategy ids
#: from here on are search strategies, compiled only into the kernels' search tier
SEARCH_FROM = st.SEARCH


@njit(cache=True, _nrt=False)
def fill_view(view, seat, dealer, kind, stock_left, hand_size, hand, s, best, best_seat, leader,
              hand_no, target, played, scores, active):
    """Write the ``view`` a user strategy reads (layout: view.py)."""
    view[:] = 0
    view[V.SEAT] = seat
    view[V.PLAYERS] = scores.shape[0]
    view[V.DEALER] = dealer
    view[V.KIND] = kind
    view[V.STOCK] = stock_left
    view[V.HAND_SIZE] = hand_size
    view[V.HAND] = hand
    view[V.SET_SIZE] = s
    view[V.BEST] = best
    view[V.BEST_SEAT] = best_seat
    view[V.LEADER] = leader
    view[V.HAND_NO] = hand_no
    view[V.TARGET] = target
    for r in range(13):
        view[V.COUNTS + r] = nib(hand, r)
        view[V.PLAYED + r] = nib(played, r)
    for p in range(scores.shape[0]):
        view[V.SCORES + p] = scores[p]
        view[V.ACTIVE + p] = 1 if active[p] else 0


@njit(cache=True, _nrt=False)
def fill_seat_view(params, ws, p, kind, hand, hs, s, best, stock_left):
    """``fill_view`` of what seat ``p`` sees at its decision ``kind`` (PH_*) of the bundle
    ``ws``: the same view for a user seat (``play_turns``) and a user base in ``mc``'s
    rollouts (``user_rollout_turns``). Writes ``ws.seat_view``."""
    sc = ws.sc
    if kind == PH_DISCARD:
        fill_view(ws.seat_view, p, sc[S_DEALER], kind, stock_left, hs, hand, 0, 0, -1, -1,
                  sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], ws.scores, ws.active)
    elif kind == PH_LEAD:
        fill_view(ws.seat_view, p, sc[S_DEALER], kind, stock_left, hs, hand, 0, 0, -1, p,
                  sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], ws.scores, ws.active)
    else:
        fill_view(ws.seat_view, p, sc[S_DEALER], kind, stock_left, hs, hand, s, best, sc[S_WINNER],
                  sc[S_LEADER], sc[S_HANDS], params[P_TARGET], sc[S_PLAYED], ws.scores, ws.active)


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


# ---- the rules, once ----------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def start_game(seed, index, params, strat, ws, out, err):
    """A fresh game: scores 0, everyone in, a random first dealer."""
    scores, active, gone, deal_rng, play_rng, sc = ws.scores, ws.active, ws.gone, ws.deal_rng, ws.play_rng, ws.sc
    players = params[P_PLAYERS]
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    ws.gid[0] = np.uint64(seed)
    ws.gid[1] = np.uint64(index)
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
    deck, hmask, hpk, scores, active, dmask, floor = ws.deck, ws.hmask, ws.hpk, ws.scores, ws.active, ws.dmask, ws.floor
    deal_rng, sc = ws.deal_rng, ws.sc
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
    seed_stream(deal_rng, ws.gid[0], np.int64(ws.gid[1]), hand_purpose(sc[S_HANDS]))
    ppk = ws.ppk
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
        order = ws.order
        tr.emit_list(trace, TAG_STOCK, order, preview_into(deck, top, ndeck, deal_rng, order, ws.rscr))
    sc[S_TOP], sc[S_NDECK], sc[S_SIZE], sc[S_HS], sc[S_PLAYED] = top, ndeck, size, size, 0
    sc[S_PHASE], sc[S_NDONE], sc[S_SEAT] = PH_DISCARD, 0, next_active(dealer, active)
    return True


@njit(cache=True, _nrt=False, inline="always")
def apply_move(params, ws, move, trace, tracing):
    """The seat to move makes ``move`` (a discard, a lead or a follow); play passes on."""
    deck, hmask, hpk, active, dmask, floor = ws.deck, ws.hmask, ws.hpk, ws.active, ws.dmask, ws.floor
    deal_rng, sc = ws.deal_rng, ws.sc
    cards = ws.cards
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
        ws.ppk[p] += move
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
                    ws.unable[3 * ne] = p
                    ws.unable[3 * ne + 1] = best
                    ws.unable[3 * ne + 2] = ws.ppk[p]
                    sc[S_NUNABLE] = ne + 1
        ws.ppk[p] += move
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
    hpk, active = ws.hpk, ws.active
    r = lowest_rank(hpk[seat])
    if r == final_top_rank(hpk, active):
        return RANK_POINTS[r]
    return 0


@njit(cache=True, _nrt=False)
def final_trick(params, ws, out, trace, tracing):
    """Everyone plays their last card from the leader; the highest rank takes it and
    scores; players at the target are out. Returns the takers (seat bit mask)."""
    hmask, hpk, scores, active, gone, sc = ws.hmask, ws.hpk, ws.scores, ws.active, ws.gone, ws.sc
    cards, order, fcards, takers, points = ws.cards, ws.order, ws.fcards, ws.takers, ws.points
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
    scores, active, gone, sc = ws.scores, ws.active, ws.gone, ws.sc
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
    ``ws.desc`` and the seat lists into ``ws.sinfo`` (I_DP: DP seats, I_ND: the other hidden
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
    hmask, hpk, active, floor, sc = ws.hmask, ws.hpk, ws.active, ws.floor, ws.sc
    ppk, unable, desc, info = ws.ppk, ws.unable, ws.desc, ws.sinfo
    players = params[P_PLAYERS]
    desc[:] = 0
    top, ndeck = sc[S_TOP], sc[S_NDECK]
    for p in range(players):
        if p != seat and active[p]:
            for c in range(52):
                if (hmask[p] | ws.dmask[p]) & (np.int64(1) << c):
                    desc[D_A + RANK_OF[c]] += 1
    for i in range(top, ndeck):
        desc[D_A + RANK_OF[ws.deck[i]]] += 1
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
        elif fits and 14 * states * (h + 1) << nfl > ws.tab.shape[0]:
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
    hmask, hpk, floor = ws.hmask, ws.hpk, ws.floor
    start, order = ws.cards, ws.order
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
    hmask, hpk, unable, ppk = ws.hmask, ws.hpk, ws.unable, ws.ppk
    desc_cur, desc, wk, info, tab = ws.desc_cur, ws.desc, ws.wk, ws.sinfo, ws.tab
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
    cards = ws.fcards
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

    Reads the bundle (hands, discards, stock, floors, and the variant's events in ws.ppk,
    ws.unable); writes the other hands (hmask, hpk), the other seats' discards (dmask) and
    the stock ``deck[top:ndeck]``; the sampler's scratch and table live in ws.desc_cur .. ws.tab.

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
    deck, hmask, active, dmask, floor, sc = ws.deck, ws.hmask, ws.active, ws.dmask, ws.floor, ws.sc
    order = ws.order
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
        seats = ws.takers
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


@njit(entry=True, cache=True)
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
    hpk, play_rng, sc, scr = ws.hpk, ws.play_rng, ws.sc, ws.scr
    low_only = params[P_LOWEST_ONLY] != 0
    while sc[S_PHASE] != PH_FINAL:
        p = sc[S_SEAT]
        phase = sc[S_PHASE]
        s = sc[S_SET] if phase == PH_FOLLOW else 0
        best = sc[S_BEST] if phase == PH_FOLLOW else 0
        move = base_move(base, phase, hpk[p], sc[S_HS], s, best, sc[S_NDECK] - sc[S_TOP], low_only,
                         play_rng, scr)
        apply_move(params, ws, move, trace, False)
        sc[S_DECISIONS] += 1


@njit(cache=True, _nrt=False, inline="always")
def call_user(users, sid, ws, n):
    """The move of the user strategy in slot ``-1 - sid`` on the bundle's view, a copy of its
    ``n`` legal moves (``ws.user_legal``: the strategy may write to it, the engine's ``legal``
    stays as made, to check the move against) and its PLAY stream."""
    mine, legal = ws.user_legal, ws.legal
    for i in range(n):
        mine[i] = legal[i]
    return users[-1 - sid](ws.seat_view, mine, n, ws.play_rng)


@njit(cache=True, _nrt=False)
def user_rollout_turns(params, users, base, ws, trace):
    """``rollout_turns`` with the user strategy in slot ``-1 - base`` for every seat: ``mc``'s
    rollouts with a user base. Each move as ``play_turns`` asks a user seat for it: the seat's
    view (``fill_seat_view``), a copy of the legal moves (``call_user``), the bundle's PLAY
    stream. A move outside the legal set raises
    ValueError(ILLEGAL_MARK, ...) (``refuse_move``), which the caller's guard reports in one line (a rollout has no
    ``err`` row to fill). Apart from rollout_turns so that a built-in base's loop stays as
    lean as it was."""
    hpk, legal, scr, sc = ws.hpk, ws.legal, ws.scr, ws.sc
    low_only = params[P_LOWEST_ONLY] != 0
    while sc[S_PHASE] != PH_FINAL:
        p = sc[S_SEAT]
        kind = sc[S_PHASE]
        hs = sc[S_HS]
        stock_left = sc[S_NDECK] - sc[S_TOP]
        s = sc[S_SET] if kind == PH_FOLLOW else 0
        best = sc[S_BEST] if kind == PH_FOLLOW else 0
        n = legal_set(kind, hpk[p], hs, s, best, low_only, stock_left, legal, scr)
        fill_seat_view(params, ws, p, kind, hpk[p], hs, s, best, stock_left)
        move = call_user(users, base, ws, n)
        if not is_in(move, legal, n):
            refuse_move(move, p, legal, n)
        apply_move(params, ws, move, trace, False)
        sc[S_DECISIONS] += 1


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
def mc_move(params, users, ws, samp, roll, search, seat, k, base, trace):
    """``mc``: for K samples of the hidden cards, roll each candidate move out to the end
    of the hand with the base strategy (the same sample and the same random numbers for
    every move); play the move that took the fewest final-trick points (ties: the earlier
    candidate). The base is a built-in by id (``rollout_turns``) or the user slot
    ``-1 - base`` (``user_rollout_turns``, on ``roll``'s view, legal list and PLAY stream).

    The candidates are in ``samp.legal``, their summed points in ``samp.totals``: neither
    is written by a rollout, which plays on ``roll``."""
    hpk, play_rng, sc = ws.hpk, ws.play_rng, ws.sc
    phase = sc[S_PHASE]
    s = sc[S_SET] if phase == PH_FOLLOW else 0
    best = sc[S_BEST] if phase == PH_FOLLOW else 0
    cand = samp.legal
    nc = mc_candidates(phase, hpk[seat], sc[S_HS], s, best, sc[S_NDECK] - sc[S_TOP],
                       params[P_LOWEST_ONLY] != 0, cand, samp.scr)
    if nc == 1:
        return cand[0]
    total = samp.totals
    for i in range(nc):
        total[i] = 0
    work = search.work
    work[0] += 1
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
        seed_stream(samp.play_rng, play_rng[1], j, PLAY)
        resample_hidden(params, samp, seat, samp.deal_rng)
        for i in range(nc):
            copy_bundle(samp, roll)
            before = roll.sc[S_DECISIONS]
            apply_move(params, roll, cand[i], trace, False)
            if base >= 0:
                rollout_turns(base, params, roll, trace)
            else:
                user_rollout_turns(params, users, base, roll, trace)
            work[1] += 1 + roll.sc[S_DECISIONS] - before  # the move tried and the rollout's
            total[i] += seat_points(roll, seat)
    bi = 0
    for i in range(1, nc):
        if total[i] < total[bi]:
            bi = i
    next_u64(play_rng)  # fresh samples at the next decision
    return cand[bi]


# ---- ismcts: information-set Monte Carlo tree search (the tree: analyzer/ismcts.py) -------------

#: ``ismcts``'s ``hands`` at or above this: every playout plays to the end of the game
WHOLE_GAME = 1000


@njit(cache=True, _nrt=False)
def tree_moves(params, ws, keys, scr):
    """The moves ``ismcts`` considers for the seat to move in bundle ``ws``, as tree keys
    into ``keys`` (int64[MAX_LEGAL]; ``scr``: the enumerator's scratch); returns how many.

    They are ``mc``'s candidates (``mc_candidates``: every lead, the follows or their
    windows, the j highest cards as a discard). A discard is keyed by its size j: the other
    seats see how many cards a seat discards, not which, so a node after another seat's
    discard must be the same in every world (``key_move`` turns a key back into the move)."""
    sc = ws.sc
    p = sc[S_SEAT]
    phase = sc[S_PHASE]
    s = sc[S_SET] if phase == PH_FOLLOW else 0
    best = sc[S_BEST] if phase == PH_FOLLOW else 0
    n = mc_candidates(phase, ws.hpk[p], sc[S_HS], s, best, sc[S_NDECK] - sc[S_TOP], params[P_LOWEST_ONLY] != 0,
                      keys, scr)
    if phase == PH_DISCARD:
        for i in range(n):
            keys[i] = set_size(keys[i])
    return n


@njit(cache=True, _nrt=False, inline="always")
def key_move(ws, key):
    """The move of the seat to move in ``ws`` that the tree key ``key`` stands for (tree_moves)."""
    if ws.sc[S_PHASE] == PH_DISCARD:
        return highest_set(ws.hpk[ws.sc[S_SEAT]], key)
    return key


@njit(cache=True, _nrt=False)
def seat_rewards(params, ws, result):
    """Each seat's reward (float64[P] ``result``) where a playout in ``ws`` stopped: a game
    over gives each winner 1 / (number of winners) (the rules let ties share the win) and 0
    to the others; else a seat out gets 0 and a seat still in its share of the room left
    under the target, (target - score) / the sum of it over the seats in."""
    players = params[P_PLAYERS]
    if ws.sc[S_OVER] != 0:
        winners = ws.sc[S_WINNERS]
        share = 1.0 / popcount(winners)
        for p in range(players):
            result[p] = share if winners & (1 << p) else 0.0
        return
    room = 0.0
    for p in range(players):
        if ws.active[p]:
            room += params[P_TARGET] - ws.scores[p]
    for p in range(players):
        result[p] = (params[P_TARGET] - ws.scores[p]) / room if ws.active[p] else 0.0


@njit(cache=True, _nrt=False)
def playout_value(params, users, base, roll, search, seat, hands, trace):
    """Play the world in ``roll`` on with ``base`` for every seat (a built-in id, or the user
    slot ``-1 - base``): this hand to its final trick, then further hands, until the game
    ends, ``seat`` is out (its reward is then 0 whatever follows), or ``hands`` hands, this
    one counted, are played (all of them from WHOLE_GAME). The later hands are dealt by
    deal_hand from ``roll.gid``'s streams (the search's own: never the game's future deals).
    Writes each seat's reward (``seat_rewards``) to ``search.tree.result``; final_trick and
    deal_hand count in ``search.out``."""
    out = search.out
    played = 1
    while True:
        if base >= 0:
            rollout_turns(base, params, roll, trace)
        else:
            user_rollout_turns(params, users, base, roll, trace)
        final_trick(params, roll, out, trace, False)
        if roll.sc[S_OVER] != 0 or not roll.active[seat] or (played >= hands and hands < WHOLE_GAME):
            break
        if not deal_hand(params, roll, out, trace, False):
            break  # the 0-card safeguard ended the game
        played += 1
    seat_rewards(params, roll, search.tree.result)


@njit(cache=True, _nrt=False)
def ismcts_move(params, users, ws, roll, search, seat, iterations, base, explore, hands, trace):
    """``ismcts``: single-observer information-set MCTS (analyzer.ismcts) for ``seat``, its
    worlds played in bundle ``roll``, its tree ``search.tree``. Iteration j copies the state
    and redeals what the seat cannot see as ``mc``'s sample j does (``resample_hidden``, the
    streams seeded from the game's PLAY stream the same way), walks the tree playing every
    seat's moves by the rules in that world (``tree_moves``; UCB1, ``explore`` in
    hundredths) to the hand's final trick or a new node, plays on with ``playout_value``
    (``hands`` hands; later deals from the stream ``(play_rng[2], j)``) and backs each seat's
    own reward up. Plays the root's most visited move; a single candidate is played without
    a search (and without a draw).

    Reads ``ws`` (its ``legal`` untouched: the record lists it); writes ``roll`` and
    ``search``; draws once from the PLAY stream after a search (fresh worlds at the next
    decision)."""
    tree = search.tree
    n = tree_moves(params, ws, tree.legal, roll.scr)
    if n == 1:
        return key_move(ws, tree.legal[0])
    play_rng = ws.play_rng
    ismcts.reset(tree)
    c = explore / 100.0
    for it in range(iterations):
        j = np.int64(it)
        copy_bundle(ws, roll)
        seed_stream(roll.deal_rng, play_rng[0], j, DEAL)
        seed_stream(roll.play_rng, play_rng[1], j, PLAY)
        resample_hidden(params, roll, seat, roll.deal_rng)
        roll.gid[0] = play_rng[2]
        roll.gid[1] = np.uint64(j)
        node, depth = np.int64(0), 1  # not a literal 0: descend is then compiled once, not twice
        tree.path[0] = 0
        while roll.sc[S_PHASE] != PH_FINAL and depth < tree.path.shape[0]:
            mover = roll.sc[S_SEAT]
            m = tree_moves(params, roll, tree.legal, roll.scr)
            child, expanded = ismcts.descend(tree, node, m, mover, c, roll.play_rng)
            if child < 0:
                break
            tree.path[depth] = child
            depth += 1
            node = child
            apply_move(params, roll, key_move(roll, tree.move[child]), trace, False)
            if expanded:
                break
        playout_value(params, users, base, roll, search, seat, hands, trace)
        ismcts.back_up(tree, depth)
    next_u64(play_rng)
    return key_move(ws, ismcts.most_visited(tree))


@njit(entry=True, cache=True)
def search_decide(params, strat, ws, users, tier):
    """The move the search strategy of the seat to move (``strat[seat]``) plays in bundle
    ``ws`` (a position: load_position), its PLAY stream as it is. For tests and diagnostics;
    advances ``ws.play_rng`` as the strategy does in a game."""
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    return search_move(strat, users, tier, params, ws, workspace(params), workspace(params),
                       search_space(params, strat), ws.sc[S_SEAT], trace)


@njit(cache=True)
def search_move(strat, users, tier, params, ws, samp, roll, search, seat, trace):
    """The move of ``seat``'s search strategy (``mc``: ``strat[seat]`` is id, k, base;
    ``ismcts``: id, iterations, base, explore, hands; a negative base is a user slot)."""
    if len(tier) == 0:  # the base tier (engine.search_tier): no seat searches, and none is compiled
        return -1
    if strat[seat, 0] == st.ISMCTS:
        return ismcts_move(params, users, ws, roll, search, seat, strat[seat, 1], strat[seat, 2], strat[seat, 3],
                           strat[seat, 4], trace)
    return mc_move(params, users, ws, samp, roll, search, seat, strat[seat, 1], strat[seat, 2], trace)


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def choose_move(strat, users, tier, params, ws, samp, roll, search, seat, kind, hand, hs, s, best, stock_left, low_only, n, trace):
    """The move of ``seat``'s strategy: built-in by id, a search (``mc``, ``ismcts``), or a user
    slot (view filled)."""
    legal, scr, play_rng = ws.legal, ws.scr, ws.play_rng
    sid = strat[seat, 0]
    if sid == st.RANDOM:
        return st.random_move(kind, hand, hs, s, best, stock_left, low_only, legal, n, play_rng, scr)
    if sid == st.HEURISTIC:
        return st.heuristic_move(kind, hand, hs, s, best, stock_left)
    if sid >= st.SEARCH:
        return search_move(strat, users, tier, params, ws, samp, roll, search, seat, trace)
    return call_user(users, sid, ws, n)


@njit(cache=True, _nrt=False, inline="always")
def legal_set(kind, hand, hs, s, best, low_only, stock_left, legal, scr):
    """The legal moves of the decision ``kind`` into ``legal``; returns their number."""
    if kind == PH_DISCARD:
        return legal_discards(hand, stock_left, legal, scr)
    if kind == PH_LEAD:
        return legal_leads(hand, hs, legal)
    return legal_follows(hand, s, best, low_only, legal, scr)


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, users, tier, ws, samp, roll, search, err, trace, tracing, forced):
    """Play the hand on to its final trick (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled).
    """
    hpk, sc = ws.hpk, ws.sc
    legal, scr = ws.legal, ws.scr
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
                fill_seat_view(params, ws, p, kind, hand, hs, s, best, stock_left)
            move = choose_move(strat, users, tier, params, ws, samp, roll, search, p, kind, hand, hs, s, best, stock_left,
                               low_only, n, trace)
        sc[S_DECISIONS] += 1
        # built-ins pick legal moves by construction; only user moves are checked, each a
        # whole packed set compared with a whole legal set; nothing reads ``move`` before
        if sid < 0 and not is_in(move, legal, n):
            err[0] = sc[S_DECISIONS]
            err[1] = p
            err[2] = move
            if tracing:  # the error names the legal moves (records.illegal_move_message)
                tr.emit_refused(trace, p, move, legal, n)
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, p, kind, move, 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(params, ws, move, trace, tracing)
    return 0


#: ``play_rest``'s ``forced`` for a game with no hand dealt yet (``play_game``): deal first
DEAL_FIRST = -2


@njit(cache=True, _nrt=False)
def play_rest(params, strat, users, tier, ws, samp, roll, search, out, err, trace, tracing, forced):
    """From the middle of a hand (its first move ``forced`` if >= 0): finish it, then play
    hands until the game is over; with ``forced == DEAL_FIRST``, deal the first hand first.

    Returns the seats that took the first hand's final trick (bit mask), -1 after an error.
    """
    sc = ws.sc
    took = 0
    first = True
    deal = forced == DEAL_FIRST
    if deal:
        forced = -1
    # one call site of the inlined deal and play loop, for play_game too: each call site of
    # an inlined function is compiled again (deal_hand at a second site cost 3.4 s of cold
    # compile)
    while True:
        if deal and (sc[S_OVER] != 0 or not deal_hand(params, ws, out, trace, tracing)):
            break
        deal = True
        if play_turns(params, strat, users, tier, ws, samp, roll, search, err, trace, tracing, forced if first else -1) < 0:
            return -1
        seats = final_trick(params, ws, out, trace, tracing)
        if first:
            took = seats
            first = False
    finish(params, ws, out, trace, tracing)
    return took


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, users, tier, out, err, trace, tracing, ws, samp, roll, search):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    start_game(seed, index, params, strat, ws, out, err)
    play_rest(params, strat, users, tier, ws, samp, roll, search, out, err, trace, tracing, DEAL_FIRST)


@njit(cache=True)
def search_bundles(params, strat, tier):
    """The search strategies' bundles and space (``samp``, ``roll``, ``search``) in the search
    tier; None for each in the base tier (``tier`` empty: engine.search_tier), where nobody
    searches. The play loop takes every array of them as an argument at each call: without
    them random play is faster (paired runs, 2026-12-04; README, Where the time goes)."""
    if len(tier) == 0:  # the base tier (engine.search_tier)
        return None, None, None
    return workspace(params), workspace(params), search_space(params, strat)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi, users, tier):
    ws = workspace(params)
    samp, roll, search = search_bundles(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, samp, roll, search)
        if err[g, 0] >= 0:
            return


@njit(entry=True, cache=True)
def mc_work(seed, start, params, strat, out, err, work, users, tier):
    """For scripts/bench_mc.py only: games ``start ..`` as ``run_block`` plays them (one block,
    ``out``/``err`` rows), with a seat of ``strat`` playing ``mc``; then ``work`` gets ``mc``'s
    decisions searched and the moves played in their rollouts (``SearchSpace.work``)."""
    ws = workspace(params)
    samp, roll, search = search_bundles(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(out.shape[0]):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, samp, roll, search)
    work[0] = search.work[0]
    work[1] = search.work[1]


@in_blocks("out", "err")
@njit(entry=True, nogil=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks, users, tier):
    n = out.shape[0]
    for b in range(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks, users, tier)


@njit(entry=True, nogil=True, cache=True)  # nogil: Ctrl-C and --timeout reach a stuck strategy
def run_traced(seed, index, params, strat, out_row, err_row, trace, users, tier):
    samp, roll, search = search_bundles(params, strat, tier)
    play_game(seed, index, params, strat, users, tier, out_row, err_row, trace, True, workspace(params), samp, roll,
              search)


# ---- positions: the public history replayed by the rules ----------------------------------------

@njit(cache=True, inline="always")
def refuse(why, code, a, b, c, d):
    """Write why a position is refused (codes.E_*; spec.position_error words it); False."""
    why[0], why[1], why[2], why[3], why[4] = code, a, b, c, d
    return False


@njit(cache=True)
def previous_active(seat, active):
    """The seat still in the game before ``seat`` (counter-clockwise): it discards just before."""
    s = seat
    for _ in range(active.shape[0]):
        s = s - 1 if s > 0 else active.shape[0] - 1
        if active[s]:
            return s
    return seat


@njit(cache=True)
def free_card(free, rank):
    """The lowest-suit card of ``rank`` in the bitmask ``free`` (-1: none)."""
    for sv in range(4):
        c = sv * 13 + rank
        if free & (np.int64(1) << c):
            return c
    return -1


@njit(cache=True)
def set_up_hand(params, ws, seat, dealer, size, scored, scores, why):
    """The public start of a hand: scores, who is in, the dealer, ``size`` cards each, nothing
    played. False (``why`` set) when the game is over or ``seat`` is out."""
    players = params[P_PLAYERS]
    sc = ws.sc
    sc[:] = 0
    nactive = 0
    for p in range(players):
        ws.scores[p] = scores[p]
        ws.active[p] = scores[p] < params[P_TARGET]
        if ws.active[p]:
            nactive += 1
        ws.gone[p] = 0
        ws.floor[p] = 0
        ws.dmask[p] = 0
        ws.hmask[p] = 0
        ws.hpk[p] = 0
        ws.ppk[p] = 0
    if nactive < 2:
        return refuse(why, E_GAME_OVER, params[P_TARGET], 0, 0, 0)
    if not ws.active[seat]:
        return refuse(why, E_SEAT_OUT, seat, scores[seat], params[P_TARGET], 0)
    sc[S_NACTIVE] = nactive
    sc[S_SCORED] = scored
    sc[S_HANDS] = 1
    sc[S_DEALER] = dealer
    sc[S_SIZE] = size
    sc[S_HS] = size
    sc[S_LEADER] = next_active(dealer, ws.active)
    return True


@njit(cache=True)
def replay_tricks(params, ws, seat, moves, ends, free, log, held, why):
    """Play the tricks ``moves`` (trick t is ``moves[ends[t - 1]:ends[t]]``, the last one the
    trick in progress) from the hand's first lead with ``apply_move``, each move checked
    against what the rules show of the seat playing it (size, one rank, keeping a card, not
    below its floor). The cards played are taken from ``free`` (lowest suits first) and
    given to the player just before it plays them, so the hidden hands stay empty.

    Writes per move ``log[5k:5k+5]`` = seat, phase, hand size, set size, best set before it,
    ``held`` (cards each seat holds after the tricks). Returns the cards left in ``free``,
    or -1 (``why`` set)."""
    sc, active = ws.sc, ws.active
    trace = np.zeros((1, 1), dtype=np.int64)
    nactive = sc[S_NACTIVE]
    sc[S_PHASE], sc[S_SEAT], sc[S_NDONE] = PH_LEAD, sc[S_LEADER], 0
    k = 0
    for t in range(ends.shape[0]):
        current = t == ends.shape[0] - 1
        length = ends[t] - k
        if not current and length != nactive:
            refuse(why, E_TRICK_LENGTH, t, length, nactive, 0)
            return np.int64(-1)
        if current and length >= nactive:
            refuse(why, E_TRICK_COMPLETE, length, nactive, 0, 0)
            return np.int64(-1)
        for _ in range(length):
            p, phase, move = sc[S_SEAT], sc[S_PHASE], moves[k]
            log[5 * k], log[5 * k + 1], log[5 * k + 2] = p, phase, sc[S_HS]
            log[5 * k + 3], log[5 * k + 4] = sc[S_SET], sc[S_BEST]
            if lowest_rank(move) < ws.floor[p]:
                refuse(why, E_BELOW_FLOOR, k, p, move, ws.floor[p])
                return np.int64(-1)
            if phase == PH_LEAD:
                if lowest_rank(move) != highest_rank(move):
                    refuse(why, E_LEAD_RANKS, k, move, 0, 0)
                    return np.int64(-1)
                if set_size(move) > sc[S_HS] - 1:
                    refuse(why, E_LEAD_KEEP, k, set_size(move), sc[S_HS], 0)
                    return np.int64(-1)
            elif set_size(move) != sc[S_SET]:
                refuse(why, E_FOLLOW_SIZE, k, move, sc[S_SET], 0)
                return np.int64(-1)
            for r in range(13):
                for _card in range(nib(move, r)):
                    c = free_card(free, r)
                    free ^= np.int64(1) << c
                    ws.hmask[p] |= np.int64(1) << c
            ws.hpk[p] += move
            held[p] -= set_size(move)
            apply_move(params, ws, move, trace, False)
            k += 1
    if sc[S_SEAT] != seat:
        refuse(why, E_NOT_TO_MOVE if sc[S_PHASE] == PH_FOLLOW else E_NOT_LEADER, sc[S_SEAT], seat, 0, 0)
        return np.int64(-1)
    return free


@njit(cache=True)
def check_own_moves(params, ws, seat, hand, moves, log, why):
    """The deciding seat knows the hand it held at each of its plays (its hand now plus what
    it played since): each play must be one of that hand's legal moves."""
    low_only = params[P_LOWEST_ONLY] != 0
    for k in range(moves.shape[0]):
        if log[5 * k] != seat:
            continue
        then = hand
        for j in range(k, moves.shape[0]):
            if log[5 * j] == seat:
                then += moves[j]
        phase, hs, s, best = log[5 * k + 1], log[5 * k + 2], log[5 * k + 3], log[5 * k + 4]
        move = moves[k]
        n = legal_set(phase, then, hs, s, best, low_only, 0, ws.legal, ws.scr)
        if is_in(move, ws.legal, n):
            continue
        if phase == PH_FOLLOW and not beats(move, best) and move != lowest_set(then, s):
            return refuse(why, E_OWN_LOWER, seat, k, move, lowest_rank(then))
        if phase == PH_FOLLOW and not beats(move, best):
            return refuse(why, E_OWN_COULD_BEAT, seat, k, best, 0)
        return refuse(why, E_OWN_ILLEGAL, seat, k, move, 0)
    return True


@njit(cache=True)
def place_hidden(params, ws, seat, free, held, dead, dead_seat, why):
    """Put the unseen cards ``free`` in the others' hands (``held`` cards each; placeholders,
    the sampler redeals them), ``dead`` of them in ``dead_seat``'s discards and the rest in
    the stock; check that a deal exists that respects the floors (Hall's condition: the
    floors are nested). False (``why`` set) when none does."""
    players = params[P_PLAYERS]
    sc, active, floor = ws.sc, ws.active, ws.floor
    order = ws.order
    n = 0
    for r in range(13):  # the unseen cards by rank, then suit
        for sv in range(4):
            c = sv * 13 + r
            if free & (np.int64(1) << c):
                order[n] = c
                n += 1
    need = 0
    for q in range(players):
        if q != seat and active[q]:
            need += held[q]
    if need > n:
        return refuse(why, E_UNSEEN_SHORT, need, n, 0, 0)
    for f in range(12, -1, -1):
        want = 0
        for q in range(players):
            if q != seat and active[q] and floor[q] >= f:
                want += held[q]
        have = 0
        for i in range(n):
            if RANK_OF[order[i]] >= f:
                have += 1
        if want > have:
            return refuse(why, E_FLOORS, want, f, have, 0)
    for q in range(players):  # the highest cards first, as the old loader did
        if q != seat and active[q]:
            for _ in range(held[q]):
                n -= 1
                ws.hmask[q] |= np.int64(1) << order[n]
                ws.hpk[q] += one(RANK_OF[order[n]])
    for _ in range(dead):
        n -= 1
        ws.dmask[dead_seat] |= np.int64(1) << order[n]
    top = 52 - n
    for i in range(52):
        ws.deck[i] = 0
    for i in range(n):
        ws.deck[top + i] = order[i]
    sc[S_TOP], sc[S_NDECK] = top, 52
    return True


@njit(entry=True, cache=True)
def load_position(params, ws, seat, dealer, kind, hand, own_dead, scored, scores, stock, moves, ends, why, log):
    """Set the bundle ``ws`` to a position seen by ``seat`` by replaying its public history
    with the rules. Returns True, or False with ``why`` = [E_* code, details] (codes.py).

    ``hand``, ``own_dead``, ``scored``: card bitmasks (the seat's hand now, its discards this
    hand, the cards scored this game); ``scores`` int64[P]; ``kind``: KIND_*.
    Discard: ``dealer`` (-1: the seat before ``seat``, which then discards first), ``stock``
    (cards left in it; -1: all undealt cards). Lead and follow: ``moves`` (packed sets in
    play order) and ``ends`` (end of each trick in ``moves``, the last one the trick in
    progress); the hands held follow from them. ``log`` int64[5 * len(moves)] receives per
    move the seat, phase, hand size, set size and best set it met (the first entry's seat
    is the first leader). The other hands are placeholders of the right sizes (the sampler
    redeals them); the other seats' discards are in the stock, apart from the first
    discarder's, known by their number only.
    """
    players = params[P_PLAYERS]
    sc = ws.sc
    why[:] = 0
    held = np.zeros(players, dtype=np.int64)  # cards each seat holds now
    hand_pk = np.int64(0)
    for c in range(52):
        if hand & (np.int64(1) << c):
            hand_pk += one(RANK_OF[c])
    hs = set_size(hand_pk)
    deck_size = 52 - popcount(scored)
    free = ~(hand | own_dead | scored) & ((np.int64(1) << 52) - 1)
    dead = 0
    dead_seat = 0
    if kind == KIND_DISCARD:
        if dealer < 0:
            dealer = previous_active(seat, scores < params[P_TARGET])
        if not set_up_hand(params, ws, seat, dealer, hs, scored, scores, why):
            return False
        nactive = sc[S_NACTIVE]
        if hs * nactive > deck_size:
            return refuse(why, E_DEAL_SIZE, nactive, hs, deck_size, 0)
        first = next_active(dealer, ws.active)
        ndone = 0
        p = first
        while p != seat:
            p = next_active(p, ws.active)
            ndone += 1
        full = deck_size - hs * nactive
        if stock < 0:
            stock = full
        if stock > full:
            return refuse(why, E_STOCK_RANGE, full, stock, 0, 0)
        if ndone == 0 and stock != full:
            return refuse(why, E_FIRST_DISCARDER, seat, full, 0, 0)
        dead, dead_seat = full - stock, first
        sc[S_PHASE], sc[S_SEAT], sc[S_NDONE] = PH_DISCARD, seat, ndone
        for p in range(players):
            held[p] = hs if ws.active[p] else 0
    else:
        if hs < 2:
            return refuse(why, E_NOTHING_TO_DECIDE, 0, 0, 0, 0)
        size = hs
        for t in range(ends.shape[0] - 1):  # every finished trick took a lead's size from each hand
            size += set_size(moves[ends[t - 1] if t > 0 else 0])
        if not set_up_hand(params, ws, seat, dealer, size, scored, scores, why):
            return False
        nactive = sc[S_NACTIVE]
        if size > RANK_POINTS[12] or size * nactive > deck_size:
            return refuse(why, E_TOO_MANY, size, nactive, 0, 0)
        for p in range(players):
            held[p] = size if ws.active[p] else 0
        free = replay_tricks(params, ws, seat, moves, ends, free, log, held, why)
        if free < 0:
            return False
        if not check_own_moves(params, ws, seat, hand_pk, moves, log, why):
            return False
        for p in range(players):  # the hidden hands are placed below
            if p != seat:
                ws.hmask[p] = 0
                ws.hpk[p] = 0
    ws.hmask[seat] = hand
    ws.hpk[seat] = hand_pk
    ws.dmask[seat] = own_dead
    return place_hidden(params, ws, seat, free, held, dead, dead_seat, why)


@njit(entry=True, cache=True)
def position_legal(params, ws, out):
    """The legal moves of the decision a loaded bundle is at, into ``out``; returns their number."""
    sc = ws.sc
    p = sc[S_SEAT]
    kind = sc[S_PHASE]
    s = sc[S_SET] if kind == PH_FOLLOW else 0
    best = sc[S_BEST] if kind == PH_FOLLOW else 0
    return legal_set(kind, ws.hpk[p], sc[S_HS], s, best, params[P_LOWEST_ONLY] != 0, sc[S_NDECK] - sc[S_TOP],
                     out, ws.scr)


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi, users, tier):
    ws = workspace(params)
    sample = workspace(params)
    samp, roll, search = search_bundles(params, strat, tier)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        copy_bundle(base_ws, sample)
        seed_stream(sample.deal_rng, seed, start + j, DEAL)
        resample_hidden(params, sample, seat, sample.deal_rng)
        seed_stream(sample.deal_rng, seed, start + j, hand_purpose(0))
        seed_stream(sample.play_rng, seed, start + j, PLAY)
        sample.gid[0] = np.uint64(seed)
        sample.gid[1] = np.uint64(start + j)
        # a user rollout strategy reads its view (start_game sets this flag for fresh games)
        for p in range(params[P_PLAYERS]):
            if strat[p, 0] < 0:
                sample.sc[S_HAS_USER] = 1
        for i in range(options.shape[0]):
            copy_bundle(sample, ws)
            out[:] = 0
            took = play_rest(params, strat, users, tier, ws, samp, roll, search, out, err, trace, False, options[i])
            result[j, i, 0] = (took >> seat) & 1
            result[j, i, 1] = (out[0] >> seat) & 1


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks, users, tier):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [took this hand's final trick, won the game] per sample
    and option.
    """
    n = result.shape[0]
    for b in range(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks, users, tier)
