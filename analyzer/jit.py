"""The one place that imports numba.

numba's on-disk cache is keyed on the source of the file that holds a cached function,
so a change in a callee living in another file is not seen (see DESIGN.md). We sidestep
that by pointing NUMBA_CACHE_DIR at a folder named after a hash of every source file of
the package that holds compiled code: any edit to such a file gives a fresh cache, and a stale kernel is impossible.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _source_hash() -> str:
    """Hash of every package file that holds compiled code (mentions ``njit``)."""
    digest = hashlib.sha1()
    for path in sorted(_PACKAGE.rglob("*.py")):
        source = path.read_bytes()
        if b"njit" in source:
            digest.update(str(path.relative_to(_PACKAGE)).encode())
            digest.update(source)
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    base = os.environ.get("ANALYZER_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "analyzer"


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(_cache_root() / "numba" / _source_hash())

import numba  # noqa: E402
from numba import njit, prange  # noqa: E402

__all__ = ["numba", "njit", "prange"]


import numpy as _np  # noqa: E402


@njit(cache=True, inline="always")
def ix(i):
    """``i`` as an unsigned array index, for hot loops only and only where ``i >= 0``.

    numba wraps negative indices around for signed integers (a compare and a conditional
    move per access); an unsigned index skips that, which is worth about 10% in a play
    loop that does little else than index small tables.
    """
    return _np.uint64(i)
