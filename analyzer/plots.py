"""Figures (matplotlib, Agg backend): titled, labelled, with error bars."""

from __future__ import annotations

from pathlib import Path


def win_rate_plot(summary, path: str | Path) -> None:
    """Win rate per seat with 95% intervals, saved atomically as PNG."""
    plt = _pyplot()
    seats = summary.tables["seats"]
    # a user strategy's label is its path: its file name is enough under a bar
    labels = [f"seat {s}\n{Path(name.split(':')[0]).name if '.py:' in name else name}"
              for s, name in zip(seats["seat"], seats["strategy"])]
    rate = seats["win_rate"].to_numpy()
    err = [rate - seats["win_rate_lo"].to_numpy(), seats["win_rate_hi"].to_numpy() - rate]
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(labels), 4.2), dpi=120)
    ax.bar(labels, rate, yerr=err, capsize=6, color="#4C72B0", alpha=0.85, label="win rate (95% CI)")
    # the share each seat would have if all were equal: partners win together, so it is the
    # mean win rate (1/players with one winner a game, 1/2 in a game of two partnerships)
    ax.axhline(float(rate.mean()), color="grey", linestyle="--", linewidth=1, label="equal share")
    ax.set_ylabel("win rate (share of games)")
    ax.set_title(f"{summary.game}: win rate by seat\n({summary.games:,} games, seed {summary.seed})", fontsize=10)
    ax.set_ylim(0, min(1.0, max(rate.max() * 1.35, 0.1)))
    if len(labels) > 4:
        ax.tick_params(axis="x", labelrotation=30)
    _legend_below(ax, lines_below=3 if len(labels) > 4 else 2)
    _save(fig, path)


def _legend_below(ax, lines_below: int = 1) -> None:
    """The legend under the axes and their ``lines_below`` lines of tick labels, where it
    never hides a bar or an error bar (in the corner it covered a winning seat's)."""
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.05 - 0.07 * lines_below), ncol=2,
              frameon=False)


def _save(fig, path) -> None:
    import matplotlib.pyplot as plt

    from analyzer.io import atomic_path

    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)


def _pyplot():
    from analyzer.report_plots import style  # one style for every figure

    return style()


def comparison_plot(result, path: str | Path) -> None:
    """Two strategies: win rates with 95% error bars. More: a heat map of pairwise win rates."""
    from analyzer.report_plots import p_text

    plt = _pyplot()
    pairs = result.tables["pairs"]
    names = result.strategies
    if len(names) == 2:
        row = pairs.iloc[0]
        rates = [row["win_rate"], row["opponent_win_rate"]]
        err = [[row["win_rate"] - row["win_rate_lo"], row["opponent_win_rate"] - row["opponent_win_rate_lo"]],
               [row["win_rate_hi"] - row["win_rate"], row["opponent_win_rate_hi"] - row["opponent_win_rate"]]]
        fig, ax = plt.subplots(figsize=(5, 4.2), dpi=120)
        ax.bar(names, rates, yerr=err, capsize=8, color=["#4C72B0", "#DD8452"], label="share of wins (95% CI)")
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="equal strength")
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of wins on duplicate deals")
        ax.set_title(f"{result.game}: {names[0]} vs {names[1]}\n({result.games:,} deals, {p_text(row['p_value'])})")
        _legend_below(ax)
    else:
        import numpy as np

        n = len(names)
        grid = np.full((n, n), np.nan)
        for _, row in pairs.iterrows():
            i, j = names.index(row["strategy"]), names.index(row["opponent"])
            grid[i, j], grid[j, i] = row["win_rate"], row["opponent_win_rate"]
        fig, ax = plt.subplots(figsize=(1.8 + 1.1 * n, 1.4 + 1.0 * n), dpi=120)
        image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
        for i in range(n):
            for j in range(n):
                if i != j:
                    ax.text(j, i, f"{grid[i, j]:.3f}", ha="center", va="center", fontsize=9)
        ax.set_xticks(range(n), names, rotation=30, ha="right")
        ax.set_yticks(range(n), names)
        ax.set_xlabel("opponent")
        ax.set_ylabel("strategy")
        ax.set_title(f"{result.game}: share of wins, row vs column\n({result.games:,} duplicate deals)", fontsize=10)
        fig.colorbar(image, ax=ax, label="share of wins")
    _save(fig, path)


def variants_plot(study, path: str | Path) -> None:
    """Win rate by seat under each variant, with 95% error bars."""
    import numpy as np

    plt = _pyplot()
    frame = study.tables["variants"]
    players = len(study.strategies)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.5 + 0.9 * players * len(frame)), 4.4), dpi=120)
    width = 0.8 / len(frame)
    for v, (_, row) in enumerate(frame.iterrows()):
        x = np.arange(players) + v * width
        rate = np.array([row[f"win_rate_{s}"] for s in range(players)])
        lo = np.array([row[f"win_rate_{s}_lo"] for s in range(players)])
        hi = np.array([row[f"win_rate_{s}_hi"] for s in range(players)])
        ax.bar(x, rate, width, yerr=[rate - lo, hi - rate], capsize=4, label=row["variant"])
    ax.set_xticks(np.arange(players) + width * (len(frame) - 1) / 2,
                  [f"seat {s}\n{name}" for s, name in enumerate(study.strategies)])
    ax.set_ylabel("win rate (share of games)")
    ax.set_title(f"{study.game}: win rate by seat under each rule variant\n"
                 f"({study.games:,} games each, same random streams)", fontsize=10)
    _legend_below(ax, lines_below=2)
    _save(fig, path)


def evaluation_plot(result, path: str | Path) -> None:
    """Each option's game-win probability with its 95% interval, best first."""
    plt = _pyplot()
    table = result.table
    fig, ax = plt.subplots(figsize=(6.4, 1.4 + 0.45 * len(table)), dpi=120)
    y = list(range(len(table)))[::-1]
    rate = table["win"].to_numpy()
    err = [rate - table["win_lo"].to_numpy(), table["win_hi"].to_numpy() - rate]
    colours = ["#999999" if dropped else "#4C72B0" for dropped in table["dropped"]]
    ax.barh(y, rate, xerr=err, capsize=4, color=colours)
    ax.set_yticks(y, [f"{o}  (P best {p:.2f})" for o, p in zip(table["option"], table["p_best"])])
    ax.set_xlabel("probability of winning the game (95% CI)")
    hi = float(table["win_hi"].max())
    ax.set_xlim(0.0, min(1.0, hi + max(0.02, hi * 0.1)))  # bars are read by their length: from 0
    ax.set_title(f"{result.game}: options ranked ({result.samples:,} samples; grey = dropped early)", fontsize=10)
    _save(fig, path)


def review_plot(result, path: str | Path) -> None:
    """Win probability of the move played at each reviewed decision, per seat, with the
    loss of each decision drawn down from it (flagged ones in red); saved as PNG."""
    plt = _pyplot()
    t = result.tables["decisions"]
    fig, ax = plt.subplots(figsize=(9, 4.2), dpi=120)
    colours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000"]
    for k, seat in enumerate(result.seats):
        mine = t[(t["seat"] == seat) & t["win"].notna()]
        colour = colours[k % len(colours)]
        ax.plot(mine["decision"], mine["win"], "-o", markersize=3, color=colour, linewidth=1,
                label=f"seat {seat}: P(win) after the move played")
        for _, row in mine[mine["loss_win"] > 0].iterrows():
            ax.vlines(row["decision"], row["win"], row["win"] + row["loss_win"],
                      color="#D55E00" if row["flagged"] else colour, linewidth=2 if row["flagged"] else 1)
    ax.set_xlabel("decision number (as evaluate --at counts)")
    ax.set_ylabel("probability of winning the game")
    ax.set_ylim(0, 1)
    ax.set_title(f"{result.game}: review of game {result.game_index} of {Path(result.record).name}\n"
                 "vertical bars: loss against the best move (red: significant)", fontsize=10)
    ax.legend(loc="best", fontsize=8)
    _save(fig, path)
