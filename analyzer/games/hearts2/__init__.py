"""Two-player Hearts (docs/rules.md section 3)."""
