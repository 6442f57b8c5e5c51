"""Fingerprint the games of the built-in ``random`` and ``heuristic`` strategies.

Every refactor must keep these games bit-identical: run this before and after and diff
the output. Per game, player count and rule variant it hashes the per-game rows of a
simulate run and the records of a few played games (sha256, first 16 hex digits).

    python scripts/fingerprint.py > before.txt
    ... change ...
    python scripts/fingerprint.py > after.txt && diff before.txt after.txt
    python scripts/fingerprint.py --game hearts2 --games 2000   # one game, smaller runs

One line per case (``GAME p=PLAYERS {RULES} SEAT0/SEAT1: rows HASH records HASH``), 32 cases
for the five games; under a minute on a warm cache (the defaults: 20,000 games and 5 records
per case). Hashes depend on --games and --records, so compare runs with the same options.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import script_cli  # noqa: E402

from analyzer import api  # noqa: E402
from analyzer import games as registry  # noqa: E402
from analyzer.runner import run_games  # noqa: E402
from analyzer.stats import Accumulator  # noqa: E402

STRATEGIES = ["random", "heuristic"]


def _variants(spec) -> list[dict]:
    """Default rules, each boolean option flipped, and every player count at its extremes."""
    out = [{}]
    for opt in spec.options:
        if opt.kind is bool:
            out.append({opt.name: not opt.default_for(spec.default_players)})
    return out


def _player_counts(spec) -> list[int]:
    return sorted({spec.min_players, spec.default_players, spec.max_players})


def rows_hash(game: str, players: int, seats: list[str], rules: dict, games: int) -> str:
    s = api.setup(game, players, seats, rules)
    rows: list[np.ndarray] = []
    acc = Accumulator(s.spec.columns(s.rules), s.spec.players(s.rules), s.spec.ratio_pairs(s.rules))
    run_games(s.run_chunk, 7, games, s.params, s.strat, acc, on_rows=lambda start, r: rows.append(r.copy()),
              describe_error=s.describe_error, label=game)
    return hashlib.sha256(np.concatenate(rows).tobytes()).hexdigest()[:16]


def records_hash(game: str, players: int, seats: list[str], rules: dict, games: int) -> str:
    recs = api.play(game, seed=3, index=0, games=games, players=players, seats=seats, rules=rules)
    text = "\n".join(json.dumps(ev, sort_keys=True) for rec in recs for ev in rec)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> None:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--games", type=script_cli.positive, default=20_000,
                        help="simulated games per case (default 20,000)")
    parser.add_argument("--records", type=script_cli.positive, default=5, help="recorded games per case (default 5)")
    parser.add_argument("--game", action="append", type=script_cli.game, help="only this game (repeatable)")
    args = parser.parse_args()
    for game in args.game or registry.names():
        spec = registry.get(game)
        for players in _player_counts(spec):
            for rules in _variants(spec):
                for strategy in STRATEGIES:
                    # the strategy in seat 0, the other built-in elsewhere: both kinds meet
                    other = STRATEGIES[1 - STRATEGIES.index(strategy)]
                    seats = [strategy] + [other] * (players - 1)
                    label = f"{game} p={players} {json.dumps(rules, sort_keys=True)} {'/'.join(seats[:2])}"
                    rh = rows_hash(game, players, seats, rules, args.games)
                    ch = records_hash(game, players, seats, rules, args.records)
                    print(f"{label}: rows {rh} records {ch}", flush=True)


if __name__ == "__main__":
    script_cli.run(main)
