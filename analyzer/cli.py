"""The ``analyzer`` command: thin Typer wrappers over :mod:`analyzer.api`.

Nothing heavy is imported at module level (no numba, numpy or pandas), so ``analyzer
--help`` answers at once. Bad input ends with one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, List, Optional

import typer

app = typer.Typer(
    add_completion=True,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    rich_markup_mode="markdown",
    help="""Monte Carlo strategy analyzer for card games.

Examples:

```
analyzer games
analyzer strategies ninety-nine
analyzer simulate ninety-nine --games 100000 --seed 7 --seat 0=random
analyzer play ninety-nine --seed 7 --index 3 --record game3.jsonl
analyzer compare ninety-nine heuristic random --until-significant
```
""",
)


def _flag_shows_no_type(display_type_rich):
    """Typer (0.2x) shows a flag's type as ``<bool>`` in the help (its own --help and
    --install-completion): a flag takes no value, so it shows none, as ours (metavar="")."""
    def shown(self, ctx):
        return None if self.is_flag and self.metavar is None else display_type_rich(self, ctx)
    return shown


if hasattr(typer.core.TyperOption, "display_type_rich"):
    typer.core.TyperOption.display_type_rich = _flag_shows_no_type(typer.core.TyperOption.display_type_rich)

SEAT_HELP = ("K=STRATEGY for seat K (repeatable): a built-in name, or a user strategy file.py:function "
             "(with parameters: file.py:function:k=3). Seats not named play heuristic.")
RULE_HELP = "NAME=VALUE rule option (repeatable), e.g. out_at_zero_chips=true. See `analyzer games`."
TIMEOUT_HELP = "Stop with an error when a chunk of games takes longer than T seconds (a strategy stuck in a loop)."


def _check_timeout(timeout: float | None) -> None:
    from analyzer.runner import check_timeout

    check_timeout(timeout)


def _announce_compile(game: str, kernel: str = "run_chunk") -> None:
    """Say so on stderr before a game's kernels are compiled: no silent minute on a first run.

    The kernels' entry points say it themselves at their first call (engine.NOTICE), for the
    tier they compile (the base strategies, or the search strategies at the first run that
    plays one); the solver's entry is checked here."""
    from analyzer import engine, games as registry
    from analyzer.jit import DEBUG
    from analyzer.runner import BEFORE_KERNEL

    if DEBUG:  # nothing is compiled
        return
    engine.NOTICE = lambda text: typer.echo(text, err=True)
    if "." not in kernel:
        return
    try:
        spec = registry.get(game)
    except Exception:  # noqa: BLE001 - the command itself reports a bad game name
        return
    if not spec.is_compiled(kernel):
        # said just before the first kernel call: bad input is refused first, in one line
        BEFORE_KERNEL.append(lambda: typer.echo(f"compiling the {spec.name} solver (first run only, about "
                                                "a minute)...", err=True))


def _parse_rules(items: list[str] | None) -> dict[str, str]:
    from analyzer.errors import AnalyzerError

    rules: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise AnalyzerError(f"--rule takes NAME=VALUE like target=50, not {item!r}")
        if key.strip() in rules:
            raise AnalyzerError(f"rule {key.strip()} is given twice")
        rules[key.strip()] = value.strip()
    return rules


def _print_frame(frame, title: str | None = None) -> None:
    """A DataFrame as a table that fits the terminal (analyzer.terminal)."""
    from analyzer.terminal import render

    typer.echo(render(frame, title, wide=_WIDE[0]))
    typer.echo("")


#: --wide given: tables show every column
_WIDE = [False]


def _fmt(value: Any) -> str:
    from analyzer.terminal import number

    return number(value)


@app.callback(invoke_without_command=True)
def _options(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True, metavar=""),
    wide: bool = typer.Option(False, "--wide", help="Tables show every column, however wide.", metavar=""),
    debug: bool = typer.Option(False, "--debug", metavar="",
                               help="Run the engine uncompiled, so that a user strategy's print calls and "
                                    "tracebacks show: slow (hundreds of times), same results for the seed."),
) -> None:
    """Options for every command (give them before the command: `analyzer --wide simulate ...`)."""
    if debug:
        _debug_mode()
    if version:
        from importlib.metadata import PackageNotFoundError, version as package_version

        try:
            typer.echo(f"analyzer {package_version('analyzer')}")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            typer.echo("analyzer (not installed)")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(2)
    _WIDE[0] = wide
    _refuse_repeated_options(ctx)
    _check_cache_folder()


def _refuse_repeated_options(ctx: typer.Context) -> None:
    """An option of one value given twice (``--out a.csv --out b.csv``, ``-n 5 --games 9``):
    click keeps the last one silently; refused in one line, as a seat or a rule given twice
    is. Read from ``sys.argv`` (click has handed the command's arguments on by now)."""
    from analyzer.errors import AnalyzerError

    command = ctx.command.get_command(ctx, ctx.invoked_subcommand)
    argv = sys.argv[1:]
    if command is None or ctx.invoked_subcommand not in argv:
        return
    single = {}
    for param in command.params:
        if param.param_type_name == "option" and not param.multiple and not param.is_flag and not param.count:
            for name in param.opts:
                single[name] = param
    seen: dict[int, str] = {}
    for token in argv[argv.index(ctx.invoked_subcommand) + 1:]:
        if token == "--":
            break
        name = token.split("=", 1)[0] if token.startswith("--") else token
        param = single.get(name)
        if param is None:
            continue
        if id(param) in seen:
            first = seen[id(param)]
            raise AnalyzerError(f"{name} is given twice" if first == name else f"{first} and {name} are the same option, given twice")
        seen[id(param)] = name


def _refuse_at_without_record(record: str | None, at: int | None, game_number: int) -> None:
    """``--at`` and ``--game`` pick a decision of ``--record``: without one they are refused
    (evaluate and solve ignored them)."""
    from analyzer.errors import AnalyzerError

    if record is None and (at is not None or game_number != 0):
        raise AnalyzerError(f"{'--at' if at is not None else '--game'} picks a decision of a record: give --record FILE")


def _check_cache_folder() -> None:
    """Refuse, in one line, a cache folder (ANALYZER_CACHE_DIR) that cannot be one: a file,
    inside a file, or where nothing can be written (numba's traceback came later, at the first
    compile)."""
    import os

    from analyzer.errors import AnalyzerError
    from analyzer.jit import _cache_root

    root = _cache_root()
    there = next(p for p in (root, *root.parents) if os.path.lexists(p))
    if not there.is_dir():
        raise AnalyzerError(f"the cache folder {root} cannot be made: {there} is a file "
                            "(ANALYZER_CACHE_DIR names the folder)")
    if not os.access(there, os.W_OK | os.X_OK):
        raise AnalyzerError(f"the cache folder {root} cannot be written: {there} is not writable "
                            "(ANALYZER_CACHE_DIR names another folder)")


def _debug_mode() -> None:
    """Switch numba's JIT off for this process (analyzer.jit.DEBUG); it must not be loaded yet."""
    import os
    import warnings

    from analyzer.errors import AnalyzerError

    if "numba" in sys.modules and not sys.modules["numba"].config.DISABLE_JIT:
        raise AnalyzerError("--debug must be decided before the engine loads: run it as a new process")
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    # the random streams multiply numpy uint64 words on purpose: their wrap-around is the algorithm
    warnings.filterwarnings("ignore", message="overflow encountered", category=RuntimeWarning)


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.", metavar="")) -> None:
    """List the games, their player counts, rule options and defaults.

    Example: `analyzer games --json`
    """
    from analyzer import api

    frame = api.games()
    if as_json:
        typer.echo(json.dumps(frame.to_dict(orient="records"), indent=2))
        return
    for _, row in frame.iterrows():
        _say(f"{row['game']}: {row['title']}, {row['players']} players\n  options: {row['options']}")


@app.command()
def strategies(game: str = typer.Argument(..., help="Game name, e.g. ninety-nine.", metavar="GAME"),
               as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.", metavar="")) -> None:
    """List a game's built-in strategies.

    Example: `analyzer strategies ninety-nine --json`
    """
    from analyzer import api

    frame = api.strategies(game)
    from analyzer import games as registry

    if as_json:  # the parameters' defaults as values too (k: 32, not only the text "k=32")
        params = {name: dict(info.params) for name, info in registry.get(game).strategies.items()}
        typer.echo(json.dumps([{**row, "defaults": params[row["strategy"]]} for row in frame.to_dict(orient="records")],
                              indent=2))
        return

    game = registry.get(game).name  # as the docs name it ("Pitch10" is pitch10)
    typer.echo(f"Strategies for {game}:")
    for _, row in frame.iterrows():
        params = f" (parameters: {row['parameters']})" if row["parameters"] else ""
        _say(f"{row['strategy']}: {row['description']}{params}")
    _say(f"your own: path/to/file.py:function, an @njit function (view, legal, n, rng) -> move "
         f"(docs/strategies.md; the view's fields in docs/{game}.md)")


@app.command()
def simulate(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    n_games: int = typer.Option(10_000, "--games", "-n", help="Number of games to play.", metavar="N"),
    seed: int = typer.Option(0, "--seed", "-s", help="Run seed: game i of seed s is always the same game.", metavar="N"),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: the game's).", metavar="N"),
    seat: Optional[List[str]] = typer.Option(None, "--seat", help=SEAT_HELP, metavar="K=STRATEGY"),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help=RULE_HELP, metavar="NAME=VALUE"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads to use (default: all cores).", metavar="N"),
    out: Optional[str] = typer.Option(None, "--out", help="Write one row per game to FILE.parquet or FILE.csv.", metavar="FILE"),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON.", metavar=""),
    plot: Optional[str] = typer.Option(None, "--plot", help="Save win rates with 95% intervals to FILE.png.", metavar="FILE"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help=TIMEOUT_HELP, metavar="T"),
) -> None:
    """Play many games and summarize them per seat, with 95% intervals (`analyzer --wide simulate ...`
    shows every column).

    Examples:

    ```
    analyzer simulate ninety-nine --games 1000000 --seed 1 --seat 0=random
    analyzer simulate ninety-nine -p 5 --rule out_at_zero_chips=true --json
    analyzer simulate ninety-nine --seat 1=examples/my_strategy.py:cautious
    analyzer simulate hearts2 --games 100000 --out games.parquet
    ```
    """
    from analyzer import api
    from analyzer.strategies import parse_seat_args

    if plot:
        from analyzer.io import check_writable

        check_writable(plot, (".png",))
    _check_timeout(timeout)
    _announce_compile(game)
    summary = api.simulate(game, games=n_games, seed=seed, players=players, seats=parse_seat_args(seat),
                           rules=_parse_rules(rule), workers=workers, out=out,
                           progress=sys.stderr.isatty() and not as_json, timeout=timeout)
    if plot:
        from analyzer.plots import win_rate_plot

        win_rate_plot(summary, plot)
    if as_json:
        typer.echo(json.dumps(summary.to_dict(), indent=2))
    else:
        _print_summary(summary)
    if summary.interrupted:
        written = f"; their rows are in {out}" if out else ""
        raise typer.Exit(_say_interrupted(
            f"interrupted: summary of the {summary.games:,} games finished (of {n_games:,}){written}"))


def _print_summary(summary) -> None:
    from analyzer import games as registry
    from analyzer.terminal import count

    rules = ", ".join(f"{k}={v}" for k, v in summary.rules.items())
    hand = registry.get(summary.game).hand_name  # Ninety-Nine's tables count rounds: so does this line
    rate = f" ({summary.hands / summary.elapsed:,.0f} {hand}s/s)" if summary.elapsed > 0 else ""
    _say(f"{summary.game}: {count(summary.games, 'game')}, {count(summary.hands, hand)}, seed {summary.seed}, "
         f"{_seconds(summary.elapsed)}{rate}\nrules: {rules}")
    for name, table in summary.tables.items():
        _print_frame(table, name)
    from analyzer.terminal import interval

    for key, value in summary.totals.items():
        if key.endswith("_lo") or key.endswith("_hi"):
            continue
        if key + "_lo" in summary.totals:
            typer.echo(f"{key}: {interval(value, summary.totals[key + '_lo'], summary.totals[key + '_hi'])}")
        else:
            typer.echo(f"{key}: {_fmt(value)}")
    _say(f"(what each column means: docs/{summary.game}.md, section \"Summary\")")
    if summary.verdict():
        _say(summary.verdict())


def _seconds(elapsed: float) -> str:
    """A run's time to two significant digits below 10 s ("0.0044 s", not "0.00 s" beside a
    rate of hands per second), to a hundredth above."""
    if elapsed >= 10 or not elapsed > 0:
        return f"{elapsed:.2f} s"
    import math

    return f"{elapsed:.{max(2, 1 - math.floor(math.log10(elapsed)))}f} s"


@app.command()
def play(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    seed: int = typer.Option(0, "--seed", "-s", help="Run seed (as in simulate).", metavar="N"),
    index: int = typer.Option(0, "--index", "-i", help="Index of the first game within the run.", metavar="N"),
    n_games: int = typer.Option(1, "--games", "-n", help="How many consecutive games.", metavar="N"),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: the game's).", metavar="N"),
    seat: Optional[List[str]] = typer.Option(None, "--seat", help=SEAT_HELP, metavar="K=STRATEGY"),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help=RULE_HELP, metavar="NAME=VALUE"),
    record: Optional[str] = typer.Option(None, "--record", help="Write the records (JSON Lines, docs/record.md) to FILE.", metavar="FILE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No replay text, only the record file.", metavar=""),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Stop with an error when a game takes longer than T seconds (a strategy stuck in a loop).", metavar="T"),
) -> None:
    """Replay game(s) readably and write their records.

    `play --seed S --index I` is game I of `simulate --seed S` with the same options.

    Under analyzer --debug a user strategy's prints show (docs/strategies.md).

    Examples:

    ```
    analyzer play ninety-nine --seed 7 --index 3 --record game3.jsonl
    analyzer --debug play ninety-nine --seat 0=examples/ninety_nine.py:saver
    ```
    """
    from analyzer import api
    from analyzer.errors import AnalyzerError
    from analyzer.records import to_jsonl
    from analyzer.strategies import parse_seat_args

    if quiet and not record:
        raise AnalyzerError("--quiet leaves nothing to show: give --record FILE to write the records")
    if record:
        from analyzer.io import check_writable

        check_writable(record)
    _check_timeout(timeout)
    _announce_compile(game, "run_traced")
    played = api.play(game, seed=seed, index=index, games=n_games, players=players,
                      seats=parse_seat_args(seat), rules=_parse_rules(rule), timeout=timeout)
    if record:
        from analyzer.io import write_text

        write_text(record, to_jsonl(played))
    if not quiet:
        for events in played:
            _say(api.replay_text(game, events))  # each line wrapped to the terminal


@app.command()
def compare(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    strategy: Optional[List[str]] = typer.Argument(None, help="Two or more strategies to compare: built-in names, or path/to/file.py:function.", metavar="STRATEGY..."),
    n_games: int = typer.Option(10_000, "--games", "-n", help="Deals to play (each under every seating).", metavar="N"),
    seed: int = typer.Option(0, "--seed", "-s", help="Run seed.", metavar="N"),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: the game's).", metavar="N"),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help=RULE_HELP + " Repeat a name with other values for a variant study.", metavar="NAME=VALUE"),
    seat: Optional[List[str]] = typer.Option(None, "--seat", help="Variant studies: " + SEAT_HELP, metavar="K=STRATEGY"),
    until_significant: bool = typer.Option(False, "--until-significant", help="Stop once every difference is decided (sequential test).", metavar=""),
    each_pair: bool = typer.Option(False, "--each-pair", help="With --until-significant: each pairing of a round robin stops on its own.", metavar=""),
    first_look: Optional[int] = typer.Option(None, "--first-look", help="With --until-significant: deals before the first look (default: 1000, then doubling).", metavar="N"),
    alpha: Optional[float] = typer.Option(None, "--alpha", help="Overall error rate of the test (default: 0.05).", metavar="X"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads to use (default: all cores).", metavar="N"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.", metavar=""),
    csv: Optional[str] = typer.Option(None, "--csv", help="Write the main table to FILE.csv.", metavar="FILE"),
    plot: Optional[str] = typer.Option(None, "--plot", help="Save a figure to FILE.png (error bars; heat map for 3+).", metavar="FILE"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help=TIMEOUT_HELP, metavar="T"),
) -> None:
    """Which strategy is better, by how much, and how sure are we? (duplicate deals)

    Every deal is replayed with the strategies permuted over the seats, so the luck of the
    cards cancels. Repeating a `--rule` name with different values runs a rule-variant study
    instead: the same strategies on the same random streams under each variant.

    Examples:

    ```
    analyzer compare hearts2 heuristic random --games 1000000
    analyzer compare ninety-nine heuristic random --until-significant
    analyzer compare ninety-nine heuristic examples/my_strategy.py:cautious \\
      --until-significant
    analyzer compare ninety-nine random heuristic random --plot round-robin.png
    analyzer compare hearts2 heuristic random mc:k=4 --until-significant \\
      --each-pair --first-look 100 --games 1600
    analyzer compare ninety-nine --rule out_at_zero_chips=false \\
      --rule out_at_zero_chips=true
    ```
    """
    from analyzer import api
    from analyzer.errors import AnalyzerError
    from analyzer.strategies import parse_seat_args

    from analyzer.io import check_writable

    if csv:
        check_writable(csv, (".csv",))
    if plot:
        check_writable(plot, (".png",))
    _check_timeout(timeout)
    items = _rule_items(rule)
    grid = api.rule_grid(items)
    progress = sys.stderr.isatty() and not as_json
    _announce_compile(game)
    if len(grid) > 1:
        if strategy:
            raise AnalyzerError("give either strategies to compare or a rule grid (use --seat for the strategies of a variant study)")
        tested = [name for name, given in (("--until-significant", until_significant), ("--each-pair", each_pair),
                                           ("--first-look", first_look is not None), ("--alpha", alpha is not None))
                  if given]
        if tested:  # they were ignored: a variant study plays every variant on all its games, untested
            raise AnalyzerError(f"{tested[0]} is for comparing strategies; a rule-variant study plays every variant "
                                "on all --games")
        result = api.variants(game, grid, games=n_games, seed=seed, players=players, seats=parse_seat_args(seat),
                              workers=workers, progress=progress, timeout=timeout)
        main_table = result.tables["variants"]
    else:
        if seat:
            raise AnalyzerError("--seat is for variant studies; name the strategies to compare as arguments")
        if not until_significant and (each_pair or first_look is not None):
            raise AnalyzerError(f"{'--each-pair' if each_pair else '--first-look'} goes with --until-significant "
                                "(it sets when the sequential test looks)")
        given = {k: v for k, v in (("alpha", alpha), ("first_look", first_look)) if v is not None}  # else compare's
        result = api.compare(game, list(strategy or []), games=n_games, seed=seed, players=players,
                             rules=grid[0], workers=workers, until_significant=until_significant,
                             progress=progress, each_pair=each_pair, timeout=timeout, **given)
        main_table = result.tables["pairs"]
    if csv:
        from analyzer.io import write_text

        write_text(csv, main_table.to_csv(index=False))
    if plot:
        from analyzer import plots

        (plots.variants_plot if len(grid) > 1 else plots.comparison_plot)(result, plot)
    from analyzer.terminal import count

    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(f"{result.game}: {count(result.games, 'deal')}, seed {result.seed}, {_seconds(result.elapsed)}")
        if getattr(result, "stopped_early", False):
            typer.echo(f"stopped early: every difference decided at overall error rate {result.alpha}")
        for name, table in result.tables.items():
            _print_frame(table, name)
        if hasattr(result, "verdict"):
            _say(result.verdict())
    if result.interrupted:
        raise typer.Exit(_say_interrupted(f"interrupted after {count(result.games, 'deal')}"))


@app.command()
def batch(
    job: str = typer.Argument(..., help="Job file (TOML), see examples/jobs/.", metavar="JOB"),
    out: str = typer.Option(..., "--out", "-o", help="Folder for results and checkpoints.", metavar="DIR"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Local threads (default: all cores).", metavar="N"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (user strategies' files travel with the job).", metavar="TEXT"),
    local_cluster: Optional[int] = typer.Option(None, "--local-cluster", help="Start a Dask LocalCluster of N workers on 127.0.0.1 (at most twice the cores).", metavar="N"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Stop with an error when a chunk of the job takes longer than T seconds (a strategy stuck in a loop).", metavar="T"),
    as_json: bool = typer.Option(False, "--json", help="Print the result (the summary's rows, the chunk counts) as JSON.", metavar=""),
) -> None:
    """Run a job file of simulate, compare and review runs: resumable, exact, local or on Dask.

    Results: OUT/RUN/TABLE.parquet, OUT/summary.csv and OUT/summary.json. Kill it at
    any moment and run the same command again: finished chunks are kept and the results are
    identical to an uninterrupted run.

    Examples:

    ```
    analyzer batch examples/jobs/study.toml --out results/
    analyzer batch examples/jobs/study.toml --out results/ --local-cluster 2
    analyzer batch examples/jobs/study.toml --out results/ \\
      --scheduler tcp://127.0.0.1:8786
    ```
    """
    from analyzer import api
    from analyzer.batch import JobInterrupted, check_local_cluster
    from analyzer.errors import AnalyzerError

    if scheduler and local_cluster:
        raise AnalyzerError("give either --scheduler or --local-cluster, not both")
    check_local_cluster(local_cluster)
    if workers is not None and (scheduler or local_cluster):  # Dask workers play one thread each
        raise AnalyzerError("--workers sets this process's threads: give it without --scheduler or --local-cluster")
    _check_timeout(timeout)
    try:
        result = api.batch(job, out, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
                           progress=sys.stderr.isatty() and not as_json, warn=lambda text: typer.echo(text, err=True),
                           timeout=timeout)
    except JobInterrupted as exc:
        raise typer.Exit(_say_interrupted(str(exc))) from None
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    resumed = f", {result.chunks_done_before} were already done" if result.chunks_done_before else ""
    _say(f"{len(result.runs)} run(s), {result.chunks_total} chunk(s){resumed}; "
         f"{result.elapsed:.1f} s; results in {out}")
    frame = result.tables["runs"]
    _print_frame(frame[[c for c in ("name", "what", "win_rate", "win_rate_lo", "win_rate_hi", "p_value", "games",
                                    "kind", "game") if c in frame.columns]], "runs")


def _with_game_flags(command):
    """``command`` with one more option per position flag the games declare (e.g. --total),
    collected by its ``**game_flags``: the CLI names no game (analyzer.games.position_flags)."""
    import inspect

    from analyzer.games import position_flags

    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    for flag in position_flags():
        option = typer.Option(None, f"--{flag.name}", help=flag.help, metavar=flag.metavar)
        params.append(inspect.Parameter(flag.name, inspect.Parameter.KEYWORD_ONLY, default=option,
                                        annotation=Optional[str]))
    command.__signature__ = signature.replace(parameters=params)
    command.__annotations__ = {p.name: p.annotation for p in params} | {"return": None}
    return command


@app.command()
@_with_game_flags
def evaluate(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    seat: Optional[int] = typer.Option(None, "--seat", help="The deciding seat.", metavar="N"),
    dealer: Optional[int] = typer.Option(None, "--dealer", help="The dealer's seat.", metavar="N"),
    hand: Optional[str] = typer.Option(None, "--hand", help='Cards held, e.g. "KS 4D 7C".', metavar="TEXT"),
    scores: Optional[str] = typer.Option(None, "--scores", help="Scores per seat (per team where the game has teams), e.g. 0,5,12,0.", metavar="TEXT"),
    played: Optional[str] = typer.Option(None, "--played", help="Cards already played this hand (seen by everyone).", metavar="TEXT"),
    decision: Optional[str] = typer.Option(None, "--decision", help="The decision kind when the position allows several (e.g. bid).", metavar="TEXT"),
    setting: Optional[List[str]] = typer.Option(None, "--set", metavar="KEY=VALUE", help="Any other position key, KEY=VALUE (repeatable)."),
    position_file: Optional[str] = typer.Option(None, "--position", help="The position as a JSON file (formats in docs/GAME.md).", metavar="FILE"),
    record: Optional[str] = typer.Option(None, "--record", help="Take the position from a record file (JSONL)...", metavar="FILE"),
    game_number: int = typer.Option(0, "--game", help="...game K of that file (0 = first)...", metavar="N"),
    at: Optional[int] = typer.Option(None, "--at", help="...at its decision N (1 = first), seen by the deciding seat.", metavar="N"),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: the game's).", metavar="N"),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help=RULE_HELP, metavar="NAME=VALUE"),
    rollout: Optional[List[str]] = typer.Option(None, "--rollout", metavar="[K=]STRATEGY", help="Rollout strategy for every seat, e.g. mc:k=8 or path/to/file.py:function (default heuristic), or K=STRATEGY per seat (repeatable)."),
    samples: int = typer.Option(20_000, "--samples", help="Most samples of the hidden cards to play (over enumerated worlds at least one round: whole passes, 256 or more).", metavar="N"),
    precision: Optional[float] = typer.Option(None, "--precision", help="Stop when every proportion interval (win, and a yes/no outcome) is within ±X.", metavar="X"),
    confidence: float = typer.Option(0.95, "--confidence", help="Stop once the best option's P(best) reaches this.", metavar="X"),
    exact_limit: int = typer.Option(2000, "--exact-limit", help="Enumerate the hidden cards when at most this many deals are consistent (0: always sample).", metavar="N"),
    infer: bool = typer.Option(True, "--infer/--no-infer", help="Read the other players' earlier choices (e.g. bids) into their hidden cards, where the game can.", metavar=""),
    seconds: Optional[float] = typer.Option(None, "--time", help="Stop after T seconds.", metavar="T"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Stop with an error when a round of samples (they double in size) takes longer than T seconds (a rollout strategy stuck in a loop).", metavar="T"),
    method: str = typer.Option("rollout", "--method", help="rollout, or solve: the solver also values every option in the same worlds, every card open (hearts2, two-ten-jack, pitch10).", metavar="NAME"),
    solve_samples: int = typer.Option(1000, "--solve-samples", help="With --method solve: sampled worlds to solve, at most (about 1 ms each); enumerated worlds are each solved twice.", metavar="N"),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the samples.", metavar="N"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads to use (default: all cores).", metavar="N"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.", metavar=""),
    csv: Optional[str] = typer.Option(None, "--csv", help="Write the table to FILE.csv.", metavar="FILE"),
    plot: Optional[str] = typer.Option(None, "--plot", help="Save the options with error bars to FILE.png.", metavar="FILE"),
    **game_flags: Optional[str],
) -> None:
    """How good is each option I have? Every legal option is played out on the same sampled
    deals with the same future random numbers; options clearly worse are dropped early.

    Examples:

    ```
    analyzer evaluate ninety-nine --hand "KS 4D 7C" --total 92 --chips 3,1,2
    analyzer evaluate ninety-nine --hand "KS 4D 7C" --total 92 --chips 3,1,2 \\
      --rollout examples/ninety_nine.py:saver
    analyzer play hearts2 --seed 7 --record h.jsonl --quiet
    analyzer evaluate hearts2 --record h.jsonl --at 5 --rollout random
    analyzer evaluate hearts2 --record h.jsonl --at 5 --method solve
    ```

    A position as a JSON file (`--position spot.json`): its keys are in docs/GAME.md.
    """
    from analyzer import api
    from analyzer.errors import AnalyzerError
    from analyzer.strategies import parse_rollout_args

    from analyzer.io import check_writable

    if csv:
        check_writable(csv, (".csv",))
    if plot:
        check_writable(plot, (".png",))
    position: dict[str, Any] | None = None
    flags = {"seat": seat, "dealer": dealer, "hand": hand, "scores": scores, "played": played, "decision": decision,
             **game_flags}
    given = {k: v for k, v in flags.items() if v is not None}
    for item in setting or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise AnalyzerError(f"--set takes KEY=VALUE, not {item!r}")
        given[key.strip()] = value.strip()
    sources = sum([bool(given), position_file is not None, record is not None])
    if sources > 1:
        raise AnalyzerError("give the position one way: flags, --position FILE.json, or --record FILE --at N")
    _refuse_at_without_record(record, at, game_number)
    if position_file is not None:
        position = _read_position(position_file)
    elif given:
        position = given
    rollout_spec: Any = parse_rollout_args(rollout)
    _announce_compile(game, "evaluate_chunk")
    result = api.evaluate(game, position, record=record, game_index=game_number, at=at, players=players,
                         rules=_parse_rules(rule), rollout=rollout_spec, samples=samples, precision=precision,
                         seconds=seconds, seed=seed, workers=workers, progress=sys.stderr.isatty() and not as_json,
                         confidence=confidence, exact_limit=exact_limit, infer=infer, method=method,
                         solve_samples=solve_samples, notify=lambda text: typer.echo(text, err=True),
                         timeout=timeout)
    if csv:
        from analyzer.io import write_text

        write_text(csv, result.table.to_csv(index=False))
    if plot:
        from analyzer.plots import evaluation_plot

        evaluation_plot(result, plot)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
        if result.stopped == "interrupted":
            raise typer.Exit(_say_interrupted(f"interrupted after {result.samples:,} samples"))
        return
    _print_evaluation(result, rollout_spec, record, at)
    if result.stopped == "interrupted":
        raise typer.Exit(_say_interrupted(f"interrupted after {result.samples:,} samples"))


def _print_evaluation(result, rollout: Any, record: str | None, at: int | None) -> None:
    """Restate the question, answer it (a table that fits 80 columns), and the verdict."""
    facts = result.facts
    from pathlib import Path

    from analyzer.terminal import count

    where = f" (from {Path(record).name}, decision {at})" if record else ""
    about = facts["description"] if "seat" in facts["description"] else \
        ", ".join(filter(None, [f"seat {facts['seat']} to move", facts["description"]]))
    _say(f"{result.game}: {about}{where}")
    shown = {k: v for k, v in result.position.items() if k not in ("rules", "seat") and v not in ("", [], None)}
    for key, value in shown.items():
        typer.echo(f"  {key}: {_clip(_position_text(value), 70 - len(key))}")
    rollouts = rollout if isinstance(rollout, str) else ", ".join(f"{k}={v}" for k, v in rollout.items())
    typer.echo(f"  legal: {_clip(' '.join(facts['options_legal']), 64)}")
    order = "fewer is better" if facts["lower_is_better"] else "more is better"
    outcome = [c for c in result.table.columns if c + "_lo" in result.table.columns and c != "win"][0]
    ranked = "win, then " + f"{outcome} ({order})" if facts["ranked_by"] == "win" else f"{outcome} ({order}; the win is the same)"
    _say(f"  rollout: {rollouts}; ranked by {ranked}")
    _say(f"  {facts['method']}: {count(result.samples, 'sample')}, {_seconds(result.elapsed)}; stopped: {result.stopped}")
    if "effective_samples" in facts:
        typer.echo(f"  effective samples after the inference weights: {facts['effective_samples']:,.0f}")
    if "solver" in facts:
        _say(f"  solved: {facts['solver']['value']}")
    if result.samples:
        _print_options(result.table, outcome)
    others = [name for name in result.tables if name != "options"]
    for name in others:
        _print_frame(result.tables[name], name)
    if others:  # Pitch's bid tables: their columns (p_0 .. p_10, make, best) are not self-evident
        _say(f"(what {' and '.join(others)} {'hold' if len(others) > 1 else 'holds'}: docs/{result.game}.md)")
    _say(result.verdict())


def _position_text(value: Any) -> str:
    """A position's value as the records write cards: a list as its items with spaces, a
    list of lists (tricks, each seat's cards) as groups apart (``3:4D 0:6D / 2:7D 3:9D``),
    not Python's ``['3:4D', '0:6D']``."""
    if not isinstance(value, (list, tuple)):
        return str(value)
    if any(isinstance(item, (list, tuple)) for item in value):
        return " / ".join(_position_text(item) for item in value)
    return " ".join(map(str, value))


def _say(text: str) -> None:
    """Prose for the terminal, wrapped to its width."""
    from analyzer.terminal import wrap

    typer.echo("\n".join(wrap(text)))


def _short_path(path):
    """``path`` relative to the working folder when it lies inside it (a shorter line)."""
    from pathlib import Path

    path = Path(path)
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 3)] + "..."


def _print_options(table, outcome: str) -> None:
    """The ranked options, compactly: value ±half-width of its 95% interval (its ends where
    it is lopsided, terminal.interval)."""
    from rich.console import Console
    from rich.table import Table

    from analyzer.terminal import chance, interval

    out = Table(header_style="bold", box=None, pad_edge=False)
    out.add_column("#", justify="right")
    out.add_column("option", justify="left", overflow="fold")
    out.add_column("win %", justify="right")
    out.add_column(outcome, justify="right")
    out.add_column("P(best)", justify="right")
    out.add_column("samples", justify="right")
    solved = "solved" in table.columns  # --method solve: the solver's mean value, every card open
    if solved:
        out.add_column("solved", justify="right")
    out.add_column("", justify="left")
    binary = table[outcome + "_hi"].max() <= 1 and table[outcome].min() >= 0
    for _, row in table.iterrows():
        win = interval(100 * row["win"], 100 * row["win_lo"], 100 * row["win_hi"])
        if binary and outcome != "points":  # a share, in percent: "1.7% ±0.4", "0.0% [0.0, 0.5]"
            value = interval(100 * row[outcome], 100 * row[outcome + "_lo"], 100 * row[outcome + "_hi"])
            value = value.replace(" ", "% ", 1)
        else:
            value = interval(row[outcome], row[outcome + "_lo"], row[outcome + "_hi"])
        cells = [str(row["rank"]), row["option"], win, value, chance(row["p_best"]), f"{row['samples']:,}"]
        if solved:
            cells.append(interval(row["solved"], row["solved_lo"], row["solved_hi"]))
        out.add_row(*cells, "dropped" if row["dropped"] else "")
    console = Console()
    if not console.is_terminal:
        console = Console(width=80)
    with console.capture() as captured:
        console.print(out)
    typer.echo("\n".join(line.rstrip() for line in captured.get().splitlines()))  # no padding after the last cell


@app.command()
def report(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    out: str = typer.Option(..., "--out", "-o", help="Folder for report.md, report.html, figures/ and tables/.", metavar="DIR"),
    quick: bool = typer.Option(False, "--quick", help="A small version in seconds (previews, tests).", metavar=""),
    seed: int = typer.Option(2026, "--seed", "-s", help="Seed of every run in the report.", metavar="N"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads to use (default: all cores).", metavar="N"),
    strategies: Optional[List[str]] = typer.Option(None, "--strategies", help="One more strategy for the tournament and the strength ladder: a built-in (mc:k=64) or path/to/file.py:function (repeat for several).", metavar="STRATEGY"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help=TIMEOUT_HELP + " Nothing is written then.", metavar="T"),
) -> None:
    """Build a strategy report: Markdown + figures + CSV tables, and one self-contained HTML.

    It records how it was made (versions, seeds, options, strategies, hands, time, the
    command to reproduce it). Full reports of all five games: scripts/make_reports.sh.

    Examples:

    ```
    analyzer report ninety-nine --out reports/ninety-nine
    analyzer report hearts2 --out /tmp/h --quick
    analyzer report hearts2 --out /tmp/h2 --quick \\
      --strategies examples/hearts2.py:ducker
    ```
    """
    from analyzer import api

    _announce_compile(game)
    path = api.report(game, out, quick=quick, seed=api.check_seed(seed), workers=workers,
                      progress=sys.stderr.isatty(), log=lambda line: typer.echo(line, err=True),
                      strategies=strategies or [], timeout=timeout)
    shown = _short_path(path)
    _say(f"report written: {shown} (and {shown.with_suffix('.html')})")


@app.command()
def review(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    record: str = typer.Option(..., "--record", help="The record file (JSONL) of the game to review.", metavar="FILE"),
    game_number: int = typer.Option(0, "--game", help="Game K of that file (0 = first).", metavar="N"),
    seat: Optional[List[int]] = typer.Option(None, "--seat", help="A seat to review (repeatable; default: all).", metavar="N"),
    rollout: Optional[List[str]] = typer.Option(None, "--rollout", metavar="[K=]STRATEGY", help="Rollout strategy, as in evaluate (default heuristic)."),
    samples: int = typer.Option(2000, "--samples", help="Most samples per decision.", metavar="N"),
    seconds: Optional[float] = typer.Option(None, "--time", help="At most T seconds per decision.", metavar="T"),
    total_seconds: Optional[float] = typer.Option(None, "--total-time", help="At most T seconds for the whole review.", metavar="T"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Stop with an error when a round of samples of a decision (they double in size) takes longer than T seconds (a rollout strategy stuck in a loop).", metavar="T"),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the samples (as in evaluate).", metavar="N"),
    infer: bool = typer.Option(True, "--infer/--no-infer", help="Read the other players' earlier choices (e.g. bids) into their hidden cards, where the game can (as in evaluate).", metavar=""),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads to use (default: all cores).", metavar="N"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.", metavar=""),
    csv: Optional[str] = typer.Option(None, "--csv", help="Write the decisions table to FILE.csv.", metavar="FILE"),
    plot: Optional[str] = typer.Option(None, "--plot", help="Save the win probability through the game to FILE.png.", metavar="FILE"),
    html_path: Optional[str] = typer.Option(None, "--html", help="Write a self-contained page to FILE.html.", metavar="FILE"),
) -> None:
    """Where did I go wrong? Every decision of the chosen seats in a recorded game,
    evaluated as `evaluate --record FILE --at N` would: the move played against the best,
    its loss in win probability with its error, and the costliest decisions.

    Examples:

    ```
    analyzer play hearts2 --seed 7 --seat 0=random --record h.jsonl --quiet
    analyzer review hearts2 --record h.jsonl --samples 500
    analyzer review hearts2 --record h.jsonl --seat 0 --total-time 60 \\
      --html review.html
    ```
    """
    from analyzer import api
    from analyzer.io import check_writable
    from analyzer.strategies import parse_rollout_args

    for path, suffix in ((csv, ".csv"), (plot, ".png"), (html_path, ".html")):
        if path:
            check_writable(path, (suffix,))
    _check_timeout(timeout)
    _announce_compile(game, "evaluate_chunk")
    bar = _DecisionBar(enabled=sys.stderr.isatty() and not as_json)
    try:
        result = api.review(game, record, game_number, seat or None, rollout=parse_rollout_args(rollout),
                            samples=samples, seconds=seconds, total_seconds=total_seconds, seed=api.check_seed(seed),
                            workers=workers, on_decision=bar.update, timeout=timeout, infer=infer)
    finally:
        bar.close()
    from analyzer.io import write_text

    if csv:
        write_text(csv, result.tables["decisions"].to_csv(index=False))
    if plot:
        from analyzer.plots import review_plot

        review_plot(result, plot)
    if html_path:
        from analyzer.review import to_html

        write_text(html_path, to_html(result))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _print_frame(_decisions_in_points(result.tables["decisions"]),
                     "decisions (loss_points: points of win probability lost against the best move, "
                     "±95%)")
        _print_frame(_seats_in_points(result.tables["seats"]), "seats (losses in points of win probability)")
        for line in result.verdict().splitlines():
            _say(line)
        if not result.complete:
            _say("The record ends before the game does (no game_end event): its decisions were reviewed as far as "
                 "it goes.")
        if result.unreviewed:
            done = len(result.tables["decisions"])
            _say(f"--total-time {total_seconds:g} s was up after {done} of {done + result.unreviewed} decisions: the "
                 f"last {result.unreviewed} were not reviewed (each decision reviewed plays at least one round of "
                 f"samples).")
    if result.interrupted:
        raise typer.Exit(_say_interrupted(f"interrupted after {len(result.tables['decisions'])} decision(s)"))


def _decisions_in_points(decisions):
    """review's decisions table as its verdict lines say it: the loss in points of win
    probability (0.109 of a win reads 10.9) with its 95% interval, as the seats table and
    the verdict give theirs (not a fraction beside a standard error). --json and --csv keep
    loss_win and loss_win_se."""
    from analyzer.stats import Z95

    shown = decisions[["decision", "hand", "seat", "played", "best"]].copy()
    shown["loss_points"] = 100 * decisions["loss_win"]
    shown["loss_points_lo"] = 100 * (decisions["loss_win"] - Z95 * decisions["loss_win_se"])
    shown["loss_points_hi"] = 100 * (decisions["loss_win"] + Z95 * decisions["loss_win_se"])
    shown["p_best_played"] = decisions["p_best_played"]
    shown["note"] = decisions["note"]
    return shown


def _seats_in_points(seats):
    """review's seats table as its verdict lines say it: a sum of win-probability losses in
    points (0.0297 of a win per choice reads 2.97, 3.12 in all reads 312), not as fractions
    beside lines in points. --json and --csv keep the fractions."""
    shown = seats.copy()
    for column in ("loss_win", "loss_win_lo", "loss_win_hi", "loss_per_choice"):
        if column in shown:
            shown[column] = 100 * shown[column]
    return shown.rename(columns={"loss_win": "loss_points", "loss_win_lo": "loss_points_lo",
                                 "loss_win_hi": "loss_points_hi", "loss_per_choice": "points_per_choice"})


class _DecisionBar:
    """runner.Progress over the decisions of a review (its total known at the first one)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.bar = enabled, None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            from analyzer.runner import Progress

            self.bar = Progress(total, "review", self.enabled, unit="decisions")
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@app.command()
def solve(
    game: str = typer.Argument(..., help="Game name (see `analyzer games`).", metavar="GAME"),
    position_file: Optional[str] = typer.Option(None, "--position", help="A full-information position as JSON (every hand; format in docs/solve.md).", metavar="FILE"),
    record: Optional[str] = typer.Option(None, "--record", help="Take the position from a record file (JSONL)...", metavar="FILE"),
    game_number: int = typer.Option(0, "--game", help="...game K of that file (0 = first)...", metavar="N"),
    at: Optional[int] = typer.Option(None, "--at", help="...at its decision N (1 = first), every card as recorded.", metavar="N"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.", metavar=""),
) -> None:
    """The exact value of every legal move when every card is known: everyone plays
    perfectly from here, seeing all hands (what the move is worth in the best case; see
    the game's guide for what the value counts).

    Examples:

    ```
    analyzer play hearts2 --seed 7 --record h.jsonl --quiet
    analyzer solve hearts2 --record h.jsonl --at 20
    ```
    """
    from analyzer import api

    _refuse_at_without_record(record, at, game_number)
    position = _read_position(position_file) if position_file is not None else None
    _announce_compile(game, "solver.solve_moves")
    result = api.solve(game, position, record=record, game_index=game_number, at=at)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    meaning = result.value_meaning  # "value: ..." in every game (Two-Ten-Jack's solver says it without)
    _say(f"{result.game}: {meaning if meaning.startswith('value:') else 'value: ' + meaning}")
    _print_frame(result.tables["options"])
    _say(result.verdict())


@app.command()
def cache(
    prune: bool = typer.Option(False, "--prune", help="Remove what no run of this version reads again: kernels of other versions, slots of user strategies changed or gone, batch jobs' strategy files older than a week.", metavar=""),
    clear: bool = typer.Option(False, "--clear", help="Remove everything the analyzer cached (the next runs compile again).", metavar=""),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.", metavar=""),
) -> None:
    """What the cache of compiled kernels and user strategies holds, and how much of it
    is stale (left by other versions); `--prune` removes that. Run it while no analysis runs.

    Examples:

    ```
    analyzer cache
    analyzer cache --prune
    ANALYZER_CACHE_DIR=/tmp/c analyzer cache --clear
    ```
    """
    from analyzer import api
    from analyzer.cache import human_size
    from analyzer.errors import AnalyzerError

    if prune and clear:
        raise AnalyzerError("give --prune or --clear, not both")
    result = api.cache(prune=prune, clear=clear)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    import pandas as pd

    contents = result.tables["contents"]
    shown = pd.DataFrame({"cache": contents["cache"], "folders": contents["folders"],
                          "size": contents["bytes"].map(human_size), "stale": contents["stale_folders"],
                          "stale size": contents["stale_bytes"].map(human_size)})
    _say(f"Cache folder: {result.root} (ANALYZER_CACHE_DIR moves it)")
    _print_frame(shown)
    _say(result.verdict())


def _read_position(path: str) -> dict[str, Any]:
    from pathlib import Path

    from analyzer.errors import AnalyzerError

    from analyzer.io import not_a_file

    file = Path(path)
    if not file.is_file():
        raise AnalyzerError(f"position file {path} {not_a_file(file)}")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise AnalyzerError(f"position file {path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise AnalyzerError(f"position file {path} is nested too deeply") from None
    if not isinstance(data, dict):
        raise AnalyzerError(f"position file {path} must hold a JSON object")
    return data


def _rule_items(items: list[str] | None) -> list[tuple[str, str]]:
    from analyzer.errors import AnalyzerError

    pairs = []
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise AnalyzerError(f"--rule takes NAME=VALUE like target=50, not {item!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so that partial files are cleaned up as for Ctrl-C."""


_TERMINATED = [False]
_SAID_INTERRUPTED = [False]


def _on_sigterm(signum, frame) -> None:
    _TERMINATED[0] = True
    raise Terminated()


def _interrupt_code() -> int:
    """130 for Ctrl-C, 143 for SIGTERM."""
    return 143 if _TERMINATED[0] else 130


def entry() -> None:
    """The command line (``analyzer``, ``python -m analyzer``): ``main``, in a child process
    watched by this one when the command runs a user strategy, so that a crash of compiled
    code is one line and status 3 (analyzer.supervise), and with the strategy's own prints
    on stderr (not under --debug: nothing is compiled, and its prints are the point)."""
    from analyzer import supervise

    args = sys.argv[1:]
    strategies = [] if "--debug" in args else supervise.user_strategies_named(args)
    if strategies:
        code = supervise.run_watched(strategies)
        if code is not None:
            sys.exit(code)
        supervise.compiled_prints_to_stderr()
    main()


def main() -> None:
    """Entry point: user errors become one line on stderr and exit status 2; a strategy's
    fault exit 3; Ctrl-C 130 and SIGTERM 143, after cleaning up partial files."""
    import signal

    from analyzer.cards import CardError
    from analyzer.errors import AnalyzerError, StrategyError

    signal.signal(signal.SIGTERM, _on_sigterm)
    try:  # Typer vendors its own copy of click
        from typer._click import exceptions as click
    except ImportError:  # pragma: no cover - older Typer: plain click
        from click import exceptions as click

    try:
        code = app(standalone_mode=False)  # Typer returns 130 for a KeyboardInterrupt
    except (AnalyzerError, CardError) as exc:
        typer.echo(f"error: {_one_line(exc)}", err=True)
        sys.exit(2)
    except StrategyError as exc:
        typer.echo(f"error: {_one_line(_named_if_stuck(exc))}", err=True)
        _exit(3)
    except click.NoArgsIsHelpError:
        sys.exit(2)  # the help was printed
    except click.UsageError as exc:
        typer.echo(f"error: {_usage_line(exc)}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        typer.echo(f"error: {_one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except typer.Abort:  # an unexpected end of input
        typer.echo("error: unexpected end of input", err=True)
        sys.exit(2)
    if code in (130, 143):
        if not _SAID_INTERRUPTED[0]:
            typer.echo("interrupted", err=True)
        _exit(_interrupt_code())
    if isinstance(code, int) and code:
        _exit(code)


def _named_if_stuck(exc: Exception) -> str:
    """A --timeout's message, naming the user strategies the command line runs where the run
    did not (api.user_guard names them where it knows them)."""
    from analyzer import supervise

    text = str(exc)  # (a batch run's, or one from a Dask worker, is a StrategyError that says it)
    if "--timeout" in text and "a strategy may be stuck" in text and (named := supervise.user_strategies_named(
            sys.argv[1:])):
        who = f"user strateg{'ies' if len(named) > 1 else 'y'} {', '.join(named)}"
        return text.replace("a strategy may be stuck", f"{who} may be stuck", 1)
    return text


def _exit(code: int) -> None:
    """Exit; at once when a compiled chunk was abandoned on its thread (Ctrl-C, --timeout),
    which must not be waited for or torn down under the interpreter's feet."""
    from analyzer.runner import kernel_left_running

    if kernel_left_running():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def _say_interrupted(text: str) -> int:
    """Print what an interrupted command finished; returns the exit code (130, or 143)."""
    typer.echo(text, err=True)
    _SAID_INTERRUPTED[0] = True
    return _interrupt_code()


def _usage_line(exc) -> str:
    """Click's usage error as one line naming the command, with a hint."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "analyzer"
    hint = f" (see '{where} --help')"
    return _one_line(exc.format_message(), 300 - len(hint)) + hint


def _one_line(exc: BaseException, limit: int = 300) -> str:
    """An error as one bounded line (a 10 MB hand string must not give a 10 MB message)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
