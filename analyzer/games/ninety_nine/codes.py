"""Ninety-Nine constants shared by the compiled side and the Python side, defined once:
rule parameters, move codes, record events, the kernel's scalar registers and the codes the
compiled history replay reports. Plain Python values (numba freezes them at compile time).
"""

from __future__ import annotations

# ---- rule options: the kernel parameter array, in the order of the spec's options ---------
P_PLAYERS, P_DECKS, P_CHIPS, P_OUT_AT_ZERO = 0, 1, 2, 3

MAX_PLAYERS = 10
HAND_SIZE = 3
LIMIT = 99

# ---- ranks (``card % 13``) and moves ----------------------------------------------------------
RANK_NAMES = "23456789TJQKA"
RANK_FOUR, RANK_NINE, RANK_TEN, RANK_KING, RANK_ACE = 2, 7, 8, 11, 12

#: the record's text of each move code: a rank and, for A and T, the value chosen
MOVE_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T+10", "T-10", "J", "Q", "K", "A+1", "A+11")
N_MOVES = len(MOVE_NAMES)
(MOVE_TWO, MOVE_THREE, MOVE_FOUR, MOVE_FIVE, MOVE_SIX, MOVE_SEVEN, MOVE_EIGHT, MOVE_NINE, MOVE_TEN_UP,
 MOVE_TEN_DOWN, MOVE_JACK, MOVE_QUEEN, MOVE_KING, MOVE_ACE_ONE, MOVE_ACE_ELEVEN) = range(N_MOVES)
#: rank played by each move
MOVE_RANKS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 12)
#: change of the total by each move (K is apart: it sets the total to 99)
MOVE_DELTAS = (2, 3, 0, 5, 6, 7, 8, 0, 10, -10, 10, 10, 0, 1, 11)

# ---- record events (trace rows) --------------------------------------------------------------
EV_DEAL, EV_DECIDE, EV_PILE, EV_DRAW, EV_RESHUFFLE, EV_BUST, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK, TAG_CHIPS = 100, 101

# ---- the kernel's scalar registers (``Bundle.sc``; Python reads them through kernel.scalars) ----
(S_DEALER, S_TOTAL, S_DIR, S_SEAT, S_TOP, S_END, S_NPILE, S_NACTIVE, S_ROUNDS, S_DECISIONS, S_EPOCH,
 S_NLOG) = range(12)
N_SC = 12
#: names of the registers, as ``kernel.scalars`` returns them
SCALARS = ("dealer", "total", "direction", "to_move", "stock_top", "stock_end", "pile_size", "players_in",
           "rounds", "decisions", "epoch", "plays_logged")

#: plays of a round kept in the play log (``Bundle.log``: who played which card), which the
#: sampler reads with two or more decks; a longer round marks its log as lost (S_NLOG = -1)
#: and the sampler falls back to pooling the hidden cards
LOG_CAP = 1024

# ---- what the compiled history replay reports (kernel.load_history; ``err`` int64[5]) --------
#: every copy of the card is on the pile: ``err = [code, play index, card, 0, 0]``
E_ON_PILE = 1
#: one deck: another seat plays a card of a stock it holds no card from:
#: ``[code, play index, card, stock, seat]``
E_NO_SLOT = 2
#: after the history another seat is to move: ``[code, -1, that seat, 0, 0]``
E_TURN = 3
#: one deck: a stock's hidden cards do not fit its places: ``[code, -1, stock, cards, places]``
E_CLASS_COUNT = 4
#: two or more decks: no deal of the hidden cards fits the history: ``[code, -1, 0, 0, 0]``
E_NO_DEAL = 5
#: the history is longer than the play log: ``[code, -1, LOG_CAP, 0, 0]``
E_TOO_LONG = 6
#: a card of the history passes 99 whatever the aces and tens before it counted (its player
#: went over instead of playing it): ``[code, play index, card, totals low, totals high]``,
#: the totals it could follow as bits (``totals_bits``)
E_OVER = 7
#: the total given is not one the history can leave (or, not given, the history leaves
#: several: its aces and tens count either way): ``[code, -1, total or TOTAL_FROM_HISTORY,
#: totals low, totals high]``, the totals it can leave as bits (``totals_bits``)
E_TOTAL = 8
#: the ``total`` load_history takes when the position gives none: the one the history leaves
TOTAL_FROM_HISTORY = -1
#: the totals a history can leave, as two bit masks: totals 0..62 in the low word, 63..99 in
#: the high one (``err[3]``, ``err[4]`` of E_OVER and E_TOTAL)
TOTAL_BITS_SPLIT = 63
