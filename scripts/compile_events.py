#!/usr/bin/env python3
"""Where a game's compile time goes: numba's compile events during its warm-up.

Warms one game as ``make warm`` does (scripts/warm.py, in this process, into an empty cache
folder of its own), records numba's compile events and prints the busiest functions by
their own compile time (their callees' compiles taken out) and every function compiled for
more than one signature, with the arguments whose types differ. Two signatures that differ
only by a literal (``Literal[int](0)`` against ``int64``) are a compile that a typed value
(``np.int64(0)``) saves; ``Tuple()`` against ``UniTuple(bool, 1)`` is a game's base and
search tiers, ``Literal[bool]`` a traced and an untraced run, both intended.

    python scripts/compile_events.py ninety-nine
    python scripts/compile_events.py hearts2 --top 30

Compiles everything the warm-up does (a minute or two of CPU per game); nothing here is
asserted in tests.
"""

from __future__ import annotations

import collections
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402


def split_arguments(text: str) -> list[str]:
    """The top-level items of a signature's text, ``(a, b(c, d), e)`` -> ``[a, b(c, d), e]``."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    items, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    return items


def record(game: str) -> tuple[float, list[tuple[str, str, str, float]]]:
    """CPU seconds of the warm-up and its compile events: (start or end, function, signature, time)."""
    import analyzer.jit  # noqa: F401  (numba's set-up before any kernel)
    from numba.core import event

    import warm

    events: list[tuple[str, str, str, float]] = []

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            events.append(("start", ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"]),
                           time.perf_counter()))

        def on_end(self, ev) -> None:
            events.append(("end", ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"]),
                           time.perf_counter()))

    event.register("numba:compile", Listener())
    started = time.process_time()
    warm.warm_game(game)
    return time.process_time() - started, events


def own_times(events) -> tuple[collections.Counter, collections.Counter]:
    """Each function's compile seconds less its callees' compiles, and how often it compiled."""
    stack: list[list] = []
    own: collections.Counter = collections.Counter()
    count: collections.Counter = collections.Counter()
    for kind, name, _, at in events:
        if kind == "start":
            stack.append([name, at, 0.0])
            continue
        name, began, inner = stack.pop()
        spent = at - began
        own[name] += spent - inner
        count[name] += 1
        if stack:
            stack[-1][2] += spent
    return own, count


def differing(events) -> dict[str, list[tuple[int, str, str]]]:
    """Functions compiled for more than one signature: (argument index, first type, other type)."""
    signatures: dict[str, list[list[str]]] = collections.defaultdict(list)
    for kind, name, args, _ in events:
        if kind == "start":
            signatures[name].append(split_arguments(args))
    out = {}
    for name, sigs in signatures.items():
        if len(sigs) > 1:
            diffs = {(i, a[:50], b[:50]) for other in sigs[1:] for i, (a, b) in enumerate(zip(sigs[0], other))
                     if a != b}
            out[name] = sorted(diffs)
    return out


def main() -> int:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("game", type=script_cli.game, help="the game to warm into an empty cache")
    parser.add_argument("--top", type=script_cli.positive, default=15, help="functions listed by their own compile time")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "scripts"))
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # read by analyzer.jit when it first loads
        cpu, events = record(args.game)
    own, count = own_times(events)
    print(f"{args.game}: warm-up {cpu:.1f} CPU-s, {sum(count.values())} compiles\n")
    print("own compile s  times  function")
    for name, spent in own.most_common(args.top):
        print(f"{spent:13.2f}  {count[name]:5d}  {name}")
    print("\ncompiled more than once (argument index: one type / another):")
    for name, diffs in sorted(differing(events).items(), key=lambda item: -own[item[0]]):
        shown = "; ".join(f"{i}: {a} / {b}" for i, a, b in diffs[:4])
        print(f"  {name} x{count[name]} ({own[name]:.2f} s): {shown}")
    return 0


if __name__ == "__main__":
    script_cli.run(main)
