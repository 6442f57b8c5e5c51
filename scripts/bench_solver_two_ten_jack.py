"""Speed of the Two-Ten-Jack solver (analyzer/games/two_ten_jack/solver.py), on one core.

Random deals (a seeded shuffle of the 52 cards: 6 cards each, the 40 others the stock) are
played at random (uniform legal moves, the compiled rules of rules.py deciding the tricks)
until the stock holds ``--stock K`` cards (40: the first lead of the round; 0: the point
the stock is empty), then the position's every legal move is solved exactly. Prints the
median and 95th percentile time per position, the node counts and the nodes per second.
The table is cleared between deals (a cold solve each time).

    python scripts/bench_solver_two_ten_jack.py --deals 200 --stock 0
    python scripts/bench_solver_two_ten_jack.py --deals 200 --stock 40 --cap 200000000
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import script_cli  # noqa: E402

from analyzer.games.two_ten_jack import rules as R
from analyzer.games.two_ten_jack import solver as S
from solver_times import SolverTimes


def mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def bits(m: int) -> list[int]:
    return [c for c in range(64) if m >> c & 1]


def random_position(rng: np.random.Generator, stock_left: int):
    """A random deal played at random until ``stock_left`` cards are left in the stock, at
    the next lead: (leader's hand, follower's hand, stock left, leader's taken, other's taken)."""
    deck = rng.permutation(52)
    hands = [mask(deck[:6]), mask(deck[6:12])]
    stock = [int(c) for c in deck[12:]]
    taken = [0, 0]
    leader = int(rng.integers(2))
    while len(stock) > stock_left:
        lead = int(rng.choice(bits(int(R.lead_moves(np.int64(hands[leader]))))))
        lc = int(R.lead_card(np.int64(lead)))
        hands[leader] ^= 1 << lc
        f = 1 - leader
        c = int(rng.choice(bits(int(R.follow_moves(np.int64(hands[f]), np.int64(R.suit_led(np.int64(lead))))))))
        hands[f] ^= 1 << c
        winner = f if R.follower_wins(np.int64(lc), np.int64(c)) else leader
        taken[winner] |= (1 << lc) | (1 << c)
        hands[winner] |= 1 << stock[0]
        hands[1 - winner] |= 1 << stock[1]
        stock = stock[2:]
        leader = winner
    return hands[leader], hands[1 - leader], stock, taken[leader], taken[1 - leader]


def measure(deals: int = 1000, stock_left: int = 0, seed: int = 1, bits: int = 20, cap: int = 0) -> SolverTimes:
    """Solve ``deals`` random positions with ``stock_left`` cards in the stock, a cold table each
    (a node cap ``cap`` > 0 stops a solve; they are counted)."""
    table, work = S.new_table(bits), S.new_work()
    moves, values = np.zeros(8, np.int64), np.zeros(8, np.int64)
    stock = np.zeros(41, np.int64)
    rng = np.random.default_rng(seed)
    S.solve_moves(np.int64(1), np.int64(2), np.int64(-1), stock, np.int64(0), np.int64(0), np.int64(0), table, work,
                  moves, values)  # load the compiled code
    times, walls, nodes, vals, capped = [], [], 0, [], 0
    for _ in range(deals):
        hl, hf, st, tl, tf = random_position(rng, stock_left)
        stock[:len(st)] = st
        table[:] = 0
        table[-1, 0] = 1
        work[S.W_LIMIT] = cap
        start, cpu = time.perf_counter(), time.process_time()
        n, k = S.solve_moves(np.int64(hl), np.int64(hf), np.int64(-1), stock, np.int64(len(st)), np.int64(tl),
                             np.int64(tf), table, work, moves, values)
        times.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
        nodes += k
        vals.append(int(values[0]))
        capped += n < 0
    what = ("a round from the point its stock is empty" if stock_left == 0 else
            f"a round with {stock_left} cards in its stock")
    return SolverTimes("two-ten-jack", what, np.array(times), np.array(walls), nodes, np.array(vals),
                       capped)


def main() -> None:
    ap = script_cli.Parser(__doc__)
    ap.add_argument("--deals", type=script_cli.positive, default=200)
    ap.add_argument("--stock", type=int, default=0, help="cards left in the stock when solving (even, 0..40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bits", type=int, default=20, help="log2 of the transposition table's entries")
    ap.add_argument("--cap", type=int, default=0, help="node cap per position (0: none); capped deals are counted")
    args = ap.parse_args()
    if args.stock not in range(0, 41, 2):
        ap.error(f"--stock must be even, from 0 to 40, not {args.stock}")
    m = measure(args.deals, args.stock, args.seed, args.bits, args.cap)
    print(f"{m.what}, {m.capped} of {args.deals} capped")
    print(m.summary())


if __name__ == "__main__":
    script_cli.run(main)
