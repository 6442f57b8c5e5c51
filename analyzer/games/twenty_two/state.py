"""Twenty-Two game state (compiled): the named state bundle, its scalar registers, and the
functions that allocate and copy it.

A bundle is a ``Bundle`` (a NamedTuple of arrays: numba compiles it like a plain tuple,
at the same speed). Python reads it by field name, and its scalar registers ``sc`` only
through ``scalars`` (names in ``SCALARS``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer import ismcts
from analyzer.games.twenty_two.rules import MAX_LEGAL, P_LOWEST_ONLY, P_PLAYERS, SCRATCH
from analyzer.games.twenty_two.sampler import DESC, MAX_DP, TAB_SIZE, WORK
from analyzer.games.twenty_two.strategies import ISMCTS
from analyzer.games.twenty_two.view import VIEW_SIZE
from analyzer.jit import njit


class Bundle(NamedTuple):
    """One game's state and its scratch space (P = players)."""

    #: int64[52] this hand's deck (cards not yet scored); ``deck[top:ndeck]`` is the stock,
    #: lazily shuffled from the deal stream (rng.draw_lazy)
    deck: np.ndarray
    #: int64[P] card bitmask (bit = card code) of each seat's hand
    hmask: np.ndarray
    #: int64[P] the same hands as packed count vectors (rules.py)
    hpk: np.ndarray
    #: int64[P] points so far
    scores: np.ndarray
    #: bool[P] still in the game
    active: np.ndarray
    #: int64[P] the hand in which the seat went out (finishing places)
    gone: np.ndarray
    #: int64[P] cards each seat discarded this hand (face down, out of play)
    dmask: np.ndarray
    #: int64[P] lowest rank each seat can still hold this hand, as the rules showed it (a
    #: follower who plays a set that does not match or beat the best set has played its
    #: lowest cards: its other cards rank at least as high as the highest card of that set)
    floor: np.ndarray
    #: uint64[4] deal stream (a fresh one per hand: rng.hand_purpose)
    deal_rng: np.ndarray
    #: uint64[4] play stream (strategies' coin flips)
    play_rng: np.ndarray
    #: int64[N_SC] scalar registers (SCALARS)
    sc: np.ndarray
    #: int64[MAX_LEGAL] legal moves (packed sets) of the current decision, as the engine made
    #: them (a user strategy's move is checked against them)
    legal: np.ndarray
    #: int64[MAX_LEGAL] the copy of ``legal[:n]`` a user strategy, or a user base of ``mc`` in
    #: a rollout, gets as ``legal`` (it may write to it: the engine's own list stays intact,
    #: so it need not be made again to check the move)
    user_legal: np.ndarray
    #: int64[MAX_LEGAL] ``mc``'s final-trick points per candidate move, summed over its samples
    #: (kernel.mc_move; scratch, not state)
    totals: np.ndarray
    #: int64[VIEW_SIZE] what a user strategy sees (view.py; not ``view``: numba reserves that
    #: attribute name for arrays)
    seat_view: np.ndarray
    #: int64[SCRATCH] scratch of the legal-set enumerator (rules.py)
    scr: np.ndarray
    #: int64[52] small lists: drawn cards, seats out
    cards: np.ndarray
    #: int64[52] play order of the final trick; the sampler's pool
    order: np.ndarray
    #: int64[52] cards of the final trick; the sampler's cards of a rank
    fcards: np.ndarray
    #: int64[52] takers of the final trick; the sampler's seat list
    takers: np.ndarray
    #: int64[P] points of this hand's final trick
    points: np.ndarray
    #: uint64[2] (seed, game index): the per-hand deal streams derive from it
    gid: np.ndarray
    #: uint64[4] scratch of the stock preview in records
    rscr: np.ndarray
    #: int64[P] cards each seat played to this hand's tricks (packed)
    ppk: np.ndarray
    #: int64[3 * MAX_UNABLE] variant ``lowest_only_if_unable``: per "could not match or beat"
    #: follow (``nunable`` of them this hand) the seat, the best set it faced and its ``ppk``
    #: before that play
    unable: np.ndarray
    #: int64[DESC] the sampler's description its table was built for (sampler.py; not state)
    desc_cur: np.ndarray
    #: int64[DESC] the sampler's description of this decision
    desc: np.ndarray
    #: int64[WORK] the sampler's work area
    wk: np.ndarray
    #: int64[N_INFO] the sampler's table states, seat lists and drawn counts (I_*)
    sinfo: np.ndarray
    #: float64[TAB_SIZE in the variant, else 1] the sampler's counting table
    tab: np.ndarray


class SearchSpace(NamedTuple):
    """Where ``ismcts`` works besides its bundles (``search_space``). Apart from ``Bundle``,
    which stays a flat tuple of arrays (numba's parallel loops, which the chunks used until
    2026-12-05, took no nested tuples)."""

    #: analyzer.ismcts.Tree: room for the most iterations of an ``ismcts`` seat (else 2 nodes);
    #: its ``legal`` holds MAX_LEGAL moves (the candidates are picked from the legal list)
    tree: tuple
    #: int64[3 + 4 P] scratch out row of the playouts (final_trick and deal_hand count there;
    #: nobody reads it)
    out: np.ndarray
    #: int64[2]: ``mc``'s decisions searched and the moves of their rollouts (kernel.mc_work)
    work: np.ndarray


#: scalar registers (``sc``), in index order. phase: PH_* (codes.py); seat: to move;
#: ndone: discards made / sets played to this trick; top, ndeck: the stock is
#: deck[top:ndeck]; size: cards dealt; hs: hand size during the tricks; leader, set, best,
#: winner: the trick (set size, best set so far and its seat); played: packed ranks played
#: to this hand's ordinary tricks; nactive: players in; scored: bitmask of the cards scored
#: this game; hands: hands dealt; decisions: made this game; over, winners: the game's end
#: (winners a seat bit mask); has_user: a user strategy plays; nunable: events in ``unable``
SCALARS = ("dealer", "phase", "seat", "ndone", "top", "ndeck", "size", "hs", "leader", "set", "best",
           "winner", "played", "nactive", "scored", "hands", "decisions", "over", "winners", "has_user",
           "nunable")
(S_DEALER, S_PHASE, S_SEAT, S_NDONE, S_TOP, S_NDECK, S_SIZE, S_HS, S_LEADER, S_SET, S_BEST, S_WINNER,
 S_PLAYED, S_NACTIVE, S_SCORED, S_HANDS, S_DECISIONS, S_OVER, S_WINNERS, S_HAS_USER, S_NUNABLE) = range(len(SCALARS))
N_SC = len(SCALARS)

#: "could not match or beat" events of a hand (variant): a hand has at most 10 tricks of 5 followers
MAX_UNABLE = 64
# sampler scratch (``sinfo``): table states, valid flag, seat lists, drawn counts
I_NST, I_VALID, I_NREJ, I_DP, I_ND, I_REJ, I_COUNTS = 0, 1, 2, 8, 16, 24, 96
N_INFO = I_COUNTS + 13 * MAX_DP


def scalars(ws: Bundle) -> dict[str, int]:
    """The scalar registers of a bundle by name (the one way Python reads ``sc``)."""
    return {name: int(ws.sc[i]) for i, name in enumerate(SCALARS)}


@njit(entry=True, cache=True)
def workspace(params):
    """One state bundle, allocated once per block of games."""
    players = params[P_PLAYERS]
    return Bundle(np.zeros(52, dtype=np.int64), np.zeros(players, dtype=np.int64),
                  np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
                  np.zeros(players, dtype=np.bool_), np.zeros(players, dtype=np.int64),
                  np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
                  np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
                  np.zeros(N_SC, dtype=np.int64),
                  np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(MAX_LEGAL, dtype=np.int64),
                  np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(VIEW_SIZE, dtype=np.int64),
                  np.zeros(SCRATCH, dtype=np.int64),
                  np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
                  np.zeros(52, dtype=np.int64), np.zeros(52, dtype=np.int64),
                  np.zeros(players, dtype=np.int64), np.zeros(2, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
                  np.zeros(players, dtype=np.int64), np.zeros(3 * MAX_UNABLE, dtype=np.int64),
                  np.zeros(DESC, dtype=np.int64), np.zeros(DESC, dtype=np.int64), np.zeros(WORK, dtype=np.int64),
                  np.zeros(N_INFO, dtype=np.int64),
                  # the counting table only where it can be needed (the variant)
                  np.zeros(TAB_SIZE if params[P_LOWEST_ONLY] != 0 else 1, dtype=np.float64))


@njit(cache=True)
def search_space(params, strat):
    """The ``SearchSpace`` of a block of games whose seats play ``strat``: the tree has room
    for the most iterations of a seat that plays ``ismcts`` (each iteration adds at most
    one node; a line of play is never longer than the tree)."""
    nodes = 2
    for s in range(strat.shape[0]):
        if strat[s, 0] == ISMCTS:
            nodes = max(nodes, strat[s, 1] + 1)
    players = params[P_PLAYERS]
    return SearchSpace(ismcts.new_tree(nodes, nodes + 1, MAX_LEGAL, players), np.zeros(3 + 4 * players, dtype=np.int64),
                       np.zeros(2, dtype=np.int64))


@njit(cache=True, _nrt=False)
def copy_bundle(src, dst):
    """Copy a whole game state (``src`` into ``dst``; scratch arrays are not state)."""
    for i in range(52):
        dst.deck[i] = src.deck[i]
    for p in range(src.hmask.shape[0]):
        dst.hmask[p] = src.hmask[p]
        dst.hpk[p] = src.hpk[p]
        dst.scores[p] = src.scores[p]
        dst.active[p] = src.active[p]
        dst.gone[p] = src.gone[p]
        dst.dmask[p] = src.dmask[p]
        dst.floor[p] = src.floor[p]
    for j in range(4):
        dst.deal_rng[j] = src.deal_rng[j]
        dst.play_rng[j] = src.play_rng[j]
    for j in range(N_SC):
        dst.sc[j] = src.sc[j]
    dst.gid[0] = src.gid[0]
    dst.gid[1] = src.gid[1]
    for p in range(src.hmask.shape[0]):
        dst.ppk[p] = src.ppk[p]
    for j in range(3 * src.sc[S_NUNABLE]):
        dst.unable[j] = src.unable[j]
