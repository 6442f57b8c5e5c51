"""10-Point Pitch play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a *bundle* (``workspace``), a ``Bundle`` (NamedTuple) of arrays whose
fields are described there; its scalar registers ``sc`` are indexed by the ``S_*`` codes
(codes.py). ``MCWork`` is the scratch of the ``mc`` strategy.
A hand moves through phases (S_PHASE): bid, trump, give, discard, play, done. The rules
live once, in ``start_hand`` (deal) and ``apply_move`` (a decision and everything
automatic that follows it: refill, the rest of the stock, tricks, scoring). Two drivers
choose the moves: ``play_turns`` (any strategy: games, records, Monte Carlo, evaluation)
and ``rollout_turns`` (built-in base strategies only: what ``mc`` rolls out with; keeping
it apart avoids a recursive call graph, which numba does not compile reliably), with its
twin ``user_rollout_turns`` for a user strategy as the base (``mc:base=file.py:f``).
A position to evaluate is set up by ``load_position``: it replays the position's public
history through these same rules (legal moves from ``decision``, effects from
``apply_move`` and its helpers) and reports the first impossible fact as a code (codes.E_*).

Out row columns (spec.extra_columns): winners (both partners' bits), hands (rounds),
decisions, score_s (the final score of seat s's team), then per round counts summed
over the game: bids_4..bids_10, bids_moon (winning bids), made_4..made_moon (the
pitcher's team made it), taken_0/1 (points each team took), pitched_0/1, made_team_0/1,
stuck (rounds the dealer was stuck with 4), lost_points (points discarded unplayed).

User strategy view: the layout is ``view.py`` (named offsets, imported here as ``vw``;
``fill_view`` writes it). A user strategy is ``f(view, legal, n, rng) -> move code``.

Monte Carlo (``mc``, strategy row ``[MC, k, base, 0]``): at each of its decisions, K
samples (4K for bid and trump decisions) of the hidden cards (``resample_hidden``, exact conditional sampling described
there), each legal move rolled out to the end of the hand with the base strategy for
every seat, the same sample and the same random numbers for every move (common random
numbers); it plays the move with the best mean of (own team's score change - the other
team's), a made moon that wins the game counting +target and a missed moon -target. The
base is a built-in id or a user slot (``base < 0``: ``users[-1 - base]``, asked by
``user_base_move`` with the view a user seat gets).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer import ismcts
from analyzer import trace as tr
from analyzer.bits import lowest, popcount
from analyzer.blocks import in_blocks
from analyzer.slots import refuse_move
from analyzer.games.pitch10 import strategies as st
from analyzer.games.pitch10 import view as vw
from analyzer.games.pitch10.codes import *  # noqa: F403 (EV_*, KIND_*, PH_*, S_*, E_*, moves: codes.py)
from analyzer.games.pitch10.met import MET, MET_DIST
from analyzer.games.pitch10.rules import (
    CARD_AT,
    FULL16,
    POINTS16,
    STRENGTH,
    TRUMP54,
    bid_options,
    dealer_stuck,
    first_with_trumps,
    game_winner,
    low_bit,
    refill_need,
    rest_receiver,
    score_round,
    trumps_of,
)
from analyzer.games.pitch10.solver import STACK_ROWS, STACK_WIDTH, solve_moves_on
from analyzer.jit import njit
from analyzer.rng import (DEAL, PLAY, draw_lazy, draw_lazy_w, load_words, next_u64, preview_into, randbelow,
                          randbelow_w, seed_stream, store_words)

#: stream purpose of the deal stream of evaluation rollouts (rng: DEAL 0, PLAY 1, HAND 16+)
ROLL_DEAL = 2

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

#: the entry points that take the user strategy slots as their last but one argument ``users``: a
#: tuple of engine.SLOTS compiled functions ``(view, legal, n, rng) -> move`` (engine.SlotKernel);
#: a seat with strategy id ``sid < 0`` plays ``users[-1 - sid]``
USER_ENTRIES = ("run_chunk", "run_traced", "evaluate_chunk", "bid_table_chunk", "mc_work")
#: a user slot can be the base of ``mc`` and ``pimc`` (``mc:base=file.py:f``): ``user_base_move``
#: picks its moves (mc's rollouts: ``user_rollout_turns``; pimc's bids to discards and its ties)
USER_BASES = True
#: the entry points take the compile tier after ``users`` (engine.search_tier): strategy ids
#: from here on are search strategies, compiled only into the kernels' search tier
SEARCH_FROM = st.SEARCH

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


#: BYTE_CARDS[t, half, b]: the 54-bit card mask of the strengths ``8 * half + k`` for the bits k of
#: byte ``b`` when ``t`` is trump (cards_of16 in two loads, not 16 tests: user strategies' views
#: need it at every decision)
BYTE_CARDS = np.zeros((4, 2, 256), dtype=np.int64)
for _k in range(8):  # by numpy, not 16k Python steps at import
    _has = (np.arange(256) >> _k) & 1 == 1
    BYTE_CARDS[:, :, _has] |= (np.int64(1) << CARD_AT.reshape(4, 2, 8)[:, :, _k])[:, :, None]


@njit(cache=True, _nrt=False, forceinline=True)
def cards_of16(h16, trump):
    """A strength mask (16 bits) as a 54-bit card mask."""
    return BYTE_CARDS[trump, 0, h16 & 255] | BYTE_CARDS[trump, 1, (h16 >> 8) & 255]


class Bundle(NamedTuple):
    """The state of one game (numba compiles a NamedTuple like a tuple: fields by name, no cost)."""

    deck: np.ndarray      # int64[54]: the shuffled deck, drawn lazily (rng.draw_lazy): 36 cards dealt,
    #                       deck[sc[S_TOP]:54] is what is left of the stock
    legal: np.ndarray     # int64[16]: legal move codes of the current decision (``decision``)
    user_view: np.ndarray  # int64[view.VIEW_SIZE]: what a user strategy sees (``fill_view``; a field
    #                        named ``view`` would clash with numba's ndarray.view check)
    h54: np.ndarray       # int64[4]: the nine cards dealt to each seat (54-bit masks)
    h16: np.ndarray       # int64[4]: trumps each seat holds once trump is named (strength masks)
    bids: np.ndarray      # int64[4]: each seat's bid this hand (-1 not yet, 0 pass, 4..10, MOON)
    received: np.ndarray  # int64[4]: cards each seat was dealt in the refill (-1 before it)
    tmp: np.ndarray       # int64[64]: scratch (trace lists, the sampler's pool)
    trick: np.ndarray     # int64[4]: card each seat played to the current trick (-1 none)
    scores: np.ndarray    # int64[2]: per team
    taken: np.ndarray     # int64[2]: points each team took this hand
    deal_rng: np.ndarray  # uint64[4]: the deal stream
    play_rng: np.ndarray  # uint64[4]: the strategies' stream
    sc: np.ndarray        # int64[N_SC]: scalar registers, indexed by the S_* codes
    played: np.ndarray    # int64[4]: trumps each seat played this hand (strength masks)
    disc: np.ndarray      # int64[4]: trumps each seat discarded this hand (strength masks)
    got54: np.ndarray     # int64[5]: refill cards dealt to each seat (54-bit), [4] the rest of the stock
    scratch: np.ndarray   # uint64[4]: for trace previews of the stock


#: the ``pimc`` strategy's transposition table: 2**PIMC_TT_BITS rows of 3 int64 (1.5 MiB) per
#: block of games with a pimc seat (2 rows without one); its entries stay valid for every deal
PIMC_TT_BITS = 16


class SearchArrays(NamedTuple):
    """What ``pimc`` solves in (``pimc_move``; solver.solve_moves_on), allocated once per block."""

    tt: np.ndarray        # int64[2**PIMC_TT_BITS, 3]: the solver's transposition table
    stack: np.ndarray     # int64[solver.STACK_ROWS, solver.STACK_WIDTH]: its search stack
    moves: np.ndarray     # int64[16]: one solve's cards (strengths, low to high)
    values: np.ndarray    # int64[16]: and their values (points of the seat's team)


class MCWork(NamedTuple):
    """Scratch of the ``mc`` and ``pimc`` strategies (``mc_move``, ``pimc_move``)."""

    roll: Bundle          # the state of one rollout
    samp: Bundle          # the sampled state all the moves of one sample start from
    out: np.ndarray       # int64[N_COLUMNS]: a scratch out row
    trace: np.ndarray     # int64[1, trace.WIDTH]: a trace buffer (never written: tracing off)
    totals: np.ndarray    # int64[16]: summed value per legal move
    search: SearchArrays  # pimc: the solver's arrays (the table full size only with a pimc seat)
    tree: tuple           # ismcts: its analyzer.ismcts.Tree (iterations + 1 nodes; 2 without an ismcts seat)
    future: np.ndarray    # ismcts: float64[FUTURE_KEYS], team 0's win share by the hand's score changes
    fw: np.ndarray        # float64[WEIGHT_ROWS, 17]: the Monte Carlo sampler's weights (``prepare_hidden``)
    work: np.ndarray      # int64[2]: ``mc``'s decisions searched and the moves of their rollouts (``mc_work``)


@njit(entry=True, cache=True)
def workspace(params):
    """One state bundle (``Bundle``), allocated once per block of games."""
    return Bundle(np.zeros(NCARDS, dtype=np.int64), np.zeros(16, dtype=np.int64),
                  np.zeros(vw.VIEW_SIZE, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
                  np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(64, dtype=np.int64),
                  np.zeros(4, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64),
                  np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(N_SC, dtype=np.int64),
                  np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(5, dtype=np.int64),
                  np.zeros(4, dtype=np.uint64))


#: rows of the Monte Carlo sampler's weights (``prepare_hidden``: float64[WEIGHT_ROWS, 17])
WEIGHT_ROWS = 10


@njit(entry=True, cache=True)
def sampler_weights():
    """Room for the Monte Carlo sampler's weights (``prepare_hidden`` writes them, ``draw_hidden``
    reads them). Apart from the ``Bundle``: the play loop takes every array of a bundle as an
    argument at each call, and without this one random play was 6% faster (paired runs,
    2026-12-04)."""
    return np.zeros((WEIGHT_ROWS, 17), dtype=np.float64)


@njit(entry=True, cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``) but the scratch arrays (``user_view``, ``tmp``,
    ``scratch``)."""
    for a, b in ((src.deck, dst.deck), (src.legal, dst.legal), (src.h54, dst.h54), (src.h16, dst.h16),
                 (src.bids, dst.bids), (src.received, dst.received), (src.trick, dst.trick),
                 (src.scores, dst.scores), (src.taken, dst.taken), (src.sc, dst.sc), (src.played, dst.played),
                 (src.disc, dst.disc), (src.got54, dst.got54)):
        for i in range(a.shape[0]):
            b[i] = a[i]
    for j in range(4):
        dst.deal_rng[j] = src.deal_rng[j]
        dst.play_rng[j] = src.play_rng[j]


@njit(cache=True, _nrt=False)
def fill_view(ws, seat, kind, params):
    """Write ``ws.user_view``, what ``seat`` sees at its decision of ``kind`` (layout: view.py);
    reads the bundle, nothing hidden from the seat."""
    view, h54, h16, bids, received, trick, scores, taken, sc = (ws.user_view, ws.h54, ws.h16, ws.bids, ws.received,
                                                                 ws.trick, ws.scores, ws.taken, ws.sc)
    trump = sc[S_TRUMP]
    view[vw.SEAT] = seat
    view[vw.KIND] = kind
    view[vw.DEALER] = sc[S_DEALER]
    view[vw.PITCHER] = sc[S_PITCHER] if kind != KIND_BID else -1
    view[vw.HIGH] = sc[S_HIGH]
    view[vw.TRUMP] = trump if kind >= KIND_GIVE else -1
    view[vw.HAND] = h54[seat] if kind <= KIND_TRUMP else cards_of16(h16[seat], trump)
    view[vw.SEEN] = cards_of16(sc[S_SEEN], trump) if kind == KIND_PLAY else 0
    for s in range(4):
        view[vw.TRICK + s] = trick[s]
        view[vw.RECEIVED + s] = received[s]
        view[vw.BIDS + s] = bids[s]
    view[vw.LEADER] = sc[S_LEADER] if kind == KIND_PLAY else -1
    for t in range(2):
        view[vw.SCORES + t] = scores[t]
        view[vw.TAKEN + t] = taken[t]
    view[vw.REST] = NCARDS - sc[S_TOP] if kind == KIND_GIVE else 0
    view[vw.TARGET] = params[P_TARGET]


@njit(cache=True, _nrt=False, forceinline=True)
def is_in(move, legal, n):
    for i in range(n):
        if legal[i] == move:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def trump_legal(h16, trump, legal):
    """The trumps held, as card codes (low to high strength); returns how many. Visits
    the set bits only (a bit scan each)."""
    n = 0
    m = h16
    while m:
        legal[n] = CARD_AT[trump, lowest(m)]
        n += 1
        m &= m - 1
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
def open_hand(ws):
    """A new hand before the deal: every per-hand array cleared, the deck in order, the
    bidding open (left of the dealer ``sc[S_DEALER]`` bids first). Writes the bundle but
    ``h54`` stays empty: ``start_hand`` deals, ``load_position`` sets the seat's own cards."""
    deck, h54, h16, bids, received, trick, taken = ws.deck, ws.h54, ws.h16, ws.bids, ws.received, ws.trick, ws.taken
    sc, played, disc, got54 = ws.sc, ws.played, ws.disc, ws.got54
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
    sc[S_TOP] = DEALT
    sc[S_PHASE] = PH_BID
    sc[S_TURN] = 0
    sc[S_HIGH] = 0
    sc[S_PITCHER] = -1
    sc[S_TRUMP] = -1
    sc[S_SEAT] = (sc[S_DEALER] + 1) & 3
    sc[S_SEEN] = 0
    sc[S_REST_TO] = -1
    sc[S_REST_N] = 0
    sc[S_LEADER] = -1
    sc[S_ALIVE] = 0


@njit(cache=True, _nrt=False)
def start_hand(ws, out, trace, tracing):
    """Deal hand ``sc[S_HANDS] + 1`` (nine cards each, one at a time from left of the
    dealer, from the game's deal stream) and open the bidding."""
    deck, h54, tmp, deal_rng, sc = ws.deck, ws.h54, ws.tmp, ws.deal_rng, ws.sc
    sc[S_HANDS] += 1
    open_hand(ws)
    dealer = sc[S_DEALER]
    s = dealer
    # the deal stream held as words (rng.load_words): as an array it would be read again after
    # every store to the deck (numba tells LLVM nothing about aliasing)
    words = load_words(deal_rng)
    for i in range(DEALT):
        s = (s + 1) & 3
        c, words = draw_lazy_w(deck, i, NCARDS, words)
        h54[s] |= np.int64(1) << c
    store_words(deal_rng, words)
    if tracing:
        tr.emit(trace, EV_DEAL, sc[S_HANDS], dealer, 0, 0)
        for p in range(4):
            emit_mask(trace, p, h54[p], tmp)
        tr.emit_list(trace, TAG_STOCK, tmp, preview_into(deck, DEALT, NCARDS, deal_rng, tmp, ws.scratch))


@njit(cache=True, _nrt=False, forceinline=True, entry=True)  # spec.py reads a position's decision from Python too
def decision(ws, fill):
    """(seat, kind, number of legal moves) of the current decision; ``legal`` is written
    for bids, trumps and give always, for discards and plays only when ``fill``."""
    legal, h16, sc = ws.legal, ws.h16, ws.sc
    ph = sc[S_PHASE]
    seat = sc[S_SEAT]
    if ph == PH_BID:
        return seat, KIND_BID, bid_options(sc[S_HIGH], dealer_stuck(sc[S_TURN], sc[S_HIGH]), legal)
    if ph == PH_TRUMP:
        for t in range(4):
            legal[t] = MOVE_TRUMP0 + t
        return seat, KIND_TRUMP, 4
    if ph == PH_GIVE:
        legal[0] = MOVE_KEEP
        legal[1] = MOVE_GIVE
        return seat, KIND_GIVE, 2
    if fill:
        trump_legal(h16[seat], sc[S_TRUMP], legal)
    return seat, (KIND_DISCARD if ph == PH_DISCARD else KIND_PLAY), popcount(h16[seat])


@njit(cache=True, _nrt=False, forceinline=True)
def start_trick(ws, leader):
    trick, h16, sc = ws.trick, ws.h16, ws.sc
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


@njit(cache=True, _nrt=False, forceinline=True)
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
    h16, sc = ws.h16, ws.sc
    while sc[S_TURN] < 4:
        s = (sc[S_DEALER] + 1 + sc[S_TURN]) & 3
        if popcount(h16[s]) > KEEP:
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
    scores, taken, sc, trick = ws.scores, ws.taken, ws.sc, ws.trick
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


@njit(cache=True, _nrt=False)
def name_trump(ws, trump):
    """The pitcher names ``trump``: every seat keeps only its trumps (``h16`` from ``h54``)."""
    h54, h16, sc = ws.h54, ws.h16, ws.sc
    sc[S_TRUMP] = trump
    for p in range(4):
        h16[p] = trumps_of(h54[p], trump)  # non-trumps discarded


@njit(cache=True, _nrt=False)
def take_cards(ws, seat, cards54, rest):
    """``seat`` is dealt the cards ``cards54`` (a 54-bit mask) from the stock, in the refill
    (``got54[seat]``) or as part of the rest (``got54[4]``); its trumps join its ``h16``, the
    non-trumps are dead (``trumps_of``, as when trump is named)."""
    ws.got54[4 if rest else seat] |= cards54
    ws.h16[seat] |= trumps_of(cards54, ws.sc[S_TRUMP])


@njit(cache=True, _nrt=False)
def close_refill(ws, top):
    """The refill is over with the stock at ``top``: the pitcher's give decision when cards
    are left, else the discards (then the play)."""
    sc = ws.sc
    sc[S_TOP] = top
    sc[S_REST_N] = NCARDS - top
    if top < NCARDS:
        sc[S_PHASE] = PH_GIVE
        sc[S_SEAT] = sc[S_PITCHER]
        return
    sc[S_TURN] = 0
    next_discarder(ws)


@njit(cache=True, _nrt=False)
def close_rest(ws, receiver):
    """The rest of the stock went to ``receiver``: the discards (then the play)."""
    sc = ws.sc
    sc[S_REST_TO] = receiver
    sc[S_TOP] = NCARDS
    sc[S_TURN] = 0
    next_discarder(ws)


@njit(cache=True, _nrt=False, inline="always")
def apply_move(params, ws, move, out, trace, tracing):
    """The player to move makes ``move``; then everything automatic up to the next
    decision (or the end of the hand, scored)."""
    deck, h16, bids, received, tmp, trick, taken, deal_rng = (ws.deck, ws.h16, ws.bids, ws.received, ws.tmp,
                                                               ws.trick, ws.taken, ws.deal_rng)
    sc, played, disc = ws.sc, ws.played, ws.disc
    ph = sc[S_PHASE]
    seat = sc[S_SEAT]
    dealer = sc[S_DEALER]
    if ph == PH_BID:
        if dealer_stuck(sc[S_TURN], sc[S_HIGH]):
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
        name_trump(ws, move - MOVE_TRUMP0)
        # refill from the stock, from left of the dealer; each seat's cards gathered in a mask
        # and taken at once (one trumps_of, not a table look-up and two stores a card)
        top = sc[S_TOP]
        s = dealer
        words = load_words(deal_rng)
        for i in range(4):
            s = (s + 1) & 3
            need = refill_need(h16[s])
            cnt = 0
            dealt = np.int64(0)
            while need > 0 and top < NCARDS:
                c, words = draw_lazy_w(deck, top, NCARDS, words)
                top += 1
                tmp[cnt] = c
                cnt += 1
                need -= 1
                dealt |= np.int64(1) << c
            take_cards(ws, s, dealt, False)
            received[s] = cnt
            if tracing:
                tr.emit(trace, EV_REFILL, s, 0, 0, 0)
                tr.emit_list(trace, 0, tmp, cnt)
        store_words(deal_rng, words)
        close_refill(ws, top)
    elif ph == PH_GIVE:
        receiver = rest_receiver(seat, move)
        cnt = 0
        words = load_words(deal_rng)
        dealt = np.int64(0)
        for top in range(sc[S_TOP], NCARDS):
            c, words = draw_lazy_w(deck, top, NCARDS, words)
            tmp[cnt] = c
            cnt += 1
            dealt |= np.int64(1) << c
        store_words(deal_rng, words)
        take_cards(ws, receiver, dealt, True)
        if tracing:
            tr.emit(trace, EV_REST, receiver, 0, 0, 0)
            tr.emit_list(trace, 0, tmp, cnt)
        close_rest(ws, receiver)
    elif ph == PH_DISCARD:
        k = STRENGTH[sc[S_TRUMP], move]
        h16[seat] &= ~(1 << k)
        disc[seat] |= 1 << k
        out[C_LOST] += POINTS16[k]
        if popcount(h16[seat]) <= KEEP:
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
    sc = ws.sc
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
    sc = ws.sc
    v = sc[S_DELTA0] if team == 0 else sc[S_DELTA1]
    if sc[S_OUTCOME] != 0:
        win = (sc[S_OUTCOME] == 1) == ((sc[S_PITCHER] & 1) == team)
        v = params[P_TARGET] if win else -params[P_TARGET]
    return v


@njit(cache=True, _nrt=False)
def made_bid(ws):
    """1 if the pitcher's team made its bid this (scored) hand."""
    sc, taken = ws.sc, ws.taken
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
def shuffled_bits(mask, width, out, rng):
    """The set bits of ``mask`` below bit ``width``, in a random order (a Fisher-Yates shuffle
    drawn from ``rng``), into ``out[0:n]``; returns ``n``."""
    n = 0
    for b in range(width):
        if (mask >> b) & 1:
            out[n] = b
            n += 1
    for i in range(n - 1):
        draw_lazy(out, i, n, rng)
    return n


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
def hidden_weights(ws, fw, me):
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
    h54, received, sc, played, got54 = ws.h54, ws.received, ws.sc, ws.played, ws.got54
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
            pc = 1 if ws.trick[s] >= 0 else 0
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


@njit(entry=True, cache=True, _nrt=False)
def resample_hidden(ws, fw, me, rng):
    """Redeal what ``me`` cannot see, consistently with what it has seen.

    Reads and writes the bundle ``ws``: before trump deck (and h54 of the other seats),
    after trump h16 and disc of the other seats (and in a give decision the rest of the
    stock in ``deck[top:54]``); ``fw`` (``sampler_weights``) as scratch.

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
    deck, h54, sc = ws.deck, ws.h54, ws.sc
    ph = sc[S_PHASE]
    if ph <= PH_TRUMP:
        shuffled_bits(~h54[me], NCARDS, deck, rng)
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
    if not prepare_hidden(ws, fw, me):
        return False
    draw_hidden(ws, fw, me, rng)
    return True


@njit(cache=True, _nrt=False)
def prepare_hidden(ws, fw, me):
    """The sampler's weights for ``me`` after trump, into ``fw`` (rows 0..3: per group, 4..8:
    forward sums, 9: unknown trumps). They depend on public facts only, so a decision
    computes them once for all its samples. Returns False when no deal fits."""
    sc = ws.sc
    tu = hidden_weights(ws, fw, me)
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
def draw_hidden(ws, fw, me, rng):
    """One draw of the hidden trumps after trump (weights from ``prepare_hidden``): writes
    h16 and disc of the other seats (disc: the unplayed trumps it discarded down to six),
    and in a give decision the trumps of the undealt rest into ``deck[top:]`` (non-trump
    fillers after them). tmp[0:16] and tmp[40:44] are scratch."""
    deck, h16, sc, played, disc = ws.deck, ws.h16, ws.sc, ws.played, ws.disc
    ph = sc[S_PHASE]
    trump = sc[S_TRUMP]
    rest_open = ph == PH_GIVE
    rest_n = sc[S_REST_N]
    mi = (me - sc[S_DEALER] - 1) & 3
    tu = np.int64(fw[9, 0])
    counts = ws.tmp[40:44]  # tmp[0:16] is the pool below
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
    pool = ws.tmp
    shuffled_bits(v, 16, pool, rng)
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
    deck, h54, h16, received, sc, played, disc, got54 = ws.deck, ws.h54, ws.h16, ws.received, ws.sc, ws.played, ws.disc, ws.got54
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
            shuffled_bits(f, 16, tl, rng)
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
    mc, pimc and ismcts are modelled by their base strategy (heuristic with the default share:
    exact for pimc and for ismcts with ``search=1``, whose bids are the base's);
    random bids uniformly among the legal bids, whatever the hand (no information), and so
    does a user strategy for the model, at a seat or as an mc/pimc base (``strat`` id or
    base < 0): its bids are taken to carry no information. A stuck dealer's 4 is forced."""
    h54, bids, sc = ws.h54, ws.bids, ws.sc
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
            if sid == st.MC or sid == st.PIMC or sid == st.ISMCTS:  # bid as their base (a user one: no model)
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
def sample_state(base_ws, ws, fw, me, rng, strat, infer, complete, buf):
    """One sample of the hidden cards for ``me`` into ``ws`` (overwritten with a copy of
    ``base_ws``; after trump ``fw`` must hold ``prepare_hidden``'s weights for it). ``complete``:
    a whole deal
    (``complete_deal``); ``infer``: exact conditioning on the other seats' bids by rejection
    (redraw until ``bids_fit``; implies a whole deal). Returns the number of draws, or -1
    when none fitted in MAX_TRIES."""
    after_trump = base_ws.sc[S_PHASE] > PH_TRUMP
    for tries in range(1, MAX_TRIES + 1):
        copy_bundle(base_ws, ws)
        if after_trump:
            draw_hidden(ws, fw, me, rng)
            if complete or infer:
                complete_deal(ws, me, rng, buf)
        else:
            resample_hidden(ws, fw, me, rng)
        if not infer or bids_fit(ws, me, strat):
            return tries
    return -1


@njit(entry=True, cache=True)
def draw_samples(seed, base_ws, me, strat, infer, complete, h16_out, disc_out, h54_out, got_out, tries_out):
    """``n = h16_out.shape[0]`` samples as the evaluation draws them (sample j from the
    stream (seed, j, DEAL)): per sample the four seats' h16, disc and h54 (int64[n, 4]),
    got54 (int64[n, 5]) and the number of draws it took (-1: none fitted)."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    buf = np.zeros(64, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    fw = sampler_weights()
    copy_bundle(base_ws, ws)
    if ws.sc[S_PHASE] > PH_TRUMP:
        prepare_hidden(ws, fw, me)
    for j in range(h16_out.shape[0]):
        seed_stream(rng, seed, j, DEAL)
        tries_out[j] = sample_state(base_ws, ws, fw, me, rng, strat, infer, complete, buf)
        for s in range(4):
            h16_out[j, s] = ws.h16[s]
            disc_out[j, s] = ws.disc[s]
            h54_out[j, s] = ws.h54[s]
        for s in range(5):
            got_out[j, s] = ws.got54[s]


@njit(entry=True, cache=True)
def held_table(base_ws, me, out):
    """For enumerating worlds (play and discard decisions): ``out[a, b, c]`` (float64[17, 17,
    17]) = the total weight of the trump count vectors under which the other seats, in
    refill order, still hold a, b and c trumps. Given those held counts every placement of
    the unseen trumps (held by each seat, the rest dead) is equally likely, whatever the
    counts that led to them (each is a uniform split of the pool). Returns False when no
    deal fits."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    fw = sampler_weights()
    copy_bundle(base_ws, ws)
    if not prepare_hidden(ws, fw, me):
        return False
    sc, played = ws.sc, ws.played
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
def base_move_w(sid, share, ws, seat, kind, n, words):
    """A move of built-in strategy ``sid`` (random or heuristic) at the current decision, the
    PLAY stream held as words (rng.load_words): (move, words)."""
    legal, h54, h16, bids, received, sc = ws.legal, ws.h54, ws.h16, ws.bids, ws.received, ws.sc
    trump = sc[S_TRUMP]
    if kind == KIND_BID:
        if sid == st.RANDOM:
            i, words = randbelow_w(words, n)
            return legal[i], words
        pitcher = sc[S_PITCHER]
        partner_high = pitcher >= 0 and (pitcher & 1) == (seat & 1)
        return st.heuristic_bid(h54[seat], sc[S_HIGH], partner_high, dealer_stuck(sc[S_TURN], sc[S_HIGH]),
                                share), words
    if kind == KIND_TRUMP:
        if sid == st.RANDOM:
            i, words = randbelow_w(words, n)
            return legal[i], words
        return MOVE_TRUMP0 + st.best_suit(h54[seat])[0], words
    if kind == KIND_GIVE:
        if sid == st.RANDOM:
            i, words = randbelow_w(words, n)
            return legal[i], words
        return st.heuristic_give(h16[seat], received[(seat + 2) & 3]), words
    if sid == st.RANDOM:
        k, words = st.random_trump_card_w(h16[seat], words)
        return CARD_AT[trump, k], words
    if kind == KIND_DISCARD:
        return CARD_AT[trump, st.heuristic_discard(h16[seat])], words
    return CARD_AT[trump, st.heuristic_play(h16[seat], sc[S_SEEN], seat, sc[S_WIN_K], sc[S_WIN_SEAT],
                                            sc[S_POINTS], later_in_trick(sc, seat))], words


@njit(cache=True, _nrt=False, inline="always")
def base_move(sid, share, ws, seat, kind, n):
    """A move of built-in strategy ``sid`` (random or heuristic) at the current decision."""
    move, words = base_move_w(sid, share, ws, seat, kind, n, load_words(ws.play_rng))
    store_words(ws.play_rng, words)
    return move


@njit(cache=True, _nrt=False)
def user_base_move(params, users, sid, ws, seat, kind):
    """The move of the user strategy in slot ``-1 - sid`` as the base of a search strategy
    (``mc``'s rollouts, ``pimc``'s decisions outside the play) at the current decision of
    ``ws``: what ``choose_move`` gives a user seat (``decision`` fills ``ws.legal``,
    ``fill_view`` ``ws.user_view``; the bundle's PLAY stream). A move outside the legal list
    (made again: the strategy may write to ``legal``) raises ValueError(ILLEGAL_MARK, ...)
    (``refuse_move``), which the caller's guard reports in one line (a rollout has no ``err``
    row to fill)."""
    _, _, n = decision(ws, True)
    fill_view(ws, seat, kind, params)
    move = users[-1 - sid](ws.user_view, ws.legal, n, ws.play_rng)
    n = decision(ws, True)[2]
    if not is_in(move, ws.legal, n):
        refuse_move(move, seat, ws.legal, n)
    return move


@njit(cache=True, _nrt=False)
def user_rollout_turns(params, users, base, ws, out, trace):
    """``rollout_turns`` with the user strategy in slot ``-1 - base`` for every seat
    (``user_base_move``); apart from it so that a built-in base's loop stays as it was."""
    sc = ws.sc
    while sc[S_PHASE] != PH_DONE:
        seat, kind, _ = decision(ws, False)
        apply_move(params, ws, user_base_move(params, users, base, ws, seat, kind), out, trace, False)
        sc[S_DECISIONS] += 1


@njit(cache=True, _nrt=False)
def rollout_turns(params, base, ws, out, trace):
    """Play the hand out with every seat using built-in strategy ``base`` (heuristic with
    its default partner share)."""
    sc = ws.sc
    while sc[S_PHASE] != PH_DONE:
        seat, kind, n = decision(ws, False)
        apply_move(params, ws, base_move(base, st.PARTNER_SHARE, ws, seat, kind, n), out, trace, False)
        sc[S_DECISIONS] += 1


@njit(cache=True, _nrt=False)
def mc_move(params, users, ws, mcws, seat, n, k, base):
    """``mc``: for K samples of the hidden cards, roll each legal move out to the end of the
    hand with the base strategy (same sample and same random numbers for every move);
    the move with the best mean value (``hand_value``; ties: the earlier legal move). The
    base is a built-in by id (``rollout_turns``) or a user slot (``base < 0``:
    ``user_rollout_turns``, on ``mcws.roll``'s view, legal list and PLAY stream: ``ws.legal``
    and ``mcws.totals`` are never a rollout's)."""
    roll, samp, scratch, trace, totals = mcws.roll, mcws.samp, mcws.out, mcws.trace, mcws.totals
    legal, play_rng = ws.legal, ws.play_rng
    if n == 1:
        return legal[0]
    team = seat & 1
    totals[:] = 0
    work = mcws.work
    work[0] += 1
    after_trump = ws.sc[S_PHASE] > PH_TRUMP
    if after_trump:
        copy_bundle(ws, samp)
        prepare_hidden(samp, mcws.fw, seat)
    else:
        k = 4 * k  # bid and trump: once a hand, and a moon's +-target swing needs more samples
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
        if after_trump:
            draw_hidden(samp, mcws.fw, seat, samp.deal_rng)
        else:
            resample_hidden(samp, mcws.fw, seat, samp.deal_rng)
        for i in range(n):
            copy_bundle(samp, roll)
            seed_stream(roll.deal_rng, play_rng[1], j, DEAL)
            seed_stream(roll.play_rng, play_rng[1], j, PLAY)
            before = roll.sc[S_DECISIONS]
            apply_move(params, roll, legal[i], scratch, trace, False)
            if base >= 0:
                rollout_turns(params, base, roll, scratch, trace)
            else:
                user_rollout_turns(params, users, base, roll, scratch, trace)
            work[1] += 1 + roll.sc[S_DECISIONS] - before  # the move tried and the rollout's
            totals[i] += hand_value(params, roll, team)
    best = 0
    for i in range(1, n):
        if totals[i] > totals[best]:
            best = i
    next_u64(play_rng)  # fresh samples at the next decision
    return legal[best]


@njit(cache=True, _nrt=False)
def base_choice(params, users, base, ws, seat, kind, n):
    """The move of ``pimc``'s base at the current decision of ``ws``: a built-in
    (``base_move``, heuristic with its default partner share) or a user slot
    (``user_base_move``)."""
    if base >= 0:
        return base_move(base, st.PARTNER_SHARE, ws, seat, kind, n)
    return user_base_move(params, users, base, ws, seat, kind)


@njit(cache=True, _nrt=False)
def tie_break_user(params, users, sid, ws, legal, seat, tied):
    """``pimc``'s tie among the trumps ``tied`` (strength mask) broken by its user base (slot
    ``-1 - sid``) in the true position: the view a user seat gets (``fill_view`` of ``ws``),
    the tied cards as its legal ones (codes, low to high, written to ``legal``: scratch, not
    ``ws.legal``, which a trace still lists). A card outside them raises
    ValueError(ILLEGAL_MARK, ...) (``refuse_move``)."""
    trump = ws.sc[S_TRUMP]
    n = trump_legal(tied, trump, legal)
    fill_view(ws, seat, KIND_PLAY, params)
    move = users[-1 - sid](ws.user_view, legal, n, ws.play_rng)
    n = trump_legal(tied, trump, legal)
    if not is_in(move, legal, n):
        refuse_move(move, seat, legal, n)
    return move


@njit(cache=True, _nrt=False)
def pimc_move(params, users, ws, mcws, seat, kind, n, k, base):
    """``pimc`` (perfect-information Monte Carlo) in the play phase; its bids, trump, keep or
    give and discards are the ``base`` strategy's (``base_choice``: heuristic with its
    default partner share, random, or a user slot ``base < 0``).

    A play with more than one trump held: K samples of the hidden trumps, drawn exactly as
    ``mc`` draws them (``prepare_hidden`` once, ``draw_hidden`` per sample: consistent with
    what ``seat`` saw), each solved exactly with every hand open (``solver.solve_moves_on``:
    every card's value, the points of this round its team takes, all four playing
    perfectly); the card with the best sum of values is played. Ties: the base strategy's
    card when it is among them (a random base draws among the tied cards; a user base is
    asked with the tied cards as its legal ones: ``tie_break_user``), else the lowest tied
    card. Reads the bundle ``ws``; writes ``mcws.samp`` and ``mcws.search`` (the table's
    entries stay valid from world to world and deal to deal: no clearing) and
    ``mcws.totals``. Like ``mc``, one word of the PLAY stream seeds the samples and the
    stream then moves on by one draw (a random base draws again to break a tie)."""
    if kind != KIND_PLAY:
        return base_choice(params, users, base, ws, seat, kind, n)
    sc, h16 = ws.sc, ws.h16
    trump = sc[S_TRUMP]
    hand = h16[seat]
    if n == 1:
        return CARD_AT[trump, low_bit(hand)]
    samp, totals, search = mcws.samp, mcws.totals, mcws.search
    play_rng = ws.play_rng
    copy_bundle(ws, samp)
    if not prepare_hidden(samp, mcws.fw, seat):  # no deal fits (an impossible history): play as the base
        return base_choice(params, users, base, ws, seat, kind, n)
    for i in range(n):
        totals[i] = 0
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
        draw_hidden(samp, mcws.fw, seat, samp.deal_rng)
        # every trump held is legal: the cards are the seat's hand, low to high, in every world
        solve_moves_on(samp.h16, sc[S_LEADER], seat, sc[S_WIN_K], sc[S_WIN_SEAT], sc[S_POINTS], ws.taken[0],
                       ws.taken[1], search.tt, search.moves, search.values, search.stack)
        for i in range(n):
            totals[i] += search.values[i]
    next_u64(play_rng)  # fresh samples at the next decision
    best = totals[0]
    for i in range(1, n):
        best = max(best, totals[i])
    tied = np.int64(0)
    for i in range(n):
        if totals[i] == best:
            tied |= np.int64(1) << search.moves[i]
    tied &= hand  # (always a subset; this keeps the card legal whatever happens)
    if tied == 0:
        tied = hand
    if tied & (tied - 1) == 0:
        return CARD_AT[trump, low_bit(tied)]
    if base < 0:
        return tie_break_user(params, users, base, ws, samp.legal, seat, tied)
    if base == st.RANDOM:
        return CARD_AT[trump, st.random_trump_card(tied, play_rng)]
    card = base_move(base, st.PARTNER_SHARE, ws, seat, kind, n)
    if (tied >> STRENGTH[trump, card]) & 1:
        return card
    return CARD_AT[trump, low_bit(tied)]


# ---- ismcts: information-set Monte Carlo tree search ----------------------------------------------

# (``ismcts``'s codes WHOLE_GAME, MATCH_EQUITY, SEARCH_PLAY / SEARCH_ALL / SEARCH_PHASE, FUTURES and MAX_ITERATIONS
# are in codes.py: spec.py bounds the parameters by them)
#: a tree node's key is move + MOVER_KEY * mover (every move code is below it): who moves at a
#: node can differ from world to world (a seat discards, or still holds a trump, only in some),
#: and a card played by one seat is another node than the same card played by another
MOVER_KEY = 100
#: the longest line of a hand the tree can walk, root included: 4 bids, trump, keep or give, at
#: most 10 discards (16 trumps, six kept) and 16 plays make 32 decisions
TREE_DEPTH = 40
#: a playout cut short by ``hands`` scores 0.5 plus the team's score margin over the hands it
#: played, HAND_SWING points a hand being worth 0.5 (clipped to [0, 1])
HAND_SWING = 20.0
#: the score margin's value per point (``hands`` 1 to 999: HAND_SWING points a hand worth 0.5).
#: With ``hands`` = MATCH_EQUITY the exploration constant is scaled by the match equity's own
#: value per point at the decision's scores over this (``met_slope``): UCB1's exploration term
#: is weighed against the spread of the rewards, and the table's values move 0.011 a point at
#: the start (read 10 points either way), 0.036 at 40 to 40, 0.05 at 47 to 47 and next to
#: nothing once the game is decided. Scaling the constant is scaling the rewards by a number
#: fixed for the search (the same for every move), so the move played still has the best mean
#: match equity among those searched alike.
MARGIN_SLOPE = 1.0 / (2.0 * HAND_SWING)
#: the score step over which ``met_slope`` reads the table: half a hand's swing
SLOPE_STEP = 10
#: the futures table is keyed by the hand's two score changes (S_DELTA0, S_DELTA1), each from
#: FUTURE_LOW (a set bid of 10) to FUTURE_LOW + FUTURE_SPAN - 1; a change beyond (a made moon
#: that lifts a score from below -37 to 0) is valued without the table
FUTURE_LOW = -ALL_POINTS
FUTURE_SPAN = 48
FUTURE_KEYS = FUTURE_SPAN * FUTURE_SPAN


@njit(cache=True, _nrt=False)
def base_turns(params, users, base, roll, out, trace):
    """Play ``roll``'s hand to its end with ``base`` for every seat: a built-in by id
    (``rollout_turns``) or the user slot ``-1 - base`` (``user_rollout_turns``)."""
    if base >= 0:
        rollout_turns(params, base, roll, out, trace)
    else:
        user_rollout_turns(params, users, base, roll, out, trace)


@njit(cache=True, _nrt=False)
def future_value(params, users, base, roll, out, trace, deal_seed, play_seed):
    """Team 0's share of wins over FUTURES playouts of the rest of the game from ``roll``, a
    hand just scored that did not end the game (its scores, dealer and hand count): future f
    deals its hands from the stream ``(deal_seed, f, DEAL)``, the next dealer first, and plays
    them with ``base`` for every seat, its coin flips from ``(play_seed, f, PLAY)``, until a
    team wins (``score_hand``: the game's own rule). The streams do not depend on the scores:
    every way the hand ends meets the same futures (common random numbers), so the values of
    two endings differ by what their scores change, not by luck. Writes ``roll`` and ``out``
    (scratch)."""
    scores, sc = roll.scores, roll.sc
    score0, score1, dealer, hands = scores[0], scores[1], (sc[S_DEALER] + 1) & 3, sc[S_HANDS]
    wins = 0
    for f in range(FUTURES):
        scores[0], scores[1], sc[S_DEALER], sc[S_HANDS] = score0, score1, dealer, hands
        seed_stream(roll.deal_rng, deal_seed, np.int64(f), DEAL)
        seed_stream(roll.play_rng, play_seed, np.int64(f), PLAY)
        while True:
            start_hand(roll, out, trace, False)
            base_turns(params, users, base, roll, out, trace)
            if sc[S_WINNER] >= 0:
                break
            sc[S_DEALER] = (sc[S_DEALER] + 1) & 3
        if sc[S_WINNER] == 0:
            wins += 1
    return wins / FUTURES


@njit(cache=True, _nrt=False)
def hand_future(params, users, base, roll, out, trace, future, deal_seed, play_seed):
    """Team 0's chance to win the game after ``roll``'s hand (scored, the game going on):
    ``future_value`` of its scores, kept in ``future`` (float64[FUTURE_KEYS]; -1: not played
    yet in this search) under the hand's score changes, so every iteration that ends the hand
    with the same changes shares one estimate (the scores before the hand are the search's)."""
    sc = roll.sc
    d0, d1 = sc[S_DELTA0] - FUTURE_LOW, sc[S_DELTA1] - FUTURE_LOW
    if not (0 <= d0 < FUTURE_SPAN and 0 <= d1 < FUTURE_SPAN):
        return future_value(params, users, base, roll, out, trace, deal_seed, play_seed)
    key = d0 * FUTURE_SPAN + d1
    if future[key] < 0.0:
        future[key] = future_value(params, users, base, roll, out, trace, deal_seed, play_seed)
    return future[key]


@njit(cache=True, _nrt=False)
def met_value(params, roll):
    """Team 0's chance to win the game after ``roll``'s hand (scored, the game going on), read
    from the match-equity table (met.py): ``MET[t, d0 - 1, d1 - 1]``, ``d`` each team's distance to
    the target (``params[P_TARGET]`` minus its score), ``t`` the team of the next hand's dealer.
    The table holds distances 1..MET_DIST: when a team is further away, both distances are
    lowered by the same amount until the further one is MET_DIST (the margin kept), and a
    distance then below 1 (a margin of MET_DIST or more) is read as 1."""
    return met_at(params[P_TARGET] - roll.scores[0], params[P_TARGET] - roll.scores[1], next_dealer_team(roll))


@njit(cache=True, _nrt=False, inline="always")
def next_dealer_team(ws):
    """The team of the next hand's dealer: the current dealer's left (the table's ``t``)."""
    return ((ws.sc[S_DEALER] + 1) & 3) & 1


@njit(cache=True, _nrt=False)
def met_at(d0, d1, team):
    """``MET[team, d0 - 1, d1 - 1]`` for any distances, read as ``met_value`` says."""
    far = max(d0, d1) - MET_DIST
    if far > 0:
        d0 -= far
        d1 -= far
    d0 = max(d0, 1)
    d1 = max(d1, 1)
    return MET[team, d0 - 1, d1 - 1]


@njit(cache=True, _nrt=False)
def met_slope(params, ws):
    """How much team 0's match equity moves with a point of score margin at ``ws``'s scores:
    the table (``met_at``, the next hand dealt by the current dealer's left) read SLOPE_STEP
    points ahead for either team (a distance that reaches 0 counts as a won game), the
    difference over the 2 * SLOPE_STEP points between the two; at least MARGIN_SLOPE / 10."""
    d0 = params[P_TARGET] - ws.scores[0]
    d1 = params[P_TARGET] - ws.scores[1]
    team = next_dealer_team(ws)
    ahead = 1.0 if d0 <= SLOPE_STEP else met_at(d0 - SLOPE_STEP, d1, team)
    behind = 0.0 if d1 <= SLOPE_STEP else met_at(d0, d1 - SLOPE_STEP, team)
    return max((ahead - behind) / (2.0 * SLOPE_STEP), MARGIN_SLOPE / 10.0)


@njit(cache=True, _nrt=False)
def playout_value(params, users, base, hands, roll, out, trace, result, margin0, future, deal_seed, play_seed):
    """Play ``roll`` on with ``base`` for every seat (``base_turns``) and write each seat's
    reward to ``result`` (float64[4]), its team's: this hand to its end, then

    - ``hands`` >= WHOLE_GAME: the game. A hand that ends it is worth 1 to the winning team, 0
      to the other; else team 0 gets its chance to win from the scores the hand left, over
      FUTURES playouts to the game's end shared by every iteration that ends the hand with the
      same score changes (``hand_future``, streams from ``deal_seed`` and ``play_seed``,
      ``future`` its table);
    - ``hands`` = MATCH_EQUITY: the game by the match-equity table. A hand that ends the game
      is worth 1 or 0 as above; else team 0 gets ``met_value`` of the scores the hand left;
    - else further hands, dealt from ``roll``'s deal stream as it stands, until the game ends
      (1 or 0) or ``hands`` hands, this one counted, are played: then 0.5 plus team 0's score
      margin gained since the search began (the scores' difference then was ``margin0``) over
      HAND_SWING points a hand (clipped to [0, 1]).

    Team 1 gets the complement. Writes ``roll``, ``future`` and ``out`` (a scratch row)."""
    sc = roll.sc
    whole = hands >= WHOLE_GAME
    played = 1
    while True:
        base_turns(params, users, base, roll, out, trace)
        if sc[S_WINNER] >= 0 or whole or played >= hands:
            break
        sc[S_DEALER] = (sc[S_DEALER] + 1) & 3
        start_hand(roll, out, trace, False)
        played += 1
    if sc[S_WINNER] >= 0:
        v0 = 1.0 if sc[S_WINNER] == 0 else 0.0
    elif whole:
        v0 = hand_future(params, users, base, roll, out, trace, future, deal_seed, play_seed)
    elif hands == MATCH_EQUITY:
        v0 = met_value(params, roll)
    else:
        gained = (roll.scores[0] - roll.scores[1]) - margin0
        v0 = min(1.0, max(0.0, 0.5 + gained / (2.0 * HAND_SWING * played)))
    for s in range(4):
        result[s] = v0 if (s & 1) == 0 else 1.0 - v0


@njit(cache=True, _nrt=False)
def ismcts_move(params, users, ws, mcws, seat, kind, n, iterations, base, explore, hands, search):
    """``ismcts``: single-observer information-set MCTS (analyzer.ismcts) for ``seat``; with
    ``search`` SEARCH_PLAY only in the play (other decisions: ``base_choice``, as ``pimc``).

    Iteration j draws the hidden cards into ``mcws.roll`` as ``mc``'s sample j does (before
    trump ``resample_hidden``, after it ``draw_hidden`` on weights prepared once; from the
    stream ``(play_rng[0], j, DEAL)``; the refill, later deals and coin flips from
    ``(play_rng[1], j, DEAL / PLAY)``), then walks the tree from the root playing that world
    by the rules (``decision``, ``apply_move``): a decision with one legal move is made
    without a node, any other by ``ismcts.descend`` (UCB1, ``explore`` in hundredths) among
    its legal moves keyed by mover (MOVER_KEY); the walk stops at a new node or the hand's
    end (SEARCH_PHASE: at the first decision of another kind than the root's).
    ``playout_value`` plays on with the base (the hand, then with ``hands`` = WHOLE_GAME the
    game's futures shared by every iteration that ends the hand with the same score changes,
    seeded from the PLAY stream's words 2 and 3; with ``hands`` = MATCH_EQUITY the hand valued by
    the match-equity table; else ``hands`` hands) and each seat's reward,
    its team's, is backed up. Plays the root's most visited move; one legal move is played
    without a search. Reads ``ws`` (``ws.legal[:n]`` its legal moves); writes ``mcws.roll``,
    ``.tree``, ``.future`` and ``.out``; draws once from the PLAY stream (fresh samples at the
    next decision), as ``mc``."""
    if search == SEARCH_PLAY and kind != KIND_PLAY:
        return base_choice(params, users, base, ws, seat, kind, n)
    if n == 1:
        return ws.legal[0]
    roll, tree, out, trace = mcws.roll, mcws.tree, mcws.out, mcws.trace
    play_rng = ws.play_rng
    after_trump = ws.sc[S_PHASE] > PH_TRUMP
    if after_trump:
        copy_bundle(ws, roll)
        if not prepare_hidden(roll, mcws.fw, seat):  # no deal fits (an impossible history): play as the base
            return base_choice(params, users, base, ws, seat, kind, n)
    ismcts.reset(tree)
    future = mcws.future
    future[:] = -1.0  # (every search values its own hands' futures: the scores before it differ)
    c = explore / 100.0
    if hands == MATCH_EQUITY:  # the exploration on the table's scale here (MARGIN_SLOPE's notes)
        c *= met_slope(params, ws) / MARGIN_SLOPE
    margin0 = ws.scores[0] - ws.scores[1]
    sc, legal, path = roll.sc, roll.legal, tree.path
    for it in range(iterations):
        j = np.int64(it)
        copy_bundle(ws, roll)
        seed_stream(roll.deal_rng, play_rng[0], j, DEAL)
        if after_trump:
            draw_hidden(roll, mcws.fw, seat, roll.deal_rng)
        else:
            resample_hidden(roll, mcws.fw, seat, roll.deal_rng)
        seed_stream(roll.deal_rng, play_rng[1], j, DEAL)
        seed_stream(roll.play_rng, play_rng[1], j, PLAY)
        node, depth = np.int64(0), 1  # not a literal 0: descend is then compiled once, not twice
        path[0] = 0
        while sc[S_PHASE] != PH_DONE and depth < path.shape[0]:
            mover, now, m = decision(roll, True)
            if search == SEARCH_PHASE and now != kind:
                break
            expanded = False
            if m == 1:
                move = legal[0]
            else:
                for i in range(m):
                    tree.legal[i] = legal[i] + MOVER_KEY * mover
                child, expanded = ismcts.descend(tree, node, m, mover, c, roll.play_rng)
                if child < 0:  # a full tree with no child for this world: play out from here
                    break
                path[depth] = child
                depth += 1
                node = child
                move = tree.move[child] - MOVER_KEY * mover
            apply_move(params, roll, move, out, trace, False)  # (one call site: it is inlined)
            if expanded:
                break
        playout_value(params, users, base, hands, roll, out, trace, tree.result, margin0, future, play_rng[2],
                      play_rng[3])
        ismcts.back_up(tree, depth)
    next_u64(play_rng)  # fresh samples at the next decision
    return ismcts.most_visited(tree) - MOVER_KEY * seat


@njit(cache=True)
def search_move(params, strat, users, tier, ws, mcws, seat, kind, n):
    """The move of ``seat``'s search strategy (``mc`` or ``pimc``: ``strat[seat]`` is id, k,
    base; ``ismcts``: id, iterations, base, explore, hands, search; a negative base is a user
    slot)."""
    if len(tier) == 0:  # the base tier (engine.search_tier): no seat searches, and none is compiled
        return -1
    if strat[seat, 0] == st.MC:
        return mc_move(params, users, ws, mcws, seat, n, strat[seat, 1], strat[seat, 2])
    if strat[seat, 0] == st.ISMCTS:
        return ismcts_move(params, users, ws, mcws, seat, kind, n, strat[seat, 1], strat[seat, 2], strat[seat, 3],
                           strat[seat, 4], strat[seat, 5])
    return pimc_move(params, users, ws, mcws, seat, kind, n, strat[seat, 1], strat[seat, 2])


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def choose_move(params, strat, users, tier, ws, mcws, seat, kind, n):
    """The move of ``seat``'s strategy when it is not a built-in (``play_turns`` plays those,
    ``base_move_w``): ``mc``, ``pimc``, ``ismcts`` or a user slot."""
    sid = strat[seat, 0]
    if sid >= st.SEARCH:
        return search_move(params, strat, users, tier, ws, mcws, seat, kind, n)
    fill_view(ws, seat, kind, params)
    return users[-1 - sid](ws.user_view, ws.legal, n, ws.play_rng)


@njit(cache=True, _nrt=False, inline="always")
def play_turns(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced):
    """Play the hand on from the current decision (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled)."""
    legal, sc = ws.legal, ws.sc
    # the PLAY stream held as words while built-ins play (an array would be read again after
    # every store of the rules); in the array whenever another strategy may read it
    words = load_words(ws.play_rng)
    while sc[S_PHASE] != PH_DONE:
        seat = sc[S_SEAT]
        sid = strat[seat, 0]
        seat, kind, n = decision(ws, tracing or sid < 0 or sid == st.MC or sid == st.ISMCTS)
        if forced >= 0:
            move = forced
            forced = -1
        elif sid == st.RANDOM or sid == st.HEURISTIC:
            move, words = base_move_w(sid, strat[seat, 1], ws, seat, kind, n, words)
        else:
            store_words(ws.play_rng, words)
            move = choose_move(params, strat, users, tier, ws, mcws, seat, kind, n)
            words = load_words(ws.play_rng)
        sc[S_DECISIONS] += 1
        # built-ins pick from ``legal`` by construction; only user moves are checked, against
        # the list made again here: the one the strategy saw may have been written to
        if sid < 0 and not is_in(move, legal, decision(ws, True)[2]):
            err[0], err[1], err[2] = sc[S_DECISIONS], seat, move
            if tracing:  # the error names the legal moves (records.illegal_move_message)
                tr.emit_refused(trace, seat, move, legal, decision(ws, True)[2])
            store_words(ws.play_rng, words)
            return -1
        if tracing:
            tr.emit(trace, EV_DECIDE, seat, kind, move, 0)
            tr.emit_list(trace, 0, legal, n)
        apply_move(params, ws, move, out, trace, tracing)
    store_words(ws.play_rng, words)
    return 0


@njit(cache=True, _nrt=False)
def play_hand_on(params, strat, users, tier, ws, mcws, out, err, trace, forced):
    """``play_turns`` untraced, out of line and without reference counting: the evaluation
    blocks allocate their bundles, so they count references, and the play loop inlined there
    counted them on every array it read (ten times the time of a hand played in a game)."""
    return play_turns(params, strat, users, tier, ws, mcws, out, err, trace, False, forced)


@njit(cache=True, _nrt=False)
def finish(ws, out, trace, tracing):
    scores, sc = ws.scores, ws.sc
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
def play_rest(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced):
    """From the middle of a hand: finish it, then play hands until a team has won.
    Returns 0, or -1 after an illegal user move."""
    sc = ws.sc
    first = True
    # one call site of the inlined play loop (each call site is compiled again: compile time)
    while True:
        if play_turns(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced if first else -1) < 0:
            return -1
        first = False
        if sc[S_WINNER] >= 0:
            break
        sc[S_DEALER] = (sc[S_DEALER] + 1) & 3
        start_hand(ws, out, trace, tracing)
    finish(ws, out, trace, tracing)
    return 0


@njit(cache=True)
def mc_workspace(params, strat, tier):
    """The search strategies' scratch (``MCWork``); the solver's table is full size only when
    a seat of ``strat`` plays ``pimc``, the tree only when one plays ``ismcts`` (room for the
    most iterations of such a seat). None in the base tier (``tier`` empty:
    engine.search_tier), where nobody searches: the play loop takes every array of the
    scratch as an argument at each call, and without them random play is 25% faster (paired
    runs, 2026-12-04; README, Where the time goes)."""
    if len(tier) == 0:  # the base tier (engine.search_tier)
        return None
    pimc = False
    nodes = 2
    for s in range(strat.shape[0]):
        pimc = pimc or strat[s, 0] == st.PIMC
        if strat[s, 0] == st.ISMCTS:
            nodes = max(nodes, strat[s, 1] + 1)
    search = SearchArrays(np.zeros((1 << PIMC_TT_BITS if pimc else 2, 3), dtype=np.int64),
                          np.zeros((STACK_ROWS, STACK_WIDTH), dtype=np.int64), np.zeros(16, dtype=np.int64),
                          np.zeros(16, dtype=np.int64))
    return MCWork(workspace(params), workspace(params), np.zeros(N_COLUMNS, dtype=np.int64),
                  np.zeros((1, tr.WIDTH), dtype=np.int64), np.zeros(16, dtype=np.int64), search,
                  ismcts.new_tree(nodes, TREE_DEPTH, 16, 4), np.full(FUTURE_KEYS, -1.0), sampler_weights(),
                  np.zeros(2, dtype=np.int64))


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, users, tier, out, err, trace, tracing, ws, mcws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    scores, sc = ws.scores, ws.sc
    seed_stream(ws.deal_rng, seed, index, DEAL)
    seed_stream(ws.play_rng, seed, index, PLAY)
    out[:] = 0
    err[0] = -1
    scores[0] = 0
    scores[1] = 0
    sc[:] = 0
    sc[S_WINNER] = -1
    sc[S_DEALER] = randbelow(ws.deal_rng, 4)
    start_hand(ws, out, trace, tracing)
    play_rest(params, strat, users, tier, ws, mcws, out, err, trace, tracing, -1)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi, users, tier):
    ws = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, mcws)
        if err[g, 0] >= 0:
            return


@in_blocks("out", "err", optimized_twice=True)  # Pitch plays faster for it (blocks.in_blocks)
@njit(entry=True, nogil=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks, users, tier):
    n = out.shape[0]
    for b in range(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks, users, tier)


@njit(entry=True, cache=True)
def mc_work(seed, start, params, strat, out, err, work, users, tier):
    """For scripts/bench_mc.py only: games ``start ..`` as ``run_block`` plays them (one block,
    ``out``/``err`` rows), with a seat of ``strat`` playing ``mc``; then ``work`` gets ``mc``'s
    decisions searched and the moves played in their rollouts (``MCWork.work``)."""
    ws = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(out.shape[0]):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, mcws)
    work[0] = mcws.work[0]
    work[1] = mcws.work[1]


@njit(entry=True, nogil=True, cache=True)  # nogil: Ctrl-C and --timeout reach a stuck strategy
def run_traced(seed, index, params, strat, out_row, err_row, trace, users, tier):
    play_game(seed, index, params, strat, users, tier, out_row, err_row, trace, True, workspace(params),
              mc_workspace(params, strat, tier))


# ---- evaluation from a position ----------------------------------------------------------------

#: a stand-in for "still holds a trump nobody has seen", above the 16 strength bits: set in the
#: h16 of another seat while a position is replayed (load_position), so that the rules see
#: it alive where the history says it is
PHANTOM = np.int64(1) << 16


@njit(cache=True, _nrt=False)
def refuse(err, code, a, b, c, d):
    """Record why a position is impossible (``err``: [code, four arguments]); returns False."""
    err[0], err[1], err[2], err[3], err[4] = code, a, b, c, d
    return False


@njit(cache=True, _nrt=False)
def trick_empty(ws):
    """Whether nobody has played to the current trick yet."""
    for s in range(4):
        if ws.trick[s] >= 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def others_placeholders(ws, me, trump, plays, done, alive):
    """The ``h16`` another seat needs for the replay of the play: the trumps it plays in the
    history, and ``PHANTOM`` when it still holds one at the start of the current trick
    (``alive``) that it has not played yet (plays ``done`` on are the current trick)."""
    h16 = ws.h16
    for s in range(4):
        if s != me:
            h16[s] = 0
    current = 0
    for j in range(plays.shape[0]):
        s, k = plays[j, 0], STRENGTH[trump, plays[j, 1]]
        if s != me and k >= 0:
            h16[s] |= np.int64(1) << k
        if j >= done:
            current |= 1 << s
    for s in range(4):
        if s != me and (alive >> s) & 1 and not (current >> s) & 1:
            h16[s] |= PHANTOM


@njit(cache=True, _nrt=False)
def replay_bids(params, ws, bids, out, trace, err):
    """The bids (0 pass, 4..10, MOON), each checked against the legal bids (``decision``)
    and applied (``apply_move``). Returns False (``err`` set) at the first impossible one."""
    sc = ws.sc
    for i in range(bids.shape[0]):
        if sc[S_PHASE] != PH_BID:
            return refuse(err, E_BID_AFTER_END, i, 0, 0, 0)
        seat, _, n = decision(ws, True)
        move = MOVE_BID0 + bids[i]
        if not is_in(move, ws.legal, n):
            if dealer_stuck(sc[S_TURN], sc[S_HIGH]):
                return refuse(err, E_STUCK_DEALER, 0, 0, 0, 0)
            return refuse(err, E_BID_NOT_ABOVE, bids[i], seat, sc[S_HIGH], 0)
        apply_move(params, ws, move, out, trace, False)
    return True


@njit(cache=True, _nrt=False)
def replay_refill(ws, me, received, refill54, err):
    """The refill counts (by seat), checked against the rule for ``me`` (``refill_need`` of the
    trumps it kept) and for everyone against the stock left; ``me``'s cards join its hand
    (``take_cards``). The other seats' cards are hidden: nothing is dealt to them."""
    sc = ws.sc
    top = DEALT
    for i in range(4):
        s = (sc[S_DEALER] + 1 + i) & 3
        r = received[s]
        left = NCARDS - top
        most = min(refill_need(np.int64(0)), left)
        if r > most:
            return refuse(err, E_REFILL_TOO_MANY, s, r, left, 0)
        if s == me:
            need = min(refill_need(ws.h16[me]), left)
            if r != need:
                return refuse(err, E_REFILL_OWN, s, popcount(ws.h16[me]), need, r)
            take_cards(ws, me, refill54, False)
        ws.received[s] = r
        top += r
    close_refill(ws, top)
    return True


@njit(cache=True, _nrt=False)
def replay_rest(ws, me, rest_to, rest54, err):
    """The rest of the stock went to ``rest_to``: the pitcher's give decision is the legal move
    that hands it there (``rest_receiver``); ``me``'s cards join its hand when it got them."""
    sc = ws.sc
    seat, _, n = decision(ws, True)
    found = False
    for i in range(n):
        found = found or rest_receiver(seat, ws.legal[i]) == rest_to
    if not found:
        return refuse(err, E_REST_TO, seat, rest_to, 0, 0)
    if rest_to == me:
        if popcount(rest54) != sc[S_REST_N]:
            return refuse(err, E_REST_COUNT, popcount(rest54), sc[S_REST_N], 0, 0)
        take_cards(ws, me, rest54, True)
    elif rest54 != 0:
        return refuse(err, E_REST_UNSEEN, me, 0, 0, 0)
    close_rest(ws, rest_to)
    return True


@njit(cache=True, _nrt=False)
def another_discards(ws, me, err):
    """Whether the rules now ask another seat than ``me`` to discard: its history would have
    it hold more than six trumps (refused)."""
    if ws.sc[S_PHASE] == PH_DISCARD and ws.sc[S_SEAT] != me:
        refuse(err, E_TOO_MANY_TRUMPS, ws.sc[S_SEAT], 0, 0, 0)
        return True
    return False


@njit(cache=True, _nrt=False)
def replay_discards(params, ws, me, discards, out, trace, err):
    """``me``'s discards, each a legal discard decision of ``me`` (``decision``), applied."""
    sc = ws.sc
    for i in range(discards.shape[0]):
        if another_discards(ws, me, err):
            return False
        if sc[S_PHASE] != PH_DISCARD:
            return refuse(err, E_DISCARD_TOO_MANY, me, popcount(ws.h16[me]) - discards.shape[0] + i, 0, 0)
        _, _, n = decision(ws, True)
        if not is_in(discards[i], ws.legal, n):
            return refuse(err, E_DISCARD_NOT_HELD, discards[i], 0, 0, 0)
        apply_move(params, ws, discards[i], out, trace, False)
    return not another_discards(ws, me, err)


@njit(cache=True, _nrt=False)
def may_play_in_replay(ws, seat, me, card):
    """Whether ``seat`` may play trump ``card`` in a replay: ``me``'s legal plays
    (``decision``); another seat's placeholders hold the card while its strength bit is set.
    (Not ``decision`` for another seat: its ``h16`` may hold ``PHANTOM``, bit 16, which has no
    card to list: ``CARD_AT[trump, 16]`` would read outside the table.)"""
    if seat == me:
        _, _, n = decision(ws, True)
        return is_in(card, ws.legal, n)
    return (ws.h16[seat] >> STRENGTH[ws.sc[S_TRUMP], card]) & 1 == 1


@njit(cache=True, _nrt=False)
def replay_plays(params, ws, me, plays, ends, out, trace, err):
    """The plays (seat, card) in order, each the legal move of the seat the rules give the
    turn to (``decision``, ``apply_move``: leaders, turns, winners, points taken), the
    completed tricks ending where ``ends`` says (exclusive indices into ``plays``)."""
    sc = ws.sc
    own = ws.h54[me] | ws.got54[me] | (ws.got54[4] if sc[S_REST_TO] == me else 0)
    t = 0  # the trick of play j: 0 the first
    for j in range(plays.shape[0]):
        first = j == 0
        if t < ends.shape[0] and j == ends[t]:
            t += 1
            first = True
        trick_no = t + 1
        seat, card = plays[j, 0], plays[j, 1]
        if sc[S_PHASE] != PH_PLAY:
            return refuse(err, E_HAND_OVER, 0, 0, 0, 0)
        if STRENGTH[sc[S_TRUMP], card] < 0:
            return refuse(err, E_NOT_TRUMP, card, 0, 0, 0)
        if seat != me and (own >> card) & 1:
            return refuse(err, E_CARD_OF_SEAT, seat, card, me, 0)
        if first and not trick_empty(ws):
            return refuse(err, E_TRICK_OPEN, trick_no - 1, sc[S_SEAT], 0, 0)
        if not first and trick_empty(ws):
            return refuse(err, E_TRICK_OVER, trick_no, seat, 0, 0)
        if seat != sc[S_SEAT]:
            return refuse(err, E_OUT_OF_TURN, trick_no, seat, sc[S_SEAT], 0)
        if not may_play_in_replay(ws, seat, me, card):
            return refuse(err, E_PLAY_NOT_HELD, seat, card, 0, 0)
        apply_move(params, ws, card, out, trace, False)
    if sc[S_PHASE] != PH_PLAY:
        return refuse(err, E_HAND_OVER, 0, 0, 0, 0)
    current = plays.shape[0] - (ends[ends.shape[0] - 1] if ends.shape[0] > 0 else 0)
    if current == 0 and not trick_empty(ws):
        return refuse(err, E_TRICK_OPEN, ends.shape[0], sc[S_SEAT], 0, 0)
    if current > 0 and trick_empty(ws):
        return refuse(err, E_TRICK_DONE, 0, 0, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def check_alive(ws, me, alive, err):
    """The seats holding trumps at the start of the current trick, as the rules have them
    after the replay, against ``alive`` (the position's ``out``)."""
    have = ws.sc[S_ALIVE]
    for s in range(4):
        given, ruled = (alive >> s) & 1, (have >> s) & 1
        if given != ruled:
            if s != me:
                return refuse(err, E_OUT_PLAYED, s, 0, 0, 0)
            return refuse(err, E_OWN_OUT if ruled else E_OWN_NONE, s, 0, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def replay_after_trump(params, ws, me, received, refill54, rest_to, rest54, discards, plays, ends, alive, out,
                       trace, err):
    """``load_position`` from the refill on: refill, rest, ``me``'s discards, the plays; stops
    at the first decision the history does not settle."""
    sc = ws.sc
    if not replay_refill(ws, me, received, refill54, err):
        return False
    if sc[S_PHASE] == PH_GIVE:
        if rest_to < 0:
            return True  # the give decision
        if not replay_rest(ws, me, rest_to, rest54, err):
            return False
    elif rest_to >= 0:
        return refuse(err, E_NO_REST, 0, 0, 0, 0)
    if not replay_discards(params, ws, me, discards, out, trace, err):
        return False
    if sc[S_PHASE] == PH_DISCARD:
        if plays.shape[0] > 0:
            return refuse(err, E_DISCARD_FIRST, me, popcount(ws.h16[me]), 0, 0)
        return True  # a discard decision of me
    return replay_plays(params, ws, me, plays, ends, out, trace, err) and check_alive(ws, me, alive, err)


@njit(entry=True, cache=True)
def load_position(params, ws, me, dealer, scores, hand54, bids, trump, received, refill54, rest_to, rest54,
                  discards, plays, ends, alive, err):
    """Set ``ws`` to the position of seat ``me`` by replaying its public history through the
    rules the games are played with (``decision`` for the legal moves, ``apply_move`` and its
    helpers for their effects). The cards ``me`` cannot see stay empty: the sampler draws
    them (``resample_hidden``).

    The history: ``scores`` int64[2] before the hand; ``hand54`` ``me``'s nine cards; ``bids``
    int64[b] (0 pass, 4..10, MOON) from left of the dealer; ``trump`` -1 (not named yet) or
    0..3; then ``received`` int64[4] (refill counts by seat), ``refill54`` (``me``'s refill
    cards), ``rest_to`` (-1: the give decision is next) and ``rest54`` (the rest, when ``me``
    got it), ``discards`` int64[d] (``me``'s, in order), ``plays`` int64[m, 2] (seat, card) in
    play order, the completed tricks ending at ``ends`` int64[t] (exclusive), the current
    trick after them, and ``alive`` (bit mask: the seats holding trumps at the start of the
    current trick). The replay stops where the history stops: the decision there is the
    position's (``decision(ws, True)``).

    Writes ``err`` int64[5]: [E_OK] or [code, arguments] of the first fact the rules refuse
    (codes.E_*); returns whether the history was possible."""
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sc = ws.sc
    err[:] = 0
    sc[:] = 0
    sc[S_WINNER] = -1
    sc[S_HANDS] = 1
    sc[S_DEALER] = dealer
    ws.scores[0], ws.scores[1] = scores[0], scores[1]
    open_hand(ws)
    ws.h54[me] = hand54
    if not replay_bids(params, ws, bids, out, trace, err):
        return False
    if trump < 0:
        return True
    if sc[S_PHASE] != PH_TRUMP:
        return refuse(err, E_BIDDING_OPEN, 0, 0, 0, 0)
    name_trump(ws, trump)
    done = ends[ends.shape[0] - 1] if ends.shape[0] > 0 else 0
    others_placeholders(ws, me, trump, plays, done, alive)
    ok = replay_after_trump(params, ws, me, received, refill54, rest_to, rest54, discards, plays, ends, alive,
                            out, trace, err)
    for s in range(4):
        if s != me:
            ws.h16[s] = 0  # the placeholders: the sampler deals the hidden trumps
    return ok



@njit(cache=True, inline="always")
def world_of(seed, j, base_ws, samp, fw, seat, worlds, rng, strat, infer, complete, buf):
    """Put the hidden cards of evaluation sample ``j`` into ``samp``: with ``worlds``
    (int64[W, 4]) world j mod W's trumps for the other seats (their discards unknown), else a
    draw of ``sample_state`` from sample j's DEAL stream (``rng``, uint64[4], overwritten;
    ``fw`` the sampler's weights, ``buf`` its scratch). False when no draw fitted the bids
    (``infer``). evaluate_block and solve_block share it, so the solver values the very worlds
    the rollouts play (paired)."""
    seed_stream(rng, seed, j, DEAL)
    if worlds.shape[0] > 0:
        copy_bundle(base_ws, samp)
        w = j % worlds.shape[0]
        for s in range(4):
            if s != seat:
                samp.h16[s] = worlds[w, s]
                samp.disc[s] = 0
        return True
    return sample_state(base_ws, samp, fw, seat, rng, strat, infer, complete, buf) >= 0


@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, worlds, result, lo, hi, bid_decision,
                   infer, complete, users, tier):
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
    fw = sampler_weights()  # samp's weights (prepare_hidden), once for every sample
    mcws = mc_workspace(params, strat, tier)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    buf = np.zeros(64, dtype=np.int64)
    team = seat & 1
    nw = worlds.shape[0]
    copy_bundle(base_ws, samp)
    if samp.sc[S_PHASE] > PH_TRUMP:
        prepare_hidden(samp, fw, seat)
    for j in range(lo, hi):
        if not world_of(seed, start + j, base_ws, samp, fw, seat, worlds, sample_rng, strat, infer, complete, buf):
            for i in range(options.shape[0]):
                result[j, i, 0] = -998
            continue
        for i in range(options.shape[0]):
            # the same hidden cards and the same future for every option (common random numbers)
            copy_bundle(samp, ws)
            seed_stream(ws.deal_rng, seed, start + j, ROLL_DEAL)
            seed_stream(ws.play_rng, seed, start + j, PLAY)
            if play_hand_on(params, strat, users, tier, ws, mcws, out, err, trace, options[i]) < 0:
                result[j, i, 0] = -999
                continue
            result[j, i, 0] = own_change(params, ws, team) if bid_decision else made_bid(ws)
            if ws.sc[S_WINNER] < 0:
                play_rest(params, strat, users, tier, ws, mcws, out, err, trace, False, -1)
            result[j, i, 1] = 1 if ws.sc[S_WINNER] == team else 0


@in_blocks("result", optimized_twice=True)  # Pitch plays faster for it (blocks.in_blocks)
@njit(entry=True, nogil=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, worlds, result, nblocks, bid_decision,
                   infer, complete, users, tier):
    """``evaluate_block`` over samples 0..n-1 of ``result`` (int64[n, k, 2]) in ``nblocks``
    parallel blocks."""
    n = result.shape[0]
    for b in range(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, worlds, result, b * n // nblocks,
                       (b + 1) * n // nblocks, bid_decision, infer, complete, users, tier)


@njit(cache=True)
def solve_block(seed, start, params, strat, base_ws, seat, options, worlds, result, lo, hi, infer, complete):
    """Samples ``lo .. hi - 1`` of solve_chunk, in a solver table of this block's own (its
    entries stay valid from world to world: solver.solve_moves_on)."""
    samp = workspace(params)
    fw = sampler_weights()
    sample_rng = np.zeros(4, dtype=np.uint64)
    buf = np.zeros(64, dtype=np.int64)
    tt = np.zeros((1 << PIMC_TT_BITS, 3), dtype=np.int64)
    stack = np.zeros((STACK_ROWS, STACK_WIDTH), dtype=np.int64)
    moves = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    copy_bundle(base_ws, samp)
    if samp.sc[S_PHASE] > PH_TRUMP:
        prepare_hidden(samp, fw, seat)
    trump = base_ws.sc[S_TRUMP]
    for j in range(lo, hi):
        if not world_of(seed, start + j, base_ws, samp, fw, seat, worlds, sample_rng, strat, infer, complete, buf):
            for i in range(options.shape[0]):
                result[j, i] = -998
            continue
        sc = samp.sc
        n, _ = solve_moves_on(samp.h16, sc[S_LEADER], seat, sc[S_WIN_K], sc[S_WIN_SEAT], sc[S_POINTS],
                              samp.taken[0], samp.taken[1], tt, moves, values, stack)
        for i in range(options.shape[0]):
            strength = STRENGTH[trump, options[i]]
            for m in range(n):
                if moves[m] == strength:
                    result[j, i] = values[m]


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def solve_chunk(seed, start, params, strat, base_ws, seat, options, worlds, result, nblocks, infer, complete):
    """``evaluate --method solve`` in a play decision: every option's exact value with every
    hand open (solver.solve_moves_on: the points of this round the seat's team takes), in the
    worlds of evaluation samples ``start .. start + len(result) - 1`` (``world_of``: the
    hidden cards evaluate_chunk plays them in). options int64[k] card codes; result
    int64[n, k] (written; -998 for a sample no draw fitted the bids)."""
    n = result.shape[0]
    for b in range(nblocks):
        solve_block(seed, start, params, strat, base_ws, seat, options, worlds, result, b * n // nblocks,
                    (b + 1) * n // nblocks, infer, complete)


@njit(entry=True, cache=True)
def count_fits(seed, base_ws, me, strat, n):
    """How many of ``n`` draws of the hidden cards (without inference) fit the other seats'
    bids under their bidding models (``bids_fit``): the acceptance rate of inference."""
    ws = workspace(np.zeros(2, dtype=np.int64))
    buf = np.zeros(64, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    fw = sampler_weights()
    copy_bundle(base_ws, ws)
    if ws.sc[S_PHASE] > PH_TRUMP:
        prepare_hidden(ws, fw, me)
    seed_stream(rng, seed, 0, DEAL)
    fits = 0
    for j in range(n):
        sample_state(base_ws, ws, fw, me, rng, strat, False, True, buf)
        if bids_fit(ws, me, strat):
            fits += 1
    return fits


@njit(cache=True)
def bid_table_block(seed, start, params, strat, base_ws, seat, result, lo, hi, users, tier):
    """result[j, t] = points the seat's team takes when the seat pitches in suit t (sample j,
    the same hidden cards for every suit), the rest played by the rollout strategies."""
    ws = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    fw = sampler_weights()
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        for t in range(4):
            copy_bundle(base_ws, ws)
            seed_stream(sample_rng, seed, start + j, DEAL)
            resample_hidden(ws, fw, seat, sample_rng)
            seed_stream(ws.deal_rng, seed, start + j, ROLL_DEAL)
            seed_stream(ws.play_rng, seed, start + j, PLAY)
            # the seat is the pitcher (at 4: no strategy's play depends on the bid level)
            sc = ws.sc
            sc[S_PHASE] = PH_TRUMP
            sc[S_PITCHER] = seat
            sc[S_HIGH] = 4
            sc[S_SEAT] = seat
            play_hand_on(params, strat, users, tier, ws, mcws, out, err, trace, MOVE_TRUMP0 + t)
            result[j, t] = ws.taken[seat & 1]


@in_blocks("result", optimized_twice=True)  # Pitch plays faster for it (blocks.in_blocks)
@njit(entry=True, nogil=True, cache=True)
def bid_table_chunk(seed, start, params, strat, base_ws, seat, result, nblocks, users, tier):
    n = result.shape[0]
    for b in range(nblocks):
        bid_table_block(seed, start, params, strat, base_ws, seat, result, b * n // nblocks,
                        (b + 1) * n // nblocks, users, tier)
