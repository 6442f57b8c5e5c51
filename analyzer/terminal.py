"""Tables for the terminal: they fit the width (80 columns when piped), numbers to their
precision, an interval as ``value ±half-width`` (``value [lo, hi]`` where it is lopsided),
text left-aligned, numbers right-aligned.

A table wider than the terminal keeps its first columns and names the others it left out
(``--wide`` shows every column; ``--json`` and ``--csv`` always carry everything).
"""

from __future__ import annotations

import math
import os
import shutil
from typing import Any

PIPED_WIDTH = 80
GAP = 2


def width() -> int:
    """The terminal's width; 80 when not a terminal (piped output stays plain and narrow)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    if not os.isatty(1):
        return PIPED_WIDTH
    return shutil.get_terminal_size((PIPED_WIDTH, 24)).columns


def _decimals(half: float) -> int:
    """Decimals that show a half-width to two significant digits (0..6)."""
    if not half > 0 or not math.isfinite(half):
        return 3
    return max(0, min(6, 1 - int(math.floor(math.log10(half)))))


def count(n: int, thing: str) -> str:
    """``n`` things in words: "1 game", "20,000 games"."""
    return f"{n:,} {thing}{'' if n == 1 else 's'}"


def number(value: Any, decimals: int | None = None) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (hasattr(value, "dtype") and "int" in str(getattr(value, "dtype", ""))):
        return f"{int(value):,}"
    if isinstance(value, float) or hasattr(value, "dtype"):
        v = float(value)
        if decimals is None:
            decimals = 4 if abs(v) < 10 else 2
        return unsigned_zero(f"{v:,.{decimals}f}")
    return str(value)


def unsigned_zero(text: str) -> str:
    """``-0.000`` (a tiny negative, or a float's -0.0, rounded) as ``0.000``: no sign on a zero."""
    return text[1:] if text.startswith("-") and not text.strip("-0.,") else text


#: the most decimals ``apart`` adds to keep numbers that differ from printing alike
MOST_DECIMALS = 6


def apart(values, decimals: int, scale: float = 1.0) -> int:
    """Decimals, ``decimals`` or more (up to MOST_DECIMALS), at which the ``values`` (times
    ``scale``: 100 for a percent) that differ also print differently: a rounding must not say
    that an estimate sits at its interval's end (``1.000 [0.981, 1.000]`` for 0.9996), that an
    interval has no width (``[0.500, 0.500]``) or that a share is exactly 0. Values that
    print alike even at the most decimals (a difference of 1e-12 is noise) are left alike."""
    def text(v: float, d: int) -> str:
        return unsigned_zero(f"{v:.{d}f}")

    shown = [float(v) * scale for v in values if v is not None and math.isfinite(float(v))]
    finest = {text(v, MOST_DECIMALS) for v in shown}
    for d in range(decimals, MOST_DECIMALS):
        if len({text(v, d) for v in shown}) == len(finest):
            return d
    return max(decimals, MOST_DECIMALS)



def texts_apart(values, decimals: int, percent: bool = False) -> list[str]:
    """The ``values`` (an estimate and its interval's ends, in a verdict's sentence) at the
    decimals ``apart`` gives: ``["0.352", "0.307", "0.401"]``; with ``percent`` times 100
    and a ``%`` after each (``["99.96%", "98.10%", "100.00%"]``, never ``100.0%`` for 0.9996)."""
    scale = 100.0 if percent else 1.0
    d = apart(values, decimals, scale)
    return [unsigned_zero(f"{float(v) * scale:.{d}f}") + ("%" if percent else "") for v in values]

#: an interval whose longer side is more than this many times its shorter one is shown as
#: ``[lo, hi]``: a Wilson interval near 0 or 1 (``1.00 ±0.79`` for 1 of 1 read as reaching 1.79)
LOPSIDED = 1.5


def interval(value: Any, lo: Any, hi: Any) -> str:
    """``0.647 ±0.015`` (the 95% interval's half-width), or ``1.00 [0.21, 1.00]`` for an
    interval much longer on one side (LOPSIDED), such as Wilson's near 0 or 1: a ``±`` there
    would reach past what the interval holds, out of [0, 1] for a share."""
    try:
        v, a, b = float(value), float(lo), float(hi)
    except (TypeError, ValueError):
        return number(value)
    if v != v:
        return "-"
    if a != a or b != b:
        return number(v)
    below, above = v - a, b - v
    half = max(below, above)
    d = _decimals(half)
    if half > LOPSIDED * min(below, above):
        d = apart((a, v, b), d)
        return f"{unsigned_zero(f'{v:,.{d}f}')} [{unsigned_zero(f'{a:,.{d}f}')}, {unsigned_zero(f'{b:,.{d}f}')}]"
    return f"{unsigned_zero(f'{v:,.{d}f}')} ±{half:,.{d}f}"


def _parsed(value: Any) -> float | str:
    """``value`` as a float, or the text to print where it is not a number: its own text
    (``number``), or ``-`` for nan."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return number(value)
    return "-" if v != v else v


def p_value(value: Any) -> str:
    """A p-value to four decimals; one below 0.0001 as ``<0.0001`` (never ``0.0000``: no
    test gives exactly 0)."""
    v = _parsed(value)
    if isinstance(v, str):
        return v
    return "<0.0001" if v < 0.00005 else f"{v:.4f}"


def chance(value: Any) -> str:
    """A probability to three decimals that never rounds to a certainty it is not:
    ``>0.999`` for 0.9996 and ``<0.001`` for 0.0004 (``1.000`` and ``0.000`` only when exact)."""
    v = _parsed(value)
    if isinstance(v, str):
        return v
    if 0.9995 <= v < 1.0:
        return ">0.999"
    if 0.0 < v < 0.0005:
        return "<0.001"
    return f"{v:.3f}"


def cells(frame) -> tuple[list[str], list[list[str]], list[bool]]:
    """Column names, rows of cell texts, and which columns are numeric (right-aligned)."""
    names = [c for c in frame.columns if not (str(c).endswith("_lo") or str(c).endswith("_hi"))]
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    numeric = [is_numeric_dtype(frame[c]) and not is_bool_dtype(frame[c]) for c in names]
    # column by column: a row of an all-numeric frame would turn its integers into floats
    values = {c: frame[c].tolist() for c in frame.columns}
    rows = []
    for i in range(len(frame)):
        out = []
        for c in names:
            if f"{c}_lo" in values and f"{c}_hi" in values:
                out.append(interval(values[c][i], values[f"{c}_lo"][i], values[f"{c}_hi"][i]))
            elif str(c) == "p_value":
                out.append(p_value(values[c][i]))
            else:
                out.append(number(values[c][i]))
        rows.append(out)
    return [str(n) for n in names], rows, numeric


def render(frame, title: str | None = None, wide: bool = False, total: int | None = None) -> str:
    """The table as text that fits ``total`` columns (default: the terminal's width)."""
    total = width() if total is None else total
    names, rows, numeric = cells(frame)
    widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    shortened = False
    if not wide and sum(widths) + GAP * (len(widths) - 1) > total:
        # a long name (a user strategy's path and parameters) pushed the numbers out of the
        # table: names are shortened first, the columns dropped only if it still does not fit
        short = [[shorten(cell) if not numeric[i] and ".py:" in cell else cell for i, cell in enumerate(r)]
                 for r in rows]
        shortened = short != rows
        rows = short
        widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    keep = list(range(len(names)))
    if not wide:
        keep, used = [], 0
        for i, w in enumerate(widths):
            if used + w + (GAP if keep else 0) > total and keep:
                break
            keep.append(i)
            used += w + (GAP if len(keep) > 1 else 0)
    lines = wrap(title, total) if title else []

    def line(values: list[str]) -> str:
        parts = []
        for i in keep:
            parts.append(values[i].rjust(widths[i]) if numeric[i] else values[i].ljust(widths[i]))
        return (" " * GAP).join(parts).rstrip()

    lines.append(line(names))
    lines.append((" " * GAP).join("-" * widths[i] for i in keep))
    lines.extend(line(r) for r in rows)
    left = [names[i] for i in range(len(names)) if i not in keep]
    if left:
        lines.extend(wrap(f"(+{len(left)} column(s) with --wide or --json: {', '.join(left)})", total))
    if shortened:
        lines.extend(wrap("(long names shortened: --wide or --json shows them whole)", total))
    return "\n".join(lines)


#: the longest user strategy name a table shows whole when it would not fit the terminal
NAME_AT_MOST = 26


def shorten(text: str, at_most: int = NAME_AT_MOST) -> str:
    """A user strategy's name (``render`` shortens no other text) in ``at_most`` columns: its
    file without its folders (``strategies/mine.py:f:k=5`` -> ``mine.py:f:k=5``), or without
    the file (``…:f:k=5``); else the middle left out (its start and its end kept). Every
    file of the text alike, and nothing before it: ``mc:k=8,base=dir/x.py:f``, a batch
    run's ``heuristic vs dir/x.py:f``, a team's ``dir/x.py:f, dir/x.py:f``."""
    import re

    if len(text) <= at_most:
        return text
    # a file's path starts the text or follows a space, "=", "," or "("
    text = re.sub(r"(^|[\s=,(])[^\s=,(]*/(?=[^\s=,(/]*\.py:)", r"\1", text)
    if len(text) > at_most:
        text = re.sub(r"(^|[\s=,(])[^\s=,(]*\.py(?=:)", "\\1\u2026", text)
    if len(text) <= at_most:
        return text
    head = (at_most - 1) // 2
    return text[:head] + "\u2026" + text[len(text) - (at_most - 1 - head):]


def wrap(text: str, total: int | None = None) -> list[str]:
    """Lines of at most ``total`` columns (default: the terminal's), each paragraph apart; a
    paragraph's later lines indented two more than its first (``   hands ...`` of a game's
    record goes on under itself, not left of it)."""
    import textwrap

    total = width() if total is None else total
    out: list[str] = []
    for paragraph in text.splitlines():
        indent = paragraph[:len(paragraph) - len(paragraph.lstrip(" "))]
        out.extend(textwrap.wrap(paragraph, total, subsequent_indent=indent + "  ", break_on_hyphens=False,
                                 drop_whitespace=True) or [""])
    return out
