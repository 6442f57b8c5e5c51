"""Intervals and running sums. Every number we print comes with an honest error bar."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (good also near 0 and 1)."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, total_sq: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval from a sum and a sum of squares."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * (n / (n - 1) if n > 1 else 0.0)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def ratio_interval(num: np.ndarray | float, den: np.ndarray | float, num_sq: float, den_sq: float,
                   cross: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Ratio of two per-game sums (e.g. busts per round) with a delta-method interval."""
    if n <= 1 or den == 0:
        return (math.nan, math.nan, math.nan)
    mx, my = num / n, den / n
    r = mx / my
    vx = num_sq / n - mx * mx
    vy = den_sq / n - my * my
    cxy = cross / n - mx * my
    var = max(vx - 2 * r * cxy + r * r * vy, 0.0) / (my * my) / (n - 1)
    half = z * math.sqrt(var)
    return (r, r - half, r + half)


class Accumulator:
    """Running sums over per-game output rows, so memory stays flat in the number of games.

    Keeps, per column, the sum and the sum of squares, the per-seat win counts (from the
    ``winners`` bit mask in column 0), and the cross sums of named column pairs that
    ratio estimates need. All sums are exact integers (the rows are integers), so any
    order of adding chunks gives bit-identical results: batch jobs rely on that.
    """

    def __init__(self, columns: list[str], players: int, pairs: list[tuple[str, str]] | None = None) -> None:
        self.columns = columns
        self.players = players
        self.n = 0
        self.sums = np.zeros(len(columns), dtype=np.int64)
        self.sumsq = np.zeros(len(columns), dtype=np.int64)
        self.wins = np.zeros(players, dtype=np.int64)
        self.pairs = [(columns.index(a), columns.index(b)) for a, b in (pairs or [])]
        self._pair_i = np.array([i for i, _ in self.pairs], dtype=np.int64)
        self._pair_j = np.array([j for _, j in self.pairs], dtype=np.int64)
        self.cross = np.zeros(len(self.pairs), dtype=np.int64)

    def add(self, rows: np.ndarray) -> None:
        if rows.shape[0] == 0:
            return
        from analyzer.fold import fold_rows
        from analyzer.jit import numba

        self.n += rows.shape[0]
        blocks = max(1, min(rows.shape[0] // 1024, 4 * numba.get_num_threads()))
        fold_rows(np.ascontiguousarray(rows, dtype=np.int64), np.int64(self.players), self._pair_i, self._pair_j,
                  np.int64(blocks), self.sums, self.sumsq, self.wins, self.cross)

    def merge(self, other: "Accumulator") -> None:
        """Add another accumulator's sums (same columns) into this one."""
        self.n += other.n
        self.sums += other.sums
        self.sumsq += other.sumsq
        self.wins += other.wins
        self.cross += other.cross

    def col(self, name: str) -> tuple[float, float]:
        i = self.columns.index(name)
        return float(self.sums[i]), float(self.sumsq[i])

    def mean(self, name: str) -> tuple[float, float, float]:
        s, sq = self.col(name)
        return mean_interval(s, sq, self.n)

    def ratio(self, num: str, den: str) -> tuple[float, float, float]:
        i, j = self.columns.index(num), self.columns.index(den)
        k = self.pairs.index((i, j))
        return ratio_interval(float(self.sums[i]), float(self.sums[j]), float(self.sumsq[i]),
                              float(self.sumsq[j]), float(self.cross[k]), self.n)
