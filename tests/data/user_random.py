"""User strategies for tests/test_user_strategies.py.

``uniform`` draws a uniform legal move from the game's strategy stream exactly as the
built-in ``random`` of Hearts (two players) does (a forced move draws no number), and
``uniform_always`` as Ninety-Nine's and Pitch's do (a number even for a forced move): a game
played with it is the very game ``random`` plays. Twenty-Two's ``random`` draws no list (it
counts the legal sets and builds the drawn one): ``twenty_two_random`` is it, called on what
the view holds.
"""

import numpy as np
from numba import njit

from analyzer.games.hearts2 import view as H2
from analyzer.games.pitch10 import view as P10
from analyzer.games.twenty_two import view as TT
from analyzer.games.twenty_two.rules import SCRATCH
from analyzer.games.twenty_two.strategies import random_move as twenty_two_random_move
from analyzer.rng import randbelow


@njit
def uniform(view, legal, n, rng):
    if n == 1:
        return legal[0]
    return legal[randbelow(rng, n)]


@njit
def uniform_always(view, legal, n, rng):
    return legal[randbelow(rng, n)]


@njit
def last_legal(view, legal, n, rng):
    return legal[n - 1]


@njit
def never_legal(view, legal, n, rng):
    return -7


@njit
def raises(view, legal, n, rng):
    if n > 1:
        raise ValueError("no move for you")
    return legal[0]


@njit
def hearts2_view_checked(view, legal, n, rng):
    """``uniform``, after checking the view it is given against what a hearts2 seat sees
    (tests/test_user_strategies.py: an ``mc`` base sees what a seat sees): its legal cards
    in its hand, no card both held and played, the tricks won summing to the tricks played,
    the game's target (100) and a hand number. A view short of these raises."""
    hand, played = view[H2.HAND], view[H2.PLAYED]
    for i in range(n):
        if not (hand >> legal[i]) & 1:
            raise ValueError("a legal card not in view[HAND]")
    if hand & played:
        raise ValueError("a card both held and played")
    if view[H2.TRICKS_WON] + view[H2.TRICKS_WON + 1] != view[H2.TRICK] or view[H2.TRICK] > 12:
        raise ValueError("tricks won do not add up to the tricks played")
    if view[H2.TARGET] != 100 or view[H2.HAND_NO] < 1 or view[H2.SEAT] < 0 or view[H2.SEAT] > 1:
        raise ValueError("the game's facts are missing from the view")
    if n == 1:
        return legal[0]
    return legal[randbelow(rng, n)]


@njit
def twenty_two_random(view, legal, n, rng):
    """Twenty-Two's ``random`` (default rules: ``lowest_only_if_unable`` off) as a user
    strategy: the built-in's own draw (strategies.random_move) on the decision the view
    describes (kind, hand, hand size, set size, best set, stock), the same numbers from the
    same stream. A wrong field of the view gives another move."""
    scr = np.zeros(SCRATCH, dtype=np.int64)
    return twenty_two_random_move(view[TT.KIND], view[TT.HAND], view[TT.HAND_SIZE], view[TT.SET_SIZE],
                                  view[TT.BEST], view[TT.STOCK], False, legal, n, rng, scr)


@njit
def twenty_two_view_checked(view, legal, n, rng):
    """``twenty_two_random``, after checking the view against what a Twenty-Two seat sees
    (default rules, 4 players): the hand's counts, size and legal moves within it, the set
    size of a follow, the seat in the game, the target (22) and a hand number. A view short
    of these raises."""
    hand = view[TT.HAND]
    size = 0
    for r in range(13):
        if (hand >> (4 * r)) & 15 != view[TT.COUNTS + r]:
            raise ValueError("view[HAND] and view[COUNTS] disagree")
        size += view[TT.COUNTS + r]
    if size != view[TT.HAND_SIZE] or n < 1:
        raise ValueError("the hand size is not the hand's")
    for i in range(n):
        cards = 0
        for r in range(13):
            c = (legal[i] >> (4 * r)) & 15
            if c > (hand >> (4 * r)) & 15:
                raise ValueError("a legal move not in the hand")
            cards += c
        if view[TT.KIND] == TT.KIND_FOLLOW and cards != view[TT.SET_SIZE]:
            raise ValueError("a follow of another size than the lead's")
    if view[TT.KIND] != TT.KIND_FOLLOW and (view[TT.SET_SIZE] != 0 or view[TT.BEST_SEAT] != -1):
        raise ValueError("a trick's facts outside a follow")
    if view[TT.KIND] == TT.KIND_FOLLOW and (view[TT.BEST] == 0 or view[TT.BEST_SEAT] < 0):
        raise ValueError("a follow without the best set")
    if view[TT.PLAYERS] != 4 or view[TT.ACTIVE + view[TT.SEAT]] != 1 or view[TT.TARGET] != 22 or view[TT.HAND_NO] < 1:
        raise ValueError("the game's facts are missing from the view")
    return twenty_two_random(view, legal, n, rng)


@njit
def pitch10_view_checked(view, legal, n, rng):
    """``uniform_always`` (Pitch's ``random``), after checking the view against what a Pitch
    seat sees (default rules): nine cards while bidding, no pitcher yet; trump named from the
    give decision on; a discard's or play's legal cards are trumps held (all of them, or
    pimc's tied ones), none of them played; a player that has not played to the trick; the
    target (52). A view short of these raises."""
    kind, seat, hand = view[P10.KIND], view[P10.SEAT], view[P10.HAND]
    if seat < 0 or seat > 3 or view[P10.TARGET] != 52 or view[P10.DEALER] < 0 or view[P10.DEALER] > 3:
        raise ValueError("the game's facts are missing from the view")
    if (view[P10.TRUMP] >= 0) != (kind >= P10.KIND_GIVE):
        raise ValueError("trump named at the wrong time")
    if kind == P10.KIND_BID and (view[P10.PITCHER] != -1 or view[P10.BIDS + seat] != -1 or P10.popcount(hand) != 9):
        raise ValueError("a bid without its nine cards, or after the bidding")
    if kind >= P10.KIND_DISCARD:
        if n > P10.popcount(hand):
            raise ValueError("more legal cards than trumps held")
        for i in range(n):
            if not (hand >> legal[i]) & 1 or (view[P10.SEEN] >> legal[i]) & 1:
                raise ValueError("a legal card not held, or already played")
    if kind == P10.KIND_PLAY and (view[P10.TRICK + seat] != -1 or view[P10.LEADER] < 0):
        raise ValueError("a play by a seat that has played to the trick")
    return legal[randbelow(rng, n)]
