"""User strategies for the tests: good ones, illegal ones, one that does not compile."""

from numba import njit


@njit
def first_legal(view, legal, n, rng):
    return legal[0]


@njit
def illegal(view, legal, n, rng):
    # 12 is "K": return it even when it is not in the hand
    for i in range(n):
        if legal[i] == 12:
            return legal[i]
    return 12 if view[3] > 30 else legal[0]


@njit
def broken(view, legal, n, rng):
    return legal.no_such_attribute


def not_jitted(view, legal, n, rng):
    return legal[0]


@njit
def first_legal_then_illegal(view, legal, n, rng):
    # as first_legal until the seat has a choice, then a move that is never legal
    return legal[0] if n == 1 else -7


@njit
def no_move_without_a_choice(view, legal, n, rng):
    # no return when n == 1: numba types the result Optional
    if n > 1:
        return legal[0]


@njit
def never_a_move(view, legal, n, rng):
    raise ValueError("always")


@njit
def first_legal_then_telling(view, legal, n, rng):
    # as first_legal until the seat has a choice, then a move that is never legal and tells
    # what the strategy was given: its first legal code (every game's codes are below 2**56)
    # and, above it, how many legal moves
    return legal[0] if n == 1 else legal[0] + (n << 56)
