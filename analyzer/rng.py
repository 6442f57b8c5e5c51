"""Counter-based random streams: one per (seed, game index, purpose).

Game ``i`` of a run with seed ``s`` seeds its own xoshiro256** states from splitmix64 of
``(s, i, purpose)``, so a game's randomness never depends on chunking, threads, processes
or machines. Each game uses at least two streams: ``DEAL`` for shuffles and the first
dealer (or, per hand, ``hand_purpose(k)``), and ``PLAY`` for strategy coin flips. Keeping them apart means a traced run can preview a
whole shuffle without disturbing the strategies, and decision evaluation can replay the
same deals under different choices (common random numbers).

A state is a ``uint64[4]`` array, advanced in place. The ``*_w`` variants take and return
the four words as a tuple instead, for play loops that keep a stream in registers.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import HELPER_INLINE, ix, njit

DEAL = 0
PLAY = 1
#: purposes from HAND on are per-hand deal streams: ``hand_stream(k)`` for hand k (1-based)
HAND = 16

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True, inline=HELPER_INLINE)
def _mix(z: np.uint64) -> np.uint64:
    # no reassignment of the argument: numba's inline="always" has mishandled that
    a = (z ^ (z >> np.uint64(30))) * _MIX1
    b = (a ^ (a >> np.uint64(27))) * _MIX2
    return b ^ (b >> np.uint64(31))


@njit(cache=True, inline=HELPER_INLINE)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_stream(state: np.ndarray, seed: np.uint64, index: np.int64, purpose: np.int64) -> None:
    """Fill ``state`` (uint64[4]) with the stream for ``(seed, index, purpose)``."""
    x = _mix(np.uint64(seed) + _GOLDEN)
    x = _mix(x ^ (np.uint64(index) * _MIX2 + _GOLDEN))
    x = _mix(x ^ (np.uint64(purpose) + np.uint64(0x632BE59BD9B4E019)))
    for j in range(4):
        x += _GOLDEN
        state[j] = _mix(x)


@njit(cache=True, inline=HELPER_INLINE)
def hand_purpose(hand: np.int64) -> np.int64:
    """Purpose of the deal stream of hand ``hand`` (1-based).

    Games whose number of draws per hand depends on play (Ninety-Nine, Twenty-Two) seed a
    fresh deal stream for each hand: then hand k of game i is dealt the same cards
    whatever happened before, which is what duplicate deals and paired comparisons need.
    """
    return HAND + hand


@njit(cache=True, inline=HELPER_INLINE)
def next_u64(state: np.ndarray) -> np.uint64:
    """xoshiro256**: the next 64-bit output; advances ``state`` in place (:func:`next_u64_w`)."""
    result, words = next_u64_w(load_words(state))
    store_words(state, words)
    return result


@njit(cache=True, inline=HELPER_INLINE)
def randbelow(state: np.ndarray, n: np.int64) -> np.int64:
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased (Lemire;
    :func:`randbelow_w`); advances ``state`` in place."""
    value, words = randbelow_w(load_words(state), n)
    store_words(state, words)
    return value


@njit(cache=True, inline=HELPER_INLINE)
def uniform01(state: np.ndarray) -> np.float64:
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline=HELPER_INLINE)
def draw_lazy(deck: np.ndarray, top: np.int64, end: np.int64, state: np.ndarray) -> np.int64:
    """One step of a forward Fisher-Yates shuffle of ``deck[top:end]``.

    Swaps a uniformly chosen card of ``deck[top:end]`` into ``deck[top]`` and returns it.
    Drawing cards this way, one at a time, yields exactly the order a full forward
    shuffle from the same stream would give, while only paying for the cards drawn.
    """
    card, words = draw_lazy_w(deck, top, end, load_words(state))
    store_words(state, words)
    return card


@njit(cache=True)
def shuffle(deck: np.ndarray, top: np.int64, end: np.int64, state: np.ndarray) -> None:
    """Shuffle ``deck[top:end]`` in place (forward Fisher-Yates, see ``draw_lazy``)."""
    shuffle_front(deck, top, end, end, state)


@njit(cache=True)
def shuffle_front(deck: np.ndarray, top: np.int64, stop: np.int64, end: np.int64, state: np.ndarray) -> None:
    """The first steps of ``shuffle(deck, top, end, state)``, up to position ``stop``:
    ``deck[top:stop]`` is then a uniform draw without replacement from ``deck[top:end]``, in
    uniform order, and ``deck[stop:end]`` holds the other cards in an order that depends on
    where they were. Where those cards form a stock that is then drawn lazily (each draw a
    uniform position, with numbers that come after these), their order does not change the
    law of anything: a full shuffle's law at the price of ``stop - top`` draws. The stream's
    state is held as words meanwhile (the section below says why)."""
    words = load_words(state)
    for pos in range(top, min(stop, end - 1)):
        card, words = draw_lazy_w(deck, pos, end, words)
    store_words(state, words)


@njit(cache=True)
def preview_into(deck: np.ndarray, top: np.int64, end: np.int64, state: np.ndarray,
                 order: np.ndarray, scratch: np.ndarray) -> np.int64:
    """Write into ``order`` the order in which lazy draws will deal ``deck[top:end]``.

    Neither ``deck`` nor ``state`` moves (``scratch`` is a uint64[4] copy of the state),
    so a traced run can put the whole stock in its record while the engine goes on
    drawing lazily. Returns the number of cards written.
    """
    n = end - top
    for i in range(n):
        order[i] = deck[top + i]
    for j in range(4):
        scratch[j] = state[j]
    shuffle(order, 0, n, scratch)
    return n


@njit(cache=True)
def preview_order(deck: np.ndarray, top: np.int64, end: np.int64, state: np.ndarray) -> np.ndarray:
    """Allocating form of :func:`preview_into`."""
    order = np.empty(end - top, dtype=deck.dtype)
    preview_into(deck, top, end, state, order, np.empty(4, dtype=np.uint64))
    return order


# ---- the generator on a state held in local variables ------------------------------------------
# numba gives LLVM no alias information, so a state kept in a uint64[4] array is reloaded
# from memory after every store to any other array. A hot loop can instead hold the state
# as a tuple of four words (``load_words``), advance it with the ``*_w`` functions below
# and put it back with ``store_words`` before anything else reads the array. They are the
# one implementation: ``next_u64``, ``randbelow`` and ``draw_lazy`` wrap them.

@njit(cache=True, inline=HELPER_INLINE)
def load_words(state: np.ndarray) -> tuple:
    """The state of a uint64[4] array as a tuple of four words."""
    return state[0], state[1], state[2], state[3]


@njit(cache=True, inline=HELPER_INLINE)
def store_words(state: np.ndarray, words: tuple) -> None:
    """Write a tuple of four words back into a uint64[4] state array."""
    state[0], state[1], state[2], state[3] = words


@njit(cache=True, inline=HELPER_INLINE)
def next_u64_w(words: tuple) -> tuple:
    """xoshiro256** on a word tuple: (the next 64-bit output, the advanced words)."""
    s0, s1, s2, s3 = words
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    n2 = s2 ^ s0
    n3 = s3 ^ s1
    n1 = s1 ^ n2
    n0 = s0 ^ n3
    return result, (n0, n1, n2 ^ t, _rotl(n3, 45))


@njit(cache=True, inline=HELPER_INLINE)
def randbelow_w(words: tuple, n: np.int64) -> tuple:
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased (Lemire: the
    high 32 bits of an output times ``n``, retried below the threshold), on a word tuple:
    (value, advanced words)."""
    bound = np.uint64(n)
    x, w = next_u64_w(words)
    m = (x >> np.uint64(32)) * bound
    low = m & _LOW32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            x, w = next_u64_w(w)
            m = (x >> np.uint64(32)) * bound
            low = m & _LOW32
    return np.int64(m >> np.uint64(32)), w


@njit(cache=True, inline=HELPER_INLINE)
def draw_lazy_w(deck: np.ndarray, top: np.int64, end: np.int64, words: tuple) -> tuple:
    """One forward Fisher-Yates step (:func:`draw_lazy`) on a word tuple: (card, advanced words)."""
    k, w = randbelow_w(words, end - top)
    j = ix(top + k)
    card = deck[j]
    deck[j] = deck[ix(top)]
    deck[ix(top)] = card
    return card, w
