"""Twenty-Two rules, compiled: hands as rank counts, legal sets, set comparison.

Suits never matter (docs/rules.md section 1), so the logic reads a hand as a *count vector*:
how many cards of each rank (0..12 for 2..A) it holds, packed into one int64 with 4 bits
per rank (rank ``r`` in bits ``4r .. 4r+3``). A move is a set of cards written the same
way: ``"QQ"`` is ``2 << 40``, ``"45"`` is ``(1 << 8) | (1 << 12)``, ``""`` (no discard)
is 0. Removing a set from a hand is a plain subtraction (no nibble ever borrows).

Which suit of a rank leaves the hand is immaterial to the rules; the engine always takes
the held card of that rank with the lowest suit (C, then D, H, S), so records are
deterministic (see ``take_cards``). Physical cards are kept as a bitmask of card codes
(``suit * 13 + rank``) next to the count vector.

Kernel parameter array (``params``), in the order of the spec's options:
``[players, target, lowest_only_if_unable]``.
"""

from __future__ import annotations

import numpy as np


from analyzer.bits import highest, lowest
from analyzer.jit import ix, njit

P_PLAYERS, P_TARGET, P_LOWEST_ONLY = 0, 1, 2

RANKS = "23456789TJQKA"
FIRST_HAND_SIZE = 7
#: card values for scoring and for the next hand's size: 2-10 face, J Q K 10, A 11
RANK_POINTS = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11], dtype=np.int64)
#: rank and suit of a card code, as tables (Python-semantics ``%``/``//`` are slow in numba)
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)
SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
#: the most legal moves a decision can have: sub-multisets of an 11-card hand
MAX_LEGAL = 2048
NIB = np.int64(15)


@njit(cache=True, forceinline=True)
def nib(packed: np.int64, rank: np.int64) -> np.int64:
    """How many cards of ``rank`` the packed count vector holds."""
    return (packed >> (4 * rank)) & NIB


@njit(cache=True, forceinline=True)
def one(rank: np.int64) -> np.int64:
    """The packed vector of one card of ``rank``."""
    return np.int64(1) << (4 * rank)


M_LOW_NIBBLES = np.int64(0x0F0F0F0F0F0F0F0F)
#: bit 4r for every rank r
M_RANK_BITS = np.int64(0x1111111111111)
M_BYTE_SUM = np.uint64(0x0101010101010101)
#: the 13 nibbles of a packed set
M_SET = np.int64((1 << 52) - 1)


@njit(cache=True, forceinline=True)
def set_size(packed: np.int64) -> np.int64:
    """How many cards a packed set holds (sum of its nibbles, without a loop)."""
    x = (packed & M_LOW_NIBBLES) + ((packed >> 4) & M_LOW_NIBBLES)  # byte sums <= 30
    # the multiply wraps: do it unsigned (signed overflow is undefined to LLVM, and a
    # signed version was seen miscompiled inside loops in hearts2)
    return np.int64((np.uint64(x) * M_BYTE_SUM) >> np.uint64(56)) & 0xFF


@njit(cache=True)
def beats(x: np.int64, best: np.int64) -> bool:
    return beats_any(x, best)


@njit(cache=True, forceinline=True)
def beats_any(x: np.int64, best: np.int64) -> bool:
    """True when set ``x`` matches or beats ``best`` (both of the same size).

    Sorted by rank, every card of ``x`` ranks at least as high as the card in the same
    position of ``best``. For sets of equal size this is the same as: for every rank
    threshold t, ``x`` holds at least as many cards of rank >= t as ``best`` does.
    """
    cx = 0
    cb = 0
    for r in range(12, -1, -1):
        cx += nib(x, r)
        cb += nib(best, r)
        if cx < cb:
            return False
    return True


@njit(cache=True)
def lowest_set(hand: np.int64, s: np.int64) -> np.int64:
    """The hand's ``s`` lowest-ranked cards (a packed set)."""
    out = np.int64(0)
    left = s
    for r in range(13):
        if left == 0:
            break
        c = nib(hand, r)
        if c > left:
            c = left
        out += c << (4 * r)
        left -= c
    return out


@njit(cache=True)
def highest_set(hand: np.int64, s: np.int64) -> np.int64:
    """The hand's ``s`` highest-ranked cards (a packed set)."""
    out = np.int64(0)
    left = s
    for r in range(12, -1, -1):
        if left == 0:
            break
        c = nib(hand, r)
        if c > left:
            c = left
        out += c << (4 * r)
        left -= c
    return out


@njit(cache=True, forceinline=True)
def presence(hand: np.int64) -> np.int64:
    """Bit 4r set for every rank r the packed set holds."""
    x = hand | (hand >> 1)
    x |= x >> 2
    return x & M_RANK_BITS


@njit(cache=True, forceinline=True)
def lowest_rank(hand: np.int64) -> np.int64:
    """The lowest rank held (-1 for an empty set); bit scans, no loop."""
    if hand == 0:
        return -1
    return lowest(presence(hand)) >> 2


@njit(cache=True, forceinline=True)
def highest_rank(hand: np.int64) -> np.int64:
    """The highest rank held (-1 for an empty set)."""
    if hand == 0:
        return -1
    return highest(presence(hand)) >> 2


# Scratch layout (``scr``, int64[SCRATCH]) of the set counter (random's draw) and sampler.
S_RK, S_HC, S_NEED, S_W = 0, 16, 32, 128
SCRATCH = S_W + 14 * 16


@njit(cache=True)
def prepare(hand: np.int64, best: np.int64, scr: np.ndarray) -> np.int64:
    """Ranks held (high to low) and the dominance bounds for sets beating ``best``.

    Fills ``scr``: S_RK+i the i-th rank held from the top, S_HC+i how many, S_NEED+i how
    many cards a set must hold at positions 0..i to still match or beat ``best`` (the
    cards of ``best`` ranked above the next rank held). Returns how many ranks are held,
    or -1 when no set of the hand can match or beat ``best``. Walks only the ranks held
    (bit scans: random hands make per-rank branches mispredict).
    """
    pres = presence(hand)
    if pres == 0:
        return 0
    b = highest(pres)
    if best != 0 and set_size(best >> (b + 4)) > 0:
        return -1  # ``best`` holds a card above every card of the hand
    m = 0
    while True:
        scr[S_RK + m] = b >> 2
        scr[S_HC + m] = (hand >> b) & NIB
        pres ^= np.int64(1) << b
        if pres == 0:
            break
        b = highest(pres)
        scr[S_NEED + m] = set_size(best >> (b + 4))
        m += 1
    scr[S_NEED + m] = set_size(best)
    return m + 1


@njit(cache=True)
def count_subsets(hand: np.int64, tmin: np.int64, tmax: np.int64, best: np.int64,
                  scr: np.ndarray) -> np.int64:
    """How many sub-multisets of ``hand`` with ``tmin`` to ``tmax`` cards match or beat
    ``best`` (``best == 0``: no such condition), without listing them.

    Dynamic programme over the ranks held, high to low: with W[i][j] the ways to complete
    positions i.. when j cards were taken at positions < i, row i of the table in ``scr``
    holds the prefix sums Q[i][j] = W[i][0] + .. + W[i][j] (``unrank_subset`` reads it).
    Needs ``tmax <= 15``.
    """
    m = prepare(hand, best, scr)
    if m < 0:
        return 0
    scr[S_RK + 15] = m
    base = S_W + m * 16
    acc = 0
    # every index below is >= 0: ``ix`` spares numba's wrap-around of negative ones
    for j in range(tmax + 1):
        if j >= tmin:
            acc += 1
        scr[ix(base + j)] = acc
    for i in range(m - 1, -1, -1):
        nxt = S_W + (i + 1) * 16
        cur = S_W + i * 16
        need = scr[ix(S_NEED + i)]
        hc = scr[ix(S_HC + i)]
        acc = 0
        for j in range(tmax + 1):
            lo = j if j > need else need
            hi = j + hc
            if hi > tmax:
                hi = tmax
            if hi >= lo:
                acc += scr[ix(nxt + hi)] - (scr[ix(nxt + lo - 1)] if lo > 0 else 0)
            scr[ix(cur + j)] = acc
    return scr[S_W]


@njit(cache=True)
def unrank_subset(u: np.int64, tmax: np.int64, scr: np.ndarray) -> np.int64:
    """The set number ``u`` (0 <= u < count) of the table ``count_subsets`` left in ``scr``."""
    m = scr[S_RK + 15]
    j = 0
    out = np.int64(0)
    for i in range(m):
        need = scr[ix(S_NEED + i)]
        nxt = S_W + (i + 1) * 16
        for c in range(scr[ix(S_HC + i)] + 1):
            k = j + c
            if k > tmax:
                break
            if k < need:
                continue
            w = scr[ix(nxt + k)] - (scr[ix(nxt + k - 1)] if k > 0 else 0)
            if u < w:
                out += c << (4 * scr[ix(S_RK + i)])
                j = k
                break
            u -= w
    return out


@njit(cache=True)
def legal_discards(hand: np.int64, stock_left: np.int64, out: np.ndarray, scr: np.ndarray) -> np.int64:
    """Every distinct set of at most ``stock_left`` cards of the hand, "" included (in the
    order of ``enum_small_subsets``). ``scr`` is not used: the legal-set functions take
    the same arguments."""
    return enum_small_subsets(hand, discard_limit(hand, stock_left), out)


@njit(cache=True)
def enum_small_subsets(hand: np.int64, tmax: np.int64, out: np.ndarray) -> np.int64:
    """Every sub-multiset of ``hand`` with at most ``tmax`` cards into ``out[0:]``; returns
    how many, in the order of every list of sets (a user strategy's ``legal[i]``, evaluate's
    rows): more cards of the highest rank first, then of the next rank, and so on."""
    if set_size(hand) <= tmax:
        return _all_subsets(hand, out)
    return _grow_sets(hand, np.int64(0), np.int64(0), tmax, out)


@njit(cache=True)
def enum_beating_sets(hand: np.int64, s: np.int64, best: np.int64, out: np.ndarray) -> np.int64:
    """Every sub-multiset of ``hand`` with exactly ``s`` cards that matches or beats ``best``
    (``s`` cards) into ``out[0:]``, in ``enum_small_subsets``' order; returns how many."""
    if s > set_size(hand):
        return 0
    return _grow_sets(hand, best, s, s, out)


@njit(cache=True)
def _grow_sets(hand: np.int64, best: np.int64, s: np.int64, tmax: np.int64, out: np.ndarray) -> np.int64:
    """The sets of ``enum_small_subsets`` (``best == 0``: at most ``tmax`` cards) or of
    ``enum_beating_sets`` (exactly ``s`` cards matching or beating ``best``; ``tmax == s``).

    A tree walk would pay its bookkeeping at every set, and a discard lists hundreds of sets
    for a user strategy at each decision: this builds them in place a rank at a time, from
    the lowest rank held up. Each rank held becomes the most significant so far, and the
    list grows into blocks, one per count of that rank (the highest count first), each a
    copy of the sets so far that may take that count; the list is moved to the end first,
    and the block of count 0 is what stays of it, moved down. While it is built, each set
    carries its size in bits 56-59 (a set uses bits 0-51).

    X matches or beats B (both of s cards) when, for every rank t, X holds at least as many
    cards ranked t or above as B does: with |X| = |B|, when X holds at most as many cards
    below t as B. So while X grows from the bottom, the cards taken so far are capped by B's
    cards up to that rank, and a set too small to reach s with the cards above is dropped.
    """
    out[0] = 0
    n = 1
    best_so_far = 0
    cap, need = tmax, np.int64(0)
    for r in range(13):
        best_so_far += nib(best, r)
        c = nib(hand, r)
        if c == 0:
            continue
        if best != 0:
            cap = best_so_far if best_so_far < s else s
            need = s - set_size(hand >> (4 * (r + 1)))  # even with every card above r
        total = 0
        kept = 0  # sets that may take none of rank r
        for i in range(n):
            size = out[i] >> 56
            lo = need - size if need > size else 0
            hi = cap - size if cap - size < c else c
            if hi >= lo:
                total += hi - lo + 1
                kept += lo == 0
        if total == 0:
            return 0
        base = total - kept
        if base + n > out.shape[0]:  # never for a hand of 11 cards or fewer, but never write past out
            raise ValueError("_grow_sets: out is too short")
        for i in range(n - 1, -1, -1):
            out[base + i] = out[i]
        q = 0
        for k in range(c, 0, -1):
            add = (k << (4 * r)) + (k << 56)
            for i in range(base, base + n):
                size = out[i] >> 56
                if need - size <= k <= cap - size:
                    out[q] = out[i] + add
                    q += 1
        for i in range(base, base + n):
            size = out[i] >> 56
            if need <= size <= cap:
                out[q] = out[i]
                q += 1
        n = total
    for i in range(n):
        out[i] &= M_SET
    return n


@njit(cache=True)
def _all_subsets(hand: np.int64, out: np.ndarray) -> np.int64:
    """``enum_small_subsets`` when every sub-multiset fits (the common discard: the stock
    holds at least the hand): each rank's blocks are plain copies of the list so far."""
    out[0] = 0
    n = 1
    for r in range(13):
        c = nib(hand, r)
        if c == 0:
            continue
        base = n * c
        for i in range(n - 1, -1, -1):
            out[base + i] = out[i]
        q = 0
        for k in range(c, 0, -1):
            add = k << (4 * r)
            for i in range(n):
                out[q + i] = out[base + i] + add
            q += n
        n *= c + 1
    return n


@njit(cache=True)
def discard_limit(hand: np.int64, stock_left: np.int64) -> np.int64:
    """The most cards a discard may hold: the stock size, and never more than the hand."""
    hs = set_size(hand)
    return stock_left if stock_left < hs else hs


@njit(cache=True)
def legal_leads(hand: np.int64, hand_size: np.int64, out: np.ndarray) -> np.int64:
    """A single or a set of one rank, keeping at least one card in hand."""
    n = 0
    for r in range(13):
        c = nib(hand, r)
        if c > hand_size - 1:
            c = hand_size - 1
        for k in range(1, c + 1):
            out[n] = k << (4 * r)
            n += 1
    return n


@njit(cache=True)
def legal_follows(hand: np.int64, s: np.int64, best: np.int64, lowest_only_if_unable: bool,
                  out: np.ndarray, scr: np.ndarray) -> np.int64:
    """Sets of exactly ``s`` cards that match or beat ``best``, and the ``s`` lowest cards
    (variant ``lowest_only_if_unable``: the lowest cards only when nothing beats)."""
    n = enum_beating_sets(hand, s, best, out)
    low = lowest_set(hand, s)
    if lowest_only_if_unable:
        if n == 0:
            out[0] = low
            n = 1
    elif not beats(low, best):
        out[n] = low
        n += 1
    return n


#: the bits of rank 0's four cards in a card bitmask (card ``s * 13 + r``): shifted left by
#: ``r``, rank r's
RANK_CARDS = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)


@njit(cache=True)
def take_cards(mask: np.int64, move: np.int64) -> np.int64:
    """Remove the cards of ``move`` from the card bitmask ``mask`` (for each rank the
    lowest suits held: C, then D, H, S) and return the new mask.

    A rank's cards held are one mask (``RANK_CARDS << r``), and its lowest suits are its
    lowest bits: each card taken clears the lowest bit left, with no branch on which suits
    are held (a branch per suit that did not predict was a tenth of random play)."""
    pres = presence(move)
    while pres != 0:
        b = lowest(pres)
        pres ^= np.int64(1) << b
        held = mask & (RANK_CARDS << (b >> 2))
        for _ in range((move >> b) & NIB):
            low = held & -held
            held ^= low
            mask ^= low
    return mask


@njit(cache=True, forceinline=True)
def next_active(seat: np.int64, active: np.ndarray) -> np.int64:
    """The next seat clockwise from ``seat`` that is still in the game."""
    last = active.shape[0] - 1
    s = seat
    for _ in range(last + 1):
        s += 1
        if s > last:
            s = 0
        if active[s]:
            return s
    return seat
