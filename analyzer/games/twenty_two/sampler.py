"""Twenty-Two: exact counting and sampling of the hidden hands under the variant's
"could not match or beat" constraints (compiled; kernel.resample_hidden calls it).

The problem, as the kernel hands it over (all in a *description*, int64 array ``desc``):

- ``a[r]``: how many hidden cards of rank ``r`` there are (the pool: the other hands,
  the other seats' discards and the stock). Suits never matter, so the physical cards of a
  rank are interchangeable and a hand is counted by ranks.
- *DP seats* (at most MAX_DP): other hands with a size ``h``, a floor ``f`` (no card below
  rank ``f``) and *clauses* ``S(t) <= c``: the hand holds at most ``c`` cards of rank
  ``t`` or higher. A clause with flag -1 must hold; clauses sharing a flag form one "or"
  (at least one of them holds), checked at the flag's lowest threshold.
- *Nested seats* (at most MAX_ND): the other hands that have a size and a floor only.

A follower who could not match or beat ``b1 <= .. <= bs`` with its hand ``H`` at that
moment means: for some i, ``H`` holds at most ``s - i`` cards of rank ``>= b_i``. ``H`` is
the seat's current hand plus the cards it has played since (known), so each ``i`` is a
clause on the current hand (kernel.build_description folds the known cards in).

Counting (``dp_fill``) runs over the ranks from A down to 2; the state is, per DP seat, how
many cards of rank ``>= r`` it holds, plus the open "or" flags. A step at rank ``r``
gives ``x_p`` of the ``a[r]`` cards to DP seat ``p`` (``a! / (x_1! .. x_m! rest!)`` ways to
choose the physical cards) and, at a nested seat's floor, chooses that seat's cards among
the cards of rank ``>= floor`` left over (a binomial: the nested seats are taken highest
floor first, so the cards left above each floor do not depend on how the earlier nested
seats chose). The table holds, per rank and state, the number of physical deals that
complete it: every weight is a count of deals, so drawing the ranks forward in proportion
(``dp_draw``) and then the physical cards uniformly is exactly uniform over the deals.
Counts are float64 (relative rounding 1e-16: immaterial for sampling).
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.rng import uniform01

MAX_DP = 5
MAX_ND = 5
MAX_FLAGS = 12
MAX_CLAUSES = 256
#: float64 cells of the counting table (14 layers of states); larger problems move seats
#: from the table to rejection (kernel.resample_hidden)
TAB_SIZE = 1 << 16

# description layout
D_LEN, D_M, D_NFL, D_NCL, D_NND = 0, 1, 2, 3, 4
D_A = 8
D_H = D_A + 13
D_F = D_H + MAX_DP
D_NDF = D_F + MAX_DP
D_NDH = D_NDF + MAX_ND
D_FLR = D_NDH + MAX_ND
D_CL = D_FLR + MAX_FLAGS
DESC = D_CL + 4 * MAX_CLAUSES
#: work area of dp_fill/dp_draw (int64): strides, S, x, caps, cards above each rank
W_STRIDE, W_S, W_X, W_CAP, W_AGE, W_BEFORE = 0, 8, 16, 24, 32, 48
WORK = 64

FACT = np.array([1.0, 1.0, 2.0, 6.0, 24.0], dtype=np.float64)
BINOM = np.array([[float(math.comb(n, k)) for k in range(16)] for n in range(53)], dtype=np.float64)


@njit(cache=True, _nrt=False)
def _prepare(desc, wk):
    """Strides of the state encoding, cards at or above each rank, nested seats' offsets.
    Returns the number of states per layer."""
    m = desc[D_M]
    s = np.int64(1)
    for p in range(m):
        wk[W_STRIDE + p] = s
        s *= desc[D_H + p] + 1
    wk[W_STRIDE + MAX_DP] = s
    acc = 0
    for r in range(12, -1, -1):
        acc += desc[D_A + r]
        wk[W_AGE + r] = acc
    # nested seats come sorted by floor, highest first: cards taken before each one
    before = 0
    for k in range(desc[D_NND]):
        wk[W_BEFORE + k] = before
        before += desc[D_NDH + k]
    return s << desc[D_NFL]


@njit(cache=True, _nrt=False, inline="always")
def _decode(desc, wk, idx):
    """State ``idx`` into W_S (cards at or above the current rank per DP seat); returns the flags."""
    m = desc[D_M]
    for p in range(m):
        base = desc[D_H + p] + 1
        wk[W_S + p] = idx % base
        idx //= base
    return idx


@njit(cache=True, _nrt=False)
def _step(desc, wk, r, flags):
    """Give W_X to the DP seats at rank ``r`` from the state in W_S with ``flags``.

    Returns (ways, next state): ``ways`` the physical choices of this step (0: the step
    breaks a clause, a floor or a nested seat's room)."""
    m = desc[D_M]
    a = desc[D_A + r]
    ways = FACT[a]
    total = 0
    idx = np.int64(0)
    for p in range(m):
        x = wk[W_X + p]
        ways /= FACT[x]
        total += x
    ways /= FACT[a - total]
    held = 0
    for p in range(m):
        sp = wk[W_S + p] + wk[W_X + p]
        held += sp
        idx += sp * wk[W_STRIDE + p]
    for k in range(desc[D_NCL]):
        base = D_CL + 4 * k
        if desc[base + 1] != r:
            continue
        p = desc[base]
        ok = wk[W_S + p] + wk[W_X + p] <= desc[base + 2]
        g = desc[base + 3]
        if g < 0:
            if not ok:
                return 0.0, np.int64(-1)
        elif ok:
            flags |= np.int64(1) << g
    for g in range(desc[D_NFL]):
        if desc[D_FLR + g] == r:
            bit = np.int64(1) << g
            if flags & bit == 0:
                return 0.0, np.int64(-1)
            flags &= ~bit
    for k in range(desc[D_NND]):
        if desc[D_NDF + k] == r:
            room = wk[W_AGE + r] - held - wk[W_BEFORE + k]
            h = desc[D_NDH + k]
            if room < h:
                return 0.0, np.int64(-1)
            ways *= BINOM[room, h]
    return ways, idx + flags * wk[W_STRIDE + MAX_DP]


@njit(cache=True, _nrt=False, inline="always")
def _caps(desc, wk, r):
    """Most cards of rank ``r`` each DP seat can take from the state in W_S; W_X zeroed."""
    a = desc[D_A + r]
    for p in range(desc[D_M]):
        wk[W_X + p] = 0
        c = desc[D_H + p] - wk[W_S + p]
        if c > a:
            c = a
        if r < desc[D_F + p]:
            c = 0
        wk[W_CAP + p] = c


@njit(cache=True, _nrt=False, inline="always")
def _next_x(desc, wk, r):
    """Advance W_X to the next distribution of rank ``r`` (odometer); False when done."""
    m = desc[D_M]
    a = desc[D_A + r]
    p = 0
    while p < m:
        wk[W_X + p] += 1
        total = 0
        for q in range(m):
            total += wk[W_X + q]
        if wk[W_X + p] <= wk[W_CAP + p] and total <= a:
            return True
        wk[W_X + p] = 0
        p += 1
    return False


@njit(cache=True, _nrt=False)
def dp_fill(desc, tab, wk):
    """Fill ``tab`` with the completion counts of every state (see the module docstring).

    Reads ``desc``; writes ``tab`` (layer ``r + 1`` for the state before rank ``r`` is
    dealt, layer 0 the terminal check) and ``wk``. Returns the number of states per layer,
    or 0 when the table would not fit in ``tab``.
    """
    nst = _prepare(desc, wk)
    if 14 * nst > tab.shape[0]:
        return np.int64(0)
    m = desc[D_M]
    for idx in range(nst):
        flags = _decode(desc, wk, idx)
        full = flags == 0
        for p in range(m):
            if wk[W_S + p] != desc[D_H + p]:
                full = False
        tab[idx] = 1.0 if full else 0.0
    for r in range(13):
        below = r * nst
        here = (r + 1) * nst
        for idx in range(nst):
            flags = _decode(desc, wk, idx)
            _caps(desc, wk, r)
            total = 0.0
            while True:
                ways, nxt = _step(desc, wk, r, flags)
                if ways > 0.0:
                    total += ways * tab[below + nxt]
                if not _next_x(desc, wk, r):
                    break
            tab[here + idx] = total
    return nst


@njit(cache=True, _nrt=False)
def dp_draw(desc, tab, nst, wk, rng, counts, off):
    """Draw the DP seats' cards per rank, in proportion to the deals (``tab`` from
    ``dp_fill``). Writes ``counts[off + p * 13 + r]``; returns False when no deal fits."""
    m = desc[D_M]
    idx = np.int64(0)
    if tab[13 * nst] <= 0.0:
        return False
    for r in range(12, -1, -1):
        below = r * nst
        flags = _decode(desc, wk, idx)
        _caps(desc, wk, r)
        u = uniform01(rng) * tab[(r + 1) * nst + idx]
        acc = 0.0
        chosen = np.int64(-1)
        while True:
            ways, nxt = _step(desc, wk, r, flags)
            if ways > 0.0:
                w = ways * tab[below + nxt]
                if w > 0.0:
                    acc += w
                    chosen = nxt
                    for p in range(m):
                        counts[off + p * 13 + r] = wk[W_X + p]
                    if acc > u:
                        break
            if not _next_x(desc, wk, r):
                break
        if chosen < 0:
            return False
        idx = chosen
    return True
