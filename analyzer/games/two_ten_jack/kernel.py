"""Two-Ten-Jack play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a *bundle* (``workspace``: a ``codes.Bundle``, fields named as below),
arrays only:
    stock    int64[52]   the deck; ``stock[top:52]`` is still to be drawn, lazily shuffled
                         from the game's DEAL stream (rng.draw_lazy)
    legal    int64[64]   list scratch (user decisions, the trace)
    strategy_view int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng   uint64[4] the game's two random streams
    taken    int64[2]    bit mask of the cards each seat took in tricks this round
    scores   int64[2]    running scores
    hands    int64[2]    bit mask of the cards each seat holds
    levels   int64[2, N_LEVELS]  knowledge of each seat's hand (``track`` on, see below):
                         the masks of its levels, oldest first
    kn       int64[2, 3] per seat: number of levels, number of states, cards held
    sc       int64[N_SC] scalar registers (``codes.S_*``; Python reads them with
                         ``codes.scalars``): S_DEALER, S_LEADER, S_TRICK (tricks done this round), S_TOP,
                         S_LEAD (lead move of the trick in progress, -1 when none),
                         S_PLAYED (mask of the cards of finished tricks), S_ROUNDS,
                         S_DECISIONS, S_TRACK (1: keep the knowledge up to date)
    rng_scratch  uint64[4]  scratch RNG state (a traced deal previews the stock's order)
    keys     int64[2, N_STATES]    knowledge states per seat: a count per level, 4 bits each
    weights  float64[2, N_STATES]  knowledge states per seat: their weights
    scratch_keys int64[N_STATES], scratch_w float64[N_STATES]  (state updates, sampling)
Out row columns (spec.extra_columns), after winners, hands (rounds), decisions, score_0/1:
    points_dealer, points_nondealer   sums over the game's rounds
    as_led, as_led_trump              rounds where AS was led (as a trump)
    bin_dealer_k, bin_nondealer_k     rounds where the dealer's / non-dealer's round points
                                      fell in bin k (BIN_LABELS in spec.py)
    dealt_s                           rounds seat s dealt
    points_dealing_s, points_nondealing_s   seat s's points in the rounds it dealt / did not

The rules live once, in ``deal_round``, ``play_move`` and ``settle_round`` (``apply_move``
is ``play_move`` on the bundle). Two small drivers choose the moves: ``play_turns`` (any
strategy: fresh games, records, evaluation) and ``builtin_turns`` (built-in base
strategies only: what ``mc`` rolls out with, and what ``play_turns`` hands a round between
built-ins to; keeping it apart keeps the call graph free of recursion, which numba does not
compile reliably). Both hold the round in local variables
while they play (``load_round``). ``user_turns`` rolls ``mc`` out with a user strategy as
its base (``mc:base=file.py:f``), moving by moving on the bundle as a user seat does.

What a seat knows of the other's hand (the *knowledge*, kept when ``track`` is on: ``mc``
and evaluation). The seen-by-all history is who played which card when, the suit led and
the draws. Each card of a hand entered it at a known time (the deal, or a draw) and must
avoid every void mask the hand showed while it held the card (``void_mask``). The deal
being uniform, a hidden hand H has a probability proportional to the number of ways to
assign the cards the hand has played and H to its receipt slots within those constraints.
The held slots are grouped into *levels* of equal mask (older slots know more, so the masks
are nested; at most 5 distinct levels: unions of suits). A forward dynamic programme over
the events keeps, per seat, the *states* reachable (a count of held slots per level) with
their weights (the number of assignments of the cards played so far leading there):
a draw adds a slot to the fresh level (mask 0), a void ORs its mask into every level
(merging equal levels), a card played leaves from any level whose mask allows it (weight
times that level's count). The number of ways to fill a state with a hand from the
unseen cards is a product (nested masks); the sampler picks a state with probability
proportional to weight x fills, then fills it sequentially (``hidden_setup``,
``hidden_hand``): exactly uniform over the deals consistent with the history. Nothing is
read into the other seat's choices beyond their legality.

User strategy view (``view``, int64): laid out as ``view.py`` names it (``V_*`` here are
those names: V_SEAT is view.SEAT, ...).
"""

from __future__ import annotations

import numpy as np

from analyzer import ismcts
from analyzer import trace as tr
from analyzer.bits import lowest, nth_bit, popcount
from analyzer.blocks import in_blocks
from analyzer.slots import refuse_move
from analyzer.games.two_ten_jack import strategies as st
from analyzer.games.two_ten_jack.rules import (
    ACE_SPADES,
    AS_TRUMP,
    CARD_POINTS,
    FOLLOW_MASK,
    HAND_SIZE,
    P_TARGET,
    TRICKS,
    TRUMP_MASK,
    follow_moves,
    follower_wins,
    lead_card,
    lead_moves,
    mask_points,
    round_winners,
    suit_led,
)
from analyzer.games.two_ten_jack.codes import (
    EV_DEAL,
    EV_DECIDE,
    EV_GAME_END,
    EV_HAND_END,
    EV_TRICK,
    KN_HELD,
    KN_LEVELS,
    KN_STATES,
    N_COLUMNS,
    N_SC,
    O_AS_LED,
    O_AS_TRUMP,
    O_BIN_DEALER,
    O_BIN_NON,
    O_DEALT,
    O_DECISIONS,
    O_PTS_DEALER,
    O_PTS_DEALING,
    O_PTS_NON,
    O_PTS_NONDEALING,
    O_ROUNDS,
    O_SCORE,
    O_WINNERS,
    PIMC_MAX_TRICKS,
    PIMC_TT_BITS,
    S_DEALER,
    S_DECISIONS,
    S_LEAD,
    S_LEADER,
    S_PLAYED,
    S_ROUNDS,
    S_TOP,
    S_TRACK,
    S_TRICK,
    TAG_DRAWS,
    TAG_STOCK,
    Bundle,
    McWorkspace,
    SearchArrays,
)
from analyzer.games.two_ten_jack.solver import WORK_SIZE, solve_moves
from analyzer.games.two_ten_jack.view import (
    DEALER as V_DEALER,
    HAND as V_HAND,
    LEAD as V_LEAD,
    PLAYED as V_PLAYED,
    ROUND as V_ROUND,
    SCORE as V_SCORE,
    SEAT as V_SEAT,
    STOCK as V_STOCK,
    SUIT as V_SUIT,
    TAKEN as V_TAKEN,
    TARGET as V_TARGET,
    TRICK as V_TRICK,
    VIEW_SIZE,
)
from analyzer.jit import njit
from analyzer.rng import (DEAL, PLAY, draw_lazy_w, hand_purpose, load_words, next_u64, preview_into, randbelow,
                          seed_stream, shuffle, store_words, uniform01)

#: knowledge: levels (at most 5 distinct nested masks) and states (counts per level summing
#: to at most 6 cards over at most 5 levels: at most C(10, 4) = 210)
N_LEVELS = 8
N_STATES = 256
ALL_CARDS = np.int64((1 << 52) - 1)

#: the entry points that take the user strategy slots as their last but one argument ``users``: a
#: tuple of engine.SLOTS compiled functions ``(view, legal, n, rng) -> move`` (engine.SlotKernel);
#: a seat with strategy id ``sid < 0`` plays ``users[-1 - sid]``
USER_ENTRIES = ("run_chunk", "run_traced", "evaluate_chunk", "paired_swap_chunk", "mc_work")
#: a user slot can be the base of ``mc`` and ``pimc`` (``mc:base=file.py:f``): ``user_turns``
#: plays mc's rollouts with it, ``tie_break_user`` breaks pimc's ties
USER_BASES = True
#: the entry points take the compile tier after ``users`` (engine.search_tier): strategy ids
#: from here on are search strategies, compiled only into the kernels' search tier
SEARCH_FROM = st.SEARCH


@njit(cache=True, inline="always")
def point_bin(x):
    """Histogram bin of a player's round points: <=-10, -9..-5, -4..0, 1..4, 5..9, 10..14, >=15."""
    # a sum of comparisons: branches on the points would mispredict
    return (np.int64(x > -10) + np.int64(x > -5) + np.int64(x > 0) + np.int64(x > 4) + np.int64(x > 9)
            + np.int64(x > 14))


@njit(cache=True)
def mask_list(mask, arr):
    """Write the set bits of ``mask`` (low to high) into ``arr``; returns how many."""
    n = 0
    m = mask
    while m:
        arr[n] = lowest(m)
        n += 1
        m &= m - 1
    return n


@njit(entry=True, cache=True)
def workspace(params):
    """One state bundle (a ``codes.Bundle``: see the module docstring), allocated once per
    block of games."""
    return Bundle(np.zeros(52, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(2, dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros((2, N_LEVELS), dtype=np.int64),
            np.zeros((2, 3), dtype=np.int64), np.zeros(N_SC, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros((2, N_STATES), dtype=np.int64), np.zeros((2, N_STATES), dtype=np.float64),
            np.zeros(N_STATES, dtype=np.int64), np.zeros(N_STATES, dtype=np.float64))


@njit(cache=True)
def mc_workspace(params, strat, tier):
    """What ``mc``, ``pimc`` and ``ismcts`` work in: the rollout bundle, the sampled position,
    a scratch out row, the points per move, a scratch trace, the solver's arrays and the
    search tree (a ``codes.McWorkspace``); the solver's table is full size only when a seat
    of ``strat`` plays ``pimc``, the tree only when one plays ``ismcts`` (room for the most
    iterations of such a seat). None in the base tier (``tier`` empty: engine.search_tier),
    where nobody searches: the play loop takes every array of the scratch as an argument at
    each call, and without them random play is 19% faster (paired runs, 2026-12-04)."""
    if len(tier) == 0:  # the base tier (engine.search_tier)
        return None
    pimc = False
    nodes = 2
    for s in range(strat.shape[0]):
        pimc = pimc or strat[s, 0] == st.PIMC
        if strat[s, 0] == st.ISMCTS:
            nodes = max(nodes, strat[s, 1] + 1)
    table = np.zeros(((1 << PIMC_TT_BITS if pimc else 2) + 1, 3), dtype=np.uint64)
    table[table.shape[0] - 1, 0] = 1  # the solver's generation (solver.new_table)
    search = SearchArrays(table, np.zeros(WORK_SIZE, dtype=np.int64), np.zeros(41, dtype=np.int64),
                          np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64))
    # a path holds the root and at most every move left in the round; at most 7 legal moves
    tree = ismcts.new_tree(nodes, 2 * TRICKS + 1, HAND_SIZE + 2, 2)
    return McWorkspace(workspace(params), workspace(params), np.zeros(N_COLUMNS, dtype=np.int64),
                       np.zeros(64, dtype=np.int64), np.zeros((1, tr.WIDTH), dtype=np.int64), search, tree,
                       np.zeros(ROUND_KEYS, dtype=np.float64), np.zeros(2, dtype=np.int64))


@njit(cache=True, _nrt=False)
def copy_round(src, dst):
    """Copy a whole state (``src`` into ``dst``) but the knowledge and the scratch lists."""
    for i in range(52):
        dst.stock[i] = src.stock[i]
    for j in range(4):
        dst.deal_rng[j] = src.deal_rng[j]
        dst.play_rng[j] = src.play_rng[j]
    for s in range(2):
        dst.taken[s] = src.taken[s]
        dst.scores[s] = src.scores[s]
        dst.hands[s] = src.hands[s]
    for i in range(N_SC):
        dst.sc[i] = src.sc[i]


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``) with the knowledge (its live states only),
    but not the scratch lists."""
    copy_round(src, dst)
    for s in range(2):
        for j in range(3):
            dst.kn[s, j] = src.kn[s, j]
        for k in range(src.kn[s, KN_LEVELS]):
            dst.levels[s, k] = src.levels[s, k]
        for i in range(src.kn[s, KN_STATES]):
            dst.keys[s, i] = src.keys[s, i]
            dst.weights[s, i] = src.weights[s, i]


@njit(cache=True, _nrt=False)
def fill_view(view, seat, ws, target, lead):
    taken, scores, hands, sc = ws.taken, ws.scores, ws.hands, ws.sc
    view[V_SEAT] = seat
    view[V_DEALER] = sc[S_DEALER]
    view[V_TARGET] = target
    view[V_STOCK] = 52 - sc[S_TOP]
    view[V_TRICK] = sc[S_TRICK] + 1
    view[V_LEAD] = -1 if lead < 0 else lead_card(lead)
    view[V_SUIT] = -1 if lead < 0 else suit_led(lead)
    view[V_HAND] = hands[seat]
    view[V_PLAYED] = sc[S_PLAYED]
    view[V_TAKEN] = taken[0]
    view[V_TAKEN + 1] = taken[1]
    view[V_SCORE] = scores[0]
    view[V_SCORE + 1] = scores[1]
    view[V_ROUND] = sc[S_ROUNDS]


@njit(cache=True, inline="always")
def bad_move(move, mask):
    return move < 0 or move >= 64 or ((mask >> move) & 1) == 0


# ---- the round in local variables --------------------------------------------------------------
# The play loops hold the round's hot state in local variables, as one tuple
#     r = (hands, leader, lead, top, trick, played, deal)
# (hands: the pair of hand masks; the S_LEADER, S_LEAD, S_TOP, S_TRICK, S_PLAYED scalars;
# deal: the DEAL stream's words, rng.load_words). numba gives LLVM no alias information, so
# values kept in the bundle's arrays would be reloaded after every store to any array.
# ``load_round`` / ``store_round`` move the round between the bundle and locals; the bundle
# is brought up to date before anything else reads it (mc, a user strategy, the caller).
R_TRICK = 4


@njit(cache=True, inline="always")
def load_round(ws):
    """The round in locals (see above), from ``hands``, ``sc`` and ``deal_rng``."""
    hands, sc = ws.hands, ws.sc
    return ((hands[0], hands[1]), sc[S_LEADER], sc[S_LEAD], sc[S_TOP], sc[S_TRICK], sc[S_PLAYED],
            load_words(ws.deal_rng))


@njit(cache=True, inline="always")
def store_round(ws, r):
    """Write the round in locals back into ``hands``, ``sc`` and ``deal_rng``."""
    hands, sc = ws.hands, ws.sc
    pair, leader, lead, top, trick, played, deal = r
    hands[0], hands[1] = pair
    sc[S_LEADER], sc[S_LEAD], sc[S_TOP], sc[S_TRICK], sc[S_PLAYED] = leader, lead, top, trick, played
    store_words(ws.deal_rng, deal)


@njit(cache=True, inline="always")
def set_seat(pair, seat, value):
    """``pair`` (one value per seat) with seat ``seat``'s value replaced by ``value``."""
    return (pair[0], value) if seat else (value, pair[1])


@njit(cache=True, inline="always")
def of_seat(pair, seat):
    """Seat ``seat``'s value of ``pair`` (a tuple indexed by a variable would cost a
    bounds-checked switch)."""
    return pair[1] if seat else pair[0]


@njit(cache=True, inline="always")
def to_move(hands, leader, lead):
    """The seat to move and its legal move mask (``lead``: the lead move, -1 when none)."""
    if lead < 0:
        return leader, lead_moves(of_seat(hands, leader))
    seat = 1 - leader
    return seat, follow_moves(of_seat(hands, seat), suit_led(lead))


# ---- public knowledge of a hand ----------------------------------------------------------------

# The knowledge of seat s's hand (module docstring): ``levels[s, :L]`` the level masks,
# oldest (largest) first; ``keys[s, :n]`` the states, count of held slots of level l in bits
# 4l..4l+3; ``weights[s, :n]`` their weights; ``kn[s]`` = (L, n, cards held). Only ever
# updated when ``track`` is on (never in games between built-ins).
NIB = np.int64(15)


@njit(cache=True, _nrt=False)
def know_reset(ws, s):
    """A fresh deal: one level (no void yet) holding the 6 cards, one state."""
    levels, kn, keys, weights = ws.levels, ws.kn, ws.keys, ws.weights
    levels[s, 0] = 0
    kn[s, KN_LEVELS] = 1
    kn[s, KN_STATES] = 1
    kn[s, KN_HELD] = HAND_SIZE
    keys[s, 0] = HAND_SIZE
    weights[s, 0] = 1.0


@njit(cache=True, _nrt=False)
def know_draw(ws, s):
    """Seat ``s`` draws: a new slot at the fresh level (mask 0), added to every state."""
    levels, kn, keys = ws.levels, ws.kn, ws.keys
    nl = kn[s, KN_LEVELS]
    if nl > 0 and levels[s, nl - 1] == 0:
        inc = np.int64(1) << (4 * (nl - 1))
    else:
        levels[s, nl] = 0
        kn[s, KN_LEVELS] = nl + 1
        inc = np.int64(1) << (4 * nl)
    for i in range(kn[s, KN_STATES]):
        keys[s, i] += inc
    kn[s, KN_HELD] += 1


@njit(cache=True, _nrt=False)
def know_add(skeys, sw, n, key, w):
    """Add weight ``w`` to state ``key`` of the list ``skeys/sw[:n]`` (appended when new);
    returns the new length. The lists are short: a linear search."""
    for i in range(n):
        if skeys[i] == key:
            sw[i] += w
            return n
    if n < skeys.shape[0]:  # at most 210 states exist (see N_STATES): never full
        skeys[n] = key
        sw[n] = w
        n += 1
    return n


@njit(cache=True, _nrt=False)
def know_normalize(ws, s):
    """Drop the levels no state holds a slot of, merge neighbouring levels of equal mask
    (after a void), and add up the weights of states that became equal."""
    levels, kn, keys, weights, skeys, sw = ws.levels, ws.kn, ws.keys, ws.weights, ws.scratch_keys, ws.scratch_w
    nl, n = kn[s, KN_LEVELS], kn[s, KN_STATES]
    alive = np.int64(0)
    for i in range(n):
        alive |= keys[s, i]
    # new index of each old level, 4 bits each; levels[s] compacted in place (j <= l)
    remap = np.int64(0)
    j = 0
    same = True
    for lv in range(nl):
        if (alive >> (4 * lv)) & NIB == 0:
            same = False
            continue
        if j > 0 and levels[s, j - 1] == levels[s, lv]:
            same = False
            remap |= np.int64(j - 1) << (4 * lv)
            continue
        levels[s, j] = levels[s, lv]
        remap |= np.int64(j) << (4 * lv)
        j += 1
    if same:
        return
    kn[s, KN_LEVELS] = j
    m = 0
    for i in range(n):
        key = keys[s, i]
        new = np.int64(0)
        for lv in range(nl):
            new += ((key >> (4 * lv)) & NIB) << (4 * ((remap >> (4 * lv)) & NIB))
        m = know_add(skeys, sw, m, new, weights[s, i])
    for i in range(m):
        keys[s, i] = skeys[i]
        weights[s, i] = sw[i]
    kn[s, KN_STATES] = m


@njit(cache=True, _nrt=False)
def know_void(ws, s, void):
    """Seat ``s`` showed it holds no card of ``void``: every card it holds now avoids it."""
    levels, kn = ws.levels, ws.kn
    for lv in range(kn[s, KN_LEVELS]):
        levels[s, lv] |= void
    know_normalize(ws, s)


@njit(cache=True, _nrt=False)
def know_play(ws, s, card):
    """Seat ``s`` played ``card``: it came from a slot of any level whose mask allows it;
    each state branches into those (weight times the level's count)."""
    levels, kn, keys, weights, skeys, sw = ws.levels, ws.kn, ws.keys, ws.weights, ws.scratch_keys, ws.scratch_w
    nl, n = kn[s, KN_LEVELS], kn[s, KN_STATES]
    m = 0
    for i in range(n):
        key = keys[s, i]
        w = weights[s, i]
        for lv in range(nl):
            c = (key >> (4 * lv)) & NIB
            if c and not (levels[s, lv] >> card) & 1:
                m = know_add(skeys, sw, m, key - (np.int64(1) << (4 * lv)), w * np.float64(c))
    for i in range(m):
        keys[s, i] = skeys[i]
        weights[s, i] = sw[i]
    kn[s, KN_STATES] = m  # 0 only after an impossible history: the sampler then ignores the knowledge
    kn[s, KN_HELD] -= 1
    know_normalize(ws, s)


@njit(cache=True, _nrt=False)
def fills(ws, s, i, pool):
    """Number of ways to fill state ``i`` of seat ``s``'s knowledge with cards of ``pool``
    (ordered: slots are distinct): oldest level first, its k-th slot overall can take the
    cards of ``pool`` its mask allows but the k already placed (nested masks: those are
    all allowed here too)."""
    levels, kn, keys = ws.levels, ws.kn, ws.keys
    key = keys[s, i]
    f = 1.0
    k = 0
    for lv in range(kn[s, KN_LEVELS]):
        c = (key >> (4 * lv)) & NIB
        if c:
            a = popcount(pool & ~levels[s, lv])
            for _ in range(c):
                if a <= k:
                    return 0.0
                f *= np.float64(a - k)
                k += 1
    return f


@njit(entry=True, cache=True, _nrt=False)
def hidden_weight(ws, s, pool):
    """Weight of seat ``s`` holding cards of ``pool``: sum over the states of weight x fills.
    With ``pool`` a hand of the right size: the (relative) probability of that hand."""
    total = 0.0
    for i in range(ws.kn[s, KN_STATES]):
        total += ws.weights[s, i] * fills(ws, s, i, pool)
    return total


@njit(cache=True, _nrt=False)
def unseen(ws, seat):
    """The cards ``seat`` cannot see: all but its hand, the cards played and the card led."""
    hands, sc = ws.hands, ws.sc
    seen = hands[seat] | sc[S_PLAYED]
    lead = sc[S_LEAD]
    if lead >= 0:
        seen |= np.int64(1) << lead_card(lead)
    return ALL_CARDS & ~seen


@njit(cache=True, _nrt=False)
def hidden_setup(ws, seat, cum):
    """What sampling the other hand needs, once per position: (the unseen pool, the total
    weight, 1 if the knowledge is usable). ``cum[i]``: the cumulative weight x fills of the
    states of the other seat (float64[N_STATES])."""
    other = 1 - seat
    kn = ws.kn
    pool = unseen(ws, seat)
    total = 0.0
    if ws.sc[S_TRACK] != 0 and kn[other, KN_HELD] == popcount(ws.hands[other]):
        for i in range(kn[other, KN_STATES]):
            total += ws.weights[other, i] * fills(ws, other, i, pool)
            cum[i] = total
    return pool, total, np.int64(total > 0.0)


@njit(cache=True, _nrt=False)
def hidden_hand(ws, seat, pool, cum, total, ok, rng):
    """A hidden hand for the other seat, drawn exactly from the knowledge (``hidden_setup``):
    a state with probability weight x fills / total, then its slots filled oldest level
    first, each with a uniform pick among the cards of ``pool`` its mask allows not taken
    yet (every ordered fill equally likely). Without usable knowledge: uniform over
    ``pool``."""
    other = 1 - seat
    levels, kn, keys = ws.levels, ws.kn, ws.keys
    h = popcount(ws.hands[other])
    hand = np.int64(0)
    free = pool
    if ok:
        i = 0
        n = kn[other, KN_STATES]
        if n > 1:
            u = uniform01(rng) * total
            while i < n - 1 and cum[i] <= u:
                i += 1
        key = keys[other, i]
        for lv in range(kn[other, KN_LEVELS]):
            for _ in range((key >> (4 * lv)) & NIB):
                allowed = free & ~levels[other, lv]
                c = nth_bit(allowed, randbelow(rng, popcount(allowed)))
                hand |= np.int64(1) << c
                free ^= np.int64(1) << c
        return hand
    for _ in range(h):
        c = nth_bit(free, randbelow(rng, popcount(free)))
        hand |= np.int64(1) << c
        free ^= np.int64(1) << c
    return hand


@njit(cache=True, _nrt=False)
def place_hidden(ws, seat, pool, hand):
    """The other seat holds ``hand``; the rest of ``pool`` is the stock (its order is drawn
    lazily later)."""
    stock = ws.stock
    ws.hands[1 - seat] = hand
    rest = pool & ~hand
    i = ws.sc[S_TOP]
    while rest:
        stock[i] = lowest(rest)
        rest &= rest - 1
        i += 1


@njit(cache=True, inline="always")
def void_mask(suit, card):
    """Cards a follower shows it lacks when it plays ``card`` on ``suit`` (0: it followed)."""
    follow = FOLLOW_MASK[suit]
    if (follow >> card) & 1:
        return np.int64(0)
    if (TRUMP_MASK >> card) & 1:
        return follow
    return follow | TRUMP_MASK


# ---- the rules, once ----------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def start_round(ws):
    """A fresh round's scalars (hands dealt elsewhere)."""
    taken, sc = ws.taken, ws.sc
    taken[0] = 0
    taken[1] = 0
    sc[S_PLAYED] = 0
    sc[S_TRICK] = 0
    sc[S_LEAD] = -1
    sc[S_LEADER] = 1 - sc[S_DEALER]
    know_reset(ws, 0)
    know_reset(ws, 1)


@njit(cache=True, _nrt=False)
def deal_round(ws, trace, tracing):
    """Round ``rounds + 1``: gather, deal 6 each one at a time from the DEAL stream, non-dealer first."""
    stock, legal, deal_rng, hands, sc = ws.stock, ws.legal, ws.deal_rng, ws.hands, ws.sc
    sc[S_ROUNDS] += 1
    for c in range(52):
        stock[c] = c
    one = np.int64(1)
    non = 1 - sc[S_DEALER]
    hn = np.int64(0)
    hd = np.int64(0)
    top = 0
    deal = load_words(deal_rng)
    for k in range(HAND_SIZE):
        cn, deal = draw_lazy_w(stock, top, 52, deal)
        cd, deal = draw_lazy_w(stock, top + 1, 52, deal)
        hn |= one << cn
        hd |= one << cd
        top += 2
    store_words(deal_rng, deal)
    hands[non] = hn
    hands[1 - non] = hd
    sc[S_TOP] = top
    start_round(ws)
    if tracing:
        tr.emit(trace, EV_DEAL, sc[S_ROUNDS], sc[S_DEALER], 0, 0)
        for p in range(2):
            tr.emit_list(trace, p, legal, mask_list(hands[p], legal))
        # the stock's order, previewed into the list scratch (the hands are emitted already)
        tr.emit_list(trace, TAG_STOCK, legal, preview_into(stock, top, 52, deal_rng, legal, ws.rng_scratch))


@njit(cache=True, inline="always")
def play_move(ws, move, out, trace, tracing, track, r):
    """The seat to move plays ``move``: a lead, or a follow that ends the trick (winner,
    cards taken, draws while the stock lasts). ``r`` is the round in locals (``load_round``);
    returns it updated. Writes ``taken``, the stock (lazy draws), ``out`` (AS leads), the
    trace, and the knowledge when ``track``."""
    stock, taken = ws.stock, ws.taken
    hands, leader, lead, top, trick, played, deal = r
    one = np.int64(1)
    if lead < 0:
        lc = lead_card(move)
        if lc == ACE_SPADES:
            out[O_AS_LED] += 1
            if move == AS_TRUMP:
                out[O_AS_TRUMP] += 1
        if track:
            know_play(ws, leader, lc)
        return set_seat(hands, leader, of_seat(hands, leader) ^ (one << lc)), leader, move, top, trick, played, deal
    follower = 1 - leader
    lc = lead_card(lead)
    if track:
        void = void_mask(suit_led(lead), move)
        if void:
            know_void(ws, follower, void)
        know_play(ws, follower, move)
    both = (one << lc) | (one << move)
    winner = follower if follower_wins(lc, move) else leader
    taken[winner] |= both
    if tracing:
        tr.emit(trace, EV_TRICK, leader, lc, move, winner)
    h = set_seat(hands, follower, of_seat(hands, follower) ^ (one << move))
    if top < 52:  # the winner draws, then the loser
        cw, deal = draw_lazy_w(stock, top, 52, deal)
        cl, deal = draw_lazy_w(stock, top + 1, 52, deal)
        h = set_seat(h, winner, of_seat(h, winner) | (one << cw))
        h = set_seat(h, 1 - winner, of_seat(h, 1 - winner) | (one << cl))
        top += 2
        if track:
            know_draw(ws, 0)
            know_draw(ws, 1)
        if tracing:
            tr.emit(trace, tr.LIST, TAG_DRAWS, cw, 0, 0)
            tr.emit(trace, tr.LIST, TAG_DRAWS, cl, 0, 0)
    return h, winner, np.int64(-1), top, trick + 1, played | both, deal


@njit(cache=True, inline="always")
def apply_move(ws, move, out, trace, tracing):
    """``play_move`` on the bundle (reads and writes the round's arrays)."""
    store_round(ws, play_move(ws, move, out, trace, tracing, ws.sc[S_TRACK] != 0, load_round(ws)))


@njit(cache=True, _nrt=False)
def settle_round(params, ws, out, trace, tracing):
    """Score the round; returns the winners (seat mask, 0: play on, the deal passes)."""
    taken, scores, sc = ws.taken, ws.scores, ws.sc
    dealer = sc[S_DEALER]
    non = 1 - dealer
    p0 = mask_points(taken[0])
    p1 = mask_points(taken[1])
    scores[0] += p0
    scores[1] += p1
    pd = p0 if dealer == 0 else p1
    pn = p1 if dealer == 0 else p0
    out[O_PTS_DEALER] += pd
    out[O_PTS_NON] += pn
    out[O_BIN_DEALER + point_bin(pd)] += 1
    out[O_BIN_NON + point_bin(pn)] += 1
    out[O_DEALT + dealer] += 1
    out[O_PTS_DEALING + dealer] += pd
    out[O_PTS_NONDEALING + non] += pn
    if tracing:
        tr.emit(trace, EV_HAND_END, sc[S_ROUNDS], p0, p1, 0)
        tr.emit_list(trace, 0, scores, 2)
    winners = round_winners(scores[0], scores[1], params[P_TARGET])
    if winners == 0:
        sc[S_DEALER] = non
    return winners


@njit(cache=True, _nrt=False)
def finish(ws, out, winners, trace, tracing):
    scores, sc = ws.scores, ws.sc
    out[O_WINNERS] = winners
    out[O_ROUNDS] = sc[S_ROUNDS]
    out[O_DECISIONS] = sc[S_DECISIONS]
    out[O_SCORE] = scores[0]
    out[O_SCORE + 1] = scores[1]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, sc[S_ROUNDS], 0, 0)
        tr.emit_list(trace, 0, scores, 2)


# ---- Monte Carlo: sampling what a seat cannot see, and rollouts ------------------------------

@njit(cache=True, _nrt=False)
def resample_hidden(ws, seat, rng):
    """Redeal what ``seat`` cannot see (the other hand and the stock) exactly: uniformly over
    the deals consistent with the public history (the knowledge, module docstring). Reads
    the knowledge, writes the other hand and ``stock[top:52]`` (its order drawn lazily later);
    uses ``ws``'s scratch weights."""
    pool, total, ok = hidden_setup(ws, seat, ws.scratch_w)
    place_hidden(ws, seat, pool, hidden_hand(ws, seat, pool, ws.scratch_w, total, ok, rng))


@njit(cache=True, inline="always")
def choose_move(sid, mask, hand, lead, stock_left, played, words):
    """The move of a built-in base strategy ``sid`` (random or heuristic); ``lead`` is the
    lead move, -1 when the seat leads; ``words`` the PLAY stream (rng.load_words).
    Returns (move, the advanced words)."""
    if sid == st.RANDOM:
        return st.random_move(mask, words)
    if lead < 0:
        return st.heuristic_lead(hand, played, stock_left), words
    return st.heuristic_follow(mask, lead_card(lead), stock_left), words


@njit(cache=True, inline="always")
def is_builtin(sid):
    """Whether strategy ``sid`` is a built-in base strategy (random or heuristic)."""
    return sid == st.RANDOM or sid == st.HEURISTIC


@njit(cache=True, inline="always")
def emit_decide(trace, seat, move, mask, legal):
    tr.emit(trace, EV_DECIDE, seat, move, 0, 0)
    tr.emit_list(trace, 0, legal, mask_list(mask, legal))


@njit(cache=True, _nrt=False)
def builtin_turns(sid0, sid1, ws, out, trace, tracing):
    """Play the round to its end, seat s with built-in strategy ``sid<s>``: games between
    built-ins and ``mc``'s rollouts. A loop of its own: without the mc and user paths the
    round and both streams stay in registers."""
    legal, sc = ws.legal, ws.sc
    track = sc[S_TRACK] != 0
    r = load_round(ws)
    play = load_words(ws.play_rng)
    moves = 0
    while r[R_TRICK] < TRICKS:
        hands, leader, lead, top, _, played, _ = r
        seat, mask = to_move(hands, leader, lead)
        move, play = choose_move(sid1 if seat else sid0, mask, of_seat(hands, seat), lead, 52 - top, played, play)
        moves += 1
        if tracing:
            emit_decide(trace, seat, move, mask, legal)
        r = play_move(ws, move, out, trace, tracing, track, r)
    store_round(ws, r)
    store_words(ws.play_rng, play)
    sc[S_DECISIONS] += moves


@njit(cache=True, _nrt=False)
def user_turns(params, users, sid, ws, out, trace):
    """Play the round to its end with the user strategy in slot ``-1 - sid`` for both seats:
    ``mc``'s rollouts with a user base (``mc:base=file.py:f``). Each move as ``play_turns``
    gives a user seat its move (``fill_view``, ``choose_user``, the bundle's PLAY stream);
    a move outside the legal set raises ValueError(ILLEGAL_MARK, ...) (``refuse_move``, the
    legal moves listed again: the strategy may write to its list), which the caller's guard
    reports in one line (a rollout has no ``err`` row to fill). Reads and writes ``ws``."""
    legal, view, play_rng, sc = ws.legal, ws.strategy_view, ws.play_rng, ws.sc
    while sc[S_TRICK] < TRICKS:
        lead = sc[S_LEAD]
        seat, mask = to_move((ws.hands[0], ws.hands[1]), sc[S_LEADER], lead)
        fill_view(view, seat, ws, params[P_TARGET], lead)
        move = choose_user(users, sid, mask, play_rng, legal, view)
        if bad_move(move, mask):
            refuse_move(move, seat, legal, mask_list(mask, legal))
        sc[S_DECISIONS] += 1
        apply_move(ws, move, out, trace, False)


@njit(cache=True, _nrt=False)
def mc_move(params, users, ws, mcws, seat, mask, k, base):
    """``mc``: for K samples of the hidden cards, roll each legal move out to the end of
    the round with the base strategy for both seats (same sample and same random numbers
    for every move); play the move with the most points for ``seat`` (ties: the lower
    move code). Once the stock is gone the other hand is known exactly, so with the
    deterministic heuristic base one sample says it all. The base is a built-in by id
    (``builtin_turns``) or the user slot ``-1 - base`` (``user_turns``)."""
    if mask & (mask - 1) == 0:
        return lowest(mask)
    roll, samp, out, total, trace = mcws.roll, mcws.samp, mcws.out, mcws.total, mcws.trace
    if ws.sc[S_TOP] == 52 and base == st.HEURISTIC:
        k = 1  # stock gone: the other hand is known and the rollouts are deterministic
    play_rng = ws.play_rng
    moves = ws.legal
    n = mask_list(mask, moves)
    for i in range(n):
        total[i] = 0
    work = mcws.work
    work[0] += 1
    # the knowledge's weights once per decision (samp's scratch holds them)
    cum = samp.scratch_w
    pool, wsum, ok = hidden_setup(ws, seat, cum)
    for j in range(k):
        copy_round(ws, samp)
        seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
        seed_stream(samp.play_rng, play_rng[1], j, PLAY)
        place_hidden(samp, seat, pool, hidden_hand(ws, seat, pool, cum, wsum, ok, samp.deal_rng))
        samp.sc[S_TRACK] = 0
        for i in range(n):
            copy_round(samp, roll)
            before = roll.sc[S_DECISIONS]
            apply_move(roll, moves[i], out, trace, False)
            if base >= 0:
                builtin_turns(base, base, roll, out, trace, False)
            else:
                user_turns(params, users, base, roll, out, trace)
            work[1] += 1 + roll.sc[S_DECISIONS] - before  # the move tried and the rollout's
            total[i] += mask_points(roll.taken[seat])
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    next_u64(play_rng)  # fresh samples at the next decision
    return moves[best]


@njit(cache=True, _nrt=False)
def solve_world(ws, samp, search, seat, pool, cum, wsum, ok):
    """One world for ``pimc``, solved: the other hand drawn as ``mc`` draws it (exactly, from
    the knowledge; ``samp.deal_rng`` seeded by the caller), then the stock's order (a uniform
    shuffle of the rest of the unseen cards: the seat knows nothing of it), and every legal
    move's exact value for ``seat`` with both hands and the stock open (``solver.solve_moves``).
    Writes ``samp`` (a copy of ``ws``'s round with the world in it) and ``search`` (the stock
    top first, the moves low to high and their values); returns the number of moves."""
    copy_round(ws, samp)
    return solve_placed(samp, search, seat, pool, hidden_hand(ws, seat, pool, cum, wsum, ok, samp.deal_rng),
                        samp.deal_rng)


@njit(cache=True, _nrt=False, inline="always")
def solve_placed(samp, search, seat, pool, hand, rng):
    """The other seat's ``hand`` placed in ``samp`` (a copy of the round), the stock's order
    drawn from ``rng`` (a uniform shuffle of the rest of the unseen cards), and every legal
    move of ``seat`` solved with both hands and the stock open (``solver.solve_moves``).
    Writes ``samp`` and ``search`` (the stock top first, the moves low to high and their
    values); returns the number of moves."""
    place_hidden(samp, seat, pool, hand)
    top = samp.sc[S_TOP]
    shuffle(samp.stock, top, np.int64(52), rng)
    ns = 52 - top
    for i in range(ns):
        search.stock[i] = samp.stock[top + i]
    leader = samp.sc[S_LEADER]
    n, _ = solve_moves(samp.hands[leader], samp.hands[1 - leader], samp.sc[S_LEAD], search.stock, ns,
                       samp.taken[seat], samp.taken[1 - seat], search.table, search.work, search.moves,
                       search.values)
    return n


@njit(cache=True, _nrt=False)
def pimc_move(params, users, ws, mcws, seat, mask, k, base, tricks):
    """``pimc`` (perfect-information Monte Carlo) in the last ``tricks`` tricks of the round
    (the trick in progress counted; the default 6: from where the stock is gone; at most
    ``PIMC_MAX_TRICKS``, where a solve still takes milliseconds); before them it plays as
    ``mc`` with the same k and base. In them: K worlds of the hidden cards
    (the other hand drawn exactly as ``mc`` draws it, and the stock's order), each solved
    exactly with every card open (``solve_world``: the seat's round points minus the
    other's, both playing perfectly); the move with the best sum of values over the worlds
    is played. Ties: the base strategy's move among the tied ones when it picks from a mask
    (random; heuristic following; a user base, given the tied moves as its legal ones:
    ``tie_break_user``), else the lowest tied move (the heuristic's lead, when it is not
    tied). Once the stock is gone the other hand is the unseen cards: one world, the
    true deal, and the move is a best one.

    Reads the bundle ``ws`` and its knowledge; writes ``mcws.samp``, ``mcws.search`` (a
    new solver generation per world, so no clearing) and ``mcws.total[:n]`` (the sums).
    Like ``mc``, the samples are seeded from the PLAY stream's words and the stream then
    moves on by one draw (a random base draws again to break a tie)."""
    if mask & (mask - 1) == 0:
        return lowest(mask)
    if TRICKS - ws.sc[S_TRICK] > min(tricks, PIMC_MAX_TRICKS):
        return mc_move(params, users, ws, mcws, seat, mask, k, base)
    top = ws.sc[S_TOP]
    samp, sums, search = mcws.samp, mcws.total, mcws.search
    if top == 52:
        k = 1  # the other hand is known and the solver is exact: one world says it all
    play_rng = ws.play_rng
    n = popcount(mask)
    for i in range(n):
        sums[i] = 0
    cum = samp.scratch_w  # the knowledge's weights, once per decision
    pool, wsum, ok = hidden_setup(ws, seat, cum)
    for j in range(k):
        seed_stream(samp.deal_rng, play_rng[0], j, DEAL)
        solve_world(ws, samp, search, seat, pool, cum, wsum, ok)
        # the legal moves depend on the seat's hand and the lead only: the same list, low to
        # high, in every world
        for i in range(n):
            sums[i] += search.values[i]
    next_u64(play_rng)  # fresh samples at the next decision
    best = sums[0]
    for i in range(1, n):
        best = max(best, sums[i])
    tied = np.int64(0)
    for i in range(n):
        if sums[i] == best:
            tied |= np.int64(1) << search.moves[i]
    tied &= mask  # (always a subset; this keeps the move legal whatever happens)
    if tied == 0:
        tied = mask
    if tied & (tied - 1) == 0:
        return lowest(tied)
    lead = ws.sc[S_LEAD]
    if base < 0:
        return tie_break_user(params, users, base, ws, seat, tied)
    move, words = choose_move(base, tied, ws.hands[seat], lead, 52 - top, ws.sc[S_PLAYED], load_words(play_rng))
    store_words(play_rng, words)
    return move if (tied >> move) & 1 else lowest(tied)


@njit(cache=True, _nrt=False)
def tie_break_user(params, users, sid, ws, seat, tied):
    """``pimc``'s tie among the moves of ``tied`` broken by its user base (slot ``-1 - sid``)
    in the true position: the view a user seat gets, the tied moves as its legal ones. A
    move outside them raises ValueError(ILLEGAL_MARK, ...) (``refuse_move``)."""
    view = ws.strategy_view
    fill_view(view, seat, ws, params[P_TARGET], ws.sc[S_LEAD])
    move = choose_user(users, sid, tied, ws.play_rng, ws.legal, view)
    if bad_move(move, tied):
        refuse_move(move, seat, ws.legal, mask_list(tied, ws.legal))
    return move


# ---- ismcts: information-set Monte Carlo tree search --------------------------------------------

#: ``ismcts``'s ``rounds`` at or above this: every playout plays to the end of the game
WHOLE_GAME = 1000
#: a seat's points in one round run from MIN_ROUND (it takes every minus card) to MAX_ROUND
#: (every plus card); the two seats' points sum to 5, so seat 0's points alone tell the scores
#: after the round (``ismcts``'s futures are keyed on them)
MIN_ROUND = int(CARD_POINTS[CARD_POINTS < 0].sum())
MAX_ROUND = int(CARD_POINTS[CARD_POINTS > 0].sum())
ROUND_KEYS = MAX_ROUND - MIN_ROUND + 1
#: the widest point margin of one round: one seat takes every plus card, the other every minus
#: card (20 - (-15) = 35); a playout stopped before the game's end scales its margin by it
ROUND_SWING = MAX_ROUND - MIN_ROUND
#: ``ismcts``: the rest of the game after the round is valued by this many playouts to the
#: game's end, the same futures for every way the round can end (see ``future_value``)
FUTURES = 32


@njit(cache=True, _nrt=False)
def base_turns(params, users, base, roll, out, trace):
    """Play ``roll``'s round to its end with ``base`` for both seats: a built-in by id
    (``builtin_turns``) or the user slot ``-1 - base`` (``user_turns``)."""
    if base >= 0:
        builtin_turns(base, base, roll, out, trace, False)
    else:
        user_turns(params, users, base, roll, out, trace)


@njit(cache=True, _nrt=False)
def future_value(params, users, base, roll, out, trace, deal_seed, play_seed):
    """Seat 0's share of wins over FUTURES playouts of the rest of the game from ``roll``, a
    round just settled that did not end the game (its scores and next dealer): future f deals
    its rounds from the stream ``(deal_seed, f, DEAL)`` and plays them with ``base`` for both
    seats, its coin flips from ``(play_seed, f, PLAY)``, to the game's end. The streams do not
    depend on the scores: every way the round ends meets the same futures (common random
    numbers), so the values of two endings differ by what the scores change, not by luck.
    Writes ``roll`` and ``out`` (scratch)."""
    scores, sc = roll.scores, roll.sc
    score0, score1, dealer, rounds = scores[0], scores[1], sc[S_DEALER], sc[S_ROUNDS]
    wins = 0
    for f in range(FUTURES):
        scores[0], scores[1], sc[S_DEALER], sc[S_ROUNDS] = score0, score1, dealer, rounds
        seed_stream(roll.deal_rng, deal_seed, np.int64(f), DEAL)
        seed_stream(roll.play_rng, play_seed, np.int64(f), PLAY)
        winners = 0
        while winners == 0:
            deal_round(roll, trace, False)
            base_turns(params, users, base, roll, out, trace)
            winners = settle_round(params, roll, out, trace, False)
        wins += winners & 1
    return wins / FUTURES


@njit(cache=True, _nrt=False)
def playout_value(params, users, base, rounds, roll, out, trace, future, deal_seed, play_seed, result):
    """Play ``roll`` on with ``base`` for both seats and write each seat's reward to ``result``
    (float64[2]): this round to its end, then

    - ``rounds`` >= WHOLE_GAME (the default): the rest of the game. A round that ends the game
      is worth 1 to the winner, 0 to the loser; else seat 0 gets its share of wins over the
      FUTURES playouts to the game's end from the scores this round left (``future_value``,
      streams from ``deal_seed`` and ``play_seed``), kept in ``future`` (float64[ROUND_KEYS],
      by seat 0's round points; -1: not played yet in this search) and shared by every
      iteration that ends the round with those points;
    - else further rounds (dealt from ``roll``'s DEAL stream: the iteration's, never the
      game's) until the game ends (1 or 0) or ``rounds`` rounds, this one counted, are played:
      then 0.5 plus the seat's point margin over the rounds played, scaled so that a round's
      widest margin (ROUND_SWING) is 0.5 of it.

    Writes ``roll``, ``out`` (a scratch row: settle_round's counts) and ``future``."""
    scores = roll.scores
    start0, start1 = scores[0], scores[1]
    base_turns(params, users, base, roll, out, trace)
    key = mask_points(roll.taken[0]) - MIN_ROUND
    played = 1
    while True:
        winners = settle_round(params, roll, out, trace, False)
        if winners != 0 or rounds >= WHOLE_GAME or played >= rounds:
            break
        deal_round(roll, trace, False)
        base_turns(params, users, base, roll, out, trace)
        played += 1
    if winners != 0:
        result[0] = 1.0 if winners & 1 else 0.0
    elif rounds >= WHOLE_GAME:
        if future[key] < 0.0:
            future[key] = future_value(params, users, base, roll, out, trace, deal_seed, play_seed)
        result[0] = future[key]
    else:
        margin = (scores[0] - start0) - (scores[1] - start1)
        result[0] = 0.5 + margin / (2.0 * ROUND_SWING * played)
    result[1] = 1.0 - result[0]


@njit(cache=True, _nrt=False)
def ismcts_move(params, users, ws, mcws, seat, mask, iterations, base, explore, rounds):
    """``ismcts``: single-observer information-set MCTS (analyzer.ismcts) for ``seat``.
    Iteration j copies the round into ``mcws.roll`` and redeals what the seat cannot see as
    ``mc``'s sample j does (the other hand drawn exactly from the knowledge, the stock's
    order drawn lazily from the same stream ``(play_rng[0], j, DEAL)``; the coin flips from
    ``(play_rng[1], j, PLAY)``), walks the tree playing both seats' moves by the rules in that
    world (``apply_move``; UCB1 among the moves legal there, ``explore`` in hundredths) to the
    end of the round or a new node, plays on with ``playout_value`` (the base strategy for
    both: the round, then the game's futures shared by every iteration that ends the round
    with the same points, or ``rounds`` rounds) and backs each seat's reward up. The tree covers this round: a
    node is the sequence of moves since the decision (the draws are the world's, not nodes).
    Plays the root's most visited move; a single legal move is played without a search.

    Reads ``ws`` and its knowledge; writes ``mcws.roll``, ``mcws.tree``, ``mcws.future``,
    ``mcws.out`` and ``mcws.samp.scratch_w`` (the sampler's weights, once per decision). Like
    ``mc``, the iterations are seeded from the PLAY stream's words (0 and 1; the futures 2 and
    3) and the stream then moves on by one draw."""
    if mask & (mask - 1) == 0:
        return lowest(mask)
    roll, out, trace, tree, future = mcws.roll, mcws.out, mcws.trace, mcws.tree, mcws.future
    play_rng = ws.play_rng
    cum = mcws.samp.scratch_w
    pool, wsum, ok = hidden_setup(ws, seat, cum)
    ismcts.reset(tree)
    future[:] = -1.0
    c = explore / 100.0
    for it in range(iterations):
        j = np.int64(it)
        copy_round(ws, roll)
        seed_stream(roll.deal_rng, play_rng[0], j, DEAL)
        seed_stream(roll.play_rng, play_rng[1], j, PLAY)
        place_hidden(roll, seat, pool, hidden_hand(ws, seat, pool, cum, wsum, ok, roll.deal_rng))
        roll.sc[S_TRACK] = 0
        node, depth = np.int64(0), 1  # not a literal 0: descend is then compiled once, not twice
        tree.path[0] = 0
        while roll.sc[S_TRICK] < TRICKS:
            mover, moves = to_move((roll.hands[0], roll.hands[1]), roll.sc[S_LEADER], roll.sc[S_LEAD])
            n = mask_list(moves, tree.legal)
            child, expanded = ismcts.descend(tree, node, n, mover, c, roll.play_rng)
            if child < 0:
                break
            tree.path[depth] = child
            depth += 1
            node = child
            apply_move(roll, tree.move[child], out, trace, False)
            if expanded:
                break
        playout_value(params, users, base, rounds, roll, out, trace, future, play_rng[2], play_rng[3], tree.result)
        ismcts.back_up(tree, depth)
    next_u64(play_rng)  # fresh samples at the next decision
    return ismcts.most_visited(tree)


@njit(cache=True)
def search_move(params, strat, users, tier, ws, mcws, seat, mask):
    """The card of ``seat``'s search strategy (``strat[seat]``: ``mc``: id, k, base; ``pimc``:
    id, k, base, the exact tricks; ``ismcts``: id, iterations, base, explore, rounds; a
    negative base is a user slot)."""
    if len(tier) == 0:  # the base tier (engine.search_tier): no seat searches, and none is compiled
        return -1
    sid = strat[seat, 0]
    if sid == st.MC:
        return mc_move(params, users, ws, mcws, seat, mask, strat[seat, 1], strat[seat, 2])
    if sid == st.ISMCTS:
        return ismcts_move(params, users, ws, mcws, seat, mask, strat[seat, 1], strat[seat, 2], strat[seat, 3],
                           strat[seat, 4])
    return pimc_move(params, users, ws, mcws, seat, mask, strat[seat, 1], strat[seat, 2], strat[seat, 3])


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def choose_user(users, sid, mask, rng, legal, view):
    """The move of user strategy slot ``-1 - sid``, given the legal moves as a list. Inlined:
    a call would copy the ``users`` tuple (every slot's addresses) at each decision."""
    n = mask_list(mask, legal)
    return users[-1 - sid](view, legal, n, rng)


@njit(cache=True, _nrt=False)
def play_turns(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced):
    """Play the round on to its last trick (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled).
    """
    legal, view, play_rng, sc = ws.legal, ws.strategy_view, ws.play_rng, ws.sc
    # between built-ins, the loop without the mc and user paths (fewer live values)
    if forced < 0 and is_builtin(strat[0, 0]) and is_builtin(strat[1, 0]):
        builtin_turns(strat[0, 0], strat[1, 0], ws, out, trace, tracing)
        return 0
    track = sc[S_TRACK] != 0
    decisions = sc[S_DECISIONS]
    r = load_round(ws)
    play = load_words(play_rng)
    while r[R_TRICK] < TRICKS:
        hands, leader, lead, top, _, played, _ = r
        seat, mask = to_move(hands, leader, lead)
        sid = strat[seat, 0]
        if forced >= 0:
            move = forced
            forced = -1
        elif is_builtin(sid):
            move, play = choose_move(sid, mask, of_seat(hands, seat), lead, 52 - top, played, play)
        else:  # mc and user strategies read the bundle and draw from the PLAY stream's array
            store_round(ws, r)
            store_words(play_rng, play)
            if sid >= st.SEARCH:
                move = search_move(params, strat, users, tier, ws, mcws, seat, mask)
            else:
                fill_view(view, seat, ws, params[P_TARGET], lead)
                move = choose_user(users, sid, mask, play_rng, legal, view)
            play = load_words(play_rng)
        decisions += 1
        if sid < 0 and bad_move(move, mask):
            sc[S_DECISIONS] = decisions
            err[0] = decisions
            err[1] = seat
            err[2] = move
            if tracing:  # the error names the legal moves (records.illegal_move_message)
                tr.emit_refused(trace, seat, move, legal, mask_list(mask, legal))
            return -1
        if tracing:
            emit_decide(trace, seat, move, mask, legal)
        r = play_move(ws, move, out, trace, tracing, track, r)
    store_round(ws, r)
    store_words(play_rng, play)
    sc[S_DECISIONS] = decisions
    return 0


@njit(cache=True, _nrt=False)
def play_rest(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced):
    """From the middle of a round: finish it, then play rounds until the game ends.
    Returns (0, the two seats' points of the current round), or (-1, 0, 0) after an error."""
    taken = ws.taken
    p0 = p1 = 0
    first = True
    # one call site of the inlined play loop (each call site is compiled again: compile time)
    while True:
        if play_turns(params, strat, users, tier, ws, mcws, out, err, trace, tracing, forced if first else -1) < 0:
            return -1, 0, 0
        if first:
            p0 = mask_points(taken[0])
            p1 = mask_points(taken[1])
            first = False
        winners = settle_round(params, ws, out, trace, tracing)
        if winners != 0:
            break
        deal_round(ws, trace, tracing)
    finish(ws, out, winners, trace, tracing)
    return 0, p0, p1


@njit(cache=True)
def tracks(strat):
    """Whether any seat plays ``mc``, ``pimc`` or ``ismcts`` (then the public knowledge of
    hands is kept: their samplers read it)."""
    for s in range(strat.shape[0]):
        if strat[s, 0] == st.MC or strat[s, 0] == st.PIMC or strat[s, 0] == st.ISMCTS:
            return 1
    return 0


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, users, tier, out, err, trace, tracing, ws, mcws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``. Without
    reference counting: with it, entering took a count on each of the bundles' arrays at
    every game (5% of random play, perf)."""
    deal_rng, play_rng, scores, sc = ws.deal_rng, ws.play_rng, ws.scores, ws.sc
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    out[:] = 0
    err[0] = -1
    scores[0] = 0
    scores[1] = 0
    sc[:] = 0
    sc[S_TRACK] = tracks(strat)
    sc[S_DEALER] = randbelow(deal_rng, 2)
    deal_round(ws, trace, tracing)
    # ``forced`` typed int64, not as the literal -1: evaluate_block's call then shares this
    # compiled play_rest (a literal argument compiles a specialization of its own)
    play_rest(params, strat, users, tier, ws, mcws, out, err, trace, tracing, np.int64(-1))


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi, users, tier):
    ws = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws, mcws)
        if err[g, 0] >= 0:
            return


@in_blocks("out", "err")
@njit(entry=True, nogil=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks, users, tier):
    n = out.shape[0]
    for b in range(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks, users, tier)


@njit(entry=True, cache=True)
def mc_work(seed, start, params, strat, out, err, work, users, tier):
    """For scripts/bench_mc.py only: games ``start ..`` as ``run_block`` plays them (one block,
    ``out``/``err`` rows), with a seat of ``strat`` playing ``mc``; then ``work`` gets ``mc``'s
    decisions searched and the moves played in their rollouts (``McWorkspace.work``)."""
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


# ---- paired deals: each card's value, the same deal with and without it (the report's study) --

#: stream purpose of the swap partners' draws in paired_swap_chunk (rng: DEAL 0, PLAY 1, HAND 16+)
SWAP = 2


@njit(cache=True, _nrt=False)
def swap_card(ws, seat, card, x):
    """Exchange ``card`` (in ``seat``'s hand) with ``x`` wherever ``x`` is: the other hand, or
    its place in the undrawn stock ``stock[top:52]`` (the lazy draws then deal ``card`` where
    they would have dealt ``x``). ``x == card`` changes nothing."""
    if x == card:
        return
    one = np.int64(1)
    flip = (one << card) | (one << x)
    hands, stock = ws.hands, ws.stock
    hands[seat] ^= flip
    if (hands[1 - seat] >> x) & 1:
        hands[1 - seat] ^= flip
        return
    for i in range(ws.sc[S_TOP], 52):
        if stock[i] == x:
            stock[i] = card


@njit(cache=True)
def paired_swap_block(seed, start, params, strat, cards, neutral, info, result, lo, hi, users, tier):
    """Deals ``lo .. hi - 1`` of paired_swap_chunk."""
    ws = workspace(params)
    dealt = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    swap_rng = np.zeros(4, dtype=np.uint64)
    one = np.int64(1)
    for j in range(lo, hi):
        # deal g exactly as game g of the run ``seed`` deals its first round (play_game)
        g = start + j
        seed_stream(dealt.deal_rng, seed, g, DEAL)
        seed_stream(dealt.play_rng, seed, g, PLAY)
        dealt.scores[0] = 0
        dealt.scores[1] = 0
        dealt.sc[:] = 0
        dealt.sc[S_TRACK] = tracks(strat)
        dealt.sc[S_DEALER] = randbelow(dealt.deal_rng, 2)
        deal_round(dealt, trace, False)
        seed_stream(swap_rng, seed, g, SWAP)
        for arm in range(cards.shape[0] + 1):
            seat, x = -1, np.int64(-1)
            if arm > 0:
                card = cards[arm - 1]
                seat = 0 if (dealt.hands[0] >> card) & 1 else (1 if (dealt.hands[1] >> card) & 1 else -1)
                info[j, arm - 1, 0], info[j, arm - 1, 1], info[j, arm - 1, 2] = seat, -1, 0
                if seat < 0:
                    continue  # the card is in the stock: no seat holds it
                # the partner: a card of ``neutral`` the seat does not hold (``card`` itself if in ``neutral``)
                pool = neutral & ~(dealt.hands[seat] & ~(one << card))
                x = nth_bit(pool, randbelow(swap_rng, popcount(pool)))
                info[j, arm - 1, 1] = x
                info[j, arm - 1, 2] = (dealt.hands[1 - seat] >> x) & 1
            # every arm from the same deal, stock and streams (common random numbers)
            copy_bundle(dealt, ws)
            if seat >= 0:
                swap_card(ws, seat, cards[arm - 1], x)
            play_turns(params, strat, users, tier, ws, mcws, out, err, trace, False, -1)
            result[j, arm, 0] = mask_points(ws.taken[0])
            result[j, arm, 1] = mask_points(ws.taken[1])
        info[j, cards.shape[0], 0] = dealt.sc[S_DEALER]


@in_blocks("info", "result")
@njit(entry=True, nogil=True, cache=True)
def paired_swap_chunk(seed, start, params, strat, cards, neutral, info, result, nblocks, users, tier):
    """Each card's value, paired: deal ``g = start + j`` (row j of n) is dealt as game g of the
    run ``seed`` deals its first round (both hands and the stock's order), and round 1 is
    played from it, each seat with its strategy and the same PLAY stream (seed, g): arm 0 as
    dealt; arm 1 + i with ``cards[i]`` (int64[k]) exchanged, if a seat holds it, with a
    partner card drawn uniformly (stream (seed, g, SWAP), one draw per held card in order)
    from ``neutral`` (a card mask) less the seat's other cards, wherever the partner is (the
    other hand or its place in the stock: ``swap_card``). ``cards[i]`` in ``neutral`` may be
    drawn: that arm is the deal as dealt.

    Writes info int64[n, k + 1, 3]: per card, the seat holding it (-1: in the stock, the arm
    not played), the partner card (-1: none) and 1 if the partner was in the other hand (0:
    the stock); ``info[j, k, 0]`` the dealer. result
    int64[n, k + 1, 2]: each seat's points of the round per arm. Each deal has its own
    streams: the results do not depend on ``nblocks``."""
    n = result.shape[0]
    for b in range(nblocks):
        paired_swap_block(seed, start, params, strat, cards, neutral, info, result, b * n // nblocks,
                          (b + 1) * n // nblocks, users, tier)


# ---- evaluation from a position ----------------------------------------------------------------

@njit(entry=True, cache=True)
def load_position(ws, dealer, moves, lead, scores, rounds):
    """Set a bundle to the public state of a position: round ``rounds`` dealt by ``dealer``,
    the finished tricks ``moves`` (int64, leader's move then follower's card, per trick),
    the lead in progress ``lead`` (-1: none), the scores before the round.

    The moves are played with ``apply_move``, the very play the games run on (trick winners,
    cards taken and played, draws, both seats' knowledge). The hands are unknown here: the
    bundle's hands and stock are placeholders while it replays (the draws take placeholder
    cards), and ``load_hands`` sets them afterwards."""
    stock, scores_now, sc = ws.stock, ws.scores, ws.sc
    sc[:] = 0
    sc[S_DEALER], sc[S_ROUNDS], sc[S_TRACK], sc[S_TOP] = dealer, rounds, 1, 2 * HAND_SIZE
    for s in range(2):
        scores_now[s] = scores[s]
        ws.hands[s] = 0
    for c in range(52):
        stock[c] = c
    seed_stream(ws.deal_rng, np.uint64(0), np.int64(0), DEAL)  # the placeholder draws' stream
    start_round(ws)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for i in range(moves.shape[0]):
        apply_move(ws, moves[i], out, trace, False)
    if lead >= 0:
        apply_move(ws, lead, out, trace, False)


@njit(entry=True, cache=True)
def load_hands(ws, hand0, hand1):
    """Give the seats these hands (the hidden one a placeholder, redrawn by the sampler);
    the other unseen cards are the stock."""
    hands = ws.hands
    hands[0] = hand0
    hands[1] = hand1
    place_hidden(ws, 0, unseen(ws, 0), hand1)


@njit(cache=True)
def sample_hands(ws, seat, seed, n, out):
    """``n`` draws of the other seat's hand (``out[j]``, a mask), as evaluation draws them
    (sample j from the stream (seed, j, DEAL)): for tests and diagnostics."""
    cum = np.zeros(N_STATES, dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    pool, total, ok = hidden_setup(ws, seat, cum)
    for j in range(n):
        seed_stream(rng, seed, j, DEAL)
        out[j] = hidden_hand(ws, seat, pool, cum, total, ok, rng)


@njit(cache=True, inline="always")
def hidden_of(seed, j, base_ws, seat, pool, cum, total, ok, worlds, rng):
    """The other hand of evaluation sample ``j``: world j mod W of ``worlds`` (int64[W], the
    other hand of each), else drawn from the knowledge (``hidden_hand``; ``pool, cum, total,
    ok`` from ``hidden_setup``). ``rng`` (uint64[4]) is seeded from sample j's DEAL stream
    either way. evaluate_block and solve_block share it (the solver values the rollouts'
    worlds, paired)."""
    seed_stream(rng, seed, j, DEAL)
    if worlds.shape[0] > 0:
        return worlds[j % worlds.shape[0]]
    return hidden_hand(base_ws, seat, pool, cum, total, ok, rng)


@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi, worlds, users, tier):
    ws = workspace(params)
    mcws = mc_workspace(params, strat, tier)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    cum = np.zeros(N_STATES, dtype=np.float64)
    pool, total, ok = hidden_setup(base_ws, seat, cum)
    track = tracks(strat)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        hand = hidden_of(seed, start + j, base_ws, seat, pool, cum, total, ok, worlds, sample_rng)
        for i in range(options.shape[0]):
            copy_bundle(base_ws, ws)
            place_hidden(ws, seat, pool, hand)
            ws.sc[S_TRACK] = track
            seed_stream(ws.deal_rng, seed, start + j, hand_purpose(0))
            seed_stream(ws.play_rng, seed, start + j, PLAY)
            out[:] = 0
            _, p0, p1 = play_rest(params, strat, users, tier, ws, mcws, out, err, trace, False, options[i])
            result[j, i, 0] = p1 if seat else p0
            result[j, i, 1] = (out[O_WINNERS] >> seat) & 1


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks, worlds, users, tier):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [the seat's points this round, won the game] per sample
    and option. ``worlds`` int64[W]: the other seat's hand of each world; sample j is then
    played in world j % W (the stock's order still drawn at random); empty: the hidden hand
    of each sample is drawn from the knowledge (``hidden_hand``).
    """
    n = result.shape[0]
    for b in range(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks, worlds, users, tier)


@njit(cache=True)
def solve_block(seed, start, params, base_ws, seat, options, result, lo, hi, worlds):
    """Samples ``lo .. hi - 1`` of solve_chunk, in a solver table of this block's own (a new
    generation per solve: solver.solve_moves)."""
    samp = workspace(params)
    rng = np.zeros(4, dtype=np.uint64)
    cum = np.zeros(N_STATES, dtype=np.float64)
    pool, total, ok = hidden_setup(base_ws, seat, cum)
    table = np.zeros(((1 << PIMC_TT_BITS) + 1, 3), dtype=np.uint64)
    table[table.shape[0] - 1, 0] = 1  # the solver's generation (solver.new_table)
    search = SearchArrays(table, np.zeros(WORK_SIZE, dtype=np.int64), np.zeros(41, dtype=np.int64),
                          np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64))
    for j in range(lo, hi):
        hand = hidden_of(seed, start + j, base_ws, seat, pool, cum, total, ok, worlds, rng)
        copy_round(base_ws, samp)
        n = solve_placed(samp, search, seat, pool, hand, rng)  # the stock's order: the sample stream's next draws
        for i in range(options.shape[0]):
            for m in range(n):
                if search.moves[m] == options[i]:
                    result[j, i] = search.values[m]


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def solve_chunk(seed, start, params, base_ws, seat, options, result, nblocks, worlds):
    """``evaluate --method solve``: every option's exact value with both hands and the
    stock's order open (solver.solve_moves: the seat's round points minus the other's), in
    the worlds of evaluation samples ``start .. start + len(result) - 1``: the other hand
    evaluate_chunk plays them with (``hidden_of``), the stock's order drawn next from the
    sample's stream (the rollouts draw theirs lazily from another: the same law, not the
    same order). options int64[k] move codes; result int64[n, k] (written)."""
    n = result.shape[0]
    for b in range(nblocks):
        solve_block(seed, start, params, base_ws, seat, options, result, b * n // nblocks, (b + 1) * n // nblocks,
                    worlds)
