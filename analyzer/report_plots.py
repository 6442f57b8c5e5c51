"""Figures for strategy reports (matplotlib, Agg backend), and the one style of the
project's figures: palette, strategy colours, fonts, and the small rules every figure
follows (:func:`style`, :func:`p_text`, :func:`from_zero`), for analyzer/plots.py too.

Every figure reads on its own: a title saying what and how much data (n), axis labels
with units, 95% error bars or bands, a legend entry for every colour that carries
meaning, bar axes that start at 0, the n of every bar or cell. Strategies keep the same
colour in every figure (:data:`STRATEGY_COLOURS`); other series take colours from
:data:`PALETTE` in order.
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from analyzer.stats import Z95

#: Colour-blind friendly palette (Okabe-Ito), used in order for series.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
           "#999999", "#882255"]
#: A strategy always has the same colour.
STRATEGY_COLOURS = {"random": "#999999", "heuristic": "#0072B2", "mc": "#D55E00", "pimc": "#009E73",
                    "ismcts": "#CC79A7"}
REFERENCE = "#555555"
DPI = 110


def strategy_colour(label: str) -> str:
    base = label.split(":")[0].split("#")[0]
    # a stable pick for other names (a user strategy): str hash() differs between processes
    return STRATEGY_COLOURS.get(base, PALETTE[zlib.crc32(base.encode()) % len(PALETTE)])


#: the project's figure style (matplotlib rcParams), applied by :func:`style`
RC = {"font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "xtick.labelsize": 8, "ytick.labelsize": 8,
      "legend.fontsize": 8, "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
      "grid.alpha": 0.25, "figure.dpi": DPI}


def style():
    """matplotlib's pyplot on the Agg backend with the project's style (every figure module)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(RC)
    return plt


_pyplot = style


def p_text(p: float) -> str:
    """A p-value for a title: ``p < 1e-12`` below what a double resolves, never ``p = 0``."""
    if not p == p:
        return "p = n/a"
    if p < 1e-12:
        return "p < 1e-12"
    if p < 0.001:
        return f"p < 1e{math.floor(math.log10(p)) + 1}"
    return f"p = {p:.3f}"


def from_zero(ax, axis: str = "y") -> None:
    """A bar chart's value axis includes 0 (bars are read by their length)."""
    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    (ax.set_ylim if axis == "y" else ax.set_xlim)(lo, hi)


def colour_legend(ax, colours: Sequence[str], labels: Sequence[str], extra: Sequence = ()) -> None:
    """A legend with one swatch per distinct colour (in order), plus ``extra`` handles."""
    from matplotlib.patches import Patch

    seen: dict[str, str] = {}
    for c, label in zip(colours, labels):
        seen.setdefault(c, label)
    handles = [Patch(color=c, label=label) for c, label in seen.items()] + list(extra)
    ax.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16),
              ncol=min(len(handles), 3), frameon=False)


def _save(fig, path: str | Path) -> Path:
    plt = _pyplot()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return path


def _err(frame: pd.DataFrame, col: str) -> np.ndarray:
    value = frame[col].to_numpy(dtype=float)
    lo = frame[col + "_lo"].to_numpy(dtype=float)
    hi = frame[col + "_hi"].to_numpy(dtype=float)
    return np.nan_to_num(np.vstack([value - lo, hi - value]).clip(min=0))


def _deal_ticks(ax, n: np.ndarray) -> None:
    from matplotlib.ticker import NullFormatter, NullLocator

    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(list(n), [f"{int(v):,}" for v in n])


def tournament(ranking: pd.DataFrame, pairs: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Left: mean share of wins per strategy; right: each pairing's share of wins."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=DPI,
                                      gridspec_kw={"width_ratios": [1, 1.4]})
    colours = [strategy_colour(s) for s in ranking["strategy"]]
    left.bar(ranking["strategy"], ranking["mean_win_rate"], yerr=_err(ranking, "mean_win_rate"), capsize=6,
             color=colours)
    half = left.axhline(0.5, color=REFERENCE, linestyle="--", linewidth=1, label="equal strength (0.5)")
    left.set_ylim(0, 1)
    left.set_ylabel("share of wins against the others")
    left.set_xlabel("strategy")
    left.set_title("Round robin: mean share of wins", fontsize=10)
    from matplotlib.patches import Patch

    left.legend(handles=[*[Patch(color=c, label=name) for c, name in zip(colours, ranking["strategy"])],
                         half], fontsize=8, loc="upper right")
    labels = [f"{a} vs {b}" for a, b in zip(pairs["strategy"], pairs["opponent"])]
    y = np.arange(len(pairs))
    right.barh(y, pairs["win_rate"], xerr=_err(pairs, "win_rate"), capsize=5,
               color=[strategy_colour(s) for s in pairs["strategy"]])
    equal = right.axvline(0.5, color=REFERENCE, linestyle="--", linewidth=1,
                          label="equal strength (0.5); bar colour: the first-named strategy")
    right.set_yticks(y, labels)
    right.invert_yaxis()
    right.set_xlim(0, 1)
    right.set_xlabel("share of wins of the first-named strategy (duplicate deals)")
    right.set_title("Each pairing, stronger strategy first", fontsize=10)
    for k, (v, n) in enumerate(zip(pairs["win_rate"], pairs["deals"])):
        right.annotate(f"{v:.3f} (n={int(n):,} deals)", (0, k), xytext=(3, 0), textcoords="offset points",
                       va="center", fontsize=7, color="white")
    right.legend(handles=[equal], fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1, frameon=False)
    fig.suptitle(title, fontsize=11)
    return _save(fig, path)


def _share_band(est: np.ndarray, se: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wilson bands (at the effective sample size) for a share of wins: inside [0, 1]."""
    from analyzer.stats import proportion_interval

    bounds = np.array([proportion_interval(float(e), float(s) ** 2, float(k)) for e, s, k in zip(est, se, n)])
    return bounds[:, 0], bounds[:, 1]


def convergence(frame: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Estimate vs number of deals with the paired and unpaired 95% bands, and the band
    width on log-log axes against the 1/sqrt(n) law."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=DPI)
    n = frame["deals"].to_numpy(dtype=float)
    est = frame["win_rate"].to_numpy(dtype=float)
    half_p = Z95 * frame["win_rate_se"].to_numpy(dtype=float)
    half_u = Z95 * frame["win_rate_se_unpaired"].to_numpy(dtype=float)
    band_p = _share_band(est, frame["win_rate_se"].to_numpy(dtype=float), n)
    band_u = _share_band(est, frame["win_rate_se_unpaired"].to_numpy(dtype=float), n)
    left.fill_between(n, *band_p, color=PALETTE[0], alpha=0.3, label="95% band, duplicate deals")
    left.plot(n, band_u[0], "--", color=PALETTE[1], linewidth=1.2, label="95% band if deals were independent")
    left.plot(n, band_u[1], "--", color=PALETTE[1], linewidth=1.2)
    left.plot(n, est, "o-", color=PALETTE[0], label="estimate")
    left.axhline(est[-1], color=REFERENCE, linestyle=":", linewidth=1, label="final estimate")
    left.set_xscale("log")
    _deal_ticks(left, n)
    left.set_xlabel("deals played (log scale)")
    left.set_ylabel("heuristic's share of wins vs random")
    left.set_title("Estimate as deals grow", fontsize=10)
    left.legend(fontsize=8)
    if np.all(half_p > 0) and np.all(half_u > 0):
        right.loglog(n, half_p, "o-", color=PALETTE[0], label="duplicate deals")
        right.loglog(n, half_u, "s--", color=PALETTE[1], label="independent deals")
        right.loglog(n, half_p[0] * np.sqrt(n[0] / n), ":", color=REFERENCE, label="1/sqrt(n) law")
        right.set_ylabel("95% half-width (share of wins, log scale)")
    else:
        right.semilogx(n, half_p, "o-", color=PALETTE[0], label="duplicate deals")
        right.semilogx(n, half_u, "s--", color=PALETTE[1], label="independent deals")
        right.set_ylabel("95% half-width (share of wins)")
        right.text(0.5, 0.5, "no variation: one side won every deal", transform=right.transAxes,
                   ha="center", fontsize=9, color=REFERENCE)
    _deal_ticks(right, n)
    right.set_xlabel("deals played (log scale)")
    right.set_title("Precision as deals grow", fontsize=10)
    right.legend(fontsize=8)
    fig.suptitle(title, fontsize=11)
    return _save(fig, path)


def _with_n(labels: list[str], counts: list, sep: str) -> list[str]:
    """Tick labels that carry each bar's n (read with the bar, whatever its sign)."""
    return [label if n is None else f"{label}{sep}(n={int(n):,})" for label, n in zip(labels, counts)]


def bars(frame: pd.DataFrame, x: str, y: str, title: str, xlabel: str, ylabel: str, path: str | Path,
         reference: float | None = None, reference_label: str = "", colours: Sequence[str] | None = None,
         horizontal: bool = False, count: str | None = "n", legend: Sequence[str] | None = None) -> Path:
    """One bar per row with its 95% interval (columns ``y``, ``y_lo``, ``y_hi``), its n
    (column ``count``) at its base, the value axis from 0, and one legend swatch per colour
    (``legend``: a label per row's colour; default one swatch saying what the bars are)."""
    plt = _pyplot()
    k = len(frame)
    labels = [str(v) for v in frame[x]]
    colours = list(colours) if colours is not None else [PALETTE[0]] * k
    counts = list(frame[count]) if count and count in frame.columns else [None] * k
    extra = []
    if horizontal:
        fig, ax = plt.subplots(figsize=(7.5, 1.4 + 0.38 * k))
        pos = np.arange(k)
        ax.barh(pos, frame[y], xerr=_err(frame, y), capsize=4, color=colours)
        ax.set_yticks(pos, _with_n(labels, counts, " "))
        ax.invert_yaxis()
        ax.set_xlabel(ylabel)
        ax.set_ylabel(xlabel)
        if reference is not None:
            extra.append(ax.axvline(reference, color=REFERENCE, linestyle="--", linewidth=1, label=reference_label))
        from_zero(ax, "x")
    else:
        fig, ax = plt.subplots(figsize=(max(6.5, 1.5 + 1.0 * k), 4.6))
        pos = np.arange(k)
        ax.bar(pos, frame[y], yerr=_err(frame, y), capsize=5, color=colours)
        crowded = k and max(len(t) for t in labels) * k > 60
        ax.set_xticks(pos, _with_n(labels, counts, "\n"), rotation=30 if crowded else 0,
                      ha="right" if crowded else "center")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if reference is not None:
            extra.append(ax.axhline(reference, color=REFERENCE, linestyle="--", linewidth=1, label=reference_label))
        from_zero(ax, "y")
    ax.set_title(title, fontsize=10)
    names = list(legend) if legend is not None else [f"{ylabel} (95% CI)"] * k
    colour_legend(ax, colours, names, extra)
    return _save(fig, path)


def _legend_below(ax, ncol: int = 2) -> None:
    """The legend under the axes, where it never hides a bar."""
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=ncol, frameon=False)


def grouped_bars(frame: pd.DataFrame, x: str, group: str, y: str, title: str, xlabel: str, ylabel: str,
                 path: str | Path, reference: float | None = None, reference_label: str = "",
                 group_label: str = "", count: str | None = "n") -> Path:
    """Bars of ``y`` by ``x``, one colour (and legend entry) per value of ``group``, with 95%
    intervals and each bar's n (rows whose ``y`` is missing are left empty)."""
    plt = _pyplot()
    xs = list(dict.fromkeys(frame[x]))
    groups = list(dict.fromkeys(frame[group]))
    width = 0.8 / max(len(groups), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.5 + 0.45 * len(xs) * len(groups)), 4.5))
    for g, name in enumerate(groups):
        part = frame[(frame[group] == name) & frame[y].notna()]
        pos = np.array([xs.index(v) for v in part[x]]) + (g - (len(groups) - 1) / 2) * width
        ax.bar(pos, part[y], width, yerr=_err(part, y), capsize=3, color=PALETTE[g % len(PALETTE)],
               label=f"{group_label or group.replace('_', ' ')} {name}")
        if count and count in part.columns:
            for px, n, v in zip(pos, part[count], part[y]):
                ax.annotate(f"{int(n):,}", (px, 0), xytext=(0, 3 if v >= 0 else -9), textcoords="offset points",
                            ha="center", fontsize=6, color=REFERENCE, rotation=90 if len(groups) > 1 else 0)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    if reference is not None:
        ax.axhline(reference, color=REFERENCE, linestyle="--", linewidth=1, label=reference_label)
    from_zero(ax, "y")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title + ("\n(numbers at the bars' base: n)" if count else ""), fontsize=10)
    _legend_below(ax, ncol=min(len(groups) + 1, 4))
    return _save(fig, path)


def lines(frame: pd.DataFrame, x: str, y: str, title: str, xlabel: str, ylabel: str, path: str | Path,
          group: str | None = None, group_label: str = "", reference: float | None = None,
          reference_label: str = "", xticks: Sequence | None = None, xticklabels: Sequence[str] | None = None,
          min_count: int = 0, count: str | None = None) -> Path:
    """Lines of ``y`` against ``x`` (one per ``group``) with shaded 95% bands; points with
    fewer than ``min_count`` observations (column ``count``) are left out, and each line's
    legend entry says its total n."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.4))
    names = list(dict.fromkeys(frame[group])) if group else [None]
    for g, name in enumerate(names):
        part = frame if name is None else frame[frame[group] == name]
        if count is not None:
            part = part[part[count] >= max(min_count, 1)]
        if part.empty:
            continue
        colour = PALETTE[g % len(PALETTE)]
        label = ylabel if name is None else f"{group_label or group} {name}"
        if count is not None:
            label += f" (n = {int(part[count].sum()):,})"
        ax.plot(part[x], part[y], "o-", color=colour, markersize=4, label=label)
        ax.fill_between(part[x].to_numpy(dtype=float), part[y + "_lo"].to_numpy(dtype=float),
                        part[y + "_hi"].to_numpy(dtype=float), color=colour, alpha=0.2)
    if reference is not None:
        ax.axhline(reference, color=REFERENCE, linestyle="--", linewidth=1, label=reference_label)
    if xticks is not None:
        ax.set_xticks(list(xticks), list(xticklabels) if xticklabels is not None else None)
    else:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    note = f"; points with n >= {min_count}" if count is not None and min_count else ""
    ax.set_title(title + f"\n(shaded: 95% intervals{note})", fontsize=10)
    ax.legend(fontsize=8, ncol=2 if len(names) > 5 else 1)
    return _save(fig, path)


def heatmap(values: pd.DataFrame, counts: pd.DataFrame | None, title: str, xlabel: str, ylabel: str,
            colour_label: str, path: str | Path, fmt: str = "{:.2f}", vmin: float = 0.0, vmax: float = 1.0,
            cmap: str = "viridis", min_count: int = 0) -> Path:
    """A table of values as colours, each cell annotated with its value and (n = count);
    cells with fewer than ``min_count`` observations are grey, without a value."""
    plt = _pyplot()
    rows, cols = values.shape
    fig, ax = plt.subplots(figsize=(max(5.5, 1.8 + 0.85 * cols), max(3.2, 1.4 + 0.5 * rows)))
    data = values.to_numpy(dtype=float)
    small = np.zeros_like(data, dtype=bool) if counts is None else counts.to_numpy(dtype=float) < min_count
    shown = np.where(small, np.nan, data)
    ax.set_facecolor("#dddddd")
    ax.grid(False)
    image = ax.imshow(np.ma.masked_invalid(shown), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    for i in range(rows):
        for j in range(cols):
            n_text = f"n={int(counts.iloc[i, j]):,}" if counts is not None else ""
            if small[i, j]:
                ax.text(j, i, f"n<{min_count}\n{n_text}", ha="center", va="center", fontsize=7, color=REFERENCE)
            elif np.isfinite(data[i, j]):
                shade = (data[i, j] - vmin) / (vmax - vmin) if vmax > vmin else 0.5
                ax.text(j, i, fmt.format(data[i, j]) + ("\n" + n_text if n_text else ""), ha="center",
                        va="center", fontsize=7, color="black" if shade > 0.55 else "white")
    ax.set_xticks(range(cols), [str(c) for c in values.columns])
    ax.set_yticks(range(rows), [str(r) for r in values.index])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=colour_label)
    return _save(fig, path)
