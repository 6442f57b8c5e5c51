"""User strategies inside a game's compiled engine, without recompiling it.

Built-in strategies are dispatched by integer id inside the cached kernels. A user
strategy is an ``@njit`` function ``(view, legal, n, rng) -> move``; the kernels take the
user strategies of a run as their last argument ``users``: a tuple of ``SLOTS`` compiled
functions of one signature (``USER_SIGNATURE``; numba's first-class function type), the
unused slots empty. A seat whose strategy id is ``sid < 0`` plays ``users[-1 - sid]``.

So a game's kernels are compiled (and cached) once, for every strategy: a run with a user
strategy compiles only the user's function (with bounds checks) and a small wrapper that
binds its parameters, in under a second, at the first call of an entry point; and caches
them on their code (``_SlotCache``), so that the next run loads them. DESIGN.md
measured the indirect call at about +25% of the game time of a user strategy; built-in
strategies do not pay it. The code played is the very same Python source: one engine.

A game's ``kernel.py`` declares ``USER_ENTRIES``: its entry points that take ``users``
(``run_chunk``, ``run_traced``, ``evaluate_chunk``, ...) and, after it, the compile tier
``tier`` (``search_tier``: empty unless a seat plays a search strategy, so that the first
run of a game compiles no search code). ``SlotKernel`` is that module with both filled
in: the form every caller (GameSpec.kernels, user_kernel) uses.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from analyzer.jit import njit, numba
# the slots' compiled side; ILLEGAL_MARK: what a slot that checks legality (the evaluation
# kernels), or a kernel (a search strategy's user base), raises for an illegal move
from analyzer.slots import ILLEGAL_MARK, SLOTS, USER_SIGNATURE, empty_slot, refuse_move  # noqa: F401


#: numba's module for functions whose own module cannot be imported (a forgotten helper's, in
#: ``bounds_checked``), registered under its name: a slot loaded from the cache rebuilds the
#: environments of its functions by importing their module's name, and gets the one they had
_DYNAMIC = numba.core.utils._dynamic_module
sys.modules.setdefault(_DYNAMIC.__name__, _DYNAMIC)


class NotAMove(TypeError):
    """A user strategy whose compiled return type is not an integer move (a float, a bool, or
    no move on some path): said as it is, not as an exception the strategy raised."""


def _python(fn: Callable) -> Callable:
    """The Python function of an ``@njit`` dispatcher (under ``--debug`` njit returns it as is)."""
    return getattr(fn, "py_func", fn)


def _is_dispatcher(value) -> bool:
    return isinstance(value, numba.core.registry.CPUDispatcher)


def global_names(code: types.CodeType) -> set[str]:
    """The global names a function's code (and the code nested in it) may read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= global_names(const)
    return names


def _options(dispatcher, *dropped: str) -> dict:
    """A dispatcher's numba options without ``dropped`` (and ``nopython``, which njit implies)."""
    return {k: v for k, v in dispatcher.targetoptions.items() if k not in (*dropped, "nopython")}


@functools.lru_cache(maxsize=None)
def _not_inlined(dispatcher, nrt: bool = True) -> Callable:
    """An analyzer helper (``rng.randbelow``, a view helper) as a function of its own, compiled
    without bounds checks: numba's ``inline="always"`` would lower its body under the checks of
    the user's function, which measured about 20-35 ns more per call in a loop (the helper's own
    accesses are the engine's, not the user's); LLVM still inlines it. ``nrt=False``: without
    reference counting, as the user's code around it (``user_slot``)."""
    return njit(**_options(dispatcher, "inline", "forceinline", "cache", "_nrt"), _nrt=nrt)(dispatcher.py_func)


@dataclass
class CheckedCopies:
    """The bounds-checked copies ``bounds_checked`` made, by the id of the original: the user's
    functions (``functions``) and modules (``modules``)."""

    functions: dict = field(default_factory=dict)
    modules: dict = field(default_factory=dict)


def bounds_checked(function, nrt: bool = True, copies: CheckedCopies | None = None) -> Callable:
    """A user strategy's ``@njit`` function compiled again with bounds checks, and so every user
    function it calls through a global name (its helpers, recursively): an index out of range
    anywhere in the user's code raises IndexError instead of touching memory it does not own.
    A helper reached through a module of the user's (``import tools.choose`` and
    ``tools.choose.pick(...)``) is too: the function reads a copy of the module whose
    functions are the checked ones (``_checked_module``). The analyzer's own helpers it calls
    stay unchecked. Uncompiled (``--debug``) a function is returned as is: Python checks
    every index.

    ``nrt=False`` compiles the copies without numba's reference counting (``user_slot`` says
    when that is safe). ``copies``: those made so far, filled in."""
    if not _is_dispatcher(function):
        return function
    copies = CheckedCopies() if copies is None else copies
    if id(function) in copies.functions:
        return copies.functions[id(function)]
    py = function.py_func
    scope = dict(py.__globals__)
    if sys.modules.get(scope.get("__name__")) is None:
        # a helper module the strategy's loading forgot (strategies._exec_user_module): numba
        # would import a module of that name to find the function's globals (another folder's
        # helpers.py, or none in a later process); it is numba's dynamic module instead
        scope["__name__"] = _DYNAMIC.__name__
    twin = types.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
    options = _options(function, "cache", "boundscheck", "_nrt")
    checked = njit(**options, boundscheck=True, _nrt=nrt)(twin)  # never under the user's cache
    copies.functions[id(function)] = checked  # before its callees: a recursive function calls its own twin
    for name in global_names(py.__code__):
        if name in scope:
            scope[name] = _checked_global(scope[name], nrt, copies)
    return checked


def _checked_global(value, nrt: bool, copies: CheckedCopies):
    """What a checked copy of a user function reads for a global ``value``: a user function's
    checked copy; a user module's copy with its functions checked; an inlined analyzer helper
    out of line (``_not_inlined``); anything else as it is."""
    from analyzer.strategies import is_user_module

    if isinstance(value, types.ModuleType):
        return _checked_module(value, nrt, copies) if is_user_module(value) else value
    if not _is_dispatcher(value):
        return value
    if value.py_func.__module__.split(".")[0] != "analyzer":
        return bounds_checked(value, nrt, copies)
    if value.targetoptions.get("inline", "never") != "never":  # "always", jit.HELPER_INLINE
        return _not_inlined(value, nrt)
    return value


def _checked_module(module: types.ModuleType, nrt: bool, copies: CheckedCopies) -> types.ModuleType:
    """A copy of a user's module for checked code to read: its attributes, each as
    ``_checked_global`` gives it (its submodules copied alike). numba resolves ``module.f``
    on the object it is given, when it compiles."""
    if id(module) in copies.modules:
        return copies.modules[id(module)]
    copy = types.ModuleType(module.__name__, module.__doc__)
    copies.modules[id(module)] = copy  # before its attributes: modules may import each other
    for name, value in list(vars(module).items()):
        copy.__dict__[name] = value if name.startswith("__") else _checked_global(value, nrt, copies)
    return copy


def _takes_counted_results(dispatchers) -> bool:
    """Whether any compiled overload of ``dispatchers`` receives a reference-counted value (an
    array, a list, ...) from a call: code compiled without reference counting would never
    release it."""
    for dispatcher in dispatchers:
        for result in dispatcher.overloads.values():
            models = result.target_context.data_model_manager
            for signature in result.type_annotation.calltypes.values():
                if signature is not None and models[signature.return_type].contains_nrt_meminfo():
                    return True
    return False


def user_slot(strategy, check_legal: bool) -> Callable:
    """A UserStrategy as a compiled function of ``USER_SIGNATURE``: its parameter values
    bound as literals; with ``check_legal``, a move not in ``legal[:n]`` raises
    ValueError(ILLEGAL_MARK, move, seat, ...) (``slots.refuse_move``: the evaluation kernels do
    not look at ``err``), the seat read from the view before the call (every game's view
    starts with the deciding seat), the legal moves as ``legal[:n]`` reads after it.

    The user's code is compiled without numba's reference counting when it can be: the
    atomic increments and decrements on the arrays passed at every decision were a quarter
    of a user strategy's game time (hearts2, perf). Code that allocates (``np.zeros``, a
    list) does not compile so, and code that receives a new array from a call would leak
    it: those compile with reference counting, as before.

    Cached on disk (``_SlotCache``) for a function loaded from a strategy file: the next
    process that binds the same code loads it instead of compiling it."""
    cache = _SlotCache.of(strategy, check_legal)
    verdict = None if cache is None else cache.verdict()
    if verdict is not None:
        try:
            return _slot(strategy, check_legal, nrt=verdict == "counted", cache=cache, checked=True)
        except Exception:  # noqa: BLE001  (a cached slot this process cannot load: compiled again below)
            pass
    try:
        slot, verdict = _slot(strategy, check_legal, nrt=False, cache=cache), "plain"
    except Exception:  # noqa: BLE001  (any failure: compile as before, which reports the user's fault)
        slot, verdict = _slot(strategy, check_legal, nrt=True, cache=cache), "counted"
    if cache is not None:
        cache.passed(verdict)
    return slot


def _slot_source(strategy, check_legal: bool) -> str:
    """The slot's Python source: it calls the user's function ``f`` with the bound parameters."""
    from analyzer.jit import DEBUG

    args = "".join(f", {int(v)}" for v in strategy.params)
    lines = ["def slot(view, legal, n, rng):", f"    m = f(view, legal, n, rng{args})"]
    if DEBUG:  # uncompiled, nothing typed the result: checked here, said as compiled code says it
        lines.append("    m = as_move(m)")
    if check_legal:
        lines[1:1] = ["    seat = view[0]"]
        lines += ["    for i in range(n):", "        if legal[i] == m:", "            return m",
                  "    refuse_move(m, seat, legal, n)", "    return m"]
    else:
        lines.append("    return m")
    return "\n".join(lines) + "\n"


def _slot(strategy, check_legal: bool, nrt: bool, cache: "_SlotCache | None" = None,
          checked: bool = False) -> Callable:
    """The slot compiled (or, from ``cache``, loaded) with or without reference counting;
    ``checked``: the code passed ``_check_slot`` before (its cached verdict), not checked again
    (a slot loaded from the cache compiles nothing that could be looked at)."""
    source = _slot_source(strategy, check_legal)
    # the user's code is compiled again with bounds checks: an index out of range raises
    # (reported in one line) instead of reading or writing memory it does not own
    copies = CheckedCopies()
    namespace = {"f": bounds_checked(strategy.function, nrt, copies), "refuse_move": refuse_move,
                 "as_move": _as_move, "__name__": __name__}
    filename = None if cache is None else cache.source_file(source, nrt)
    exec(compile(source, filename or NOT_CACHED, "exec"), namespace)
    # (numba compiles the functions a caller calls with its ``_nrt``, unless they set their own)
    # read from numba's cache only once checked; else compiled here, checked, then written to it
    slot = njit(USER_SIGNATURE, _nrt=nrt, cache=checked and filename is not None)(namespace["slot"])
    if not checked:
        _check_slot(namespace["f"], copies, nrt)
        if filename is not None:
            cache.save(slot)
    return slot


def _as_move(returned):
    """Under ``--debug``, what a user strategy returned as a move, or NotAMove said as
    ``_check_slot`` says it of compiled code (a float was compared with the legal moves and
    read as an illegal move, "4" for 4.5)."""
    if isinstance(returned, (int, np.integer)) and not isinstance(returned, (bool, np.bool_)):
        return returned
    if returned is None:
        raise NotAMove("returns no move on some path (None): every path must return one of legal[:n]")
    raise NotAMove(f"returns {numba.typeof(returned)}, not an integer move")


def _check_slot(function, copies: CheckedCopies, nrt: bool) -> None:
    """Refuse what compiled but must not run: code compiled without reference counting that
    receives a counted value, and a function whose compiled return type is not a move."""
    if not nrt and _takes_counted_results(copies.functions.values()):
        raise TypeError("receives a reference-counted value: compile with reference counting")
    # the slot's signature would cast any number to a move: a float (or a bool) returned is a fault
    for signature in getattr(function, "nopython_signatures", []):
        returned = signature.return_type
        if isinstance(returned, numba.types.Optional):
            raise NotAMove(f"returns no move on some path ({returned}): every path must return one of "
                           "legal[:n]")
        if not isinstance(returned, numba.types.Integer):
            raise NotAMove(f"returns {returned}, not an integer move")


class _SlotCache:
    """The on-disk cache of one compiled user strategy slot: a folder under
    ``<cache>/slots/`` named after all its code can depend on (the strategy's code as loaded,
    with the modules it reaches: strategies.code_digest; the values it reads that numba
    compiles in as constants, computed when the file loaded: strategies.frozen_values_digest;
    the function's name, the bound
    parameters, the legality check; every source file of the package: jit.source_hash). It
    holds the slot's generated source, ``slot_plain.py`` or ``slot_counted.py`` (with reference
    counting), numba's cache of it beside it (``__pycache__``: the user's code is compiled into
    the slot), and ``verdict``: which of the two passed ``_check_slot``.

    A slot loaded from numba's cache compiles none of the user's code that the checks could
    look at: so the cache is read only once a ``verdict`` says the code passed, and a slot
    compiled without one is written to it after its checks (a strategy that fails them is
    never cached). Two processes may write the same slot at once (numba writes a file whole,
    then renames it). A slot that cannot be loaded is compiled again. Removing the folder
    clears the cache; ``analyzer cache --prune`` removes the slots of strategy files changed or
    gone and of other package versions (``origin.json``, analyzer.cache)."""

    def __init__(self, folder: Path, strategy_file: str | None = None) -> None:
        self.folder = folder
        self.strategy_file = strategy_file

    @classmethod
    def of(cls, strategy, check_legal: bool) -> "_SlotCache | None":
        """The cache of ``strategy``'s slot; None when it is not cached: under ``--debug``, or a
        function not loaded from a strategy file (no code digest)."""
        from analyzer.jit import DEBUG, _cache_root
        from analyzer.strategies import code_digest, frozen_values_digest

        digest = None if DEBUG else code_digest(strategy.function)
        if digest is None:
            return None
        py = _python(strategy.function)
        key = hashlib.sha256("\0".join([digest, frozen_values_digest(strategy.function), py.__qualname__,
                                        repr(tuple(int(v) for v in strategy.params)),
                                        str(bool(check_legal)), _package_hash()]).encode())
        return cls(_cache_root() / "slots" / key.hexdigest()[:32], py.__globals__.get("__file__"))

    def verdict(self) -> str | None:
        """"plain" or "counted": the slot that passed its checks; None before one did."""
        try:
            said = (self.folder / "verdict").read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return said if said in ("plain", "counted") else None

    def source_file(self, source: str, nrt: bool) -> str | None:
        """The path of the slot's source file, written if missing; None (not cached) where the
        folder cannot be written."""
        path = self.folder / f"slot_{'counted' if nrt else 'plain'}.py"
        try:
            if not path.is_file() or path.read_text(encoding="utf-8") != source:
                from analyzer.io import write_text

                self.folder.mkdir(parents=True, exist_ok=True)
                write_text(path, source)
        except OSError:
            return None
        return str(path)

    def save(self, slot) -> None:
        """Write a slot compiled and checked here to numba's cache beside its source file (as
        numba's own compile would have, unchecked)."""
        try:
            slot.enable_caching()
            slot._cache.save_overload(USER_SIGNATURE, slot.overloads[tuple(USER_SIGNATURE.args)])
        except OSError:
            pass

    def passed(self, verdict: str) -> None:
        """Note that the slot ``verdict`` ("plain", "counted") passed its checks, and which
        package and strategy file wrote it (``analyzer cache --prune`` reads it)."""
        from analyzer.cache import write_origin

        try:
            from analyzer.io import write_text

            write_text(self.folder / "verdict", verdict + "\n")
        except OSError:
            return
        write_origin(self.folder, self.strategy_file, _package_hash())


#: the file name of a slot compiled without the cache (numba then caches nothing)
NOT_CACHED = "<user strategy slot>"
# a slot numba cannot cache (the user's code reads a large global array, say) compiles at each
# run, as before the cache: not worth a warning to the user
warnings.filterwarnings("ignore", message='Cannot cache compiled function "slot"', category=numba.NumbaWarning)


@functools.lru_cache(maxsize=1)
def _package_hash() -> str:
    """jit.source_hash, once per process (it reads every file of the package)."""
    from analyzer.jit import source_hash

    return source_hash()


#: the kernels' ``tier`` argument (after ``users``): empty unless a seat plays a search strategy
BASE_TIER: tuple = ()
SEARCH_TIER: tuple = (True,)


def search_tier(module: types.ModuleType, strat) -> tuple:
    """The kernels' ``tier`` argument (after ``users``) for a run whose seats play ``strat``
    (rows: seats; column 0: strategy ids): SEARCH_TIER when a seat plays a search strategy
    (an id from the kernel's ``SEARCH_FROM`` on: ``mc``, ``pimc``, ``ismcts``), else BASE_TIER.

    The kernels test ``len(tier) == 0``, which numba settles while compiling (the length of
    a tuple argument is a constant; the untaken branch is pruned before typing): so the
    first run of a game compiles its rules and base strategies only, and the search
    strategies (with the solvers) compile, and cache, at the first run that plays one. Both
    specializations are cached side by side. (A None/True tier, tested ``tier is None``, is
    pruned in the None specialization only: in the other one the search workspaces were
    typed "bundle or None", and their helpers compiled once for each type.)"""
    search_from = module.SEARCH_FROM
    ids = strat[:, 0] if getattr(strat, "ndim", 1) == 2 else strat
    return SEARCH_TIER if any(int(i) >= search_from for i in ids) else BASE_TIER


#: said on stderr before a game's kernels compile (the CLI sets it to print; None: silent)
NOTICE: Callable[[str], None] | None = None
_NOTICED: set[tuple[str, bool]] = set()
#: (game, entry, tier) whose stamp this process has seen or written: not looked up again
_STAMPED: set[tuple[str, str, bool]] = set()


def _compiling(game: str, entry: str, tier: tuple) -> Path | None:
    """The stamp that says ``game``'s ``entry`` is compiled for ``tier``, if it is missing
    (its first call compiles it: say so once); None when it is there."""
    from analyzer.jit import DEBUG, compiled_stamp

    stamp = compiled_stamp(game, entry, "search" if tier else "base")
    if DEBUG or stamp.exists():
        return None
    if NOTICE is not None and (game, bool(tier)) not in _NOTICED:
        _NOTICED.add((game, bool(tier)))
        name = game.replace("_", "-")
        NOTICE(f"compiling {name} search strategies (first run that plays one only, a minute or two)..." if tier
               else f"compiling {name} kernels (first run only, up to about a minute)...")
        _mention_stale_kernels()
    return stamp


#: older versions' kernels in the cache worth a word when a game compiles (a new version's
#: first run is when the old ones became stale)
STALE_WORTH_SAYING = 100 * 2**20
_STALE_SAID: list[bool] = []


def _mention_stale_kernels() -> None:
    """Say, once per process, how much of the cache older versions' kernels take, when it is
    STALE_WORTH_SAYING or more."""
    from analyzer.cache import human_size, stale_kernel_bytes

    if _STALE_SAID:
        return
    _STALE_SAID.append(True)
    size = stale_kernel_bytes()
    if size >= STALE_WORTH_SAYING:
        NOTICE(f"(older versions' kernels take {human_size(size)} of the cache: `analyzer cache --prune` "
               "removes them)")


@functools.lru_cache(maxsize=None)
def _strat_position(entry: Callable) -> int:
    """Where an entry point takes ``strat`` (the tier is decided from it)."""
    return list(inspect.signature(_python(entry)).parameters).index("strat")


class Slots(tuple):
    """The user strategy slots a kernel receives: a tuple, typed by numba once.

    numba types a call's arguments at every call from Python, and a tuple of first-class
    functions took it 0.5 ms (each slot's compiled signature looked up again): per chunk,
    and per piece of a chunk on each thread (blocks.in_blocks), under the GIL. The type is
    the plain tuple's, computed at the first call and kept: the same compiled code."""

    @functools.cached_property
    def numba_type(self):
        return numba.typeof(tuple(self), numba.core.typing.typeof.Purpose.argument)


@numba.extending.typeof_impl.register(Slots)
def _typeof_slots(value: Slots, context):
    return value.numba_type


class SlotKernel:
    """A game's kernel module whose entry points (``USER_ENTRIES``) get the user strategy
    slots and the compile tier (``search_tier`` of their ``strat`` argument) as their last
    two arguments; every other name as the module has it.

    The slots compile at the first call of an entry point, inside the caller's error
    guard (api.user_guard), so that a strategy numba cannot compile is one line."""

    def __init__(self, module: types.ModuleType, strategies: list, check_legal: bool) -> None:
        if len(strategies) > SLOTS:
            raise ValueError(f"at most {SLOTS} user strategies in one run")
        self._module = module
        self._game = module.__name__.split(".")[-2]
        self._strategies = list(strategies)
        self._check_legal = check_legal
        self._slots: tuple | None = None

    def slots(self) -> tuple:
        if self._slots is None:
            filled = [user_slot(s, self._check_legal) for s in self._strategies]
            self._slots = Slots(filled + [empty_slot] * (SLOTS - len(filled)))
        return self._slots

    def __getattr__(self, name: str):
        value = getattr(self._module, name)
        if name not in self._module.USER_ENTRIES:
            return value
        at = _strat_position(value)

        def entry(*args):
            tier = search_tier(self._module, args[at])
            key = (self._game, name, bool(tier))
            stamp = None if key in _STAMPED else _compiling(self._game, name, tier)
            result = value(*args, self.slots(), tier)
            if stamp is not None:
                stamp.parent.mkdir(parents=True, exist_ok=True)
                stamp.touch()
            _STAMPED.add(key)
            return result

        return entry


#: one SlotKernel per kernel module, list of strategies and legality check, per process: the
#: user functions compile once per process
_BOUND: dict[tuple, SlotKernel] = {}


def bound_kernel(module: types.ModuleType, strategies: list, check_legal: bool = False) -> SlotKernel:
    """``module`` with ``strategies`` (UserStrategy, slot order) in its user slots."""
    key = (module.__name__, tuple(strategies), check_legal)
    if key not in _BOUND:
        _BOUND[key] = SlotKernel(module, strategies, check_legal)
    return _BOUND[key]
