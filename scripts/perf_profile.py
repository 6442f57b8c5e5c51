#!/usr/bin/env python3
"""Where a game's compiled code spends its time: a perf profile of random and heuristic play.

    python scripts/perf_profile.py                          # every game, random and heuristic
    python scripts/perf_profile.py --game hearts2 --games 2000000
    python scripts/perf_profile.py --top 6                  # the six biggest functions per run
    python scripts/perf_profile.py --game hearts2 --strategy random \
        --strategy tests/data/user_random.py:uniform        # the price of a user strategy
    python scripts/perf_profile.py --game pitch10 --strategy random --lines 30   # by source line

Needs Linux ``perf`` (only for this script; the product never does). Each game runs in a child
process under ``perf record``: it compiles the game's kernels into a fresh cache folder (perf
can name only functions this process compiled: numba's cache keeps no symbol table), writes
their addresses to ``/tmp/perf-PID.map`` (perf's map for JIT code), then plays ``--games``
games of every seat ``random`` and as many of ``heuristic`` on one core, telling perf to start
a new file before each (``--switch-output=signal``). Each table gives the share of samples in
the compiled code per numba function. A function inlined into its caller (``inline="always"``,
or by LLVM) counts as its caller: the rows are the separately compiled levels (the hand loop,
the deal, the game driver, ...), not every helper.

``--lines N`` also gives the N busiest source lines: the kernels are compiled with numba's
debug info (``NUMBA_DEBUGINFO=1``), each library's object file is kept, and each sample's
address is looked up in its line table (``addr2line``). Code that numba inlined
(``inline="always"``) is counted either on the line of its call or on its own line number
but under the caller's file name (numba's debug info gives the inlined statements their
lines, not their file): Ninety-Nine's ``kernel.py:112`` is ``rules.py``'s line 112 in
``slot_of_rank``. A line that reads as a comment is such a line. The debug info changes
LLVM's inlining a little, so the function shares of such a run differ from the plain one's
(e.g. Pitch's ``take_card`` stays a function of its own): read its lines, not its shares.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import gc
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402

GAMES = ["hearts2", "ninety-nine", "two-ten-jack", "twenty-two", "pitch10"]
STRATEGIES = ["random", "heuristic"]


def elf_symbols(elf: bytes) -> dict[str, tuple[int, int]]:
    """(offset in its section, size) of every function symbol of an ELF64 object file."""
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    sizes = {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for k in range(size // entsize):
            name, info, _, _, value, st_size = struct.unpack_from("<IBBHQQ", elf, offset + k * entsize)
            if info & 0xF == 2 and st_size:  # STT_FUNC
                end = elf.index(b"\0", strings + name)
                sizes[elf[strings + name:end].decode()] = (value, st_size)
    return sizes


def write_perf_map(objects: Path | None = None) -> int:
    """Write /tmp/perf-PID.map: the address and size of every function numba compiled in this
    process. A name resolves to one address; the copies of a callee that numba links into each
    caller's code have none, and perf counts them as unnamed ("[JIT] ..." rows without a name),
    so each size is the function's own (from its object file's symbol table), not the distance
    to the next name. With ``objects`` (a folder), each library's object file is written there
    too, and ``functions.json`` says where each named function lies in which file (``--lines``).
    Returns how many functions."""
    from numba.core.registry import CPUDispatcher

    names: dict[int, str] = {}
    sizes: dict[str, int] = {}
    where: dict[str, tuple[str, int, int]] = {}  # name: (object file, offset there, address)
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for result in obj.overloads.values():
            library = result.library
            module = getattr(library, "_final_module", None)
            if module is None:  # loaded from a cache: no module, no names
                continue
            symbols = {}
            if getattr(library, "_compiled_object", None):
                symbols = elf_symbols(library._compiled_object)
                sizes.update({name: size for name, (_, size) in symbols.items()})
                if objects is not None:
                    path = objects / f"{len(list(objects.glob('*.o')))}.o"
                    path.write_bytes(library._compiled_object)
            for function in module.functions:
                if not function.is_declaration:
                    address = library._codegen._engine.get_function_address(function.name)
                    if address:
                        names[address] = function.name
                        if objects is not None and function.name in symbols:
                            where[function.name] = (str(path), symbols[function.name][0], address)
    if objects is not None:
        (objects / "functions.json").write_text(json.dumps(where))
    starts = sorted(names)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for start, end in zip(starts, starts[1:] + [starts[-1] + 4096]):
            size = min(sizes.get(names[start], end - start), end - start)
            out.write(f"{start:x} {size:x} {names[start]}\n")
    return len(starts)


def child(game: str, games: int, strategies: list[str]) -> None:
    """Under perf: compile, map, then each strategy in its own perf output file."""
    from analyzer import api

    players = api.setup(game).spec.default_players
    for strategy in strategies:
        api.simulate(game, games=10, seats=[strategy] * players, workers=1)
    write_perf_map(Path(os.environ["PROFILE_OBJECTS"]) if os.environ.get("PROFILE_OBJECTS") else None)
    for strategy in strategies:
        os.kill(os.getppid(), signal.SIGUSR2)  # perf: start the next file
        time.sleep(0.5)
        api.simulate(game, games=games, seats=[strategy] * players, workers=1)
    os.kill(os.getppid(), signal.SIGUSR2)
    time.sleep(0.5)


def readable(symbol: str) -> str:
    """``_ZN8analyzer5games7hearts26kernel9play_handB4v143B40...`` -> ``kernel.play_hand``."""
    if "__numba_parfor_gufunc" in symbol:
        return "parfor (a prange loop's body)"
    if not symbol.startswith("_ZN"):
        return symbol
    names, rest = [], symbol[3:]
    while rest and rest[0].isdigit():
        length = int(re.match(r"\d+", rest).group())
        rest = rest[len(str(length)):]
        names.append(rest[:length])
        rest = rest[length:]
    names = [n for n in names if n not in ("analyzer", "games")]
    return ".".join(names[-2:]) if names else symbol


def shares(perf_file: Path) -> list[tuple[float, str]]:
    """(percent of the compiled code's samples, function) from one perf output file."""
    report = subprocess.run(["perf", "report", "-i", str(perf_file), "--no-children", "--sort", "dso,symbol",
                             "--stdio"], capture_output=True, text=True).stdout
    totals: collections.Counter[str] = collections.Counter()
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+\[JIT\] tid \d+\s+\[\.\]\s+(\S+)", line)
        if match:
            name = match.group(2)
            totals["(unnamed: callee copies linked into callers)" if name.startswith("0x") else readable(name)] += \
                float(match.group(1))
    whole = sum(totals.values()) or 1.0
    return sorted(((100 * v / whole, k) for k, v in totals.items()), reverse=True)


def source_lines(perf_file: Path, objects: Path) -> collections.Counter:
    """Samples per source line of the compiled code: each sample's address found in its
    function's object file, whose line table (numba's debug info) names the innermost
    source line there, inlined code under its own line. Keys: (file, line, function)."""
    where = json.loads((objects / "functions.json").read_text())
    starts = sorted((address, name) for name, (_, _, address) in where.items())
    ips = subprocess.run(["perf", "script", "-i", str(perf_file), "-F", "ip"], capture_output=True,
                         text=True).stdout.split()
    per_object: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    keys = [address for address, _ in starts]
    for ip in ips:
        ip = int(ip, 16)
        i = bisect.bisect_right(keys, ip) - 1
        if i < 0:
            continue
        address, name = starts[i]
        path, value, _ = where[name]
        if ip - address < 1 << 20:
            per_object[path][value + ip - address] += 1
    counts: collections.Counter = collections.Counter()
    for path, samples in per_object.items():
        addresses = sorted(samples)
        out = subprocess.run(["addr2line", "-e", path, "-f", "-i", "-a", *[hex(a) for a in addresses]],
                             capture_output=True, text=True).stdout.splitlines()
        frames: dict[int, tuple[str, str]] = {}
        current = None
        for k, line in enumerate(out):
            if line.startswith("0x"):
                current = int(line, 16)
            elif current is not None and current not in frames and k + 1 < len(out) and ":" in out[k + 1]:
                frames[current] = (line, out[k + 1])  # the innermost frame: function, file:line
        for a in addresses:
            function, place = frames.get(a, ("?", "?:0"))
            file, _, line = place.rpartition(":")
            counts[(file, line.split(" ")[0], readable(function))] += samples[a]
    return counts


def lines_table(counts: collections.Counter, top: int) -> str:
    whole = sum(counts.values()) or 1
    text = ""
    for (file, line, function), n in counts.most_common(top):
        source = ""
        if file.endswith(".py") and line.isdigit() and Path(file).exists():
            source = Path(file).read_text().splitlines()[int(line) - 1].strip()[:60]
        text += f"  {100 * n / whole:5.1f}%  {Path(file).name}:{line} {function}: {source}\n"
    return text


def profile(game: str, games: int, top: int, strategies: list[str], lines: int = 0) -> str:
    folder = Path(tempfile.mkdtemp(prefix=f"profile-{game}-"))
    env = dict(os.environ, ANALYZER_CACHE_DIR=str(folder / "cache"))
    if lines:
        (folder / "objects").mkdir()
        env.update(NUMBA_DEBUGINFO="1", PROFILE_OBJECTS=str(folder / "objects"), PYTHONWARNINGS="ignore")
    subprocess.run(["perf", "record", "-F", "999", "-q", "--switch-output=signal", "-o", str(folder / "perf.data"),
                    sys.executable, __file__, "--child", game, "--games", str(games)]
                   + [f"--strategy={s}" for s in strategies],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parts = sorted(folder.glob("perf.data.*"))  # compile, one per strategy, end
    text = ""
    for strategy, part in zip(strategies, parts[1:1 + len(strategies)]):
        text += f"\n{game}, every seat {strategy}: share of the compiled code's time\n"
        text += "".join(f"  {share:5.1f}%  {name}\n" for share, name in shares(part)[:top])
        if lines:
            text += f"the {lines} busiest source lines (inlined code counts on its own line):\n"
            text += lines_table(source_lines(part, folder / "objects"), lines)
    shutil.rmtree(folder, ignore_errors=True)
    return text


def main() -> None:
    parser = script_cli.Parser(__doc__)
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default all)")
    parser.add_argument("--games", type=script_cli.positive, default=1_000_000, help="games per strategy (default 1,000,000)")
    parser.add_argument("--top", type=script_cli.positive, default=8, help="functions shown per run (default 8)")
    parser.add_argument("--strategy", action="append",
                        help="every seat plays this (repeatable; default random and heuristic; a user "
                             "strategy as path.py:function)")
    parser.add_argument("--lines", type=script_cli.at_least_zero, default=0,
                        help="also the N busiest source lines (compiled with numba's debug info, which "
                             "gives each machine instruction its line)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    strategies = args.strategy or STRATEGIES
    if args.child:
        child(args.child, args.games, strategies)
        return
    if shutil.which("perf") is None:
        script_cli.fail("this script needs Linux perf (e.g. apt install linux-perf)", 1)
    for game in args.game or GAMES:
        print(profile(game, args.games, args.top, strategies, args.lines), flush=True)


if __name__ == "__main__":
    script_cli.run(main)
