"""Evaluation against its yardstick (issue "Kernels at the limit", item 3), one core.

An evaluation's sample plays the rest of the game once per option from a position; at a
game's first decision with a choice that is nearly a whole game, so its yardstick is
``simulate``'s games per second with the same strategy (heuristic everywhere). The ratio
``playouts/s / games/s`` is what the evaluation keeps of the engine's speed (sampling the
hidden cards, setting up the position and the per-option bookkeeping are its costs). The
kernel columns time the evaluation kernel alone (``kernel_rate``: one round of every option
on the same samples, without the command's racing rounds and extra tables).

    python scripts/bench_eval.py                       # every game
    python scripts/bench_eval.py --game hearts2 --samples 4000

Rates come from two run sizes (the difference in playouts over the difference in time), so
the fixed cost of a call cancels. The options race to a P(best) of 0.999999 (``CONFIDENCE``),
so that a call plays its budget but for the options it drops; the table says how many
playouts were timed. CPU time of this
process on one worker; nothing here is asserted in tests. ``mc``'s speed is
in bench_search.py (decisions per second).
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402

from analyzer import api  # noqa: E402
from analyzer import games as registry  # noqa: E402
from analyzer.records import to_jsonl  # noqa: E402


@dataclass(frozen=True)
class EvalSpeed:
    game: str
    at: int              # the decision evaluated (1 = first), the first with a choice
    options: int         # option rows (equivalent cards merged)
    playouts: int        # samples summed over the options, less those of the SMALL run
    eval_cpu: float      # s, less the SMALL run's
    games: int           # simulate's games (the yardstick), less those of a tenth-size run
    sim_cpu: float       # s, less the tenth-size run's
    kernel_rate: float   # playouts/s of the evaluation kernel alone (``kernel_rate``)
    whole: bool = False  # the command's rate is the whole call's (its fixed costs included)

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.eval_cpu

    @property
    def games_per_second(self) -> float:
        return self.games / self.sim_cpu

    @property
    def ratio(self) -> float:
        return self.playouts_per_second / self.games_per_second

    @property
    def kernel_ratio(self) -> float:
        return self.kernel_rate / self.games_per_second


#: the samples of the smaller evaluation whose time is subtracted (with its playouts)
SMALL = 200
#: the P(best) at which the evaluation stops racing: so high that it plays its budget. At the
#: default 0.95 the best option can separate at the first look (Ninety-Nine's did, after 256
#: samples, 2026-12-05), and a call of a few hundred playouts times its set-up, not its speed.
CONFIDENCE = 0.999999
#: CPU seconds the two evaluations must differ by for their difference to be read as a rate
MIN_DIFFERENCE = 0.5


def first_choice(events: list[dict]) -> int:
    """The number (1 = first) of the record's first decision with more than one legal move."""
    decisions = [e for e in events if e["ev"] == "decide"]
    return next(i for i, e in enumerate(decisions, start=1) if len(e["legal"]) > 1)


def cpu(call) -> tuple[float, object]:
    started = time.process_time()
    result = call()
    return time.process_time() - started, result


def kernel_rate(game: str, events: list[dict], at: int, samples: int, seed: int = 1) -> float:
    """Playouts per second of the evaluation kernel alone at decision ``at`` of ``events``:
    every option on the same samples, as one round of ``evaluate`` plays them (``Evaluation.run``,
    one worker), without the command's rounds, racing and extra tables (Pitch's bid table);
    two run sizes, as ``measure``."""
    import numpy as np

    from analyzer.runner import set_workers
    from analyzer.strategies import resolve_seats, strategy_array

    spec = registry.get(game)
    head = events[0]
    players = int(head.get("players", spec.default_players))
    rules = spec.resolve_rules({k: v for k, v in head["rules"].items() if k != "players"}, players)
    strat, _ = strategy_array(spec, resolve_seats(spec, players, None))
    ev = spec.evaluation(rules, spec.position_from_record(events, at), strat)
    codes = np.array(ev.options, dtype=np.int64)
    threads = set_workers(1)
    ev.run(seed, 0, codes, 20, threads)  # compile or load
    small, _ = cpu(lambda: ev.run(seed, 0, codes, samples // 10, threads))
    large, _ = cpu(lambda: ev.run(seed, 0, codes, samples, threads))
    return (samples - samples // 10) * len(codes) / (large - small)


def measure(game: str, samples: int, games: int, seed: int = 1) -> EvalSpeed:
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.jsonl"
        events = api.play(game, seed=seed, games=1)[0]
        record.write_text(to_jsonl([events]), encoding="utf-8")
        at = first_choice(events)
        run = lambda n: api.evaluate(game, record=str(record), game_index=0, at=at, samples=n,  # noqa: E731
                                     exact_limit=0, workers=1, seed=seed, confidence=CONFIDENCE)
        run(20)  # compile or load the kernels, untimed
        small_spent, small = cpu(lambda: run(SMALL))
        spent, result = cpu(lambda: run(samples))
    api.simulate(game, games=10, seed=seed + 1, workers=1)
    sim_small, _ = cpu(lambda: api.simulate(game, games=games // 10, seed=seed, workers=1))
    sim_spent, _ = cpu(lambda: api.simulate(game, games=games, seed=seed, workers=1))
    # rates from two run sizes, so that the fixed cost of a call (position, set-up) cancels;
    # an evaluation whose options separate early (racing) plays too few playouts for that
    # difference to rise above the noise: then the whole call's rate, fixed costs included
    playouts = int(result.table["samples"].sum()) - int(small.table["samples"].sum())
    whole = spent - small_spent < MIN_DIFFERENCE
    if whole:
        playouts, spent, small_spent = int(result.table["samples"].sum()), spent, 0.0
    return EvalSpeed(game, at, len(result.table), playouts, spent - small_spent, games - games // 10,
                     sim_spent - sim_small, kernel_rate(game, events, at, samples, seed), whole)


def table(rows: list[EvalSpeed]) -> str:
    head = ("| game | decision | options | playouts | playouts/s | simulate games/s | ratio | kernel playouts/s "
            "| kernel ratio |\n|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {r.game} | {r.at} | {r.options} | {r.playouts:,} | {r.playouts_per_second:,.0f}"
                   f"{' *' if r.whole else ''} | {r.games_per_second:,.0f} | {r.ratio:.2f}x | "
                   f"{r.kernel_rate:,.0f} | {r.kernel_ratio:.2f}x |\n" for r in rows)
    note = ("\n\\* the two run sizes took less than 0.5 s of CPU apart (few playouts, or options dropped "
            "early): the whole call's rate, its fixed costs included.\n" if any(r.whole for r in rows) else "")
    return head + body + note


def main() -> None:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", type=script_cli.game, help="only this game (repeatable)")
    parser.add_argument("--samples", type=script_cli.positive, default=20_000, help="evaluate's sample budget")
    parser.add_argument("--games", type=script_cli.positive, default=20_000, help="simulate's games (the yardstick)")
    args = parser.parse_args()
    print(table([measure(g, args.samples, args.games) for g in args.game or registry.names()]))


if __name__ == "__main__":
    script_cli.run(main)
