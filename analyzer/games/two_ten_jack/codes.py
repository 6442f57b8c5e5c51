"""Two-Ten-Jack: the constants and state layouts the compiled kernel and the Python side
share, defined once (trace events, the scalar registers, the out row, named bundles).

Plain Python (no numba here), but read by njit code: numba freezes these values into the
kernels when it compiles them, and ``analyzer.jit`` keys a game's cache on the files of its
package that mention njit, as this line does, so a change here recompiles the kernels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ---- trace events (records: spec.decode reads what the kernel writes) ------------------------
EV_DEAL, EV_DECIDE, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5
#: list tags: the stock's order in a deal event, the two cards drawn after a trick
TAG_STOCK, TAG_DRAWS = 100, 102

# ---- the scalar registers of a bundle (``Bundle.sc``); Python reads them with ``scalars`` ----
S_DEALER, S_LEADER, S_TRICK, S_TOP, S_LEAD, S_PLAYED, S_ROUNDS, S_DECISIONS, S_TRACK = range(9)
N_SC = 9

# ---- a seat's knowledge counts (``Bundle.kn[seat]``) -----------------------------------------
KN_LEVELS, KN_STATES, KN_HELD = 0, 1, 2  # number of levels, number of states, cards held

# ---- the out row: winners, hands (rounds), decisions, score_0/1, then the game's own ---------
O_WINNERS, O_ROUNDS, O_DECISIONS, O_SCORE = 0, 1, 2, 3  # O_SCORE + seat
O_PTS_DEALER, O_PTS_NON, O_AS_LED, O_AS_TRUMP, O_BIN_DEALER = 5, 6, 7, 8, 9
#: bins of a player's points in one round (kernel.point_bin)
BIN_LABELS = ("<=-10", "-9..-5", "-4..0", "1..4", "5..9", "10..14", ">=15")
N_BINS = len(BIN_LABELS)
O_BIN_NON = O_BIN_DEALER + N_BINS
O_DEALT = O_BIN_NON + N_BINS            # + seat
O_PTS_DEALING = O_DEALT + 2             # + seat
O_PTS_NONDEALING = O_PTS_DEALING + 2    # + seat
N_COLUMNS = O_PTS_NONDEALING + 2


class Bundle(NamedTuple):
    """A game's state, arrays only (kernel.workspace; the kernel module docstring says what
    each holds)."""
    stock: np.ndarray         # int64[52]
    legal: np.ndarray         # int64[64] list scratch
    strategy_view: np.ndarray  # int64[view.VIEW_SIZE] (not "view": numba reads x.view as ndarray.view)
    deal_rng: np.ndarray      # uint64[4]
    play_rng: np.ndarray      # uint64[4]
    taken: np.ndarray         # int64[2] cards each seat took this round (masks)
    scores: np.ndarray        # int64[2]
    hands: np.ndarray         # int64[2] (masks)
    levels: np.ndarray        # int64[2, N_LEVELS] knowledge: level masks
    kn: np.ndarray            # int64[2, 3] knowledge counts (KN_*)
    sc: np.ndarray            # int64[N_SC] scalar registers (S_*)
    rng_scratch: np.ndarray   # uint64[4]
    keys: np.ndarray          # int64[2, N_STATES] knowledge states
    weights: np.ndarray       # float64[2, N_STATES] their weights
    scratch_keys: np.ndarray  # int64[N_STATES]
    scratch_w: np.ndarray     # float64[N_STATES]


#: ``pimc`` solves worlds in the last PIMC_TRICKS tricks of a round by default (its
#: ``tricks`` parameter): from where the stock is gone, and the other hand with it is known.
#: Earlier it plays as ``mc``: solving worlds while the stock lasts fuses the stock's order
#: into the plan and played worse than ``mc`` (docs/two-ten-jack.md, "pimc")
PIMC_TRICKS = 6
#: the most tricks ``pimc`` solves (a larger ``tricks`` counts as this): 14 tricks hold a
#: stock of 16 cards, where one solve takes about 12 ms on average and up to 0.05 s
PIMC_MAX_TRICKS = 14
#: the ``pimc`` transposition table: 2**PIMC_TT_BITS entries of 24 bytes (1.5 MiB) per block
#: of games with a pimc seat (a block without one gets a table of 2 entries)
PIMC_TT_BITS = 16


class SearchArrays(NamedTuple):
    """What ``pimc`` solves in (kernel.mc_workspace): the solver's arrays, allocated once per
    block of games."""
    table: np.ndarray         # uint64[2**bits + 1, 3] transposition table (solver.new_table)
    work: np.ndarray          # int64[solver.WORK_SIZE] the solver's scratch (solver.new_work)
    stock: np.ndarray         # int64[41] one world's stock, top first
    moves: np.ndarray         # int64[8] one solve's legal moves, low to high
    values: np.ndarray        # int64[8] and their values for the seat to move


class McWorkspace(NamedTuple):
    """What ``mc``, ``pimc`` and ``ismcts`` work in (kernel.mc_workspace)."""
    roll: Bundle              # the rollout bundle (ismcts: each iteration's world)
    samp: Bundle              # the sampled position (ismcts: its scratch weights hold the sampler's)
    out: np.ndarray           # int64[N_COLUMNS] a scratch out row
    total: np.ndarray         # int64[64] points per move (pimc: the sums of the values)
    trace: np.ndarray         # a scratch trace
    search: SearchArrays      # pimc: the solver's arrays (full size only with a pimc seat)
    tree: tuple               # ismcts: an analyzer.ismcts.Tree (iterations + 1 nodes; else 2)
    future: np.ndarray        # ismcts: float64[kernel.ROUND_KEYS] the futures' value per way a round ends
    work: np.ndarray          # int64[2]: ``mc``'s decisions searched and the moves of their rollouts (mc_work)


class Scalars(NamedTuple):
    """The scalar registers of a bundle, by name (``scalars``)."""
    dealer: int
    leader: int
    trick: int       # tricks done this round
    top: int         # next card of the stock (52: the stock is gone)
    lead: int        # lead move of the trick in progress, -1 when none
    played: int      # mask of the cards of finished tricks
    rounds: int
    decisions: int
    track: int       # 1: the knowledge is kept up to date


def scalars(ws: Bundle) -> Scalars:
    """The one way Python reads a bundle's scalar registers."""
    return Scalars(*(int(v) for v in ws.sc[:N_SC]))


def cards_held(ws: Bundle, seat: int) -> int:
    """How many cards ``seat`` holds, by the bundle's knowledge counts."""
    return int(ws.kn[seat, KN_HELD])
