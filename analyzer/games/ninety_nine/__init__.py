"""Ninety-Nine (docs/rules.md section 2)."""
