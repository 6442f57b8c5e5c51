"""Two-Ten-Jack (docs/rules.md section 4)."""
