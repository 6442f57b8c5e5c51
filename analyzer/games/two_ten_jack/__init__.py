"""Two-Ten-Jack (RULES.md section 4)."""
