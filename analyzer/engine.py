"""Binding user strategies into a game's compiled engine without a second copy of it.

Built-in strategies are dispatched by integer id inside the cached kernels. A user
strategy is an ``@njit`` function; passing it as a kernel argument would defeat the cache
(DESIGN.md), so instead we recompile the chain of functions that leads from the kernels
to the call site, with the module-level name ``user_strategy`` bound to a dispatcher over
the user's functions. The code compiled is the very same Python source: one engine.

A game's ``kernel.py`` declares the chain in ``USER_CHAIN``: the names of the functions,
innermost first, that (directly or not) call ``user_strategy``; the last two are
``run_chunk`` and ``run_traced``.
"""

from __future__ import annotations

import types
from typing import Callable

from analyzer.jit import njit


def _dispatcher(functions: list[Callable]) -> Callable:
    """An njit ``user_strategy(slot, *args)`` that calls ``functions[slot](*args)``."""
    lines = ["def user_strategy(slot, a, b, c, d):"]
    for i in range(len(functions)):
        lines.append(f"    if slot == {i}:\n        return f{i}(a, b, c, d)")
    lines.append("    return -1")
    # the user's code is compiled again with bounds checks: an index out of range raises
    # (reported in one line) instead of reading or writing memory it does not own
    namespace = {f"f{i}": njit(boundscheck=True)(fn.py_func) for i, fn in enumerate(functions)}
    exec("\n".join(lines), namespace)
    return njit(namespace["user_strategy"])


def rebind(module: types.ModuleType, chain: list[str], overrides: dict[str, Callable]) -> dict[str, Callable]:
    """Recompile ``chain`` (functions of ``module``) in a namespace with ``overrides``."""
    namespace = dict(vars(module))
    namespace.update(overrides)
    compiled: dict[str, Callable] = {}
    for name in chain:
        original = getattr(module, name)
        py = original.py_func
        clone = types.FunctionType(py.__code__, namespace, name, py.__defaults__, py.__closure__)
        options = {k: v for k, v in original.targetoptions.items() if k not in ("cache", "nopython")}
        compiled[name] = njit(**options)(clone)
        namespace[name] = compiled[name]
    return compiled


def bind_user_strategies(module: types.ModuleType, functions: list[Callable]) -> tuple[Callable, Callable]:
    compiled = rebind(module, module.USER_CHAIN, {"user_strategy": _dispatcher(functions)})
    return compiled["run_chunk"], compiled["run_traced"]
