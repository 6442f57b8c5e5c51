"""Twenty-Two (docs/rules.md section 1)."""
