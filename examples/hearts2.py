"""An example user strategy for Two-player Hearts (``hearts2``): ``ducker``.

Run it with (the first run compiles it in about a second; a first run of the game compiles
the engine once, about a minute):

    analyzer simulate hearts2 --games 2000 --seat 0=examples/hearts2.py:ducker
    analyzer compare hearts2 examples/hearts2.py:ducker random --until-significant
    analyzer compare hearts2 examples/hearts2.py:ducker heuristic --until-significant
    analyzer evaluate hearts2 --seat 0 --hand "QS 2H" --scores 99,99 --set trick=2D \\
        --played "6C 4H 2S 4S 8C 6H 6S 8S TC 8H 4D 6D QC TH 8D TD AC QH TS AS QD AD" \\
        --rollout examples/hearts2.py:ducker

A strategy is an ``@njit`` function ``(view, legal, n, rng) -> card code``; the fields of
``view`` and the helpers are named in ``analyzer/games/hearts2/view.py`` (docs/hearts2.md,
"Writing a strategy"). ``ducker`` wants to take no points: it ducks under the card led
when it can, gets rid of QS and its high cards when it cannot follow, and leads low. On
1,000 duplicate deals (the compare commands above, seed 0) it takes 0.802 of the wins
against ``random`` [0.784, 0.819] and 0.404 against ``heuristic`` [0.386, 0.422].
"""

from numba import njit

from analyzer.games.hearts2.view import HEARTS, LED, QUEEN_OF_SPADES, rank_of, suit_of


@njit
def ducker(view, legal, n, rng):
    """Take as few points as possible, one trick at a time (no thought of the moon)."""
    led = view[LED]
    if led < 0:
        return lowest_safe_lead(legal, n)
    if suit_of(legal[0]) == suit_of(led):  # able to follow: every legal card is of the suit led
        return duck(legal, n, led)
    return discard(legal, n)


@njit
def lowest_safe_lead(legal, n):
    """The lowest-ranked card that is neither a heart nor QS; else the lowest heart; QS last."""
    best = -1
    for i in range(n):
        card = legal[i]
        if card == QUEEN_OF_SPADES or suit_of(card) == HEARTS:
            continue
        if best < 0 or rank_of(card) < rank_of(best):
            best = card
    if best >= 0:
        return best
    for i in range(n):  # only hearts and QS are left
        card = legal[i]
        if suit_of(card) == HEARTS and (best < 0 or card < best):
            best = card
    return best if best >= 0 else QUEEN_OF_SPADES


@njit
def duck(legal, n, led):
    """Following suit: the highest card below the one led (it loses the trick); when every
    card wins, the highest one that is not QS (shed it while the trick is ours anyway)."""
    below = -1
    above = -1
    for i in range(n):
        card = legal[i]
        if card < led:
            below = max(below, card)
        elif card != QUEEN_OF_SPADES:
            above = max(above, card)
    if below >= 0:
        return below
    return above if above >= 0 else QUEEN_OF_SPADES


@njit
def discard(legal, n):
    """Unable to follow: QS (the opponent takes it), else the highest-ranked card that is
    not a heart (a heart would trump and take the trick); holding only hearts, the highest."""
    best = -1
    for i in range(n):
        card = legal[i]
        if card == QUEEN_OF_SPADES:
            return card
        if suit_of(card) != HEARTS and (best < 0 or rank_of(card) > rank_of(best)):
            best = card
    if best >= 0:
        return best
    for i in range(n):
        best = max(best, legal[i])
    return best
