"""Ninety-Nine rules, compiled: moves, legality and their effect on the pile.

Suits never matter, so a hand is read as ranks (``card % 13``: 0..12 for 2..A). A move
code names a rank and, for A and T, the value chosen (docs/record.md)::

    0 "2"  1 "3"  2 "4"  3 "5"  4 "6"  5 "7"  6 "8"  7 "9"  8 "T+10"  9 "T-10"
    10 "J"  11 "Q"  12 "K"  13 "A+1"  14 "A+11"

Kernel parameter array (``params``), in the order of the spec's options:
``[players, decks, chips, out_at_zero_chips]``.
"""

from __future__ import annotations

import numpy as np

# the constants live once, in codes.py (shared with the Python side)
from analyzer.games.ninety_nine.codes import (  # noqa: F401 (re-exported for the kernel)
    HAND_SIZE,
    LIMIT,
    MOVE_DELTAS,
    MOVE_KING,
    MOVE_NAMES,
    MOVE_RANKS,
    MOVE_TEN_DOWN,
    N_MOVES,
    P_CHIPS,
    P_DECKS,
    P_OUT_AT_ZERO,
    P_PLAYERS,
    RANK_ACE,
    RANK_FOUR,
    RANK_KING,
    RANK_NINE,
    RANK_TEN,
)
from analyzer.jit import ix, njit

#: rank played by each move
MOVE_RANK = np.array(MOVE_RANKS, dtype=np.int64)
#: change of the total (K is handled apart: it sets the total to 99)
MOVE_DELTA = np.array(MOVE_DELTAS, dtype=np.int64)
#: first move code of each rank, and how many moves the rank has (A and T have two)
RANK_FIRST_MOVE = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13], dtype=np.int64)
RANK_MOVE_COUNT = np.array([1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 2], dtype=np.int64)
#: rank of a card code, as a table: Python-semantics ``%`` on signed ints is slow in numba
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)


@njit(cache=True, forceinline=True)
def total_after(total: np.int64, move: np.int64) -> np.int64:
    """The pile total after ``move`` (may exceed 99: the caller checks legality)."""
    if move == MOVE_KING:
        return LIMIT
    return total + MOVE_DELTA[ix(move)]


def _legal_at(total: int) -> int:
    """Bit mask of the move codes that are legal on a pile of ``total``: a move is legal iff
    the total stays at most 99, and T-10 only from 10 up (never below 0)."""
    mask = 0
    for move in range(N_MOVES):
        if move == MOVE_TEN_DOWN:
            ok = total >= 10
        else:
            ok = (LIMIT if move == MOVE_KING else total + MOVE_DELTA[move]) <= LIMIT
        mask |= int(ok) << move
    return mask


#: LEGAL_AT[total]: the legal move codes on a pile of ``total`` as a bit mask (a table, so
#: the play loop needs no branch per move: random cards make such branches unpredictable)
LEGAL_AT = np.array([_legal_at(t) for t in range(LIMIT + 1)], dtype=np.int64)
#: RANK_MOVES[rank]: the move codes of a rank as a bit mask
RANK_MOVES = np.array([((1 << RANK_MOVE_COUNT[r]) - 1) << RANK_FIRST_MOVE[r] for r in range(13)], dtype=np.int64)


@njit(cache=True, forceinline=True)
def legal_moves(hands: np.ndarray, seat: np.int64, total: np.int64, legal: np.ndarray) -> np.int64:
    """Write the distinct legal move codes of ``hands[seat]`` (card codes) into ``legal``.

    Returns how many; 0 means the player goes over. Codes come out in hand order (a rank's
    lower code first). Branch-free: each card writes its one or two candidate codes and
    counts only the legal ones not yet written (``legal`` needs 2 spare slots).
    (Hands are passed whole with the seat: a row view per call costs reference counting.)
    """
    n = 0
    open_moves = LEGAL_AT[ix(total)]
    for i in range(HAND_SIZE):
        rank = RANK_OF[ix(hands[ix(seat), ix(i)])]
        first = RANK_FIRST_MOVE[ix(rank)]
        legal[ix(n)] = first
        n += (open_moves >> first) & 1
        legal[ix(n)] = first + 1
        n += (open_moves >> (first + 1)) & (RANK_MOVE_COUNT[ix(rank)] - 1)
        open_moves &= ~RANK_MOVES[ix(rank)]  # a second card of the same rank adds no move
    return n


@njit(cache=True, forceinline=True)
def slot_of_rank(hands: np.ndarray, seat: np.int64, rank: np.int64) -> np.int64:
    """Index of the card of ``rank`` to play: the lowest suit held (C < D < H < S).

    Suits never matter to the rules, but the record names the cards that go back into
    the stock, so the choice is fixed and documented for referees replaying a record.
    Written as selects rather than branches: which slot holds the rank is random.
    """
    best, best_card = -1, 1 << 20
    for i in range(HAND_SIZE):
        card = hands[ix(seat), ix(i)]
        better = np.int64((RANK_OF[ix(card)] == rank) & (card < best_card))
        best += better * (i - best)
        best_card += better * (card - best_card)
    return best


@njit(cache=True, forceinline=True)
def next_active(seat: np.int64, direction: np.int64, active: np.ndarray) -> np.int64:
    """The next seat still in the game from ``seat`` in ``direction`` (1 or -1)."""
    players = active.shape[0]
    s = seat
    for _ in range(players):
        # wrap-around as arithmetic: the direction flips at random, a branch would not predict
        s += direction
        s += players * np.int64(s < 0) - players * np.int64(s >= players)
        if active[ix(s)]:
            return s
    return seat
