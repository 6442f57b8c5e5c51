"""Two-player Hearts (docs/rules.md section 3)."""

#: position keys ``evaluate`` takes as flags (none beyond the common ones); read by the CLI
POSITION_FLAGS: tuple = ()
