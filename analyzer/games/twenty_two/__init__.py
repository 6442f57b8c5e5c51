"""Twenty-Two (docs/rules.md section 1)."""

#: position keys ``evaluate`` takes as flags (none beyond the common ones); read by the CLI
POSITION_FLAGS: tuple = ()

#: analyzer/jit.py (HELPER_INLINE): the shared helpers (rng, bits) reach this game's code as
#: calls LLVM inlines, not as numba's copies typed at every call site (a quarter to a third
#: less compile time, the games as fast)
LLVM_INLINES_HELPERS = True
