"""Game records: the traced engine -> docs/record.md events -> JSON Lines and readable text."""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from analyzer.errors import StrategyError
from analyzer.games.base import GameSpec
from analyzer.runner import call_interruptibly
from analyzer.slots import NAMED_LEGAL  # legal moves an error names (a Twenty-Two discard may have hundreds)
from analyzer.trace import new_trace, refused_legal


def trace_game(spec: GameSpec, run_traced: Callable, seed: int, index: int, params: np.ndarray,
               strat: np.ndarray, ncols: int, timeout: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run one game with the trace on; grows the buffer and replays on overflow.

    Replaying is exact because the game draws only from its own (seed, index) streams.
    Returns (trace rows, out row, err row). ``timeout``: seconds a game may take.
    """
    size = spec.trace_rows
    while True:
        trace = new_trace(size)
        out = np.zeros(ncols, dtype=np.int64)
        err = np.full(4, -1, dtype=np.int64)
        call_interruptibly(run_traced, np.uint64(seed), np.int64(index), params, strat, out, err, trace,
                           timeout=timeout, what=f"game {index}")
        if not trace[0, 1]:
            return trace[1 : trace[0, 0]], out, err
        size *= 4


def game_event(spec: GameSpec, rules: dict[str, Any], seed: int, index: int, labels: list[str]) -> dict[str, Any]:
    return {"ev": "game", "game": spec.name, "players": spec.players(rules), "seed": seed, "index": index,
            "rules": dict(rules), "strategies": list(labels)}


def record_game(spec: GameSpec, run_traced: Callable, rules: dict[str, Any], seed: int, index: int,
                params: np.ndarray, strat: np.ndarray, labels: list[str],
                timeout: float | None = None) -> list[dict[str, Any]]:
    rows, _, err = trace_game(spec, run_traced, seed, index, params, strat, len(spec.columns(rules)), timeout)
    if err[0] >= 0:
        raise StrategyError(illegal_move_message(spec, labels, index, err, refused_legal(rows)))
    return [game_event(spec, rules, seed, index, labels), *spec.decode(rows, rules)]


def illegal_move_message(spec: GameSpec, labels: list[str], index: int, err: np.ndarray,
                         legal: list[int] | None) -> str:
    """The one-line error of game ``index``, stopped by a user strategy's illegal move
    (``err``: decision, seat, move): who, what, where, and the decision's ``legal`` moves
    (codes; the first NAMED_LEGAL of them)."""
    decision, seat, move = int(err[0]), int(err[1]), int(err[2])
    text = (f"strategy {labels[seat]} (seat {seat}) returned an illegal move {spec.move_name(move)!r} "
            f"in game {index}, decision {decision}")
    return text + legal_moves_named(spec, legal, len(legal or ()))


def legal_moves_named(spec: GameSpec, legal: list[int] | None, n: int) -> str:
    """``; legal: A B C`` for an error: the names of ``legal`` (codes, the first NAMED_LEGAL
    of the decision's ``n``), and how many more there are; empty without them."""
    if not legal:
        return ""
    names = " ".join(spec.move_name(code) for code in legal[:NAMED_LEGAL])
    more = f" and {n - NAMED_LEGAL} more" if n > NAMED_LEGAL else ""
    return f"; legal: {names}{more}"


def replayed_illegal_move(spec: GameSpec, run_traced: Callable, rules: dict[str, Any], params: np.ndarray,
                          strat: np.ndarray, labels: list[str], seed: int, index: int, err: np.ndarray) -> str:
    """The illegal-move message of game ``index`` of run ``seed`` played by these seats
    (``labels``), its legal moves read from the game played again with the trace on (the
    same game: it draws only from its own streams)."""
    rows, _, _ = trace_game(spec, run_traced, seed, index, params, strat, len(spec.columns(rules)))
    return illegal_move_message(spec, labels, index, err, refused_legal(rows))


def to_jsonl(games: list[list[dict[str, Any]]]) -> str:
    return "".join(json.dumps(ev, separators=(",", ":")) + "\n" for events in games for ev in events)


def to_text(spec: GameSpec, events: list[dict[str, Any]]) -> str:
    head = events[0]
    lines = [f"{spec.title}: game {head['index']} of seed {head['seed']}, "
             f"{head['players']} players, strategies {', '.join(head['strategies'])}"]
    for ev in events[1:]:
        line = spec.describe(ev)
        if line is not None:
            lines.append(line)
    return "\n".join(lines)
