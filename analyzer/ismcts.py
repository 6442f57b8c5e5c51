"""The tree of single-observer information-set Monte Carlo tree search (SO-ISMCTS: Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", 2012), compiled, for every
game's ``ismcts`` strategy.

One search decides one move for one seat, the observer. Each iteration samples a world of
the hidden cards consistent with what the observer saw (the game's sampler), walks down the
tree playing in that world, adds one node, plays the rest out with a base strategy and
backs the outcome up. A node stands for the observer's information set after a sequence
of moves, so its children are the moves of whoever moves there; a child's statistics are
shared by every world in which its move was legal. Selection uses UCB1 with availability
counts: a child's exploration term counts the iterations in which it could have been
chosen, not the parent's visits (moves legal in few worlds are not over-explored).

The game owns the loop (its state, legal moves, sampler and rollouts: a rule has one
address, in its game's package); this module owns the tree, held in a ``Tree`` of arrays:

    move     int64[N]    the move leading to each node (root: -1)
    mover    int64[N]    the seat that made it (root: -1); its reward is backed up there
    child    int64[N]    first child, -1 if none
    sibling  int64[N]    next child of the same parent, -1 if none
    visits   int64[N]    iterations through the node
    avail    int64[N]    iterations in which its move was legal at its parent (UCB's "parent visits")
    reward   float64[N]  sum of the mover's rewards (each in [0, 1]) over those visits
    path     int64[D]    the nodes of the current iteration, root first
    legal    int64[L]    the game writes the legal moves of the current world here
    result   float64[P]  the game writes each seat's reward of the current playout here
    size     int64[1]    nodes in use

N is the iterations plus one (each iteration adds at most one node), D the longest line of
play a search can walk, L the most legal moves, P the seats. ``new_tree`` allocates one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer.jit import njit
from analyzer.rng import randbelow


class Tree(NamedTuple):
    move: np.ndarray
    mover: np.ndarray
    child: np.ndarray
    sibling: np.ndarray
    visits: np.ndarray
    avail: np.ndarray
    reward: np.ndarray
    path: np.ndarray
    legal: np.ndarray
    result: np.ndarray
    size: np.ndarray


@njit(cache=True)
def new_tree(nodes, depth, moves, players):
    """A tree of ``nodes`` nodes (at least 2), its path ``depth`` long, room for ``moves``
    legal moves and ``players`` rewards."""
    nodes = max(nodes, 2)
    return Tree(np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64),
                np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64),
                np.zeros(nodes, dtype=np.float64), np.zeros(depth, dtype=np.int64), np.zeros(moves, dtype=np.int64),
                np.zeros(players, dtype=np.float64), np.zeros(1, dtype=np.int64))


@njit(cache=True, _nrt=False)
def reset(tree):
    """An empty search: the root alone."""
    tree.size[0] = 1
    tree.move[0] = -1
    tree.mover[0] = -1
    tree.child[0] = -1
    tree.sibling[0] = -1
    tree.visits[0] = 0
    tree.avail[0] = 0
    tree.reward[0] = 0.0


@njit(cache=True, _nrt=False, inline="always")
def find_child(tree, node, move):
    """The child of ``node`` reached by ``move``, or -1."""
    c = tree.child[node]
    while c >= 0 and tree.move[c] != move:
        c = tree.sibling[c]
    return c


@njit(cache=True, _nrt=False)
def add_child(tree, node, move, mover):
    """A new child of ``node`` for ``move`` by seat ``mover``; -1 when the tree is full."""
    c = tree.size[0]
    if c >= tree.move.shape[0]:
        return -1
    tree.size[0] = c + 1
    tree.move[c] = move
    tree.mover[c] = mover
    tree.child[c] = -1
    tree.sibling[c] = tree.child[node]
    tree.child[node] = c
    tree.visits[c] = 0
    tree.avail[c] = 1
    tree.reward[c] = 0.0
    return c


@njit(cache=True, _nrt=False)
def descend(tree, node, n, mover, explore, rng):
    """One step down from ``node``, where seat ``mover`` chooses among the ``n`` legal moves
    of this world (``tree.legal[:n]``). Returns (child, expanded):

    - a legal move without a child yet: one of them (uniform, from ``rng``, uint64[4]) gets
      a new child, and expanded is True (the iteration then plays out from there);
    - else the legal child of highest UCB1, ``mean + explore * sqrt(ln(avail) / visits)``,
      every legal child's availability counted first; expanded is False.

    A full tree expands nothing: it selects among the legal children it has, and returns
    (-1, False) if there is none (the caller plays out from ``node``)."""
    legal = tree.legal
    untried = 0
    for i in range(n):
        if find_child(tree, node, legal[i]) < 0:
            untried += 1
    if untried > 0 and tree.size[0] < tree.move.shape[0]:
        pick = randbelow(rng, untried) if untried > 1 else 0
        for i in range(n):
            if find_child(tree, node, legal[i]) < 0:
                if pick == 0:
                    return add_child(tree, node, legal[i], mover), True
                pick -= 1
    best, best_score = -1, -1.0
    for i in range(n):
        c = find_child(tree, node, legal[i])
        if c < 0:
            continue
        tree.avail[c] += 1
        if tree.visits[c] == 0:  # added, never backed up (a full tree): try it first
            score = 1e300
        else:
            score = tree.reward[c] / tree.visits[c] + explore * np.sqrt(np.log(tree.avail[c]) / tree.visits[c])
        if score > best_score:
            best, best_score = c, score
    return best, False


@njit(cache=True, _nrt=False)
def back_up(tree, depth):
    """Add the playout's rewards (``tree.result``, by seat) to the ``depth`` nodes of
    ``tree.path``: each node gets the reward of the seat whose move it is."""
    for i in range(depth):
        node = tree.path[i]
        tree.visits[node] += 1
        if tree.mover[node] >= 0:
            tree.reward[node] += tree.result[tree.mover[node]]


@njit(cache=True, _nrt=False)
def most_visited(tree):
    """The root's move with the most visits (ties: the higher mean reward, then the move
    added first); -1 for a root without children."""
    best, best_visits, best_mean = -1, -1, -1.0
    c = tree.child[0]
    while c >= 0:
        v = tree.visits[c]
        mean = tree.reward[c] / v if v > 0 else 0.0
        if v > best_visits or (v == best_visits and mean >= best_mean):  # (the list runs newest first)
            best, best_visits, best_mean = tree.move[c], v, mean
        c = tree.sibling[c]
    return best
