"""Twenty-Two (RULES.md section 1)."""
