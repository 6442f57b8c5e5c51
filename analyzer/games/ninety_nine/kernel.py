"""Ninety-Nine play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a ``Bundle`` (a NamedTuple of arrays, fields below; numba compiles it like
a plain tuple). Its scalar registers live in ``sc`` (names ``codes.S_*``); Python reads them
only through ``scalars``. Out row columns (spec.extra_columns): winners, hands (rounds),
decisions (plays), score_s (final chips), busts_s, busts_pos_k, rounds_pos_k for
k = position clockwise from the dealer (0 = dealer, 1 = first to play).

The rules live once, in ``deal_round``, ``play_slot`` (with ``apply_move``) and ``settle``.
Two small drivers choose the moves: ``play_turns`` (any strategy, records, Monte Carlo) and
``rollout_turns`` (built-in base strategies only: what ``mc`` rolls out with; keeping it
apart avoids a recursive call graph, which numba does not compile reliably). Positions are
built by the same rules: ``load_history`` replays a round's cards through ``play_slot``.

What a user strategy sees (``Bundle.seat_view``) is laid out in view.py (``fill_view``);
the hidden-card sampler is sampler.py.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer import ismcts
from analyzer import trace as tr
from analyzer.blocks import in_blocks
from analyzer.slots import refuse_move
from analyzer.games.ninety_nine import strategies as st
from analyzer.games.ninety_nine import view as V
from analyzer.games.ninety_nine.codes import (
    E_CLASS_COUNT,
    E_NO_DEAL,
    E_NO_SLOT,
    E_ON_PILE,
    E_OVER,
    E_TOO_LONG,
    E_TOTAL,
    E_TURN,
    EV_BUST,
    EV_DEAL,
    EV_DECIDE,
    EV_DRAW,
    EV_GAME_END,
    EV_HAND_END,
    EV_PILE,
    EV_RESHUFFLE,
    HAND_SIZE,
    LOG_CAP,
    N_MOVES,
    N_SC,
    S_DECISIONS,
    S_DEALER,
    S_DIR,
    S_END,
    S_EPOCH,
    S_NACTIVE,
    S_NLOG,
    S_NPILE,
    S_ROUNDS,
    S_SEAT,
    S_TOP,
    S_TOTAL,
    SCALARS,
    TAG_CHIPS,
    TAG_STOCK,
    TOTAL_BITS_SPLIT,
    TOTAL_FROM_HISTORY,
)
from analyzer.games.ninety_nine.rules import (
    LEGAL_AT,
    LIMIT,
    MOVE_RANK,
    P_CHIPS,
    P_DECKS,
    P_OUT_AT_ZERO,
    P_PLAYERS,
    RANK_FIRST_MOVE,
    RANK_FOUR,
    RANK_MOVE_COUNT,
    RANK_OF,
    legal_moves,
    next_active,
    slot_of_rank,
    total_after,
)
from analyzer.games.ninety_nine.sampler import resample_classes, resample_hidden, resample_history, scratch
from analyzer.jit import ix, njit
from analyzer.rng import (DEAL, PLAY, draw_lazy, hand_purpose, next_u64, preview_into, randbelow, seed_stream)


class Bundle(NamedTuple):
    """One game's state and its scratch space (P = players, D = decks)."""

    #: int64[P, 3] card codes (``id % 52``) held by each seat
    hands: np.ndarray
    #: int64[52 D] ``stock[top:end]`` is still to be drawn, lazily shuffled from the round's
    #: deal stream (rng.draw_lazy)
    stock: np.ndarray
    #: int64[52 D] cards on the pile since the last rebuild, oldest first
    pile: np.ndarray
    #: int64[P] chips of each seat
    chips: np.ndarray
    #: bool[P] still in the game
    active: np.ndarray
    #: int64[15] legal move codes of the current decision
    legal: np.ndarray
    #: int64[view.VIEW_SIZE] what a user strategy sees (``view`` is an array attribute in numba)
    seat_view: np.ndarray
    #: int64[P] position clockwise from the dealer this round
    position: np.ndarray
    #: uint64[4] this round's deal stream
    deal_rng: np.ndarray
    #: uint64[4] the strategies' stream
    play_rng: np.ndarray
    #: int64[52 D] scratch: trace previews and the samplers' card lists
    order: np.ndarray
    #: uint64[4] scratch of the stock preview in records
    scratch: np.ndarray
    #: int64[N_SC] scalar registers (codes.S_*; Python reads them through ``scalars``)
    sc: np.ndarray
    #: int64[P, 3] the stock each held card was drawn from (0: the deal's, k: the k-th
    #: rebuild's): the class of the slot (sampler.resample_classes)
    slab: np.ndarray
    #: int64[3 P] scratch of the class sampler
    spos: np.ndarray
    #: int64[LOG_CAP, 2] this round's plays, (seat, card), ``S_NLOG`` of them (-1: lost)
    log: np.ndarray
    #: int64[15] the legal moves as a user strategy gets them: a copy of ``legal[:n]``, so that
    #: what the strategy writes there cannot change the engine's own list
    user_legal: np.ndarray


class SearchSpace(NamedTuple):
    """Where the search strategies work (``search_workspace``): a bundle for the sampled worlds,
    ``ismcts``'s tree, the history sampler's work area and ``mc``'s scratch. (Apart from
    ``Bundle``, which stays a flat tuple of arrays: numba's parallel loops, which the chunks
    used until 2026-12-05, took no nested tuples; and the base tier passes None instead,
    which made random play faster.)"""

    #: the state bundle a search plays its sampled worlds in
    roll: Bundle
    #: ``mc``'s sampled world, which each move's rollout starts from (``sample_world``)
    samp: Bundle
    #: analyzer.ismcts.Tree: room for the most iterations of an ``ismcts`` seat (else 2 nodes)
    tree: tuple
    #: sampler.History: the history sampler's work area, for the worlds' redeals
    hist: tuple
    #: int64[3 + 4 P] scratch out row of the rollouts past the round (settle and deal_round
    #: count busts and rounds there; nobody reads them)
    out: np.ndarray
    #: float64[2, 15] scratch of ``mc_move``: per legal move, the sum over the samples of its
    #: value and of the square of its lead over the base's move
    mc_stats: np.ndarray
    #: int64[2]: ``mc``'s decisions and the moves of their rollouts (``mc_work``)
    work: np.ndarray


def scalars(ws) -> dict[str, int]:
    """The scalar registers of a bundle by name (codes.SCALARS): the one way Python reads them."""
    return {name: int(ws.sc[i]) for i, name in enumerate(SCALARS)}


#: the entry points that take the user strategy slots as their last but one argument ``users``: a
#: tuple of engine.SLOTS compiled functions ``(view, legal, n, rng) -> move`` (engine.SlotKernel);
#: a seat with strategy id ``sid < 0`` plays ``users[-1 - sid]``
USER_ENTRIES = ("run_chunk", "run_traced", "evaluate_chunk", "mc_decide", "exchange_chunk", "mc_work")
#: a user slot can be ``mc``'s base (``mc:base=file.py:f``): ``choose_base``
USER_BASES = True
#: the entry points take the compile tier after ``users`` (engine.search_tier): strategy ids
#: from here on are search strategies, compiled only into the kernels' search tier
SEARCH_FROM = st.SEARCH


@njit(cache=True)
def search_workspace(params, strat, tier):
    """The search strategies' ``SearchSpace``, allocated once per block of games: its tree
    has room for the most iterations of a seat of ``strat`` that plays ``ismcts``. None in
    the base tier (``tier`` empty: engine.search_tier), where nobody searches: the play loop
    takes every array of it as an argument at each call: without them (and with the history
    sampler's area out of the bundle) Ninety-Nine's random play was 9.8% faster (paired runs,
    2026-12-04)."""
    if len(tier) == 0:  # the base tier (engine.search_tier)
        return None
    nodes = 2
    for s in range(strat.shape[0]):
        if strat[s, 0] == st.ISMCTS:
            nodes = max(nodes, strat[s, 1] + 1)
    players = params[P_PLAYERS]
    return SearchSpace(workspace(params), workspace(params), ismcts.new_tree(nodes, nodes + 1, N_MOVES, players),
                       scratch(players, 52 * params[P_DECKS]), np.zeros(3 + 4 * players, dtype=np.int64),
                       np.zeros((2, N_MOVES), dtype=np.float64), np.zeros(2, dtype=np.int64))


@njit(entry=True, cache=True)
def workspace(params):
    """One state bundle (``Bundle``), allocated once per block of games."""
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    return Bundle(np.zeros((players, HAND_SIZE), dtype=np.int64), np.zeros(ncards, dtype=np.int64),
                  np.zeros(ncards, dtype=np.int64), np.zeros(players, dtype=np.int64),
                  np.zeros(players, dtype=np.bool_), np.zeros(N_MOVES, dtype=np.int64),
                  np.zeros(V.VIEW_SIZE, dtype=np.int64), np.zeros(players, dtype=np.int64),
                  np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(ncards, dtype=np.int64),
                  np.zeros(4, dtype=np.uint64), np.zeros(N_SC, dtype=np.int64),
                  np.zeros((players, HAND_SIZE), dtype=np.int64), np.zeros(HAND_SIZE * players, dtype=np.int64),
                  np.zeros((LOG_CAP, 2), dtype=np.int64), np.zeros(N_MOVES, dtype=np.int64))


@njit(cache=True, _nrt=False, inline="always")
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``, same shapes; the play log as far as it goes)."""
    for a, b in ((src.stock, dst.stock), (src.pile, dst.pile), (src.legal, dst.legal)):
        for i in range(a.shape[0]):
            b[i] = a[i]
    copy_seats_and_registers(src, dst)
    for i in range(src.sc[S_NLOG]):
        dst.log[i, 0] = src.log[i, 0]
        dst.log[i, 1] = src.log[i, 1]


@njit(cache=True, _nrt=False, inline="always")
def copy_for_rollout(src, dst):
    """Copy what a rollout or the one-deck sampler reads of a state (``src`` into ``dst``):
    ``copy_bundle`` but for the play log (a rollout only appends to it: the log counter
    comes with ``sc``; only the history sampler of two decks reads it), the legal moves
    (listed again before each move), the stock's drawn cards and the pile past its top
    (nothing reads them before they are written again)."""
    sc = src.sc
    for i in range(sc[S_TOP], sc[S_END]):
        dst.stock[i] = src.stock[i]
    for i in range(sc[S_NPILE]):
        dst.pile[i] = src.pile[i]
    copy_seats_and_registers(src, dst)


@njit(cache=True, _nrt=False, inline="always")
def copy_seats_and_registers(src, dst):
    """What both copies take whole: chips, positions, registers, who is in, the hands and
    their slot labels, the two streams."""
    for a, b in ((src.chips, dst.chips), (src.position, dst.position), (src.sc, dst.sc)):
        for i in range(a.shape[0]):
            b[i] = a[i]
    for s in range(src.hands.shape[0]):
        dst.active[s] = src.active[s]
        for c in range(HAND_SIZE):
            dst.hands[s, c] = src.hands[s, c]
            dst.slab[s, c] = src.slab[s, c]
    for j in range(4):
        dst.deal_rng[j] = src.deal_rng[j]
        dst.play_rng[j] = src.play_rng[j]


@njit(cache=True, _nrt=False, inline="always")
def fill_view(view, seat, sc, hands, pile, chips, active):
    """What a user strategy sees (layout: view.py): every field written, the seats past the
    players' 0. The pile's rank counts are taken here, not kept up to date on every play:
    only user strategies read them."""
    view[V.SEAT] = seat
    view[V.PLAYERS] = chips.shape[0]
    view[V.DEALER] = sc[S_DEALER]
    view[V.TOTAL] = sc[S_TOTAL]
    view[V.DIRECTION] = sc[S_DIR]
    view[V.STOCK_LEFT] = sc[S_END] - sc[S_TOP]
    for i in range(V.HAND_LEN):
        view[V.HAND + i] = RANK_OF[hands[seat, i]]
    for r in range(V.N_RANKS):
        view[V.PILE_COUNTS + r] = 0
    for i in range(sc[S_NPILE]):
        view[V.PILE_COUNTS + RANK_OF[pile[i]]] += 1
    for s in range(V.MAX_PLAYERS):
        if s < chips.shape[0]:
            view[V.CHIPS + s] = chips[s]
            view[V.ACTIVE + s] = 1 if active[s] else 0
        else:
            view[V.CHIPS + s] = 0
            view[V.ACTIVE + s] = 0


@njit(cache=True, _nrt=False, inline="always")
def user_legal(legal, n, copy):
    """``legal[:n]`` copied into ``copy``, which the user strategy gets (returned)."""
    for i in range(n):
        copy[i] = legal[i]
    return copy


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
    hands, stock, chips, active, position, deal_rng, order, scratch, sc, slab = (
        ws.hands, ws.stock, ws.chips, ws.active, ws.position, ws.deal_rng, ws.order, ws.scratch, ws.sc, ws.slab)
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
            stock[ix(d + c)] = c  # unsigned: LLVM writes the deck with vector stores
    top = 0
    s = dealer
    for c in range(HAND_SIZE):
        for k in range(nactive):
            s = next_active(s, 1, active)
            hands[s, c] = draw_lazy(stock, top, ncards, deal_rng)
            slab[s, c] = 0
            top += 1
    sc[S_TOP], sc[S_END], sc[S_EPOCH], sc[S_NLOG] = top, ncards, 0, 0
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
    """The player to move plays ``move`` with the card the engine gives up for it (the
    lowest suit held of its rank: rules.slot_of_rank)."""
    play_slot(ws, slot_of_rank(ws.hands, ws.sc[S_SEAT], MOVE_RANK[ix(move)]), move, trace, tracing)


@njit(cache=True, _nrt=False, inline="always")
def play_slot(ws, slot, move, trace, tracing):
    """The player to move plays the card in ``slot`` as ``move``: pile, total, direction,
    rebuild of the stock if it is empty, draw into the slot, next player. Logs the play
    (``ws.log``: seat, card) while the log has room."""
    hands, stock, pile, active, deal_rng, order, scratch, sc, log = (
        ws.hands, ws.stock, ws.pile, ws.active, ws.deal_rng, ws.order, ws.scratch, ws.sc, ws.log)
    seat = sc[S_SEAT]
    rank = MOVE_RANK[ix(move)]
    npile = sc[S_NPILE]
    card = hands[ix(seat), ix(slot)]
    pile[ix(npile)] = card
    npile += 1
    nlog = sc[S_NLOG]
    if nlog >= 0:
        if nlog < LOG_CAP:
            log[ix(nlog), 0] = seat
            log[ix(nlog), 1] = card
            sc[S_NLOG] = nlog + 1
        else:
            sc[S_NLOG] = -1  # lost: the sampler pools the hidden cards for the rest of the round
    sc[S_TOTAL] = total_after(sc[S_TOTAL], move)
    sc[S_DIR] -= 2 * sc[S_DIR] * np.int64(rank == RANK_FOUR)  # a four reverses (no branch: random)
    if tracing:
        tr.emit(trace, EV_PILE, sc[S_TOTAL], sc[S_DIR], 0, 0)
    top, end = sc[S_TOP], sc[S_END]
    if top == end:
        # rebuild: the card just played stays on the pile, the rest is the stock
        for i in range(npile - 1):
            stock[ix(i)] = pile[ix(i)]  # unsigned indices: a plain copy for LLVM
        top, end = 0, npile - 1
        pile[0] = pile[npile - 1]
        npile = 1
        sc[S_EPOCH] += 1
        if tracing:
            tr.emit(trace, EV_RESHUFFLE, 0, 0, 0, 0)
            tr.emit_list(trace, TAG_STOCK, order, preview_into(stock, top, end, deal_rng, order, scratch))
    hands[ix(seat), ix(slot)] = draw_lazy(stock, top, end, deal_rng)
    ws.slab[ix(seat), ix(slot)] = sc[S_EPOCH]  # the slot now holds a card of this stock
    sc[S_TOP], sc[S_END], sc[S_NPILE] = top + 1, end, npile
    if tracing:
        tr.emit(trace, EV_DRAW, seat, hands[seat, slot], 0, 0)
    sc[S_SEAT] = next_active(seat, sc[S_DIR], active)


@njit(cache=True, _nrt=False, inline="always")
def settle(params, ws, out, seat, trace, tracing):
    """``seat`` went over: pays a chip, or is out if it has none left; the deal passes on."""
    chips, active, position, sc = ws.chips, ws.active, ws.position, ws.sc
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
    chips, active, sc = ws.chips, ws.active, ws.sc
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


# ---- Monte Carlo rollouts (the sampler: sampler.py) ----------------------------------------------

@njit(cache=True, inline="always")
def choose_base(users, sid, ws, seat, legal, n):
    """The move of ``mc``'s base strategy ``sid`` for ``seat`` on bundle ``ws`` (its legal
    moves ``legal[:n]``, its PLAY stream): a built-in by id, or the user slot ``-1 - sid``.

    A user base's move outside the legal set raises ValueError(ILLEGAL_MARK, ...)
    (``refuse_move``), which the caller's guard reports in one line: a rollout has no
    ``err`` row to fill."""
    hands, sc = ws.hands, ws.sc
    if sid == st.HEURISTIC:
        return st.heuristic_move(hands, seat, sc[S_TOTAL], legal, n)
    if sid >= 0:
        return st.random_move(legal, n, ws.play_rng)
    fill_view(ws.seat_view, seat, sc, hands, ws.pile, ws.chips, ws.active)
    move = users[-1 - sid](ws.seat_view, user_legal(legal, n, ws.user_legal), n, ws.play_rng)
    if not is_in(move, legal, n):
        refuse_move(move, seat, legal, n)
    return move


@njit(cache=True, _nrt=False, inline="always")
def rollout_turns(users, base, ws, trace):
    """Play the round on with every seat using base strategy ``base``; the seat that goes over."""
    hands, legal, sc = ws.hands, ws.legal, ws.sc
    while True:
        seat = sc[S_SEAT]
        n = legal_moves(hands, seat, sc[S_TOTAL], legal)
        if n == 0:
            return seat
        apply_move(ws, choose_base(users, base, ws, seat, legal, n), trace, False)
        sc[S_DECISIONS] += 1


#: ``mc``'s ``rounds`` at or above this: every rollout plays to the end of the game
WHOLE_GAME = 1000


@njit(cache=True, _nrt=False, inline="always")
def horizon_value(params, ws, seat):
    """What the chip state is worth to ``seat`` when a rollout stops before the game ends:
    its share of the lives left (a life is a bust it can still take: chips + 1, or chips
    with ``out_at_zero_chips``); 1 if it alone is in, 0 if it is out (win or loss)."""
    if not ws.active[seat]:
        return 0.0
    spare = 0 if params[P_OUT_AT_ZERO] != 0 else 1
    mine, lives = 0.0, 0.0
    for s in range(ws.chips.shape[0]):
        if ws.active[s]:
            life = ws.chips[s] + spare
            lives += life
            if s == seat:
                mine = life
    return mine / lives


@njit(cache=True, _nrt=False, inline="always")
def rollout_value(params, users, base, roll, out, seat, rounds, future_seed, j, trace):
    """Play ``roll`` on with every seat using ``base``: the round to its end, then up to
    ``rounds - 1`` more rounds (all of them from WHOLE_GAME), each dealt from the stream
    ``(future_seed, j, round)``, never the game's own. Returns what it is worth to ``seat``:
    1 if it won, 0 if it is out, else ``horizon_value`` (one winner: Ninety-Nine has no draw).
    ``out`` (a scratch row) takes the bust and round counts of settle and deal_round."""
    sc = roll.sc
    played = 0
    while True:  # one call site of the inlined round (rollout_turns): compile time
        if played > 0:
            deal_round(future_seed, j, params, roll, out, trace, False)
        settle(params, roll, out, rollout_turns(users, base, roll, trace), trace, False)
        played += 1
        if not (sc[S_NACTIVE] > 1 and roll.active[seat] and (played < rounds or rounds >= WHOLE_GAME)):
            return horizon_value(params, roll, seat)


@njit(cache=True, _nrt=False, inline="always")
def sample_world(ws, search, seat, j):
    """Sample j of the hidden cards, in ``search.samp``: the hidden cards and the current stock
    from ``(play_rng[0], j, DEAL)``, the strategies' coin flips from ``(play_rng[1], j, PLAY)``;
    the game's own streams are left alone. Drawn once per sample, and each move's rollout
    starts from a copy (``rollouts``): the same sample for every move (common random
    numbers). Reads ``ws``, writes ``search.samp`` and ``search.hist``.

    With one deck ``mc_move`` has copied the rest of the state into ``samp`` (the rollouts
    leave it alone), and only what the class sampler reads and writes is copied here: the
    hands and the live stock."""
    play_rng, samp = ws.play_rng, search.samp
    one_deck = ws.stock.shape[0] == 52
    if one_deck:
        for s in range(ws.hands.shape[0]):
            for c in range(HAND_SIZE):
                samp.hands[s, c] = ws.hands[s, c]
        for i in range(ws.sc[S_TOP], ws.sc[S_END]):
            samp.stock[i] = ws.stock[i]
    else:
        copy_bundle(ws, samp)
    seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
    seed_stream(samp.play_rng, play_rng[1], j, PLAY)
    if one_deck:  # resample_hidden's one-deck case, without passing the history's work area
        resample_classes(samp, seat, samp.deal_rng)
    else:
        resample_hidden(samp, search.hist, seat, samp.deal_rng)


@njit(cache=True, _nrt=False, inline="always")
def rollouts(params, users, samp, roll, out, work, stats, seat, legal, n, first, j, base, rounds, future_seed,
             trace):
    """The rollouts of sample j of ``mc``'s search (``sample_world``, in ``samp``): the base's
    move ``first`` and every other legal move ``legal[:n]``, each played from a copy of
    ``samp`` in ``roll`` and on with ``rollout_value`` (the later rounds dealt from
    ``future_seed``); adds each other move's lead over ``first`` and its square to
    ``stats[0, i]`` and ``stats[1, i]``, and the moves played to ``work[1]``.

    Inlined into ``mc_move``: a call passes every array of the bundles as arguments, and
    calling the rollout once per move tried cost ``mc`` about 15% of its time (paired runs,
    2026-12-05). ``ismcts`` calls the rollout out of line (``rollout_value_apart``): two
    compiled copies of it, about 7 s of compile time each."""
    own = 0.0
    for i in range(-1, n):  # -1: the base's move first
        if i >= 0 and legal[i] == first:
            continue
        copy_for_rollout(samp, roll)
        before = roll.sc[S_DECISIONS]
        apply_move(roll, first if i < 0 else legal[i], trace, False)
        value = rollout_value(params, users, base, roll, out, seat, rounds, future_seed, j, trace)
        work[1] += 1 + roll.sc[S_DECISIONS] - before  # the move tried and the rollout's
        if i < 0:
            own = value
        else:
            stats[0, i] += value - own
            stats[1, i] += (value - own) * (value - own)


@njit(cache=True, _nrt=False)
def rollout_value_apart(params, users, base, roll, out, seat, rounds, future_seed, j, trace):
    """``rollout_value`` out of line: ``ismcts``'s, one compiled copy whatever its call sites."""
    return rollout_value(params, users, base, roll, out, seat, rounds, future_seed, j, trace)


#: ``mc`` leaves its base's move for another only when the other's mean lead over the K
#: paired samples is at least MC_MARGIN of its standard errors: the best of several noisy
#: estimates is biased upwards, and a move that only looks better is usually not.
#: Measured (3 players, k=16, rounds=1, 400 duplicate deals, share of the wins against
#: heuristic): margin 0 0.497, 1 0.547, 2 0.572, 3 0.533
MC_MARGIN = 2.0


@njit(cache=True, _nrt=False)
def mc_move(params, users, ws, search, seat, legal, n, k, base, rounds, trace):
    """``mc``: for K samples of the hidden cards, roll each legal move out with the base
    strategy for everyone (``rounds`` rounds, counting this one, the chip state then valued
    by ``horizon_value``; to the end of the game from WHOLE_GAME), the same sample and random
    numbers for every move. Plays the move of highest total value among those whose lead
    over the base strategy's own move is at least MC_MARGIN standard errors (paired over
    the samples); else the base's move. Uses ``search.mc_stats``."""
    first = choose_base(users, base, ws, seat, legal, n)
    if n == 1:
        # a lone legal move: nothing to compare it with, so no rollouts; the PLAY stream moves
        # on as after a search (the rollouts play on streams of their own), records unchanged
        next_u64(ws.play_rng)
        return first
    stats = search.mc_stats
    search.work[0] += 1
    for i in range(n):
        stats[0, i] = 0.0
        stats[1, i] = 0.0
    if ws.stock.shape[0] == 52:  # one deck: what no sample changes, once (sample_world)
        copy_for_rollout(ws, search.samp)
    for j in range(k):
        sample_world(ws, search, seat, np.int64(j))
        rollouts(params, users, search.samp, search.roll, search.out, search.work, stats, seat, legal, n, first,
                 np.int64(j), base, rounds, ws.play_rng[2], trace)
    best, best_lead = first, 0.0
    for i in range(n):
        lead = stats[0, i] / k
        spread = stats[1, i] / k - lead * lead
        if lead > best_lead and lead * lead * k >= MC_MARGIN * MC_MARGIN * spread:
            best, best_lead = legal[i], lead
    next_u64(ws.play_rng)  # fresh samples at the next decision
    return best


@njit(cache=True, _nrt=False)
def ismcts_move(params, users, ws, search, seat, legal, n, iterations, base, explore, rounds, trace):
    """``ismcts``: single-observer information-set MCTS (analyzer.ismcts) for ``seat``, its
    worlds played in bundle ``search.roll``, its tree ``search.tree``. Iteration j copies
    the state, redeals what the seat cannot see as ``mc``'s sample j does
    (``resample_hidden``; streams from the game's PLAY stream as ``sample_world`` seeds
    them), walks the tree playing every seat's moves by the
    rules in that world (UCB1, ``explore`` in hundredths) to the end of the round or a new
    node, plays on with ``rollout_value`` (``rounds`` rounds, the base strategy for all:
    ``rollout_value_apart``) and
    backs up each seat's ``horizon_value`` of the chip state then. Plays the root's most
    visited move; a single legal move is played without a search. Reads ``ws``; writes
    ``search`` (its ``roll``, ``tree``, ``hist``, ``out``) and draws once from the PLAY
    stream (fresh samples at the next decision)."""
    if n == 1:
        return legal[0]
    play_rng, roll, tree, hist = ws.play_rng, search.roll, search.tree, search.hist
    ismcts.reset(tree)
    c = explore / 100.0
    players = params[P_PLAYERS]
    for it in range(iterations):
        j = np.int64(it)
        copy_bundle(ws, roll)
        seed_stream(roll.deal_rng, play_rng[0], j, DEAL)
        seed_stream(roll.play_rng, play_rng[1], j, PLAY)
        resample_hidden(roll, hist, seat, roll.deal_rng)
        node, depth = np.int64(0), 1  # not a literal 0: descend is then compiled once, not twice
        tree.path[0] = 0
        while depth < tree.path.shape[0]:
            mover = roll.sc[S_SEAT]
            m = legal_moves(roll.hands, mover, roll.sc[S_TOTAL], tree.legal)
            if m == 0:  # the round is over: the mover went over
                break
            child, expanded = ismcts.descend(tree, node, m, mover, c, roll.play_rng)
            if child < 0:
                break
            tree.path[depth] = child
            depth += 1
            node = child
            apply_move(roll, tree.move[child], trace, False)
            if expanded:
                break
        rollout_value_apart(params, users, base, roll, search.out, seat, rounds, play_rng[2], j, trace)
        for s in range(players):
            tree.result[s] = horizon_value(params, roll, s)
        ismcts.back_up(tree, depth)
    next_u64(play_rng)
    return ismcts.most_visited(tree)


@njit(entry=True, cache=True)
def mc_decide(params, strat, ws, users, tier):
    """The move ``mc`` (``strat[seat]``: id, k, base, rounds) plays for the seat to move in
    bundle ``ws`` (a position: load_position / load_history), its PLAY stream as it is. For
    tests and diagnostics; writes ``ws.legal`` and advances ``ws.play_rng``."""
    seat = ws.sc[S_SEAT]
    n = legal_moves(ws.hands, seat, ws.sc[S_TOTAL], ws.legal)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    return search_move(params, strat, users, tier, seat, ws, search_workspace(params, strat, tier), ws.legal, n, trace)


@njit(cache=True)
def search_move(params, strat, users, tier, seat, ws, search, legal, n, trace):
    """The move of ``seat``'s search strategy (``strat[seat]``: ``mc``: id, k, base, rounds;
    ``ismcts``: id, iterations, base, explore, rounds)."""
    if len(tier) == 0:  # the base tier (engine.search_tier): no seat searches, and none is compiled
        return -1
    # ``n`` as int64: a caller's literal would type (and compile) the searches once more
    n = np.int64(n)
    if strat[seat, 0] == st.ISMCTS:
        return ismcts_move(params, users, ws, search, seat, legal, n, strat[seat, 1], strat[seat, 2],
                           strat[seat, 3], strat[seat, 4], trace)
    return mc_move(params, users, ws, search, seat, legal, n, strat[seat, 1], strat[seat, 2], strat[seat, 3],
                   trace)


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def choose_move(params, strat, users, tier, seat, ws, search, n, trace):
    """The move of ``seat``'s strategy: built-in by id, ``mc``, or a user slot."""
    hands, legal, view, play_rng, sc = ws.hands, ws.legal, ws.seat_view, ws.play_rng, ws.sc
    sid = strat[ix(seat), 0]
    if sid == st.RANDOM:
        return st.random_move(legal, n, play_rng)
    if sid == st.HEURISTIC:
        return st.heuristic_move(hands, seat, sc[S_TOTAL], legal, n)
    if sid >= st.SEARCH:
        return search_move(params, strat, users, tier, seat, ws, search, legal, n, trace)
    fill_view(view, seat, sc, hands, ws.pile, ws.chips, ws.active)
    # the strategy gets a copy of the legal moves (it could write to it): play_turns checks
    # the move against the engine's own list
    return users[-1 - sid](view, user_legal(legal, n, ws.user_legal), n, play_rng)


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, users, tier, ws, search, err, trace, tracing, forced):
    """Play the round on from the player to move (its first move ``forced`` if >= 0).

    Returns the seat that goes over, or -1 after an illegal user move (``err`` filled).
    """
    hands, legal, sc = ws.hands, ws.legal, ws.sc
    while True:
        seat = sc[S_SEAT]
        n = legal_moves(hands, seat, sc[S_TOTAL], legal)
        if n == 0:
            return seat
        if forced >= 0:
            move = forced
            forced = -1
        else:
            move = choose_move(params, strat, users, tier, seat, ws, search, n, trace)
        sc[S_DECISIONS] += 1
        # built-ins pick from ``legal`` by construction; only user moves are checked, against
        # ``legal`` made again after the strategy returned (choose_move): nothing indexes
        # with ``move`` before this check
        if strat[ix(seat), 0] < 0 and not is_in(move, legal, n):
            err[0], err[1], err[2] = sc[S_DECISIONS], seat, move
            if tracing:  # the error names the legal moves (records.illegal_move_message)
                tr.emit_refused(trace, seat, move, legal, n)
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, seat, move, hands[seat, slot_of_rank(hands, seat, MOVE_RANK[move])], 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(ws, move, trace, tracing)


@njit(cache=True, _nrt=False)
def play_rest(seed, index, params, strat, users, tier, ws, search, out, err, trace, tracing, forced, deal):
    """From the middle of a round (``deal``: from its deal): finish it, then play rounds
    until one player is left.

    Returns the seat that went over in the current round (-1 after an error).
    """
    sc = ws.sc
    first = -1
    # one call site of each inlined step (each call site is compiled again: compile time)
    while True:
        if deal:
            deal_round(seed, index, params, ws, out, trace, tracing)
        seat = play_turns(params, strat, users, tier, ws, search, err, trace, tracing, forced if first < 0 else -1)
        if seat < 0:
            return -1
        if first < 0:
            first = seat
        settle(params, ws, out, seat, trace, tracing)
        if sc[S_NACTIVE] <= 1:
            break
        deal = True
    finish(params, ws, out, trace, tracing)
    return first


@njit(cache=True, _nrt=False, inline="always")
def new_game(seed, index, params, ws, out, err):
    """Game ``index`` of the run ``seed`` before its first deal: its streams (DEAL, PLAY),
    every seat in with its chips, the first dealer drawn from the DEAL stream."""
    chips, active, sc = ws.chips, ws.active, ws.sc
    players = params[P_PLAYERS]
    seed_stream(ws.deal_rng, seed, index, DEAL)
    seed_stream(ws.play_rng, seed, index, PLAY)
    for s in range(players):
        chips[s] = params[P_CHIPS]
        active[s] = True
    out[:] = 0
    err[0] = -1
    sc[:] = 0
    sc[S_NACTIVE] = players
    sc[S_DEALER] = randbelow(ws.deal_rng, players)


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, users, tier, out, err, trace, tracing, ws, search):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    new_game(seed, index, params, ws, out, err)
    # ``forced`` and ``deal`` typed int64 and bool, not as literals: evaluate_block's and
    # exchange_block's calls then share this compiled play_rest (a literal argument compiles
    # a specialization of its own)
    play_rest(seed, index, params, strat, users, tier, ws, search, out, err, trace, tracing, np.int64(-1),
              np.bool_(True))


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi, users, tier):
    ws = workspace(params)
    search = search_workspace(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, search)
        if err[g, 0] >= 0:
            return


@njit(entry=True, cache=True)
def mc_work(seed, start, params, strat, out, err, work, users, tier):
    """For scripts/bench_mc.py only: games ``start ..`` as ``run_block`` plays them (one block,
    ``out``/``err`` rows), with a seat of ``strat`` playing ``mc``; then ``work`` gets ``mc``'s
    decisions and the moves played in their rollouts (``SearchSpace.work``)."""
    ws = workspace(params)
    search = search_workspace(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(out.shape[0]):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, search)
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
    play_game(seed, index, params, strat, users, tier, out_row, err_row, trace, True, workspace(params),
              search_workspace(params, strat, tier))


# ---- first deals, played as dealt and with two cards exchanged (paired studies) ----------------

@njit(cache=True, _nrt=False)
def first_deal(seed, index, params, ws, out, err, trace):
    """Bundle ``ws`` at the first deal of game ``index`` of the run ``seed``, exactly as
    ``play_game`` deals it (same streams, dealer and cards); nothing played yet."""
    new_game(seed, index, params, ws, out, err)
    deal_round(seed, index, params, ws, out, trace, False)


@njit(entry=True, cache=True)
def first_deals(seed, start, params, hands, stock):
    """The first deals of games ``start .. start + len(hands) - 1`` (``first_deal``).

    Writes hands int64[n, P, 3] (card codes per seat and slot) and stock int64[n, 52 D] (the
    stock array as dealt: ``stock[i, 3 P:]`` is still to be drawn, in array order; the
    lazy shuffle draws its positions, whatever cards they hold, in the same order)."""
    ws = workspace(params)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    err = np.full(4, -1, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for i in range(hands.shape[0]):
        first_deal(seed, start + i, params, ws, out, err, trace)
        hands[i, :, :] = ws.hands
        stock[i, :] = ws.stock


@njit(cache=True, _nrt=False, inline="always")
def exchange(ws, a, b):
    """Exchange the cards at places ``a`` and ``b`` of the deal: place ``p < 3 P`` is slot
    ``p % 3`` of seat ``p // 3``, place ``p >= 3 P`` is ``stock[p - 3 P]``. ``a == b``: no
    change."""
    room = ws.hands.shape[0] * HAND_SIZE
    ca = ws.hands[ix(a // HAND_SIZE), ix(a % HAND_SIZE)] if a < room else ws.stock[ix(a - room)]
    cb = ws.hands[ix(b // HAND_SIZE), ix(b % HAND_SIZE)] if b < room else ws.stock[ix(b - room)]
    if a < room:
        ws.hands[ix(a // HAND_SIZE), ix(a % HAND_SIZE)] = cb
    else:
        ws.stock[ix(a - room)] = cb
    if b < room:
        ws.hands[ix(b // HAND_SIZE), ix(b % HAND_SIZE)] = ca
    else:
        ws.stock[ix(b - room)] = ca


@njit(cache=True)
def exchange_block(seed, start, params, strat, swaps, result, lo, hi, users, tier):
    ws = workspace(params)
    search = search_workspace(params, strat, tier)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    err = np.full(4, -1, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for i in range(lo, hi):
        for a in range(swaps.shape[1]):
            if swaps[i, a, 0] < 0:
                result[i, a, 0], result[i, a, 1] = -1, 0
                continue
            # the same deal, stock order and play streams for every arm (common random numbers)
            first_deal(seed, start + i, params, ws, out, err, trace)
            exchange(ws, swaps[i, a, 0], swaps[i, a, 1])
            result[i, a, 0] = play_rest(seed, start + i, params, strat, users, tier, ws, search, out, err, trace,
                                        False, np.int64(-1), np.bool_(False))
            result[i, a, 1] = out[0]


@in_blocks("swaps", "result")
@njit(entry=True, nogil=True, cache=True)
def exchange_chunk(seed, start, params, strat, swaps, result, nblocks, users, tier):
    """Games ``start .. start + len(swaps) - 1`` played from their first deal once per arm:
    arm ``a`` of game i exchanges the cards at places ``swaps[i, a]`` (``exchange``; a place
    with itself: as dealt; ``swaps[i, a, 0] < 0``: arm unused) and plays the game to its end.

    Reads swaps int64[n, arms, 2]; writes result int64[n, arms, 2]: the seat that went over
    in the first round (-1: unused arm, or an illegal user move) and the winners' bit mask.
    Each game draws only from its own streams: any ``nblocks`` gives the same result."""
    n = swaps.shape[0]
    for b in range(nblocks):
        exchange_block(seed, start, params, strat, swaps, result, b * n // nblocks, (b + 1) * n // nblocks, users,
                       tier)


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def _start_round(params, ws, dealer, chips, active):
    """A bundle at the start of a round dealt by ``dealer``: chips and who is in from the
    position, every hand and the stock placeholders (the deal's cards in deck order)."""
    hands, stock, sc = ws.hands, ws.stock, ws.sc
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    sc[:] = 0
    sc[S_DEALER], sc[S_DIR], sc[S_ROUNDS] = dealer, 1, 1
    nactive = 0
    for s in range(players):
        ws.chips[s] = chips[s]
        ws.active[s] = active[s]
        nactive += 1 if active[s] else 0
    sc[S_NACTIVE] = nactive
    for i in range(ncards):
        stock[i] = i % 52
    top = 0
    for s in range(players):
        for c in range(HAND_SIZE):
            ws.slab[s, c] = 0
            hands[s, c] = stock[top] if active[s] else 0
            top += 1 if active[s] else 0
    sc[S_TOP], sc[S_END] = top, ncards
    sc[S_SEAT] = next_active(dealer, 1, ws.active)
    s = dealer
    for p in range(nactive):  # positions clockwise from the dealer
        ws.position[s] = p
        s = next_active(s, 1, ws.active)


@njit(entry=True, cache=True)
def load_position(params, ws, seat, dealer, total, direction, chips, active, hand, pile, stock_left):
    """Set a bundle to a position given without its history: the seat's hand, the pile since
    the last rebuild, and the hidden cards pooled (who played what is unknown: the play log is
    marked lost, so every hidden card is equally likely anywhere; sampler.resample_pooled)."""
    hands, stock, sc = ws.hands, ws.stock, ws.sc
    players = params[P_PLAYERS]
    ncards = 52 * params[P_DECKS]
    _start_round(params, ws, dealer, chips, active)
    count = np.zeros(52, dtype=np.int64)
    for c in range(ncards):
        count[c % 52] += 1
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
    sc[S_TOTAL], sc[S_DIR], sc[S_SEAT], sc[S_NLOG] = total, direction, seat, -1
    k = 0
    for s in range(players):
        for c in range(HAND_SIZE):
            if s == seat:
                hands[s, c] = hand[c]
            elif active[s]:
                hands[s, c] = unknown[k]
                k += 1
    for i in range(pile.shape[0]):
        ws.pile[i] = pile[i]
    sc[S_NPILE] = pile.shape[0]
    # the stock: the rest of the unknown cards (its order is resampled anyway)
    sc[S_TOP] = 0
    sc[S_END] = min(stock_left, n - k) if stock_left >= 0 else n - k
    for i in range(sc[S_END]):
        stock[i] = unknown[k + i]


@njit(cache=True)
def totals_bits(reach, err):
    """``err[3]``, ``err[4]``: the totals marked in ``reach`` (bool[100]) as bits, 0..62 in the
    first, 63..99 in the second (codes.TOTAL_BITS_SPLIT)."""
    err[3], err[4] = 0, 0
    for t in range(LIMIT + 1):
        if reach[t]:
            if t < TOTAL_BITS_SPLIT:
                err[3] |= np.int64(1) << t
            else:
                err[4] |= np.int64(1) << (t - TOTAL_BITS_SPLIT)


@njit(cache=True)
def totals_after(reach, card, after):
    """``after`` (bool[100]): the totals a legal play of ``card`` leads to from those marked in
    ``reach``, each of its moves (an ace or a ten has two) where the rules allow it
    (``LEGAL_AT``); how many."""
    rank = RANK_OF[card]
    after[:] = False
    n = 0
    for t in range(LIMIT + 1):
        if reach[t]:
            for move in range(RANK_FIRST_MOVE[rank], RANK_FIRST_MOVE[rank] + RANK_MOVE_COUNT[rank]):
                if (LEGAL_AT[t] >> move) & 1:
                    n += 0 if after[total_after(t, move)] else 1
                    after[total_after(t, move)] = True
    return n


@njit(entry=True, cache=True)
def load_history(params, ws, seat, dealer, chips, active, hand, history, total, err):
    """Set a bundle to the position after ``history`` (every card played this round, oldest
    first) seen by ``seat``, replaying the cards through the engine (``play_slot``): who played
    each, the direction, the rebuilds of the stock, the pile; then the seat's ``hand`` and the
    pile ``total``, and the hidden cards placed where they can be (a consistent deal).

    The total is not replayed (a card does not say how its ace or ten counted): the totals
    the history can leave are followed from 0 instead, every legal way of counting each card.
    ``total`` must be one of them; TOTAL_FROM_HISTORY takes the one it leaves.

    ``err`` (int64[5]) stays ``[0, ..]`` if the history is possible, else names the first
    problem (codes.E_*): every copy of a card already on the pile; a card that passes 99
    whatever the aces and tens before it counted; with one deck a card another seat cannot
    hold (it was in a stock that seat holds no card from) or a stock's hidden cards that do
    not fit its places; another seat to move at the end; a total the history cannot leave
    (or none given, and several it can); with several decks no consistent deal of the
    hidden cards (sampler.resample_history).
    """
    hands, pile, sc, slab = ws.hands, ws.pile, ws.sc, ws.slab
    decks = params[P_DECKS]
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    err[:] = 0
    _start_round(params, ws, dealer, chips, active)
    seed_stream(ws.deal_rng, np.uint64(0), 0, DEAL)  # the replay's draws are placeholders
    last_stock = np.zeros(52, dtype=np.int64)  # one deck: the last stock each card went into
    if history.shape[0] > LOG_CAP:
        err[0], err[1], err[2] = E_TOO_LONG, -1, LOG_CAP
        return
    reach = np.zeros(LIMIT + 1, dtype=np.bool_)  # the totals the plays so far can leave
    reach[0] = True  # every round starts at 0
    after = np.zeros(LIMIT + 1, dtype=np.bool_)
    for i in range(history.shape[0]):
        card = history[i]
        mover = sc[S_SEAT]
        if totals_after(reach, card, after) == 0:
            err[0], err[1], err[2] = E_OVER, i, card
            totals_bits(reach, err)
            return
        reach[:] = after
        copies = 0
        for k in range(sc[S_NPILE]):
            copies += 1 if pile[k] == card else 0
        if copies >= decks:
            err[0], err[1], err[2] = E_ON_PILE, i, card
            return
        slot = 0
        if decks == 1 and mover != seat:
            # the card came from the last stock it was in: a slot drawn from that stock
            slot = -1
            for c in range(HAND_SIZE):
                if slot < 0 and slab[mover, c] == last_stock[card]:
                    slot = c
            if slot < 0:
                err[0], err[1], err[2], err[3], err[4] = E_NO_SLOT, i, card, last_stock[card], mover
                return
        if sc[S_TOP] == sc[S_END]:  # this play rebuilds the stock from the pile before it
            for k in range(sc[S_NPILE]):
                last_stock[pile[k]] = sc[S_EPOCH] + 1
        hands[mover, slot] = card
        play_slot(ws, slot, RANK_FIRST_MOVE[RANK_OF[card]], trace, False)
    if sc[S_SEAT] != seat:
        err[0], err[1], err[2] = E_TURN, -1, sc[S_SEAT]
        return
    if total == TOTAL_FROM_HISTORY:
        count = 0
        for t in range(LIMIT + 1):
            if reach[t]:
                total, count = t, count + 1
        if count > 1:  # its aces and tens count either way: the position must say the total
            err[0], err[1], err[2] = E_TOTAL, -1, TOTAL_FROM_HISTORY
            totals_bits(reach, err)
            return
    if not reach[total]:
        err[0], err[1], err[2] = E_TOTAL, -1, total
        totals_bits(reach, err)
        return
    for c in range(HAND_SIZE):
        hands[seat, c] = hand[c]
    sc[S_TOTAL] = total
    if decks == 1:
        _place_classes(ws, seat, last_stock, err)
    else:
        rng = np.zeros(4, dtype=np.uint64)
        seed_stream(rng, np.uint64(0), 0, DEAL)
        if not resample_hidden(ws, scratch(params[P_PLAYERS], 52 * decks), seat, rng):
            err[0], err[1] = E_NO_DEAL, -1


@njit(cache=True)
def _place_classes(ws, seat, last_stock, err):
    """One deck: put every hidden card in a place of its class (the last stock it went into:
    the other hands' slots drawn from that stock, and the stock itself for the current one).
    Where in its class a card starts does not matter (sampler.resample_classes shuffles each).
    ``err`` = [E_CLASS_COUNT, -1, stock, cards, places] if a class does not fill its places."""
    hands, stock, active, sc, slab = ws.hands, ws.stock, ws.active, ws.sc, ws.slab
    seen = np.zeros(52, dtype=np.bool_)
    for c in range(HAND_SIZE):
        seen[hands[seat, c]] = True
    for k in range(sc[S_NPILE]):
        seen[ws.pile[k]] = True
    epoch = sc[S_EPOCH]
    for j in range(epoch + 1):
        cards = np.empty(52, dtype=np.int64)
        n = 0
        for c in range(52):
            if not seen[c] and last_stock[c] == j:
                cards[n] = c
                n += 1
        room = 0
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(HAND_SIZE):
                    room += 1 if slab[s, c] == j else 0
        if j == epoch:
            room += sc[S_END] - sc[S_TOP]
        if n != room:
            err[0], err[1], err[2], err[3], err[4] = E_CLASS_COUNT, -1, j, n, room
            return
        k = 0
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(HAND_SIZE):
                    if slab[s, c] == j:
                        hands[s, c] = cards[k]
                        k += 1
        if j == epoch:
            for i in range(sc[S_TOP], sc[S_END]):
                stock[i] = cards[k]
                k += 1


@njit(entry=True, cache=True)
def legal_now(ws):
    """The legal moves of the seat to move: writes ``ws.legal``, returns how many."""
    return legal_moves(ws.hands, ws.sc[S_SEAT], ws.sc[S_TOTAL], ws.legal)


#: samplers ``sample_hidden`` can use: the bundle's own (sampler.resample_hidden), or the
#: history sampler whatever the decks (a cross-check of it on one deck)
SAMPLER_OWN, SAMPLER_HISTORY = 0, 1


@njit(cache=True)
def sample_hidden(ws, seat, seed, n, hands_out, stock_out, method):
    """``n`` samples of what ``seat`` cannot see, as evaluation draws them (sample j from the
    stream (seed, j, DEAL)): ``hands_out[j]`` the hands (int64[P, 3]), ``stock_out[j]`` the
    stock cards (``stock[top:end]``). Returns how many samples succeeded. For tests and
    diagnostics."""
    work = workspace_like(ws)
    hist = scratch(ws.hands.shape[0], ws.stock.shape[0])
    rng = np.zeros(4, dtype=np.uint64)
    done = 0
    for j in range(n):
        copy_bundle(ws, work)
        seed_stream(rng, seed, j, DEAL)
        ok = (resample_history(work, hist, seat, rng) if method == SAMPLER_HISTORY
              else resample_hidden(work, hist, seat, rng))
        done += 1 if ok else 0
        for s in range(ws.hands.shape[0]):
            for c in range(HAND_SIZE):
                hands_out[j, s, c] = work.hands[s, c]
        for i in range(ws.sc[S_TOP], ws.sc[S_END]):
            stock_out[j, i - ws.sc[S_TOP]] = work.stock[i]
    return done


@njit(cache=True)
def workspace_like(ws):
    """A bundle of the same shapes as ``ws``."""
    params = np.zeros(4, dtype=np.int64)
    params[P_PLAYERS] = ws.hands.shape[0]
    params[P_DECKS] = ws.stock.shape[0] // 52
    return workspace(params)


@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi, users, tier):
    ws = workspace(params)
    search = search_workspace(params, strat, tier)
    sample = workspace(params)
    hist = scratch(params[P_PLAYERS], 52 * params[P_DECKS])
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(3 + 4 * params[P_PLAYERS], dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        copy_bundle(base_ws, sample)
        seed_stream(sample_rng, seed, start + j, DEAL)
        resample_hidden(sample, hist, seat, sample_rng)
        for i in range(options.shape[0]):
            copy_bundle(sample, ws)
            seed_stream(ws.deal_rng, seed, start + j, hand_purpose(0))
            seed_stream(ws.play_rng, seed, start + j, PLAY)
            out[:] = 0
            busted = play_rest(seed, start + j, params, strat, users, tier, ws, search, out, err, trace, False,
                               options[i], np.bool_(False))
            result[j, i, 0] = 1 if busted == seat else 0
            result[j, i, 1] = (out[0] >> seat) & 1


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks, users, tier):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [went over this round, won the game] per sample and option.
    """
    n = result.shape[0]
    for b in range(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks, users, tier)
