"""Speed of the two-player Hearts solver (analyzer/games/hearts2/solver.py), one core.

Solves ``--deals`` random deals from their first lead (the whole hand: the value of the
forced first card is the value of the deal) and prints the nodes per second and the
median and 95th percentile time per deal (CPU time of this process, which a
busy machine disturbs less than wall time; both are printed). One table (2**``--bits`` rows) serves every
deal, a new stamp each (as a kernel would use it). The first solve (compiling or loading
the cache) is not timed.

    .venv/bin/python scripts/bench_solver_hearts2.py --deals 1000 --seed 1
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import script_cli  # noqa: E402

from analyzer.games.hearts2 import solver
from analyzer.games.hearts2.rules import DECK_CODES, first_lead
from solver_times import SolverTimes


def random_deal(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """(h0, h1, dead, seat to lead): a shuffled 28-card deck, the top and the last card
    dead, 13 cards each; the holder of the first lead leads."""
    deck = rng.permutation(DECK_CODES)
    h0 = sum(1 << int(c) for c in deck[1:27:2])
    h1 = sum(1 << int(c) for c in deck[2:27:2])
    dead = (1 << int(deck[0])) | (1 << int(deck[27]))
    first = int(first_lead(np.int64(dead)))
    return h0, h1, dead, 0 if h0 >> first & 1 else 1


def measure(deals: int = 1000, seed: int = 1, bits: int = solver.DEFAULT_TT_BITS) -> SolverTimes:
    """Solve ``deals`` random deals from their first lead: CPU and wall seconds per deal, nodes, values."""
    rng = np.random.default_rng(seed)
    tt = solver.new_table(bits)
    moves = np.zeros(13, dtype=np.int64)
    values = np.zeros(13, dtype=np.int64)

    def solve(deal, stamp):
        """solve_moves at the deal's first lead: (legal cards, nodes); values[0] its value."""
        h0, h1, dead, turn = deal
        return solver.solve_moves(np.int64(h0), np.int64(h1), np.int64(dead), np.int64(turn), np.int64(-1),
                                  np.int64(0), np.int64(0), tt, np.int64(stamp), moves, values)

    solve(random_deal(np.random.default_rng(0)), 1)  # compile or load, warm the table's pages
    times, walls, nodes, vals = [], [], 0, []
    for i in range(deals):
        deal = random_deal(rng)
        start, cpu = time.perf_counter(), time.process_time()
        _, k = solve(deal, i + 2)
        times.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
        nodes += k
        vals.append(int(values[0]))
    return SolverTimes("hearts2", "a whole hand from its first lead", np.array(times), np.array(walls), nodes,
                       np.array(vals))


def main() -> None:
    """Parse the options, solve the deals, print the figures."""
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--deals", type=script_cli.positive, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bits", type=int, default=solver.DEFAULT_TT_BITS)
    args = parser.parse_args()
    m = measure(args.deals, args.seed, args.bits)
    print(f"{args.deals} deals, table 2**{args.bits} rows: " + m.summary())
    vals = m.values
    print(f"value for the first leader: mean {np.mean(vals):+.2f}, moons {sum(abs(v) == 20 for v in vals)}")


if __name__ == "__main__":
    script_cli.run(main)
