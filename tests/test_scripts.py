"""The contributor scripts of ``scripts/``: their --help, their refusals, what they write.

Nothing here runs a benchmark or a report: the functions that format and write are called
in this process, and the shell script is only asked to refuse (a fraction of a second)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
#: scripts/*.py that are helpers imported by the others, not scripts to run
HELPERS = {"script_cli", "solver_times"}
SCRIPTS = sorted(p.stem for p in (ROOT / "scripts").glob("*.py") if p.stem not in HELPERS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_has_a_help_with_an_example_and_one_line_errors(name):
    tree = ast.parse((ROOT / "scripts" / f"{name}.py").read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    assert f"scripts/{name}.py" in doc, f"{name}: the docstring (its --help) shows no example command"
    source = ast.unparse(tree)
    # the --help is the whole docstring, errors one line (script_cli.Parser), and an
    # AnalyzerError (an unknown strategy, ...) one line too (script_cli.run)
    assert "script_cli.Parser(__doc__)" in source, name
    assert "script_cli.run(main)" in source, name


def _refusal(capsys, call) -> str:
    with pytest.raises(SystemExit) as exit_:
        call()
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    return err


def test_script_arguments_are_checked_before_any_work(capsys):
    cli = load_script("script_cli")
    parser = cli.Parser("doc")
    parser.add_argument("--games", type=cli.positive)
    parser.add_argument("--game", type=cli.game)
    assert parser.parse_args(["--games", "1,000", "--game", "Hearts2"]).games == 1000
    assert "at least 1, not 0" in _refusal(capsys, lambda: parser.parse_args(["--games", "0"]))
    assert "not a whole number" in _refusal(capsys, lambda: parser.parse_args(["--games", "2.5"]))
    assert "unknown game 'nosuch'" in _refusal(capsys, lambda: parser.parse_args(["--game", "nosuch"]))
    assert "unrecognized arguments" in _refusal(capsys, lambda: parser.parse_args(["--nosuch"]))

    def bad_input():
        raise cli.AnalyzerError("unknown strategy 'x'\nsecond line")

    assert _refusal(capsys, lambda: cli.run(bad_input)) == "error: unknown strategy 'x' second line\n"


def test_write_atomic_leaves_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    cli = load_script("script_cli")
    target = tmp_path / "met.py"
    target.write_text("old\n")
    cli.write_atomic(target, "new\n")
    assert target.read_text() == "new\n"

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(cli.os, "replace", broken_replace)
    with pytest.raises(OSError):
        cli.write_atomic(target, "half\n")
    assert target.read_text() == "new\n" and [p.name for p in tmp_path.iterdir()] == ["met.py"]


# ---- scripts/bench.py: its tables are README.md's, --update-readme touches only its block ----

@pytest.fixture(scope="module")
def bench():
    return load_script("bench")


def _readme_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = text.index("<!-- bench:start -->\n"), text.index("<!-- bench:end -->")
    return text[start:end].splitlines()[1:]


def test_bench_table_is_the_readmes_format(bench):
    row = dict(game="hearts2", players=2, strategy="all random", one=3686397.4, all=6086399.0, games=643045.2,
               cold=8.04, warm=1.064, cli=float("nan"))
    lines = bench.table([row, {**row, "strategy": "all heuristic", "cli": 1.94}]).splitlines()
    readme = _readme_block()
    head = readme.index(next(line for line in readme if line.startswith("| game | players | strategies |")))
    assert lines[2:4] == readme[head:head + 2]  # the header and its rule, as in the README
    # the row written by hand in the README's format: thousands separators, x, one or two decimals
    assert lines[4] == "| hearts2 | 2 | all random | 3,686,397 | 6,086,399 | 1.65x | 643,045 | 8.0 | 1.06 | - |"
    assert lines[5].endswith("| 8.0 | 1.06 | 1.9 |")
    assert lines[0].startswith("Measured ") and readme[0].startswith("Measured ")


def test_bench_update_readme_replaces_its_block_and_nothing_else(bench, tmp_path):
    readme = tmp_path / "README.md"
    before = "# Title\n\ntext <!-- bench:end --> in a line\n\n"
    readme.write_text(before + "<!-- bench:start -->\nold table\n<!-- bench:end -->\n\nafter\n")
    bench.update_readme("| new |\n", readme)
    assert readme.read_text() == before + "<!-- bench:start -->\n| new |\n<!-- bench:end -->\n\nafter\n"
    for text in ("no block here\n", "<!-- bench:start -->\na\n<!-- bench:end -->\n" * 2):
        readme.write_text(text)
        with pytest.raises(bench.script_cli.AnalyzerError, match="benchmark block"):
            bench.update_readme("| new |\n", readme)
        assert readme.read_text() == text


def test_bench_update_readme_refuses_a_partial_run_before_measuring(bench, capsys):
    for argv in (["--game", "hearts2", "--update-readme"], ["--no-search", "--update-readme"]):
        assert "--update-readme" in _refusal(capsys, lambda: bench.parse_args(argv))
    assert bench.parse_args(["--game", "hearts2", "--no-scaling"]).game == ["hearts2"]


# ---- scripts/make_reports.sh: a bad name is refused before anything is removed or played ----

def test_make_reports_refuses_bad_names_and_keeps_out(tmp_path):
    out = tmp_path / "out"
    (out / "hearts2").mkdir(parents=True)
    (out / "hearts2" / "report.md").write_text("kept\n")
    env = {**os.environ, "OUT": str(out), "PYTHON": sys.executable, "ANALYZER": "/nonexistent"}
    for args in ([""], ["hearts2", "nosuch"], ["--quick"]):
        done = subprocess.run(["bash", str(ROOT / "scripts" / "make_reports.sh"), *args], env=env,
                              capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done
        assert (out / "hearts2" / "report.md").read_text() == "kept\n" and done.stdout == ""
    done = subprocess.run(["bash", str(ROOT / "scripts" / "make_reports.sh"), "--help"], capture_output=True,
                          text=True)
    assert done.returncode == 0 and "QUICK=1 OUT=" in done.stdout and "set -euo" not in done.stdout
