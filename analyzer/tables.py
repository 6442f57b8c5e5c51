"""Summary tables (pandas) built from an :class:`~analyzer.stats.Accumulator`."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.stats import Accumulator, wilson


def seat_table(acc: Accumulator, rules: dict[str, Any], names: list[str]) -> pd.DataFrame:
    """Per seat: strategy, wins, win rate with its 95% Wilson interval."""
    rows = []
    for seat, name in enumerate(names):
        lo, hi = wilson(acc.wins[seat], acc.n)
        rows.append({
            "seat": seat,
            "strategy": name,
            "games": acc.n,
            "wins": int(acc.wins[seat]),
            "win_rate": acc.wins[seat] / acc.n if acc.n else float("nan"),
            "win_rate_lo": lo,
            "win_rate_hi": hi,
        })
    return pd.DataFrame(rows)


def add_interval(row: dict[str, Any], name: str, value: tuple[float, float, float]) -> None:
    row[name], row[name + "_lo"], row[name + "_hi"] = value
