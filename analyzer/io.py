"""Atomic file output: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from analyzer.errors import AnalyzerError


def check_writable(path: str | Path) -> Path:
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise AnalyzerError(f"cannot write {target}: folder {folder} does not exist")
    if target.is_dir():
        raise AnalyzerError(f"cannot write {target}: it is a folder")
    return target


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path; on success it replaces ``path``, on failure it is removed."""
    target = check_writable(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


class RowWriter:
    """Streams per-game rows (DataFrames) to Parquet or CSV, atomically at close."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".parquet", ".csv"):
            raise AnalyzerError(f"--out must end in .parquet or .csv, not {self.path.name!r}")
        self.kind = suffix[1:]
        self._ctx = atomic_path(self.path)
        self.tmp = self._ctx.__enter__()
        self._writer = None
        self._first = True

    def write(self, frame) -> None:  # frame: pandas.DataFrame
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
