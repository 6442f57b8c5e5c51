"""What a solver benchmark measured (scripts/bench_solver_<game>.py), and its one-line summary."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SolverTimes(NamedTuple):
    game: str
    what: str            # what one solve solves, e.g. "a whole hand from its first lead"
    cpu: np.ndarray      # CPU seconds of each solve (this process)
    wall: np.ndarray     # wall seconds of each solve (the machine's load shows here)
    nodes: int           # nodes searched over all solves
    values: np.ndarray   # each solve's value (the first legal move's, in the solver's unit)
    capped: int = 0      # solves a node cap stopped (their values are not exact)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / max(self.cpu.sum(), 1e-12)

    def summary(self) -> str:
        t, w = self.cpu * 1e3, self.wall * 1e3
        return (f"{len(t)} solves, nodes {self.nodes:,} ({self.nodes / len(t):,.0f} per solve), "
                f"{self.nodes_per_second / 1e6:.2f} M nodes/s (CPU time)\n"
                f"CPU time per solve: median {np.median(t):.3f} ms, p95 {np.percentile(t, 95):.3f} ms, "
                f"max {t.max():.3f} ms, mean {t.mean():.3f} ms\n"
                f"wall time per solve: median {np.median(w):.3f} ms, p95 {np.percentile(w, 95):.3f} ms")
