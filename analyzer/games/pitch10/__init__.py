"""10-Point Pitch (RULES.md section 5)."""
