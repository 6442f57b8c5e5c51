"""Strategy reports: one folder per game with a Markdown report, PNG figures, CSV tables,
and the same report as one self-contained HTML file.

>>> from analyzer.report import build_report
>>> build_report("hearts2", "reports/hearts2", quick=True)  # doctest: +SKIP

A report holds, for one game: how it was made (versions, seed, options, sizes, time, the
command that reproduces it), the rules in brief and the options used, a strategy
tournament on duplicate deals (``random``, ``heuristic`` and ``mc`` where the game has
it), the convergence of the headline number (heuristic vs random) as deals grow, and the
game's own study. The studies that need per-hand facts read game records
(``api.play``, docs/record.md events) of a modest number of games; the others use
``api.simulate`` and ``compare``. Every number comes with a 95% interval.

Every run uses the same ``seed``, and results never depend on ``workers`` (each game has
its own random streams), so the same command gives the same numbers on any machine; only
the timings differ.
"""

from __future__ import annotations

import base64
import html
import math
import platform
import re
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer import report_plots as plots
from analyzer.errors import AnalyzerError
from analyzer.stats import difference_interval, flags_interval, sample_mean_interval, share_interval
from analyzer.runner import run_arms

FIGURES, TABLES = "figures", "tables"
MARKDOWN, HTML = "report.md", "report.html"
MAX_ROWS_SHOWN = 40


# ---- sizes ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    """How much is played for each part of a report."""

    tournament: int          # duplicate deals of the round robin without mc
    tournament_mc: int       # ... when mc takes part (it is far slower)
    mc_k: int                # samples per decision of mc
    convergence: int         # largest number of deals of the convergence study
    convergence_first: int   # its first look (then doubling)
    simulate: int            # games of each api.simulate run
    records: int             # recorded games for the per-hand studies (default players)
    records_sweep: int       # recorded games per player count in sweeps
    max_sweep_players: int   # largest player count of a sweep


QUICK = Sizes(tournament=400, tournament_mc=24, mc_k=8, convergence=2000, convergence_first=250,
              simulate=1000, records=120, records_sweep=40, max_sweep_players=5)
FULL = Sizes(tournament=20_000, tournament_mc=500, mc_k=16, convergence=32_000, convergence_first=500,
             simulate=20_000, records=2000, records_sweep=600, max_sweep_players=8)


# ---- small statistics helpers ---------------------------------------------------------

# the report's names for the interval helpers of analyzer.stats (one statistics module)
mean_ci = sample_mean_interval
share_ci = share_interval
prop_ci = flags_interval
diff_ci = difference_interval


def put(row: dict[str, Any], name: str, value: tuple[float, float, float]) -> None:
    row[name], row[name + "_lo"], row[name + "_hi"] = value


def grouped(frame: pd.DataFrame, by: list[str] | str, measures: dict[str, tuple[str, str]]) -> pd.DataFrame:
    """Per group: ``n`` and each measure ``name -> (column, 'mean'|'prop')`` with its interval."""
    by = [by] if isinstance(by, str) else by
    rows = []
    if frame.empty:
        return pd.DataFrame(columns=[*by, "n", *[c for name in measures for c in (name, name + "_lo", name + "_hi")]])
    for key, part in frame.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        row: dict[str, Any] = dict(zip(by, key))
        row["n"] = len(part)
        for name, (column, kind) in measures.items():
            put(row, name, (prop_ci if kind == "prop" else mean_ci)(part[column]))
        rows.append(row)
    return pd.DataFrame(rows)


RANKS = "23456789TJQKA"
SUITS = "CDHS"


def rank_of(token: str) -> str:
    return token[0]


# ---- the document: blocks rendered to Markdown and HTML ------------------------------------

class Report:
    """Collects the report's blocks and writes its files."""

    def __init__(self, game: str, out: Path, quick: bool, seed: int, workers: int | None) -> None:
        self.game, self.out, self.quick, self.seed, self.workers = game, out, quick, seed, workers
        self.sizes = QUICK if quick else FULL
        self.blocks: list[tuple] = []
        self.runs: list[dict[str, Any]] = []
        self.figures: list[Path] = []
        self.tables: dict[str, Path] = {}

    # blocks
    def h(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(("ul", items))

    def code(self, text: str) -> None:
        self.blocks.append(("code", text))

    def table(self, name: str, frame: pd.DataFrame, caption: str, show: list[str] | None = None) -> pd.DataFrame:
        """Write ``tables/NAME.csv`` (all columns) and show ``show`` columns in the report."""
        path = self.out / TABLES / f"{name}.csv"
        frame.to_csv(path, index=False)
        self.tables[name] = path
        shown = frame.copy() if show is None else frame[[c for c in _expand(show, frame) if c in frame.columns]].copy()
        self.blocks.append(("table", shown, f"{caption} (`{TABLES}/{name}.csv`)"))
        return frame

    def figure(self, path: Path, caption: str) -> None:
        self.figures.append(path)
        self.blocks.append(("fig", path.relative_to(self.out).as_posix(), caption))

    def fig_path(self, name: str) -> Path:
        return self.out / FIGURES / f"{name}.png"

    # runs, timed and logged for the provenance table
    def run(self, part: str, what: str, call: Callable[[], Any], **facts: Any) -> Any:
        started = time.perf_counter()
        result = call()
        row = {"part": part, "call": what, "strategies": "", "players": "", "deals": "", "games": ""}
        row.update({k: (f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)) for k, v in facts.items()})
        row["seconds"] = f"{time.perf_counter() - started:.2f}"
        self.runs.append(row)
        return result


def _expand(show: list[str], frame: pd.DataFrame) -> list[str]:
    out = []
    for c in show:
        out.append(c)
        for suffix in ("_lo", "_hi"):
            if c + suffix in frame.columns:
                out.append(c + suffix)
    return out


def _fmt_number(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            return "–"
        if v == int(v) and abs(v) >= 1000:
            return f"{int(v):,}"
        if abs(v) >= 100:
            return f"{v:.1f}"
        if abs(v) >= 10:
            return f"{v:.2f}"
        return f"{v:.3f}"
    return str(v)


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Numbers as text; ``x``, ``x_lo``, ``x_hi`` become one column ``x [lo, hi]``."""
    cols = list(frame.columns)
    out: dict[str, list[str]] = {}
    for c in cols:
        if c.endswith("_lo") or c.endswith("_hi"):
            if c[:-3] in cols:
                continue
        if c + "_lo" in cols and c + "_hi" in cols:
            out[f"{c} [95% CI]"] = [
                f"{_fmt_number(v)} [{_fmt_number(lo)}, {_fmt_number(hi)}]"
                if all(isinstance(x, (int, float, np.integer, np.floating)) and math.isfinite(x) for x in (v, lo, hi))
                else _fmt_number(v)
                for v, lo, hi in zip(frame[c], frame[c + "_lo"], frame[c + "_hi"])
            ]
        else:
            out[c] = [_fmt_number(v) for v in frame[c]]
    return pd.DataFrame(out)


def _inline_md_to_html(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"<em>\1</em>", text)
    return text


def render_markdown(blocks: list[tuple]) -> str:
    parts: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            parts.append("#" * block[1] + " " + block[2])
        elif kind == "p":
            parts.append(block[1])
        elif kind == "ul":
            parts.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "code":
            parts.append("```\n" + block[1] + "\n```")
        elif kind == "table":
            frame, caption = display_frame(block[1]), block[2]
            more = len(frame) - MAX_ROWS_SHOWN
            frame = frame.head(MAX_ROWS_SHOWN)
            lines = ["| " + " | ".join(str(c) for c in frame.columns) + " |",
                     "|" + "|".join("---" for _ in frame.columns) + "|"]
            for _, row in frame.iterrows():
                lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
            note = f" First {MAX_ROWS_SHOWN} rows of {len(frame) + more}." if more > 0 else ""
            parts.append("\n".join(lines) + f"\n\n*{caption}.{note}*")
        elif kind == "fig":
            parts.append(f"![{block[2]}]({block[1]})\n\n*{block[2]}*")
    return "\n\n".join(parts) + "\n"


_CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1,h2,h3{line-height:1.2} h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.85em} th,td{border:1px solid #ccc;padding:.25em .5em}
th{background:#f3f3f3} td{text-align:right} td:first-child{text-align:left}
figure{margin:1em 0} img{max-width:100%} figcaption,.caption{font-size:.85em;color:#555;font-style:italic}
code,pre{background:#f6f6f6;font-family:Menlo,Consolas,monospace;font-size:.9em} pre{padding:.6em;overflow-x:auto}
"""


def render_html(blocks: list[tuple], root: Path, title: str) -> str:
    """The report as one HTML page: figures inlined as base64 data URIs, CSS inline."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"]
    for block in blocks:
        kind = block[0]
        if kind == "h":
            parts.append(f"<h{block[1]}>{_inline_md_to_html(block[2])}</h{block[1]}>")
        elif kind == "p":
            parts.append(f"<p>{_inline_md_to_html(block[1])}</p>")
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline_md_to_html(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "code":
            parts.append(f"<pre><code>{html.escape(block[1])}</code></pre>")
        elif kind == "table":
            frame, caption = display_frame(block[1]), block[2]
            more = len(frame) - MAX_ROWS_SHOWN
            frame = frame.head(MAX_ROWS_SHOWN)
            head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                           for _, row in frame.iterrows())
            note = f" First {MAX_ROWS_SHOWN} rows of {len(frame) + more}." if more > 0 else ""
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                         f'<p class="caption">{_inline_md_to_html(caption)}.{note}</p>')
        elif kind == "fig":
            data = base64.b64encode((root / block[1]).read_bytes()).decode("ascii")
            alt = html.escape(block[2])
            parts.append(f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">'
                         f"<figcaption>{_inline_md_to_html(block[2])}</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# ---- rules in brief -----------------------------------------------------------------------

RULES_BRIEF = {
    "ninety-nine": (
        "An addition game for 2-10 players with one deck (two from 4 players). Each player holds 3 cards "
        "and plays one per turn to a pile whose total starts at 0, then draws. A 2 3 5 6 7 8 add their "
        "value, A adds 1 or 11, J and Q add 10, T adds 10 or takes 10 away, 9 adds 0, 4 adds 0 and "
        "reverses the direction, K sets the total to 99. A move may not take the total past 99: a player "
        "with no legal move *goes over*, pays a chip and the round ends. K, 4, 9 and T are the *escape* "
        "cards (always playable). A player who must pay with no chip left is out; the last player left wins."),
    "twenty-two": (
        "A last-trick elimination game for 2-6 players (suits never matter). The first hand deals 7 cards; "
        "each player may once discard and redraw from the stock. Tricks are led with a single or a set of "
        "one rank; followers play as many cards, either matching or beating the best set or their lowest "
        "cards. When everyone holds one card, the final trick is played: whoever plays the highest rank "
        "takes it and scores the card's value (2-10 face, J Q K 10, A 11); the taker deals next, with as "
        "many cards each as that value. A player with 22 points or more is out; the last player in wins."),
    "hearts2": (
        "Hearts for two players with a 28-card deck (2 4 6 8 T Q A of each suit); hearts are trump. "
        "13 cards each, two cards dead. The holder of 2C (else 4C, else 6C) leads; follow suit if able. "
        "Each heart taken scores 1 point and QS 13; taking every point card in play (*shooting the moon*) "
        "scores 0 and gives the opponent 20. After a hand in which someone reaches 100, the lower score wins."),
    "two-ten-jack": (
        "A two-player trick game with 52 cards. Hearts are trump and the ace of spades (AS) is both a spade "
        "and the highest trump. Six cards each; after each trick the winner, then the loser, draws from the "
        "stock. Follow suit if able, else trump if able. At the end of the round the cards taken score: "
        "2H TH JH +5 each, 2C TC JC -5 each, 2S TS JS AS +1 each, 6D +1. The first to 31 wins."),
    "pitch10": (
        "10-Point Pitch for four players in two partnerships (seats 0+2 vs 1+3), 54 cards with two jokers. "
        "Nine cards each; each player bids once (4-10 or moon) or passes; the highest bidder (*pitcher*) names "
        "trump. Everyone discards non-trumps and is refilled to six from the stock; the pitcher takes the rest "
        "of the stock or gives it to the partner. Only trumps are played: A J off-jack HJ LJ T 2 of trump score "
        "1 each and the 3 scores 3 (10 per round). The pitcher's team scores its bid if it took at least the bid, "
        "else loses it; the other team scores what it took. First team to 52 wins."),
}


# ---- common sections -------------------------------------------------------------------------

def _versions() -> dict[str, str]:
    import matplotlib
    import numba

    import analyzer

    return {"analyzer": analyzer.__version__, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "pandas": pd.__version__, "matplotlib": matplotlib.__version__,
            "platform": platform.platform()}


def _command(game: str, out: Path, quick: bool, seed: int) -> str:
    return f"analyzer report {game} --out {out} --seed {seed}" + (" --quick" if quick else "")


def _rules_section(r: Report, spec, rules: dict[str, Any]) -> None:
    from analyzer import api

    r.h(2, "Rules in brief and options used")
    r.p(RULES_BRIEF.get(spec.name, spec.title) + " The full rules are in the project's rule book (docs/rules.md).")
    rows = [{"option": o.name, "value": rules.get(o.name), "meaning": o.help} for o in spec.options]
    r.table("options", pd.DataFrame(rows), "Rule options used in every run of this report (defaults)")
    r.table("strategies", api.strategies(spec.name), "Built-in strategies of the game")


def _tournament_section(r: Report, spec, strategies: list[str]) -> pd.DataFrame:
    from analyzer import compare

    s = r.sizes
    deals = s.tournament_mc if any(x.startswith("mc") for x in strategies) else s.tournament
    result = r.run("tournament", "compare.compare", lambda: compare.compare(
        spec.name, strategies, games=deals, seed=r.seed, workers=r.workers),
        strategies=" ".join(strategies), deals=deals)
    r.h(2, "Strategy tournament")
    r.p(f"Round robin of {', '.join(f'`{x}`' for x in strategies)} on **{result.games:,} duplicate deals** "
        "per pairing: every deal is played once per balanced seating of the two strategies, so both see the "
        "same cards and the luck of the deal cancels in the comparison. A share of wins above 0.5 means the "
        "first-named strategy is stronger; `difference` is twice the share minus one, and `p_value` tests "
        "equal strength.")
    pairs = result.tables["pairs"]
    ranking = result.tables.get("ranking")
    if ranking is None:
        row = pairs.iloc[0]
        ranking = pd.DataFrame([
            {"rank": 1, "strategy": row["strategy"], "mean_win_rate": row["win_rate"],
             "mean_win_rate_lo": row["win_rate_lo"], "mean_win_rate_hi": row["win_rate_hi"]},
            {"rank": 2, "strategy": row["opponent"], "mean_win_rate": row["opponent_win_rate"],
             "mean_win_rate_lo": row["opponent_win_rate_lo"], "mean_win_rate_hi": row["opponent_win_rate_hi"]},
        ]).sort_values("mean_win_rate", ascending=False)
        ranking["rank"] = range(1, len(ranking) + 1)
    r.table("tournament_ranking", ranking, "Ranking: mean share of wins against the other strategies")
    r.table("tournament_pairs", pairs, "Each pairing on duplicate deals",
            show=["strategy", "opponent", "deals", "games", "win_rate", "difference", "difference_se",
                  "difference_se_unpaired", "p_value", "score_margin"])
    path = plots.tournament(ranking, pairs, f"{spec.title}: strategy tournament ({result.games:,} duplicate deals "
                                            f"per pairing, seed {r.seed})", r.fig_path("tournament"))
    r.figure(path, "Strategy tournament: share of wins with 95% intervals")
    if "mc" in " ".join(strategies):
        r.p(f"`mc` runs {s.mc_k} samples per decision here (`mc:k={s.mc_k}`); it is far slower than the others, "
            "so the tournament uses fewer deals and its intervals are wider.")
    return pairs


def _convergence_section(r: Report, spec) -> pd.DataFrame:
    from analyzer import compare

    s = r.sizes
    looks, n = [], s.convergence_first
    while n < s.convergence:
        looks.append(n)
        n *= 2
    looks.append(s.convergence)
    tour = compare.Tournament(spec.name, ["heuristic", "random"], None, None)
    rows: list[dict[str, Any]] = []

    def on_chunk(done: int, chunk_rows: list[np.ndarray]) -> bool:
        tour.fold(chunk_rows)
        if done in looks:
            pair = tour.tables(0.05)["pairs"].iloc[0]
            rows.append({"deals": done, "games": int(pair["games"]), "win_rate": pair["win_rate"],
                         "win_rate_lo": pair["win_rate_lo"], "win_rate_hi": pair["win_rate_hi"],
                         "win_rate_se": pair["difference_se"] / 2,
                         "win_rate_se_unpaired": pair["difference_se_unpaired"] / 2,
                         "score_margin": pair["score_margin"], "score_margin_lo": pair["score_margin_lo"],
                         "score_margin_hi": pair["score_margin_hi"]})
        return False

    r.run("convergence", "compare.Tournament + runner.run_arms", lambda: run_arms(
        tour.arms, r.seed, s.convergence, on_chunk, workers=r.workers, label="report", boundaries=looks),
        strategies="heuristic random", deals=s.convergence)
    frame = pd.DataFrame(rows)
    r.h(2, "Convergence of the headline number")
    r.p("The headline number is the share of wins of `heuristic` against `random` on duplicate deals. Below it "
        f"is estimated after the first {looks[0]:,} deals and each time the number doubles, up to "
        f"{s.convergence:,} (the estimates are nested: each uses the deals of the previous one and more). The "
        "band narrows like 1/sqrt(n); the duplicate-deal band is narrower than it would be with independent "
        "deals whenever the deal's luck matters.")
    r.table("convergence", frame, "Heuristic's share of wins against random as deals grow",
            show=["deals", "games", "win_rate", "win_rate_se", "win_rate_se_unpaired", "score_margin"])
    path = plots.convergence(frame, f"{spec.title}: heuristic vs random as deals grow (seed {r.seed})",
                             r.fig_path("convergence"))
    r.figure(path, "Convergence of heuristic's share of wins against random, with 95% bands")
    return frame


def _play(r: Report, part: str, game: str, n: int, players: int | None = None,
          seats: list[str] | None = None) -> list[list[dict[str, Any]]]:
    from analyzer import api

    return r.run(part, "api.play", lambda: api.play(game, seed=r.seed, index=0, games=n, players=players,
                                                    seats=seats),
                 games=n, players=players or "", strategies=" ".join(seats) if seats else "heuristic (all)")


def _simulate(r: Report, part: str, game: str, n: int, players: int | None = None, seats: list[str] | None = None):
    from analyzer import api

    return r.run(part, "api.simulate", lambda: api.simulate(game, games=n, seed=r.seed, players=players,
                                                            seats=seats, workers=r.workers),
                 games=n, players=players or "", strategies=" ".join(seats) if seats else "heuristic (all)")


# ---- Ninety-Nine ------------------------------------------------------------------------------

ESCAPES = "K49T"


def nn_frames(records: list[list[dict[str, Any]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per turn (seat, pile total, escapes held, went over now / this round) and per dealt
    hand (escape cards held, went over this round, position from the dealer)."""
    turns, hands_rows = [], []
    for g, game in enumerate(records):
        players = int(game[0]["players"])
        hands: list[list[str]] = []
        total, dealer, rnd = 0, 0, 0
        round_turns: list[dict[str, Any]] = []
        round_hands: list[dict[str, Any]] = []
        buster = -1
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                rnd += 1
                hands = [[rank_of(c) for c in h] for h in e["hands"]]
                total, dealer, buster = 0, int(e["dealer"]), -1
                round_turns, round_hands = [], []
                active = sum(1 for h in hands if h)
                for seat, h in enumerate(hands):
                    if h:
                        round_hands.append({"game": g, "round": rnd, "seat": seat, "active": active,
                                            "position": (seat - dealer) % players,
                                            "escapes": sum(c in ESCAPES for c in h),
                                            **{f"has_{c}": c in h for c in ESCAPES}})
            elif ev in ("decide", "bust"):
                seat = int(e["seat"])
                round_turns.append({"seat": seat, "total": total,
                                    "escapes": sum(c in ESCAPES for c in hands[seat]),
                                    "over_now": ev == "bust"})
                if ev == "decide":
                    rank = str(e["move"])[0]
                    if rank in hands[seat]:
                        hands[seat].remove(rank)
                else:
                    buster = seat
            elif ev == "pile":
                total = int(e["total"])
            elif ev == "draw":
                hands[int(e["seat"])].append(rank_of(e["card"]))
            elif ev == "hand_end":
                for t in round_turns:
                    t["over_this_round"] = t["seat"] == buster
                    turns.append(t)
                for h in round_hands:
                    h["went_over"] = h["seat"] == buster
                    hands_rows.append(h)
    return pd.DataFrame(turns), pd.DataFrame(hands_rows)


def _two_groups(frame: pd.DataFrame, flag: str, outcome: str, kind: str = "prop") -> dict[str, Any]:
    yes, no = frame[frame[flag]][outcome], frame[~frame[flag]][outcome]
    row: dict[str, Any] = {"n_with": len(yes), "n_without": len(no)}
    ci = prop_ci if kind == "prop" else mean_ci
    put(row, "with", ci(yes))
    put(row, "without", ci(no))
    put(row, "difference", diff_ci(yes, no))
    return row


def study_ninety_nine(r: Report, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    records = _play(r, "study", spec.name, s.records)
    turns, dealt = nn_frames(records)
    r.h(2, "Ninety-Nine study")
    r.p(f"From the records of {s.records:,} games of `heuristic` players ({len(dealt):,} dealt hands, "
        f"{len(turns):,} turns) with the default rules.")

    r.h(3, "Risk of going over by pile total and hand")
    turns["total_bin"] = (turns["total"].clip(0, 99) // 10 * 10).astype(int)
    turns["escapes_held"] = turns["escapes"].clip(upper=2).map({0: "0", 1: "1", 2: "2+"})
    risk = grouped(turns, ["total_bin", "escapes_held"], {"over_this_round": ("over_this_round", "prop"),
                                                         "over_now": ("over_now", "prop")})
    risk.insert(1, "totals", risk["total_bin"].map(lambda t: f"{t}-{t + 9}"))
    r.table("risk_by_total_and_hand", risk, "Chance that the player to move goes over in this round (and at once), "
            "by pile total at the turn and escape cards (K 4 9 T) held",
            show=["totals", "escapes_held", "n", "over_this_round", "over_now"])
    path = plots.lines(risk, "total_bin", "over_this_round",
                       f"{spec.title}: chance to go over this round by pile total at your turn\n"
                       f"({s.records:,} heuristic games)", "pile total at the turn (points, bins of 10)",
                       "chance to go over this round (share of turns)", r.fig_path("risk_by_total"),
                       group="escapes_held", group_label="escapes held:", count="n", min_count=10)
    r.figure(path, "Risk of going over this round by pile total and escape cards held (cells with 10+ turns)")
    r.p("A player holding an escape card can never go over at once; the table's `over_now` shows how the risk at "
        "the turn itself jumps once the total passes 90 without escapes.")

    r.h(3, "Value of holding each escape card")
    rows = []
    for c in ESCAPES:
        row = {"card": c, **_two_groups(dealt, f"has_{c}", "went_over")}
        rows.append(row)
    value = pd.DataFrame(rows)
    r.table("escape_card_value", value, "Chance of going over this round for hands dealt with and without each "
            "escape card; `difference` = with - without (negative: the card protects)",
            show=["card", "n_with", "n_without", "with", "without", "difference"])
    path = plots.bars(value, "card", "difference",
                      f"{spec.title}: change in the chance to go over this round\nwhen dealt each escape card "
                      f"({len(dealt):,} dealt hands, heuristic)", "escape card dealt",
                      "change in chance to go over (with - without)", r.fig_path("escape_card_value"),
                      reference=0.0, reference_label="no effect", colours=plots.PALETTE[:4])
    r.figure(path, "Value of holding each escape card at the deal, 95% intervals")
    by_count = grouped(dealt, "escapes", {"went_over": ("went_over", "prop")})
    r.table("went_over_by_escapes_dealt", by_count, "Chance of going over this round by the number of escape "
            "cards dealt")

    r.h(3, "Seat position")
    summary = _simulate(r, "study", spec.name, s.simulate)
    seats = summary.tables["seats"]
    r.table("seats", seats, f"Win rate by seat ({summary.games:,} games, heuristic everywhere; the first dealer "
            "is random, so seats should be even)", show=["seat", "strategy", "games", "win_rate", "busts_per_round"])
    positions = summary.tables.get("positions")
    if positions is not None:
        r.table("positions", positions, "Chance of going over by position relative to the dealer (dealer+1 plays "
                "first)")
        path = plots.bars(positions, "label", "bust_rate",
                          f"{spec.title}: chance to go over by position relative to the dealer\n"
                          f"({summary.games:,} games, {summary.hands:,} rounds, heuristic)",
                          "position (dealer+1 plays first)", "chance to go over (share of rounds)",
                          r.fig_path("position_bust_rate"), reference=1 / spec.players(rules),
                          reference_label="1 / players")
        r.figure(path, "Going over by position relative to the dealer, 95% intervals")

    r.h(3, "Number of players")
    rows = []
    counts = list(range(spec.min_players, min(spec.max_players, s.max_sweep_players) + 1))
    for p in counts:
        sm = _simulate(r, "study", spec.name, s.simulate, players=p)
        pos = sm.tables.get("positions")
        rows_p = {"players": p, "games": sm.games}
        for key in ("rounds_per_game", "plays_per_round"):
            if key in sm.totals:
                put(rows_p, key, (sm.totals[key], sm.totals.get(key + "_lo", math.nan),
                                  sm.totals.get(key + "_hi", math.nan)))
        rows.append(rows_p)
        if pos is not None:
            for _, prow in pos.iterrows():
                rows_p.setdefault("_pos", []).append(prow)
    sweep = pd.DataFrame([{k: v for k, v in row.items() if k != "_pos"} for row in rows])
    r.table("players_sweep", sweep, "Length of the game by number of players (heuristic everywhere; decks and chips "
            "follow the player count)")
    pos_rows = []
    for row in rows:
        for prow in row.get("_pos", []):
            pos_rows.append({"players": row["players"], "position": int(prow["position"]), "label": prow["label"],
                             "rounds": int(prow["rounds"]), "bust_rate": prow["bust_rate"],
                             "bust_rate_lo": prow["bust_rate_lo"], "bust_rate_hi": prow["bust_rate_hi"]})
    if pos_rows:
        pos_frame = pd.DataFrame(pos_rows)
        r.table("players_positions", pos_frame, "Chance of going over by position relative to the dealer, for each "
                "number of players")
        path = plots.lines(pos_frame, "position", "bust_rate",
                           f"{spec.title}: chance to go over by position and number of players\n"
                           f"({s.simulate:,} games each, heuristic)", "position after the dealer (0 = dealer)",
                           "chance to go over (share of rounds)", r.fig_path("players_positions"),
                           group="players", group_label="players:")
        r.figure(path, "Going over by position relative to the dealer for each number of players")


# ---- Twenty-Two -------------------------------------------------------------------------------

def tt_frames(records: list[list[dict[str, Any]]]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Per (hand, seat, rank held at the discard): discarded or kept, points, took the final
    trick; per final-trick card: rank, taken; per deal: hand number, size, players in."""
    held_rows, final_rows, deal_rows = [], [], []
    trick = 0
    for g, game in enumerate(records):
        players = int(game[0]["players"])
        strategies = game[0].get("strategies", [])
        held: dict[int, set[str]] = {}
        discarded: dict[int, set[str]] = {}
        takers: list[int] = []
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                held = {s: {rank_of(c) for c in h} for s, h in enumerate(e["hands"]) if h}
                discarded, takers = {}, []
                deal_rows.append({"game": g, "players": players, "hand": int(e["hand"]),
                                  "size": int(e.get("size", max(len(h) for h in e["hands"]))),
                                  "in": len(held)})
            elif ev == "decide" and e.get("kind") == "discard":
                discarded[int(e["seat"])] = set(str(e["move"]))
            elif ev == "final":
                takers = [int(t) for t in e["takers"]]
                trick += 1
                for order, (seat, card) in enumerate(e["plays"]):
                    final_rows.append({"trick": trick, "players": players, "rank": rank_of(card),
                                       "rank_index": RANKS.index(rank_of(card)), "order": order,
                                       "taken": int(seat) in takers})
            elif ev == "hand_end":
                for seat, ranks in held.items():
                    for rank in ranks:
                        held_rows.append({"players": players, "strategy": strategies[seat] if strategies else "",
                                          "rank": rank, "rank_index": RANKS.index(rank),
                                          "discarded": rank in discarded.get(seat, set()),
                                          "points": float(e["points"][seat]), "took_final": seat in takers})
    return pd.DataFrame(held_rows), pd.DataFrame(final_rows), pd.DataFrame(deal_rows)


def study_twenty_two(r: Report, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    p0 = spec.players(rules)
    r.h(2, "Twenty-Two study")
    heur = _play(r, "study", spec.name, s.records)
    rand = _play(r, "study", spec.name, s.records, seats=["random"] * p0)
    held_h, final_h, deals = tt_frames(heur)
    held_r, _, _ = tt_frames(rand)
    r.p(f"From the records of {s.records:,} games of `heuristic` players and {s.records:,} games of `random` "
        f"players ({p0} players, default rules), plus {s.records_sweep:,} heuristic games for each other number "
        "of players.")

    r.h(3, "Value of discarding each rank")
    r.p("For every player who held a rank when discarding: the points scored in that hand (the final-trick card "
        "taken; fewer is better) when they discarded at least one card of that rank, against when they kept it. "
        "Random players discard each rank by chance, so their difference is a fair experiment; heuristic players "
        "choose, so theirs is an observation (cells with fewer than 10 hands are left empty).")
    rows = []
    for label, frame in (("random", held_r), ("heuristic", held_h)):
        for rank in RANKS:
            part = frame[frame["rank"] == rank]
            yes, no = part[part["discarded"]], part[~part["discarded"]]
            row: dict[str, Any] = {"players_strategy": label, "rank": rank, "rank_index": RANKS.index(rank),
                                   "held": len(part), "discarded_share": float(part["discarded"].mean())
                                   if len(part) else math.nan}
            put(row, "points_if_discarded", mean_ci(yes["points"]))
            put(row, "points_if_kept", mean_ci(no["points"]))
            put(row, "points_difference", diff_ci(yes["points"], no["points"]) if min(len(yes), len(no)) >= 10
                else (math.nan,) * 3)
            put(row, "final_difference", diff_ci(yes["took_final"], no["took_final"])
                if min(len(yes), len(no)) >= 10 else (math.nan,) * 3)
            rows.append(row)
    discard = pd.DataFrame(rows)
    r.table("discard_value", discard, "Points scored in the hand when discarding a held rank vs keeping it "
            "(`points_difference` = discarded - kept; negative: discarding helps)",
            show=["players_strategy", "rank", "held", "discarded_share", "points_if_discarded", "points_if_kept",
                  "points_difference", "final_difference"])
    path = plots.grouped_bars(discard, "rank", "players_strategy", "points_difference",
                              f"{spec.title}: points scored when discarding a rank vs keeping it\n"
                              f"({s.records:,} games per strategy, {p0} players; empty: too few hands)",
                              "rank held at the discard", "points in the hand (discarded - kept)",
                              r.fig_path("discard_value"), reference=0.0, reference_label="no effect",
                              group_label="players:")
    r.figure(path, "Value of discarding each rank, 95% intervals")

    r.h(3, "Chance of taking the final trick")
    frames = [final_h]
    counts = [p for p in range(spec.min_players, min(spec.max_players, s.max_sweep_players + 1) + 1) if p != p0]
    for p in counts:
        _, fin, _ = tt_frames(_play(r, "study", spec.name, s.records_sweep, players=p))
        frames.append(fin)
    final = pd.concat(frames, ignore_index=True)
    table = grouped(final, ["players", "rank_index"], {"taken": ("taken", "prop")})
    table.insert(2, "rank", table["rank_index"].map(lambda i: RANKS[int(i)]))
    r.table("final_trick", table, "Chance that a card played to the final trick takes it (and scores), by its "
            "rank and the number of players (heuristic)", show=["players", "rank", "n", "taken"])
    path = plots.lines(table, "rank_index", "taken",
                       f"{spec.title}: chance that the final card takes the final trick\n(heuristic players)",
                       "final card's rank", "chance to take the final trick", r.fig_path("final_trick"),
                       group="players", group_label="players:", xticks=range(13), xticklabels=list(RANKS),
                       count="n", min_count=10)
    r.figure(path, "Taking the final trick by final card and number of players (points with 10+ cards)")

    r.h(3, "Hand size dynamics")
    main = deals[deals["players"] == p0]
    by_hand = grouped(main, "hand", {"size": ("size", "mean"), "players_in": ("in", "mean")})
    r.table("hand_size_by_hand", by_hand, f"Cards dealt per player and players still in, by hand number "
            f"({p0} players, heuristic)")
    path = plots.lines(by_hand, "hand", "size", f"{spec.title}: cards dealt per player by hand number\n"
                       f"({s.records:,} heuristic games, {p0} players; hands reached by 20+ games)",
                       "hand number", "cards dealt per player (mean)", r.fig_path("hand_size"),
                       count="n", min_count=20)
    r.figure(path, "Hand size by hand number, 95% band")
    dist = main.groupby("size").size().rename("hands").reset_index()
    dist["share"] = dist["hands"] / dist["hands"].sum()
    r.table("hand_size_distribution", dist, "Distribution of the hand size dealt (all hands)")


# ---- Hearts (two players) ------------------------------------------------------------------------

def hearts_frame(records: list[list[dict[str, Any]]]) -> pd.DataFrame:
    """Per (hand, seat): hearts and QS dealt, first leader, dealer, points, moon, QS taken."""
    rows = []
    for g, game in enumerate(records):
        hands: list[list[str]] = []
        dead: list[str] = []
        dealer, leader, qs_taker = 0, -1, -1
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                hands, dead, dealer, leader, qs_taker = e["hands"], e["dead"], int(e["dealer"]), -1, -1
            elif ev == "decide" and leader < 0:
                leader = int(e["seat"])
            elif ev == "trick":
                if "QS" in e["cards"]:
                    qs_taker = int(e["winner"])
            elif ev == "hand_end":
                moon = e.get("moon")
                for seat in range(2):
                    qs = "QS" if "QS" in hands[seat] else ("dead" if "QS" in dead else "opponent")
                    rows.append({"game": g, "seat": seat, "hearts_held": sum(c[1] == "H" for c in hands[seat]),
                                 "qs": {"QS": "held", "dead": "dead", "opponent": "opponent holds"}[qs],
                                 "first_lead": seat == leader, "dealer": seat == dealer,
                                 "points": float(e["points"][seat]), "opponent_points": float(e["points"][1 - seat]),
                                 "moon": moon is not None and int(moon) == seat, "took_qs": qs_taker == seat})
    return pd.DataFrame(rows)


def study_hearts2(r: Report, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    r.h(2, "Two-player Hearts study")
    hands = hearts_frame(_play(r, "study", spec.name, s.records))
    r.p(f"Per-hand facts from the records of {s.records:,} games of `heuristic` players ({len(hands) // 2:,} "
        "hands); moon rates from simulations of each pairing.")

    r.h(3, "Moon rate")
    rows = []
    for seats in (["heuristic", "heuristic"], ["random", "random"], ["heuristic", "random"]):
        sm = _simulate(r, "study", spec.name, s.simulate, seats=seats)
        table = sm.tables["seats"]
        for _, row in table.iterrows():
            if "moon_rate" in table.columns:
                rows.append({"pairing": " vs ".join(seats), "seat": int(row["seat"]), "strategy": row["strategy"],
                             "games": int(row["games"]), "moon_rate": row["moon_rate"],
                             "moon_rate_lo": row["moon_rate_lo"], "moon_rate_hi": row["moon_rate_hi"]})
    if rows:
        moon = pd.DataFrame(rows)
        moon["label"] = moon["pairing"] + "\nseat " + moon["seat"].astype(str) + ": " + moon["strategy"]
        r.table("moon_rate", moon.drop(columns="label"), "Share of hands in which each player shoots the moon")
        path = plots.bars(moon, "label", "moon_rate", f"{spec.title}: moon rate by pairing\n"
                          f"({s.simulate:,} games each, seed {r.seed})", "pairing and player",
                          "moon rate (share of hands)", r.fig_path("moon_rate"),
                          colours=[plots.strategy_colour(x) for x in moon["strategy"]], horizontal=True)
        r.figure(path, "Moon rate per player and pairing, 95% intervals")

    r.h(3, "Value of holding QS")
    qs = grouped(hands, "qs", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"),
                               "moon": ("moon", "prop")})
    r.table("qs_value", qs, "Points per hand (fewer is better), chance of taking QS and of shooting the moon, by "
            "who was dealt QS")
    path = plots.bars(qs, "qs", "points", f"{spec.title}: points per hand by who was dealt QS\n"
                      f"({len(hands) // 2:,} hands, heuristic)", "QS at the deal", "points per hand (mean)",
                      r.fig_path("qs_value"), colours=plots.PALETTE[:len(qs)])
    r.figure(path, "Points per hand by who holds QS, 95% intervals")

    r.h(3, "First-lead advantage")
    lead = grouped(hands, "first_lead", {"points": ("points", "mean"), "moon": ("moon", "prop")})
    lead["role"] = lead["first_lead"].map({True: "leads the first trick", False: "follows"})
    leaders = hands[hands["first_lead"]]
    diff = mean_ci(leaders["points"] - leaders["opponent_points"])
    r.table("first_lead", lead[["role", *[c for c in lead.columns if c not in ("role", "first_lead")]]],
            "Points per hand for the player who leads the first trick (holder of the lowest club) and the other")
    r.p(f"Paired per hand, the first leader scores **{diff[0]:+.2f}** points [{diff[1]:+.2f}, {diff[2]:+.2f}] "
        "relative to the opponent (negative: leading first is an advantage).")
    path = plots.bars(lead, "role", "points", f"{spec.title}: points per hand by first lead\n"
                      f"({len(hands) // 2:,} hands, heuristic)", "role in the first trick", "points per hand (mean)",
                      r.fig_path("first_lead"), colours=plots.PALETTE[:2])
    r.figure(path, "Points per hand for the first leader and the follower, 95% intervals")

    r.h(3, "Points by number of hearts held")
    by_hearts = grouped(hands, "hearts_held", {"points": ("points", "mean"), "took_qs": ("took_qs", "prop"),
                                               "moon": ("moon", "prop")})
    r.table("points_by_hearts", by_hearts, "Points per hand by the number of hearts dealt (of 7)")
    path = plots.lines(by_hearts, "hearts_held", "points", f"{spec.title}: points per hand by hearts dealt\n"
                       f"({len(hands) // 2:,} hands, heuristic; counts with 10+ hands)", "hearts dealt (cards)",
                       "points per hand (mean)", r.fig_path("points_by_hearts"), count="n", min_count=10)
    r.figure(path, "Points per hand by hearts held, 95% band")


# ---- Two-Ten-Jack ----------------------------------------------------------------------------------

TTJ_SCORING = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5, "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}


def ttj_frame(records: list[list[dict[str, Any]]]) -> pd.DataFrame:
    """Per (round, seat): dealer, scoring cards dealt, where AS was, AS captured, points."""
    rows = []
    for g, game in enumerate(records):
        hands: list[list[str]] = []
        dealer, as_taker = 0, -1
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                hands, dealer, as_taker = e["hands"], int(e["dealer"]), -1
            elif ev == "trick":
                if "AS" in [str(c).split(":")[0] for c in e["cards"]]:
                    as_taker = int(e["winner"])
            elif ev == "hand_end":
                for seat in range(2):
                    mine, theirs = set(hands[seat]), set(hands[1 - seat])
                    row = {"game": g, "seat": seat, "dealer": seat == dealer,
                           "as_dealt": "you" if "AS" in mine else ("opponent" if "AS" in theirs else "stock"),
                           "took_as": as_taker == seat,
                           "value_dealt": sum(v for c, v in TTJ_SCORING.items() if c in mine),
                           "plus5_dealt": sum(c in mine for c in ("2H", "TH", "JH")),
                           "minus5_dealt": sum(c in mine for c in ("2C", "TC", "JC")),
                           "points": float(e["points"][seat])}
                    row.update({f"has_{c}": c in mine for c in TTJ_SCORING})
                    rows.append(row)
    return pd.DataFrame(rows)


def study_two_ten_jack(r: Report, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    r.h(2, "Two-Ten-Jack study")
    rounds = ttj_frame(_play(r, "study", spec.name, s.records))
    r.p(f"Per-round facts from the records of {s.records:,} games of `heuristic` players ({len(rounds) // 2:,} "
        "rounds); the dealer advantage also from a simulation.")

    r.h(3, "Value of the ace of spades")
    dealt = grouped(rounds, "as_dealt", {"points": ("points", "mean"), "took_as": ("took_as", "prop")})
    r.table("as_value_dealt", dealt, "Points per round by where AS was at the deal, and the chance to take it")
    took = grouped(rounds, "took_as", {"points": ("points", "mean")})
    took["took_as"] = took["took_as"].map({True: "took AS", False: "did not take AS"})
    r.table("as_value_taken", took, "Points per round by whether the player took AS in a trick (AS itself is +1)")
    path = plots.bars(dealt, "as_dealt", "points", f"{spec.title}: points per round by who was dealt AS\n"
                      f"({len(rounds) // 2:,} rounds, heuristic)", "AS at the deal", "points per round (mean)",
                      r.fig_path("as_value"), colours=plots.PALETTE[:len(dealt)])
    r.figure(path, "Value of the ace of spades, 95% intervals")

    r.h(3, "Points by scoring cards held")
    rows = []
    for c, v in TTJ_SCORING.items():
        rows.append({"card": c, "card_value": v, **_two_groups(rounds, f"has_{c}", "points", kind="mean")})
    cards = pd.DataFrame(rows)
    r.table("scoring_card_value", cards, "Points per round with and without each scoring card dealt; "
            "`difference` = with - without", show=["card", "card_value", "n_with", "n_without", "with", "without",
                                                   "difference"])
    path = plots.bars(cards, "card", "difference", f"{spec.title}: points per round gained by being dealt each "
                      f"scoring card\n({len(rounds) // 2:,} rounds, heuristic)", "scoring card dealt",
                      "points per round (with - without)", r.fig_path("scoring_card_value"), reference=0.0,
                      reference_label="no effect",
                      colours=[plots.PALETTE[0] if v > 1 else plots.PALETTE[3] if v < 0 else plots.PALETTE[2]
                               for v in cards["card_value"]])
    r.figure(path, "Value of each scoring card dealt, 95% intervals (blue +5, red -5, green +1)")
    rounds["value_bin"] = rounds["value_dealt"].clip(-10, 10)
    by_value = grouped(rounds, "value_bin", {"points": ("points", "mean")})
    r.table("points_by_value_dealt", by_value, "Points per round by the total face score of the scoring cards dealt "
            "(clipped to -10..10)")
    path = plots.lines(by_value, "value_bin", "points", f"{spec.title}: points per round by scoring cards dealt\n"
                       f"({len(rounds) // 2:,} rounds, heuristic; values with 10+ rounds)",
                       "face score of the scoring cards dealt (points)", "points per round (mean)",
                       r.fig_path("points_by_value_dealt"), count="n", min_count=10)
    r.figure(path, "Points per round by the scoring cards in the dealt hand, 95% band")

    r.h(3, "Dealer advantage")
    sm = _simulate(r, "study", spec.name, s.simulate)
    positions = sm.tables.get("positions")
    if positions is not None:
        overall = positions[positions["seat"].astype(str) == "all"] if "seat" in positions else positions
        r.table("dealer_advantage", positions, f"Points per round as dealer and non-dealer ({sm.games:,} games, "
                "heuristic)")
        path = plots.bars(overall, "position", "points_per_round", f"{spec.title}: points per round by position\n"
                          f"({sm.games:,} games, {sm.hands:,} rounds, heuristic)", "position",
                          "points per round (mean)", r.fig_path("dealer_advantage"), colours=plots.PALETTE[:2])
        r.figure(path, "Dealer and non-dealer points per round, 95% intervals")
    if "round_points" in sm.tables:
        r.table("round_points", sm.tables["round_points"], "Distribution of a round's points, dealer and non-dealer")
    by_dealer = grouped(rounds, "dealer", {"points": ("points", "mean")})
    by_dealer["dealer"] = by_dealer["dealer"].map({True: "dealer", False: "non-dealer"})
    r.table("dealer_points_records", by_dealer, "Points per round as dealer and non-dealer (from the records)")


# ---- Pitch --------------------------------------------------------------------------------------------

OFF_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}


def is_trump(card: str, trump: str) -> bool:
    if card in ("HJ", "LJ"):
        return True
    return card[1] == trump or (card[0] == "J" and card[1] == OFF_SUIT[trump])


def pitch_frames(records: list[list[dict[str, Any]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per hand (pitcher's dealt trumps, bid, points taken, give) and per (hand, seat
    relative to the dealer) (team points, pitched)."""
    hands_rows, seat_rows = [], []
    for g, game in enumerate(records):
        dealt: list[list[str]] = []
        dealer, pitcher, bid, trump, give = 0, -1, "", "", ""
        refill: dict[int, list[str]] = {}
        for e in game[1:]:
            ev = e["ev"]
            if ev == "deal":
                dealt, dealer, pitcher, bid, trump, give, refill = e["hands"], int(e["dealer"]), -1, "", "", "", {}
            elif ev == "pitcher":
                pitcher, bid = int(e["seat"]), str(e["bid"])
            elif ev == "decide" and e.get("kind") == "trump":
                trump = str(e["move"])
            elif ev == "decide" and e.get("kind") == "give":
                give = str(e["move"])
            elif ev == "refill":
                refill[int(e["seat"])] = list(e["cards"])
            elif ev == "hand_end" and pitcher >= 0:
                team = pitcher % 2
                taken = [float(x) for x in e.get("taken", [math.nan, math.nan])]
                mine = dealt[pitcher]
                trumps = [c for c in mine if is_trump(c, trump)]
                after = len(trumps) + sum(is_trump(c, trump) for c in refill.get(pitcher, []))
                need = 10 if bid == "moon" else int(bid)
                hands_rows.append({"game": g, "bid": bid, "relative_seat": (pitcher - dealer) % 4,
                                   "trump_length": len(trumps),
                                   "top_trumps": sum(c[0] in "AKQ" and c[1] == trump for c in trumps),
                                   "taken": taken[team], "made": taken[team] >= need, "give": give,
                                   "trumps_after_refill": after, "points": float(e["points"][team])})
                for rel in range(4):
                    seat = (dealer + rel) % 4
                    seat_rows.append({"relative_seat": rel, "pitched": seat == pitcher,
                                      "team_points": float(e["points"][seat % 2])})
    return pd.DataFrame(hands_rows), pd.DataFrame(seat_rows)


def _bid_table(hands: pd.DataFrame, by: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    rows = []
    for key, part in hands.groupby(by, sort=True):
        for b in range(4, 11):
            row = {by: key, "bid": b, "hands": len(part)}
            put(row, "make_chance", prop_ci(part["taken"] >= b))
            rows.append(row)
    long = pd.DataFrame(rows)
    values = long.pivot(index=by, columns="bid", values="make_chance")
    counts = long.pivot(index=by, columns="bid", values="hands")
    return long, values, counts


def study_pitch10(r: Report, spec, rules: dict[str, Any]) -> None:
    s = r.sizes
    r.h(2, "10-Point Pitch study")
    hands, seats = pitch_frames(_play(r, "study", spec.name, s.records))
    r.p(f"From the records of {s.records:,} games of `heuristic` players ({len(hands):,} hands).")

    r.h(3, "Bid tables")
    r.p("The chance that the pitcher's team takes at least *b* points (and so would make a bid of *b*), by the "
        "trumps in the pitcher's nine dealt cards (in the suit it named, jokers and off-jack included) and by "
        "its top trumps (A K Q of trump) dealt. It counts every hand the pitcher played, whatever it bid; the "
        "team's play barely depends on the bid.")
    hands["trump_length_bin"] = hands["trump_length"].clip(lower=2, upper=8)
    long, values, counts = _bid_table(hands, "trump_length_bin")
    long = long.rename(columns={"trump_length_bin": "trump_length"})
    values.index = [f"{i}{'+' if i == 8 else ''}" if i != 2 else "<=2" for i in values.index]
    r.table("bid_table_trump_length", long, "Chance to make each bid by trump length dealt "
            "(2 means 2 or fewer, 8 means 8 or more)", show=["trump_length", "bid", "hands", "make_chance"])
    path = plots.heatmap(values, counts, f"{spec.title}: chance to make a bid by trump length\n"
                         f"({len(hands):,} hands, heuristic)", "bid (points needed)",
                         "trumps in the pitcher's dealt hand", "chance to take at least the bid",
                         r.fig_path("bid_table_trump_length"))
    r.figure(path, "Bid table by trump length; n = hands in the row")
    long, values, counts = _bid_table(hands, "top_trumps")
    r.table("bid_table_top_trumps", long, "Chance to make each bid by the number of A K Q of trump dealt",
            show=["top_trumps", "bid", "hands", "make_chance"])
    path = plots.heatmap(values, counts, f"{spec.title}: chance to make a bid by top trumps held\n"
                         f"({len(hands):,} hands, heuristic)", "bid (points needed)", "A, K, Q of trump dealt",
                         "chance to take at least the bid", r.fig_path("bid_table_top_trumps"))
    r.figure(path, "Bid table by top trumps; n = hands in the row")
    actual = grouped(hands, "bid", {"made": ("made", "prop"), "taken": ("taken", "mean")})
    r.table("bids_made", actual, "Bids actually made by the heuristic and how often they were made")

    r.h(3, "Giving the rest to the partner")
    with_choice = hands[hands["give"] != ""].copy()
    if len(with_choice):
        with_choice["holding"] = np.where(with_choice["trumps_after_refill"] >= 6, "6+ trumps", "under 6 trumps")
        give = grouped(with_choice, ["give", "holding"], {"taken": ("taken", "mean"), "made": ("made", "prop"),
                                                          "points": ("points", "mean")})
        r.table("give_value", give, "Pitcher's team when the pitcher kept or gave the rest of the stock, by the "
                "pitcher's trumps after the refill (an observation: the heuristic gives only with six trumps)")
        give["label"] = give["give"] + ", " + give["holding"]
        path = plots.bars(give, "label", "taken", f"{spec.title}: points taken by the pitcher's team\nwhen keeping "
                          f"or giving the rest ({len(with_choice):,} hands, heuristic)", "pitcher's choice",
                          "points taken by the pitcher's team (of 10)", r.fig_path("give_value"),
                          colours=plots.PALETTE[:len(give)])
        r.figure(path, "Keeping or giving the rest of the stock, 95% intervals")
    if "partner" in spec.strategies["heuristic"].params:
        from analyzer import compare

        r.p("The heuristic's bidding counts on the partner's share (strategy parameter `partner`, tenths of a "
            "point); a duplicate-deal match tells what that assumption is worth:")
        res = r.run("study", "compare.compare", lambda: compare.compare(
            spec.name, ["heuristic:partner=35", "heuristic:partner=15"], games=max(s.tournament // 4, 100),
            seed=r.seed, workers=r.workers), strategies="heuristic:partner=35 heuristic:partner=15",
            deals=max(s.tournament // 4, 100))
        r.table("partner_share_match", res.tables["pairs"], "Bold (35) against cautious (15) partner share",
                show=["strategy", "opponent", "deals", "win_rate", "difference", "p_value"])

    r.h(3, "Points by seat relative to the dealer")
    by_seat = grouped(seats, "relative_seat", {"team_points": ("team_points", "mean"),
                                               "pitch_rate": ("pitched", "prop")})
    by_seat["seat"] = by_seat["relative_seat"].map({0: "dealer", 1: "dealer+1 (bids first)", 2: "dealer+2",
                                                    3: "dealer+3"})
    r.table("points_by_seat", by_seat, "Team score change per hand and chance to be the pitcher, by seat relative "
            "to the dealer", show=["seat", "n", "team_points", "pitch_rate"])
    path = plots.bars(by_seat, "seat", "team_points", f"{spec.title}: team points per hand by seat relative to the "
                      f"dealer\n({len(hands):,} hands, heuristic; partners sit two apart)",
                      "seat relative to the dealer", "team score change per hand (points)",
                      r.fig_path("points_by_seat"), colours=plots.PALETTE[:4])
    r.figure(path, "Points by seat relative to the dealer, 95% intervals")
    sm = _simulate(r, "study", spec.name, s.simulate)
    if "bids" in sm.tables:
        r.table("bids", sm.tables["bids"], f"Bids and make rates over {sm.games:,} simulated games (heuristic)")


STUDIES: dict[str, Callable] = {
    "ninety-nine": study_ninety_nine,
    "twenty-two": study_twenty_two,
    "hearts2": study_hearts2,
    "two-ten-jack": study_two_ten_jack,
    "pitch10": study_pitch10,
}


# ---- the entry point ------------------------------------------------------------------------------

def build_report(game: str, out: str | Path, quick: bool = False, seed: int = 2026,
                 workers: int | None = None) -> Path:
    """Build the strategy report of ``game`` in folder ``out``; returns the Markdown file.

    Writes ``out/report.md``, ``out/report.html`` (self-contained: figures as data URIs),
    ``out/figures/*.png`` and ``out/tables/*.csv``. ``quick`` plays a small version in
    seconds (for tests and previews); the full version takes a few minutes per game.
    Results depend on ``game``, ``quick`` and ``seed`` only, not on ``workers``.
    """
    from analyzer import api
    from analyzer import games as registry

    spec = registry.get(game)
    seed = api.check_seed(seed)
    if spec.name not in STUDIES:
        raise AnalyzerError(f"no report study for {spec.name}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"--out {out} exists and is not a folder")
    from analyzer.runner import set_workers

    set_workers(workers)  # a bad --workers is refused before anything is written
    created = not out.exists()
    try:
        (out / FIGURES).mkdir(parents=True, exist_ok=True)
        (out / TABLES).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AnalyzerError(f"cannot create --out {out}: {exc.strerror}") from None
    try:
        return _build(spec, out, quick, seed, workers)
    except BaseException:
        if created:  # a report that did not finish leaves no half-written folder behind
            import shutil

            shutil.rmtree(out, ignore_errors=True)
        raise


def _build(spec, out: Path, quick: bool, seed: int, workers: int | None) -> Path:
    from analyzer import api

    started_at = datetime.now(timezone.utc)
    started = time.perf_counter()
    r = Report(spec.name, out, quick, seed, workers)
    rules = spec.resolve_rules(None)
    strategies = ["random", "heuristic"]
    if "mc" in spec.strategies:
        strategies.append(f"mc:k={r.sizes.mc_k}")

    body = Report(spec.name, out, quick, seed, workers)
    body.runs = r.runs
    _rules_section(body, spec, rules)
    pairs = _tournament_section(body, spec, strategies)
    conv = _convergence_section(body, spec)
    STUDIES[spec.name](body, spec, rules)
    elapsed = time.perf_counter() - started

    # header and provenance go first but are written last (they know the time taken)
    r.h(1, f"{spec.title} (`{spec.name}`): strategy report{' (quick)' if quick else ''}")
    final = conv.iloc[-1]
    r.p(f"**Headline.** Against `random`, `heuristic` wins **{final['win_rate']:.3f}** of the games "
        f"[{final['win_rate_lo']:.3f}, {final['win_rate_hi']:.3f}] over {int(final['deals']):,} duplicate deals "
        f"(0.5 = equal strength). {_tournament_sentence(pairs)}")
    r.p("Every number has its 95% interval (in brackets, or as error bars and bands in the figures). "
        "Tables are also CSV files in `tables/`, figures PNG files in `figures/`.")
    r.h(2, "How this report was made")
    command = _command(spec.name, out, quick, seed)
    facts = {"game": spec.name, "seed": seed, "quick": quick,
             "workers": workers if workers is not None else "all cores",
             "strategies (tournament)": ", ".join(strategies),
             "started (UTC)": started_at.strftime("%Y-%m-%d %H:%M:%S"),
             "time taken (s)": round(elapsed, 1), **_versions()}
    facts.update({f"size: {k}": v for k, v in asdict(r.sizes).items()})
    r.table("provenance", pd.DataFrame([{"item": k, "value": str(v)} for k, v in facts.items()]),
            "Versions, options and sizes")
    r.p("To reproduce it (the numbers depend on the game, the seed and `--quick` only, not on the number of "
        "workers or the machine):")
    r.code(f"{command}\n# or, from Python:\n"
           f"python -c \"from analyzer.report import build_report; build_report({spec.name!r}, {str(out)!r}, "
           f"quick={quick}, seed={seed})\"")
    runs = pd.DataFrame(r.runs)
    r.table("runs", runs, "Every simulation behind this report, in order (all with the same seed)")
    r.blocks = r.blocks + body.blocks
    r.figures, r.tables = body.figures, {**body.tables, **r.tables}

    # files of an earlier report in the same folder that this one did not write
    keep = {p.resolve() for p in [*r.figures, *r.tables.values()]}
    for stale in [*(out / FIGURES).glob("*.png"), *(out / TABLES).glob("*.csv")]:
        if stale.resolve() not in keep:
            stale.unlink()
    md_path = out / MARKDOWN
    md_path.write_text(render_markdown(r.blocks), encoding="utf-8")
    (out / HTML).write_text(render_html(r.blocks, out, f"{spec.title} strategy report"), encoding="utf-8")
    return md_path


def _tournament_sentence(pairs: pd.DataFrame) -> str:
    parts = []
    for _, row in pairs.iterrows():
        parts.append(f"`{row['strategy']}` vs `{row['opponent']}`: {row['win_rate']:.3f} "
                     f"[{row['win_rate_lo']:.3f}, {row['win_rate_hi']:.3f}] over {int(row['deals']):,} deals")
    return "Tournament shares of wins: " + "; ".join(parts) + "."
