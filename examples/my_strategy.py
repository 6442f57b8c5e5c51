"""A worked example of a user strategy for Ninety-Nine.

Run it with:

    analyzer simulate ninety-nine --games 20000 --seat 1=examples/my_strategy.py:cautious

A Ninety-Nine strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``:

- ``view``  int64 array: what the seat can see. Indices (also in docs/ninety-nine.md):
  0 seat, 1 players, 2 dealer, 3 pile total, 4 direction (1 / -1), 5 cards left in the
  stock, 6..8 the ranks held (0..12 = 2..A), 9..21 how many of each rank lie on the pile,
  22..31 chips per seat, 32..41 1 if the seat is still in the game.
- ``legal`` int64 array: the legal move codes, in ``legal[:n]``. Codes:
  0 "2", 1 "3", 2 "4", 3 "5", 4 "6", 5 "7", 6 "8", 7 "9", 8 "T+10", 9 "T-10",
  10 "J", 11 "Q", 12 "K", 13 "A+1", 14 "A+11".
- ``rng``   uint64[4] random state of this game (use ``analyzer.rng.randbelow(rng, k)``
  for reproducible coin flips).

Return one of ``legal[:n]``. Anything else stops the run with an error naming the
strategy, the game and the decision.
"""

from numba import njit

TOTAL = 3
# how much each move code adds to the total (K is special: it sets 99)
DELTA = (2, 3, 0, 5, 6, 7, 8, 0, 10, -10, 10, 10, 0, 1, 11)
KING = 12


@njit
def cautious(view, legal, n, rng):
    """Play the move that leaves the lowest total; K only as a last resort."""
    best = legal[0]
    best_total = 1000
    for i in range(n):
        move = legal[i]
        total = 99 if move == KING else view[TOTAL] + DELTA[move]
        if total < best_total:
            best, best_total = move, total
    return best


@njit
def reckless(view, legal, n, rng):
    """Always play the highest move code, even a K on a low total."""
    return legal[n - 1]
