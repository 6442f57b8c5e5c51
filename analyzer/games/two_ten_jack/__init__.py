"""Two-Ten-Jack (docs/rules.md section 4)."""

#: position keys ``evaluate`` takes as flags (none beyond the common ones); read by the CLI
POSITION_FLAGS: tuple = ()

#: analyzer/jit.py: this game's compiled functions are optimized at every level of their call
#: chain, as numba does (one optimization of the whole made a user strategy's games 12% slower)
OPTIMIZE_EACH_LEVEL = True
