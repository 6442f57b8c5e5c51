"""Two-Ten-Jack rules, compiled: legal moves, trick resolution and card points.

Hands, cards taken and cards played are int64 bit masks over card codes
(``suit * 13 + rank``, suits C D H S = 0..3, ranks 0..12 = 2..A), so following suit is a
mask and choosing a card is a bit scan.

Move codes (docs/record.md): a card code 0..51 plays that card (``51`` is ``"AS"`` when
following). Leading the ace of spades is one of two moves: ``AS_SPADE`` (60, ``"AS:spade"``)
or ``AS_TRUMP`` (61, ``"AS:trump"``); the declared suit is the suit led. Codes 52/53 are
the jokers of ``cards.py`` and are never used here. A set of legal moves is an int64 mask
over move codes (bits 0..51, 60, 61).

Kernel parameter array (``params``), in the order of the spec's options: ``[target]``.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import FAST_DEPOSIT, njit  # first: it sets numba's cache folder before numba loads

from analyzer.bits import lowest, nth_bit, popcount  # noqa: E402,I001

P_TARGET = 0

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TRUMP = HEARTS
ACE_SPADES = 51  # card code of AS
AS_SPADE, AS_TRUMP = 60, 61  # move codes of leading AS
HAND_SIZE = 6
STOCK_SIZE = 40
TRICKS = 26

#: suit and rank of each card code (lookup tables: no signed ``//`` or ``%`` in hot code)
SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)

SUIT_MASK = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.int64)
AS_BIT = np.int64(1) << np.int64(ACE_SPADES)
#: trumps: the hearts and AS
TRUMP_MASK = np.int64(SUIT_MASK[HEARTS] | (1 << ACE_SPADES))
#: cards that follow each suit led: AS counts as a spade and as a trump
FOLLOW_MASK = np.array([SUIT_MASK[CLUBS], SUIT_MASK[DIAMONDS], SUIT_MASK[HEARTS] | (1 << ACE_SPADES),
                        SUIT_MASK[SPADES]], dtype=np.int64)
AS_MOVES = np.int64((1 << AS_SPADE) | (1 << AS_TRUMP))


def _points(card: int) -> int:
    rank, suit = card % 13, card // 13
    if suit == HEARTS and rank in (0, 8, 9):  # 2H TH JH
        return 5
    if suit == CLUBS and rank in (0, 8, 9):  # 2C TC JC
        return -5
    if suit == SPADES and rank in (0, 8, 9, 12):  # 2S TS JS AS
        return 1
    if suit == DIAMONDS and rank == 4:  # 6D
        return 1
    return 0


def _trump_strength(card: int) -> int:
    if card == ACE_SPADES:
        return 14
    if card // 13 == HEARTS:
        return card % 13 + 1
    return 0


#: points of each card taken in a trick
CARD_POINTS = np.array([_points(c) for c in range(52)], dtype=np.int64)
#: trump strength: AS 14, AH 13, KH 12, ..., 2H 1; 0 for a card that is not a trump
TRUMP_STRENGTH = np.array([_trump_strength(c) for c in range(52)], dtype=np.int64)
PLUS5_MASK = np.int64(sum(1 << c for c in range(52) if _points(c) == 5))
MINUS5_MASK = np.int64(sum(1 << c for c in range(52) if _points(c) == -5))
PLUS1_MASK = np.int64(sum(1 << c for c in range(52) if _points(c) == 1))


#: the most moves a position can offer: 6 cards, AS counting twice when leading
MAX_MOVES = 7


@njit(cache=True, inline="always")
def nth_move(mask: np.int64, k: np.int64) -> np.int64:
    """``analyzer.bits.nth_bit`` for a move mask (at most ``MAX_MOVES`` bits), without a
    data-dependent branch: a fixed chain of steps clears the lowest bits one by one, and a
    conditional move keeps the step ``k`` result. A loop of ``k`` steps would mispredict its
    exit on most moves; the chain starts before ``k`` is drawn, which keeps it off the
    critical path. Where the CPU has a fast ``pdep`` it is ``nth_bit``'s one deposit
    instead (random play about 2% faster, paired runs, 2026-12-04)."""
    if FAST_DEPOSIT:
        return nth_bit(mask, k)
    m = mask
    kth = mask
    for i in range(1, MAX_MOVES):
        m &= m - 1  # ``mask`` without its i lowest bits: a chain that need not wait for k
        kth = m if i == k else kth
    return lowest(kth)


@njit(cache=True, inline="always")
def lead_moves(hand: np.int64) -> np.int64:
    """Legal leads: any card; AS only as one of its two declarations."""
    if hand & AS_BIT:
        return (hand ^ AS_BIT) | AS_MOVES
    return hand


@njit(cache=True, inline="always")
def follow_moves(hand: np.int64, suit_led: np.int64) -> np.int64:
    """Legal follows: the suit led (AS counts as a spade and as a trump), else a trump
    (a heart or AS), else anything."""
    # selects, not branches: which case applies is a coin flip the CPU cannot predict
    follow = hand & FOLLOW_MASK[suit_led]
    trumps = hand & TRUMP_MASK
    other = trumps if trumps else hand
    return follow if follow else other


@njit(cache=True, inline="always")
def lead_card(move: np.int64) -> np.int64:
    """The card a lead move plays."""
    if move >= AS_SPADE:
        return ACE_SPADES
    return move


@njit(cache=True, inline="always")
def suit_led(move: np.int64) -> np.int64:
    """The suit a lead move leads (the declaration for AS)."""
    if move == AS_SPADE:
        return SPADES
    if move == AS_TRUMP:
        return HEARTS
    return SUIT_OF[move]


@njit(cache=True, inline="always")
def follower_wins(lead: np.int64, follow: np.int64) -> bool:
    """True when the follower's card takes the trick.

    The highest trump wins if any trump was played (AS is a trump however declared);
    otherwise the higher card of the suit led (the suit of ``lead``, AS never being
    a non-trump)."""
    tf = TRUMP_STRENGTH[follow]
    tl = TRUMP_STRENGTH[lead]
    # non-short-circuit & and |: no branch on the (unpredictable) cards
    beats_plain = (tl == 0) & (SUIT_OF[follow] == SUIT_OF[lead]) & (RANK_OF[follow] > RANK_OF[lead])
    return (tf > tl) | beats_plain


@njit(cache=True, inline="always")
def mask_points(taken: np.int64) -> np.int64:
    """Points of the cards in ``taken``."""
    return (5 * popcount(taken & PLUS5_MASK) - 5 * popcount(taken & MINUS5_MASK)
            + popcount(taken & PLUS1_MASK))


@njit(cache=True, inline="always")
def round_winners(s0: np.int64, s1: np.int64, target: np.int64) -> np.int64:
    """Winners (seat bit mask) after a round with scores ``s0``, ``s1``; 0: play another.

    A player with ``target`` or more wins; both there: the higher score wins, and equal
    scores play another round."""
    if s0 >= target:
        if s1 >= target:
            if s0 > s1:
                return 1
            if s1 > s0:
                return 2
            return 0
        return 1
    if s1 >= target:
        return 2
    return 0
