"""Ninety-Nine play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a *bundle* (``workspace``): arrays plus ``sc``, an int64 array of scalars.
    hands   int64[P, 3]   card codes (``id % 52``) held by each seat
    stock   int64[52*D]   ``stock[top:end]`` is still to be drawn, lazily shuffled from the
                          round's deal stream (rng.draw_lazy)
    pile    int64[52*D]   cards on the pile since the last rebuild, oldest first
    chips   int64[P], active bool[P], position int64[P] (clockwise from the dealer)
    legal   int64[15]     legal move codes of the current decision
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng uint64[4]
    order   int64[52*D], scratch uint64[4]: trace previews and Monte Carlo sampling
    sc      int64[N_SC]   S_DEALER, S_TOTAL, S_DIR, S_SEAT (to move), S_TOP, S_END,
                          S_NPILE, S_NACTIVE, S_ROUNDS, S_DECISIONS, S_EPOCH (rebuilds of
                          the stock this round: the current stock's number)
    slab    int64[P, 3]   the stock each held card was drawn from (0: the deal's, k: the
                          k-th rebuild's): the class of the slot (resample_hidden)
    spos    int64[3P]     scratch of resample_hidden
Out row columns (spec.extra_columns): winners, hands (rounds), decisions (plays),
score_s (final chips), busts_s, busts_pos_k, rounds_pos_k for k = position clockwise
from the dealer (0 = dealer, 1 = first to play).

The rules live once, in ``deal_round``, ``apply_move`` and ``settle``. Two small drivers
choose the moves: ``play_turns`` (any strategy, records, Monte Carlo) and
``rollout_turns`` (built-in base strategies only: what ``mc`` rolls out with; keeping it
apart avoids a recursive call graph, which numba does not compile reliably).

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
from analyzer.jit import ix, njit, prange
from analyzer.rng import (DEAL, PLAY, draw_lazy, hand_purpose, next_u64, preview_into, randbelow, seed_stream,
                          shuffle)

# trace event codes
EV_DEAL, EV_DECIDE, EV_PILE, EV_DRAW, EV_RESHUFFLE, EV_BUST, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK, TAG_CHIPS = 100, 101

V_SEAT, V_PLAYERS, V_DEALER, V_TOTAL, V_DIR, V_STOCK, V_HAND, V_PILE, V_CHIPS, V_ACTIVE = (
    0, 1, 2, 3, 4, 5, 6, 9, 22, 32)
VIEW_SIZE = 42
MAX_PLAYERS = 10

S_DEALER, S_TOTAL, S_DIR, S_SEAT, S_TOP, S_END, S_NPILE, S_NACTIVE, S_ROUNDS, S_DECISIONS, S_EPOCH = range(11)
N_SC = 11

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
    ncards = 52 * params[P_DECKS]
    return (np.zeros((players, 3), dtype=np.int64), np.zeros(ncards, dtype=np.int64),
            np.zeros(ncards, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.bool_), np.zeros(15, dtype=np.int64),
            np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(players, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(ncards, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(N_SC, dtype=np.int64),
            np.zeros((players, 3), dtype=np.int64), np.zeros(3 * players, dtype=np.int64))


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``, same shapes)."""
    for a, b in ((src[1], dst[1]), (src[2], dst[2]), (src[3], dst[3]), (src[5], dst[5]),
                 (src[7], dst[7]), (src[12], dst[12])):
        for i in range(a.shape[0]):
            b[i] = a[i]
    for s in range(src[0].shape[0]):
        dst[4][s] = src[4][s]
        for c in range(3):
            dst[0][s, c] = src[0][s, c]
            dst[13][s, c] = src[13][s, c]
    for j in range(4):
        dst[8][j] = src[8][j]
        dst[9][j] = src[9][j]


@njit(cache=True)
def fill_view(view, seat, sc, hands, pile, chips, active):
    """What a user strategy sees (module docstring). The pile's rank counts are taken here,
    not kept up to date on every play: only user strategies read them."""
    view[:] = 0
    view[V_SEAT] = seat
    view[V_PLAYERS] = chips.shape[0]
    view[V_DEALER] = sc[S_DEALER]
    view[V_TOTAL] = sc[S_TOTAL]
    view[V_DIR] = sc[S_DIR]
    view[V_STOCK] = sc[S_END] - sc[S_TOP]
    for i in range(3):
        view[V_HAND + i] = RANK_OF[hands[seat, i]]
    for i in range(sc[S_NPILE]):
        view[V_PILE + RANK_OF[pile[i]]] += 1
    for s in range(chips.shape[0]):
        view[V_CHIPS + s] = chips[s]
        view[V_ACTIVE + s] = 1 if active[s] else 0


@njit(cache=True, inline="always")
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


# ---- the rules, once ----------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def deal_round(seed, index, params, ws, out, trace, tracing):
    """Start round ``sc[S_ROUNDS] + 1``: gather, shuffle from the round's stream, deal 3 each."""
    hands, stock, pile, chips, active, legal, view, position, deal_rng, play_rng, order, scratch, sc = ws[:13]
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    sc[S_ROUNDS] += 1
    dealer, nactive = sc[S_DEALER], sc[S_NACTIVE]
    s = dealer
    for k in range(nactive):  # positions clockwise from the dealer, counting players still in
        position[s] = k
        out[3 + 3 * players + k] += 1  # rounds_pos_k
        s = next_active(s, 1, active)
    # each round shuffles from its own stream: round k of game i is dealt alike whatever
    # happened before (duplicate deals across strategy permutations)
    seed_stream(deal_rng, seed, index, hand_purpose(sc[S_ROUNDS]))
    for d in range(0, ncards, 52):  # all cards gathered: codes 0..51 once per deck
        for c in range(52):
            stock[d + c] = c
    top = 0
    s = dealer
    slab = ws[13]
    for c in range(3):
        for k in range(nactive):
            s = next_active(s, 1, active)
            hands[s, c] = draw_lazy(stock, top, ncards, deal_rng)
            slab[s, c] = 0
            top += 1
    sc[S_TOP], sc[S_END], sc[S_EPOCH] = top, ncards, 0
    sc[S_TOTAL], sc[S_DIR], sc[S_NPILE] = 0, 1, 0
    sc[S_SEAT] = next_active(dealer, 1, active)
    if tracing:
        tr.emit(trace, EV_DEAL, sc[S_ROUNDS], dealer, 0, 0)
        for p in range(players):
            if active[p]:
                tr.emit_list(trace, p, hands[p], 3)
        tr.emit_list(trace, TAG_STOCK, order, preview_into(stock, top, ncards, deal_rng, order, scratch))
        tr.emit_list(trace, TAG_CHIPS, chips, players)


@njit(cache=True, _nrt=False, inline="always")
def apply_move(ws, move, trace, tracing):
    """The player to move plays ``move``: pile, total, direction, rebuild if needed, draw."""
    hands, stock, pile, chips, active, legal, view, position, deal_rng, play_rng, order, scratch, sc = ws[:13]
    seat = sc[S_SEAT]
    rank = MOVE_RANK[ix(move)]
    slot = slot_of_rank(hands, seat, rank)
    npile = sc[S_NPILE]
    pile[ix(npile)] = hands[ix(seat), ix(slot)]
    npile += 1
    sc[S_TOTAL] = total_after(sc[S_TOTAL], move)
    sc[S_DIR] -= 2 * sc[S_DIR] * np.int64(rank == RANK_FOUR)  # a four reverses (no branch: random)
    if tracing:
        tr.emit(trace, EV_PILE, sc[S_TOTAL], sc[S_DIR], 0, 0)
    top, end = sc[S_TOP], sc[S_END]
    if top == end:
        # rebuild: the card just played stays on the pile, the rest is the stock
        for i in range(npile - 1):
            stock[i] = pile[i]
        top, end = 0, npile - 1
        pile[0] = pile[npile - 1]
        npile = 1
        sc[S_EPOCH] += 1
        if tracing:
            tr.emit(trace, EV_RESHUFFLE, 0, 0, 0, 0)
            tr.emit_list(trace, TAG_STOCK, order, preview_into(stock, top, end, deal_rng, order, scratch))
    hands[ix(seat), ix(slot)] = draw_lazy(stock, top, end, deal_rng)
    ws[13][ix(seat), ix(slot)] = sc[S_EPOCH]  # the slot now holds a card of this stock
    sc[S_TOP], sc[S_END], sc[S_NPILE] = top + 1, end, npile
    if tracing:
        tr.emit(trace, EV_DRAW, seat, hands[seat, slot], 0, 0)
    sc[S_SEAT] = next_active(seat, sc[S_DIR], active)


@njit(cache=True, _nrt=False, inline="always")
def settle(params, ws, out, seat, trace, tracing):
    """``seat`` went over: pays a chip, or is out if it has none left; the deal passes on."""
    hands, stock, pile, chips, active, legal, view, position, deal_rng, play_rng, order, scratch, sc = ws[:13]
    players = params[P_PLAYERS]
    paid = 0
    if chips[seat] > 0:
        chips[seat] -= 1
        paid = 1
        gone = params[P_OUT_AT_ZERO] != 0 and chips[seat] == 0
    else:
        gone = True
    out[3 + players + seat] += 1  # busts_s
    out[3 + 2 * players + position[seat]] += 1  # busts_pos_k
    if gone:
        active[seat] = False
        sc[S_NACTIVE] -= 1
    if tracing:
        tr.emit(trace, EV_BUST, seat, chips[seat], 1 if gone else 0, 0)
        tr.emit(trace, EV_HAND_END, sc[S_ROUNDS], seat, paid, 0)
        tr.emit_list(trace, 0, chips, players)
    sc[S_DEALER] = next_active(sc[S_DEALER], 1, active)


@njit(cache=True, _nrt=False)
def finish(params, ws, out, trace, tracing):
    chips, active, sc = ws[3], ws[4], ws[12]
    winners = 0
    for s in range(params[P_PLAYERS]):
        if active[s]:
            winners |= 1 << s
        out[3 + s] = chips[s]
    out[0] = winners
    out[1] = sc[S_ROUNDS]
    out[2] = sc[S_DECISIONS]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, sc[S_ROUNDS], 0, 0)
        tr.emit_list(trace, 0, chips, params[P_PLAYERS])


# ---- Monte Carlo: sampling what a seat cannot see, and rollouts ------------------------------

@njit(cache=True, _nrt=False)
def _shuffle_class(ws, seat, label, with_stock, rng):
    """Deal the cards of one class again, uniformly over its places: the other hands'
    slots labelled ``label`` (and the stock when ``with_stock``)."""
    hands, stock, active, order, sc, slab, spos = ws[0], ws[1], ws[4], ws[10], ws[12], ws[13], ws[14]
    n = 0
    for s in range(hands.shape[0]):
        if s != seat and active[s]:
            for c in range(3):
                if slab[s, c] == label:
                    spos[n] = 3 * s + c
                    order[n] = hands[s, c]
                    n += 1
    nslots = n
    if with_stock:
        for i in range(sc[S_TOP], sc[S_END]):
            order[n] = stock[i]
            n += 1
    shuffle(order, 0, n, rng)
    for j in range(nslots):
        s = spos[j] // 3
        hands[s, spos[j] - 3 * s] = order[j]
    if with_stock:
        k = nslots
        for i in range(sc[S_TOP], sc[S_END]):
            stock[i] = order[k]
            k += 1


@njit(cache=True, _nrt=False)
def resample_hidden(ws, seat, rng):
    """Redeal what ``seat`` cannot see, uniformly over the deals consistent with what it saw.

    Reads and writes the other hands ``ws[0]`` and the stock ``ws[1][top:end]``; reads the
    slot labels ``ws[13]`` (the stock each card in a hand was drawn from: 0 the deal's,
    k the stock of the k-th rebuild) and ``S_EPOCH`` (the current stock's number).

    Known to the seat: its own hand, every card played (and by whom), and when the stock
    was rebuilt; nothing is read into the others' choices (which card of a rank a player
    gives up included). With one deck every card is unique, and a card that a player
    holds came from the last stock it was in: a card never seen from the deal's stock,
    a card that lay on the pile at rebuild k from the k-th stock. So the hidden cards fall
    into *classes* by that stock, the other hands' slots by the stock they were drawn
    from (the card a player plays frees the slot of its class), and the consistent deals
    are exactly the ones that deal each class's cards over its slots, the current class
    over its slots and the stock: every such deal is equally likely (each stock is a
    uniform shuffle, and a play pins only its own card). Each class is shuffled over its
    places here: exactly uniform. Before any rebuild this is one class: every unseen card
    anywhere.

    With two or more decks a played card may come from either class that holds a copy,
    and the posterior is no longer a product of classes: there the hidden cards are
    pooled as one class (every unseen card equally likely anywhere; docs/ninety-nine.md
    says what that loses).
    """
    hands, stock, active, sc, slab = ws[0], ws[1], ws[4], ws[12], ws[13]
    epoch = sc[S_EPOCH]
    if stock.shape[0] != 52 or epoch == 0:
        # one class: every hidden card anywhere
        order = ws[10]
        n = 0
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(3):
                    order[n] = hands[s, c]
                    n += 1
        for i in range(sc[S_TOP], sc[S_END]):
            order[n] = stock[i]
            n += 1
        shuffle(order, 0, n, rng)
        n = 0
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(3):
                    hands[s, c] = order[n]
                    n += 1
        for i in range(sc[S_TOP], sc[S_END]):
            stock[i] = order[n]
            n += 1
        return
    _shuffle_class(ws, seat, epoch, True, rng)
    # the older classes, each once (newest first)
    done = epoch
    while True:
        label = np.int64(-1)
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(3):
                    lab = slab[s, c]
                    if lab < done and lab > label:
                        label = lab
        if label < 0:
            break
        _shuffle_class(ws, seat, label, False, rng)
        done = label


@njit(cache=True, inline="always")
def choose_base(sid, hands, seat, total, legal, n, rng):
    if sid == st.HEURISTIC:
        return st.heuristic_move(hands, seat, total, legal, n)
    return st.random_move(legal, n, rng)


@njit(cache=True, _nrt=False)
def rollout_turns(base, ws, trace):
    """Play the round on with every seat using built-in strategy ``base``; the seat that goes over."""
    hands, legal, play_rng, sc = ws[0], ws[5], ws[9], ws[12]
    while True:
        seat = sc[S_SEAT]
        n = legal_moves(hands, seat, sc[S_TOTAL], legal)
        if n == 0:
            return seat
        apply_move(ws, choose_base(base, hands, seat, sc[S_TOTAL], legal, n, play_rng), trace, False)


@njit(cache=True, _nrt=False)
def mc_rollouts(ws, roll, seat, move, k, base, trace):
    """How often ``seat`` goes over this round after ``move``, over K samples (CRN)."""
    play_rng = ws[9]
    busts = 0
    for j in range(k):
        copy_bundle(ws, roll)
        seed_stream(roll[8], play_rng[0], j, DEAL)
        seed_stream(roll[9], play_rng[1], j, PLAY)
        resample_hidden(roll, seat, roll[8])
        apply_move(roll, move, trace, False)
        if rollout_turns(base, roll, trace) == seat:
            busts += 1
    return busts


@njit(cache=True, _nrt=False)
def mc_move(ws, roll, seat, legal, n, k, base, trace):
    """``mc``: for K samples of the hidden cards, roll each legal move out to the end of the
    round with the base strategy (same sample and same random numbers for every move);
    play the move that went over least often. The base strategy's own choice is tried
    first and kept on ties, so sampling noise never makes mc worse than its base."""
    hands, sc = ws[0], ws[12]
    best = choose_base(base, hands, seat, sc[S_TOTAL], legal, n, ws[9])
    best_busts = mc_rollouts(ws, roll, seat, best, k, base, trace)
    for i in range(n):
        if legal[i] != best and best_busts > 0:
            busts = mc_rollouts(ws, roll, seat, legal[i], k, base, trace)
            if busts < best_busts:
                best, best_busts = legal[i], busts
    next_u64(ws[9])  # fresh samples at the next decision
    return best


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def choose_move(strat, seat, ws, roll, n, trace):
    """The move of ``seat``'s strategy: built-in by id, ``mc``, or a user slot."""
    hands, legal, view, play_rng, sc = ws[0], ws[5], ws[6], ws[9], ws[12]
    sid = strat[ix(seat), 0]
    if sid == st.RANDOM:
        return st.random_move(legal, n, play_rng)
    if sid == st.HEURISTIC:
        return st.heuristic_move(hands, seat, sc[S_TOTAL], legal, n)
    if sid == st.MC:
        return mc_move(ws, roll, seat, legal, n, strat[seat, 1], strat[seat, 2], trace)
    fill_view(view, seat, sc, hands, ws[2], ws[3], ws[4])
    move = user_strategy(-1 - sid, view, legal, n, play_rng)
    # the strategy could write to ``legal``: make the set again from the state, so that
    # play_turns checks the move against the engine's own legal moves
    legal_moves(hands, seat, sc[S_TOTAL], legal)
    return move


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, ws, roll, err, trace, tracing, forced):
    """Play the round on from the player to move (its first move ``forced`` if >= 0).

    Returns the seat that goes over, or -1 after an illegal user move (``err`` filled).
    """
    hands, legal, sc = ws[0], ws[5], ws[12]
    while True:
        seat = sc[S_SEAT]
        n = legal_moves(hands, seat, sc[S_TOTAL], legal)
        if n == 0:
            return seat
        if forced >= 0:
            move = forced
            forced = -1
        else:
            move = choose_move(strat, seat, ws, roll, n, trace)
        sc[S_DECISIONS] += 1
        # built-ins pick from ``legal`` by construction; only user moves are checked, against
        # ``legal`` made again after the strategy returned (choose_move): nothing indexes
        # with ``move`` before this check
        if strat[ix(seat), 0] < 0 and not is_in(move, legal, n):
            err[0], err[1], err[2] = sc[S_DECISIONS], seat, move
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, seat, move, hands[seat, slot_of_rank(hands, seat, MOVE_RANK[move])], 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(ws, move, trace, tracing)


@njit(cache=True, _nrt=False)
def play_rest(seed, index, params, strat, ws, roll, out, err, trace, tracing, forced):
    """From the middle of a round: finish it, then play rounds until one player is left.

    Returns the seat that went over in the current round (-1 after an error).
    """
    sc = ws[12]
    first = play_turns(params, strat, ws, roll, err, trace, tracing, forced)
    if first < 0:
        return -1
    settle(params, ws, out, first, trace, tracing)
    while sc[S_NACTIVE] > 1:
        deal_round(seed, index, params, ws, out, trace, tracing)
        seat = play_turns(params, strat, ws, roll, err, trace, tracing, -1)
        if seat < 0:
            return -1
        settle(params, ws, out, seat, trace, tracing)
    finish(params, ws, out, trace, tracing)
    return first


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws, roll):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    chips, active, play_rng, sc = ws[3], ws[4], ws[9], ws[12]
    players = params[P_PLAYERS]
    seed_stream(ws[8], seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    for s in range(players):
        chips[s] = params[P_CHIPS]
        active[s] = True
    out[:] = 0
    err[0] = -1
    sc[:] = 0
    sc[S_NACTIVE] = players
    sc[S_DEALER] = randbelow(ws[8], players)
    deal_round(seed, index, params, ws, out, trace, tracing)
    play_rest(seed, index, params, strat, ws, roll, out, err, trace, tracing, -1)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi):
    ws = workspace(params)
    roll = workspace(params)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, out[g], err[g], trace, False, ws, roll)
        if err[g, 0] >= 0:
            return


@njit(parallel=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks):
    n = out.shape[0]
    for b in prange(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks)


@njit(cache=True)
def run_traced(seed, index, params, strat, out_row, err_row, trace):
    play_game(seed, index, params, strat, out_row, err_row, trace, True, workspace(params), workspace(params))


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def load_position(params, ws, seat, dealer, total, direction, chips, active, hand, pile, stock_left):
    """Set a bundle to a position seen by ``seat``: its hand, the pile since the last
    rebuild, and placeholders for the hidden cards (redrawn by ``resample_hidden``)."""
    hands, stock, pile_arr, chips_arr, active_arr, sc = ws[0], ws[1], ws[2], ws[3], ws[4], ws[12]
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    count = np.zeros(52, dtype=np.int64)
    for d in range(0, ncards, 52):
        for c in range(52):
            count[c] += 1
    for c in hand:
        count[c] -= 1
    for c in pile:
        count[c] -= 1
    unknown = np.empty(ncards, dtype=np.int64)
    n = 0
    for c in range(52):
        for _ in range(count[c]):
            unknown[n] = c
            n += 1
    sc[:] = 0
    sc[S_DEALER], sc[S_TOTAL], sc[S_DIR], sc[S_SEAT] = dealer, total, direction, seat
    sc[S_ROUNDS] = 1
    k = 0
    nactive = 0
    for s in range(players):
        chips_arr[s] = chips[s]
        active_arr[s] = active[s]
        if active[s]:
            nactive += 1
        for c in range(3):
            ws[13][s, c] = 0
            if s == seat:
                hands[s, c] = hand[c]
            elif active[s]:
                hands[s, c] = unknown[k]
                k += 1
    sc[S_NACTIVE] = nactive
    for i in range(pile.shape[0]):
        pile_arr[i] = pile[i]
    sc[S_NPILE] = pile.shape[0]
    # the stock: the rest of the unknown cards (its order is resampled anyway)
    sc[S_TOP] = 0
    sc[S_END] = min(stock_left, n - k) if stock_left >= 0 else n - k
    for i in range(sc[S_END]):
        stock[i] = unknown[k + i]
    s = dealer
    for p in range(nactive):  # positions clockwise from the dealer
        ws[7][s] = p
        s = next_active(s, 1, active_arr)


@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi):
    ws = workspace(params)
    roll = workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        for i in range(options.shape[0]):
            copy_bundle(base_ws, ws)
            # the same hidden cards and the same future for every option (common random numbers)
            seed_stream(sample_rng, seed, start + j, DEAL)
            resample_hidden(ws, seat, sample_rng)
            seed_stream(ws[8], seed, start + j, hand_purpose(0))
            seed_stream(ws[9], seed, start + j, PLAY)
            out[:] = 0
            busted = play_rest(seed, start + j, params, strat, ws, roll, out, err, trace, False, options[i])
            result[j, i, 0] = 1 if busted == seat else 0
            result[j, i, 1] = (out[0] >> seat) & 1


@njit(parallel=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [went over this round, won the game] per sample and option.
    """
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks)
