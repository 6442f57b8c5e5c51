"""Docs that run: every shell command of README.md and docs/*.md, in order, per file.

For each file, in a fresh temporary folder (with a copy of ``examples/`` so that
``examples/...`` paths work), the file's shell blocks are replayed in order:

- in ```sh / ```bash / ```shell blocks every line is a command (``\\`` continues a line,
  ``# ...`` is a comment); ``cat > FILE <<'EOF'`` ... ``EOF`` writes FILE; any other command
  than ``analyzer ...`` must be in ALLOWED below, or the test fails;
- in ```console blocks the lines starting with ``$ `` are commands, the rest is output;
- in code blocks without a language (indented or not), lines starting with ``analyzer `` are
  commands, the rest is shown output.

``analyzer ARGS`` runs the entry point ``analyzer.cli.main`` with ARGS (``shlex.split``) in
this process, in the temporary folder with ``COLUMNS=80``, and must exit 0, or the status its
trailing comment documents (``# ... (exit status 2)``). In process, not as ``python -m
analyzer``: a new interpreter per command costs seconds of imports and cache loads each (60
commands), and the entry point is the same; only ``analyzer --debug ...`` runs as a new
process, since the flag must be decided before numba loads. Sizes are made small
so that the suite stays fast, and nothing else is changed:

- ``--games N`` / ``-n N`` becomes at most GAMES; ``evaluate`` gets ``--samples`` at most
  SAMPLES (added when absent); ``report`` gets ``--quick``;
- the job files in the copied ``examples/jobs/`` get ``games`` at most JOB_GAMES and
  ``chunk`` at most JOB_CHUNK (so the 100M-hand example plays a few thousand games);
- arguments under ``/tmp/`` are moved into the temporary folder;
- a command that, so shrunk, repeats an earlier one of the file but for its ``--out`` folder
  (``report GAME --out A`` and ``report GAME --out B --quick``) is not played again: the
  earlier command's output is copied to its folder (a quick report is seconds of play).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ["README.md"] + sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))

GAMES = 200
SAMPLES = 300
JOB_GAMES = 2000
JOB_CHUNK = 1000
TIMEOUT = 900  # seconds per command: a cold numba cache compiles a game's kernels first

# (file, start of the command) -> why it is not run here. Every entry must match a command.
ALLOWED = {
    ("README.md", "make demo"): "sets up .venv and installs the package: this test runs inside it",
    ("README.md", "make test"): "runs the whole test suite, this file included",
    ("README.md", "analyzer batch examples/jobs/study.toml --out results/ --scheduler tcp://HOST:8786"):
        "needs a running Dask scheduler at HOST:8786",
}

SHELL = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
HEREDOC = re.compile(r"^cat\s*>\s*(\S+)\s*<<\s*(['\"]?)(\w+)\2\s*$")
EXIT = re.compile(r"#.*\bexit status (\d+)")


def steps(text: str) -> list[tuple]:
    """The file's steps in order: ("write", path, content) or ("run", line, lineno)."""
    out: list[tuple] = []
    lines = text.splitlines()
    i, lang, indent = 0, None, ""
    while i < len(lines):
        raw = lines[i]
        fence = FENCE.match(raw)
        if fence and lang is None:
            lang, indent = fence.group(2).lower(), fence.group(1)
            i += 1
            continue
        if fence and lang is not None:
            lang = None
            i += 1
            continue
        if lang is None:
            i += 1
            continue
        line = raw[len(indent):] if raw.startswith(indent) else raw.lstrip()
        start = i + 1
        if lang in SHELL:
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            stripped = line.strip()
            here = HEREDOC.match(stripped)
            if here:
                body = []
                i += 1
                while i < len(lines) and lines[i].strip() != here.group(3):
                    body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                    i += 1
                out.append(("write", here.group(1), "\n".join(body) + "\n"))
            elif stripped and not stripped.startswith("#"):
                out.append(("run", stripped, start))
        elif lang == "console":
            if line.startswith("$ "):
                out.append(("run", line[2:].strip(), start))
        elif lang in ("", "text"):
            if line.strip().startswith("analyzer "):
                out.append(("run", line.strip(), start))
        i += 1
    return out


def shrink(args: list[str], tmp: Path) -> list[str]:
    """Smaller runs (module docstring); nothing else changes."""
    args = [str(tmp / a[len("/tmp/"):]) if a.startswith("/tmp/") else a for a in args]
    out = list(args)
    for k, a in enumerate(out[:-1]):
        if a in ("--games", "-n"):
            out[k + 1] = str(min(int(out[k + 1]), GAMES))
        if a == "--samples":
            out[k + 1] = str(min(int(out[k + 1]), SAMPLES))
    command = out[1] if len(out) > 1 else ""
    if command == "evaluate" and "--samples" not in out:
        out += ["--samples", str(SAMPLES)]
    if command == "report" and "--quick" not in out:
        out.append("--quick")
    return out


def without_out(argv: list[str]) -> tuple[tuple[str, ...], str | None]:
    """The command with its ``--out`` value left out, and that value (None without one)."""
    if "--out" not in argv[:-1]:
        return tuple(argv), None
    at = argv.index("--out")
    return tuple(argv[:at] + argv[at + 2:]), argv[at + 1]


def prepare(tmp: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp / "examples")
    for job in (tmp / "examples" / "jobs").glob("*.toml"):
        text = job.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^(\s*games\s*=\s*)(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), JOB_GAMES)), text)
        text = re.sub(r"(?m)^(\s*chunk\s*=\s*)(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), JOB_CHUNK)), text)
        job.write_text(text, encoding="utf-8")


def overflowing(text: str) -> list[str]:
    """Lines of a command's output (run with COLUMNS=80) wider than 80 columns or with a cut
    cell (``…``): issue #17's bar is that every table fits and no number is cut."""
    return [line for line in text.splitlines() if len(line) > 80 or "\u2026" in line]


def allowed(name: str, line: str) -> str | None:
    for (file, start), reason in ALLOWED.items():
        if file == name and line.startswith(start):
            return reason
    return None


def run_command(args: list[str], cwd: Path, capfd, monkeypatch) -> subprocess.CompletedProcess:
    """``analyzer ARGS`` in ``cwd`` with COLUMNS=80: in this process (module docstring), or as a
    new process for ``--debug``. Output is captured at the file descriptors, so whatever the
    command writes (a library's warning on fd 2 included) is seen as in a terminal."""
    if "--debug" in args:
        return subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=TIMEOUT, env={**os.environ, "COLUMNS": "80"})
    from conftest import exit_status_of_main

    with monkeypatch.context() as patch:
        patch.chdir(cwd)
        patch.setenv("COLUMNS", "80")
        patch.setattr(sys, "argv", ["analyzer", *args])
        capfd.readouterr()
        code = exit_status_of_main()
        captured = capfd.readouterr()
    return subprocess.CompletedProcess(args, code, captured.out, captured.err)


@pytest.mark.parametrize("name", FILES)
def test_commands_run_as_pasted(name: str, tmp_path: Path, capfd, monkeypatch) -> None:
    prepare(tmp_path)
    ran = 0
    timings: list[str] = []  # printed at the end (shown with pytest -rP, or on a failure)
    played: dict[tuple[str, ...], str] = {}  # shrunk command with an --out, less it -> that --out
    for step in steps((ROOT / name).read_text(encoding="utf-8")):
        if step[0] == "write":
            target = tmp_path / step[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step[2], encoding="utf-8")
            continue
        _, line, lineno = step
        if allowed(name, line) is not None:
            continue
        args = shlex.split(line, comments=True)
        assert args and args[0] == "analyzer", (
            f"{name}:{lineno}: `{line}` is not an analyzer command: run it here, or list it in ALLOWED with the reason")
        expected = int(m.group(1)) if (m := EXIT.search(line)) else 0
        argv = shrink(args, tmp_path)
        key, out = without_out(argv)
        if out is not None and key in played:
            shutil.copytree(tmp_path / played[key], tmp_path / out, dirs_exist_ok=True)
            timings.append(f"   -    {name}:{lineno}  {shlex.join(argv)} (as the same command above, copied)")
            continue
        if out is not None:
            played[key] = out
        started = time.perf_counter()
        proc = run_command(argv[1:], tmp_path, capfd, monkeypatch)
        elapsed = time.perf_counter() - started
        timings.append(f"{elapsed:6.1f} s  {name}:{lineno}  {shlex.join(argv)}")
        assert proc.returncode == expected, (
            f"{name}:{lineno}: `{line}` (run as {shlex.join(argv)}) exited {proc.returncode}, "
            f"expected {expected}, after {elapsed:.1f} s\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}")
        if expected:
            assert proc.stderr.strip().splitlines()[-1].startswith("error: "), f"{name}:{lineno}: {proc.stderr}"
        if not {"--json", "--wide", "--help"} & set(argv):
            assert not overflowing(proc.stdout), f"{name}:{lineno}: wider than 80 columns: {overflowing(proc.stdout)}"
        ran += 1
    print("\n".join(timings))
    if name == "README.md":
        assert ran >= 15, f"only {ran} commands found in README.md"


def test_allow_list_is_current() -> None:
    """Every allowed command is still documented (no stale entries)."""
    for (file, start), reason in ALLOWED.items():
        lines = [s[1] for s in steps((ROOT / file).read_text(encoding="utf-8")) if s[0] == "run"]
        assert any(line.startswith(start) for line in lines), f"{file}: `{start}` ({reason}) is no longer documented"


def test_no_command_outside_blocks_is_lost() -> None:
    """Every docs page with commands has them in blocks the test reads (e.g. the guides)."""
    for game in ("twenty-two", "ninety-nine", "hearts2", "two-ten-jack", "pitch10"):
        found = [s for s in steps((ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")) if s[0] == "run"]
        assert any(f"analyzer evaluate {game}" in s[1] for s in found), f"docs/{game}.md has no evaluate example"


def test_readme_links_every_guide() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import readme_games
    finally:
        sys.path.pop(0)
    assert readme_games.problems(ROOT) == []
