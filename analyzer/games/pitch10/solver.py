"""10-Point Pitch, the play phase: an exact perfect-information solver (compiled), and its
Python entry (issue #19).

Every hand is known (the play phase starts after the discards down to six). The value of a
position is, for the seat to move, **the points of this round its team takes** (0..10),
points of complete tricks already taken included, with all four players playing optimally
(docs/rules.md, section 5). In this implementation every point goes to the team that takes
the card in a trick, the 2 ("low") included: A, J, off-jack, HJ, LJ, T and 2 of trump one
each, the 3 of trump three; there is no "game" point. Cards out of play (discarded) are
taken by nobody, so the two teams' points add up to 10 less the points discarded. The bid
does not change what a team takes, so the value ignores it (and the rule options).

The search (compiled, arrays and scalars only)
----------------------------------------------
Plain minimax with alpha-beta in team 0's frame (``v`` = team 0's points at the round's end;
seats 0 and 2 maximise, 1 and 3 minimise), fail-soft, on an explicit stack (numba does not
cache recursive call graphs reliably). The game is constant-sum: team 1's value is what is
left. Each root card is valued exactly by MTD(f): zero-window searches from a first guess
(the previous card's value), the table carrying the bounds from pass to pass.

- hands are 16-bit strength masks (rules.py: bit ``k`` = the trump of strength ``k``, 0 the
  2 .. 15 the ace), so the trump suit plays no part in the search; the points are
  ``rules.POINTS16``, the next leader ``rules.first_with_trumps``; a trick is won by its
  highest strength and played clockwise from its leader by the seats still holding a trump
  (as the kernel plays it);
- static bounds: with ``R`` points left (in the hands and in the trick in progress) and
  ``T0`` taken by team 0, ``v`` lies in ``[T0, T0 + R]``; ``R == 0`` ends the search, and so
  does a trick start where one team holds every card left (it takes all);
- a transposition table ``tt`` (int64[2**k, 3], rows ``[key_a, key_b, data]``, two-slot
  buckets: a depth-preferred slot and an always-replace one) for the positions at the
  start of a trick, keyed by ``key_a`` = the four hands packed (``h0 | h1 << 16 | h2 << 32
  | h3 << 48``) and ``key_b`` = the leader + 1. The future of such a position depends on
  nothing else (not on the trump suit, the cards gone or the points taken), so an entry
  stores bounds on ``v - T0`` and the best move, and **stays valid for every later call**:
  one table serves any number of positions and deals without clearing. ``data`` packs
  ``lo | hi << 4 | (move + 1) << 8``. (Storing the positions inside a trick too was
  measured: 8% fewer nodes, twice the time.)
- merging of equivalent cards: a card whose next lower live card (live: in a hand or in the
  trick in progress) is in the same hand with the same points plays exactly as that card
  (no suit to follow, every card between them is out); only the lowest card of each run is
  searched, and the root gives its value to the whole run;
- move ordering: the table's move first, then a cheap game sense: onto a trick the
  partner wins for sure, the point cards (the 3 first); else the lowest card that wins for
  sure, then the low non-point cards, then the rest; a leader leads its sure winners, then
  low non-point cards (1.8x fewer nodes than plain low-to-high).

``solve_moves`` is the compiled entry (usable from kernels): the value of every card of the
seat to move (every trump it holds is legal), and the node count; it allocates its search
stack (int64[STACK_ROWS, STACK_WIDTH]) once per call and nothing else. ``solve_moves_on``
is the same on a stack the caller owns (the ``pimc`` strategy: nothing allocated per
decision).

The position format (``solve_position``)
----------------------------------------
A JSON object; cards are tokens (``AH``, ``JD``, ``HJ``, ``LJ``; a list, or a space/comma
separated string):

``trump``  the trump suit, ``C``, ``D``, ``H`` or ``S`` (required)
``hands``  [[seat 0's trumps], ..., [seat 3's]]: what each seat holds now, trumps only
           (required; [] for a seat that is out; at most 6 trumps a seat)
``turn``   the seat to move, 0..3 (required); the value is its team's (team = seat % 2)
``trick``  the trick in progress in play order: ``"seat:card"`` strings (as ``evaluate``
           positions write them: ``["3:KS", "0:2S"]`` or ``"3:KS 0:2S"``) or ``[seat,
           card]`` pairs (as record ``trick`` events); default [] (``turn`` leads). Its
           first seat is the leader; the seats must follow the order of play (clockwise,
           skipping the seats that held no trump), ``turn`` being next
``taken``  [team 0, team 1]: what each team took in this round's complete tricks, as the
           list of the cards it took, or as its points (default [0, 0])
``hand``, ``dealer``, ``pitcher``, ``bid``, ``scores``: optional, informational; the
           solver ignores them

Example: seat 0 leads, seat 2 is out, team 0 took KS and TS, team 1 took 3 points::

    {"trump": "S", "hands": [["AS", "2S"], ["JS", "5S"], [], ["3S", "QS"]], "turn": 0,
     "taken": [["KS", "TS"], 3]}

``solve_position`` returns ``{"options": [{"option": "2S", "value": 5}, ...], "best":
["AS"], "nodes": n, "elapsed_s": t}``: every card of the seat to move (low to high in trump
order) with its exact value for the seat's team, the best ones, the nodes searched.
``position_at(events, at)`` builds such a position from a record (docs/record.md).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from analyzer.jit import njit  # first: it sets numba's cache folder before numba loads

from analyzer.bits import highest, popcount  # noqa: E402,I001
from analyzer.errors import AnalyzerError  # noqa: E402,I001
from analyzer.games.base import decision_index  # noqa: E402,I001
from analyzer.games.pitch10.rules import (  # noqa: E402
    CARD_AT,
    KEEP,
    POINTS16,
    STRENGTH,
    first_with_trumps,
    low_bit,
)

#: what a move's value counts (analyzer solve prints it)
VALUE = ("value: the points of this round the deciding seat's team takes (0..10, points already taken "
         "included), all four players playing perfectly with every card known")

#: values lie in 0..10; INF is beyond
INF = 11
#: the default table: 2**20 entries of 3 int64 (24 MiB)
DEFAULT_TT_BITS = 20
#: errors of ``replay_trick``
OK, NOT_TURN, TRICK_DONE, NO_TRUMP, OVER = 0, 1, 2, 3, 4

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_U31 = np.uint64(31)
#: points of a strength mask, 8 bits at a time (from rules.POINTS16)
_PT_LO = np.array([sum(int(POINTS16[k]) for k in range(8) if m >> k & 1) for m in range(256)], dtype=np.int64)
_PT_HI = np.array([sum(int(POINTS16[k + 8]) for k in range(8) if m >> k & 1) for m in range(256)], dtype=np.int64)


# ---- small helpers -------------------------------------------------------------------------

@njit(cache=True, inline="always")
def mask_points(m):
    """Points of the trumps of a 16-bit strength mask (rules.POINTS16)."""
    return _PT_LO[m & 255] + _PT_HI[(m >> 8) & 255]


@njit(cache=True, inline="always")
def next_lower_live(k, live):
    """The next lower strength than ``k`` in mask ``live``, or -1."""
    return highest(live & ((1 << k) - 1))


@njit(cache=True, inline="always")
def representatives(hand, live):
    """The cards of ``hand`` not equivalent to a lower card of it (mask): a card whose next
    lower live card (``live``: the hands and the trick) is in ``hand`` with the same points
    plays exactly as it."""
    reps = 0
    x = hand
    while x:
        k = low_bit(x)
        x &= x - 1
        n = next_lower_live(k, live)
        if n < 0 or not (hand >> n) & 1 or POINTS16[n] != POINTS16[k]:
            reps |= 1 << k
    return reps


@njit(cache=True, inline="always")
def next_seat(st, r, seat, leader):
    """The seat after ``seat`` to play in the trick led by ``leader`` (row ``r`` of ``st``
    holds the hands): the next one clockwise holding a trump, or ``leader`` when the
    trick is complete. Seats yet to play hold what they held when it started."""
    s = (seat + 1) & 3
    while s != leader and st[r, F_H0 + s] == 0:
        s = (s + 1) & 3
    return s


# ---- move ordering ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def order_key(k, lead, safe, beat, ttmove):
    """Search order of strength ``k`` (lower first). ``lead``: the seat leads; ``safe``: its
    partner wins the trick whatever comes; ``beat``: the strength to beat to win for sure
    (the trick's best and the opponents' still to play; at a lead the opponents' best)."""
    if k == ttmove:
        return -100
    p = POINTS16[k]
    if safe:
        return -20 * p + k
    if k > beat:
        return -40 + k if not lead else -40 - k
    return k if p == 0 else 40 + k


@njit(cache=True)
def order_moves(st, sp, reps, ttmove):
    """Write the strengths of mask ``reps`` into ``st[sp, F_MOVES:]`` in search order for the
    seat to move of row ``sp``; returns how many (insertion sort on ``order_key``)."""
    mover, leader, wink, wins = st[sp, F_MOVER], st[sp, F_LEAD], st[sp, F_WINK], st[sp, F_WINS]
    lead = wink < 0
    opp = 0
    if lead:
        opp = st[sp, F_H0 + ((mover + 1) & 3)] | st[sp, F_H0 + ((mover + 3) & 3)]
    else:
        s = (mover + 1) & 3
        while s != leader:  # the seats still to play (those out hold nothing)
            if (s & 1) != (mover & 1):
                opp |= st[sp, F_H0 + s]
            s = (s + 1) & 3
    top_opp = highest(opp)
    safe = (not lead) and (wins & 1) == (mover & 1) and wink > top_opp
    beat = max(wink, top_opp)
    n = 0
    x = reps
    while x:
        k = low_bit(x)
        x &= x - 1
        key = order_key(k, lead, safe, beat, ttmove)
        i = n
        while i > 0 and order_key(st[sp, F_MOVES + i - 1], lead, safe, beat, ttmove) > key:
            st[sp, F_MOVES + i] = st[sp, F_MOVES + i - 1]
            i -= 1
        st[sp, F_MOVES + i] = k
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
def tt_probe(tt, slot, key_a, key_b):
    """The data word of the entry for the key in the bucket at ``slot`` (``tt`` rows
    ``[key_a, key_b, data]``), or -1 when there is none."""
    for s in range(slot, slot + 2):
        if tt[s, 0] == key_a and tt[s, 1] == key_b:
            return tt[s, 2]
    return -1


@njit(cache=True, inline="always")
def key_cards(key_a):
    """Cards in the four hands packed in ``key_a`` (bit 63, the sign bit, is the ace of seat
    3: popcount counts it too)."""
    return popcount(key_a)


@njit(cache=True)
def tt_store(tt, slot, key_a, key_b, data):
    """Write an entry into the bucket at ``slot``: over the same key, else into the first
    slot when it is empty or holds no more cards, else into the second."""
    s = slot + 1
    if tt[slot, 0] == key_a and tt[slot, 1] == key_b:
        s = slot
    elif not (tt[slot + 1, 0] == key_a and tt[slot + 1, 1] == key_b):
        if tt[slot, 1] == 0 or key_cards(tt[slot, 0]) <= key_cards(key_a):
            s = slot
    tt[s, 0] = key_a
    tt[s, 1] = key_b
    tt[s, 2] = data


@njit(cache=True)
def table_shift(tt):
    """``64 - log2(rows of tt)`` as uint64 (the rows must be a power of two, at least 2)."""
    bits = 0
    while (1 << (bits + 1)) <= tt.shape[0]:
        bits += 1
    return np.uint64(64 - bits)


# ---- the search ---------------------------------------------------------------------------

# the search stack: one row per depth (int64[STACK_ROWS, STACK_WIDTH]), these columns
F_H0 = 0                   # F_H0 + s: seat s's hand (strength mask), 4 columns
F_LEAD, F_MOVER = 4, 5     # the trick's leader, the seat to move
F_WINK, F_WINS, F_TPTS = 6, 7, 8   # the trick's best strength and its seat (-1), its points
F_T0 = 9                   # points team 0 took in complete tricks
F_A, F_B = 10, 11          # the window, narrowed as the children come back
F_A0, F_B0 = 12, 13        # the window the children were searched in (for the table)
F_LO, F_HI = 14, 15        # the bounds known
F_BEST, F_BESTM, F_K, F_N = 16, 17, 18, 19   # best value and card so far, next child, children
F_KEY, F_SLOT = 20, 21     # the table key (key_a; key_b is the leader + 1) and its bucket
F_MOVES = 24               # the children (strengths) in search order, 16 columns
STACK_ROWS, STACK_WIDTH = 20, 40


@njit(cache=True)
def enter(st, sp, tt, shift):
    """Open the node of row ``sp`` of the stack ``st`` (its position and window written):
    (True, value) when static bounds or the table settle it, else (False, 0) with the
    bounds, the key and the ordered children written into the row."""
    h0, h1, h2, h3 = st[sp, F_H0], st[sp, F_H0 + 1], st[sp, F_H0 + 2], st[sp, F_H0 + 3]
    t0, wink, alpha, beta = st[sp, F_T0], st[sp, F_WINK], st[sp, F_A], st[sp, F_B]
    cards = h0 | h1 | h2 | h3
    rem = mask_points(cards) + st[sp, F_TPTS]
    if rem == 0:
        return True, t0
    if wink < 0:
        if (h0 | h2) == 0:
            return True, t0
        if (h1 | h3) == 0:
            return True, t0 + rem
    lo, hi = t0, t0 + rem
    if lo >= beta:
        return True, lo
    if hi <= alpha:
        return True, hi
    ttmove = -1
    key_a = h0 | (h1 << 16) | (h2 << 32) | (h3 << 48)
    slot = -1
    if wink < 0:
        slot = tt_slot(key_a, st[sp, F_LEAD] + 1, shift)
        data = tt_probe(tt, slot, key_a, st[sp, F_LEAD] + 1)
        if data >= 0:
            lo = max(lo, (data & 15) + t0)
            hi = min(hi, ((data >> 4) & 15) + t0)
            ttmove = ((data >> 8) & 31) - 1
            if lo >= beta or lo == hi:
                return True, lo
            if hi <= alpha:
                return True, hi
    a0, b0 = max(alpha, lo), min(beta, hi)
    live = cards if wink < 0 else cards | (1 << wink)
    reps = representatives(st[sp, F_H0 + st[sp, F_MOVER]], live)
    st[sp, F_N] = order_moves(st, sp, reps, ttmove)
    st[sp, F_A], st[sp, F_B], st[sp, F_A0], st[sp, F_B0] = a0, b0, a0, b0
    st[sp, F_LO], st[sp, F_HI] = lo, hi
    st[sp, F_BEST] = -INF if (st[sp, F_MOVER] & 1) == 0 else INF
    st[sp, F_BESTM], st[sp, F_K] = -1, 0
    st[sp, F_KEY], st[sp, F_SLOT] = key_a, slot
    return False, 0


@njit(cache=True)
def push_child(st, sp):
    """Write into row ``sp + 1`` the position after the seat to move of row ``sp`` plays
    its next child card, with row ``sp``'s current window: the trick goes on with the next
    seat holding a trump, or ends (its winner's team takes its points, the winner or the
    next seat with a trump leads; nobody with a trump: the round is over)."""
    r = sp + 1
    mover, leader = st[sp, F_MOVER], st[sp, F_LEAD]
    k = st[sp, F_MOVES + st[sp, F_K]]
    for s in range(4):
        st[r, F_H0 + s] = st[sp, F_H0 + s]
    st[r, F_H0 + mover] ^= 1 << k
    tpts = st[sp, F_TPTS] + POINTS16[k]
    wink, wins = st[sp, F_WINK], st[sp, F_WINS]
    if k > wink:
        wink, wins = k, mover
    t0 = st[sp, F_T0]
    nxt = next_seat(st, r, mover, leader)
    if nxt == leader:  # the trick is complete
        if (wins & 1) == 0:
            t0 += tpts
        nxt = first_with_trumps(wins, st[r, F_H0:F_H0 + 4])
        leader = nxt if nxt >= 0 else 0
        nxt = leader
        wink, wins, tpts = -1, -1, 0
    st[r, F_LEAD], st[r, F_MOVER], st[r, F_WINK], st[r, F_WINS], st[r, F_TPTS] = leader, nxt, wink, wins, tpts
    st[r, F_T0] = t0
    st[r, F_A], st[r, F_B] = st[sp, F_A], st[sp, F_B]


@njit(cache=True)
def take_child(st, sp, v):
    """Row ``sp`` receives the value ``v`` of its child ``F_K``: best, window, next child.
    True when the node is done (a cut, or no child left)."""
    m = st[sp, F_MOVES + st[sp, F_K]]
    if (st[sp, F_MOVER] & 1) == 0:
        if v > st[sp, F_BEST]:
            st[sp, F_BEST], st[sp, F_BESTM] = v, m
            st[sp, F_A] = max(st[sp, F_A], v)
    elif v < st[sp, F_BEST]:
        st[sp, F_BEST], st[sp, F_BESTM] = v, m
        st[sp, F_B] = min(st[sp, F_B], v)
    st[sp, F_K] += 1
    return st[sp, F_A] >= st[sp, F_B] or st[sp, F_K] == st[sp, F_N]


@njit(cache=True)
def close(st, sp, tt):
    """Store row ``sp``'s result in the table when it starts a trick (bounds on ``v - T0``,
    fail-soft: an upper bound when it failed low, a lower one when it failed high) and
    return its value."""
    best, lo, hi = st[sp, F_BEST], st[sp, F_LO], st[sp, F_HI]
    if best < st[sp, F_B0]:
        hi = min(hi, best)
    if best > st[sp, F_A0]:
        lo = max(lo, best)
    if st[sp, F_SLOT] < 0:
        return best
    t0 = st[sp, F_T0]
    data = (lo - t0) | ((hi - t0) << 4) | ((st[sp, F_BESTM] + 1) << 8)
    tt_store(tt, st[sp, F_SLOT], st[sp, F_KEY], st[sp, F_LEAD] + 1, data)
    return best


@njit(cache=True)
def search(st, base, alpha, beta, tt, shift):
    """Fail-soft alpha-beta from the position in row ``base`` of ``st`` (int64[STACK_ROWS,
    STACK_WIDTH]; the rows from ``base`` on are written): (value, nodes). The value ``v``
    (team 0's points at the round's end) is exact inside ``(alpha, beta)``, else a bound on
    the failing side. Reads and writes ``tt``."""
    st[base, F_A], st[base, F_B] = alpha, beta
    sp = base
    nodes = 0
    while True:
        nodes += 1
        done, v = enter(st, sp, tt, shift)
        if not done:
            push_child(st, sp)
            sp += 1
            continue
        while True:  # hand the value up until a node has a child left to search
            if sp == base:
                return v, nodes
            sp -= 1
            if not take_child(st, sp, v):
                break
            v = close(st, sp, tt)
        push_child(st, sp)
        sp += 1


@njit(cache=True)
def mtdf(st, base, guess, tt, shift):
    """Exact value (team 0's frame) of the position in row ``base`` by zero-window searches
    from a first ``guess`` (MTD(f); the table keeps the bounds of one pass for the next):
    (value, nodes)."""
    lo, hi, g, nodes = -INF, INF, guess, 0
    while lo < hi:
        beta = g + 1 if g == lo else g
        g, k = search(st, base, beta - 1, beta, tt, shift)
        nodes += k
        if g < beta:
            hi = g
        else:
            lo = g
    return g, nodes


@njit(entry=True, cache=True)
def solve_moves(h16, leader, turn, win_k, win_seat, trick_points, taken0, taken1, tt, moves, values):
    """Exact value of every card of seat ``turn``: (number of cards, nodes); as
    ``solve_moves_on`` with a search stack of its own (allocated here)."""
    st = np.zeros((STACK_ROWS, STACK_WIDTH), dtype=np.int64)
    return solve_moves_on(h16, leader, turn, win_k, win_seat, trick_points, taken0, taken1, tt, moves, values, st)


@njit(cache=True)
def solve_moves_on(h16, leader, turn, win_k, win_seat, trick_points, taken0, taken1, tt, moves, values, st):
    """Exact value of every card of seat ``turn``: (number of cards, nodes).

    ``h16``: int64[4], each seat's hand now as a strength mask (rules.py); ``leader``: the
    seat that led the trick in progress (``turn`` at a lead); ``win_k, win_seat``: the best
    strength played to it and its seat (-1, -1 at a lead); ``trick_points``: the points of
    its cards; ``taken0, taken1``: the points each team took in this round's complete
    tricks. ``tt``: int64[2**k, 3] (k >= 1, zeros to start), read and written; its entries
    stay valid for any later call. Writes the strengths of the cards of ``turn``, low to
    high, into ``moves[:n]`` (int64[>= 16]) and their values for ``turn``'s team (its points
    at the round's end) into ``values[:n]``. ``st``: the search stack (int64[STACK_ROWS,
    STACK_WIDTH], any contents), written; nothing is allocated (``pimc`` calls it per world).
    """
    shift = table_shift(tt)
    for s in range(4):
        st[0, F_H0 + s] = h16[s]
    st[0, F_LEAD], st[0, F_MOVER], st[0, F_WINK], st[0, F_WINS] = leader, turn, win_k, win_seat
    st[0, F_TPTS], st[0, F_T0] = trick_points, taken0
    hand = h16[turn]
    cards = h16[0] | h16[1] | h16[2] | h16[3]
    rem = mask_points(cards) + trick_points
    live = cards if win_k < 0 else cards | (1 << win_k)
    reps = representatives(hand, live)
    n, nodes = 0, 1
    guess = taken0 + rem // 2
    x = hand
    while x:
        k = low_bit(x)
        x &= x - 1
        r = k
        while not (reps >> r) & 1:  # down the run of equivalent cards to the one searched
            r = next_lower_live(r, live)
        if r == k:
            st[0, F_MOVES], st[0, F_K] = k, 0
            push_child(st, 0)
            v, got = mtdf(st, 1, guess, tt, shift)
            guess = v
            nodes += got
            mine = v if (turn & 1) == 0 else taken1 + taken0 + rem - v
        else:
            mine = values[_index_of(moves, n, r)]
        moves[n] = k
        values[n] = mine
        n += 1
    return n, nodes


@njit(cache=True)
def _index_of(moves, n, k):
    """Index of ``k`` in ``moves[:n]`` (it is there)."""
    for i in range(n):
        if moves[i] == k:
            return i
    return -1


@njit(entry=True, cache=True)
def replay_trick(h16, leader, seats, ks, n, turn, out):
    """Play the trick in progress from its start: ``h16`` (int64[4]) the hands when it
    started, ``leader`` its first seat, ``seats[:n]``, ``ks[:n]`` its plays (seat,
    strength) in order; ``turn`` the seat said to move next. Writes the trick's best
    strength, its seat and its points into ``out[0:3]`` (int64[>= 3]); returns
    ``(code, arg)``: OK, NOT_TURN (arg: the index of the play out of turn, ``n`` for
    ``turn``), TRICK_DONE (the plays complete the trick), NO_TRUMP (``turn`` holds no
    trump), OVER (nobody holds a trump)."""
    st = np.zeros((1, STACK_WIDTH), dtype=np.int64)
    for s in range(4):
        st[0, F_H0 + s] = h16[s]
    if (h16[0] | h16[1] | h16[2] | h16[3]) == 0:
        return OVER, 0
    wink, wins, tpts = -1, -1, 0
    seat = leader
    for i in range(n):
        if seats[i] != seat:
            return NOT_TURN, i
        k = ks[i]
        st[0, F_H0 + seat] ^= 1 << k
        tpts += POINTS16[k]
        if k > wink:
            wink, wins = k, seat
        seat = next_seat(st, 0, seat, leader)
        if seat == leader:
            return TRICK_DONE, i
    out[0], out[1], out[2] = wink, wins, tpts
    if st[0, F_H0 + turn] == 0:
        return NO_TRUMP, 0
    if seat != turn:
        return NOT_TURN, n
    return OK, 0


@njit(entry=True, cache=True)
def points_of(h16):
    """Points of the cards of strength mask ``h16`` (rules.POINTS16)."""
    return mask_points(h16)


# ---- Python side ----------------------------------------------------------------------------

_KEYS = ("trump", "hands", "turn", "trick", "taken", "hand", "dealer", "pitcher", "bid", "scores")
_SUITS = "CDHS"


def new_table(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """A transposition table for ``solve_moves``: int64[2**bits, 3] of zeros."""
    return np.zeros((1 << bits, 3), dtype=np.int64)


def _cards(value: Any, what: str, trump: int) -> list[int]:
    """Strengths of a list of trump tokens or a space/comma separated string."""
    from analyzer.cards import CardError, pitch_deck, token

    if isinstance(value, str):
        items = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        raise AnalyzerError(f"{what}: a list of cards, not {value!r}")
    try:
        codes = pitch_deck().parse(items, what)
    except CardError as exc:
        raise AnalyzerError(str(exc)) from None
    for c in codes:
        if STRENGTH[trump, c] < 0:
            raise AnalyzerError(f"{token(c)} is not a trump with {_SUITS[trump]} trump ({what}): "
                                "only trumps are played")
    return [int(STRENGTH[trump, c]) for c in codes]


def _plays(value: Any, trump: int) -> list[tuple[int, int]]:
    """The trick in progress as (seat, strength) pairs, from ``"seat:card"`` strings or
    ``[seat, card]`` pairs."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)):
        raise AnalyzerError(f"trick: a list of plays (\"seat:card\" or [seat, card]), not {value!r}")
    plays = []
    for item in value:
        if isinstance(item, str) and item.count(":") == 1:
            seat_text, card = item.split(":")
            seat: Any = int(seat_text) if seat_text.strip().isdigit() else seat_text
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            seat, card = item
        else:
            raise AnalyzerError(f"trick: each play is \"seat:card\" or [seat, card], not {item!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise AnalyzerError(f"trick: a seat is 0..3, not {seat!r}")
        plays.append((seat, _cards([card], "trick", trump)[0]))
    return plays


def _taken(value: Any, trump: int) -> tuple[list[int], list[int]]:
    """(points per team, strengths of the cards listed) of ``taken``."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise AnalyzerError("taken: [team 0, team 1], each the cards it took or its points")
    points, cards = [], []
    for team, v in enumerate(value):
        if isinstance(v, int) and not isinstance(v, bool):
            if not 0 <= v <= 10:
                raise AnalyzerError(f"taken of team {team}: points 0..10, not {v}")
            points.append(v)
        else:
            ks = _cards(v, f"taken of team {team}", trump)
            cards += ks
            points.append(int(points_of(np.int64(sum(1 << k for k in ks)))))
    return points, cards


def parse_position(position: dict) -> dict:
    """Check a full-information position (module docstring) and return it as the arguments
    of ``solve_moves``: ``h16 leader turn win_k win_seat trick_points taken0 taken1``, and
    ``trump``. Raises AnalyzerError."""
    from analyzer.cards import token

    if not isinstance(position, dict):
        raise AnalyzerError("a pitch10 solver position is a JSON object (keys: " + ", ".join(_KEYS) + ")")
    unknown = sorted(set(position) - set(_KEYS))
    if unknown:
        raise AnalyzerError(f"pitch10 solver positions have no {unknown[0]!r} (keys: {', '.join(_KEYS)})")
    for key in ("trump", "hands", "turn"):
        if key not in position:
            raise AnalyzerError("give trump (the suit), hands (each seat's trumps) and turn (the seat to move)")
    suit = position["trump"]
    if not isinstance(suit, str) or suit.upper() not in list(_SUITS):
        raise AnalyzerError(f"trump: one of C, D, H, S, not {suit!r}")
    trump = _SUITS.index(suit.upper())
    hands = position["hands"]
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise AnalyzerError("hands: four lists of trumps, one per seat (seat 0 first; [] for a seat that is out)")
    hands = [_cards(h, f"hand of seat {s}", trump) for s, h in enumerate(hands)]
    turn = position["turn"]
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= 3:
        raise AnalyzerError(f"turn: the seat to move, 0..3, not {turn!r}")
    plays = _plays(position.get("trick", []), trump)
    points, taken_cards = _taken(position.get("taken", [0, 0]), trump)
    every = [k for h in hands for k in h] + [k for _, k in plays] + taken_cards
    seen: set[int] = set()
    for k in every:
        if k in seen:
            raise AnalyzerError(f"duplicate card {token(int(CARD_AT[trump, k]))} (hands, trick and taken together)")
        seen.add(k)
    for s in range(4):
        held = len(hands[s]) + sum(1 for p, _ in plays if p == s)
        if held > KEEP:
            raise AnalyzerError(f"seat {s} would hold {held} trumps: at most {KEEP} after the discards")
    h16 = [sum(1 << k for k in h) for h in hands]
    live = sum(points_of(np.int64(m)) for m in h16) + sum(int(POINTS16[k]) for _, k in plays)
    if sum(points) + live > 10:
        raise AnalyzerError(f"taken ({points[0]} + {points[1]}) and the points in play ({live}) "
                            "exceed the 10 of a round")
    out = {"trump": trump, "h16": h16, "turn": turn, "leader": plays[0][0] if plays else turn,
           "taken0": points[0], "taken1": points[1]}
    out.update(_check_trick(h16, plays, out["leader"], turn))
    return out


def _check_trick(h16: list[int], plays: list[tuple[int, int]], leader: int, turn: int) -> dict:
    """The trick's state (``win_k win_seat trick_points``) by the compiled ``replay_trick``;
    refuse a trick or a turn the order of play does not allow."""
    start = np.array(h16, dtype=np.int64)
    for s, k in plays:
        start[s] |= 1 << k
    seats = np.array([s for s, _ in plays] + [0], dtype=np.int64)
    ks = np.array([k for _, k in plays] + [0], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    code, arg = replay_trick(start, np.int64(leader), seats, ks, np.int64(len(plays)), np.int64(turn), out)
    if code == OVER:
        raise AnalyzerError("the round is over: nobody holds a trump")
    if code == TRICK_DONE:
        raise AnalyzerError(f"the trick is complete after its play {arg + 1}: give its cards to the team that "
                            "took it (taken)")
    if code == NO_TRUMP:
        raise AnalyzerError(f"seat {turn} (turn) holds no trump")
    if code == NOT_TURN:
        who = f"seat {turn} (turn)" if arg == len(plays) else f"seat {plays[arg][0]} (play {arg + 1} of the trick)"
        raise AnalyzerError(f"{who} is out of turn: the trick goes clockwise from its leader, seat {leader}, "
                            "over the seats holding a trump")
    return {"win_k": int(out[0]), "win_seat": int(out[1]), "trick_points": int(out[2])}


_TABLE: dict[str, Any] = {}


def _shared_table() -> np.ndarray:
    """This process's table for ``solve_position`` (made on first use; its entries stay
    valid from call to call)."""
    if "tt" not in _TABLE:
        _TABLE["tt"] = new_table()
    return _TABLE["tt"]


def solve_position(position: dict, rules: dict | None = None) -> dict:
    """Solve a full-information position (module docstring): the exact value of every card
    of the seat to move. ``rules`` (the game's rule options) does not change what a team
    takes. One table of 2**20 rows serves every call."""
    from analyzer.cards import token

    if rules is not None and not isinstance(rules, dict):
        raise AnalyzerError("rules: an object of rule options")
    pos = parse_position(position)
    moves = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    start = time.perf_counter()
    n, nodes = solve_moves(np.array(pos["h16"], dtype=np.int64), np.int64(pos["leader"]), np.int64(pos["turn"]),
                           np.int64(pos["win_k"]), np.int64(pos["win_seat"]), np.int64(pos["trick_points"]),
                           np.int64(pos["taken0"]), np.int64(pos["taken1"]), _shared_table(), moves, values)
    elapsed = time.perf_counter() - start
    trump = pos["trump"]
    options = [{"option": token(int(CARD_AT[trump, moves[i]])), "value": int(values[i])} for i in range(n)]
    top = max(o["value"] for o in options)
    return {"options": options, "best": [o["option"] for o in options if o["value"] == top],
            "nodes": int(nodes), "elapsed_s": round(elapsed, 6)}


def position_at(events: list[dict], at: int) -> dict:
    """The full-information position at decision ``at`` (1-based, counted over the whole
    game as ``evaluate --at`` counts them; it must be a ``play`` decision) of one recorded
    game (its events, docs/record.md): each seat's trumps (dealt, refilled, the rest of the
    stock, less its discards and its plays), the trick in progress, the cards of each
    complete trick given to its recorded winner's team; ``turn`` is the deciding seat."""
    if not isinstance(events, list) or not events or not isinstance(events[0], dict):
        raise AnalyzerError("a record of one game: a list of events starting with its game event")
    if events[0].get("ev") == "game" and events[0].get("game") not in (None, "pitch10"):
        raise AnalyzerError(f"this is a record of {events[0].get('game')}, not pitch10")
    stop = decision_index(events, at)
    kind = events[stop].get("kind")
    if kind != "play":
        raise AnalyzerError(f"decision {at} is a {kind} decision: the solver solves the play (decisions of kind play)")
    try:
        return _replay(events, stop)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise AnalyzerError(f"malformed pitch10 record before decision {at}: {exc!r}") from None


def _replay(events: list[dict], stop: int) -> dict:
    """Card bookkeeping over ``events[:stop]`` (the round of the decision at ``stop``)."""
    from analyzer.cards import parse_card

    held: list[list[str]] = [[], [], [], []]
    taken: list[list[str]] = [[], []]
    trick: list[str] = []
    info: dict[str, Any] = {"scores": [0, 0]}
    trump = ""
    for ev in events[:stop]:
        kind = ev.get("ev")
        if kind == "deal":
            held = [list(h) for h in ev["hands"]]
            taken, trick, trump = [[], []], [], ""
            info.update(hand=ev["hand"], dealer=ev["dealer"])
        elif kind == "pitcher":
            info.update(pitcher=ev["seat"], bid=ev["bid"])
        elif kind in ("refill", "rest"):
            held[ev["seat"]] += list(ev["cards"])
        elif kind == "decide" and ev["kind"] == "trump":
            trump = ev["move"]
        elif kind == "decide" and ev["kind"] in ("discard", "play"):
            held[ev["seat"]].remove(ev["move"])
            if ev["kind"] == "play":
                trick.append(f"{ev['seat']}:{ev['move']}")
        elif kind == "trick":
            taken[ev["winner"] % 2] += [card for _, card in ev["plays"]]
            trick = []
        elif kind == "hand_end":
            info["scores"] = list(ev["scores"])
    t = _SUITS.index(trump)
    hands = [[c for c in h if STRENGTH[t, parse_card(c)] >= 0] for h in held]
    return {**info, "trump": trump, "turn": events[stop]["seat"], "hands": hands, "trick": trick, "taken": taken}
