"""Bit helpers for card masks held in an int64 (or uint64) word, compiled and inlined.

Every game that keeps a set of cards or moves as a bit mask counts, scans and picks its
bits with these, defined once. Each is inlined (``jit.HELPER_INLINE``: by numba or by LLVM,
as the calling game chooses): one or a few instructions, no call left in the hot loops that
use them.

- ``popcount`` is the SWAR sum over the unsigned word (``x`` as uint64). Done in uint64
  for two reasons: the byte sum's multiply overflows, which int64 arithmetic may not do
  (LLVM assumes it does not, and once miscompiled a loop bounded by a signed popcount:
  ``range(2 - popcount(m))`` in hearts2's deal ran too few times); and logical shifts
  keep the canonical form, which LLVM turns into one ``popcnt`` where the CPU has it.
- ``lowest`` and ``highest`` are numba's count-trailing/leading-zeros intrinsics
  (``analyzer.jit``: one instruction each on x86-64 with BMI; measured in hearts2 against
  the de Bruijn multiply and table used before: random games ~8% faster, heuristic ones
  ~15%). Under ``analyzer --debug`` they are plain Python with the same answers.
- ``nth_bit`` (the ``k``-th set bit: a uniform draw's card) is one BMI2 ``pdep`` and a
  bit scan where the CPU does ``pdep`` fast (``analyzer.jit.FAST_DEPOSIT``: x86-64 with
  BMI2, not AMD Zen 1 or 2). Measured against the loop below in paired runs on one core
  (2026-12-04, Zen 4), random play: hearts2 +45%, Pitch +10%, Twenty-Two +3%,
  Two-Ten-Jack +2%, the games identical. Elsewhere it clears the lowest set bit ``k``
  times (one instruction each): the masks are small hands, and measured in hearts2 this
  beat a branch-free byte-wise select, whose long dependency chain sits on the critical
  path of every decision.

A mask's bit ``i`` stands for card (or move) code ``i``; the games keep their masks below
2**63 (54 cards at most), so the sign bit is never a card. The helpers take any 64-bit
word all the same and say what they return for the edge cases (an empty mask, the sign
bit).
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import FAST_DEPOSIT, HELPER_INLINE, leading_zeros, njit, trailing_zeros  # bit-scan intrinsics (Python under --debug)

if FAST_DEPOSIT:
    from analyzer.jit import deposit_bits  # BMI2's pdep

_M1 = np.uint64(0x5555555555555555)  # every other bit
_M2 = np.uint64(0x3333333333333333)  # every other pair of bits
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)  # every other nibble
_H01 = np.uint64(0x0101010101010101)  # one in each byte: a multiply by it sums the bytes into the top one
_U1, _U2, _U4, _U56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)


@njit(cache=True, inline=HELPER_INLINE)
def popcount(x: np.int64) -> np.int64:
    """Number of set bits of the 64-bit word ``x`` (0..64; for a negative int64 its sign
    bit counts too). Returns an int64."""
    u = np.uint64(x)
    a = u - ((u >> _U1) & _M1)  # each pair of bits: its count
    b = (a & _M2) + ((a >> _U2) & _M2)  # each nibble: its count
    c = (b + (b >> _U4)) & _M4  # each byte: its count
    return np.int64((c * _H01) >> _U56)  # the byte counts summed (the multiply wraps, unsigned)


@njit(cache=True, inline=HELPER_INLINE)
def lowest(x: np.int64) -> np.int64:
    """Index (0..63) of the lowest set bit of ``x``: for a single-bit mask, the code of
    its card. 64 for an empty mask (callers pass non-empty ones)."""
    return np.int64(trailing_zeros(np.uint64(x)))


@njit(cache=True, inline=HELPER_INLINE)
def highest(x: np.int64) -> np.int64:
    """Index (0..63) of the highest set bit of ``x`` (63 for a negative int64); -1 for an
    empty mask, so ``highest(m) > k`` is false when ``m`` is empty."""
    return 63 - np.int64(leading_zeros(np.uint64(x)))


@njit(cache=True, inline=HELPER_INLINE)
def nth_bit_by_clearing(x: np.int64, k: np.int64) -> np.int64:
    """``nth_bit`` on any CPU: clears the lowest set bit ``k`` times, a loop of ``k``
    steps, cheap for the small ``k`` of a hand (see the module's notes). 64 for any
    ``k >= popcount(x)``."""
    y = x
    for _ in range(k):
        y &= y - 1
    return lowest(y)


if FAST_DEPOSIT:
    @njit(cache=True, inline=HELPER_INLINE)
    def nth_bit_by_deposit(x: np.int64, k: np.int64) -> np.int64:
        """``nth_bit`` with BMI2: one ``pdep`` deposits bit ``k`` at the ``k``-th set bit of
        ``x``, and a bit scan finds it. 64 for ``popcount(x) <= k < 64``; ``k`` is taken
        modulo 64 (the shift's count), so ``k = 64`` does not give 64."""
        return lowest(np.int64(deposit_bits(_U1 << np.uint64(k), np.uint64(x))))

    #: index of the ``k``-th lowest set bit (from 0) of ``x``, for ``0 <= k < popcount(x)``:
    #: e.g. the card a uniform draw ``k`` picks from a hand (the two forms: the module's notes)
    nth_bit = nth_bit_by_deposit
else:
    nth_bit = nth_bit_by_clearing
