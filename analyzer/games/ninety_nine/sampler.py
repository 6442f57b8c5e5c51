"""Ninety-Nine's hidden-card sampler (compiled): redeal what a seat cannot see, uniformly over
the deals consistent with what it saw (docs/ninety-nine.md, "What is hidden, how it is sampled").

The seat knows its own hand, every card played this round and by whom, the stock size (so
when the stock was rebuilt, and from which cards) and who is still in. Nothing is read into
the others' choices beyond legality: a card played shows only that its player held it.
(The seat's own draws are not used either: a position does not give them; with one deck or
before any rebuild they carry no information about the other hands anyway.)

"Uniform" is over the physical shuffles of the distinguishable cards: with several decks the
identical copies of a card make the law of the codes hypergeometric, and that is the law of
every deal, every rebuilt stock and every draw here.

Three samplers, by what the bundle holds:

- ``resample_classes`` (one deck): every card is unique, so a hidden card belongs to the
  last stock it went into, and the other hands' slots are labelled with the stock they were
  drawn from (``Bundle.slab``); each class is shuffled over its places. Exact. Only the
  places in the other hands are drawn (``rng.shuffle_front``): the stock's cards are later
  drawn at uniform positions (``rng.draw_lazy``) with numbers that come after the sampler's,
  so their order changes nothing.
- ``resample_history`` (two or more decks): a played card may be any copy, held since any
  stock its player drew from, so the law is not a product of classes. This sampler draws the
  whole hidden history of the round (which held card each play used, the code of every card
  drawn) and accepts it with the probability that makes the accepted histories exactly
  uniform (below). It reads the round's play log (``Bundle.log``); its work area is a
  ``History`` (``scratch``), which the caller passes beside the bundle.
- ``resample_pooled``: every hidden card equally likely anywhere. What positions without a
  history assume (the pile since the last rebuild is all they say), and the fallback of a
  round whose play log overflowed (``LOG_CAP`` plays).

The history sampler. The unknowns are the codes of the *places*: the other seats' deal cards
and draws (and the seat's own: it is treated as one more player, whose final hand must be
the hand it holds), and the stock. Epoch ``k`` (the deal's stock for k = 0, the k-th rebuilt
stock after) spreads its known multiset ``R_k`` (the full decks; the pile it was rebuilt
from) uniformly over its places. A history is consistent when every play finds its card
among the three cards its player holds. The proposal walks the plays in order; each picks
which held place it used with probability proportional to ``f = (copies of the card still
unassigned in that place's epoch) / (unassigned places of that epoch)``, pins the card there,
and at the end every other place of each epoch is dealt its epoch's remaining cards
uniformly. That proposes a history x with probability ``1 / (F * prod_j S_j)`` per choice
path (F the number of fills with nothing pinned, S_j the sum of the f's at play j), and x is
reached by N(x) = prod_j (held copies of play j's card) paths. Accepting with probability
``prod_j (S_j / S_j^max) / N(x)``, where S_j^max bounds S_j over every path, leaves every
consistent history equally likely. Before any rebuild S_j is the same on every path, so the
acceptance is 1 / N(x) (N = 1 unless a player held two copies of a card it played).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer.games.ninety_nine.codes import HAND_SIZE, LOG_CAP, S_END, S_EPOCH, S_NACTIVE, S_NLOG, S_TOP
from analyzer.jit import njit
from analyzer.rng import shuffle, shuffle_front, uniform01

#: attempts of the history sampler before it gives up (and leaves the bundle as it was)
MAX_TRIES = 100_000
#: epochs (stocks) of a round the history sampler keeps; with two or more decks a stock
#: holds at least 74 cards, so LOG_CAP plays make at most 15 (more: the pooled fallback)
MAX_EPOCHS = 16
#: events of the history sampler: the logged plays and the seat's hand as three plays
MAX_EVENTS = LOG_CAP + HAND_SIZE


class History(NamedTuple):
    """The history sampler's work area (not state: never copied), preallocated because the
    play loops are compiled without numba's allocator (``_nrt=False``). Apart from the
    kernel's ``Bundle``: every field of a bundle is an argument of the play loop's every
    call, and these 22 arrays made Ninety-Nine's random play 7% slower (paired runs,
    2026-12-04). Allocated by ``scratch``; P = players, D = decks."""

    #: int64[MAX_EPOCHS, 52]: the cards of each epoch (``R_k``)
    pool: np.ndarray
    #: int64[MAX_EPOCHS, 52]: those not yet assigned
    avail: np.ndarray
    #: int64[MAX_EPOCHS]: the size of each epoch
    size: np.ndarray
    #: int64[MAX_EPOCHS]: its places not yet assigned
    free: np.ndarray
    #: int64[MAX_EPOCHS]: bounds: the most places pinned to each epoch so far
    mmax: np.ndarray
    #: int64[P, MAX_EPOCHS]: bounds: the places each seat drew from each epoch so far
    acq: np.ndarray
    #: int64[52]: bounds: the copies of each card surely pinned to the deal's epoch
    pmin0: np.ndarray
    #: float64[MAX_EPOCHS]: bounds: the largest f per epoch
    fmax: np.ndarray
    #: int64[MAX_EPOCHS]: bounds: places left per epoch
    left: np.ndarray
    #: int64[MAX_EVENTS]: per event (play) its seat
    ev_seat: np.ndarray
    #: int64[MAX_EVENTS]: per event its card
    ev_card: np.ndarray
    #: int64[MAX_EVENTS]: per event its epoch
    ep_before: np.ndarray
    #: int64[MAX_EVENTS]: per event the epoch of its draw
    ep_after: np.ndarray
    #: float64[MAX_EVENTS]: S_j^max of each event
    smax: np.ndarray
    #: int64[MAX_EVENTS, 3]: the places held at each event
    held_at: np.ndarray
    #: int64[3 P + LOG_CAP]: each place's epoch (-1: not dealt)
    place_ep: np.ndarray
    #: int64[3 P + LOG_CAP]: each place's card
    place_code: np.ndarray
    #: int64[P, 3]: the place in each slot of each seat
    slot_place: np.ndarray
    #: int64[52 D]: a pile replayed
    pile: np.ndarray
    #: int64[52 D]: an epoch's cards dealt
    deal: np.ndarray
    #: int64[52 D]: the stock
    spots: np.ndarray
    #: float64[3]: the proposal's weights of the held places
    weights: np.ndarray


@njit(cache=True)
def scratch(players, ncards):
    """The history sampler's work area (``History``) for ``players`` seats and ``ncards`` cards."""
    return History(np.zeros((MAX_EPOCHS, 52), dtype=np.int64), np.zeros((MAX_EPOCHS, 52), dtype=np.int64),
                   np.zeros(MAX_EPOCHS, dtype=np.int64), np.zeros(MAX_EPOCHS, dtype=np.int64),
                   np.zeros(MAX_EPOCHS, dtype=np.int64), np.zeros((players, MAX_EPOCHS), dtype=np.int64),
                   np.zeros(52, dtype=np.int64), np.zeros(MAX_EPOCHS, dtype=np.float64),
                   np.zeros(MAX_EPOCHS, dtype=np.int64), np.zeros(MAX_EVENTS, dtype=np.int64),
                   np.zeros(MAX_EVENTS, dtype=np.int64), np.zeros(MAX_EVENTS, dtype=np.int64),
                   np.zeros(MAX_EVENTS, dtype=np.int64), np.zeros(MAX_EVENTS, dtype=np.float64),
                   np.zeros((MAX_EVENTS, HAND_SIZE), dtype=np.int64),
                   np.zeros(HAND_SIZE * players + LOG_CAP, dtype=np.int64),
                   np.zeros(HAND_SIZE * players + LOG_CAP, dtype=np.int64),
                   np.zeros((players, HAND_SIZE), dtype=np.int64), np.zeros(ncards, dtype=np.int64),
                   np.zeros(ncards, dtype=np.int64), np.zeros(ncards, dtype=np.int64),
                   np.zeros(HAND_SIZE, dtype=np.float64))


@njit(cache=True, _nrt=False)
def resample_hidden(ws, hist, seat, rng):
    """Redeal what ``seat`` cannot see (the other hands ``ws.hands``, the stock
    ``ws.stock[top:end]``), uniformly over the deals consistent with what it saw.
    Returns False only if the history sampler found no consistent deal (bundle unchanged)."""
    if ws.stock.shape[0] == 52:
        resample_classes(ws, seat, rng)
        return True
    if ws.sc[S_NLOG] < 0 or ws.sc[S_EPOCH] >= MAX_EPOCHS:
        resample_pooled(ws, seat, rng)
        return True
    return resample_history(ws, hist, seat, rng)


# ---- pooled, and one deck: classes --------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def resample_pooled(ws, seat, rng):
    """Every hidden card equally likely anywhere: the other hands and the stock shuffled together."""
    hands, stock, active, order, sc = ws.hands, ws.stock, ws.active, ws.order, ws.sc
    n = 0
    for s in range(hands.shape[0]):
        if s != seat and active[s]:
            for c in range(HAND_SIZE):
                order[n] = hands[s, c]
                n += 1
    nslots = n
    for i in range(sc[S_TOP], sc[S_END]):
        order[n] = stock[i]
        n += 1
    shuffle_front(order, 0, nslots, n, rng)  # the stock's order is left to its lazy draws
    n = 0
    for s in range(hands.shape[0]):
        if s != seat and active[s]:
            for c in range(HAND_SIZE):
                hands[s, c] = order[n]
                n += 1
    for i in range(sc[S_TOP], sc[S_END]):
        stock[i] = order[n]
        n += 1


@njit(cache=True, _nrt=False, inline="always")
def _shuffle_class(ws, seat, label, with_stock, rng):
    """Deal the cards of one class again, uniformly over its places: the other hands' slots
    labelled ``label`` (and the stock when ``with_stock``)."""
    hands, stock, active, order, sc, slab, spos = ws.hands, ws.stock, ws.active, ws.order, ws.sc, ws.slab, ws.spos
    n = 0
    for s in range(hands.shape[0]):
        if s != seat and active[s]:
            for c in range(HAND_SIZE):
                if slab[s, c] == label:
                    spos[n] = HAND_SIZE * s + c
                    order[n] = hands[s, c]
                    n += 1
    nslots = n
    if with_stock:
        for i in range(sc[S_TOP], sc[S_END]):
            order[n] = stock[i]
            n += 1
    shuffle_front(order, 0, nslots, n, rng)  # the stock's order is left to its lazy draws
    for j in range(nslots):
        s = spos[j] // HAND_SIZE
        hands[s, spos[j] - HAND_SIZE * s] = order[j]
    if with_stock:
        k = nslots
        for i in range(sc[S_TOP], sc[S_END]):
            stock[i] = order[k]
            k += 1


@njit(cache=True, _nrt=False, inline="always")
def resample_classes(ws, seat, rng):
    """One deck: shuffle each class of hidden cards over its places (module docstring).

    Reads the slot labels ``ws.slab`` (the stock each card in a hand was drawn from: 0 the
    deal's, k the k-th rebuild's) and ``S_EPOCH`` (the current stock's number); writes the
    other hands and the stock. With one class (before any rebuild) this is the pooled sampler.
    """
    hands, active, sc, slab = ws.hands, ws.active, ws.sc, ws.slab
    epoch = sc[S_EPOCH]
    if epoch == 0:
        resample_pooled(ws, seat, rng)
        return
    _shuffle_class(ws, seat, epoch, True, rng)
    # the older classes, each once (newest first)
    done = epoch
    while True:
        label = np.int64(-1)
        for s in range(hands.shape[0]):
            if s != seat and active[s]:
                for c in range(HAND_SIZE):
                    lab = slab[s, c]
                    if lab < done and lab > label:
                        label = lab
        if label < 0:
            break
        _shuffle_class(ws, seat, label, False, rng)
        done = label


# ---- two or more decks: the whole hidden history ---------------------------------------------------

@njit(cache=True, _nrt=False)
def _epochs(ws, pool, size, ep_before, ep_after, pile):
    """Replay the play log: the multiset ``pool[k]`` and size ``size[k]`` of each epoch's cards
    (k = 0: the full decks; k >= 1: the pile the k-th stock was rebuilt from, its top card
    apart), and per play the epoch it was made in and the epoch of the draw after it.
    Returns False if the log does not lead to the bundle's stock (never, for a bundle the
    engine built)."""
    log, sc = ws.log, ws.sc
    ncards = ws.stock.shape[0]
    for c in range(52):
        for k in range(MAX_EPOCHS):
            pool[k, c] = 0
        pool[0, c] = ncards // 52
    size[0] = ncards
    left = ncards - HAND_SIZE * sc[S_NACTIVE]
    npile, e = 0, 0
    for i in range(sc[S_NLOG]):
        card = log[i, 1]
        ep_before[i] = e
        pile[npile] = card
        npile += 1
        if left == 0:  # the stock is rebuilt before this play's draw: all but the card just played
            e += 1
            for j in range(npile - 1):
                pool[e, pile[j]] += 1
            size[e] = npile - 1
            left = npile - 1
            pile[0] = card
            npile = 1
        left -= 1
        ep_after[i] = e
    return e == sc[S_EPOCH] and left == sc[S_END] - sc[S_TOP]


@njit(cache=True, _nrt=False)
def _bound(hist, q, epoch_now, card, held):
    """S^max: an upper bound of the sum of f over ``held`` held places of seat ``q`` when it
    plays ``card`` in epoch ``epoch_now``, over every proposal path. Each place of epoch k
    has f <= (copies of the card in R_k, less those surely pinned there) / (size of R_k, less
    the most places pinned there so far), and q holds at most ``acq[q, k]`` places of
    epoch k; the bound takes the ``held`` largest."""
    pool, size, pmin0, mmax, acq, fmax, left = (hist.pool, hist.size, hist.pmin0, hist.mmax, hist.acq,
                                                hist.fmax, hist.left)
    nep = epoch_now + 1
    for k in range(nep):
        copies = pool[k, card] - (pmin0[card] if k == 0 else 0)
        room = max(np.int64(1), size[k] - mmax[k])
        fmax[k] = min(1.0, max(copies, 0) / room)
        left[k] = acq[q, k]
    total = 0.0
    for _ in range(held):
        best = -1
        for k in range(nep):
            if left[k] > 0 and (best < 0 or fmax[k] > fmax[best]):
                best = k
        if best < 0:
            break
        total += fmax[best]
        left[best] -= 1
    return total


@njit(cache=True, _nrt=False)
def resample_history(ws, hist, seat, rng):
    """Two or more decks: draw the round's hidden history exactly uniformly among the
    consistent ones (module docstring) and deal its result: the other hands ``ws.hands`` and
    the stock ``ws.stock[top:end]``. Reads the play log ``ws.log[:S_NLOG]`` (seat, card),
    the seat's hand, who is in and the stock size. Returns False, leaving the bundle as it
    was, when no consistent history turns up in MAX_TRIES attempts."""
    hands, stock, active, sc, log = ws.hands, ws.stock, ws.active, ws.sc, ws.log
    pool, avail, size, free, acq, pmin0, mmax = (hist.pool, hist.avail, hist.size, hist.free, hist.acq,
                                                 hist.pmin0, hist.mmax)
    ev_seat, ev_card, ep_before, ep_after, smax = hist.ev_seat, hist.ev_card, hist.ep_before, hist.ep_after, hist.smax
    held_at, place_ep, place_code, slot_place = hist.held_at, hist.place_ep, hist.place_code, hist.slot_place
    deal, spots, weights = hist.deal, hist.spots, hist.weights
    players = hands.shape[0]
    nlog = sc[S_NLOG]
    nep = sc[S_EPOCH] + 1
    nev = nlog + HAND_SIZE  # the plays, then the seat's hand as three plays that draw nothing
    if not _epochs(ws, pool, size, ep_before, ep_after, hist.pile):
        return False
    for i in range(nlog):
        ev_seat[i], ev_card[i] = log[i, 0], log[i, 1]
    for j in range(HAND_SIZE):
        ev_seat[nlog + j], ev_card[nlog + j] = seat, hands[seat, j]
        ep_before[nlog + j] = nep - 1
    # the bounds S_j^max depend on nothing random: once per call
    for c in range(52):
        pmin0[c] = 0
    for k in range(MAX_EPOCHS):
        mmax[k] = 0
        for q in range(players):
            acq[q, k] = 0
    for q in range(players):
        if active[q]:
            acq[q, 0] = HAND_SIZE
    for j in range(nev):
        q, card, now = ev_seat[j], ev_card[j], ep_before[j]
        held = HAND_SIZE if j < nlog else HAND_SIZE - (j - nlog)
        smax[j] = _bound(hist, q, now, card, held)
        if now == 0:
            pmin0[card] += 1
        for k in range(now + 1):
            mmax[k] += 1
        if j < nlog:
            acq[q, ep_after[j]] += 1
    top, end = sc[S_TOP], sc[S_END]
    for _ in range(MAX_TRIES):
        for k in range(nep):
            free[k] = size[k]
            for c in range(52):
                avail[k, c] = pool[k, c]
        n = 0
        for q in range(players):
            for s in range(HAND_SIZE):
                slot_place[q, s] = -1
                if active[q]:
                    slot_place[q, s] = n
                    place_ep[n], place_code[n] = 0, -1
                    n += 1
        accept = 1.0
        stuck = False
        # the plays in order: which held place each used, and its card pinned there
        for j in range(nev):
            q, card = ev_seat[j], ev_card[j]
            total = 0.0
            for s in range(HAND_SIZE):
                p = slot_place[q, s]
                held_at[j, s] = p
                weights[s] = 0.0
                if p >= 0:
                    e = place_ep[p]
                    weights[s] = avail[e, card] / free[e]
                total += weights[s]
            if total <= 0.0:
                stuck = True
                break
            u = uniform01(rng) * total
            pick = -1
            for s in range(HAND_SIZE):
                if weights[s] > 0.0:
                    pick = s
                    u -= weights[s]
                    if u < 0.0:
                        break
            p = slot_place[q, pick]
            e = place_ep[p]
            place_code[p] = card
            avail[e, card] -= 1
            free[e] -= 1
            accept *= total / smax[j]
            if j < nlog:  # the draw after the play fills the slot with a place of its epoch
                slot_place[q, pick] = n
                place_ep[n], place_code[n] = ep_after[j], -1
                n += 1
            else:
                slot_place[q, pick] = -1
        if stuck:
            continue
        # every other place: its epoch's remaining cards, uniformly (the stock with the current epoch)
        for e in range(nep):
            m = 0
            for c in range(52):
                for _k in range(avail[e, c]):
                    deal[m] = c
                    m += 1
            shuffle(deal, 0, m, rng)
            k = 0
            for q in range(players):
                for s in range(HAND_SIZE):
                    p = slot_place[q, s]
                    if p >= 0 and place_ep[p] == e:
                        place_code[p] = deal[k]
                        k += 1
            if e == nep - 1:
                for i in range(top, end):
                    spots[i - top] = deal[k]
                    k += 1
            if k != m:  # the places do not match the cards: a bundle the engine did not build
                return False
        # N(x): the choice paths that lead to this history
        paths = 1.0
        for j in range(nev):
            h = 0
            for s in range(HAND_SIZE):
                p = held_at[j, s]
                if p >= 0 and place_code[p] == ev_card[j]:
                    h += 1
            paths *= h
        if uniform01(rng) * paths >= accept:
            continue
        for q in range(players):
            if q != seat and active[q]:
                for s in range(HAND_SIZE):
                    hands[q, s] = place_code[slot_place[q, s]]
        for i in range(top, end):
            stock[i] = spots[i - top]
        return True
    return False
