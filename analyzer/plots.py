"""Figures (matplotlib, Agg backend): titled, labelled, with error bars."""

from __future__ import annotations

from pathlib import Path


def win_rate_plot(summary, path: str | Path) -> None:
    """Win rate per seat with 95% intervals, saved atomically as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analyzer.io import atomic_path

    seats = summary.tables["seats"]
    labels = [f"seat {s}\n{name}" for s, name in zip(seats["seat"], seats["strategy"])]
    rate = seats["win_rate"].to_numpy()
    err = [rate - seats["win_rate_lo"].to_numpy(), seats["win_rate_hi"].to_numpy() - rate]
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(labels), 4.2), dpi=120)
    ax.bar(labels, rate, yerr=err, capsize=6, color="#4C72B0", alpha=0.85, label="win rate (95% CI)")
    ax.axhline(1 / len(labels), color="grey", linestyle="--", linewidth=1, label="equal share")
    ax.set_ylabel("win rate (share of games)")
    ax.set_title(f"{summary.game}: win rate by seat ({summary.games:,} games, seed {summary.seed})")
    ax.set_ylim(0, min(1.0, max(rate.max() * 1.35, 0.1)))
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
