"""Build 10-Point Pitch's match-equity table (``analyzer/games/pitch10/met.py``).

The table MET[t, d0 - 1, d1 - 1] is team 0's chance to win the game when team 0 needs d0 more
points and team 1 needs d1 (distances to the target, 1..MET_DIST) and the next hand is dealt
by a seat of team t. ``ismcts:hands=0`` values the end of its searched hand by it
(kernel.met_value).

How it is made, deterministically from ``--seed``:

1. Play ``--games`` games with ``--seats`` at every seat (default: 3,000 games of ``mc:k=16``)
   and record every hand's outcome relative to its dealer: whether the dealer's team pitched,
   the winning bid and the points each team took (``api.play``: the game's own engine and
   records). The chain takes a hand's outcome to be independent of the scores: exact for the
   heuristic, which ignores them; ``mc`` reads them only where a moon decides the game (worth
   +-target to it), so for it this is an approximation.
2. Score each outcome from every pair of scores by the engine's own rules
   (``rules.score_from``, which runs ``rules.score_round`` and ``rules.game_winner``; the
   rules are in docs/rules.md section 5) for the default rules (target MET_TARGET = 52, a made
   bid scores the bid). This script restates none of them.
3. Solve the Markov chain over (d0, d1, dealer's team) by value iteration (Jacobi sweeps until
   no value moves by 1e-12). Scores can fall, so distances beyond the table occur: the chain
   is solved on distances 1..SOLVE_DIST (a score further below is held at that distance, a
   state reached in a vanishing share of games) and the first MET_DIST are kept.

Run ``python scripts/pitch10_met.py`` (defaults: the committed table) to rebuild the module;
``--check`` rebuilds it in memory and fails if it differs from the committed one. Either
takes minutes (the games are ``mc``'s); ``--out`` writes the table elsewhere (the module is
written whole or not at all: a new table recompiles Pitch's kernels).

    python scripts/pitch10_met.py --check                 # exit status 0: reproduced, 1: differs
    python scripts/pitch10_met.py --seats heuristic --games 10000 --out /tmp/met.py Why ``mc:k=16``
and not the heuristic (``--seats heuristic --games 10000``): the heuristic never bids the moon
and bids 5 or 6 in 90% of its hands, so its table holds a lead safer than it is against
stronger players (at 20 to 0: 0.84 for the leader, 0.73 with ``mc:k=16``'s hands); in
head-to-head games against ``ismcts``'s default the table from ``mc:k=16`` did better (0.489
of the wins over 800 deals against 0.454; docs/pitch10.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import script_cli  # noqa: E402

from analyzer.games.pitch10.codes import ALL_POINTS, MOON  # noqa: E402  (codes.py compiles nothing)

#: distances (points still needed) the table keeps, and the larger range the chain is solved on
MET_DIST = 100
SOLVE_DIST = 160
#: the rules the table is solved for (the game's defaults: a made bid scores the bid)
MET_TARGET = 52
SCORES_TAKEN = False
#: the table's values are written as integers in these units
SCALE = 10_000
OUT = Path(__file__).resolve().parent.parent / "analyzer" / "games" / "pitch10" / "met.py"


def hand_outcomes(games: int, seed: int, seats: list[str]) -> np.ndarray:
    """counts[r, bid - 4, taken by the pitcher's team, taken by the other team] over the hands of
    ``games`` recorded games: r = 1 when the dealer's team pitched."""
    from analyzer import api

    counts = np.zeros((2, MOON - 3, ALL_POINTS + 1, ALL_POINTS + 1), dtype=np.int64)
    step = 500
    for start in range(0, games, step):
        for events in api.play("pitch10", seed=seed, index=start, games=min(step, games - start), seats=seats):
            dealer = None
            for ev in events:
                if ev["ev"] == "deal":
                    dealer = ev["dealer"]
                elif ev["ev"] == "hand_end":
                    bid = MOON if ev["bid"] == "moon" else int(ev["bid"])
                    p = ev["pitcher"] & 1
                    r = int(p == (dealer & 1))
                    counts[r, bid - 4, ev["taken"][p], ev["taken"][1 - p]] += 1
    return counts


def transitions(counts: np.ndarray) -> list[tuple[int, float, int, int, int]]:
    """The hands' outcomes as (r, probability, bid, points taken by the pitcher's team, by the
    other team): r = 1 when the dealer's team pitched. Whichever team deals, the outcome
    relative to it is drawn from the same distribution."""
    total = counts.sum()
    return [(int(r), int(counts[r, b, tp, to]) / total, int(b) + 4, int(tp), int(to))
            for r, b, tp, to in zip(*np.nonzero(counts))]


def _scored(bid: int, taken_pitch: int, taken_other: int, score_pitch: np.ndarray, score_other: np.ndarray,
            target: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scores of (the pitcher's team, the other team) after a hand with this outcome, from
    each of the given scores, and the winner (-1 none, 0 the pitcher's team, 1 the other): the
    engine's scoring (``rules.score_from``), for the rules the table is made for."""
    from analyzer.games.pitch10.rules import score_from

    shape = score_pitch.shape
    sp, so = score_pitch.ravel().astype(np.int64), score_other.ravel().astype(np.int64)
    new_p, new_o, winner = np.empty_like(sp), np.empty_like(sp), np.empty_like(sp)
    score_from(np.int64(bid), np.int64(taken_pitch), np.int64(taken_other), SCORES_TAKEN, np.int64(target),
               sp, so, new_p, new_o, winner)
    return new_p.reshape(shape), new_o.reshape(shape), winner.reshape(shape)


def solve(trans, target: int = MET_TARGET, size: int = SOLVE_DIST, tol: float = 1e-12) -> np.ndarray:
    """V[t, d0 - 1, d1 - 1]: team 0's chance to win, the next hand dealt by team t. Each hand's
    outcome is scored from every state by the engine (``_scored``); outcomes that move every
    state alike (e.g. a made bid of 5 with 6 or 7 points taken) are merged."""
    d = np.arange(1, size + 1)
    D0, D1 = np.meshgrid(d, d, indexing="ij")  # distances of team 0, team 1
    plans: dict[bytes, list] = {}  # per (dealing team t, the states' successors): the plan
    for t in (0, 1):
        for r, q, bid, taken_pitch, taken_other in trans:
            p = t if r else 1 - t  # the pitcher's team
            dpit, doth = (D0, D1) if p == 0 else (D1, D0)
            new_p, new_o, winner = _scored(bid, taken_pitch, taken_other, target - dpit, target - doth, target)
            n0, n1 = (target - new_p, target - new_o) if p == 0 else (target - new_o, target - new_p)
            go = winner < 0
            won = np.where(winner == 0, float(p == 0), float(p == 1))  # team 0 wins
            n0 = np.clip(n0, 1, size) - 1
            n1 = np.clip(n1, 1, size) - 1
            fixed = np.where(go, 0.0, won)
            key = bytes([t]) + n0.tobytes() + n1.tobytes() + fixed.tobytes() + go.tobytes()
            if key in plans:
                plans[key][1] += q
            else:
                plans[key] = [t, q, n0, n1, fixed, go]
    v = np.full((2, size, size), 0.5)
    for sweep in range(100_000):
        new = np.zeros_like(v)
        for t, q, n0, n1, fixed, go in plans.values():
            new[t] += q * np.where(go, v[1 - t][n0, n1], fixed)
        change = float(np.abs(new - v).max())
        v = new
        if change < tol:
            return v
    raise RuntimeError("value iteration did not converge")


def render(met: np.ndarray, seed: int, games: int, hands: int, seats: list[str]) -> str:
    rows = (met[:, :MET_DIST, :MET_DIST] * SCALE).round().astype(np.int64)
    body = []
    for t in range(2):
        for i in range(MET_DIST):
            body.append("    " + ",".join(str(x) for x in rows[t, i]) + ",")
    seats_text = f"``{seats[0]}`` at every seat"
    return f'''"""10-Point Pitch's match-equity table, written by scripts/pitch10_met.py: do not edit, run
``python scripts/pitch10_met.py --seats {seats[0]} --seed {seed} --games {games}`` (``--check`` compares).

``MET[t, d0 - 1, d1 - 1]`` is team 0's chance to win the game when team 0 needs ``d0`` more points
to reach the target and team 1 ``d1`` (1..MET_DIST), the next hand dealt by a seat of team ``t``:
a Markov chain over the hands, each hand's outcome (who pitched relative to the dealer, the bid,
the points each team took) drawn from the {hands:,} hands of {games:,} recorded games of
{seats_text} (seed {seed}), scored by the rules for target MET_TARGET with a
made bid scoring the bid, solved by value iteration. ``kernel.met_value`` (the ``ismcts`` value
``hands=0``) reads it; numba freezes it into the compiled code, and analyzer.jit keys the game's
cache on this file (every file of the package but spec.py and study.py): a new table recompiles.
"""

import numpy as np

MET_TARGET = {MET_TARGET}
MET_DIST = {MET_DIST}
MET_SEATS = {seats[0]!r}
MET_SEED = {seed}
MET_GAMES = {games}
MET_HANDS = {hands}

_ROWS = [
{chr(10).join(body)}
]

MET = np.array(_ROWS, dtype=np.float64).reshape(2, MET_DIST, MET_DIST) / {SCALE}
'''


def build(seed: int, games: int, seats: list[str]) -> tuple[str, np.ndarray, np.ndarray]:
    counts = hand_outcomes(games, seed, seats)
    met = solve(transitions(counts))
    return render(met, seed, games, int(counts.sum()), seats), met, counts


def main() -> int:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--seed", type=script_cli.at_least_zero, default=2026, help="default 2026")
    parser.add_argument("--games", type=script_cli.positive, default=3000,
                        help="recorded games whose hands are counted (default 3000)")
    parser.add_argument("--seats", default="mc:k=16", help="the strategy of every seat (default mc:k=16)")
    parser.add_argument("--check", action="store_true", help="fail if the committed table differs")
    parser.add_argument("--out", default=str(OUT), help="the module to write (default: the committed one)")
    args = parser.parse_args()
    out = Path(args.out)
    if args.check and not out.is_file():
        script_cli.fail(f"--out {out}: no such file to check")
    if not args.check and not out.parent.is_dir():
        script_cli.fail(f"--out {out}: no folder {out.parent}")
    seats = [args.seats] * 4  # one strategy at every seat: the chain treats the teams alike
    from analyzer.strategies import parse_strategy
    from analyzer import games as registry

    parse_strategy(registry.get("pitch10"), args.seats)  # a bad --seats refused before the games
    text, met, counts = build(args.seed, args.games, seats)
    if args.check:
        same = out.read_text() == text
        print("the committed table is reproduced" if same else "the committed table differs")
        return 0 if same else 1
    script_cli.write_atomic(out, text)
    print(f"{counts.sum():,} hands; team 0's chance at the start (52, 52): team 0 deals "
          f"{met[0, 51, 51]:.4f}, team 1 deals {met[1, 51, 51]:.4f}; written {args.out}")


if __name__ == "__main__":
    script_cli.run(main)
