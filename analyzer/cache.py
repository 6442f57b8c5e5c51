"""What the on-disk cache holds, and removing what no run of this version reads again
(``analyzer cache``).

The cache folder (``ANALYZER_CACHE_DIR``, default ``~/.cache/analyzer``) holds three kinds
of folder, each written whole by the runs that need it:

- ``numba/<game>-<hash>/``: a game's compiled kernels (``shared-<hash>``: the functions the
  games share), one folder per version of the files they compile from (``jit.cache_group``).
  A folder of another version is read only by an installation of that version: after an
  upgrade or an edit of a kernel, the old one (10-60 MB a game) is stale.
- ``slots/<key>/``: a user strategy's compiled slot (``engine._SlotCache``), one per version
  of the strategy's code, parameters and package (about 50 KB). Its ``origin.json`` names
  the package version and the strategy file that wrote it: stale once either changed or the
  file is gone (a slot folder without one is stale a day after it was written: older
  versions wrote none, and a run writes it once the slot is compiled and checked). Copies
  of one strategy in two folders share a slot, which names the copy that compiled it: once
  that one is edited or gone, the other compiles again (under a second) after a prune.
- ``sources/<hash>/``: strategy files a batch job brought to this machine's workers
  (``batch.Run.land_sources``): small, read while the job runs, written again by its next
  chunk if gone; stale a week after they were written (SOURCES_KEPT_S).

Removing is safe at any time no run is going (the next run compiles what it misses); a
folder is first renamed aside, then deleted, so that a run never reads half of one. Only
folders named as the cache names them are touched: a cache folder pointed at a folder of
other files leaves those alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from analyzer import jit
from analyzer.results import Result

#: a slot folder without origin.json is taken for one being written until it is this old
UNSTAMPED_GRACE_S = 24 * 3600
#: a batch job's landed strategy files are kept this long after they were written
SOURCES_KEPT_S = 7 * 24 * 3600

ORIGIN = "origin.json"

_KERNELS = re.compile(r"^[a-z0-9_]+-[0-9a-f]{16}$")
_SLOT = re.compile(r"^[0-9a-f]{32}$")
_SOURCES = re.compile(r"^[0-9a-f]{16}$")

#: the kinds of folder, in the order they are listed
KINDS = ("kernels", "user strategies", "batch sources")


@dataclass(frozen=True)
class Entry:
    """One folder of the cache: its kind (KINDS), where it is, its size, and whether no run of
    this version reads it again."""

    kind: str
    path: Path
    size: int
    stale: bool


@dataclass
class CacheSummary(Result):
    """What ``survey`` returns: the cache folder, what was removed, and a table of what is
    there now (``contents``: per kind, folders and bytes, and of those the stale ones)."""

    root: str
    removed_folders: int
    removed_bytes: int
    tables: dict

    def run_facts(self) -> dict:
        return {"root": self.root, "removed_folders": self.removed_folders, "removed_bytes": self.removed_bytes}

    def verdict(self) -> str:
        contents = self.tables["contents"]
        stale, stale_bytes = int(contents["stale_folders"].sum()), int(contents["stale_bytes"].sum())
        removed = (f"Removed {self.removed_folders} folder{'s' * (self.removed_folders != 1)} "
                   f"({human_size(self.removed_bytes)}). ") if self.removed_folders else ""
        if stale:
            return (removed + f"{stale} stale folder{'s' * (stale != 1)} ({human_size(stale_bytes)}), "
                    "read by no run of this version: `analyzer cache --prune` removes them.")
        return removed + "Nothing stale."


def survey(prune: bool = False, clear: bool = False) -> CacheSummary:
    """The cache's contents, after removing the stale folders (``prune``) or all of them
    (``clear``)."""
    import pandas as pd

    found = entries()
    removed = (0, 0)
    if clear or prune:
        removed = remove([e for e in found if clear or e.stale])
        found = [e for e in found if e.path.exists()]  # what could not be removed stays listed
    rows = [{"cache": kind,
             "folders": sum(e.kind == kind for e in found),
             "bytes": sum(e.size for e in found if e.kind == kind),
             "stale_folders": sum(e.kind == kind and e.stale for e in found),
             "stale_bytes": sum(e.size for e in found if e.kind == kind and e.stale)} for kind in KINDS]
    return CacheSummary(str(root()), *removed, {"contents": pd.DataFrame(rows)})


def human_size(size: int) -> str:
    """``size`` bytes as ``du -h`` would say it: 512 B, 232 KB, 13 MB, 1.3 GB."""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            break
        size /= 1024
    return f"{size:.1f} {unit}" if unit != "B" and size < 10 else f"{size:.0f} {unit}"


def root() -> Path:
    """The cache folder (ANALYZER_CACHE_DIR; default ~/.cache/analyzer)."""
    return jit._cache_root()


def entries() -> list[Entry]:
    """Every folder of the cache that the analyzer wrote, listed by kind."""
    base = root()
    current = current_kernel_groups()
    package = jit.source_hash()
    found = []
    for name, pattern, kind, stale in (
            ("numba", _KERNELS, "kernels", lambda p: p.name not in current),
            ("slots", _SLOT, "user strategies", lambda p: _slot_is_stale(p, package)),
            ("sources", _SOURCES, "batch sources", lambda p: time.time() - _newest(p) > SOURCES_KEPT_S)):
        for path in _folders(base / name, pattern):
            found.append(Entry(kind, path, _size(path), stale(path)))
    return found


def stale_kernel_bytes() -> int:
    """Bytes of the kernel folders no run of this version reads (said when a game compiles)."""
    current = current_kernel_groups()
    return sum(_size(path) for path in _folders(root() / "numba", _KERNELS) if path.name not in current)


def remove(chosen: list[Entry]) -> tuple[int, int]:
    """Remove the folders of ``chosen``; (folders, bytes) removed (a folder that cannot be
    removed, or is gone already, is not counted)."""
    folders = size = 0
    for entry in chosen:
        aside = entry.path.with_name(f".{entry.path.name}.removing-{os.getpid()}")
        try:
            entry.path.rename(aside)
        except OSError:
            continue
        shutil.rmtree(aside, ignore_errors=True)
        folders += 1
        size += entry.size
    return folders, size


def current_kernel_groups() -> set[str]:
    """The kernel folders' names this version of the package reads: the shared one and each
    game package's."""
    games = Path(jit.__file__).parent / "games"
    packages = [p.name for p in games.iterdir() if (p / "__init__.py").is_file()]
    return {jit.cache_group(None), *(jit.cache_group(name) for name in packages)}


def write_origin(folder: Path, strategy_file: str | None, package: str) -> None:
    """Note in a slot's ``folder`` which package version and strategy file wrote it (read by
    ``_slot_is_stale``); nothing where it cannot be written."""
    from analyzer.io import write_text

    origin = {"package": package, "file": strategy_file, "file_sha256": _file_sha256(strategy_file)}
    try:
        write_text(folder / ORIGIN, json.dumps(origin) + "\n")
    except OSError:
        pass


def _slot_is_stale(folder: Path, package: str) -> bool:
    """Whether no run of this package reads the slot in ``folder`` again: written by another
    package version, or its strategy file changed or gone."""
    try:
        origin = json.loads((folder / ORIGIN).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return time.time() - _mtime(folder) > UNSTAMPED_GRACE_S
    except (OSError, ValueError):
        return True
    if not isinstance(origin, dict) or origin.get("package") != package:
        return True
    return origin.get("file_sha256") is None or _file_sha256(origin.get("file")) != origin["file_sha256"]


def _file_sha256(path: str | None) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else None
    except OSError:
        return None


def _folders(parent: Path, pattern: re.Pattern) -> list[Path]:
    try:
        return sorted(p for p in parent.iterdir() if pattern.match(p.name) and p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def _newest(folder: Path) -> float:
    """The time the newest file under ``folder`` (or the folder itself) was written."""
    return max([_mtime(folder), *(_mtime(p) for p in folder.rglob("*"))])


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (symbolic links not followed)."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(parent, name)).st_size
            except OSError:
                pass
    return total
