"""Two-player Hearts (RULES.md section 3)."""
