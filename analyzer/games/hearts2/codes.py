"""Two-player Hearts: the constants and state layouts the compiled kernel and the Python side
share, defined once (trace events, out-row columns, replay refusals, named state bundles).

Plain Python (no numba here), but read by njit code: numba freezes these values into the
kernels when it compiles them, and ``analyzer.jit`` keys a game's cache on the files of its
package that mention njit, as this line does, so a change here recompiles the kernels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

PLAYERS = 2

# ---- trace events (records: spec.decode reads what kernel.play_rest writes) -----------------
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
#: list tag of the dead cards in a deal event (the hands are tagged by seat)
TAG_DEAD = 100

# ---- the out row: the common columns, then the game's own (spec.extra_columns) -------------
EXTRA_COLUMNS = ("moons", "moons_0", "moons_1", "tricks_0", "tricks_1", "qs_0", "qs_1")
O_WINNERS, O_HANDS, O_DECISIONS, O_SCORE = 0, 1, 2, 3  # O_SCORE + seat
O_MOONS, O_MOONS_SEAT, O_TRICKS, O_QS = 5, 6, 8, 10    # O_*_SEAT, O_TRICKS, O_QS: + seat
N_COLUMNS = 5 + len(EXTRA_COLUMNS)

# ---- why the replay of a position's history refused it (kernel.load_position) --------------
REPLAY_OK = 0
BAD_FIRST_CARD = 1        # the first card played is no possible first lead
NO_FIRST_LEAD = 2         # the seat leads the first trick without holding the first lead
DEAD_CARD_SEEN = 3        # a card the first lead shows dead is held or played
ILLEGAL_PLAY = 4          # a play of the seat the rules did not allow
PLAYED_SHOWN_VOID = 5     # the opponent played a card it had shown it did not hold
TOO_MANY_DEAD = 6         # the opponent's voids leave more unseen cards dead than there are


#: the ``pimc`` strategy's transposition table: 2**PIMC_TT_BITS rows of 3 int64 (1.5 MiB) per
#: block of games; a block without a ``pimc`` seat gets a table of 2 rows
PIMC_TT_BITS = 16


class SearchArrays(NamedTuple):
    """What ``pimc`` solves its sampled worlds in (solver.solve_moves_on), allocated once per
    block of games (kernel.workspace)."""
    tt: np.ndarray         # int64[2**k, 3] the solver's transposition table
    stack: np.ndarray      # int64[solver.STACK_ROWS, solver.STACK_WIDTH] its search stack
    moves: np.ndarray      # int64[13] the legal cards of one solve, low to high
    values: np.ndarray     # int64[13] their values in that world
    stamp: np.ndarray      # int64[1] the last table stamp used (a new one per world)
    # ``ismcts`` (kernel.ismcts_move; full size only in a block with an ismcts seat):
    tree: tuple            # analyzer.ismcts.Tree: the search tree (iterations + 1 nodes)
    deck: np.ndarray       # int64[28] card codes, shuffled for the hands a playout deals
    hands: np.ndarray      # int64[2] those hands (masks)
    game: np.ndarray       # int64[G_SIZE] the game around the hand in play (G_*; play_rest writes it)
    rng: np.ndarray        # uint64[4] a playout's strategy stream


#: ``SearchArrays.game``: the dealer, the scores before this hand, the target, the hand number
G_DEALER, G_SCORE0, G_SCORE1, G_TARGET, G_HAND_NO, G_SIZE = 0, 1, 2, 3, 4, 5


class Workspace(NamedTuple):
    """The arrays one game works in (kernel.workspace), allocated once per block of games."""
    deck: np.ndarray       # int64[28] card codes, shuffled in place each hand (DEAL stream)
    hands: np.ndarray      # int64[2] each seat's hand as dealt (masks)
    codes: np.ndarray      # int64[13] the legal cards as codes (records, user strategies)
    view: np.ndarray       # int64[view.VIEW_SIZE] what a user strategy sees
    deal_rng: np.ndarray   # uint64[4] the game's DEAL stream
    play_rng: np.ndarray   # uint64[4] the game's PLAY stream
    scratch: np.ndarray    # uint64[4] seeds the Monte Carlo sample streams
    sums: np.ndarray       # int64[16] Monte Carlo: points per option (pimc: value sums)
    search: SearchArrays   # pimc: the solver's table and stack


class Position(NamedTuple):
    """A hand in progress as one seat knows it (kernel.load_position builds it by replaying
    the public history; kernel.evaluate_chunk plays on from it). Masks are card masks."""
    seat: int              # the seat to decide
    own: int               # its hand
    pool: int              # the cards it cannot see: the opponent's hand and the 2 dead cards
    forced_dead: int       # those of them the opponent cannot hold (shown voids, first lead)
    hand_no: int           # hand number, from 1
    dealer: int
    score0: int            # scores before this hand
    score1: int
    leader: int            # the seat leading the current trick
    trick: int             # complete tricks so far (0..12)
    led: int               # card led to the current trick, -1 when the seat leads
    taken0: int            # points taken in tricks this hand, per seat
    taken1: int
    ntr0: int              # tricks won by seat 0 this hand
    void0: int             # cards each seat has publicly shown it does not hold
    void1: int
    first: int             # the first lead of the hand (2C, 4C or 6C)
    legal: int             # the seat's legal cards now


class Refusal(NamedTuple):
    """Why kernel.load_position refused a history (``code`` REPLAY_OK: it did not)."""
    code: int              # one of the replay codes above
    at: int                # index of the card played at fault (-1: none)
    card: int              # the card at fault (-1: none)
    cards: int             # a mask the message names (legal cards, cards forced dead)
