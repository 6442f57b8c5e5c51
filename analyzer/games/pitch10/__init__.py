"""10-Point Pitch (docs/rules.md section 5)."""
