"""Binding user strategies into a game's compiled engine without a second copy of it.

Built-in strategies are dispatched by integer id inside the cached kernels. A user
strategy is an ``@njit`` function; passing it as a kernel argument would defeat the cache
(DESIGN.md), so instead we recompile the chain of functions that leads from the kernels
to the call site, with the module-level name ``user_strategy`` bound to a dispatcher over
the user's functions. The code compiled is the very same Python source: one engine.

A binding is compiled once and cached on disk (numba's cache, in a folder of its own under
the game's cache folder, analyzer.jit): its key hashes the content of the strategies'
files (and of the files of the ``@njit`` functions their modules import), their names in
slot order and the legality check. The game's own sources key the folder above it. So the
second run with the same strategy file starts as fast as a built-in, and editing the file
compiles a new binding.

A game's ``kernel.py`` declares the chain in ``USER_CHAIN``: the names of the functions,
innermost first, that (directly or not) call ``user_strategy``; the last two are
``run_chunk`` and ``run_traced``.
"""

from __future__ import annotations

import hashlib
import inspect
import shutil
import types
from pathlib import Path
from typing import Callable

from analyzer.jit import njit, numba


#: what the checking dispatcher raises for a move not in ``legal[:n]`` (api.user_guard reads it)
ILLEGAL_MARK = "analyzer: user strategy returned an illegal move"


def _call(i: int, strategy) -> str:
    """The source of slot ``i``'s call: the compiled function with its parameter values as literals."""
    args = "".join(f", {int(v)}" for v in strategy.params)
    return f"m = f{i}(a, b, c, d{args})"


def _dispatcher(strategies: list, check_legal: bool) -> Callable:
    """An njit ``user_strategy(slot, *args)`` that calls ``strategies[slot]`` (UserStrategy).

    ``check_legal``: raise ValueError(ILLEGAL_MARK) for a move not in ``legal[:n]`` (the
    evaluation kernels do not look at ``err``: there an illegal move must stop the run)."""
    lines = ["def user_strategy(slot, a, b, c, d):", "    m = -1"]
    for i, strategy in enumerate(strategies):
        lines.append(f"    {'if' if i == 0 else 'elif'} slot == {i}:\n        {_call(i, strategy)}")
    if check_legal:
        lines.append("    for i in range(c):\n        if b[i] == m:\n            return m")
        lines.append(f"    raise ValueError({ILLEGAL_MARK!r})")
    else:
        lines.append("    return m")
    # the user's code is compiled again with bounds checks: an index out of range raises
    # (reported in one line) instead of reading or writing memory it does not own
    namespace = {f"f{i}": njit(boundscheck=True)(_python(s.function)) for i, s in enumerate(strategies)}
    namespace["__name__"] = __name__  # a cached binding's environment is rebuilt by module name
    exec("\n".join(lines), namespace)
    return njit(namespace["user_strategy"])


def rebind(module: types.ModuleType, chain: list[str], overrides: dict[str, Callable],
           binding: str | None = None) -> dict[str, Callable]:
    """Recompile ``chain`` (functions of ``module``) in a namespace with ``overrides``;
    with a ``binding`` key, cached on disk under it (analyzer.jit.GameCacheLocator)."""
    namespace = dict(vars(module))
    namespace.update(overrides)
    if binding is not None:
        namespace[BINDING_NAME] = binding
    compiled: dict[str, Callable] = {}
    for name in chain:
        original = getattr(module, name)
        py = _python(original)
        clone = types.FunctionType(py.__code__, namespace, name, py.__defaults__, py.__closure__)
        clone.__qualname__ = py.__qualname__
        options = {k: v for k, v in getattr(original, "targetoptions", {}).items() if k not in ("cache", "nopython")}
        compiled[name] = njit(cache=binding is not None, **options)(clone)
        namespace[name] = compiled[name]
    return compiled


def _python(fn: Callable) -> Callable:
    """The Python function of an ``@njit`` dispatcher (under ``--debug`` njit returns it as is)."""
    return getattr(fn, "py_func", fn)


def _source_files(fn: Callable) -> list[str]:
    """The file of a user function and of the ``@njit`` functions its module holds or imports
    (a helper module it calls): what its compiled form depends on, besides the game."""
    files = {inspect.getfile(_python(fn))}
    for value in vars(inspect.getmodule(_python(fn)) or types.ModuleType("none")).values():
        py = getattr(value, "py_func", None)
        if py is not None:
            files.add(inspect.getfile(py))
    return sorted(files)


def binding_key(strategies: list, check_legal: bool) -> str:
    """The cache key of a binding: its strategies' sources (files' content), names,
    parameter values in slot order, and whether it checks legality."""
    digest = hashlib.sha256(f"check_legal={check_legal}".encode())
    for s in strategies:
        # the module's name too: a cached binding's environment is rebuilt by importing it
        py = _python(s.function)
        digest.update(f"\0{py.__module__}.{py.__qualname__}{s.params}".encode())
        for path in _source_files(s.function):
            digest.update(b"\0" + Path(path).read_bytes())
    return digest.hexdigest()[:16]


class BoundKernel:
    """A game's kernel module with user strategies bound: the recompiled ``USER_CHAIN``
    functions (``run_chunk``, ``run_traced``, ``evaluate_chunk``, ...) as attributes, every
    other name of the module (workspaces, loaders, constants) as the module has it."""

    def __init__(self, module: types.ModuleType, compiled: dict[str, Callable]) -> None:
        self._module = module
        self.__dict__.update(compiled)

    def __getattr__(self, name: str):
        return getattr(self._module, name)


#: one binding per kernel module and distinct list of strategies, per process: numba compiles
#: (or loads) each entry point of a binding once, at its first call
_BOUND: dict[tuple, tuple[list[Callable], BoundKernel]] = {}


#: the namespace name that carries a binding's cache key to analyzer.jit.GameCacheLocator
BINDING_NAME = "__analyzer_binding__"
#: bindings kept per game cache folder; older ones (by last use) are removed
KEEP_BINDINGS = 32


def bound_kernel(module: types.ModuleType, strategies: list, check_legal: bool = False) -> BoundKernel:
    """``module`` with ``user_strategy`` dispatching to ``strategies`` (UserStrategy, slot
    order), compiled once per binding key and then loaded from the cache."""
    key = (module.__name__, tuple(strategies), check_legal)
    if hasattr(module, "USER_ENTRIES") and key not in _BOUND:
        _BOUND[key] = (list(strategies), SlotKernel(module, strategies, check_legal))
    if key not in _BOUND:
        binding = binding_key(strategies, check_legal)
        _announce(module, binding)
        dispatcher = _dispatcher(strategies, check_legal)
        compiled = rebind(module, module.USER_CHAIN, {"user_strategy": dispatcher}, binding)
        _BOUND[key] = (list(strategies), BoundKernel(module, compiled))
    return _BOUND[key][1]


def _announce(module: types.ModuleType, binding: str) -> None:
    """Queue the "compiling" notice for a binding not in the cache; mark a cached one used
    and prune the oldest beyond KEEP_BINDINGS."""
    from analyzer import jit, runner

    folders = jit.binding_folders(module.__name__.split(".")[-2])
    mine = [f for f in folders if f.name == f"bind-{binding}"]
    # the runs ahead use the binding, not the game's plain kernels: their notice does not apply
    runner.BEFORE_KERNEL.clear()
    if mine:
        for folder in mine:
            folder.touch()
    elif runner.COMPILE_NOTICE:
        notice = runner.COMPILE_NOTICE[0]
        runner.BEFORE_KERNEL.append(lambda: notice("compiling the kernels with your strategy (first run of this "
                                                   "strategy file only, about a minute)..."))
    for old in sorted(folders, key=lambda f: f.stat().st_mtime)[:-KEEP_BINDINGS]:
        if old.name != f"bind-{binding}":
            shutil.rmtree(old, ignore_errors=True)


# ---- user strategies as first-class functions ----------------------------------------------------

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
    return njit(USER_SIGNATURE)(namespace["slot"])


class SlotKernel:
    """A game's kernel module whose entry points (``USER_ENTRIES``: ``run_chunk``,
    ``run_traced``, ``evaluate_chunk``, ...) get the user strategy slots as their last
    argument; every other name as the module has it.

    The kernels take the slots as first-class functions, so they are compiled once for
    every strategy; only the user's functions compile, in about a second, at the first
    call of an entry point (inside the caller's error guard, api.user_guard)."""

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
