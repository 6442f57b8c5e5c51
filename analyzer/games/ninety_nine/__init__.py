"""Ninety-Nine (RULES.md section 2)."""
