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

import functools
import hashlib
import os
import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_GAMES = _PACKAGE / "games"


#: a decorator line, or a call of njit that caches: a file that compiles cached code (a docstring
#: naming it does not, nor engine.py's compiles of user strategies, which are never cached)
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
from numba import njit, prange  # noqa: E402
from numba.core import caching as _caching  # noqa: E402

__all__ = ["numba", "njit", "prange", "cache_group", "source_hash", "is_cached", "trailing_zeros", "leading_zeros",
           "DEBUG"]

#: the debug path (``analyzer --debug``): numba's decorators return the plain Python functions,
#: so the whole engine, and a user strategy with its ``print`` and tracebacks, runs uncompiled
DEBUG = bool(numba.config.DISABLE_JIT)

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


@njit(cache=True, inline="always")
def ix(i):
    """``i`` as an unsigned array index, for hot loops only and only where ``i >= 0``.

    numba wraps negative indices around for signed integers (a compare and a conditional
    move per access); an unsigned index skips that, which is worth about 10% in a play
    loop that does little else than index small tables.
    """
    return _np.uint64(i)
