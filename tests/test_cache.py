"""``analyzer cache``: what the on-disk cache holds, and pruning what no run of this version
reads again (analyzer/cache.py)."""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from pathlib import Path

# api first: importing it compiles (or loads) the empty user slot into the cache of that
# moment, as does each module's first import; these tests point the cache elsewhere later
from analyzer import api  # noqa: F401
from analyzer import cache, games as registry, jit

OLD = "0123456789abcdef"


def _folder(path: Path, size: int) -> Path:
    path.mkdir(parents=True)
    (path / "data").write_bytes(b"x" * size)
    return path


def _slot(root: Path, origin: dict | None, age_days: float = 0) -> Path:
    folder = _folder(root / "slots" / uuid.uuid4().hex, 100)
    if origin is not None:
        (folder / "origin.json").write_text(json.dumps(origin))
    if age_days:
        stamp = time.time() - age_days * 86400
        os.utime(folder, (stamp, stamp))
    return folder


def _bytes(folders: list[Path]) -> int:
    return sum(f.stat().st_size for folder in folders for f in folder.rglob("*") if f.is_file())


def _left(root: Path) -> set[Path]:
    return {p for kind in ("numba", "slots", "sources") for p in (root / kind).iterdir()}


def test_prune_removes_what_no_run_of_this_version_reads_and_clear_only_what_the_analyzer_wrote(
        tmp_path, monkeypatch, cli):
    root = tmp_path / "cache"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("ANALYZER_CACHE_DIR", str(root))
    package = jit.source_hash()
    strategy = tmp_path / "mine.py"
    strategy.write_text("# a strategy\n")
    sha = hashlib.sha256(strategy.read_bytes()).hexdigest()
    gone = tmp_path / "gone.py"

    current = [_folder(root / "numba" / group, 1000) for group in sorted(cache.current_kernel_groups())]
    old_kernels = [_folder(root / "numba" / f"hearts2-{OLD}", 3000), _folder(root / "numba" / f"shared-{OLD}", 500)]
    kept_slots = [_slot(root, {"package": package, "file": str(strategy), "file_sha256": sha}),
                  _slot(root, None)]  # being written: no origin yet
    stale_slots = [_slot(root, {"package": OLD, "file": str(strategy), "file_sha256": sha}),  # another version
                   _slot(root, {"package": package, "file": str(strategy), "file_sha256": "0" * 64}),  # edited
                   _slot(root, {"package": package, "file": str(gone), "file_sha256": sha}),  # deleted
                   _slot(root, None, age_days=2)]  # written by a version without origins
    sources = [_folder(root / "sources" / OLD, 10)]
    old_sources = [_folder(root / "sources" / "fedcba9876543210", 20)]
    for path in [old_sources[0], *old_sources[0].iterdir()]:
        os.utime(path, (time.time() - 8 * 86400,) * 2)  # landed for a job more than a week ago
    foreign = [_folder(root / "numba" / "notes", 10), _folder(root / "slots" / "mine", 10)]
    (root / "numba" / "readme.txt").write_text("not a folder of ours")

    code, out, err = cli("cache", "--json")
    assert (code, err) == (0, "")
    shown = {row["cache"]: row for row in json.loads(out)["contents"]}
    assert shown["kernels"] == {"cache": "kernels", "folders": len(current) + 2, "bytes": 1000 * len(current) + 3500,
                                "stale_folders": 2, "stale_bytes": 3500}
    assert shown["user strategies"] == {"cache": "user strategies", "folders": 6,
                                        "bytes": _bytes(kept_slots + stale_slots),
                                        "stale_folders": 4, "stale_bytes": _bytes(stale_slots)}
    assert shown["batch sources"] == {"cache": "batch sources", "folders": 2, "bytes": 30,
                                      "stale_folders": 1, "stale_bytes": 20}

    code, out, err = cli("cache")
    assert code == 0 and err == ""
    assert max(map(len, out.splitlines())) <= 80
    stale_kb = (3500 + _bytes(stale_slots) + 20) / 1024
    assert f"7 stale folders ({stale_kb:.1f} KB)" in " ".join(out.split())

    code, out, err = cli("cache", "--prune")
    assert code == 0
    assert f"Removed 7 folders ({stale_kb:.1f} KB). Nothing stale." in " ".join(out.split())
    assert _left(root) == {*current, *kept_slots, *sources, *foreign, root / "numba" / "readme.txt"}
    assert not any(p.exists() for p in old_kernels + stale_slots + old_sources)

    code, out, err = cli("cache", "--clear")
    assert code == 0
    assert _left(root) == {*foreign, root / "numba" / "readme.txt"}
    assert cli("cache", "--prune", "--clear") == (2, "", "error: give --prune or --clear, not both\n")


def test_the_kernels_of_this_version_are_where_numba_caches_them():
    """The folders kept by --prune are those numba's dispatchers of this version write to."""
    from analyzer import bits

    current = cache.current_kernel_groups()
    for name in registry.names():
        kernel = registry.get(name).module("kernel")
        assert Path(kernel.run_chunk._cache._cache_path).parent.name in current, name
    assert Path(bits.popcount._cache._cache_path).parent.name in current


def test_a_compiled_user_strategy_is_stale_once_its_file_changes(tmp_path, monkeypatch):
    from analyzer import engine
    from analyzer.strategies import user_strategy

    root = tmp_path / "cache"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("ANALYZER_CACHE_DIR", str(root))
    strategy = tmp_path / "mine.py"
    strategy.write_text(f"from numba import njit\n\n@njit\ndef mine(view, legal, n, rng):\n"
                        f"    return legal[0]  # {uuid.uuid4()}\n")
    engine.user_slot(user_strategy(f"{strategy}:mine"), check_legal=False)
    (slot,) = [e for e in cache.entries() if e.kind == "user strategies"]
    origin = json.loads((slot.path / "origin.json").read_text())
    assert origin == {"package": jit.source_hash(), "file": str(strategy),
                      "file_sha256": hashlib.sha256(strategy.read_bytes()).hexdigest()}
    assert not slot.stale
    strategy.write_text(strategy.read_text() + "# edited\n")
    assert [e.stale for e in cache.entries() if e.kind == "user strategies"] == [True]


def test_a_cache_folder_that_is_a_file_is_one_line(cli, tmp_path, monkeypatch):
    # numba raised NotADirectoryError with a traceback at the first compile; `cache` said
    # "Nothing stale."
    afile = tmp_path / "afile"
    afile.write_text("")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)  # (it would come first)
    for root in (afile, afile / "inside"):
        monkeypatch.setenv("ANALYZER_CACHE_DIR", str(root))
        for command in (["simulate", "hearts2", "--games", "10"], ["cache"]):
            code, out, err = cli(*command)
            assert code == 2 and out == ""
            assert err == f"error: the cache folder {root} cannot be made: {afile} is a file (ANALYZER_CACHE_DIR names the folder)\n"
