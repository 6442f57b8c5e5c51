"""User strategies inside a game's compiled engine, without recompiling it.

Built-in strategies are dispatched by integer id inside the cached kernels. A user
strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``; the kernels take the
user strategies of a run as their last argument ``users``: a tuple of ``SLOTS`` compiled
functions of one signature (``USER_SIGNATURE``; numba's first-class function type), the
unused slots empty. A seat whose strategy id is ``sid < 0`` plays ``users[-1 - sid]``.

So a game's kernels are compiled (and cached) once, for every strategy: a run with a user
strategy compiles only the user's function (with bounds checks) and a small wrapper that
binds its parameters, in about a second, at the first call of an entry point. DESIGN.md
measured the indirect call at about +25% of the game time of a user strategy; built-in
strategies do not pay it. The code played is the very same Python source: one engine.

A game's ``kernel.py`` declares ``USER_ENTRIES``: its entry points that take ``users``
(``run_chunk``, ``run_traced``, ``evaluate_chunk``, ...). ``SlotKernel`` is that module
with the slots filled in: the form every caller (GameSpec.kernels, user_kernel) uses.
"""

from __future__ import annotations

import types
from typing import Callable

from analyzer.jit import njit, numba

#: what a slot raises for a move not in ``legal[:n]`` when it checks legality (the evaluation
#: kernels, and ``mc``'s rollouts with a user base); api.user_guard reads it
ILLEGAL_MARK = "analyzer: user strategy returned an illegal move"

#: the type of every user strategy slot: ``(view, legal, n, rng) -> move``
USER_SIGNATURE = numba.types.int64(numba.types.int64[::1], numba.types.int64[::1], numba.types.int64,
                                   numba.types.uint64[::1])
#: user strategy slots a kernel receives (a tuple of this length, the unused ones empty): one
#: length for every run, so that the kernels compile (and cache) once
SLOTS = 10


@njit(USER_SIGNATURE, cache=True)
def empty_slot(view, legal, n, rng):
    """A slot no seat plays (a seat with user strategy ``-1 - slot`` only reaches filled ones)."""
    return -1


def _python(fn: Callable) -> Callable:
    """The Python function of an ``@njit`` dispatcher (under ``--debug`` njit returns it as is)."""
    return getattr(fn, "py_func", fn)


def user_slot(strategy, check_legal: bool) -> Callable:
    """A UserStrategy as a compiled function of ``USER_SIGNATURE``: its parameter values
    bound as literals; with ``check_legal``, a move not in ``legal[:n]`` raises
    ValueError(ILLEGAL_MARK) (the evaluation kernels do not look at ``err``)."""
    args = "".join(f", {int(v)}" for v in strategy.params)
    lines = ["def slot(view, legal, n, rng):", f"    m = f(view, legal, n, rng{args})"]
    if check_legal:
        lines += ["    for i in range(n):", "        if legal[i] == m:", "            return m",
                  f"    raise ValueError({ILLEGAL_MARK!r})"]
    else:
        lines.append("    return m")
    # the user's code is compiled again with bounds checks: an index out of range raises
    # (reported in one line) instead of reading or writing memory it does not own
    namespace = {"f": njit(boundscheck=True)(_python(strategy.function)), "__name__": __name__}
    exec("\n".join(lines), namespace)
    slot = njit(USER_SIGNATURE)(namespace["slot"])
    # the slot's signature would cast any number to a move: a float (or a bool) returned is a fault
    for signature in getattr(namespace["f"], "nopython_signatures", []):
        if not isinstance(signature.return_type, numba.types.Integer):
            raise TypeError(f"it returns {signature.return_type}, not an integer move")
    return slot


class SlotKernel:
    """A game's kernel module whose entry points (``USER_ENTRIES``) get the user strategy
    slots as their last argument; every other name as the module has it.

    The slots compile at the first call of an entry point, inside the caller's error
    guard (api.user_guard), so that a strategy numba cannot compile is one line."""

    def __init__(self, module: types.ModuleType, strategies: list, check_legal: bool) -> None:
        if len(strategies) > SLOTS:
            raise ValueError(f"at most {SLOTS} user strategies in one run")
        self._module = module
        self._strategies = list(strategies)
        self._check_legal = check_legal
        self._slots: tuple | None = None

    def slots(self) -> tuple:
        if self._slots is None:
            filled = [user_slot(s, self._check_legal) for s in self._strategies]
            self._slots = tuple(filled + [empty_slot] * (SLOTS - len(filled)))
        return self._slots

    def __getattr__(self, name: str):
        value = getattr(self._module, name)
        if name in self._module.USER_ENTRIES:
            return lambda *args: value(*args, self.slots())
        return value


#: one SlotKernel per kernel module, list of strategies and legality check, per process: the
#: user functions compile once per process
_BOUND: dict[tuple, SlotKernel] = {}


def bound_kernel(module: types.ModuleType, strategies: list, check_legal: bool = False) -> SlotKernel:
    """``module`` with ``strategies`` (UserStrategy, slot order) in its user slots."""
    key = (module.__name__, tuple(strategies), check_legal)
    if key not in _BOUND:
        _BOUND[key] = SlotKernel(module, strategies, check_legal)
    return _BOUND[key]
