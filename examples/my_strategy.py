"""A worked example of a user strategy for Ninety-Nine.

Run it with:

    analyzer simulate ninety-nine --games 20000 --seat 1=examples/my_strategy.py:cautious
    analyzer compare ninety-nine heuristic examples/my_strategy.py:cautious --games 20000

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``:

- ``view``  int64 array: what the seat can see. Its fields have names in
  ``analyzer.games.ninety_nine.view`` (``TOTAL``: the pile total, ``HAND``: the ranks held,
  ...; docs/ninety-nine.md, "Writing a strategy").
- ``legal`` int64 array: the legal move codes, in ``legal[:n]`` (``MOVE_KING``, ``MOVE_NINE``,
  ...; ``move_name(code)`` names one, e.g. "A+11").
- ``rng``   uint64[4] random state of this game (use ``analyzer.rng.randbelow(rng, k)``
  for reproducible coin flips).

Return one of ``legal[:n]``. Anything else stops the run with an error naming the
strategy, the game, the decision and its legal moves.
"""

from numba import njit

from analyzer.games.ninety_nine.view import TOTAL, total_after


@njit
def cautious(view, legal, n, rng):
    """Play the move that leaves the lowest total; K (which sets it to 99) only as a last resort."""
    best = legal[0]
    best_total = 1000
    for i in range(n):
        move = legal[i]
        total = total_after(view[TOTAL], move)  # the rules' own arithmetic
        if total < best_total:
            best, best_total = move, total
    return best


@njit
def reckless(view, legal, n, rng):
    """Always play the highest move code, even a K on a low total."""
    return legal[n - 1]
