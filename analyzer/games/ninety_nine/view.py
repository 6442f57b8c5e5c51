"""What a Ninety-Nine user strategy sees: the layout of its ``view`` array, the move codes,
and helpers to name cards and moves (docs/ninety-nine.md, "Writing a strategy").

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``: ``view`` (int64[VIEW_SIZE])
is laid out as below, ``legal[:n]`` holds the legal move codes, ``rng`` (uint64[4]) is the
game's strategy stream (``analyzer.rng.randbelow(rng, k)`` for reproducible coin flips).
The kernel fills the view with these same constants (kernel.fill_view)::

    from analyzer.games.ninety_nine.view import TOTAL, HAND, HAND_LEN, DELTA, MOVE_KING
    total = view[TOTAL]                      # the pile total now
    ranks = view[HAND:HAND + HAND_LEN]       # ranks held, 0..12 = 2..A

Everything here is a plain constant, a numpy table or an ``@njit`` function, so a strategy
can use it inside compiled code (numba freezes module constants when it compiles).
"""

from __future__ import annotations

import numpy as np

from analyzer.cards import parse_card, token
from analyzer.games.ninety_nine.codes import (
    HAND_SIZE,
    LIMIT,
    MAX_PLAYERS,
    MOVE_ACE_ELEVEN,
    MOVE_ACE_ONE,
    MOVE_DELTAS,
    MOVE_EIGHT,
    MOVE_FIVE,
    MOVE_FOUR,
    MOVE_JACK,
    MOVE_KING,
    MOVE_NAMES,
    MOVE_NINE,
    MOVE_QUEEN,
    MOVE_RANKS,
    MOVE_SEVEN,
    MOVE_SIX,
    MOVE_TEN_DOWN,
    MOVE_TEN_UP,
    MOVE_THREE,
    MOVE_TWO,
    N_MOVES,
    RANK_ACE,
    RANK_FOUR,
    RANK_KING,
    RANK_NAMES,
    RANK_NINE,
    RANK_TEN,
)
from analyzer.errors import AnalyzerError
from analyzer.games.ninety_nine.rules import total_after  # the rules' own: (total, move) -> new total
from analyzer.jit import njit

__all__ = [
    "SEAT", "PLAYERS", "DEALER", "TOTAL", "DIRECTION", "STOCK_LEFT", "HAND", "HAND_LEN", "PILE_COUNTS",
    "N_RANKS", "CHIPS", "ACTIVE", "MAX_PLAYERS", "VIEW_SIZE", "LIMIT", "N_MOVES", "MOVE_NAMES", "DELTA",
    "MOVE_RANK", "RANK_NAMES", "MOVE_TWO", "MOVE_THREE", "MOVE_FOUR", "MOVE_FIVE", "MOVE_SIX", "MOVE_SEVEN",
    "MOVE_EIGHT", "MOVE_NINE", "MOVE_TEN_UP", "MOVE_TEN_DOWN", "MOVE_JACK", "MOVE_QUEEN", "MOVE_KING",
    "MOVE_ACE_ONE", "MOVE_ACE_ELEVEN", "RANK_FOUR", "RANK_NINE", "RANK_TEN", "RANK_KING", "RANK_ACE",
    "card_code", "card_name", "move_code", "move_name", "rank_name", "rank_of", "total_after",
]

# ---- the view layout (indices into ``view``) ------------------------------------------------
#: the seat deciding (0-based)
SEAT = 0
#: number of seats at the table (players still in or not)
PLAYERS = 1
#: this round's dealer
DEALER = 2
#: the pile total now (0..99)
TOTAL = 3
#: direction of play: 1 clockwise, -1 counter-clockwise (each four reverses it)
DIRECTION = 4
#: cards left in the stock
STOCK_LEFT = 5
#: ``view[HAND:HAND + HAND_LEN]``: the ranks of the cards held (0..12 = 2..A), in hand order
HAND = 6
HAND_LEN = HAND_SIZE
#: ``view[PILE_COUNTS + r]``: how many cards of rank ``r`` lie on the pile since the last
#: rebuild of the stock (since the deal if none)
PILE_COUNTS = HAND + HAND_LEN
N_RANKS = 13
#: ``view[CHIPS + s]``: chips of seat ``s`` (0 for seats that do not exist)
CHIPS = PILE_COUNTS + N_RANKS
#: ``view[ACTIVE + s]``: 1 if seat ``s`` is still in the game
ACTIVE = CHIPS + MAX_PLAYERS
VIEW_SIZE = ACTIVE + MAX_PLAYERS

# ---- moves --------------------------------------------------------------------------------------
#: ``DELTA[move]``: how much a move adds to the total (K is apart: it sets the total to 99;
#: ``total_after(total, move)``, the rules' own function, handles it)
DELTA = np.array(MOVE_DELTAS, dtype=np.int64)
#: ``MOVE_RANK[move]``: the rank (0..12 = 2..A) a move plays
MOVE_RANK = np.array(MOVE_RANKS, dtype=np.int64)


def move_code(name: str) -> int:
    """The code of a move from its record text: ``move_code("T-10") == 9``, ``move_code("K") == 12``."""
    try:
        return MOVE_NAMES.index(name.strip().upper())
    except ValueError:
        raise AnalyzerError(f"no ninety-nine move {name!r} (moves: {' '.join(MOVE_NAMES)})") from None


def move_name(code: int) -> str:
    """The record text of a move code: ``move_name(14) == "A+11"``."""
    if not 0 <= code < N_MOVES:
        raise AnalyzerError(f"no ninety-nine move has code {code} (codes 0..{N_MOVES - 1})")
    return MOVE_NAMES[code]


def card_code(name: str) -> int:
    """The code of a card token (``card_code("KS") == 50``); its rank is ``code % 13``."""
    return parse_card(name)


def card_name(code: int) -> str:
    """The token of a card code: ``card_name(50) == "KS"``."""
    return token(code)


def rank_name(rank: int) -> str:
    """The rank letter of a rank code as the view holds it: ``rank_name(11) == "K"``."""
    return RANK_NAMES[rank]


@njit(cache=True)
def rank_of(card):
    """The rank (0..12 = 2..A) of a card code."""
    return card % 13

