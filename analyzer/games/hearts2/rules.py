"""Two-player Hearts rules, compiled: deck, bit tricks, legal moves, tricks, scoring.

A hand is an int64 bit mask over card codes (``suit * 13 + rank``, docs/rules.md conventions);
only the 28 codes of ranks 2 4 6 8 T Q A exist in this game. Masks stay below 2**52, so
int64 arithmetic never touches the sign bit (cheaper and simpler to type in numba than
uint64, which turns into float64 when mixed with an int64 constant).

The bit helpers (``popcount``, ``lowest``, ``highest``, ``nth_bit``) are the shared ones of
analyzer/bits.py.

Kernel parameter array (``params``), in the order of the spec's options: ``[target]``.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import lowest, nth_bit, popcount
from analyzer.jit import njit
from analyzer.rng import next_u64_w, randbelow_w

P_TARGET = 0

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RANK_INDEXES = (0, 2, 4, 6, 8, 10, 12)  # 2 4 6 8 T Q A
#: the 28 card codes of the deck, suit by suit, low to high
DECK_CODES = np.array([s * 13 + r for s in range(4) for r in RANK_INDEXES], dtype=np.int64)
DECK_SIZE = 28
HAND_SIZE = 13
TRICKS = 13
DECK_MASK = 0
for _c in DECK_CODES:
    DECK_MASK |= 1 << int(_c)
SUIT_BITS = (1 << 13) - 1
#: mask of each suit (deck cards only)
SUIT_MASK = np.array([(SUIT_BITS << (13 * s)) & DECK_MASK for s in range(4)], dtype=np.int64)
HEART_MASK = int(SUIT_MASK[HEARTS])
NON_HEART_MASK = DECK_MASK & ~HEART_MASK
#: mask of each rank index 0..12 across the four suits (deck ranks only)
RANK_MASK = np.array([sum(1 << (s * 13 + r) for s in range(4)) & DECK_MASK for r in range(13)], dtype=np.int64)
QS = SPADES * 13 + 10
QS_BIT = 1 << QS
C2, C4, C6 = 0, 2, 4
#: the cards that can lead a hand's first trick (2C, or 4C when 2C is dead, or 6C)
FIRST_LEADS = (1 << C2) | (1 << C4) | (1 << C6)
#: cards out of play each hand (the top and the last card of the deck)
DEAD_CARDS = 2
#: suit of a card code, the mask of that suit, and the points of the card
SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
SUIT_MASK_OF = np.array([int(SUIT_MASK[c // 13]) for c in range(52)], dtype=np.int64)
CARD_POINTS = np.array([13 if c == QS else (1 if c // 13 == HEARTS else 0) for c in range(52)], dtype=np.int64)
TOTAL_POINTS = 20
MOON_PENALTY = 20


# ---- bit tricks ----------------------------------------------------------------------

@njit(cache=True)
def mask_to_codes(x: np.int64, codes: np.ndarray) -> np.int64:
    """Write the card codes of ``x`` (low to high) into ``codes``; returns how many."""
    n = 0
    while x:
        b = x & -x
        codes[n] = lowest(b)
        n += 1
        x ^= b
    return n


# ---- deal ----------------------------------------------------------------------------

_U32 = np.uint64(0xFFFFFFFF)
_U32S = np.uint64(32)
#: Lemire's rejection thresholds (2**32 - n) % n for n = 0..28 (a table: no ``%`` in the loop)
LEMIRE_THRESHOLD = np.array([0] + [((1 << 32) - n) % n for n in range(1, DECK_SIZE + 1)], dtype=np.uint64)


@njit(cache=True, inline="always")
def xoshiro(s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64) -> tuple:
    """One step of the shared generator (analyzer.rng.next_u64_w, xoshiro256**) on a state
    held in scalars: (output, s0, s1, s2, s3). Hot loops load the state once and store it
    back once."""
    x, w = next_u64_w((s0, s1, s2, s3))
    return x, w[0], w[1], w[2], w[3]


@njit(cache=True, inline="always")
def randbelow_state(n: np.int64, s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64) -> tuple:
    """Uniform integer in ``[0, n)`` (analyzer.rng.randbelow_w: Lemire, exactly unbiased,
    from the high 32 bits of one output) on a state held in scalars: (value, s0, s1, s2, s3)."""
    k, w = randbelow_w((s0, s1, s2, s3), n)
    return k, w[0], w[1], w[2], w[3]


@njit(cache=True, inline="always")
def swap_in(deck: np.ndarray, pos: np.int64, m: np.uint64) -> np.int64:
    """One Fisher-Yates step: the card ``m >> 32`` places after ``pos`` (a Lemire product)
    is swapped into ``deck[pos]``; returns it."""
    j = pos + np.int64(m >> _U32S)
    card = deck[j]
    deck[j] = deck[pos]
    deck[pos] = card
    return card


@njit(cache=True, _nrt=False)
def shuffle_deal(deck: np.ndarray, rng: np.ndarray, dealer: np.int64, hands: np.ndarray) -> np.int64:
    """Shuffle ``deck`` (28 codes) in place from the stream ``rng`` and deal it.

    A forward Fisher-Yates shuffle: position ``pos`` takes a uniform card of
    ``deck[pos:]``, drawn exactly without bias by Lemire's method from 32-bit halves of
    xoshiro256** outputs (high half first), the state kept in registers. The shuffled
    deck is then dealt as :func:`deal_masks` does; returns the dead-card mask.

    Two positions per output while no half is rejected (each is, with probability below
    28 / 2**32): the general one-half-at-a-time loop then takes over from where the pairs
    stopped, with the same halves, so the deal is the same either way.
    """
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    a = 0  # odd positions: the non-dealer's hand
    b = 0  # even positions: the dealer's hand, and the first dead card (removed at the end)
    spare = np.uint64(0)
    have = False
    pos = 0
    while pos < DECK_SIZE - 2:
        x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        m = (x >> _U32S) * np.uint64(DECK_SIZE - pos)
        if (m & _U32) < LEMIRE_THRESHOLD[DECK_SIZE - pos]:
            spare = x & _U32  # the retry for ``pos`` takes the low half
            have = True
            break
        b |= 1 << swap_in(deck, pos, m)
        m = (x & _U32) * np.uint64(DECK_SIZE - 1 - pos)
        if (m & _U32) < LEMIRE_THRESHOLD[DECK_SIZE - 1 - pos]:
            pos += 1
            break
        a |= 1 << swap_in(deck, pos + 1, m)
        pos += 2
    for p in range(pos, DECK_SIZE - 1):  # the last position, or the rest after a rejection
        bound = np.uint64(DECK_SIZE - p)
        limit = LEMIRE_THRESHOLD[DECK_SIZE - p]
        while True:
            if have:
                r = spare
                have = False
            else:
                x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
                r = x >> _U32S
                spare = x & _U32
                have = True
            m = r * bound
            if (m & _U32) >= limit:
                break
        card = swap_in(deck, p, m)
        if p & 1:
            a |= 1 << card
        else:
            b |= 1 << card
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    hands[1 - dealer] = a
    hands[dealer] = b ^ (1 << deck[0])
    return (1 << deck[0]) | (1 << deck[DECK_SIZE - 1])


@njit(cache=True)
def deal_masks(deck: np.ndarray, dealer: np.int64, hands: np.ndarray) -> np.int64:
    """Hands from a shuffled ``deck`` (28 codes, top first); returns the dead-card mask.

    The top card is dead, then 13 cards each one at a time starting with the non-dealer,
    and the last card is dead.
    """
    a = 0  # non-dealer
    b = 0  # dealer
    for i in range(1, 27, 2):
        a |= 1 << deck[i]
        b |= 1 << deck[i + 1]
    hands[1 - dealer] = a
    hands[dealer] = b
    return (1 << deck[0]) | (1 << deck[27])


@njit(cache=True)
def first_lead(dead: np.int64) -> np.int64:
    """The forced first lead: 2C, or 4C when 2C is dead, or 6C when both are."""
    if not dead & (1 << C2):
        return C2
    if not dead & (1 << C4):
        return C4
    return C6


# ---- legal moves ---------------------------------------------------------------------

@njit(cache=True, inline="always")
def hearts_broken(hand0: np.int64, hand1: np.int64, dead: np.int64) -> bool:
    """At a lead: has a heart been played to an earlier trick? (A heart that is neither
    held nor dead was played.)"""
    return (HEART_MASK & ~(hand0 | hand1 | dead)) != 0


@njit(cache=True, inline="always")
def legal_lead(hand: np.int64, broken: bool) -> np.int64:
    """Leads allowed (not the first trick's): no heart before hearts are broken, unless
    the hand holds only hearts. QS may always be led."""
    if broken:
        return hand
    rest = hand & NON_HEART_MASK
    return rest if rest else hand


@njit(cache=True, inline="always")
def follow_mask(led: np.int64) -> np.int64:
    """The mask of the suit of the card ``led``."""
    return SUIT_MASK_OF[led]


@njit(cache=True, inline="always")
def legal_follow(hand: np.int64, follow: np.int64) -> np.int64:
    """Follow the suit led (``follow``: its mask) if able, else any card; QS is no
    exception to following."""
    same = hand & follow
    return same if same else hand


@njit(cache=True, inline="always")
def second_wins(led: np.int64, card: np.int64, follow: np.int64) -> bool:
    """Does the follower's ``card`` beat the ``led`` card (``follow``: the mask of its
    suit)? The higher card of the suit led, or any heart on a non-heart lead: hearts are
    trump."""
    if (1 << card) & follow:
        return card > led
    return ((1 << card) & HEART_MASK) != 0


@njit(cache=True, inline="always")
def trick_points(led: np.int64, card: np.int64) -> np.int64:
    """Points of a trick: 1 per heart, 13 for QS."""
    return CARD_POINTS[led] + CARD_POINTS[card]


@njit(cache=True, inline="always")
def mask_points(x: np.int64) -> np.int64:
    """Points of the cards in mask ``x``: 1 per heart, 13 for QS."""
    return popcount(x & HEART_MASK) + (13 if x & QS_BIT else 0)


@njit(cache=True)
def hand_score(taken0: np.int64, taken1: np.int64) -> tuple:
    """(points seat 0, points seat 1, moon seat or -1) from the points taken in tricks.

    Every point card in play is taken by someone, so a player who took no point at all
    leaves every point card in play (dead cards excluded) to the other: a moon, scored
    0 for the shooter and 20 for the opponent.
    """
    if taken0 == 0 and taken1 > 0:
        return MOON_PENALTY, 0, 1
    if taken1 == 0 and taken0 > 0:
        return 0, MOON_PENALTY, 0
    return taken0, taken1, -1


@njit(entry=True, cache=True)
def game_winners(score0: np.int64, score1: np.int64, target: np.int64) -> np.int64:
    """Winning seats as a bit mask once a hand ends, or 0 if the game goes on.

    The game ends after a hand in which a player reaches ``target``: the lower score
    wins. Equal scores (both at or over the target) play further hands.
    """
    if score0 < target and score1 < target:
        return 0
    if score0 < score1:
        return 1
    if score1 < score0:
        return 2
    return 0


# ---- one play at a time (shared by every driver: games, Monte Carlo, evaluation) -----

#: point cards: the hearts and QS
POINT_MASK = HEART_MASK | QS_BIT
#: cards known to be dead from the first lead alone: below 4C, 2C; below 6C, 2C and 4C
KNOWN_DEAD = np.zeros(52, dtype=np.int64)
KNOWN_DEAD[C4] = 1 << C2
KNOWN_DEAD[C6] = (1 << C2) | (1 << C4)


@njit(cache=True, inline="always")
def legal_now(hand: np.int64, trick: np.int64, first: np.int64, led: np.int64, h0: np.int64, h1: np.int64,
              dead: np.int64) -> np.int64:
    """Legal cards of the player to move (``led`` < 0: leading trick ``trick``)."""
    if led >= 0:
        return legal_follow(hand, follow_mask(led))
    if trick == 0:
        return 1 << first
    return legal_lead(hand, hearts_broken(h0, h1, dead))


@njit(cache=True, inline="always")
def end_trick(leader: np.int64, led: np.int64, card: np.int64, taken0: np.int64, taken1: np.int64,
              ntr0: np.int64) -> tuple:
    """Resolve a trick: (winner, taken0, taken1, tricks won by seat 0), branch-free."""
    winner = leader ^ np.int64(second_wins(led, card, follow_mask(led)))
    pts = trick_points(led, card)
    return winner, taken0 + (pts & (winner - 1)), taken1 + (pts & -winner), ntr0 + 1 - winner


@njit(cache=True, inline="always")
def play_card(seat: np.int64, card: np.int64, h0: np.int64, h1: np.int64, leader: np.int64, trick: np.int64,
              led: np.int64, taken0: np.int64, taken1: np.int64, ntr0: np.int64) -> tuple:
    """``seat`` plays ``card``: it leaves the seat's hand; it is led, or it ends the trick
    (``end_trick``: the winner leads the next). Returns (h0, h1, leader, trick, led, taken0,
    taken1, ntr0), branch-free on the hands."""
    flip = 1 << card
    h0 ^= flip & (seat - 1)
    h1 ^= flip & -seat
    if led < 0:
        return h0, h1, leader, trick, card, taken0, taken1, ntr0
    leader, taken0, taken1, ntr0 = end_trick(leader, led, card, taken0, taken1, ntr0)
    return h0, h1, leader, trick + 1, -1, taken0, taken1, ntr0


@njit(cache=True, inline="always")
def shown_void(trick: np.int64, led: np.int64, card: np.int64, broken: bool) -> np.int64:
    """Cards a play shows its player no longer holds (public inference): the suit led,
    when the player does not follow it; every non-heart (QS included), when the player
    leads a heart before hearts are broken (allowed only holding nothing else)."""
    if led >= 0:
        follow = follow_mask(led)
        return 0 if (1 << card) & follow else follow
    if trick > 0 and not broken and (1 << card) & HEART_MASK:
        return NON_HEART_MASK
    return 0


@njit(cache=True)
def sample_hidden(pool: np.int64, forced: np.int64, r0: np.uint64, r1: np.uint64, r2: np.uint64,
                  r3: np.uint64) -> tuple:
    """Deal the cards a seat cannot see: (opponent's hand, dead cards, stream state).

    ``pool``: the cards neither held by the seat nor played (the opponent's hand and the
    2 dead cards); ``forced``: those of them that must be dead (in a suit the opponent
    showed void in, or dead by the first lead). The other dead cards (2 - |forced|) are
    a uniform choice among the rest: every deal consistent with what the seat saw is
    equally likely (exact; no rejection).
    """
    s0, s1, s2, s3 = r0, r1, r2, r3  # (inlined functions mishandle reassigned arguments)
    free = pool & ~forced
    dead = forced
    for _ in range(2 - popcount(forced)):
        k, s0, s1, s2, s3 = randbelow_state(popcount(free), s0, s1, s2, s3)
        c = 1 << nth_bit(free, k)
        dead |= c
        free ^= c
    return pool & ~dead, dead, s0, s1, s2, s3
