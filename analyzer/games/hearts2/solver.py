"""Two-player Hearts: an exact perfect-information solver (compiled), and its Python entry.

Everyone sees every card (both hands and the two dead cards). The value of a position is,
for the seat to move, **the opponent's points minus its own points for this hand**, at
the hand's end, with everyone playing optimally, the moon rule included (points already
taken this hand count). Cards are never drawn during a hand in this game (docs/rules.md,
section 3): the two dead cards take no part, so a position is complete with the hands,
the card led to the trick in progress and the points each seat has taken.

The search (compiled, arrays and scalars only)
----------------------------------------------
Plain minimax with alpha-beta in seat 0's frame (seat 0 maximises ``v`` = seat 1's points
minus seat 0's, seat 1 minimises it), fail-soft, values in -20..20, on an explicit stack
(numba does not cache recursive call graphs reliably: a recursive version crashed when
loaded from the cache). Each root card is valued exactly by MTD(f): zero-window searches
from a first guess (the previous card's value), the table carrying the bounds between
passes (9% fewer nodes than one full-window search).

- the rules of a play are those of ``rules.py`` (legal_lead, legal_follow, hearts_broken,
  end_trick, hand_score, mask_points, first_lead): the solver restates none of them;
- static bounds: with ``R`` points left in play and ``d = p1 - p0`` taken so far, the value
  lies in ``[d - R, d + R]``, widened to -20 (+20) while seat 1 (seat 0) can still shoot
  the moon, that is while the other seat has taken no point; ``R == 0`` ends the search,
  and so does the last trick (every card forced);
- a transposition table ``tt`` (int64[2**k, 3], rows ``[key_a, key_b, data]``, two-slot
  buckets: a depth-preferred slot and an always-replace one) for the positions at a lead
  (the follower's are not stored: measured, 0.5% more nodes and a third less time), keyed by
  ``key_a = h0 | meta << 52`` and ``key_b = h1``, ``meta`` = (seat 0 took a point) |
  (seat 1 took a point) << 1 | turn << 2 | (card led + 1) << 3. Within one hand the points
  taken are then either irrelevant to the future (both seats took some: only ``d``
  matters and the future adds to it) or fixed by the cards left (a seat that took none:
  the other took every point played), so an entry stores bounds on ``v - d`` and the best
  move; its data word packs ``lo + 64 | (hi + 64) << 7 | (move + 1) << 14 | stamp << 20``
  (``v - d`` lies in -40..40). An entry of another ``stamp`` is empty: give a new stamp
  (>= 1, a counter) whenever the dead cards change (a new deal or a new sampled world), so
  one table serves many calls without clearing;
- merging of equivalent cards: a legal card whose next lower live card of its suit (live:
  in a hand or led to this trick) is in the same hand with the same points (rules.
  CARD_POINTS) plays exactly as that card; only the lowest card of each such run is
  searched, and the root gives its value to the whole run;
- move ordering: the table's move first, then a cheap game sense: the follower ducks
  under the card led with its highest card below it (else wins with its lowest), sheds QS
  and then its highest cards when void; the leader leads low.

``solve_moves`` is the compiled entry (usable from other kernels): the value of every
legal card of the seat to move, and the node count; it allocates its search stack
(int64[28, 32]) once per call and nothing else. ``solve_moves_on`` is the same on a stack
the caller allocated once (the ``pimc`` strategy: kernel.pimc_move).

The position format (``solve_position``)
----------------------------------------
A JSON object (cards as tokens, a list or a space/comma separated string):

``hands``  [[cards of seat 0], [cards of seat 1]]: what each seat holds now (required)
``turn``   the seat to move, 0 or 1 (required); the value is from its point of view
``trick``  [card] led to the trick in progress by the other seat, or [] when ``turn``
           leads (default [])
``taken``  [[cards], [cards]]: the cards of the complete tricks of this hand, by the seat
           that won them (default [[], []]; each list holds whole tricks, 2 cards each)
``dead``   the 2 dead cards (optional: by default the cards of the 28-card deck that are
           in no list above; when given, every card of the deck must be in one list)
``hand``, ``scores``: optional, informational (the hand number, the scores before it);
           the solver ignores them.

Example: ``{"hands": [["2H","QS"], ["4H","AS"]], "turn": 0, "trick": [],
"taken": [["2C","4C", ...], [...]], "dead": ["QC","AH"]}``.

``solve_position`` returns ``{"options": [{"option": "QS", "value": -13}, ...],
"best": ["2H"], "nodes": n, "elapsed_s": t}``: every legal card (in card order) with its
exact value for the seat to move, the best ones, the nodes searched.
``position_at(events, at)`` builds such a position from a record (docs/record.md).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from analyzer.jit import njit  # first: it sets numba's cache folder before numba loads

from analyzer.bits import highest, lowest, popcount  # noqa: E402,I001
from analyzer.errors import AnalyzerError  # noqa: E402,I001
from analyzer.games.base import decision_index  # noqa: E402,I001
from analyzer.games.hearts2.rules import (  # noqa: E402
    CARD_POINTS,
    QS,
    SUIT_MASK_OF,
    SUIT_OF,
    end_trick,
    first_lead,
    follow_mask,
    hand_score,
    hearts_broken,
    legal_follow,
    legal_lead,
    mask_points,
)

#: what a move's value counts (analyzer solve prints it)
VALUE = ("value: the opponent's points minus the deciding seat's for this hand, at its end, both playing "
         "perfectly with every card known (moon included; points taken so far count)")

#: values lie in -20..20; one more is infinity
INF = 21
#: the default table: 2**20 entries of 3 int64 (24 MiB)
DEFAULT_TT_BITS = 20
#: errors of ``position_problem``
OK, NO_FIRST_LEAD, WRONG_FIRST_CARD, ILLEGAL_LEAD, NOTHING_LEGAL = 0, 1, 2, 3, 4

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_U31 = np.uint64(31)
_CARDS52 = (1 << 52) - 1
_STAMP_SHIFT = 20


# ---- legal moves and equivalent cards ----------------------------------------------------

@njit(cache=True, inline="always")
def legal_cards(h0, h1, dead, turn, led):
    """Legal cards (mask) of seat ``turn``; ``led`` the card led to this trick or -1.
    The first trick (26 cards in the hands, nobody has led) allows only the first lead."""
    hand = h0 if turn == 0 else h1
    if led >= 0:
        return legal_follow(hand, follow_mask(led))
    if popcount(h0 | h1) == 26:
        return hand & (1 << first_lead(dead))
    return legal_lead(hand, hearts_broken(h0, h1, dead))


@njit(cache=True, inline="always")
def next_lower_live(card, live):
    """The next lower card of ``card``'s suit in mask ``live``, or -1."""
    below = live & SUIT_MASK_OF[card] & ((1 << card) - 1)
    return highest(below) if below else -1


@njit(cache=True, inline="always")
def representatives(legal, hand, live):
    """The legal cards that are not equivalent to a lower legal card (mask): a card whose
    next lower live card (``live``: both hands and the card led) is in ``hand`` with the same
    points plays exactly as it, every card between them being out of play."""
    reps = 0
    x = legal
    while x:
        c = lowest(x)
        x &= x - 1
        n = next_lower_live(c, live)
        if n < 0 or not (hand >> n) & 1 or CARD_POINTS[n] != CARD_POINTS[c]:
            reps |= 1 << c
    return reps


@njit(cache=True, inline="always")
def order_key(c, led, ttmove):
    """Search order of card ``c`` (lower first): the table's move, then the follower's duck
    (highest under the card led), its cheapest win, QS and high cards when void; low leads."""
    if c == ttmove:
        return -100
    rank = c - 13 * SUIT_OF[c]
    if led < 0:
        return rank
    if SUIT_OF[c] == SUIT_OF[led]:
        return -rank if c < led else 20 + rank
    if c == QS:
        return -50
    if SUIT_OF[c] == 2 and SUIT_OF[led] != 2:  # a heart on a non-heart lead wins the trick
        return 40 + rank
    return -rank


@njit(cache=True)
def order_moves(reps, led, ttmove, out):
    """Write the cards of mask ``reps`` into ``out`` (int64[>= 13]) in search order; returns
    how many (insertion sort on ``order_key``)."""
    n = 0
    x = reps
    while x:
        c = lowest(x)
        x &= x - 1
        key = order_key(c, led, ttmove)
        i = n
        while i > 0 and order_key(out[i - 1], led, ttmove) > key:
            out[i] = out[i - 1]
            i -= 1
        out[i] = c
        n += 1
    return n


# ---- transposition table ------------------------------------------------------------------

@njit(cache=True, inline="always")
def tt_slot(key_a, key_b, shift):
    """First slot of the two-slot bucket of a key (even index)."""
    h = np.uint64(key_a) * _K1 ^ np.uint64(key_b) * _K2
    h ^= h >> _U31
    h *= _K1
    return np.int64(h >> shift) & ~np.int64(1)


@njit(cache=True)
def tt_probe(tt, slot, key_a, key_b, stamp):
    """The data word of the entry for the key in the bucket at ``slot`` (``tt`` rows
    ``[key_a, key_b, data]``), or -1 when none of this ``stamp``."""
    for s in range(slot, slot + 2):
        if tt[s, 0] == key_a and tt[s, 1] == key_b and (tt[s, 2] >> _STAMP_SHIFT) == stamp:
            return tt[s, 2]
    return -1


@njit(cache=True)
def tt_store(tt, slot, key_a, key_b, data, stamp):
    """Write an entry into the bucket at ``slot``: over the same key, else into the first
    slot when it is stale or holds a position with no more cards, else into the second."""
    s = slot + 1
    if tt[slot, 0] == key_a and tt[slot, 1] == key_b:
        s = slot
    elif not (tt[slot + 1, 0] == key_a and tt[slot + 1, 1] == key_b):
        old = tt[slot, 2] >> _STAMP_SHIFT != stamp
        if old or popcount((tt[slot, 0] & _CARDS52) | tt[slot, 1]) <= popcount((key_a & _CARDS52) | key_b):
            s = slot
    tt[s, 0] = key_a
    tt[s, 1] = key_b
    tt[s, 2] = data


# ---- the search ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def after_play(h0, h1, turn, led, card, p0, p1):
    """The position after seat ``turn`` plays ``card``: (h0, h1, turn, led, p0, p1); the
    follower's card ends the trick (rules.end_trick gives the winner and the points)."""
    bit = 1 << card
    n0 = h0 ^ bit if turn == 0 else h0
    n1 = h1 ^ bit if turn == 1 else h1
    if led < 0:
        return n0, n1, 1 - turn, card, p0, p1
    winner, q0, q1, _ = end_trick(1 - turn, led, card, p0, p1, 0)
    return n0, n1, winner, np.int64(-1), q0, q1


@njit(cache=True, inline="always")
def last_trick(h0, h1, turn, led, p0, p1):
    """The value of the last trick's position (each seat one card, or the follower's last
    card to play): every card is forced."""
    if led < 0:
        lead = lowest(h0 if turn == 0 else h1)
        winner, q0, q1, _ = end_trick(turn, lead, lowest(h1 if turn == 0 else h0), p0, p1, 0)
    else:
        winner, q0, q1, _ = end_trick(1 - turn, led, lowest(h0 | h1), p0, p1, 0)
    s0, s1, _ = hand_score(q0, q1)
    return s1 - s0


# the search stack: one row per depth (int64[STACK_ROWS, STACK_WIDTH]), these columns
F_H0, F_H1, F_TURN, F_LED, F_P0, F_P1 = 0, 1, 2, 3, 4, 5   # the position of the row
F_A, F_B = 6, 7            # the window, narrowed as the children come back
F_A0, F_B0 = 8, 9          # the window the children were searched in (for the table)
F_LO, F_HI, F_D = 10, 11, 12   # the bounds known, and d = p1 - p0
F_BEST, F_BESTM, F_K, F_N = 13, 14, 15, 16   # best value and card so far, next child, children
F_KEY, F_SLOT = 17, 18     # the table key (key_a; key_b is h1) and its bucket
F_MOVES = 19               # the children (cards) in search order, 13 columns
STACK_ROWS, STACK_WIDTH = 28, 32


@njit(cache=True)
def enter(st, sp, dead, tt, shift, stamp):
    """Open the node of row ``sp`` of the stack ``st`` (its position and window written):
    (True, value) when static bounds or the table settle it, else (False, 0) with the
    bounds, the key and the ordered children written into the row."""
    h0, h1, turn, led = st[sp, F_H0], st[sp, F_H1], st[sp, F_TURN], st[sp, F_LED]
    p0, p1, alpha, beta = st[sp, F_P0], st[sp, F_P1], st[sp, F_A], st[sp, F_B]
    both = h0 | h1
    live = both if led < 0 else both | (1 << led)
    left = mask_points(live)
    if left == 0:
        s0, s1, _ = hand_score(p0, p1)
        return True, s1 - s0
    if popcount(both) <= 2:
        return True, last_trick(h0, h1, turn, led, p0, p1)
    d = p1 - p0
    lo = d - left if p0 > 0 else -20
    hi = d + left if p1 > 0 else 20
    if lo >= beta:
        return True, lo
    if hi <= alpha:
        return True, hi
    meta = np.int64(p0 > 0) | (np.int64(p1 > 0) << 1) | (turn << 2) | ((led + 1) << 3)
    key_a = h0 | (meta << 52)
    slot = tt_slot(key_a, h1, shift)
    data = tt_probe(tt, slot, key_a, h1, stamp) if led < 0 else -1
    ttmove = -1
    if data >= 0:
        lo = max(lo, (data & 127) - 64 + d)
        hi = min(hi, ((data >> 7) & 127) - 64 + d)
        ttmove = ((data >> 14) & 63) - 1
        if lo >= beta:
            return True, lo
        if hi <= alpha:
            return True, hi
        if lo == hi:
            return True, lo
    a0, b0 = max(alpha, lo), min(beta, hi)
    hand = h0 if turn == 0 else h1
    reps = representatives(legal_cards(h0, h1, dead, turn, led), hand, live)
    st[sp, F_N] = order_moves(reps, led, ttmove, st[sp, F_MOVES:])
    st[sp, F_A], st[sp, F_B], st[sp, F_A0], st[sp, F_B0] = a0, b0, a0, b0
    st[sp, F_LO], st[sp, F_HI], st[sp, F_D] = lo, hi, d
    st[sp, F_BEST] = -INF if turn == 0 else INF
    st[sp, F_BESTM], st[sp, F_K] = -1, 0
    st[sp, F_KEY], st[sp, F_SLOT] = key_a, slot
    return False, 0


@njit(cache=True)
def push_child(st, sp):
    """Write into row ``sp + 1`` the position after the next child card of row ``sp``,
    with row ``sp``'s current window."""
    c0, c1, ct, cl, q0, q1 = after_play(st[sp, F_H0], st[sp, F_H1], st[sp, F_TURN], st[sp, F_LED],
                                        st[sp, F_MOVES + st[sp, F_K]], st[sp, F_P0], st[sp, F_P1])
    r = sp + 1
    st[r, F_H0], st[r, F_H1], st[r, F_TURN], st[r, F_LED], st[r, F_P0], st[r, F_P1] = c0, c1, ct, cl, q0, q1
    st[r, F_A], st[r, F_B] = st[sp, F_A], st[sp, F_B]


@njit(cache=True)
def take_child(st, sp, v):
    """Row ``sp`` receives the value ``v`` of its child ``F_K``: best, window, next child.
    True when the node is done (a cut, or no child left)."""
    m = st[sp, F_MOVES + st[sp, F_K]]
    if st[sp, F_TURN] == 0:
        if v > st[sp, F_BEST]:
            st[sp, F_BEST], st[sp, F_BESTM] = v, m
            st[sp, F_A] = max(st[sp, F_A], v)
    elif v < st[sp, F_BEST]:
        st[sp, F_BEST], st[sp, F_BESTM] = v, m
        st[sp, F_B] = min(st[sp, F_B], v)
    st[sp, F_K] += 1
    return st[sp, F_A] >= st[sp, F_B] or st[sp, F_K] == st[sp, F_N]


@njit(cache=True)
def close(st, sp, tt, stamp):
    """Store row ``sp``'s result in the table (bounds on ``v - d``, fail-soft: an upper
    bound when it failed low, a lower one when it failed high) and return its value."""
    best, lo, hi, d = st[sp, F_BEST], st[sp, F_LO], st[sp, F_HI], st[sp, F_D]
    if best < st[sp, F_B0]:
        hi = min(hi, best)
    if best > st[sp, F_A0]:
        lo = max(lo, best)
    if st[sp, F_LED] >= 0:
        return best
    data = (lo - d + 64) | ((hi - d + 64) << 7) | ((st[sp, F_BESTM] + 1) << 14) | (stamp << _STAMP_SHIFT)
    tt_store(tt, st[sp, F_SLOT], st[sp, F_KEY], st[sp, F_H1], data, stamp)
    return best


@njit(cache=True)
def search(h0, h1, turn, led, p0, p1, alpha, beta, dead, tt, shift, stamp, st):
    """Fail-soft alpha-beta: (value, nodes). The value ``v`` (seat 1's final points minus
    seat 0's) is exact inside ``(alpha, beta)``, else a bound on the failing side.

    An explicit stack (``st``: int64[STACK_ROWS, STACK_WIDTH], its rows written) instead of
    recursion; reads and writes ``tt`` (entries of this ``stamp``).
    """
    st[0, F_H0], st[0, F_H1], st[0, F_TURN], st[0, F_LED], st[0, F_P0], st[0, F_P1] = h0, h1, turn, led, p0, p1
    st[0, F_A], st[0, F_B] = alpha, beta
    sp = np.int64(0)  # not a literal 0: enter and push_child are then compiled once, not twice
    nodes = 0
    while True:
        nodes += 1
        done, v = enter(st, sp, dead, tt, shift, stamp)
        if not done:
            push_child(st, sp)
            sp += 1
            continue
        while True:  # hand the value up until a node has a child left to search
            if sp == 0:
                return v, nodes
            sp -= 1
            if not take_child(st, sp, v):
                break
            v = close(st, sp, tt, stamp)
        push_child(st, sp)
        sp += 1


@njit(cache=True)
def mtdf(h0, h1, turn, led, p0, p1, guess, dead, tt, shift, stamp, st):
    """Exact value (seat 0's frame) by zero-window searches from a first ``guess``
    (MTD(f); the table keeps the bounds of one pass for the next): (value, nodes)."""
    lo, hi, g, nodes = -INF, INF, guess, 0
    while lo < hi:
        beta = g + 1 if g == lo else g
        g, k = search(h0, h1, turn, led, p0, p1, beta - 1, beta, dead, tt, shift, stamp, st)
        nodes += k
        if g < beta:
            hi = g
        else:
            lo = g
    return g, nodes


@njit(cache=True)
def table_shift(tt):
    """``64 - log2(rows of tt)`` as uint64 (the rows must be a power of two, at least 2)."""
    bits = 0
    while (1 << (bits + 1)) <= tt.shape[0]:
        bits += 1
    return np.uint64(64 - bits)


@njit(entry=True, cache=True)
def solve_moves(h0, h1, dead, turn, led, taken0, taken1, tt, stamp, moves, values):
    """Exact value of every legal card of seat ``turn``: (number of legal cards, nodes).

    ``h0, h1``: the hands (card masks); ``dead``: the 2 dead cards (mask); ``led``: the card
    led to the trick in progress (by the other seat), -1 when ``turn`` leads; ``taken0,
    taken1``: the points each seat took in this hand's complete tricks. ``tt``: int64[2**k,
    3] (k >= 1, zeros to start), read and written under ``stamp`` (>= 1; a new one whenever
    the dead cards change: calls on positions of one deal may share a stamp, as long as the
    points taken are those of the cards played). Writes the legal cards, low to high, into
    ``moves[:n]`` (int64[>= 13]) and their values for seat ``turn`` (the opponent's points
    minus its own at the hand's end) into ``values[:n]``. Allocates the search stack
    (``solve_moves_on`` takes one instead).
    """
    st = np.zeros((STACK_ROWS, STACK_WIDTH), dtype=np.int64)
    return solve_moves_on(h0, h1, dead, turn, led, taken0, taken1, tt, stamp, moves, values, st)


@njit(cache=True)
def solve_moves_on(h0, h1, dead, turn, led, taken0, taken1, tt, stamp, moves, values, st):
    """``solve_moves`` on the caller's search stack ``st`` (int64[STACK_ROWS, STACK_WIDTH],
    overwritten): no allocation, for callers that solve many positions (kernel.pimc_move)."""
    nodes = 0
    shift = table_shift(tt)
    hand = h0 if turn == 0 else h1
    live = (h0 | h1) | ((1 << led) if led >= 0 else 0)
    legal = legal_cards(h0, h1, dead, turn, led)
    reps = representatives(legal, hand, live)
    n = 0
    guess = taken1 - taken0
    x = legal
    while x:
        c = lowest(x)
        x &= x - 1
        r = c
        while not (reps >> r) & 1:  # down the run of equivalent cards to the one searched
            r = next_lower_live(r, live)
        if r == c:
            c0, c1, ct, cl, q0, q1 = after_play(h0, h1, turn, led, c, taken0, taken1)
            v, k = mtdf(c0, c1, ct, cl, q0, q1, guess, dead, tt, shift, stamp, st)
            guess = v
            nodes += k
        else:
            v = values[_index_of(moves, n, r)] * (1 - 2 * turn)
        moves[n] = c
        values[n] = v * (1 - 2 * turn)
        n += 1
    return n, nodes


@njit(cache=True)
def _index_of(moves, n, card):
    """Index of ``card`` in ``moves[:n]`` (it is there)."""
    for i in range(n):
        if moves[i] == card:
            return i
    return -1


@njit(entry=True, cache=True)
def position_problem(h0, h1, dead, turn, led):
    """Why a position cannot arise (one of OK, NO_FIRST_LEAD, WRONG_FIRST_CARD,
    ILLEGAL_LEAD, NOTHING_LEGAL): the card led to this trick must have been a legal lead
    from the leader's hand with it, and the seat to move must have a legal card."""
    if led >= 0:
        leader = 1 - turn
        g0 = h0 | (1 << led) if leader == 0 else h0
        g1 = h1 | (1 << led) if leader == 1 else h1
        if not (legal_cards(g0, g1, dead, leader, -1) >> led) & 1:
            return WRONG_FIRST_CARD if popcount(g0 | g1) == 26 else ILLEGAL_LEAD
    if legal_cards(h0, h1, dead, turn, led) == 0:
        return NO_FIRST_LEAD if led < 0 and popcount(h0 | h1) == 26 else NOTHING_LEGAL
    return OK


@njit(entry=True, cache=True)
def taken_points(mask):
    """Points of the cards in ``mask`` (rules.mask_points)."""
    return mask_points(mask)


# ---- Python side ----------------------------------------------------------------------------

_KEYS = ("hands", "turn", "trick", "taken", "dead", "hand", "scores")


def new_table(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """A transposition table for ``solve_moves``: int64[2**bits, 3] of zeros."""
    return np.zeros((1 << bits, 3), dtype=np.int64)


def _card_list(value: Any, what: str) -> list[int]:
    """Card codes of a list of tokens or a space/comma separated string (the hearts2 deck)."""
    from analyzer.cards import CardError, hearts2_deck

    if isinstance(value, str):
        items = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        raise AnalyzerError(f"{what}: a list of cards, not {value!r}")
    try:
        return hearts2_deck().parse(items, what)
    except CardError as exc:
        raise AnalyzerError(str(exc)) from None


def _pair(position: dict, key: str, default) -> list[list[int]]:
    """The two card lists of ``position[key]`` (one per seat)."""
    value = position.get(key, default)
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise AnalyzerError(f"{key}: two lists of cards, one per seat (seat 0 first)")
    return [_card_list(v, f"{key} of seat {s}") for s, v in enumerate(value)]


def _mask(cards: list[int]) -> int:
    """The mask of card codes."""
    return sum(1 << c for c in cards)


def parse_position(position: dict) -> dict:
    """Check a full-information position (module docstring) and return it as masks:
    ``h0 h1 dead turn led taken0 taken1`` (taken: points). Raises AnalyzerError."""
    from analyzer.cards import CardError, hearts2_deck, token

    if not isinstance(position, dict):
        raise AnalyzerError("a hearts2 solver position is a JSON object (keys: " + ", ".join(_KEYS) + ")")
    unknown = sorted(set(position) - set(_KEYS))
    if unknown:
        raise AnalyzerError(f"hearts2 solver positions have no {unknown[0]!r} (keys: {', '.join(_KEYS)})")
    if "hands" not in position or "turn" not in position:
        raise AnalyzerError("give hands (both seats' cards) and turn (the seat to move)")
    hands = _pair(position, "hands", None)
    taken = _pair(position, "taken", [[], []])
    trick = _card_list(position.get("trick", []), "trick")
    turn = position["turn"]
    if isinstance(turn, bool) or not isinstance(turn, int) or turn not in (0, 1):
        raise AnalyzerError(f"turn: the seat to move, 0 or 1, not {turn!r}")
    deck = hearts2_deck()
    seen = hands[0] + hands[1] + trick + taken[0] + taken[1]
    given = "dead" in position
    dead = _card_list(position["dead"], "dead") if given else []
    try:
        deck.check(seen + dead, "the hands, the trick, the cards taken and the dead cards together")
    except CardError as exc:
        raise AnalyzerError(str(exc)) from None
    rest = [c for c in deck.codes if c not in set(seen + dead)]
    if given and rest:
        raise AnalyzerError(f"every card of the deck is in a hand, the trick, taken or dead: "
                            f"{' '.join(token(c) for c in rest)} in none")
    if not given:
        dead = rest
    if len(dead) != 2:
        raise AnalyzerError(f"a hand has 2 dead cards, not {len(dead)}" + ("" if given else " (the cards in no list)"))
    if len(trick) > 1:
        raise AnalyzerError("trick: the card led to the trick in progress (one card), or [] at a lead")
    for s in (0, 1):
        if len(taken[s]) % 2:
            raise AnalyzerError(f"taken of seat {s}: whole tricks of 2 cards, not {len(taken[s])} cards")
    done = (len(taken[0]) + len(taken[1])) // 2
    size = 13 - done
    want = [size, size] if not trick else ([size, size - 1] if turn == 0 else [size - 1, size])
    if [len(h) for h in hands] != want:
        raise AnalyzerError(f"after {done} complete trick(s)" + (" and a lead" if trick else "")
                            + f" the hands hold {want[0]} and {want[1]} cards, not {len(hands[0])} and "
                            f"{len(hands[1])}")
    if size == 0:
        raise AnalyzerError("the hand is over: no decision is left")
    out = {"h0": _mask(hands[0]), "h1": _mask(hands[1]), "dead": _mask(dead), "turn": turn,
           "led": trick[0] if trick else -1,
           "taken0": int(taken_points(np.int64(_mask(taken[0])))),
           "taken1": int(taken_points(np.int64(_mask(taken[1]))))}
    _check_play(out, hands, trick)
    return out


def _check_play(pos: dict, hands: list[list[int]], trick: list[int]) -> None:
    """Refuse a position the compiled rules say cannot arise (``position_problem``)."""
    from analyzer.cards import token

    code = position_problem(np.int64(pos["h0"]), np.int64(pos["h1"]), np.int64(pos["dead"]),
                            np.int64(pos["turn"]), np.int64(pos["led"]))
    turn = pos["turn"]
    if code == NO_FIRST_LEAD:
        raise AnalyzerError(f"seat {turn} leads the first trick but does not hold its first lead "
                            f"(dead: {' '.join(token(c) for c in _cards(pos['dead']))})")
    if code == WRONG_FIRST_CARD:
        raise AnalyzerError(f"{token(trick[0])} cannot lead the first trick "
                            f"(dead: {' '.join(token(c) for c in _cards(pos['dead']))})")
    if code == ILLEGAL_LEAD:
        raise AnalyzerError(f"seat {1 - turn} could not lead {token(trick[0])} holding "
                            f"{' '.join(token(c) for c in sorted(hands[1 - turn] + trick))} (hearts not broken)")
    if code != OK:
        raise AnalyzerError(f"seat {turn} has no legal card")


def _cards(mask: int) -> list[int]:
    """The card codes of a mask, low to high."""
    return [c for c in range(52) if mask >> c & 1]


_TABLE: dict[str, Any] = {}


def _shared_table() -> tuple[np.ndarray, int]:
    """This process's table for ``solve_position`` (made on first use) and a new stamp."""
    if "tt" not in _TABLE:
        _TABLE["tt"], _TABLE["stamp"] = new_table(), 0
    _TABLE["stamp"] += 1
    return _TABLE["tt"], _TABLE["stamp"]


def solve_position(position: dict, rules: dict | None = None) -> dict:
    """Solve a full-information position (module docstring): the exact value of every legal
    card for the seat to move. ``rules`` (the game's rule options) does not change the
    value of a hand. One table of 2**20 rows serves every call (a new stamp each)."""
    from analyzer.cards import token

    if rules is not None and not isinstance(rules, dict):
        raise AnalyzerError("rules: an object of rule options")
    pos = parse_position(position)
    table, stamp = _shared_table()
    moves = np.zeros(13, dtype=np.int64)
    values = np.zeros(13, dtype=np.int64)
    start = time.perf_counter()
    n, nodes = solve_moves(np.int64(pos["h0"]), np.int64(pos["h1"]), np.int64(pos["dead"]), np.int64(pos["turn"]),
                           np.int64(pos["led"]), np.int64(pos["taken0"]), np.int64(pos["taken1"]), table,
                           np.int64(stamp), moves, values)
    elapsed = time.perf_counter() - start
    options = [{"option": token(int(moves[i])), "value": int(values[i])} for i in range(n)]
    top = max(o["value"] for o in options)
    return {"options": options, "best": [o["option"] for o in options if o["value"] == top],
            "nodes": int(nodes), "elapsed_s": round(elapsed, 6)}


def position_at(events: list[dict], at: int) -> dict:
    """The full-information position at decision ``at`` (1-based, counted over the whole
    game as ``evaluate --at`` counts them) of one recorded game (its events, docs/record.md):
    the deal's hands less the cards played, the trick in progress, the cards of each
    complete trick given to its recorded winner, the dead cards; ``turn`` is the deciding
    seat."""
    if not isinstance(events, list) or not events or not isinstance(events[0], dict):
        raise AnalyzerError("a record of one game: a list of events starting with its game event")
    if events[0].get("ev") == "game" and events[0].get("game") not in (None, "hearts2"):
        raise AnalyzerError(f"this is a record of {events[0].get('game')}, not hearts2")
    stop = decision_index(events, at)
    try:
        return _replay(events, stop)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise AnalyzerError(f"malformed hearts2 record before decision {at}: {exc!r}") from None


def _replay(events: list[dict], stop: int) -> dict:
    """Card bookkeeping over ``events[:stop]`` (the hand of the decision at ``stop``)."""
    hands: list[list[str]] = [[], []]
    taken: list[list[str]] = [[], []]
    trick: list[str] = []
    dead: list[str] = []
    hand_no, scores = 0, [0, 0]
    for ev in events[:stop]:
        kind = ev.get("ev")
        if kind == "deal":
            hands = [list(ev["hands"][0]), list(ev["hands"][1])]
            taken, trick, dead, hand_no = [[], []], [], list(ev["dead"]), ev["hand"]
        elif kind == "decide":
            hands[ev["seat"]].remove(ev["move"])
            trick.append(ev["move"])
        elif kind == "trick":
            taken[ev["winner"]] += list(ev["cards"])
            trick = []
        elif kind == "hand_end":
            scores = list(ev["scores"])
    return {"hand": hand_no, "scores": scores, "turn": events[stop]["seat"], "hands": hands,
            "trick": trick, "taken": taken, "dead": dead}
