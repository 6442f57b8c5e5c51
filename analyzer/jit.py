"""The one place that imports numba.

numba's on-disk cache is keyed on the source of the file that holds a cached function,
so a change in a callee living in another file is not seen (see DESIGN.md). We sidestep
that with a cache locator of our own (``GameCacheLocator``): a function of the package is
cached in a folder named after a hash of the compiled files it can reach: the shared ones
(``rng.py``, ``bits.py``, ``trace.py``, ...: every file outside the game packages that
decorates or calls ``njit``) and, for a game's function, that game's package. So a
stale kernel is impossible, and editing one game's kernel recompiles that game only.
"""

from __future__ import annotations

import copy
import functools
import gc
import hashlib
import inspect
import itertools
import os
import re
import sys
import time
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_GAMES = _PACKAGE / "games"


#: a decorator line, or a call of njit that caches: a file that compiles cached code (a docstring
#: naming it does not, nor engine.py's compiles of user strategies, cached apart on every
#: source file of the package: engine._SlotCache)
_COMPILES = re.compile(rb"(?m)^\s*@njit|\bnjit\([^)]*cache=True")


#: the Python side of a game package: it compiles nothing and no compiled module imports it
#: (tests/test_foundation.py checks), so editing it recompiles nothing
PYTHON_SIDE = ("spec.py", "study.py")


def _compiled_files() -> list[Path]:
    """The files a compiled function can depend on, in a fixed order: every file of a game
    package but its Python side (its kernels import constants from modules that compile
    nothing, e.g. codes.py), and the shared files that decorate or call ``njit``."""
    return [p for p in sorted(_PACKAGE.rglob("*.py"))
            if (_game_of(p.resolve()) is not None and p.name not in PYTHON_SIDE) or _COMPILES.search(p.read_bytes())]


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha1()
    for path in paths:
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_hash() -> str:
    """Hash of every source file of the package: anything that can shape a result
    (batch checkpoint keys use it)."""
    return _digest(sorted(_PACKAGE.rglob("*.py")))


def _game_of(path: Path) -> str | None:
    """The game package a file belongs to, or None for a shared file."""
    try:
        return path.relative_to(_GAMES).parts[0] if len(path.relative_to(_GAMES).parts) > 1 else None
    except ValueError:
        return None


@functools.lru_cache(maxsize=None)
def cache_group(game: str | None) -> str:
    """The cache folder's name for a game's compiled functions (None: the shared ones)."""
    files = [p for p in _compiled_files() if _game_of(p) in (None, game)]
    return f"{game or 'shared'}-{_digest(files)}"


def is_cached(game: str, function: str = "run_chunk") -> bool:
    """Whether a game's compiled ``kernel.<function>`` (or ``<module>.<function>``) is in the cache (False: the next call
    compiles it, which takes tens of seconds). ``game`` is the package name, e.g. ``hearts2``."""
    folder = _cache_root() / "numba" / cache_group(game)
    name = function if "." in function else f"kernel.{function}"  # e.g. "solver.solve_moves"
    return any(folder.glob(f"*/{name}-*.nbi"))


def compiled_stamp(game: str, entry: str, tier: str) -> Path:
    """A file whose presence says the game's kernel ``entry`` is compiled for ``tier``
    ("base" or "search", engine.search_tier) in the current cache group: written after the
    entry's first call returns, so that a missing one means the next call compiles."""
    return _cache_root() / "numba" / cache_group(game) / "compiled" / f"{entry}-{tier}"


def sources_folder() -> Path:
    """Where a batch worker writes the user strategy files a job brought along (batch.Run.landed)."""
    return _cache_root() / "sources"


def _cache_root() -> Path:
    for name in ("NUMBA_CACHE_DIR", "ANALYZER_CACHE_DIR"):
        if os.environ.get(name):
            return Path(os.environ[name])
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "analyzer"


# numba resolves the locator classes by name the first time it caches a function, by
# which time this module has been imported; the fallbacks serve files outside the package.
os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES",
                      "analyzer.jit.GameCacheLocator,InTreeCacheLocator,UserWideCacheLocator")

import numba  # noqa: E402

import warnings  # noqa: E402

# user strategies reach the kernels as first-class functions (analyzer.engine.SlotKernel), a
# feature numba calls experimental; the tests check what we use of it
warnings.filterwarnings("ignore", category=numba.NumbaExperimentalFeatureWarning)

# numba names each compiled function "<module>.<qualname>" and a number from a counter that
# starts at 1 in every process. Two user strategies' slots compiled first in two processes are
# then both "analyzer.engine.slot" number 1 (engine._SlotCache), and a third process that loads
# both from the cache into one kernel links both names to one code: both play one strategy
# (tests/test_user_strategies.py). Counting from a random 48-bit start in each process makes
# equal names as good as impossible; a forked process (multiprocessing's default here) draws
# its own start. (Only names change, not code: records and speed stay.)


def _count_from_random() -> None:
    numba.core.bytecode.FunctionIdentity._unique_ids = itertools.count(int.from_bytes(os.urandom(6), "little"))


_count_from_random()
os.register_at_fork(after_in_child=_count_from_random)


#: Python's garbage collector thresholds while numba compiles (``_FewerCollections``)
COMPILE_GC_THRESHOLD = (100_000, 50, 1000)


class _FewerCollections(numba.core.event.Listener):
    """Python's cyclic garbage collector, run less often while numba compiles.

    A game's cold compile allocates some 3 million Python objects (numba's IR, copied at
    every inlining); at the default thresholds the collector then ran hundreds of full
    passes over everything alive: 3-4 s of Pitch's 21 s (measured 2026-12-04: 21.5 s ->
    17.8 s, peak memory 495 -> 581 MB; with the collector off 17.0 s and 723 MB). The
    thresholds are raised at the outermost compile and put back when it ends. numba
    compiles under one global lock, so the depth counts one thread's nested compiles."""

    def __init__(self) -> None:
        self.depth = 0
        self.saved: tuple[int, ...] | None = None

    def on_start(self, event) -> None:
        if self.depth == 0:
            self.saved = gc.get_threshold()
            gc.set_threshold(*COMPILE_GC_THRESHOLD)
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0 and self.saved is not None:
            gc.set_threshold(*self.saved)


numba.core.event.register("numba:compile", _FewerCollections())


class _OneCopyOfTheScope:
    """numba's inliner (``inline="always"``) copies the callee's IR one block at a time, each
    with ``copy.deepcopy`` and a memo of its own; every variable of a block refers to the
    function's one scope, which lists every variable of the function, so each block copied
    the whole scope again: blocks times variables, 6 million deep copies to inline Pitch's
    play loop into its traced game. On Python 3.11 that recursion can also cross a chunk
    boundary of the interpreter's frame stack at every step, each crossing an ``mmap`` and
    a ``munmap`` (perf: ``_PyThreadState_BumpFramePointerSlow``): compiling ``play``'s
    kernel for Pitch took 35 s on the kernel thread and 15 s on the main thread. Here the
    blocks of one IR share one memo, as they share one scope in the IR copied: the copy
    has the same blocks and statements, and one scope shared by its blocks, as every IR
    numba makes. Pitch's ``play`` compiles in 7 s; warming every game compiled for 371 s
    of CPU, against 455 (2026-12-04); every game is identical (scripts/fingerprint.py).

    It stands in for the ``copy`` module in ``numba.core.inline_closurecall``, whose only
    use of it is that copy; a memo lives for one ``InlineWorker.inline_ir`` call (each of its
    two copies has its own, keyed by the scope copied)."""

    memos: dict[int, dict] | None = None

    @classmethod
    def deepcopy(cls, value, memo=None):
        if memo is None and cls.memos is not None and isinstance(value, _numba_ir.Block):
            memo = cls.memos.setdefault(id(value.scope), {})
        return copy.deepcopy(value, memo)

    copy = staticmethod(copy.copy)


def _inline_ir_one_scope_copy(self, *args, **kwargs):
    saved, _OneCopyOfTheScope.memos = _OneCopyOfTheScope.memos, {}
    try:
        return _numba_inline_ir(self, *args, **kwargs)
    finally:
        _OneCopyOfTheScope.memos = saved


from numba.core import inline_closurecall as _inline_closurecall  # noqa: E402
from numba.core import ir as _numba_ir  # noqa: E402

_numba_inline_ir = _inline_closurecall.InlineWorker.inline_ir
_inline_closurecall.copy = _OneCopyOfTheScope
_inline_closurecall.InlineWorker.inline_ir = _inline_ir_one_scope_copy


class _CompileLog(numba.core.event.Listener):
    """``ANALYZER_COMPILE_LOG=FILE``: each outermost compile of half a second or more appended
    to FILE as a line "pid seconds module.function test" (the test: pytest's current one, or
    -), for finding where a test run's compile time goes. Off by default."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.depth = 0
        self.started = 0.0
        self.name = ""

    def on_start(self, event) -> None:
        if self.depth == 0:
            function = event.data["dispatcher"].py_func
            self.name = f"{function.__module__}.{function.__qualname__}"
            self.started = time.perf_counter()
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth > 0:
            return
        seconds = time.perf_counter() - self.started
        if seconds >= 0.5:
            test = os.environ.get("PYTEST_CURRENT_TEST", "-").split(" ")[0]
            with open(self.path, "a") as log:
                log.write(f"{os.getpid()} {seconds:.2f} {self.name} {test}\n")


if os.environ.get("ANALYZER_COMPILE_LOG"):
    numba.core.event.register("numba:compile", _CompileLog(os.environ["ANALYZER_COMPILE_LOG"]))


class _CompileClock(numba.core.event.Listener):
    """Whether numba compiles now, and when it last finished: ``--timeout`` counts the time a
    call plays, not the minute a first run spends compiling the kernels (or a user's
    function), which would read as a strategy stuck in a loop (runner.call_interruptibly)."""

    def __init__(self) -> None:
        self.depth = 0
        self.ended = 0.0

    def on_start(self, event) -> None:
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        self.ended = time.perf_counter()


_COMPILE_CLOCK = _CompileClock()
numba.core.event.register("numba:compile", _COMPILE_CLOCK)


def compile_ended() -> float | None:
    """None while numba compiles (in any thread), else the ``time.perf_counter()`` at which
    its last compile ended (0.0 before the first)."""
    return None if _COMPILE_CLOCK.depth > 0 else _COMPILE_CLOCK.ended
from numba.core import caching as _caching  # noqa: E402
from numba.core import codegen as _codegen  # noqa: E402
from numba.core.registry import CPUDispatcher as _CPUDispatcher  # noqa: E402

__all__ = ["numba", "njit", "cache_group", "source_hash", "is_cached", "trailing_zeros", "leading_zeros",
           "FAST_DEPOSIT", "DEBUG"]

#: the debug path (``analyzer --debug``): numba's decorators return the plain Python functions,
#: so the whole engine, and a user strategy with its ``print`` and tracebacks, runs uncompiled
DEBUG = bool(numba.config.DISABLE_JIT)


def njit(*args, entry: bool = False, **options):
    """numba's ``njit``, compiled for where the function is called from.

    By default a function is **kernel-only** (``KernelDispatcher``): compiled for calls from
    compiled code, without the two wrappers numba adds to every function for calls from
    Python and as a first-class function value. Those wrappers were 28% of a game's cold
    compile (hearts2: 30.1 s -> 21.6 s), for some 300 helpers that Python never calls.
    A call from Python still works (a test, a REPL): it goes to a twin, a small entry point
    that calls it (``KernelDispatcher.python_twin``).

    ``entry=True``: the analyzer's Python code calls it (a kernel's entry point, a sampler
    the Python side uses): compiled once, with the CPython wrapper. Functions with
    ``inline="always"`` or an explicit signature (the first-class slots) are numba's as is.
    The shared helpers (``inline=HELPER_INLINE``) are kernel-only and ``forceinline``: where
    numba does not copy them into the caller, LLVM inlines the call.
    """
    if len(args) == 1 and callable(args[0]) and not options and not entry:
        return njit()(args[0])
    helper = options.get("inline") is HELPER_INLINE
    if helper:
        options.setdefault("forceinline", True)  # where numba does not inline it, LLVM does
    if args or (not helper and options.get("inline") == "always"):
        return numba.njit(*args, **options)
    options.setdefault("no_cfunc_wrapper", True)
    if entry:
        return numba.njit(**options)
    options.setdefault("no_cpython_wrapper", True)
    plain = numba.njit(**options)

    def kernel_only(function):
        dispatcher = plain(function)
        if not DEBUG:
            dispatcher.__class__ = KernelDispatcher  # numba builds it; we change only how Python calls it
        return dispatcher

    return kernel_only


class _InlinedAsTheGameChooses(str):
    """``inline=`` of the small shared helpers (``HELPER_INLINE``): numba reads it as
    ``"always"`` (inline at numba's level: the helper's IR copied into the caller and typed
    again there) unless the function being compiled belongs to a game package that declares
    ``LLVM_INLINES_HELPERS = True``; there it reads ``"never"``, and the call stays a call, to
    the helper compiled once and marked ``alwaysinline`` for LLVM (``forceinline``).

    A string, not numba's cost-model callable: numba parses the callee's bytecode again at
    every call site before it asks a cost model, which is the very cost avoided here."""

    def __new__(cls):
        return super().__new__(cls, "always")

    def __eq__(self, other):
        if other == "never":
            return _llvm_game_compiling()
        if other == "always":
            return not _llvm_game_compiling()
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__

    def __reduce__(self):  # pickled (numba's cache, a Dask worker) as the one instance
        return "HELPER_INLINE"


def _llvm_game_compiling() -> bool:
    """Whether the function numba is compiling (``_EachLevel.compiling``) belongs to a game
    package that declares ``LLVM_INLINES_HELPERS = True``."""
    return bool(_EachLevel.compiling) and _llvm_inlines(_EachLevel.compiling[-1][0])


def _declares(module: str, flag: str) -> bool:
    """Whether the package of ``module`` (a game's, for its kernel) declares ``flag = True``
    in its ``__init__.py`` (LLVM_INLINES_HELPERS, OPTIMIZE_EACH_LEVEL)."""
    return bool(getattr(sys.modules.get(module.rsplit(".", 1)[0]), flag, False))


def _llvm_inlines(module: str) -> bool:
    return _declares(module, "LLVM_INLINES_HELPERS")


#: ``inline=`` of the small shared helpers (``rng``, ``bits``, ``ix``): a game package chooses
#: how they are inlined into its code. numba's inliner copies a helper's IR into every call
#: site and types it again there: in Pitch, 143 copies of ``next_u64_w``, 286 of ``_rotl``,
#: the largest part of what its compile typed (2026-12-07). A game that declares
#: ``LLVM_INLINES_HELPERS = True`` gets calls that LLVM inlines (``forceinline``), and its
#: warm-up (scripts/warm.py) takes less time; its games as fast (paired runs). Ninety-Nine and
#: Two-Ten-Jack keep numba's inlining: their games ran 5-10% slower with LLVM's (the
#: helpers are the same code; why LLVM's result is slower there was not found); hearts2 too:
#: its random games ran 3.1% more instructions (cachegrind) with LLVM's.
HELPER_INLINE = _InlinedAsTheGameChooses()


class _EachLevel(numba.core.event.Listener):
    """Which functions keep numba's optimization at every level (MachineCodeOnDemand).

    A game package may declare ``OPTIMIZE_EACH_LEVEL = True`` in its ``__init__.py``: its
    functions' libraries are then optimized when compiled, as numba does, and again in each
    caller. Two-Ten-Jack does: with one optimization of the whole, a user strategy's games
    ran 12% slower (588-603k hands/s against 661-688k, paired runs, 2026-12-04), its
    built-in and search strategies as fast. The compile events say whose function is being
    compiled: its library is finalized before the event ends."""

    stack: list[bool] = []
    #: the functions being compiled, innermost last: (module, qualified name)
    compiling: list[tuple[str, str]] = []

    def on_start(self, event) -> None:
        function = event.data["dispatcher"].py_func
        self.stack.append(_declares(function.__module__, "OPTIMIZE_EACH_LEVEL"))
        self.compiling.append((function.__module__, function.__qualname__))

    def on_end(self, event) -> None:
        self.stack.pop()
        self.compiling.pop()

    @classmethod
    def now(cls) -> bool:
        return bool(cls.stack) and cls.stack[-1]

    @classmethod
    def twice(cls, library: str) -> bool:
        """Whether the library ``library`` (named by its function) is the one of the function
        being compiled, and that function is in OPTIMIZED_TWICE."""
        return bool(cls.compiling) and cls.compiling[-1][1] == library and cls.compiling[-1] in OPTIMIZED_TWICE


numba.core.event.register("numba:compile", _EachLevel())


#: the functions (module, qualified name) whose library is optimized twice when made into
#: machine code (while they compile): the chunk entry points that ask for it (``blocks.in_blocks(optimized_twice=True)``). numba's
#: ``prange`` did so for every chunk (its parallel loop's body was optimized, then again
#: inside the entry point), and Pitch plays faster for it: its heuristic 1.59M hands/s
#: against 1.49M optimized once (paired runs, 2026-12-05)
OPTIMIZED_TWICE: set[tuple[str, str]] = set()


class MachineCodeOnDemand(_codegen.JITCodeLibrary):
    """numba's JIT code library, made into machine code only when an address in it is asked for.

    numba compiles each function into a library of its own, links the libraries of its
    callees into it and makes the whole into machine code, at every level of a call chain
    (the play loop inside the game inside the block inside the chunk). Only the entry
    points' machine code is ever run: a caller links its callees' LLVM IR, never their
    code. So a library's machine code is made when an address in it is asked for (an entry
    point's wrapper, a first-class function, a parallel loop's body), and a kernel-only
    function is cached as IR (bitcode), which is all its callers read.

    The same holds for LLVM's module optimization: numba runs it over each library after
    linking the callees in, so a game's code was optimized again at every level of the
    chain (and every helper on its own first). A library is now optimized once, when its
    machine code is made, with everything it links: what a kernel-only function keeps, and
    its callers link, is its IR as lowered and function-optimized (numba's per-function
    passes, refcount pruning). Twenty-Two's cold compile went from 23.2 to 17.7 s and
    Pitch's from 18.3 to 17.1 (2026-12-04); the games are identical and, in paired runs,
    within -1.6% and +4% of their speed, except a user strategy's games in Two-Ten-Jack
    (12% slower), which therefore keeps numba's way (``_EachLevel``)."""

    _machine_code = False
    _optimized = False

    def _optimize_final_module(self):
        if _EachLevel.now():
            self._optimize_now()  # numba's way, for a game that declares it (_EachLevel)
        # else at _emit, with everything linked in (see the class's docstring)

    def _optimize_now(self):
        if not self._optimized:
            self._optimized = True
            super()._optimize_final_module()
            if _EachLevel.twice(self.name):
                super()._optimize_final_module()

    def _finalize_final_module(self):
        # numba's checks now; adding the module to the execution engine (which makes the
        # machine code) waits for _emit
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def _emit(self):
        if not self._machine_code:
            self._machine_code = True
            self._optimize_now()
            self._dynamic_globals.clear()  # numba's finalize lists them again
            super()._finalize_final_module()

    def _defines(self, name):
        for module in (self._final_module, self._shared_module):
            try:
                if module is not None and not module.get_function(name).is_declaration:
                    return True
            except NameError:
                pass
        return False

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        if not self._machine_code:
            if not self._defines(name):
                return 0  # e.g. the CPython wrapper of a kernel-only function: none
            self._emit()
        return super().get_pointer_to_function(name)

    def serialize_using_object_code(self):
        if not self._machine_code:
            return self.serialize_using_bitcode()
        return super().serialize_using_object_code()


_numba_set_env = _codegen.JITCPUCodegen.set_env


def _set_env(codegen, env_name, env):
    """numba's ``set_env`` (which writes a function's environment pointer into the global
    variable of its library's machine code), for a library that made none: the variable gets
    a module of its own, added to the execution engine before any caller's code is, as when
    numba makes every library's machine code."""
    if not codegen._engine.is_symbol_defined(env_name):
        import llvmlite.binding as llvm
        import llvmlite.ir as llvm_ir

        module = codegen._create_empty_module(f"env.{env_name}")
        variable = llvm_ir.GlobalVariable(module, llvm_ir.IntType(8).as_pointer(), name=env_name)
        variable.linkage = "common"
        variable.initializer = llvm_ir.Constant(variable.type.pointee, None)
        codegen._engine.add_module(llvm.parse_assembly(str(module)))
        codegen._engine.finalize_object()
    _numba_set_env(codegen, env_name, env)


if not DEBUG:
    _codegen.JITCPUCodegen._library_class = MachineCodeOnDemand
    _codegen.JITCPUCodegen.set_env = _set_env


class KernelDispatcher(_CPUDispatcher):
    """A dispatcher whose compiled code has no CPython wrapper (``njit`` without ``entry``).

    numba enters each compiled overload in a table that calls from Python look up; an overload
    without the wrapper has a null address there, and a call would crash. So overloads stay out
    of that table (compiled callers find them in ``overloads``, as always), and a call from
    Python, finding nothing, asks ``_compile_for_args``, which hands over a twin: an entry
    point that calls it (``python_twin``)."""

    def add_overload(self, cres):
        self.overloads[tuple(cres.signature.args)] = cres

    def _compile_for_args(self, *args, **kws):
        return self.python_twin

    @functools.cached_property
    def python_twin(self):
        """An entry point that calls this function: compiled once (cached under the name
        ``<name>__from_python``), it links this function's kernel-only library rather than
        compiling its body a second time."""
        py = self.py_func
        params = list(inspect.signature(py).parameters)
        source = f"def {py.__name__}({', '.join(params)}):\n    return _kernel_only({', '.join(params)})\n"
        scope = {"_kernel_only": self}
        # "compiled" in the function's own file: numba's cache needs a source file to stamp
        exec(compile(source, py.__code__.co_filename, "exec"), scope)
        twin = scope[py.__name__]
        twin.__defaults__ = py.__defaults__
        twin.__qualname__ = py.__qualname__ + "__from_python"  # its own entry in the cache
        twin.__module__, twin.__doc__ = py.__module__, py.__doc__
        options = {k: v for k, v in self.targetoptions.items()
                   if k not in ("nopython", "no_cpython_wrapper", "no_cfunc_wrapper", "parallel")}
        return numba.njit(**options, cache=not isinstance(self._cache, _caching.NullCache))(twin)


if DEBUG:
    # numba's bit-scan intrinsics have no pure-Python form; these give the same answers
    # for the non-negative values passed (analyzer/bits.py passes uint64; 64 for a zero
    # word, as LLVM's cttz/ctlz)
    def trailing_zeros(x):
        x = int(x)
        return 64 if x == 0 else (x & -x).bit_length() - 1

    def leading_zeros(x):
        return 64 - int(x).bit_length()
else:
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros  # noqa: E402  (one instruction each)


def _fast_deposit() -> bool:
    """Whether the CPU numba compiles for has BMI2's ``pdep`` as one fast instruction: x86-64
    with BMI2, but not AMD's Zen 1 and 2 (znver1, znver2), where it is microcoded and takes
    tens of cycles. That CPU is the host's, or the one ``NUMBA_CPU_NAME`` and
    ``NUMBA_CPU_FEATURES`` name (a cache built for other machines), read as numba reads them;
    numba's cache is keyed on the CPU's name and features, so code built with ``pdep`` is
    never loaded for a CPU without it."""
    if DEBUG:
        return False
    from llvmlite import binding

    name = numba.config.CPU_NAME or binding.get_host_cpu_name()
    features = numba.config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",") and name not in ("znver1", "znver2")


#: ``deposit_bits`` compiles to one ``pdep`` (``bits.nth_bit`` uses it when this is true)
FAST_DEPOSIT = _fast_deposit()

if FAST_DEPOSIT:
    from llvmlite import ir as _ir  # noqa: E402
    from numba.core import cgutils as _cgutils  # noqa: E402
    from numba.core import types as _types  # noqa: E402
    from numba.extending import intrinsic as _intrinsic  # noqa: E402

    @_intrinsic
    def deposit_bits(typingctx, source, mask):
        """BMI2's parallel bit deposit of two uint64 words: the low bits of ``source``, in
        order, placed at the set bits of ``mask`` (LLVM's ``llvm.x86.bmi.pdep.64``); so
        ``deposit_bits(1 << k, mask)`` is the ``k``-th lowest set bit of ``mask`` alone."""
        if source != _types.uint64 or mask != _types.uint64:
            return None  # typing fails: callers pass uint64 words

        def codegen(context, builder, signature, args):
            word = _ir.IntType(64)
            pdep = _cgutils.get_or_insert_function(builder.module, _ir.FunctionType(word, [word, word]),
                                                   "llvm.x86.bmi.pdep.64")
            return builder.call(pdep, args)

        return _types.uint64(_types.uint64, _types.uint64), codegen


class GameCacheLocator(_caching._SourceFileBackedLocatorMixin, _caching._CacheLocator):
    """Caches a package function under ``<root>/numba/<cache_group>/``."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        group = cache_group(_game_of(Path(py_file).resolve()))
        self._cache_path = os.path.join(_cache_root() / "numba" / group, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_PACKAGE):
            return None
        return super().from_function(py_func, py_file)


import numpy as _np  # noqa: E402


@njit(cache=True, inline=HELPER_INLINE)
def ix(i):
    """``i`` as an unsigned array index, for hot loops only and only where ``i >= 0``.

    numba wraps negative indices around for signed integers (a compare and a conditional
    move per access); an unsigned index skips that, which is worth about 10% in a play
    loop that does little else than index small tables.
    """
    return _np.uint64(i)
