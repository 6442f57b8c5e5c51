"""10-Point Pitch rules, compiled (docs/rules.md section 5).

Cards are the usual codes (``suit * 13 + rank``, ``LJ = 52``, ``HJ = 53``); a hand before
trump is named is an int64 bit mask over the 54 codes. Once trump ``t`` is named only the
16 trumps matter, and a hand becomes a 16-bit *strength mask*: bit ``k`` is the trump of
strength ``k``, from 0 (the 2) to 15 (the ace)::

    k:  0  1  2  3  4  5  6  7  8  9  10 11    12 13 14 15
        2  3  4  5  6  7  8  9  T  LJ HJ off-J J  Q  K  A

so the highest trump of a set is its highest bit and ``CARD_AT[t, k]`` is the card code.
Points by strength are the same for every trump suit (``POINTS16``): A, J, off-jack, HJ,
LJ, T and 2 one each, the 3 three.

Move codes, kinds, phases and the parameter layout are in ``codes.py`` (defined once).
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import lowest, popcount
from analyzer.games.pitch10.codes import (  # noqa: F401 (re-exported: the rules' names)
    ALL_POINTS,
    HAND_SIZE,
    HIGH_JOKER,
    KEEP,
    LOW_JOKER,
    LOWEST_BID,
    MOON,
    MOVE_BID0,
    MOVE_GIVE,
    MOVE_KEEP,
    MOVE_MOON,
    MOVE_PASS,
    MOVE_TRUMP0,
    NCARDS,
    P_TAKEN_VARIANT,
    P_TARGET,
)
from analyzer.jit import njit

FULL16 = 0xFFFF
ACE16 = 15  # the strength of the ace of trump, the highest
#: points of the trump of each strength
POINTS16 = np.array([1, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1], dtype=np.int64)
POINT_MASK16 = 0
for _k in range(16):
    if POINTS16[_k]:
        POINT_MASK16 |= 1 << _k
NONPOINT_MASK16 = FULL16 & ~POINT_MASK16
#: the other suit of the same colour (clubs-spades, diamonds-hearts)
SAME_COLOUR = np.array([3, 2, 1, 0], dtype=np.int64)
#: first ranks 2..T (index 0..8) map to strengths 0..8; J Q K A to 12..15
_RANK_STRENGTH = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15)
RANK_JACK = 9


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    strength = np.full((4, NCARDS), -1, dtype=np.int64)
    card_at = np.zeros((4, 16), dtype=np.int64)
    trump54 = np.zeros(4, dtype=np.int64)
    for t in range(4):
        for r in range(13):
            strength[t, t * 13 + r] = _RANK_STRENGTH[r]
        strength[t, SAME_COLOUR[t] * 13 + RANK_JACK] = 11
        strength[t, HIGH_JOKER] = 10
        strength[t, LOW_JOKER] = 9
        for c in range(NCARDS):
            k = strength[t, c]
            if k >= 0:
                card_at[t, k] = c
                trump54[t] |= 1 << c
    return strength, card_at, trump54


SUIT_SHIFT = np.array([0, 13, 26, 39], dtype=np.int64)
#: code of the off-jack of each trump suit
OFF_JACK = np.array([SAME_COLOUR[t] * 13 + RANK_JACK for t in range(4)], dtype=np.int64)
#: STRENGTH[t, card]: strength 0..15 of ``card`` when ``t`` is trump, -1 for a non-trump
#: CARD_AT[t, k]: the card of strength ``k``; TRUMP54[t]: the 16 trumps as a 54-bit mask
STRENGTH, CARD_AT, TRUMP54 = _tables()


@njit(cache=True)
def low_bit(x: np.int64) -> np.int64:
    """Index of the lowest set bit of a 16-bit mask, -1 for 0 (``analyzer.bits.lowest``
    gives 64 there)."""
    if x == 0:
        return -1
    return lowest(x)


@njit(cache=True)
def trumps_of(hand54: np.int64, trump: np.int64) -> np.int64:
    """The trumps of a 54-bit hand as a 16-bit strength mask (bit arithmetic: ranks 2..T
    keep their place, J Q K A move up 3 to make room for off-jack HJ LJ)."""
    run = (hand54 >> SUIT_SHIFT[trump]) & 0x1FFF
    off = (hand54 >> OFF_JACK[trump]) & 1
    return ((run & 0x1FF) | ((run >> 9) << 12) | (off << 11) | (((hand54 >> HIGH_JOKER) & 1) << 10)
            | (((hand54 >> LOW_JOKER) & 1) << 9))


@njit(cache=True)
def bid_options(high: np.int64, stuck: bool, legal: np.ndarray) -> np.int64:
    """Legal bid moves given the highest bid so far (0: none); ``stuck``: the dealer
    after three passes, whose only move is 4. Returns how many were written."""
    if stuck:
        legal[0] = MOVE_BID0 + LOWEST_BID
        return 1
    legal[0] = MOVE_PASS
    n = 1
    lo = high + 1 if high >= LOWEST_BID else LOWEST_BID
    for b in range(lo, MOON + 1):
        legal[n] = MOVE_BID0 + b
        n += 1
    return n


@njit(cache=True, forceinline=True)
def dealer_stuck(turn: np.int64, high: np.int64) -> bool:
    """Whether the bidder at ``turn`` (0 = left of the dealer) is the dealer after three
    passes, whose only bid is 4."""
    return turn == 3 and high == 0


@njit(cache=True, forceinline=True)
def rest_receiver(pitcher: np.int64, move: np.int64) -> np.int64:
    """Who gets the rest of the stock after the pitcher's give decision ``move``: the
    pitcher (keep) or its partner (give)."""
    return pitcher if move == MOVE_KEEP else (pitcher + 2) & 3


@njit(cache=True)
def first_with_trumps(seat: np.int64, h16: np.ndarray) -> np.int64:
    """``seat`` if it holds a trump, else the next seat clockwise that does; -1 if none."""
    s = seat
    for _ in range(4):
        if h16[s] != 0:
            return s
        s = (s + 1) & 3
    return -1


@njit(cache=True)
def refill_need(h16: np.int64) -> np.int64:
    """How many cards a player holding trumps ``h16`` is dealt to reach six (before the
    stock runs out)."""
    n = KEEP - popcount(h16)
    return n if n > 0 else 0


@njit(cache=True)
def score_round(bid: np.int64, taken_pitch: np.int64, taken_other: np.int64, score_pitch: np.int64,
                score_other: np.int64, scores_taken: bool) -> tuple:
    """Scores after a round for (pitcher's team, other team) and the round's outcome:
    0 play on, 1 the pitcher's team wins at once (moon made above 0), 2 it loses at once
    (moon missed). ``bid`` 4..10 or MOON."""
    if bid == MOON:
        if taken_pitch == ALL_POINTS:
            if score_pitch > 0:
                return score_pitch, score_other + taken_other, 1
            return 0, score_other + taken_other, 0
        # ruling: a missed moon leaves the bidders' score as it was; the others score
        # what they took, and the game is over
        return score_pitch, score_other + taken_other, 2
    if taken_pitch >= bid:
        gain = taken_pitch if scores_taken else bid
        return score_pitch + gain, score_other + taken_other, 0
    return score_pitch - bid, score_other + taken_other, 0


@njit(entry=True, cache=True)
def game_winner(scores: np.ndarray, pitcher_team: np.int64, outcome: np.int64, target: np.int64) -> np.int64:
    """The winning team after a round, or -1 when play goes on."""
    if outcome == 1:
        return pitcher_team
    if outcome == 2:
        return 1 - pitcher_team
    p = scores[pitcher_team] >= target
    o = scores[1 - pitcher_team] >= target
    if p:
        return pitcher_team
    if o:
        return 1 - pitcher_team
    return -1


@njit(entry=True, cache=True)
def score_from(bid: np.int64, taken_pitch: np.int64, taken_other: np.int64, scores_taken: bool,
               target: np.int64, score_pitch: np.ndarray, score_other: np.ndarray, new_pitch: np.ndarray,
               new_other: np.ndarray, winner: np.ndarray) -> None:
    """One round's outcome (the bid, the points each team took) scored from many scores at
    once, by ``score_round`` and ``game_winner``: for each i, the pitcher's team and the other
    team start at ``score_pitch[i]``, ``score_other[i]`` (int64[n]); writes their scores after
    the round to ``new_pitch[i]``, ``new_other[i]`` and the winner to ``winner[i]`` (-1 play
    goes on, 0 the pitcher's team, 1 the other). scripts/pitch10_met.py builds its Markov
    chain by it, so that the chain scores hands by the engine's rules."""
    scores = np.zeros(2, dtype=np.int64)
    for i in range(score_pitch.shape[0]):
        a, b, outcome = score_round(bid, taken_pitch, taken_other, score_pitch[i], score_other[i], scores_taken)
        scores[0], scores[1] = a, b
        new_pitch[i], new_other[i] = a, b
        winner[i] = game_winner(scores, 0, outcome, target)
