"""Twenty-Two constants shared by the compiled side (kernel, rules) and the Python side
(spec: records, positions): defined once here. numba freezes module globals when it
compiles, so the kernel reads these very values.

Nothing here is compiled; importing it needs no numba.
"""

from __future__ import annotations

#: rank letters, rank r = 0..12 for 2..A (suits never matter in Twenty-Two)
RANKS = "23456789TJQKA"

# ---- trace (record) events: kernel.py writes them, spec.decode reads them
EV_DEAL, EV_DECIDE, EV_DRAW, EV_TRICK, EV_FINAL, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7
#: list tag of the stock preview in a ``deal`` event (tags 0..P-1 are the seats' hands)
TAG_STOCK = 100

# ---- decisions: the kind of a decision is also the phase of the hand (PH_FINAL: no decision)
KIND_DISCARD, KIND_LEAD, KIND_FOLLOW = 0, 1, 2
PH_DISCARD, PH_LEAD, PH_FOLLOW, PH_FINAL = KIND_DISCARD, KIND_LEAD, KIND_FOLLOW, 3
KINDS = ("discard", "lead", "follow")

# ---- why a position is refused (kernel.load_position writes the code and its details into
# ``why``: [code, a, b, c, d]; spec.position_error turns them into the one-line message)
(E_OK, E_GAME_OVER, E_SEAT_OUT, E_DEAL_SIZE, E_STOCK_RANGE, E_FIRST_DISCARDER, E_NOTHING_TO_DECIDE,
 E_TOO_MANY, E_TRICK_LENGTH, E_TRICK_COMPLETE, E_BELOW_FLOOR, E_LEAD_RANKS, E_LEAD_KEEP, E_FOLLOW_SIZE,
 E_NOT_TO_MOVE, E_NOT_LEADER, E_OWN_LOWER, E_OWN_COULD_BEAT, E_OWN_ILLEGAL, E_UNSEEN_SHORT,
 E_FLOORS) = range(21)
#: the length of ``why``
WHY = 5
