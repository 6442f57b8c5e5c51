"""10-Point Pitch built-in strategies (compiled). Each reads only what its seat may see:
its own cards, the bids, the trump, the number of cards each player was dealt in the
refill, and the trumps played so far. Trumps are 16-bit strength masks (rules.py).

- ``random``: uniform over the legal moves in every decision (bid, trump, keep or give,
  discard, play).
- ``heuristic``: a rule-of-thumb player:
  1. *Hand evaluation.* For each suit it sums, in tenths of a point, a weight for each
     trump it would hold: A 16, K 9, Q 7, J 8, off-jack 7, HJ 6, LJ 5, T 4, 9..4 2 each,
     3 12, 2 5. The best suit is the one with the highest sum (lowest suit on a tie). The
     estimate is (that sum + the partner's expected share) // 10; the share is the
     strategy parameter ``partner`` (tenths of a point, default 25: ``heuristic:partner=35``
     bids more boldly).
  2. *Bid.* It bids its estimate (at most 10) when it is at least 4 and above the highest
     bid so far, except that it lets a partner's highest bid stand unless its estimate is
     2 above it; a sum of 110 or more bids moon. Otherwise it passes (a stuck dealer bids 4).
  3. *Trump.* It names its best suit.
  4. *Keep or give.* It gives the rest of the stock to its partner when it already holds
     six trumps and the partner was dealt cards in the refill (so may hold fewer than
     six); otherwise it keeps it.
  5. *Discard.* It discards its lowest non-point trump; holding only point cards, the
     least valuable: 2, T, LJ, HJ, off-jack, J, 3, then A.
  6. *Play.* Leading, it leads its highest trump when no unseen trump is higher (it
     cannot be beaten), else its lowest non-point trump. Following: when its partner is
     winning the trick and nobody after it can beat the partner (it plays last, or the
     partner's card is higher than every unseen trump), it protects its points by
     playing a point card (3 first, then 2, T, LJ, HJ, off-jack, J; never the ace);
     when it plays last and can win, it wins with its lowest winning trump if the trick
     holds points or that trump is a point card; when others follow, it wins a trick
     holding points with its lowest unbeatable trump; otherwise it plays its lowest
     non-point trump, or, holding only point cards, the least valuable as in 5.
- ``mc`` (parameters ``k`` = 32 samples, ``base`` = heuristic): Monte Carlo, in kernel.py
  (``mc_move``): each legal move played on K samples of the hidden cards and rolled out to
  the end of the hand with the base strategy; the best mean of its team's score change
  minus the other team's.
- ``pimc`` (parameters ``k`` = 16 worlds, ``base`` = heuristic): perfect-information Monte
  Carlo in the play phase, in kernel.py (``pimc_move``): K samples of the hidden trumps,
  each solved exactly with every hand open (solver.py), the card with the best mean of
  its team's points played; bids, trump, keep or give and discards are the base's.
- ``ismcts`` (id ``ISMCTS``; parameters ``iterations``, ``base``, ``explore`` in hundredths,
  ``hands`` and ``search``, their defaults and bounds in spec.py, the codes in codes.py):
  information-set Monte Carlo tree search (analyzer.ismcts for the tree), playouts by the base
  strategy, each seat's team's result backed up; it lives in kernel.py (``ismcts_move``).
  ``hands`` says what a playout is worth: ``WHOLE_GAME`` (1000) the game's result, 1 or 0 when
  the hand ends the game (``score_hand``'s rule), else the team's chance to win from the
  scores the hand leaves, the share of wins of ``FUTURES`` playouts of the rest of the game
  shared by every iteration that ends the hand with the same score changes and the same for
  every ending (common random numbers: ``hand_future``); ``MATCH_EQUITY`` (0, the default)
  this hand, then the chance to win read from the match-equity table (met.py), with the
  exploration scaled to the table's value per point at the decision's scores
  (``kernel.met_slope``); 1 to 999 that many hands, then 0.5 plus the score margin.
  ``search`` says which decisions it searches: 1 the play only (the others are the base's, as
  ``pimc``'s), 2 every decision, 3 every decision with the tree kept to the decision's phase
  (a bid's tree holds the bidding; the base plays on from the trump).
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import highest, nth_bit, popcount
from analyzer.games.pitch10.rules import (
    FULL16,
    MOON,
    MOVE_BID0,
    MOVE_GIVE,
    MOVE_KEEP,
    MOVE_PASS,
    NONPOINT_MASK16,
    POINT_MASK16,
    low_bit,
    trumps_of,
)
from analyzer.jit import njit
from analyzer.rng import randbelow, randbelow_w

RANDOM, HEURISTIC, MC, PIMC, ISMCTS = 0, 1, 2, 3, 4
#: ids from here on are search strategies, compiled only into runs that use one (engine.search_tier)
SEARCH = MC

#: heuristic weight (tenths of a point) of the trump of each strength 0..15 (2..A)
WEIGHT16 = np.array([5, 12, 2, 2, 2, 2, 2, 2, 4, 5, 6, 7, 8, 7, 9, 16], dtype=np.int64)
PARTNER_SHARE = 25
MOON_SUM = 110
#: strengths in the order the heuristic gives points away or throws them out
LOSE_ORDER = np.array([0, 8, 9, 10, 11, 12, 1, 15], dtype=np.int64)
#: strengths in the order it plays points onto its partner's trick (never the ace)
PROTECT_ORDER = np.array([1, 0, 8, 9, 10, 11, 12], dtype=np.int64)


@njit(cache=True)
def random_index(n: np.int64, rng: np.ndarray) -> np.int64:
    return randbelow(rng, n)


@njit(cache=True)
def random_trump_card(h16: np.int64, rng: np.ndarray) -> np.int64:
    """Uniform over the trumps held: the strength of the chosen one."""
    return nth_bit(h16, randbelow(rng, popcount(h16)))


@njit(cache=True)
def random_trump_card_w(h16: np.int64, words: tuple) -> tuple:
    """``random_trump_card`` on the stream's words (rng.load_words): (strength, words)."""
    i, w = randbelow_w(words, popcount(h16))
    return nth_bit(h16, i), w


@njit(cache=True)
def suit_value(h16: np.int64) -> np.int64:
    v = 0
    for k in range(16):
        if (h16 >> k) & 1:
            v += WEIGHT16[k]
    return v


@njit(cache=True)
def best_suit(hand54: np.int64) -> tuple:
    """(suit, value in tenths) of the best trump suit for a 54-bit hand."""
    best, value = 0, -1
    for t in range(4):
        v = suit_value(trumps_of(hand54, t))
        if v > value:
            best, value = t, v
    return best, value


@njit(cache=True)
def heuristic_bid(hand54: np.int64, high: np.int64, partner_high: bool, stuck: bool,
                  share: np.int64) -> np.int64:
    """Bid move for a hand given the highest bid so far (0 none), whether the partner
    holds it, and the partner's expected share in tenths (strategy parameter)."""
    if stuck:
        return MOVE_BID0 + 4
    _, value = best_suit(hand54)
    value += share
    if value >= MOON_SUM:
        return MOVE_BID0 + MOON
    est = value // 10
    if est > 10:
        est = 10
    if est < 4 or est <= high:
        return MOVE_PASS
    if partner_high and est < high + 2:
        return MOVE_PASS
    return MOVE_BID0 + est


@njit(cache=True)
def heuristic_give(own16: np.int64, partner_received: np.int64) -> np.int64:
    if popcount(own16) >= 6 and partner_received > 0:
        return MOVE_GIVE
    return MOVE_KEEP


@njit(cache=True)
def least_valuable(h16: np.int64) -> np.int64:
    """Strength of the trump the heuristic parts with most easily."""
    m = h16 & NONPOINT_MASK16
    if m:
        return low_bit(m)
    for i in range(LOSE_ORDER.shape[0]):
        if (h16 >> LOSE_ORDER[i]) & 1:
            return LOSE_ORDER[i]
    return low_bit(h16)


@njit(cache=True)
def heuristic_discard(h16: np.int64) -> np.int64:
    return least_valuable(h16)


@njit(cache=True)
def heuristic_play(h16: np.int64, seen16: np.int64, seat: np.int64, win_k: np.int64, win_seat: np.int64,
                   trick_points: np.int64, later: bool) -> np.int64:
    """Strength to play. ``seen16``: trumps played so far (this trick included);
    ``win_k``/``win_seat``: the trick's best card so far (-1 when leading); ``later``:
    whether a player plays after this one in the trick."""
    unseen = FULL16 & ~seen16 & ~h16
    top_unseen = highest(unseen)
    if win_k < 0:
        hb = highest(h16)
        if hb > top_unseen:
            return hb
        return least_valuable(h16)
    partner = win_seat != seat and (win_seat & 1) == (seat & 1)
    if partner and (not later or win_k > top_unseen):
        for i in range(PROTECT_ORDER.shape[0]):
            if (h16 >> PROTECT_ORDER[i]) & 1:
                return PROTECT_ORDER[i]
        return least_valuable(h16)
    above = h16 & ~((1 << (win_k + 1)) - 1)
    if above:
        if not later:
            k = low_bit(above)
            if trick_points > 0 or (POINT_MASK16 >> k) & 1:
                return k
        elif trick_points > 0:
            sure = above & ~((1 << (top_unseen + 1)) - 1) if top_unseen >= 0 else above
            if sure:
                return low_bit(sure)
    return least_valuable(h16)
