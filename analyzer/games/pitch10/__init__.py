"""10-Point Pitch (docs/rules.md section 5)."""

from analyzer.games.base import PositionFlag

#: position keys ``evaluate`` takes as flags; kept here, light to import, for the CLI
POSITION_FLAGS = (PositionFlag("bids", 'Pitch: bids so far from left of the dealer, e.g. "pass,5".', "LIST"),)

#: analyzer/jit.py (HELPER_INLINE): the shared helpers (rng, bits) reach this game's code as
#: calls LLVM inlines, not as numba's copies typed at every call site (a quarter to a third
#: less compile time, the games as fast)
LLVM_INLINES_HELPERS = True
