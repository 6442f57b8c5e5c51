"""Two-Ten-Jack perfect-information solver: the exact value of every legal move when both
players see every card, the stock's order included (issue #19).

Value
-----
The deciding seat's round points minus the opponent's, at the end of the round, with both
playing optimally from here; points already taken this round count. The two players' round
points add up to +5, so the value is ``2 * mine - 5``: odd, from -35 to +35.

Search (compiled, arrays only)
------------------------------
Negamax with alpha-beta over the state ``(leader's hand, follower's hand, lead move, cards
left in the stock)`` (the stock is a fixed sequence for one call, so how many cards are left
says which). A node's value is the future points of the side to move minus the other's
(taken points are added at the root only), so a state's value does not depend on the path
or on the seats: the transposition table is keyed on the state alone.

- Bounds: the future value lies in ``[-B, B]`` with ``B`` the absolute points of the live
  cards (hands, stock, the card led); ``B = 0`` ends the search (no point left to take).
- Transposition table: ``table`` (uint64, shape ``(N + 1, 3)``, ``N`` a power of two): rows
  ``[key1, key2, data]`` in buckets of 4, row ``N`` a header (its column 0: the generation).
  ``key1`` = leader's hand | stock left << 52 | (lead + 1) << 58, ``key2`` = follower's
  hand; ``data`` = (lower + 64) | (upper + 64) << 8 | (best move + 1) << 16 | cards left << 24
  | generation << 32. Each call of ``solve_moves`` is a new generation (older entries count
  as empty, no clearing), except entries with an empty stock (generation 1): their key is
  the whole state whatever the stock was, so they stay valid for every later call.
  Replacement: a stale slot first, else the one with the fewest cards left.
- Move ordering: the table's best move first, then a one-trick look-ahead (a lead by what
  the follower's best reply would take, a follow by what it takes, cheapest card first).
- Equivalent cards: two cards of a suit held by the side to move, adjacent in rank among
  the live cards (every card between them played) and of equal points, are one move (the
  lower is searched, the higher gets its value). AS (a spade and the top trump) is never
  merged.
- Root: each representative move's exact value by zero-window searches (MTD(f)), the
  previous move's value as the first guess (1.6x fewer nodes than a full window here).
- A node cap (``work[W_LIMIT]``, 0: none) aborts the search: ``solve_moves`` then returns
  ``-1`` moves.

``solve_moves(hand_leader, hand_follower, lead, stock, n_stock, taken_mover, taken_other,
table, work, moves_out, values_out)`` -> ``(n_moves, nodes)``: the legal moves of the side
to move (the leader when ``lead < 0``, else the follower) in ``moves_out[:n]`` (move codes
of rules.py: cards 0..51, ``AS_SPADE``/``AS_TRUMP`` for a led AS) and their values in
``values_out[:n]``. ``stock[:n_stock]`` is the stock left, top first; ``taken_*`` are the
masks of the cards each side took this round. ``table`` from ``new_table``, ``work`` from
``new_work`` (both reusable from call to call; nothing is allocated during the search).

Position format (``solve_position``; ``position_at`` builds one from a record)
----------------------------------------------------------------------------
A JSON object, cards as tokens (docs/rules.md conventions)::

    {"hands": [["KD", "2H", ...], ["9C", ...]],  # each seat's cards now (seat 0, seat 1)
     "stock": ["5S", "QC", ...],                 # the stock left, top card first ([] once gone)
     "leader": 1,                                # the seat that leads the trick in progress
     "trick": ["AS:trump"],                      # the lead move of that trick, [] before the lead
     "taken": [["6D", ...], [...]],              # the cards each seat took in tricks this round
     "seat": 0}                                  # optional: the seat to move (checked)

The lead is a card token, or ``AS:spade`` / ``AS:trump`` for a led AS. Every one of the 52
cards must appear exactly once (hands, stock, trick, taken); the leader holds as many cards
as the follower (one fewer once it has led); the stock has an even number of cards. The
seat to move is the leader when ``trick`` is empty, else the other seat.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from analyzer.jit import njit  # first: it sets numba's cache folder before numba loads

from analyzer.bits import highest, lowest, popcount  # noqa: E402,I001
from analyzer.games.base import decision_index  # noqa: E402,I001
from analyzer.games.two_ten_jack.rules import (  # noqa: E402
    ACE_SPADES,
    AS_SPADE,
    AS_TRUMP,
    CARD_POINTS,
    MINUS5_MASK,
    PLUS1_MASK,
    PLUS5_MASK,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_STRENGTH,
    follow_moves,
    follower_wins,
    lead_card,
    lead_moves,
    mask_points,
    suit_led,
)

#: what a value means (analyzer solve prints it)
VALUE = ("the deciding seat's round points minus the opponent's (points already taken count), both playing "
         "optimally with every card and the stock's order known")

#: the node cap of solve_position (about 20-50 s): a larger search is refused in one line
NODE_LIMIT = 40_000_000

# work array layout (int64)
W_NODES, W_NS, W_ABORT, W_LIMIT = 0, 1, 2, 3
W_STOCK = 8                 # stock[0:40], top first
W_REST = W_STOCK + 40       # REST[t]: mask of stock[t:], t = 0..40
MAX_PLY = 56                # 52 cards played at most, plus slack
SLOTS = 8                   # moves per ply (at most 7)
W_MOVES = W_REST + 41 + 7   # move list per ply
W_SCORES = W_MOVES + MAX_PLY * SLOTS
WORK_SIZE = W_SCORES + MAX_PLY * SLOTS

INF = 1000
ONE = np.int64(1)
U1 = np.uint64(1)
GEN_ANY = np.uint64(1)      # generation of entries valid in every call (empty stock)
BUCKET = 4


def new_table(bits: int = 20) -> np.ndarray:
    """A transposition table of ``2**bits`` entries (24 bytes each) plus its header row."""
    table = np.zeros((2 ** bits + 1, 3), dtype=np.uint64)
    table[-1, 0] = 1  # generation: the first call makes it 2
    return table


def new_work() -> np.ndarray:
    """The solver's scratch array (stock, stock masks, move lists, counters)."""
    return np.zeros(WORK_SIZE, dtype=np.int64)


# ---- transposition table -------------------------------------------------------------------

@njit(cache=True, inline="always")
def tt_keys(hl, hf, lead, rem):
    """The two key words of a state (module docstring)."""
    k1 = np.uint64(hl) | (np.uint64(rem) << np.uint64(52)) | (np.uint64(lead + 1) << np.uint64(58))
    return k1, np.uint64(hf)


@njit(cache=True, inline="always")
def tt_bucket(table, k1, k2):
    """First row of the state's bucket in ``table`` (reads its shape only)."""
    h = k1 * np.uint64(0x9E3779B97F4A7C15) ^ k2 * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(31)
    n = np.uint64(table.shape[0] - 1)
    return np.int64(h & (n - U1) & ~np.uint64(BUCKET - 1))


@njit(cache=True, inline="always")
def entry_gen(data):
    return data >> np.uint64(32)


@njit(cache=True)
def tt_probe(table, k1, k2, gen):
    """Row of the state's live entry in ``table``, or -1 (reads ``table``)."""
    b = tt_bucket(table, k1, k2)
    for j in range(BUCKET):
        r = b + j
        if table[r, 0] == k1 and table[r, 1] == k2:
            g = entry_gen(table[r, 2])
            if g == gen or g == GEN_ANY:
                return r
    return -1


@njit(cache=True)
def tt_store(table, k1, k2, gen, lower, upper, move, left):
    """Write a state's bounds and best move into ``table`` (merging with a live entry of
    the same state; else replacing a stale row, else the row with the fewest cards left)."""
    b = tt_bucket(table, k1, k2)
    victim = -1
    victim_left = np.uint64(1000)
    for j in range(BUCKET):
        r = b + j
        data = table[r, 2]
        g = entry_gen(data)
        live = g == gen or g == GEN_ANY
        if table[r, 0] == k1 and table[r, 1] == k2:
            if live:  # tighten the bounds already known
                lo = np.int64(data & np.uint64(255)) - 64
                hi = np.int64((data >> np.uint64(8)) & np.uint64(255)) - 64
                lower = max(lower, lo)
                upper = min(upper, hi)
                if move < 0:
                    move = np.int64((data >> np.uint64(16)) & np.uint64(255)) - 1
            victim = r
            break
        if not live:
            if victim_left > 0:
                victim = r
                victim_left = np.uint64(0)
        else:
            d = (data >> np.uint64(24)) & np.uint64(255)
            if d < victim_left:
                victim = r
                victim_left = d
    table[victim, 0] = k1
    table[victim, 1] = k2
    table[victim, 2] = (np.uint64(lower + 64) | (np.uint64(upper + 64) << np.uint64(8))
                        | (np.uint64(move + 1) << np.uint64(16)) | (np.uint64(left) << np.uint64(24))
                        | (gen << np.uint64(32)))


# ---- moves ---------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def representatives(cards, hand, live):
    """The cards of ``cards`` (a subset of ``hand``) that are not equivalent to a lower
    card of ``hand``: same suit, same points, no live card between them; AS never merges."""
    out = np.int64(0)
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        below = live & SUIT_MASK[SUIT_OF[c]] & ((ONE << c) - 1)
        if c != ACE_SPADES and below:
            b = highest(below)
            if (hand >> b) & 1 and CARD_POINTS[b] == CARD_POINTS[c]:
                continue
        out |= ONE << c
    return out


@njit(cache=True, inline="always")
def card_cost(c):
    """How much a card is worth keeping, for move ordering only: trumps above plain cards."""
    t = TRUMP_STRENGTH[c]
    return 16 + t if t else RANK_OF[c]


@njit(cache=True, inline="always")
def follow_score(lc, c):
    """Ordering score of following the led card ``lc`` with ``c``: what the trick brings
    the follower, then the cheapest card."""
    p = CARD_POINTS[lc] + CARD_POINTS[c]
    if follower_wins(lc, c):
        return 64 * p + 32 - card_cost(c)
    return -64 * p - card_cost(c)


@njit(cache=True, inline="always")
def lead_score(m, hf):
    """Ordering score of the lead move ``m``: minus the follower's best reply score."""
    lc = lead_card(m)
    replies = follow_moves(hf, suit_led(m))
    best = -100000
    r = replies
    while r:
        d = lowest(r)
        r &= r - 1
        s = follow_score(lc, d)
        if s > best:
            best = s
    return -best - card_cost(lc)


@njit(cache=True)
def order_moves(hl, hf, lead, live, tt_move, work, base):
    """Write the side to move's moves (equivalent cards merged) into ``work[base:]``,
    ``tt_move`` first, then by score (``work[W_SCORES - W_MOVES + base:]`` as scratch);
    returns how many."""
    sbase = base + (W_SCORES - W_MOVES)
    if lead < 0:
        legal = lead_moves(hl)
        cards = representatives(legal & ~((ONE << AS_SPADE) | (ONE << AS_TRUMP)), hl, live)
        mask = cards | (legal & ((ONE << AS_SPADE) | (ONE << AS_TRUMP)))
    else:
        legal = follow_moves(hf, suit_led(lead))
        mask = representatives(legal, hf, live)
    lc = lead_card(lead) if lead >= 0 else 0
    n = 0
    while mask:
        m = lowest(mask)
        mask &= mask - 1
        if m == tt_move:
            s = 1 << 30
        elif lead < 0:
            s = lead_score(m, hf)
        else:
            s = follow_score(lc, m)
        i = n  # insertion, highest score first
        while i > 0 and work[sbase + i - 1] < s:
            work[base + i] = work[base + i - 1]
            work[sbase + i] = work[sbase + i - 1]
            i -= 1
        work[base + i] = m
        work[sbase + i] = s
        n += 1
    return n


# ---- search --------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def live_bound(live):
    """The absolute points of the cards in ``live``: the future value is within +- this."""
    return 5 * popcount(live & PLUS5_MASK) + 5 * popcount(live & MINUS5_MASK) + popcount(live & PLUS1_MASK)


@njit(cache=True, inline="always")
def play_follow(hl, hf, lead, c, top, ns, work):
    """The trick ended by following ``lead`` with ``c``: its points, whether the follower
    wins it, both hands after the draws (winner first, from the stock in ``work``) and the
    new top of the stock. Returns ``(p, follower_wins, leader's hand, follower's hand, top)``."""
    lc = lead_card(lead)
    p = CARD_POINTS[lc] + CARD_POINTS[c]
    nl = hl
    nf = hf ^ (ONE << c)
    fw = follower_wins(lc, c)
    t2 = top
    if top < ns:
        cw = work[W_STOCK + top]
        cl = work[W_STOCK + top + 1]
        t2 = top + 2
        if fw:
            nf |= ONE << cw
            nl |= ONE << cl
        else:
            nl |= ONE << cw
            nf |= ONE << cl
    return p, fw, nl, nf, t2


#: an explicit signature: numba's cache reloads a recursive function with an inferred
#: signature into a crash (numba 0.68), a declared one cleanly; every call passes int64
#: variables, never literals (a literal argument asks for a version the cache lacks).
#: ``search`` is compiled for it when something first types a call to it
#: (``_declared_before_typed``), not at import: the kernels' first tier (rules and base
#: strategies) imports this module but never calls the solver, and a cold start of
#: Two-Ten-Jack's random play spent 3.8 s compiling it.
SEARCH_SIGNATURE = "int64(int64, int64, int64, int64, int64, int64, int64, uint64[:, ::1], int64[::1])"


@njit(cache=True)
def search(hl, hf, lead, top, alpha, beta, ply, table, work):
    """Future value for the side to move (the leader if ``lead < 0``) of the state with
    hands ``hl`` (leader) and ``hf`` (follower) and ``work[W_STOCK + top:]`` still in the
    stock, fail-soft within ``(alpha, beta)``. Reads and writes ``table`` and ``work``
    (node count, move lists of plies ``ply`` and deeper)."""
    work[W_NODES] += 1
    NONE = np.int64(-1)  # not the literal -1: a literal argument would ask for another compiled version
    ns = work[W_NS]
    if lead < 0:
        if hl == 0:
            return 0
        if top == ns and (hl & (hl - 1)) == 0:  # the last trick: both cards are forced
            c = lowest(hl)
            d = lowest(hf)
            p = CARD_POINTS[c] + CARD_POINTS[d]
            return -p if follower_wins(c, d) else p
        live = hl | hf | work[W_REST + top]
    else:
        live = hl | hf | work[W_REST + top] | (ONE << lead_card(lead))
    bound = live_bound(live)
    if bound == 0:
        return 0
    if bound <= alpha:
        return bound
    if -bound >= beta:
        return -bound
    if work[W_LIMIT] > 0 and work[W_NODES] > work[W_LIMIT]:
        work[W_ABORT] = 1
        return 0
    gen = table[table.shape[0] - 1, 0]
    rem = ns - top
    k1, k2 = tt_keys(hl, hf, lead, rem)
    tt_move = -1
    r = tt_probe(table, k1, k2, gen)
    if r >= 0:
        data = table[r, 2]
        lo = np.int64(data & np.uint64(255)) - 64
        hi = np.int64((data >> np.uint64(8)) & np.uint64(255)) - 64
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        tt_move = np.int64((data >> np.uint64(16)) & np.uint64(255)) - 1
    alpha = max(alpha, -bound)
    beta = min(beta, bound)
    base = W_MOVES + ply * SLOTS
    n = order_moves(hl, hf, lead, live, tt_move, work, base)
    a0 = alpha
    best = -INF
    best_move = -1
    for i in range(n):
        m = work[base + i]
        if lead < 0:
            v = -search(hl ^ (ONE << lead_card(m)), hf, m, top, -beta, -alpha, ply + 1, table, work)
        else:
            p, fw, nl, nf, t2 = play_follow(hl, hf, lead, m, top, ns, work)
            if fw:
                v = p + search(nf, nl, NONE, t2, alpha - p, beta - p, ply + 1, table, work)
            else:
                v = -p - search(nl, nf, NONE, t2, -beta - p, -alpha - p, ply + 1, table, work)
        if work[W_ABORT]:
            return 0
        if v > best:
            best = v
            best_move = m
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    left = popcount(hl | hf) + rem
    g = GEN_ANY if rem == 0 else gen
    if best <= a0:
        tt_store(table, k1, k2, g, -bound, best, best_move, left)
    elif best >= beta:
        tt_store(table, k1, k2, g, best, bound, best_move, left)
    else:
        tt_store(table, k1, k2, g, best, best, best_move, left)
    return best


def _declared_before_typed(dispatcher, signature: str) -> None:
    """Make ``dispatcher`` compile ``signature`` (or load it from the cache) the first time
    a caller's compilation types a call to it, before numba would infer a signature of its
    own from the caller's argument types. The recursive calls inside that compilation type
    through the same hook and find the compilation in progress, as with an eager signature."""
    if not hasattr(dispatcher, "get_call_template"):
        return  # --debug: njit gave the plain Python function, nothing compiles
    infer = dispatcher.get_call_template
    declaring = []

    def get_call_template(args, kws):
        if not dispatcher.signatures and not declaring:
            declaring.append(True)
            try:
                dispatcher.compile(signature)
            finally:
                declaring.clear()
        return infer(args, kws)

    dispatcher.get_call_template = get_call_template


_declared_before_typed(search, SEARCH_SIGNATURE)


@njit(cache=True)
def load_stock(stock, n_stock, work):
    """Copy ``stock[:n_stock]`` into ``work`` and precompute the masks of its suffixes."""
    work[W_NS] = n_stock
    for i in range(n_stock):
        work[W_STOCK + i] = stock[i]
    rest = np.int64(0)
    work[W_REST + n_stock] = 0
    for i in range(n_stock - 1, -1, -1):
        rest |= ONE << stock[i]
        work[W_REST + i] = rest
    return n_stock


@njit(cache=True)
def move_value(hl, hf, lead, m, n_stock, alpha, beta, table, work):
    """Value of the root move ``m`` for the side to move, fail-soft within ``(alpha, beta)``
    (the stock in ``work`` from its top); reads and writes ``table`` and ``work``."""
    NONE = np.int64(-1)
    if lead < 0:
        return -search(hl ^ (ONE << lead_card(m)), hf, m, np.int64(0), -beta, -alpha, np.int64(1), table, work)
    p, fw, nl, nf, t2 = play_follow(hl, hf, lead, m, 0, n_stock, work)
    if fw:
        return p + search(nf, nl, NONE, t2, alpha - p, beta - p, np.int64(1), table, work)
    return -p - search(nl, nf, NONE, t2, -beta - p, -alpha - p, np.int64(1), table, work)


@njit(cache=True)
def mtd_value(hl, hf, lead, m, n_stock, guess, bound, table, work):
    """Exact value of the root move ``m`` by zero-window searches (MTD(f)) from ``guess``;
    the value lies strictly within ``(-bound, bound)``. Reads and writes ``table``, ``work``."""
    lower = -bound
    upper = bound
    g = max(min(guess, upper), lower)
    while lower < upper:
        beta = max(g, lower + 1)  # test: is the value at least beta?
        g = move_value(hl, hf, lead, m, n_stock, beta - 1, beta, table, work)
        if work[W_ABORT]:
            break
        if g < beta:
            upper = g  # fail-soft: the value is at most g
        else:
            lower = g  # the value is at least g
    return lower


@njit(entry=True, cache=True)
def solve_moves(hand_leader, hand_follower, lead, stock, n_stock, taken_mover, taken_other, table, work,
                moves_out, values_out):
    """The exact value of every legal move of the side to move (module docstring).

    Reads ``stock[:n_stock]``; writes ``moves_out[:n]``, ``values_out[:n]`` (``n`` the number
    of legal moves, AS counting twice as a lead), ``table`` and ``work``. Returns ``(n,
    nodes)``; ``n = -1`` when the node cap ``work[W_LIMIT]`` stopped the search."""
    table[table.shape[0] - 1, 0] += U1  # a new generation
    load_stock(stock, n_stock, work)
    work[W_NODES] = 0
    work[W_ABORT] = 0
    base_points = mask_points(taken_mover) - mask_points(taken_other)
    hl, hf = hand_leader, hand_follower
    if lead < 0:
        legal = lead_moves(hl)
        hand = hl
        live = hl | hf | work[W_REST]
    else:
        legal = follow_moves(hf, suit_led(lead))
        hand = hf
        live = hl | hf | work[W_REST] | (ONE << lead_card(lead))
    n = order_moves(hl, hf, lead, live, -1, work, W_MOVES)
    # the representatives are ply 0's move list (the search uses plies 1 and deeper);
    # their exact values go into ply 0's score slots
    bound = live_bound(live) + 1
    guess = np.int64(0)
    for i in range(n):
        v = mtd_value(hl, hf, lead, work[W_MOVES + i], n_stock, guess, bound, table, work)
        if work[W_ABORT]:
            return -1, work[W_NODES]
        work[W_SCORES + i] = v
        guess = v
    # every legal move, low to high; a merged card takes its representative's value
    k = 0
    mask = legal
    while mask:
        m = lowest(mask)
        mask &= mask - 1
        rep = m
        if m < 52:
            while True:  # down the chain of equivalent cards to the representative
                below = live & SUIT_MASK[SUIT_OF[rep]] & ((ONE << rep) - 1)
                if rep == ACE_SPADES or below == 0:
                    break
                b = highest(below)
                if (hand >> b) & 1 and CARD_POINTS[b] == CARD_POINTS[rep]:
                    rep = b
                else:
                    break
        for j in range(n):
            if work[W_MOVES + j] == rep:
                values_out[k] = work[W_SCORES + j] + base_points
        moves_out[k] = m
        k += 1
    return k, work[W_NODES]


@njit(cache=True)
def taken_points(mask):
    """Points of the cards in ``mask`` (the compiled scoring rule, for Python callers)."""
    return mask_points(mask)


# ---- Python side: positions ----------------------------------------------------------------

_TABLE: np.ndarray | None = None
_WORK: np.ndarray | None = None


def _buffers() -> tuple[np.ndarray, np.ndarray]:
    """The module's table and work array, allocated on first use."""
    global _TABLE, _WORK
    if _TABLE is None:
        _TABLE, _WORK = new_table(), new_work()
    return _TABLE, _WORK


def move_token(move: int) -> str:
    """A move code as the record writes it (``AS:spade``/``AS:trump`` for a led AS)."""
    from analyzer.cards import token

    if move == AS_SPADE:
        return "AS:spade"
    if move == AS_TRUMP:
        return "AS:trump"
    return token(move)


def _card(text: Any, where: str) -> int:
    from analyzer.cards import CardError, parse_card

    from analyzer.errors import AnalyzerError

    if not isinstance(text, str):
        raise AnalyzerError(f"{where}: a card is a token like 'KD', not {text!r}")
    try:
        card = parse_card(text)
    except CardError as exc:
        raise AnalyzerError(f"{where}: {exc}") from None
    if card >= 52:
        raise AnalyzerError(f"{where}: {text} is not in the 52-card deck")
    return card


def _card_list(value: Any, where: str) -> list[int]:
    from analyzer.errors import AnalyzerError

    if not isinstance(value, list):
        raise AnalyzerError(f"{where} is a list of cards")
    return [_card(t, where) for t in value]


def _seat_lists(position: dict, key: str) -> list[list[int]]:
    from analyzer.errors import AnalyzerError

    value = position.get(key)
    if not isinstance(value, list) or len(value) != 2:
        raise AnalyzerError(f"{key} is a list of 2 card lists (seat 0, seat 1)")
    return [_card_list(value[s], f"{key}[{s}]") for s in range(2)]


def _lead(value: Any) -> int:
    """The lead move of ``trick`` (-1: none)."""
    from analyzer.errors import AnalyzerError

    if not isinstance(value, list) or len(value) > 1:
        raise AnalyzerError("trick is a list of at most one move: the lead of the trick in progress")
    if not value:
        return -1
    t = value[0]
    if isinstance(t, str) and t.strip().upper() in ("AS:SPADE", "AS:TRUMP"):
        return AS_SPADE if t.strip().upper() == "AS:SPADE" else AS_TRUMP
    card = _card(t, "trick")
    if card == ACE_SPADES:
        raise AnalyzerError("trick: a led AS is declared: write AS:spade or AS:trump")
    return card


def _seat(value: Any, key: str) -> int:
    from analyzer.errors import AnalyzerError

    if isinstance(value, bool) or value not in (0, 1):
        raise AnalyzerError(f"{key}: seat {value!r} does not exist with 2 players (0 or 1)")
    return int(value)


KEYS = ("hands", "stock", "leader", "trick", "taken", "seat")


def parse_position(position: dict) -> dict[str, Any]:
    """Validate a full-information position (module docstring); returns its masks and
    lists: hands, stock, leader, lead, taken, seat (the seat to move)."""
    from analyzer.errors import AnalyzerError

    if not isinstance(position, dict):
        raise AnalyzerError("a position is a JSON object (a dict)")
    unknown = sorted(set(position) - set(KEYS) - {"rules", "game"})
    if unknown:
        raise AnalyzerError(f"two-ten-jack solver positions have no {unknown[0]!r} (keys: {', '.join(KEYS)})")
    missing = [k for k in ("hands", "stock", "leader") if k not in position]
    if missing:
        raise AnalyzerError(f"the position needs {missing[0]!r} (keys: {', '.join(KEYS)})")
    hands = _seat_lists(position, "hands")
    taken = _seat_lists(position, "taken") if "taken" in position else [[], []]
    stock = _card_list(position["stock"], "stock")
    leader = _seat(position["leader"], "leader")
    lead = _lead(position.get("trick", []))
    cards = hands[0] + hands[1] + taken[0] + taken[1] + stock + ([lead_card_py(lead)] if lead >= 0 else [])
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise AnalyzerError(f"card {move_token(dup)} appears twice: the deck holds every card once")
    if len(cards) != 52:
        raise AnalyzerError(f"the position shows {len(cards)} cards, not 52: give every card (hands, stock, "
                            "trick, taken)")
    if len(stock) % 2:
        raise AnalyzerError(f"the stock has {len(stock)} cards: after each trick both players draw, so it is even")
    nl, nf = len(hands[leader]), len(hands[1 - leader])
    if nl + (1 if lead >= 0 else 0) != nf:
        raise AnalyzerError(f"the leader (seat {leader}) holds {nl} cards and the follower {nf}: "
                            + ("after the lead the leader holds one fewer" if lead >= 0 else "they must hold as many"))
    if nf == 0:
        raise AnalyzerError("the round is over: both hands are empty")
    seat = leader if lead < 0 else 1 - leader
    if position.get("seat") is not None and _seat(position["seat"], "seat") != seat:
        raise AnalyzerError(f"seat {position['seat']} is not to move here: seat {seat} "
                            f"{'leads' if lead < 0 else 'follows'}")
    return {"hands": [_mask(h) for h in hands], "stock": stock, "leader": leader, "lead": lead,
            "taken": [_mask(t) for t in taken], "seat": seat}


def lead_card_py(lead: int) -> int:
    """The card a lead move plays (bookkeeping: AS for both declarations)."""
    return ACE_SPADES if lead in (AS_SPADE, AS_TRUMP) else lead


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def solve_position(position: dict, rules: dict | None = None) -> dict[str, Any]:
    """The exact value of every legal move of a full-information position (module
    docstring), from the view of the seat to move: ``{"options": [{"option", "value"}],
    "best": [...], "nodes", "elapsed_s"}`` (options in the order of the legal moves'
    codes). ``rules`` (the game's options) do not change a round's value."""
    started = time.perf_counter()
    p = parse_position(position)
    table, work = _buffers()
    leader, lead, seat = p["leader"], p["lead"], p["seat"]
    stock = np.array(p["stock"] + [0], dtype=np.int64)
    moves = np.zeros(8, dtype=np.int64)
    values = np.zeros(8, dtype=np.int64)
    work[W_LIMIT] = NODE_LIMIT
    n, nodes = solve_moves(np.int64(p["hands"][leader]), np.int64(p["hands"][1 - leader]), np.int64(lead), stock,
                           np.int64(len(p["stock"])), np.int64(p["taken"][seat]), np.int64(p["taken"][1 - seat]),
                           table, work, moves, values)
    if n < 0:
        from analyzer.errors import AnalyzerError

        raise AnalyzerError(f"not solved within {NODE_LIMIT:,} nodes: with {len(p['stock'])} cards in the stock the "
                            "exact search is too large (it grows about 25-fold per 8 stock cards); try a decision "
                            "with at most 16 cards left in the stock")
    options = [{"option": move_token(int(moves[i])), "value": int(values[i])} for i in range(n)]
    top = max(o["value"] for o in options)
    return {"options": options, "best": [o["option"] for o in options if o["value"] == top],
            "nodes": int(nodes), "elapsed_s": round(time.perf_counter() - started, 6)}


def position_at(events: list[dict], at: int) -> dict[str, Any]:
    """The full-information position of decision ``at`` (1-based, counted over the whole
    record of one game as ``evaluate --at`` does) of a record's events (docs/record.md),
    from the record's own data: the deal's hands and stock, the moves played and each
    trick's recorded winner and draws. The deciding seat is that decision's ``seat``."""
    from analyzer.errors import AnalyzerError

    stop = decision_index(events, at)
    start = max((i for i in range(stop) if events[i].get("ev") == "deal"), default=None)
    if start is None:
        raise AnalyzerError(f"decision {at} comes before any deal event")
    deal = events[start]
    hands = [[_card(t, "deal hands") for t in deal["hands"][s]] for s in range(2)]
    stock = [_card(t, "deal stock") for t in deal["stock"]]
    taken: list[list[int]] = [[], []]
    trick: list[tuple[int, str]] = []  # (seat, move) of the trick in progress
    for e in events[start + 1:stop]:
        if e["ev"] == "decide":
            seat, move = int(e["seat"]), str(e["move"])
            card = ACE_SPADES if move.upper().startswith("AS:") else _card(move, "decide move")
            if card not in hands[seat]:
                raise AnalyzerError(f"record: seat {seat} plays {move} but does not hold it")
            hands[seat].remove(card)
            trick.append((seat, move))
        elif e["ev"] == "trick":
            winner = int(e["winner"])
            taken[winner] += [_card(t, "trick cards") for t in e["cards"]]
            for seat, t in e["draws"]:
                card = _card(t, "trick draws")
                if not stock or stock[0] != card:
                    raise AnalyzerError(f"record: {t} drawn is not the top of the stock")
                stock.pop(0)
                hands[int(seat)].append(card)
            trick = []
    seat = int(events[stop]["seat"])
    if len(trick) > 1:
        raise AnalyzerError(f"record: decision {at} comes after a trick of 2 cards with no trick event")
    leader, lead = (trick[0][0], [trick[0][1]]) if trick else (seat, [])
    from analyzer.cards import tokens

    return {"hands": [tokens(sorted(h)) for h in hands], "stock": tokens(stock), "leader": leader,
            "trick": lead, "taken": [tokens(sorted(t)) for t in taken], "seat": seat}
