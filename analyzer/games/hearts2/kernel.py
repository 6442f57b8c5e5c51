"""Two-player Hearts play loops (compiled): one game from a fresh deal, many games in
parallel, the same game with the trace buffer on, Monte Carlo (``mc``) and
perfect-information Monte Carlo (``pimc``) decisions and evaluation from a given position.

Arrays a game reads and writes (allocated once per block of games, see ``workspace``;
the bundle is a ``codes.Workspace``, its fields named as below):
    deck    int64[28]     card codes, set up once per game, shuffled in place each hand
                          (DEAL stream)
    hands   int64[2]      each seat's hand as dealt (card masks; the loop then keeps the
                          hands in registers)
    codes   int64[13]     the legal cards as codes (only for records and user strategies)
    view    int64[VIEW_SIZE]  what a user strategy sees (layout below)
    deal_rng, play_rng uint64[4]  the game's two random streams
    scratch uint64[4]     seeds the Monte Carlo sample streams
    sums    int64[16]     Monte Carlo: points per option (pimc: the sums of the values); the
                          last two (MC_DECISIONS, MC_MOVES) count ``mc``'s decisions and the
                          moves of their rollouts (``mc_work``, scripts/bench_mc.py)
    search  codes.SearchArrays  pimc: the solver's table (full size only in a block with a
                          pimc seat), search stack, one solve's moves and values, the stamp
Out row columns (``codes.O_*``; spec.extra_columns): winners, hands, decisions, score_0,
score_1, moons, moons_0, moons_1 (hands in which the seat shot the moon), tricks_0,
tricks_1 (tricks won), qs_0, qs_1 (hands in which the seat took QS).

The state of a hand in progress is a handful of scalars: ``h0, h1`` (hands, masks),
``dead`` (mask), ``first`` (the forced first lead), ``leader``, ``trick`` (0..12),
``led`` (card led to the current trick, -1 before the lead), ``taken0, taken1`` (points
taken in tricks), ``ntr0`` (tricks won by seat 0), ``void0, void1`` (cards each seat has
publicly shown it does not hold: see rules.shown_void). The rules of one play are the
functions of rules.py (legal_now, end_trick, shown_void); two drivers choose the cards:
``play_hand`` (any strategy: built-in, ``mc``, ``pimc``, user; records) and ``rollout_hand``
(built-in base strategies only: what ``mc`` rolls out with; keeping it apart keeps the
call graph free of recursion, which numba does not compile reliably), with its twin
``rollout_hand_user`` for a user strategy as ``mc``'s base (``mc:base=file.py:f``).

User strategy: ``f(view, legal, n, rng) -> card code`` where ``legal[:n]`` are the legal
card codes and ``view`` (int64) is laid out as ``view.py`` names it (``V_*`` here are those
names: V_SEAT is view.SEAT, ...).

A position (evaluate) is set up by ``load_position``: it replays the public history of the
hand with the same rule functions and refuses an impossible one (``codes.Refusal``).
"""

from __future__ import annotations

import numpy as np

from analyzer import ismcts
from analyzer import trace as tr
from analyzer.bits import lowest, nth_bit, popcount
from analyzer.blocks import in_blocks
from analyzer.slots import refuse_move
from analyzer.games.hearts2 import strategies as st
from analyzer.games.hearts2.codes import (
    BAD_FIRST_CARD,
    DEAD_CARD_SEEN,
    EV_DEAL,
    EV_DECIDE,
    EV_GAME_END,
    EV_HAND_END,
    EV_TRICK,
    G_DEALER,
    G_HAND_NO,
    G_SCORE0,
    G_SCORE1,
    G_SIZE,
    G_TARGET,
    ILLEGAL_PLAY,
    N_COLUMNS,
    NO_FIRST_LEAD,
    O_DECISIONS,
    O_HANDS,
    O_MOONS,
    O_MOONS_SEAT,
    O_QS,
    O_SCORE,
    O_TRICKS,
    O_WINNERS,
    PIMC_TT_BITS,
    PLAYED_SHOWN_VOID,
    REPLAY_OK,
    TAG_DEAD,
    TOO_MANY_DEAD,
    Position,
    Refusal,
    SearchArrays,
    Workspace,
)
from analyzer.games.hearts2.rules import (
    DEAD_CARDS,
    DECK_CODES,
    DECK_MASK,
    DECK_SIZE,
    FIRST_LEADS,
    HEART_MASK,
    KNOWN_DEAD,
    MOON_PENALTY,
    P_TARGET,
    POINT_MASK,
    QS,
    SUIT_OF,
    TRICKS,
    end_trick,
    first_lead,
    game_winners,
    hand_score,
    hearts_broken,
    legal_now,
    mask_to_codes,
    play_card,
    sample_hidden,
    shown_void,
    shuffle_deal,
    xoshiro,
)
from analyzer.games.hearts2.solver import STACK_ROWS, STACK_WIDTH, solve_moves_on
from analyzer.games.hearts2.view import (
    BROKEN as V_BROKEN,
    DEALER as V_DEALER,
    HAND as V_HAND,
    HAND_NO as V_HAND_NO,
    LED as V_LED,
    LEADER as V_LEADER,
    PLAYED as V_PLAYED,
    SCORES as V_SCORES,
    SEAT as V_SEAT,
    TAKEN as V_TAKEN,
    TARGET as V_TARGET,
    TRICK as V_TRICK,
    TRICKS_WON as V_TRICKS,
    VIEW_SIZE,
)
from analyzer.jit import njit
from analyzer.rng import DEAL, PLAY, hand_purpose, randbelow, seed_stream

#: the entry points that take the user strategy slots as their last but one argument ``users``: a
#: tuple of engine.SLOTS compiled functions ``(view, legal, n, rng) -> card`` (engine.SlotKernel);
#: a seat with strategy id ``sid < 0`` plays ``users[-1 - sid]``
USER_ENTRIES = ("run_chunk", "run_traced", "evaluate_chunk", "paired_swap_chunk", "mc_work")
#: ``sums``'s last two entries: ``mc``'s decisions and the moves of their rollouts (13 options at most)
MC_DECISIONS, MC_MOVES = 14, 15
#: a user slot can be the base of ``mc`` and ``pimc`` (``mc:base=file.py:f``): ``rollout_hand_user``
#: and ``pimc_move`` pick its moves through ``user_base_move``
USER_BASES = True
#: they take the compile tier after ``users`` (engine.search_tier): strategy ids from here on
#: are search strategies, compiled only into the kernels' search tier
SEARCH_FROM = st.SEARCH


@njit(cache=True, inline="always")
def choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3):
    """The card of a built-in strategy by id: (card, PLAY stream state r0..r3).

    Scalars only (no arrays): the hot loop stays free of reference counting. ``mc`` and
    user strategies (negative ids) are not handled here: see ``mc_move``, ``user_move``.
    """
    if sid == st.RANDOM:
        return st.random_move(legal, r0, r1, r2, r3)
    return st.heuristic_move(hand, legal, led, mine, theirs), r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def fill_view(view, seat, hand, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0):
    """Write what ``seat`` sees of the hand in progress into ``view`` (the fields of view.py
    but HAND_NO, DEALER, SCORES and TARGET: play_rest writes those once per hand)."""
    view[V_SEAT] = seat
    view[V_TRICK] = trick
    view[V_LEADER] = leader
    view[V_LED] = led
    gone = DECK_MASK & ~(h0 | h1 | dead)  # played so far, the card led included
    if led >= 0:
        gone ^= 1 << led
    view[V_BROKEN] = 1 if gone & HEART_MASK else 0
    view[V_HAND] = hand
    view[V_PLAYED] = gone
    view[V_TAKEN] = taken0
    view[V_TAKEN + 1] = taken1
    view[V_TRICKS] = ntr0
    view[V_TRICKS + 1] = trick - ntr0


@njit(cache=True, _nrt=False)
def user_move(strategy, seat, hand, legal, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0,
              view, codes, play_rng, err, r0, r1, r2, r3):
    """The card of the user strategy ``strategy`` (its slot, ``users[-1 - sid]``: the caller
    passes the one slot, not the tuple of every slot's addresses, which a call would copy at
    each decision), given its view: (card, PLAY stream state). An illegal card gives -1 with
    ``err[1:3]`` filled. Not inlined: in the hand loop it slowed built-in play by a tenth."""
    fill_view(view, seat, hand, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0)
    n = mask_to_codes(legal, codes)
    play_rng[0], play_rng[1], play_rng[2], play_rng[3] = r0, r1, r2, r3
    card = strategy(view, codes, n, play_rng)
    r0, r1, r2, r3 = play_rng[0], play_rng[1], play_rng[2], play_rng[3]
    # built-ins pick from ``legal`` by construction; only user moves are checked
    if card < 0 or card >= 52 or not (legal >> card) & 1:
        err[1] = seat
        err[2] = card
        return -1, r0, r1, r2, r3
    return card, r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def user_base_move(users, sid, seat, hand, legal, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0,
                   view, codes, rng, r0, r1, r2, r3):
    """The card of a search strategy's user base (slot ``-1 - sid``) for ``seat``: the view
    and legal codes ``user_move`` gives a user seat, the stream r0..r3 handed over in ``rng``
    (scratch). Returns (card, r0..r3). A card outside ``legal`` raises
    ValueError(ILLEGAL_MARK, ...) (``refuse_move``, the codes listed again: the strategy may
    write to them), which the caller's guard reports in one line: a rollout has no
    ``err`` row to fill."""
    fill_view(view, seat, hand, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0)
    n = mask_to_codes(legal, codes)
    rng[0], rng[1], rng[2], rng[3] = r0, r1, r2, r3
    card = users[-1 - sid](view, codes, n, rng)
    if card < 0 or card >= 52 or not (legal >> card) & 1:
        refuse_move(card, seat, codes, mask_to_codes(legal, codes))
    return card, rng[0], rng[1], rng[2], rng[3]


@njit(cache=True, _nrt=False)
def trace_decide(trace, seat, card, legal, codes):
    n = mask_to_codes(legal, codes)
    tr.emit(trace, EV_DECIDE, seat, card, 0, 0)
    tr.emit_list(trace, 0, codes, n)


# ---- Monte Carlo -------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def rollout_hand(base, h0, h1, dead, first, leader, trick, led, taken0, taken1, forced, r0, r1, r2, r3):
    """Play the hand on with built-in strategy ``base`` for both seats (the first card
    ``forced``); returns the points taken in tricks (taken0, taken1) and the cards played
    in the hand when it stopped (``played_in_hand``: mc_work counts the rollouts' moves).

    Stops early once no point card is left in either hand: the points are then settled.
    """
    while trick < TRICKS:
        if led < 0:
            if forced < 0 and (h0 | h1) & POINT_MASK == 0:
                break
            seat = leader
        else:
            seat = 1 - leader
        if forced >= 0:
            card = forced
            forced = -1
        else:
            hand = h0 if seat == 0 else h1
            legal = legal_now(hand, trick, first, led, h0, h1, dead)
            mine = taken0 if seat == 0 else taken1
            theirs = taken1 if seat == 0 else taken0
            card, r0, r1, r2, r3 = choose_move(base, hand, legal, led, mine, theirs, r0, r1, r2, r3)
        h0, h1, leader, trick, led, taken0, taken1, _ = play_card(seat, card, h0, h1, leader, trick, led, taken0,
                                                                  taken1, 0)
    return taken0, taken1, played_in_hand(trick, led)


@njit(cache=True, _nrt=False, inline="always")
def played_in_hand(trick, led):
    """Cards played so far in the hand: two a trick done, one if a card is led to ``trick``."""
    return 2 * trick + (1 if led >= 0 else 0)


@njit(cache=True, _nrt=False)
def rollout_hand_user(users, base, view, codes, rng, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0,
                      forced, r0, r1, r2, r3):
    """``rollout_hand`` with the user strategy in slot ``-1 - base`` for both seats
    (``user_base_move``: the view a user seat gets, written to ``view``, its legal codes to
    ``codes``, ``rng`` its stream's array); it counts the tricks won (``ntr0``, seat 0's)
    for the view. Apart from rollout_hand so that a built-in base's loop stays as lean as
    it was (one loop with both measured 18% slower ``mc``)."""
    while trick < TRICKS:
        if led < 0:
            if forced < 0 and (h0 | h1) & POINT_MASK == 0:
                break
            seat = leader
        else:
            seat = 1 - leader
        if forced >= 0:
            card = forced
            forced = -1
        else:
            hand = h0 if seat == 0 else h1
            legal = legal_now(hand, trick, first, led, h0, h1, dead)
            card, r0, r1, r2, r3 = user_base_move(users, base, seat, hand, legal, led, leader, trick, h0, h1, dead,
                                                  taken0, taken1, ntr0, view, codes, rng, r0, r1, r2, r3)
        h0, h1, leader, trick, led, taken0, taken1, ntr0 = play_card(seat, card, h0, h1, leader, trick, led, taken0,
                                                                     taken1, ntr0)
    return taken0, taken1, played_in_hand(trick, led)


@njit(cache=True, inline="always")
def distinct_cards(legal, pool):
    """The legal cards that are not equivalent to a lower legal one: two cards of a suit
    are equivalent when no live card (``pool``: the unseen cards and the card led) lies
    between them (only own or played ones) and neither is QS; then playing either changes nothing but which of the two
    is left. Keeps the lowest card of each such run."""
    keep = legal
    rest = legal
    prev = -1
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = lowest(bit)
        if (prev >= 0 and SUIT_OF[prev] == SUIT_OF[card] and card != QS and prev != QS
                and pool & (bit - (2 << prev)) == 0):
            keep ^= bit
        prev = card
    return keep


@njit(cache=True, _nrt=False)
def mc_move(users, seat, k, base, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void_opp, legal,
            scratch, sums, view, codes, rng, r0, r1, r2, r3):
    """``mc``: K samples of the hidden cards; on each, every legal card is rolled out to
    the end of the hand with ``base`` for both seats (the same sample and the same random
    numbers for every card: common random numbers); plays the card with the fewest
    points for ``seat`` in all (moons included; ties: the lowest card). Cards equivalent
    to a lower one (``distinct_cards``) are not tried.

    What the seat sees: its hand, the cards played (so the pool of unseen cards: the
    opponent's hand and the 2 dead cards, ``h_opp | dead``), the opponent's shown voids
    and the first lead; the hidden cards are redealt by ``rules.sample_hidden``.
    Returns (card, PLAY stream state): one draw of the game's PLAY stream seeds the
    sample streams. A user base (``base < 0``) rolls out with ``rollout_hand_user``
    (through ``view``, ``codes`` and ``rng``).
    """
    if legal & (legal - 1) == 0:
        return lowest(legal), r0, r1, r2, r3
    own = h0 if seat == 0 else h1
    pool = (h1 if seat == 0 else h0) | dead  # = the deck less own hand and cards played
    # the card led is live too: 4S and 8S on a 6S lead are not equivalent
    options = distinct_cards(legal, pool if led < 0 else pool | (1 << led))
    if options & (options - 1) == 0:
        return lowest(options), r0, r1, r2, r3
    seed, r0, r1, r2, r3 = xoshiro(r0, r1, r2, r3)
    sums[MC_DECISIONS] += 1
    played_before = played_in_hand(trick, led)
    forced_dead = pool & (void_opp | KNOWN_DEAD[first])
    n = 0
    rest = options
    while rest:
        sums[n] = 0
        n += 1
        rest &= rest - 1
    for j in range(k):
        seed_stream(scratch, seed, j, PLAY)
        opp, dd, s0, s1, s2, s3 = sample_hidden(pool, forced_dead, scratch[0], scratch[1], scratch[2], scratch[3])
        a = own if seat == 0 else opp
        b = opp if seat == 0 else own
        rest = options
        i = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            if base >= 0:
                t0, t1, played = rollout_hand(base, a, b, dd, first, leader, trick, led, taken0, taken1, lowest(bit),
                                              s0, s1, s2, s3)
            else:
                t0, t1, played = rollout_hand_user(users, base, view, codes, rng, a, b, dd, first, leader, trick,
                                                   led, taken0, taken1, ntr0, lowest(bit), s0, s1, s2, s3)
            p0, p1, _ = hand_score(t0, t1)
            sums[i] += p0 if seat == 0 else p1
            sums[MC_MOVES] += played - played_before  # the card tried and the rollout's
            i += 1
    best = -1
    best_sum = 1 << 62
    rest = options
    i = 0
    while rest:
        bit = rest & -rest
        rest ^= bit
        if sums[i] < best_sum:
            best, best_sum = lowest(bit), sums[i]
        i += 1
    return best, r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def pimc_move(users, seat, k, base, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void_opp, legal,
              scratch, sums, search, view, codes, rng, r0, r1, r2, r3):
    """``pimc`` (perfect-information Monte Carlo): K samples of the hidden cards, drawn as
    ``mc_move`` draws them (``rules.sample_hidden``: consistent with what ``seat`` saw);
    each is solved exactly with every card open (``solver.solve_moves_on``: every legal
    card's value, the opponent's points minus the seat's at the hand's end), and the card
    with the best sum of values over the samples is played. Ties go to the ``base``
    strategy's choice among the tied cards (a user base: ``user_base_move`` in the true
    position, its legal cards the tied ones).

    Reads ``search`` (``codes.SearchArrays``): the solver's table (a new stamp per sample,
    so no clearing), stack, and moves/values rows; ``sums[:13]`` holds the sums. Returns
    (card, PLAY stream state): one draw of the PLAY stream seeds the samples (as ``mc``),
    and a random base draws again to break a tie.
    """
    if legal & (legal - 1) == 0:
        return lowest(legal), r0, r1, r2, r3
    own = h0 if seat == 0 else h1
    pool = (h1 if seat == 0 else h0) | dead
    options = distinct_cards(legal, pool if led < 0 else pool | (1 << led))
    if options & (options - 1) == 0:  # every legal card plays the same: nothing to solve
        return lowest(options), r0, r1, r2, r3
    seed, r0, r1, r2, r3 = xoshiro(r0, r1, r2, r3)
    forced_dead = pool & (void_opp | KNOWN_DEAD[first])
    moves, values = search.moves, search.values
    n = popcount(legal)
    for i in range(n):
        sums[i] = 0
    for j in range(k):
        seed_stream(scratch, seed, j, PLAY)
        opp, dd, _, _, _, _ = sample_hidden(pool, forced_dead, scratch[0], scratch[1], scratch[2], scratch[3])
        search.stamp[0] += 1  # a new world: the table's entries of earlier ones do not apply
        a = own if seat == 0 else opp
        b = opp if seat == 0 else own
        # the legal cards are the same in every world (they depend on the seat's hand and
        # the cards played), written low to high: index i is the same card each time
        solve_moves_on(a, b, dd, seat, led, taken0, taken1, search.tt, search.stamp[0], moves, values,
                       search.stack)
        for i in range(n):
            sums[i] += values[i]
    best_sum = -(1 << 62)
    for i in range(n):
        best_sum = max(best_sum, sums[i])
    tied = 0
    for i in range(n):
        if sums[i] == best_sum:
            tied |= 1 << moves[i]
    tied &= legal  # (always a subset; the fallback below keeps a move legal whatever happens)
    if tied == 0:
        tied = legal
    if tied & (tied - 1) == 0:
        return lowest(tied), r0, r1, r2, r3
    if base < 0:
        return user_base_move(users, base, seat, own, tied, led, leader, trick, h0, h1, dead, taken0, taken1, ntr0,
                              view, codes, rng, r0, r1, r2, r3)
    mine = taken0 if seat == 0 else taken1
    theirs = taken1 if seat == 0 else taken0
    return choose_move(base, own, tied, led, mine, theirs, r0, r1, r2, r3)


#: ``ismcts``'s ``hands`` at or above this: every playout plays to the end of the game
WHOLE_GAME = 1000


@njit(cache=True, _nrt=False)
def playout_hand(users, base, search, view, codes, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0):
    """The rest of the hand with ``base`` for both seats (a built-in id, or a user slot
    ``-1 - base``), its coin flips drawn from ``search.rng`` as it stands: the points taken
    (taken0, taken1)."""
    rng = search.rng
    free = np.int64(-1)  # no forced card; not a literal: the rollouts are compiled once, not twice
    if base >= 0:
        t0, t1, _ = rollout_hand(base, h0, h1, dead, first, leader, trick, led, taken0, taken1, free, rng[0], rng[1],
                                 rng[2], rng[3])
        return t0, t1
    t0, t1, _ = rollout_hand_user(users, base, view, codes, rng, h0, h1, dead, first, leader, trick, led, taken0,
                                  taken1, ntr0, free, rng[0], rng[1], rng[2], rng[3])
    return t0, t1


@njit(cache=True, _nrt=False)
def playout_value(users, base, hands, seed, it, search, view, codes, h0, h1, dead, first, leader, trick, led, taken0,
                  taken1, ntr0):
    """Play iteration ``it``'s world on with ``base``: this hand to its end, then further
    hands (each dealt from ``search.deck`` by the stream ``(seed, it * WHOLE_GAME + h, DEAL)``)
    until the game ends or ``hands`` hands, this one counted, are played. Writes each seat's
    reward to ``search.tree.result``: 1 for the game's winner and 0 for the loser; when the
    playout stops first, 0.5 plus the seat's point margin over the hands played, scaled so
    that a hand's widest margin (MOON_PENALTY) is 0.5 of it.

    Reads ``search.game`` (the game around this hand); a user base's view gets each dealt
    hand's number, dealer and scores (play_rest writes them back for the real hand)."""
    game, result = search.game, search.tree.result
    target = game[G_TARGET]
    dealer = game[G_DEALER]
    score0, score1 = game[G_SCORE0], game[G_SCORE1]
    seed_stream(search.rng, seed, it * WHOLE_GAME, DEAL)
    t0, t1 = playout_hand(users, base, search, view, codes, h0, h1, dead, first, leader, trick, led, taken0, taken1,
                          ntr0)
    played = 1
    while True:
        p0, p1, _ = hand_score(t0, t1)
        score0 += p0
        score1 += p1
        winners = game_winners(score0, score1, target)
        if winners != 0 or played >= hands:
            break
        dealer = 1 - dealer
        seed_stream(search.rng, seed, it * WHOLE_GAME + played, DEAL)
        dd = shuffle_deal(search.deck, search.rng, dealer, search.hands)
        a, b = search.hands[0], search.hands[1]
        if base < 0:
            view[V_HAND_NO] = game[G_HAND_NO] + played
            view[V_DEALER] = dealer
            view[V_SCORES] = score0
            view[V_SCORES + 1] = score1
        lead = first_lead(dd)
        t0, t1 = playout_hand(users, base, search, view, codes, a, b, dd, lead, 0 if a & (1 << lead) else 1, 0, -1,
                              0, 0, 0)
        played += 1
    if winners != 0:
        result[0] = 1.0 if winners & 1 else 0.0
    else:
        margin = (score1 - game[G_SCORE1]) - (score0 - game[G_SCORE0])
        result[0] = 0.5 + margin / (2.0 * MOON_PENALTY * played)
    result[1] = 1.0 - result[0]


@njit(cache=True, _nrt=False)
def ismcts_move(users, seat, iterations, base, explore, hands, h0, h1, dead, first, leader, trick, led, taken0, taken1,
                ntr0, void_opp, legal, scratch, search, view, codes, r0, r1, r2, r3):
    """``ismcts``: single-observer information-set MCTS (analyzer.ismcts) for ``seat``.
    Each of ``iterations`` iterations samples the hidden cards as ``mc`` does
    (``rules.sample_hidden``, from the stream ``(seed, it, PLAY)``), walks the tree with the
    rules of this hand in that world (UCB1, ``explore`` in hundredths), adds a node, plays
    out with ``playout_value`` and backs each seat's reward up. Plays the root's most
    visited card. At the root, cards equivalent to a lower one (``distinct_cards``) are not
    tried. Returns (card, PLAY stream state): one draw of the PLAY stream seeds the search.

    Reads and writes ``search.tree``, ``.deck``, ``.hands``, ``.rng`` and ``scratch``; reads
    ``search.game``."""
    if legal & (legal - 1) == 0:
        return lowest(legal), r0, r1, r2, r3
    own = h0 if seat == 0 else h1
    pool = (h1 if seat == 0 else h0) | dead
    options = distinct_cards(legal, pool if led < 0 else pool | (1 << led))
    if options & (options - 1) == 0:
        return lowest(options), r0, r1, r2, r3
    seed, r0, r1, r2, r3 = xoshiro(r0, r1, r2, r3)
    forced_dead = pool & (void_opp | KNOWN_DEAD[first])
    tree = search.tree
    ismcts.reset(tree)
    for c in range(DECK_SIZE):  # the playouts' deals depend on this search alone
        search.deck[c] = DECK_CODES[c]
    c_explore = explore / 100.0
    for it in range(iterations):
        seed_stream(scratch, seed, it, PLAY)
        opp, dd, s0, s1, s2, s3 = sample_hidden(pool, forced_dead, scratch[0], scratch[1], scratch[2], scratch[3])
        scratch[0], scratch[1], scratch[2], scratch[3] = s0, s1, s2, s3
        x0 = own if seat == 0 else opp
        x1 = opp if seat == 0 else own
        lead, t, ld, t0, t1, n0 = leader, trick, led, taken0, taken1, ntr0
        node, depth = np.int64(0), 1  # not a literal 0: descend is then compiled once, not twice
        tree.path[0] = 0
        while t < TRICKS:
            mover = lead if ld < 0 else 1 - lead
            moves = options if node == 0 else legal_now(x0 if mover == 0 else x1, t, first, ld, x0, x1, dd)
            n = mask_to_codes(moves, tree.legal)
            child, expanded = ismcts.descend(tree, node, n, mover, c_explore, scratch)
            if child < 0:
                break
            tree.path[depth] = child
            depth += 1
            node = child
            x0, x1, lead, t, ld, t0, t1, n0 = play_card(mover, tree.move[child], x0, x1, lead, t, ld, t0, t1, n0)
            if expanded:
                break
        playout_value(users, base, hands, seed, it, search, view, codes, x0, x1, dd, first, lead, t, ld, t0, t1, n0)
        ismcts.back_up(tree, depth)
    return ismcts.most_visited(tree), r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def search_move(users, sid, tier, seat, strat, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0,
                void_opp, legal, scratch, sums, search, view, codes, rng, r0, r1, r2, r3):
    """The card the search strategy ``sid`` (``mc``, ``pimc`` or ``ismcts``) plays for
    ``seat``, its parameters ``strat[seat, 1:]`` (k or iterations, base: a built-in id or a
    user slot ``-1 - base``; ismcts: then explore, hands); returns (card, r0..r3)."""
    if len(tier) == 0:  # the base tier (engine.search_tier): no seat searches, and none is compiled
        return -1, r0, r1, r2, r3
    k, base = strat[seat, 1], strat[seat, 2]
    if sid == st.MC:
        return mc_move(users, seat, k, base, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void_opp,
                       legal, scratch, sums, view, codes, rng, r0, r1, r2, r3)
    if sid == st.ISMCTS:
        return ismcts_move(users, seat, k, base, strat[seat, 3], strat[seat, 4], h0, h1, dead, first, leader, trick, led, taken0,
                           taken1, ntr0, void_opp, legal, scratch, search, view, codes, r0, r1, r2, r3)
    return pimc_move(users, seat, k, base, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void_opp,
                     legal, scratch, sums, search, view, codes, rng, r0, r1, r2, r3)


# ---- drivers -------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def play_hand(strat, users, tier, nhands, h0, h1, dead, first, leader, trick, led, taken0, taken1, ntr0, void0, void1,
              forced, view, codes, play_rng, scratch, sums, search, err, trace, tracing, r0, r1, r2, r3):
    """Play the hand on from its current state (the first card ``forced`` if >= 0), each
    seat with its strategy. Returns (ok, taken0, taken1, ntr0, r0..r3); ok is False after
    an illegal user move (``err`` filled)."""
    sid0 = strat[0, 0]
    sid1 = strat[1, 0]
    # only the search strategies (``mc``, ``pimc``, ``ismcts``) read the shown voids
    track_voids = sid0 >= st.SEARCH or sid1 >= st.SEARCH
    while trick < TRICKS:
        seat = leader if led < 0 else 1 - leader
        hand = h0 if seat == 0 else h1
        legal = legal_now(hand, trick, first, led, h0, h1, dead)
        sid = sid0 if seat == 0 else sid1
        if forced >= 0:
            card = forced
            forced = -1
        elif sid >= st.SEARCH:
            card, r0, r1, r2, r3 = search_move(users, sid, tier, seat, strat, h0, h1,
                                               dead, first, leader, trick, led, taken0, taken1, ntr0,
                                               void1 if seat == 0 else void0, legal, scratch, sums, search,
                                               view, codes, play_rng, r0, r1, r2, r3)
        elif sid >= 0:
            mine = taken0 if seat == 0 else taken1
            theirs = taken1 if seat == 0 else taken0
            card, r0, r1, r2, r3 = choose_move(sid, hand, legal, led, mine, theirs, r0, r1, r2, r3)
        else:
            card, r0, r1, r2, r3 = user_move(users[-1 - sid], seat, hand, legal, led, leader, trick, h0, h1, dead,
                                             taken0, taken1, ntr0, view, codes, play_rng, err, r0, r1, r2, r3)
            if card < 0:
                err[0] = 26 * (nhands - 1) + 2 * trick + (1 if led < 0 else 2)
                if tracing:  # the error names the legal moves (records.illegal_move_message)
                    tr.emit_refused(trace, seat, err[2], codes, mask_to_codes(legal, codes))
                return False, taken0, taken1, ntr0, r0, r1, r2, r3
        if tracing:
            trace_decide(trace, seat, card, legal, codes)
        if track_voids:
            shown = shown_void(trick, led, card, led < 0 and hearts_broken(h0, h1, dead))
            void0 |= shown & (seat - 1)
            void1 |= shown & -seat
        flip = 1 << card
        h0 ^= flip & (seat - 1)
        h1 ^= flip & -seat
        if led < 0:
            led = card
        else:
            winner, taken0, taken1, ntr0 = end_trick(leader, led, card, taken0, taken1, ntr0)
            if tracing:
                tr.emit(trace, EV_TRICK, leader, led, card, winner)
            leader = winner
            led = -1
            trick += 1
    return True, taken0, taken1, ntr0, r0, r1, r2, r3


@njit(cache=True, inline="always")
def sees_view(strat, seat):
    """Whether a user strategy reads the view for ``seat``: it plays the seat, or is the base
    of the seat's search strategy (``mc``/``pimc``: column 2 is the base)."""
    sid = strat[seat, 0]
    return sid < 0 or (sid >= st.SEARCH and strat[seat, 2] < 0)


@njit(cache=True, inline="always")
def dealt_leader(h0, dead):
    """Who leads a freshly dealt hand's first trick: the holder of its forced first lead."""
    return 0 if h0 & (1 << first_lead(dead)) else 1


@njit(cache=True, _nrt=False)
def hand_facts(strat, search, view, nhands, dealer, score0, score1, target):
    """Write the game's facts at the start of hand ``nhands`` where the strategies read them:
    ``search.game`` (the search strategies) and the view (user strategies, when one reads it)."""
    game = search.game
    game[G_DEALER], game[G_SCORE0], game[G_SCORE1], game[G_TARGET], game[G_HAND_NO] = (dealer, score0, score1,
                                                                                        target, nhands)
    if sees_view(strat, 0) or sees_view(strat, 1):
        view[V_HAND_NO] = nhands
        view[V_DEALER] = dealer
        view[V_SCORES] = score0
        view[V_SCORES + 1] = score1
        view[V_TARGET] = target


@njit(cache=True, _nrt=False)
def play_rest(params, strat, users, tier, ws, out, err, trace, tracing, nhands, dealer, score0, score1, h0, h1, dead, leader,
              trick, led, taken0, taken1, ntr0, void0, void1, forced):
    """Finish hand ``nhands`` from the state given (``h0 < 0``: deal it first), then play
    hands until the game ends; fill ``out`` (counts from this hand on). Returns
    (ok, points of seat 0 this hand, points of seat 1 this hand)."""
    deck, hands, codes, view, deal_rng, play_rng, scratch, sums, search = ws
    target = params[P_TARGET]
    r0, r1, r2, r3 = play_rng[0], play_rng[1], play_rng[2], play_rng[3]
    moons0 = 0
    moons1 = 0
    tricks0 = 0
    played = 0
    ntricks = 0
    qs0 = 0
    qs1 = 0
    first_p0 = 0
    first_p1 = 0
    winners = 0
    first_hand = True
    while winners == 0:
        if h0 < 0:
            # each hand shuffles the deck as the last hand left it (any order will do: the
            # shuffle makes every order equally likely), so it is set up once per game
            dead = shuffle_deal(deck, deal_rng, dealer, hands)
            if tracing:
                tr.emit(trace, EV_DEAL, nhands, dealer, 0, 0)
                for k in range(13):
                    tr.emit(trace, tr.LIST, 1 - dealer, deck[1 + 2 * k], 0, 0)
                for k in range(13):
                    tr.emit(trace, tr.LIST, dealer, deck[2 + 2 * k], 0, 0)
                tr.emit(trace, tr.LIST, TAG_DEAD, deck[0], 0, 0)
                tr.emit(trace, tr.LIST, TAG_DEAD, deck[DECK_SIZE - 1], 0, 0)
            h0 = hands[0]
            h1 = hands[1]
            leader = dealt_leader(h0, dead)
            zero = np.int64(0)  # not a literal: play_hand is typed (and compiled) once
            trick, led, taken0, taken1, ntr0, void0, void1 = zero, zero - 1, zero, zero, zero, zero, zero
        hand_facts(strat, search, view, nhands, dealer, score0, score1, target)
        played += 2 * (TRICKS - trick) - (0 if led < 0 else 1)
        ntricks += TRICKS - trick
        ok, taken0, taken1, ntr0, r0, r1, r2, r3 = play_hand(
            strat, users, tier, nhands, h0, h1, dead, first_lead(dead), leader, trick, led, taken0, taken1, ntr0, void0,
            void1, forced, view, codes, play_rng, scratch, sums, search, err, trace, tracing, r0, r1, r2, r3)
        forced = -1
        if not ok:
            return False, 0, 0
        tricks0 += ntr0
        # only QS is worth 13 or more: 7 hearts make at most 7
        qs0 += taken0 >= 13
        qs1 += taken1 >= 13
        p0, p1, moon = hand_score(taken0, taken1)
        if first_hand:
            first_p0, first_p1 = p0, p1
            first_hand = False
        score0 += p0
        score1 += p1
        if moon == 0:
            moons0 += 1
        elif moon == 1:
            moons1 += 1
        if tracing:
            tr.emit(trace, EV_HAND_END, nhands, moon, p0, p1)
            tr.emit(trace, tr.LIST, 0, score0, 0, 0)
            tr.emit(trace, tr.LIST, 0, score1, 0, 0)
        winners = game_winners(score0, score1, target)
        if winners == 0:
            dealer = 1 - dealer
            nhands += 1
            h0 = -1
    play_rng[0], play_rng[1], play_rng[2], play_rng[3] = r0, r1, r2, r3
    out[O_WINNERS] = winners
    out[O_HANDS] = nhands
    out[O_DECISIONS] = played
    out[O_SCORE] = score0
    out[O_SCORE + 1] = score1
    out[O_MOONS] = moons0 + moons1
    out[O_MOONS_SEAT] = moons0
    out[O_MOONS_SEAT + 1] = moons1
    out[O_TRICKS] = tricks0
    out[O_TRICKS + 1] = ntricks - tricks0
    out[O_QS] = qs0
    out[O_QS + 1] = qs1
    if tracing:
        tr.emit(trace, EV_GAME_END, winners, nhands, 0, 0)
        tr.emit(trace, tr.LIST, 0, score0, 0, 0)
        tr.emit(trace, tr.LIST, 0, score1, 0, 0)
    return True, first_p0, first_p1


@njit(cache=True, _nrt=False)
def play_game(seed, index, params, strat, users, tier, out, err, trace, tracing, ws):
    """Play game ``index`` of the run ``seed``; fill ``out`` (one row) and ``err``."""
    deck, deal_rng, play_rng = ws.deck, ws.deal_rng, ws.play_rng
    seed_stream(deal_rng, seed, index, DEAL)
    seed_stream(play_rng, seed, index, PLAY)
    for i in range(out.shape[0]):
        out[i] = 0
    err[0] = -1
    dealer = randbelow(deal_rng, 2)
    for i in range(DECK_SIZE):
        deck[i] = DECK_CODES[i]
    play_rest(params, strat, users, tier, ws, out, err, trace, tracing, 1, dealer, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0,
              -1)


@njit(cache=True)
def search_arrays(table, nodes):
    """The search strategies' arrays (a ``codes.SearchArrays``): pimc's solver works in
    ``table`` (int64[rows, 3]), ismcts in a tree of ``nodes`` nodes."""
    return SearchArrays(table, np.zeros((STACK_ROWS, STACK_WIDTH), dtype=np.int64), np.zeros(13, dtype=np.int64),
                        np.zeros(13, dtype=np.int64), np.zeros(1, dtype=np.int64),
                        ismcts.new_tree(nodes, 2 * TRICKS + 1, 13, 2), np.zeros(DECK_SIZE, dtype=np.int64),
                        np.zeros(2, dtype=np.int64), np.zeros(G_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64))


@njit(cache=True)
def workspace(params, strat):
    """The arrays one game needs (a ``codes.Workspace``), allocated once per block of games;
    the solver's table is full size only when a seat of ``strat`` plays ``pimc``, the search
    tree only when one plays ``ismcts``."""
    pimc = strat[0, 0] == st.PIMC or strat[1, 0] == st.PIMC
    nodes = 2
    for s in range(2):
        if strat[s, 0] == st.ISMCTS:
            nodes = max(nodes, strat[s, 1] + 1)
    search = search_arrays(np.zeros((1 << PIMC_TT_BITS if pimc else 2, 3), dtype=np.int64), nodes)
    # fields in order: deck, hands, codes, view, deal_rng, play_rng, scratch, sums, search
    return Workspace(np.zeros(DECK_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(13, dtype=np.int64),
                     np.zeros(VIEW_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
                     np.zeros(4, dtype=np.uint64), np.zeros(16, dtype=np.int64), search)


@njit(cache=True)
def run_block(seed, start, params, strat, out, err, lo, hi, users, tier):
    ws = workspace(params, strat)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws)
        if err[g, 0] >= 0:
            return


@njit(entry=True, cache=True)
def mc_work(seed, start, params, strat, out, err, work, users, tier):
    """For scripts/bench_mc.py only: games ``start ..`` as ``run_block`` plays them (one block,
    ``out``/``err`` rows), with a seat of ``strat`` playing ``mc``; then ``work`` gets ``mc``'s
    decisions and the moves played in their rollouts (``sums[MC_DECISIONS]``, ``sums[MC_MOVES]``)."""
    ws = workspace(params, strat)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    for g in range(out.shape[0]):
        play_game(seed, start + g, params, strat, users, tier, out[g], err[g], trace, False, ws)
    work[0] = ws.sums[MC_DECISIONS]
    work[1] = ws.sums[MC_MOVES]


@in_blocks("out", "err")
@njit(entry=True, nogil=True, cache=True)
def run_chunk(seed, start, params, strat, out, err, nblocks, users, tier):
    n = out.shape[0]
    for b in range(nblocks):
        run_block(seed, start, params, strat, out, err, b * n // nblocks, (b + 1) * n // nblocks, users, tier)


@njit(entry=True, nogil=True, cache=True)  # nogil: Ctrl-C and --timeout reach a stuck strategy
def run_traced(seed, index, params, strat, out_row, err_row, trace, users, tier):
    play_game(seed, index, params, strat, users, tier, out_row, err_row, trace, True, workspace(params, strat))


# ---- sampling and evaluation from a position ----------------------------------------------------

@njit(entry=True, cache=True)
def sample_many(seed, pool, forced, n, out):
    """``n`` samples of the hidden cards (``out[j] = [opponent's hand, dead]``), for tests."""
    rng = np.zeros(4, dtype=np.uint64)
    for j in range(n):
        seed_stream(rng, seed, j, DEAL)
        opp, dd, _, _, _, _ = sample_hidden(pool, forced, rng[0], rng[1], rng[2], rng[3])
        out[j, 0] = opp
        out[j, 1] = dd


@njit(cache=True, inline="always")
def world_of(seed, j, pos, worlds, rng):
    """The hidden cards of evaluation sample ``j``: (opponent's hand, dead cards). With
    ``worlds`` (enumerated dead-card masks) sample j is world j mod W, the opponent holding
    the rest of the pool; else a draw of ``sample_hidden`` from sample j's DEAL stream
    (``rng``, uint64[4], overwritten). evaluate_block and solve_block share it, so the
    solver values the very worlds the rollouts play (paired)."""
    if worlds.shape[0] > 0:
        dd = worlds[j % worlds.shape[0]]
        return pos.pool & ~dd, dd
    seed_stream(rng, seed, j, DEAL)
    opp, dd, _, _, _, _ = sample_hidden(pos.pool, pos.forced_dead, rng[0], rng[1], rng[2], rng[3])
    return opp, dd


@njit(cache=True)
def evaluate_block(seed, start, params, strat, pos, options, worlds, result, lo, hi, users, tier):
    """Samples ``lo .. hi - 1`` (see evaluate_chunk)."""
    seat, own = pos.seat, pos.own
    ws = workspace(params, strat)
    err = np.full(4, -1, dtype=np.int64)
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    sample_rng = np.zeros(4, dtype=np.uint64)
    for j in range(lo, hi):
        # the same hidden cards and the same future for every option (common random numbers)
        opp, dd = world_of(seed, start + j, pos, worlds, sample_rng)
        h0 = own if seat == 0 else opp
        h1 = opp if seat == 0 else own
        for i in range(options.shape[0]):
            for c in range(DECK_SIZE):
                ws.deck[c] = DECK_CODES[c]
            seed_stream(ws.deal_rng, seed, start + j, hand_purpose(0))
            seed_stream(ws.play_rng, seed, start + j, PLAY)
            ok, p0, p1 = play_rest(params, strat, users, tier, ws, out, err, trace, False, pos.hand_no, pos.dealer,
                                   pos.score0, pos.score1, h0, h1, dd, pos.leader, pos.trick, pos.led, pos.taken0,
                                   pos.taken1, pos.ntr0, pos.void0, pos.void1, options[i])
            result[j, i, 0] = p0 if seat == 0 else p1
            result[j, i, 1] = (out[O_WINNERS] >> seat) & 1


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def evaluate_chunk(seed, start, params, strat, pos, options, worlds, result, nblocks, users, tier):
    """Play every option on samples ``start .. start + len(result) - 1`` of the hidden cards.

    ``worlds`` (int64[W]): empty to sample the hidden cards (``sample_hidden``), else the
    dead-card masks of every consistent world (spec.evaluation), sample j played in world
    (start + j) mod W; the opponent holds the rest of the pool.

    ``pos``: the ``codes.Position`` the seat decides in (``load_position``). result
    int64[n, n_options, 2]: [the seat's points this hand, won the game] per sample and
    option.
    """
    n = result.shape[0]
    for b in range(nblocks):
        evaluate_block(seed, start, params, strat, pos, options, worlds, result, b * n // nblocks,
                       (b + 1) * n // nblocks, users, tier)


@njit(cache=True)
def solve_block(seed, start, pos, options, worlds, result, lo, hi):
    """Samples ``lo .. hi - 1`` of solve_chunk, in a solver table of this block's own."""
    search = search_arrays(np.zeros((1 << PIMC_TT_BITS, 3), dtype=np.int64), 1)
    rng = np.zeros(4, dtype=np.uint64)
    seat = pos.seat
    for j in range(lo, hi):
        opp, dd = world_of(seed, start + j, pos, worlds, rng)
        search.stamp[0] += 1  # a new world: the table's entries of earlier ones do not apply
        a = pos.own if seat == 0 else opp
        b = opp if seat == 0 else pos.own
        n, _ = solve_moves_on(a, b, dd, seat, pos.led, pos.taken0, pos.taken1, search.tt, search.stamp[0],
                              search.moves, search.values, search.stack)
        for i in range(options.shape[0]):
            for m in range(n):
                if search.moves[m] == options[i]:
                    result[j, i] = search.values[m]


@in_blocks("result")
@njit(entry=True, nogil=True, cache=True)
def solve_chunk(seed, start, pos, options, worlds, result, nblocks):
    """``evaluate --method solve``: every option's exact value, with every card open, in the
    worlds of evaluation samples ``start .. start + len(result) - 1`` (the hidden cards
    evaluate_chunk plays them in: ``world_of``). ``pos`` the ``codes.Position``; options
    int64[k] legal card codes; result int64[n, k] (written): the opponent's points minus
    the seat's at the hand's end (solver.solve_moves_on) after the seat plays option i."""
    n = result.shape[0]
    for b in range(nblocks):
        solve_block(seed, start, pos, options, worlds, result, b * n // nblocks, (b + 1) * n // nblocks)


# ---- paired deals: one card's value, the same deal with and without it (the report's study) ----

#: stream purpose of the swap partner's draw in paired_swap_chunk (rng: DEAL 0, PLAY 1, HAND 16+)
SWAP = 2
#: result columns of paired_swap_chunk, per deal and arm
PS_POINTS, PS_OPPONENT, PS_TOOK_QS, PS_MOON = 0, 1, 2, 3
PS_COLUMNS = 4


@njit(cache=True)
def play_dealt(params, strat, users, tier, ws, err, trace, dealer, h0, h1, dead):
    """Play hand 1 of a game at 0-0 from the deal ``h0, h1, dead`` (masks) to its end, each
    seat with its strategy, the PLAY stream from ``ws.play_rng`` (seeded by the caller).
    Returns (ok, points of seat 0, points of seat 1, moon seat or -1, points taken in
    tricks by seat 0, by seat 1)."""
    # unpacked, as play_rest does (numba reads ``ws.view`` as the array method ``view``)
    _, _, codes, view, _, rng, scratch, sums, search = ws
    one, zero, none = np.int64(1), np.int64(0), np.int64(-1)  # not literals: play_hand typed once
    hand_facts(strat, search, view, 1, dealer, 0, 0, params[P_TARGET])
    ok, taken0, taken1, _, _, _, _, _ = play_hand(
        strat, users, tier, one, h0, h1, dead, first_lead(dead), dealt_leader(h0, dead), zero, none, zero, zero, zero,
        zero, zero, none,
        view, codes, rng, scratch, sums, search, err, trace, False, rng[0], rng[1], rng[2], rng[3])
    p0, p1, moon = hand_score(taken0, taken1)
    return ok, p0, p1, moon, taken0, taken1


@njit(cache=True)
def paired_swap_block(seed, start, params, strat, card, neutral, info, result, lo, hi, users, tier):
    """Deals ``lo .. hi - 1`` of paired_swap_chunk."""
    ws = workspace(params, strat)
    err = np.full(4, -1, dtype=np.int64)
    trace = np.zeros((1, tr.WIDTH), dtype=np.int64)
    swap_rng = np.zeros(4, dtype=np.uint64)
    one = np.int64(1)
    bit = one << card
    for j in range(lo, hi):
        # deal g exactly as game g of the run ``seed`` deals its first hand (play_game)
        g = start + j
        seed_stream(ws.deal_rng, seed, g, DEAL)
        dealer = randbelow(ws.deal_rng, 2)
        for c in range(DECK_SIZE):
            ws.deck[c] = DECK_CODES[c]
        dead = shuffle_deal(ws.deck, ws.deal_rng, dealer, ws.hands)
        h0, h1 = ws.hands[0], ws.hands[1]
        seat = 0 if h0 & bit else (1 if h1 & bit else -1)
        info[j, 0], info[j, 1], info[j, 2], info[j, 3] = seat, -1, 0, dealer
        if seat < 0:
            continue  # the card is dead: no seat holds it
        # the partner: a card of ``neutral`` the seat does not hold (``card`` itself if in ``neutral``)
        pool = neutral & ~((h0 if seat == 0 else h1) & ~bit)
        seed_stream(swap_rng, seed, g, SWAP)
        x = nth_bit(pool, randbelow(swap_rng, popcount(pool)))
        info[j, 1], info[j, 2] = x, (dead >> x) & 1
        flip = (bit | (one << x)) if x != card else np.int64(0)
        for arm in range(2):
            a0, a1, dd = h0, h1, dead
            if arm == 1:  # card and x change places: the seat's hand, and x's place (the other hand or dead)
                x_dead = (dead >> x) & 1
                a0 ^= flip if seat == 0 or x_dead == 0 else 0
                a1 ^= flip if seat == 1 or x_dead == 0 else 0
                dd ^= flip if x_dead else 0
            # the same PLAY stream for both arms (common random numbers)
            seed_stream(ws.play_rng, seed, g, PLAY)
            _, p0, p1, moon, t0, t1 = play_dealt(params, strat, users, tier, ws, err, trace, dealer, a0, a1, dd)
            row = result[j, arm]
            row[PS_POINTS] = p0 if seat == 0 else p1
            row[PS_OPPONENT] = p1 if seat == 0 else p0
            # only QS is worth 13 or more: 7 hearts make at most 7
            row[PS_TOOK_QS] = (t0 if seat == 0 else t1) >= 13
            row[PS_MOON] = moon == seat


@in_blocks("info", "result")
@njit(entry=True, nogil=True, cache=True)
def paired_swap_chunk(seed, start, params, strat, card, neutral, info, result, nblocks, users, tier):
    """One card's value, paired: deal ``g = start + j`` (row j of n) is dealt as game g of
    the run ``seed`` deals its first hand, and hand 1 (scores 0-0) is played twice from it,
    each seat with its strategy and the same PLAY stream (seed, g): arm 0 as dealt, arm 1
    with ``card`` exchanged with a partner card drawn uniformly (stream (seed, g, SWAP)) from ``neutral``
    (a card mask) less the other cards of the seat that holds ``card``, wherever the partner
    is (the other hand or the dead cards). ``card`` in ``neutral`` may be drawn: that arm is
    the deal as dealt. ``neutral`` must keep a card outside any 13-card hand.

    Writes info int64[n, 4]: the seat holding ``card`` (-1: dead, the deal not played),
    the partner card (-1: none), 1 if the partner was dead (0: in the other hand), the
    dealer; result int64[n, 2, PS_COLUMNS] per arm: the seat's points this hand, the
    opponent's, whether the seat took 13+ points in tricks (took QS), whether the seat shot
    the moon. Each deal has its own streams: the results
    do not depend on ``nblocks``."""
    n = result.shape[0]
    for b in range(nblocks):
        paired_swap_block(seed, start, params, strat, card, neutral, info, result, b * n // nblocks,
                          (b + 1) * n // nblocks, users, tier)


# ---- a position from its public history -----------------------------------------------------------

@njit(cache=True)
def refused(code, at, card, cards, seat, hand, dealer, score0, score1, hand_no):
    """The result of ``load_position`` for a history it refuses: a Position holding only what
    was given, and why (a ``codes.Refusal``)."""
    zero = np.int64(0)
    pos = Position(seat, hand, zero, zero, hand_no, dealer, score0, score1, zero, zero, np.int64(-1), zero, zero,
                   zero, zero, zero, zero, zero)
    return pos, Refusal(np.int64(code), np.int64(at), np.int64(card), np.int64(cards))


@njit(cache=True)
def first_leader(seat, played):
    """Who led the first trick of a hand whose cards so far are ``played``: the seat leads
    now, or follows when the count is odd, and each trick's winner leads the next. The
    winner depends on the cards only relative to the leader (``end_trick``), so replaying
    from seat 0 tells whether the first leader is the seat now leading or the other."""
    n = played.shape[0]
    relative = np.int64(0)
    for t in range(n // 2):
        relative, _, _, _ = end_trick(relative, played[2 * t], played[2 * t + 1], 0, 0, 0)
    return (seat ^ (n & 1)) ^ relative


@njit(entry=True, cache=True)
def load_position(seat, hand, played, dealer, score0, score1, hand_no):
    """Replay the public history of a hand with the compiled rules, as ``seat`` saw it.

    ``hand``: the seat's cards now (a mask); ``played`` (int64[n]): the cards played this
    hand in play order (lead, follow, lead, ...; with n odd the last is the card led to the
    current trick). The caller has checked the format (cards of the deck, each once, a hand
    of the right size). Returns (``codes.Position``, ``codes.Refusal``): the position the
    seat decides in (trick winners, points taken, voids shown, hidden-card constraints,
    legal cards), and REPLAY_OK, or why the history is impossible, the first card at fault
    first (the seat's plays are checked with ``legal_now``, the opponent's against the voids
    it had shown: ``shown_void``).
    """
    n = played.shape[0]
    one = np.int64(1)
    seen = hand
    for i in range(n):
        seen |= one << played[i]
    if n > 0:
        first = played[0]
        if first_lead(KNOWN_DEAD[first]) != first:  # no dead cards make it the first lead
            return refused(BAD_FIRST_CARD, 0, first, 0, seat, hand, dealer, score0, score1, hand_no)
    else:  # the seat leads the first trick: with the lowest first lead it holds (the others dead)
        first = first_lead(FIRST_LEADS & ~hand)
        if not (hand >> first) & 1:
            return refused(NO_FIRST_LEAD, -1, -1, 0, seat, hand, dealer, score0, score1, hand_no)
    if KNOWN_DEAD[first] & seen:
        return refused(DEAD_CARD_SEEN, -1, lowest(KNOWN_DEAD[first] & seen), 0, seat, hand, dealer, score0, score1,
                       hand_no)
    leader = first_leader(seat, played)
    # the seat's cards as dealt: held now or played by it (a trick's second card is the follower's)
    own = hand
    who = leader
    for i in range(n):
        if who == seat:
            own |= one << played[i]
        if i & 1:
            who, _, _, _ = end_trick(who ^ 1, played[i - 1], played[i], 0, 0, 0)
        else:
            who ^= 1
    # play the hand as play_hand does; the opponent's "hand" is every card the seat does not
    # hold (its cards and the dead ones): only which hearts are gone matters to the rules here
    h0 = own if seat == 0 else DECK_MASK & ~own
    h1 = DECK_MASK & ~own if seat == 0 else own
    trick, led, taken0, taken1, ntr0, void0, void1 = 0, np.int64(-1), 0, 0, 0, np.int64(0), np.int64(0)
    for i in range(n):
        card = played[i]
        p = leader if led < 0 else 1 - leader
        if p == seat:
            legal = legal_now(h0 if p == 0 else h1, trick, first, led, h0, h1, 0)
            if not (legal >> card) & 1:
                return refused(ILLEGAL_PLAY, i, card, legal, seat, hand, dealer, score0, score1, hand_no)
        elif ((void0 if p == 0 else void1) >> card) & 1:
            return refused(PLAYED_SHOWN_VOID, i, card, 0, seat, hand, dealer, score0, score1, hand_no)
        shown = shown_void(trick, led, card, led < 0 and hearts_broken(h0, h1, 0))
        void0 |= shown & (p - 1)
        void1 |= shown & -p
        flip = one << card
        h0 ^= flip & (p - 1)
        h1 ^= flip & -p
        if led < 0:
            led = card
        else:
            leader, taken0, taken1, ntr0 = end_trick(leader, led, card, taken0, taken1, ntr0)
            led = np.int64(-1)
            trick += 1
    pool = DECK_MASK & ~seen
    forced = pool & ((void1 if seat == 0 else void0) | KNOWN_DEAD[first])
    if popcount(forced) > DEAD_CARDS:
        return refused(TOO_MANY_DEAD, -1, -1, forced, seat, hand, dealer, score0, score1, hand_no)
    legal = legal_now(hand, trick, first, led, h0, h1, 0)
    pos = Position(seat, hand, pool, forced, hand_no, dealer, score0, score1, leader, np.int64(trick), led,
                   np.int64(taken0), np.int64(taken1), np.int64(ntr0), void0, void1, first, legal)
    return pos, Refusal(np.int64(REPLAY_OK), np.int64(-1), np.int64(-1), np.int64(0))
