"""Atomic file output: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from analyzer.errors import AnalyzerError
from analyzer.supervise import note_part


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def not_a_file(path: str | Path) -> str:
    """Why ``path`` cannot be read as a file, for a one-line error: "not found", "is a
    folder, not a file", or "is not a regular file" (a device, a pipe)."""
    path = Path(path)
    if not path.exists():
        return "not found"
    return "is a folder, not a file" if path.is_dir() else "is not a regular file"


def check_writable(path: str | Path, suffixes: tuple[str, ...] | None = None) -> Path:
    """The target of an output file, checked before any work: a non-empty name, not one
    ending in a slash (Path drops it: ``x.csv/`` would write the file ``x.csv``), an existing
    writable folder, not a folder itself nor a device or a pipe, and (with ``suffixes``) the
    right kind of file. A symbolic link is followed: the target is the file it names. The
    errors quote the name as given."""
    given = str(path)
    if not given.strip():
        raise AnalyzerError("an output file name is empty")
    target = Path(path)
    if target.exists() and not target.is_file() and not target.is_dir():
        # a device or a pipe (/dev/full, /dev/stdout; links followed): the atomic replace
        # would put a file in its place, so it is refused
        raise AnalyzerError(f"cannot write {given}: it is not a regular file (a device or a pipe)")
    if target.is_symlink():  # written through: the file it points to is replaced, not the link
        target = Path(os.path.realpath(target))
    if target.is_dir():
        raise AnalyzerError(f"cannot write {given}: it is a folder")
    if given.endswith(("/", os.sep)):
        raise AnalyzerError(f"cannot write {given}: a name ending in / names a folder; give a file's name")
    if suffixes and Path(path).suffix.lower() not in suffixes:
        raise AnalyzerError(f"cannot write {given}: the name must end in {' or '.join(suffixes)}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "does not exist"
        raise AnalyzerError(f"cannot write {given}: folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise AnalyzerError(f"cannot write {given}: folder {folder} is not writable")
    return target


def part_pattern(name: str) -> re.Pattern[str]:
    """The names of ``atomic_path``'s temporary files of a file named by the regular
    expression ``name``: ``.NAME.`` + tempfile's 8 random characters + ``.part`` (what a
    write killed mid-way leaves; batch removes its own)."""
    import re

    return re.compile(r"\." + name + r"\.[a-z0-9_]{8}\.part")


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path; on success it replaces ``path``, on failure it is removed."""
    target = check_writable(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)  # part_pattern
    except OSError as exc:
        raise AnalyzerError(f"cannot write {target}: {exc.strerror}") from None
    os.close(fd)
    note_part(tmp)  # removed by the watching process if this one crashes (analyzer.supervise)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an output file honours the umask
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except OSError as exc:  # a full disk, a folder made read-only meanwhile: nothing is damaged
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise AnalyzerError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        note_part(tmp, done=True)


def write_text(path: str | Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


class RowWriter:
    """Streams per-game rows (DataFrames) to Parquet or CSV, atomically at close."""

    def __init__(self, path: str | Path) -> None:
        check_writable(path)
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".parquet", ".csv"):
            raise AnalyzerError(f"--out must end in .parquet or .csv, not {str(path)!r}")
        self.kind = suffix[1:]
        self._ctx = atomic_path(self.path)
        self.tmp = self._ctx.__enter__()
        self._writer = None
        self._first = True

    def write(self, frame) -> None:  # frame: pandas.DataFrame
        try:
            self._write(frame)
        except OSError as exc:  # a full disk: the target is untouched, the partial file goes at close
            raise AnalyzerError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _write(self, frame) -> None:
        if self.kind == "csv":
            frame.to_csv(self.tmp, mode="w" if self._first else "a", header=self._first, index=False)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            if self._writer is None:
                self._writer = pq.ParquetWriter(self.tmp, table.schema)
            self._writer.write_table(table)
        self._first = False

    def close(self, ok: bool = True) -> None:
        if self._writer is not None:
            self._writer.close()
        if ok:
            self._ctx.__exit__(None, None, None)
        else:
            with contextlib.suppress(BaseException):
                self._ctx.__exit__(RuntimeError, RuntimeError("aborted"), None)
