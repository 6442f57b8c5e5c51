"""Two-Ten-Jack play loops (compiled): set-up kept apart from play, so the same pieces play
fresh games, traced games, Monte Carlo rollouts and evaluations from a given position.

A game's state is a *bundle* (``workspace``), arrays only:
    stock    int64[52]   the deck; ``stock[top:52]`` is still to be drawn, lazily shuffled
                         from the game's DEAL stream (rng.draw_lazy)
    legal    int64[64]   list scratch (user decisions, the trace)
    view     int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng   uint64[4] the game's two random streams
    taken    int64[2]    bit mask of the cards each seat took in tricks this round
    scores   int64[2]    running scores
    hands    int64[2]    bit mask of the cards each seat holds
    slots    int64[2, 8] public knowledge of each seat's hand (``track`` on, see below)
    nslots   int64[2]    how many slots each seat has (its hand size)
    sc       int64[N_SC] S_DEALER, S_LEADER, S_TRICK (tricks done this round), S_TOP,
                         S_LEAD (lead move of the trick in progress, -1 when none),
                         S_PLAYED (mask of the cards of finished tricks), S_ROUNDS,
                         S_DECISIONS, S_TRACK (1: keep ``slots`` up to date)
    rng_scratch  uint64[4]  scratch RNG state (a traced deal previews the stock's order)
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
while they play (``load_round``).

What a seat knows of the other's hand (``slots``): one slot per card held, oldest first,
each the mask of cards that slot cannot be, from the voids shown while it was held. When a
seat fails to follow, every slot it holds gets the cards it showed it lacks (the suit led,
AS counting as a spade and as a trump; and the trumps too unless it played one). A played
card leaves from the oldest slot that allows it; a drawn card is a new, free slot. The
masks of a hand are nested (older slots know more), which makes exact uniform sampling a
simple sequential fill (``resample_hidden``). Choosing the *oldest* slot when the card
could have come from several is a relaxation: the true hand is always consistent with the
slots, and the slots are never tighter than what the history proves.

User strategy view (``view``, int64): V_SEAT, V_DEALER, V_TARGET, V_STOCK (cards left in
the stock), V_TRICK (1..26), V_LEAD (card led, -1 when leading), V_SUIT (suit led, -1 when
leading), V_HAND (mask of the cards held), V_PLAYED (mask of the cards played in earlier
tricks of this round), V_TAKEN..+2 (mask of the cards each seat took this round),
V_SCORE..+2 (scores before this round), V_ROUND (round number from 1).
"""

from __future__ import annotations

import numpy as np

from analyzer import trace as tr
from analyzer.games.two_ten_jack import strategies as st
from analyzer.games.two_ten_jack.rules import (
    ACE_SPADES,
    AS_TRUMP,
    FOLLOW_MASK,
    HAND_SIZE,
    P_TARGET,
    TRICKS,
    TRUMP_MASK,
    follow_moves,
    follower_wins,
    lead_card,
    lead_moves,
    lowest,
    mask_points,
    nth_bit,
    popcount,
    round_winners,
    suit_led,
)
from analyzer.jit import njit, prange
from analyzer.rng import (DEAL, PLAY, draw_lazy_w, hand_purpose, load_words, next_u64, preview_into, randbelow,
                          seed_stream, store_words)

# trace event codes
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
TAG_STOCK, TAG_DRAWS = 100, 102

V_SEAT, V_DEALER, V_TARGET, V_STOCK, V_TRICK, V_LEAD, V_SUIT, V_HAND, V_PLAYED, V_TAKEN, V_SCORE, V_ROUND = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13)
VIEW_SIZE = 14

S_DEALER, S_LEADER, S_TRICK, S_TOP, S_LEAD, S_PLAYED, S_ROUNDS, S_DECISIONS, S_TRACK = range(9)
N_SC = 9
N_SLOTS = 8
ALL_CARDS = np.int64((1 << 52) - 1)

# out row layout
O_SCORE = 3
O_PTS_DEALER, O_PTS_NON, O_AS_LED, O_AS_TRUMP, O_BIN_DEALER = 5, 6, 7, 8, 9
N_BINS = 7
O_BIN_NON = O_BIN_DEALER + N_BINS
O_DEALT = O_BIN_NON + N_BINS
O_PTS_DEALING = O_DEALT + 2
O_PTS_NONDEALING = O_PTS_DEALING + 2
N_COLUMNS = O_PTS_NONDEALING + 2

#: functions, innermost first, between the kernels and ``user_strategy`` (engine.rebind)
USER_CHAIN = ["choose_user", "play_turns", "play_rest", "play_game", "run_block", "run_chunk", "run_traced",
              "evaluate_block", "evaluate_chunk"]


@njit(cache=True)
def user_strategy(slot, view, legal, n, rng):
    """Placeholder: the real dispatcher is bound by engine.bind_user_strategies."""
    return -1


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


@njit(cache=True)
def workspace(params):
    """One state bundle (see the module docstring), allocated once per block of games."""
    return (np.zeros(52, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(2, dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros((2, N_SLOTS), dtype=np.int64),
            np.zeros(2, dtype=np.int64), np.zeros(N_SC, dtype=np.int64), np.zeros(4, dtype=np.uint64))


@njit(cache=True)
def mc_workspace(params):
    """What ``mc`` works in: the rollout bundle, the sampled position, a scratch out row,
    the points per move and a scratch trace."""
    return (workspace(params), workspace(params), np.zeros(N_COLUMNS, dtype=np.int64),
            np.zeros(64, dtype=np.int64), np.zeros((1, tr.WIDTH), dtype=np.int64))


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole state (``src`` into ``dst``) but the scratch lists."""
    for i in range(52):
        dst[0][i] = src[0][i]
    for j in range(4):
        dst[3][j] = src[3][j]
        dst[4][j] = src[4][j]
    for s in range(2):
        dst[5][s] = src[5][s]
        dst[6][s] = src[6][s]
        dst[7][s] = src[7][s]
        dst[9][s] = src[9][s]
        for k in range(N_SLOTS):
            dst[8][s, k] = src[8][s, k]
    for i in range(N_SC):
        dst[10][i] = src[10][i]


@njit(cache=True)
def fill_view(view, seat, ws, target, lead):
    taken, scores, hands, sc = ws[5], ws[6], ws[7], ws[10]
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
    hands, sc = ws[7], ws[10]
    return ((hands[0], hands[1]), sc[S_LEADER], sc[S_LEAD], sc[S_TOP], sc[S_TRICK], sc[S_PLAYED],
            load_words(ws[3]))


@njit(cache=True, inline="always")
def store_round(ws, r):
    """Write the round in locals back into ``hands``, ``sc`` and ``deal_rng``."""
    hands, sc = ws[7], ws[10]
    pair, leader, lead, top, trick, played, deal = r
    hands[0], hands[1] = pair
    sc[S_LEADER], sc[S_LEAD], sc[S_TOP], sc[S_TRICK], sc[S_PLAYED] = leader, lead, top, trick, played
    store_words(ws[3], deal)


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

@njit(cache=True, _nrt=False, inline="always")
def slot_play(slots, nslots, seat, card):
    """``seat`` played ``card``: it leaves from the oldest slot that allows it."""
    n = nslots[seat]
    one = np.int64(1)
    k = 0
    while k < n - 1 and (slots[seat, k] >> card) & one:
        k += 1
    for i in range(k, n - 1):
        slots[seat, i] = slots[seat, i + 1]
    slots[seat, n - 1] = 0
    nslots[seat] = n - 1


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
    taken, slots, nslots, sc = ws[5], ws[8], ws[9], ws[10]
    taken[0] = 0
    taken[1] = 0
    sc[S_PLAYED] = 0
    sc[S_TRICK] = 0
    sc[S_LEAD] = -1
    sc[S_LEADER] = 1 - sc[S_DEALER]
    for s in range(2):
        nslots[s] = HAND_SIZE
        for k in range(N_SLOTS):
            slots[s, k] = 0


@njit(cache=True, _nrt=False)
def deal_round(ws, trace, tracing):
    """Round ``rounds + 1``: gather, deal 6 each one at a time from the DEAL stream, non-dealer first."""
    stock, legal, deal_rng, hands, sc = ws[0], ws[1], ws[3], ws[7], ws[10]
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
        tr.emit_list(trace, TAG_STOCK, legal, preview_into(stock, top, 52, deal_rng, legal, ws[11]))


@njit(cache=True, inline="always")
def play_move(ws, move, out, trace, tracing, track, r):
    """The seat to move plays ``move``: a lead, or a follow that ends the trick (winner,
    cards taken, draws while the stock lasts). ``r`` is the round in locals (``load_round``);
    returns it updated. Writes ``taken``, the stock (lazy draws), ``out`` (AS leads), the
    trace, and ``slots``/``nslots`` when ``track``."""
    stock, taken, slots, nslots = ws[0], ws[5], ws[8], ws[9]
    hands, leader, lead, top, trick, played, deal = r
    one = np.int64(1)
    if lead < 0:
        lc = lead_card(move)
        if lc == ACE_SPADES:
            out[O_AS_LED] += 1
            if move == AS_TRUMP:
                out[O_AS_TRUMP] += 1
        if track:
            slot_play(slots, nslots, leader, lc)
        return set_seat(hands, leader, of_seat(hands, leader) ^ (one << lc)), leader, move, top, trick, played, deal
    follower = 1 - leader
    lc = lead_card(lead)
    if track:
        void = void_mask(suit_led(lead), move)
        if void:
            for k in range(nslots[follower]):
                slots[follower, k] |= void
        slot_play(slots, nslots, follower, move)
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
            nslots[0] += 1
            nslots[1] += 1
        if tracing:
            tr.emit(trace, tr.LIST, TAG_DRAWS, cw, 0, 0)
            tr.emit(trace, tr.LIST, TAG_DRAWS, cl, 0, 0)
    return h, winner, np.int64(-1), top, trick + 1, played | both, deal


@njit(cache=True, inline="always")
def apply_move(ws, move, out, trace, tracing):
    """``play_move`` on the bundle (reads and writes the round's arrays)."""
    store_round(ws, play_move(ws, move, out, trace, tracing, ws[10][S_TRACK] != 0, load_round(ws)))


@njit(cache=True, _nrt=False)
def settle_round(params, ws, out, trace, tracing):
    """Score the round; returns the winners (seat mask, 0: play on, the deal passes)."""
    taken, scores, sc = ws[5], ws[6], ws[10]
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
    scores, sc = ws[6], ws[10]
    out[0] = winners
    out[1] = sc[S_ROUNDS]
    out[2] = sc[S_DECISIONS]
    out[O_SCORE] = scores[0]
    out[O_SCORE + 1] = scores[1]
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, sc[S_ROUNDS], 0, 0)
        tr.emit_list(trace, 0, scores, 2)


# ---- Monte Carlo: sampling what a seat cannot see, and rollouts ------------------------------

@njit(cache=True, _nrt=False)
def resample_hidden(ws, seat, rng):
    """Redeal what ``seat`` cannot see (the other hand and the stock), uniformly over the
    deals consistent with the public knowledge of the other hand (``slots``).

    The unseen cards are all but the seat's hand and the cards played. The other hand's
    slots are filled oldest (most constrained) first, each with a uniform pick among the
    unseen cards its mask allows that are not taken yet; the masks being nested, every
    consistent deal has the same probability. The rest is the stock (its order is drawn
    lazily later).
    """
    stock, hands, slots, nslots, sc = ws[0], ws[7], ws[8], ws[9], ws[10]
    other = 1 - seat
    lead = sc[S_LEAD]
    seen = hands[seat] | sc[S_PLAYED]
    if lead >= 0:
        seen |= np.int64(1) << lead_card(lead)
    pool = ALL_CARDS & ~seen
    h = popcount(hands[other])
    hand = np.int64(0)
    track = sc[S_TRACK] != 0 and nslots[other] == h
    for k in range(h):
        allowed = pool
        if track:
            allowed = pool & ~slots[other, k]
            if allowed == 0:  # cannot happen for a consistent history; never loop
                allowed = pool
        c = nth_bit(allowed, randbelow(rng, popcount(allowed)))
        hand |= np.int64(1) << c
        pool ^= np.int64(1) << c
    hands[other] = hand
    i = sc[S_TOP]
    while pool:
        stock[i] = lowest(pool)
        pool &= pool - 1
        i += 1


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
    legal, sc = ws[1], ws[10]
    track = sc[S_TRACK] != 0
    r = load_round(ws)
    play = load_words(ws[4])
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
    store_words(ws[4], play)
    sc[S_DECISIONS] += moves


@njit(cache=True, _nrt=False)
def mc_move(ws, mcws, seat, mask, k, base):
    """``mc``: for K samples of the hidden cards, roll each legal move out to the end of
    the round with the base strategy for both seats (same sample and same random numbers
    for every move); play the move with the most points for ``seat`` (ties: the lower
    move code). Once the stock is gone the other hand is known exactly, so with the
    deterministic heuristic base one sample says it all."""
    if mask & (mask - 1) == 0:
        return lowest(mask)
    roll, samp, out, total, trace = mcws
    if ws[10][S_TOP] == 52 and base == st.HEURISTIC:
        k = 1  # stock gone: the other hand is known and the rollouts are deterministic
    play_rng = ws[4]
    moves = ws[1]
    n = mask_list(mask, moves)
    for i in range(n):
        total[i] = 0
    for j in range(k):
        copy_bundle(ws, samp)
        seed_stream(samp[3], play_rng[0], j, DEAL)
        seed_stream(samp[4], play_rng[1], j, PLAY)
        resample_hidden(samp, seat, samp[3])
        samp[10][S_TRACK] = 0
        for i in range(n):
            copy_bundle(samp, roll)
            apply_move(roll, moves[i], out, trace, False)
            builtin_turns(base, base, roll, out, trace, False)
            total[i] += mask_points(roll[5][seat])
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    next_u64(play_rng)  # fresh samples at the next decision
    return moves[best]


# ---- drivers -------------------------------------------------------------------------------------

@njit(cache=True)
def choose_user(sid, mask, rng, legal, view):
    """The move of user strategy slot ``-1 - sid``, given the legal moves as a list."""
    n = mask_list(mask, legal)
    return user_strategy(-1 - sid, view, legal, n, rng)


@njit(cache=True, _nrt=False)
def play_turns(params, strat, ws, mcws, out, err, trace, tracing, forced):
    """Play the round on to its last trick (the first move ``forced`` if >= 0).

    Returns 0, or -1 after an illegal user move (``err`` filled).
    """
    legal, view, play_rng, sc = ws[1], ws[2], ws[4], ws[10]
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
            if sid == st.MC:
                move = mc_move(ws, mcws, seat, mask, strat[seat, 1], strat[seat, 2])
            else:
                fill_view(view, seat, ws, params[P_TARGET], lead)
                move = choose_user(sid, mask, play_rng, legal, view)
            play = load_words(play_rng)
        decisions += 1
        if sid < 0 and bad_move(move, mask):
            sc[S_DECISIONS] = decisions
            err[0] = decisions
            err[1] = seat
            err[2] = move
            return -1
        if tracing:
            emit_decide(trace, seat, move, mask, legal)
        r = play_move(ws, move, out, trace, tracing, track, r)
    store_round(ws, r)
    store_words(play_rng, play)
    sc[S_DECISIONS] = decisions
    return 0


@njit(cache=True, _nrt=False)
def play_rest(params, strat, ws, mcws, out, err, trace, tracing, forced):
    """From the middle of a round: finish it, then play rounds until the game ends.
    Returns (0, the two seats' points of the current round), or (-1, 0, 0) after an error."""
    taken = ws[5]
    if play_turns(params, strat, ws, mcws, out, err, trace, tracing, forced) < 0:
        return -1, 0, 0
    p0 = mask_points(taken[0])
    p1 = mask_points(taken[1])
    winners = settle_round(params, ws, out, trace, tracing)
    while winners == 0:
        deal_round(ws, trace, tracing)
        if play_turns(params, strat, ws, mcws, out, err, trace, tracing, -1) < 0:
            return -1, 0, 0
        winners = settle_round(params, ws, out, trace, tracing)
    finish(ws, out, winners, trace, tracing)
    return 0, p0, p1


@njit(cache=True)
def tracks(strat):
    """Whether any seat plays ``mc`` (then the public knowledge of hands is kept)."""
    for s in range(strat.shape[0]):
        if strat[s, 0] == st.MC:
            return 1
    return 0


@njit(cache=True)
def play_game(seed, index, params, strat, out, err, trace, tracing, ws, mcws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deal_rng, play_rng, scores, sc = ws[3], ws[4], ws[6], ws[10]
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
    play_game(seed, index, params, strat, out_row, err_row, trace, True, workspace(params),
              mc_workspace(params))


# ---- evaluation from a position ----------------------------------------------------------------

@njit(cache=True)
def load_position(ws, dealer, leader, tricks, lead, played, hands, taken_in, scores, top, slots, nslots, rounds):
    """Set a bundle to a position (spec.evaluation has checked it): the hands (the hidden
    one a placeholder, redrawn by ``resample_hidden``), the cards of finished tricks, the
    trick in progress (``lead``, -1 when none), the public knowledge of the hands."""
    stock, taken, sc_scores, sc_hands, sc_slots, sc_nslots, sc = ws[0], ws[5], ws[6], ws[7], ws[8], ws[9], ws[10]
    sc[:] = 0
    sc[S_DEALER], sc[S_LEADER], sc[S_TRICK], sc[S_LEAD] = dealer, leader, tricks, lead
    sc[S_PLAYED], sc[S_TOP], sc[S_ROUNDS], sc[S_TRACK] = played, top, rounds, 1
    seen = played | hands[0] | hands[1]
    if lead >= 0:
        seen |= np.int64(1) << lead_card(lead)
    pool = ALL_CARDS & ~seen
    i = top
    while pool:
        stock[i] = lowest(pool)
        pool &= pool - 1
        i += 1
    for s in range(2):
        sc_hands[s] = hands[s]
        sc_scores[s] = scores[s]
        taken[s] = taken_in[s]
        sc_nslots[s] = nslots[s]
        for k in range(N_SLOTS):
            sc_slots[s, k] = slots[s, k]


@njit(cache=True)
def evaluate_block(seed, start, params, strat, base_ws, seat, options, result, lo, hi):
    ws = workspace(params)
    mcws = mc_workspace(params)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        for i in range(options.shape[0]):
            copy_bundle(base_ws, ws)
            # the same hidden cards and the same future for every option (common random numbers)
            seed_stream(sample_rng, seed, start + j, DEAL)
            resample_hidden(ws, seat, sample_rng)
            ws[10][S_TRACK] = tracks(strat)
            seed_stream(ws[3], seed, start + j, hand_purpose(0))
            seed_stream(ws[4], seed, start + j, PLAY)
            out[:] = 0
            _, p0, p1 = play_rest(params, strat, ws, mcws, out, err, trace, False, options[i])
            result[j, i, 0] = p1 if seat else p0
            result[j, i, 1] = (out[0] >> seat) & 1


@njit(parallel=True, cache=True)
def evaluate_chunk(seed, start, params, strat, base_ws, seat, options, result, nblocks):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    result int64[n, n_options, 2]: [the seat's points this round, won the game] per sample
    and option.
    """
    n = result.shape[0]
    for b in prange(nblocks):
        evaluate_block(seed, start, params, strat, base_ws, seat, options, result, b * n // nblocks,
                       (b + 1) * n // nblocks)
