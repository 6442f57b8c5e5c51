"""What every game provides: a :class:`GameSpec` (the Python side) around its kernels.

A game package has the same rooms (DESIGN.md): ``rules.py``, ``strategies.py`` and
``kernel.py`` are compiled and only see arrays; ``spec.py`` builds a :class:`GameSpec`.

Kernel contract (``kernel.py`` of every game)::

    run_chunk(seed, start, params, strat, out, err, nblocks, users, tier)
        Play games ``start .. start + len(out) - 1`` of the run with ``seed``.
        params : int64[:]     rule options, layout given by the spec
        strat  : int64[P, 4]  per seat: strategy id (negative: user slot -1-id) and
                              three integer strategy parameters
        out    : int64[n, C]  one row per game, columns ``spec.columns(rules)``; the
                              first are winners (seat bit mask), hands, then scores
        err    : int64[n, 4]  ``[-1, ..]`` when fine, else ``[decision, seat, move, 0]``
                              for a strategy that returned an illegal move
        nblocks: int          how many pieces the games are cut into for the worker
                              threads (blocks.in_blocks); any gives the same rows
        users  : tuple        the user strategy slots (engine.SlotKernel fills them)
        tier   : tuple        the compile tier (engine.search_tier): empty when no seat
                              plays a search strategy (an id from ``SEARCH_FROM`` on);
                              the kernels reach their search strategies only through a
                              function that starts ``if len(tier) == 0: return -1``, so
                              numba leaves them out of the empty tier's specialization
    run_traced(seed, index, params, strat, out_row, err_row, trace, users, tier)
        The same game, same code path, with the trace buffer on (see trace.py).
    evaluate_chunk(...)
        Play the options of a position on sampled hidden cards (the game's spec says
        the arguments); also takes ``users, tier`` last.
    USER_ENTRIES, SEARCH_FROM
        The entry points above (and any other that takes ``users, tier``), and the
        first search strategy id.

Every function the Python side calls (the entry points, and e.g. ``load_position`` from
``spec.py``) is ``@njit(entry=True)``; every other one is kernel-only (analyzer/jit.py).
"""

from __future__ import annotations

import importlib
import numbers
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

import numpy as np

from analyzer.errors import AnalyzerError


@dataclass(frozen=True)
class RuleOption:
    """One rule option. ``default`` may depend on the number of players."""

    name: str
    kind: type  # int or bool
    default: int | bool | Callable[[int], int | bool]
    help: str
    low: int | None = None
    high: int | None = None

    def default_for(self, players: int) -> int | bool:
        return self.default(players) if callable(self.default) else self.default

    def parse(self, text: str | int | bool) -> int | bool:
        if self.kind is bool:
            if isinstance(text, bool):
                return text
            value = str(text).strip().lower()
            if value in ("true", "1", "yes", "on"):
                return True
            if value in ("false", "0", "no", "off"):
                return False
            raise AnalyzerError(f"rule {self.name} takes true or false, not {text!r}")
        # an integer, or its digits: int() would also take 30.5 (30), True (1) and "1_0" (10)
        if isinstance(text, numbers.Integral) and not isinstance(text, (bool, np.bool_)):
            number = int(text)
        elif isinstance(text, str) and re.fullmatch(r"\s*[-+]?\d+\s*", text):
            number = int(text)
        else:
            raise AnalyzerError(f"rule {self.name} takes an integer, not {text!r}")
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise AnalyzerError(f"rule {self.name}={number} is out of range {self.low}..{self.high}")
        return number


@dataclass(frozen=True)
class PositionFlag:
    """A position key the game lets ``evaluate`` take as its own flag (``--NAME VALUE``),
    beside the keys every game has (--seat, --hand, ...) and the generic ``--set KEY=VALUE``.
    A game lists them as ``POSITION_FLAGS`` in its package's ``__init__.py`` (light to import);
    the CLI builds the flags from the registry; the value reaches the position as text."""

    name: str
    help: str
    metavar: str = "TEXT"


@dataclass(frozen=True)
class StrategyInfo:
    id: int
    description: str
    params: dict[str, int] = field(default_factory=dict)  # name -> default
    #: name -> (lowest, highest) for a number parameter narrower than 1..strategies.MAX_PARAM
    limits: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: draws no random number: its move is a function of what the seat sees (evaluate's
    #: enumerated worlds are then exact when every play of a world ends alike)
    deterministic: bool = False


@dataclass
class GameSpec:
    """Everything the generic layers (API, runner, records, CLI) need to know of a game."""

    name: str
    title: str
    package: str
    min_players: int
    max_players: int
    default_players: int
    options: list[RuleOption]
    strategies: dict[str, StrategyInfo]
    decision_kinds: list[str]
    trace_rows: int = 200_000
    #: the final score's direction: True where fewer points are better (Hearts, Twenty-Two)
    lower_score_wins: bool = False
    #: what a score is, for the line that explains a score margin
    score_unit: str = "points"
    #: what the game calls a deal played out (simulate's count of them, hands/s): "round" in
    #: Ninety-Nine and Two-Ten-Jack, whose tables count rounds
    hand_name: str = "hand"
    #: about how long ``make warm`` takes to compile this game on an empty cache (seconds, a
    #: 2-core machine): scripts/warm.py shares the games' warm-ups out between its processes by it
    warm_up_seconds: float = 60.0

    # ---- rules ---------------------------------------------------------------------
    def option(self, name: str) -> RuleOption:
        for opt in self.options:
            if opt.name == name:
                return opt
        names = ", ".join(o.name for o in self.options)
        raise AnalyzerError(f"unknown rule option {name!r} for {self.name} (options: {names})")

    def resolve_rules(self, given: dict[str, Any] | None = None, players: int | None = None) -> dict[str, Any]:
        """All options with values: defaults filled in, each value checked."""
        given = dict(given or {})
        if "players" in given:
            if players is not None and int(given["players"]) != players:
                raise AnalyzerError("players given twice with different values")
            players = given.pop("players")
        if players is None:
            players = self.default_players
        from analyzer.evaluate import as_int

        players = as_int(players, "players")  # 3.7 or True is refused, never truncated
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise AnalyzerError(f"{self.name} is for exactly {self.min_players} players, not {players}")
            raise AnalyzerError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}"
            )
        rules: dict[str, Any] = {}
        for opt in self.options:
            if opt.name == "players":
                rules["players"] = players
            elif opt.name in given:
                rules[opt.name] = opt.parse(given.pop(opt.name))
            else:
                rules[opt.name] = opt.default_for(players)
        for name in given:
            self.option(name)  # raises for the unknown name
        self.check_rules(rules)
        return rules

    def check_rules(self, rules: dict[str, Any]) -> None:
        """Game-specific consistency checks; override where needed."""

    def params(self, rules: dict[str, Any]) -> np.ndarray:
        """Rule options as the kernel's int64 parameter array (order of ``options``)."""
        return np.array([int(rules[opt.name]) for opt in self.options], dtype=np.int64)

    def players(self, rules: dict[str, Any]) -> int:
        return int(rules.get("players", self.default_players))

    # ---- kernels -------------------------------------------------------------------
    def module(self, room: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{room}")

    @property
    def has_solver(self) -> bool:
        """Whether the game has a perfect-information solver: a ``solver.py`` room in its
        package (``solve_position``, ``position_at``, ``VALUE``; ``analyzer solve``)."""
        import importlib.util

        return importlib.util.find_spec(f"{self.package}.solver") is not None

    def study(self) -> ModuleType | None:
        """The game's report study: its ``study.py`` room (``RULES_BRIEF``, ``build(r, spec,
        rules)``; analyzer/report.py), or None when the package has none. Plain Python: no
        compiled module imports it."""
        import importlib.util

        if importlib.util.find_spec(f"{self.package}.study") is None:
            return None
        return self.module("study")

    def is_compiled(self, kernel: str = "run_chunk") -> bool:
        """Whether the game's ``kernel`` entry is in the compile cache (False: the first run compiles)."""
        from analyzer.jit import is_cached

        return is_cached(self.package.rsplit(".", 1)[-1], kernel)

    @property
    def user_bases(self) -> bool:
        """Whether a user strategy can be the base of the game's search strategies
        (``mc:base=file.py:f``): its kernel declares ``USER_BASES``."""
        return bool(getattr(self.module("kernel"), "USER_BASES", False))

    def kernels(self) -> tuple[Callable, Callable]:
        """``run_chunk`` and ``run_traced`` for the built-in strategies (no user slot filled)."""
        kernel = self.module("kernel")
        if hasattr(kernel, "USER_ENTRIES"):  # the entry points take the user slots
            kernel = self.user_kernel([])
        return kernel.run_chunk, kernel.run_traced

    def user_kernels(self, functions: list[Callable]) -> tuple[Callable, Callable]:
        """``run_chunk`` and ``run_traced`` with user strategies in their slots (engine.SlotKernel)."""
        bound = self.user_kernel(functions)
        return bound.run_chunk, bound.run_traced

    def user_kernel(self, functions: list[Callable], check_legal: bool = False) -> Any:
        """The kernel module with user strategies in its slots (engine.SlotKernel): what
        ``evaluation(..., kernel=)`` takes. The functions compile once per distinct list per
        process; ``check_legal`` raises on an illegal user move (the evaluation kernels)."""
        from analyzer.engine import bound_kernel

        return bound_kernel(self.module("kernel"), functions, check_legal)

    # ---- outputs -------------------------------------------------------------------
    def columns(self, rules: dict[str, Any]) -> list[str]:
        """Names of the kernel's per-game output columns."""
        p = self.players(rules)
        return ["winners", "hands", "decisions", *[f"score_{s}" for s in range(p)], *self.extra_columns(rules)]

    def extra_columns(self, rules: dict[str, Any]) -> list[str]:
        return []

    def ratio_pairs(self, rules: dict[str, Any]) -> list[tuple[str, str]]:
        """Column pairs (numerator, denominator) whose ratio the summary reports."""
        return []

    def move_name(self, code: int) -> str:
        """The record's text for a move code (used in error messages)."""
        return str(code)

    def summarize(self, acc: Any, rules: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """Game-specific tables from the accumulated sums; returns {'seats': DataFrame, ...}."""
        from analyzer.tables import seat_table

        return {"seats": seat_table(acc, rules, names)}

    # ---- records -------------------------------------------------------------------
    def decode(self, rows: np.ndarray, rules: dict[str, Any]) -> list[dict[str, Any]]:
        """Trace rows -> docs/record.md events (without the leading ``game`` event)."""
        raise NotImplementedError

    def describe(self, event: dict[str, Any]) -> str | None:
        """One readable line for an event of the replay, or None to skip it."""
        return None

    # ---- positions and evaluation (analyzer.evaluate) ----------------------------------
    def evaluation(self, rules: dict[str, Any], position: dict[str, Any], strat, infer: bool = False,
                   kernel=None, keep: tuple[str, ...] = ()) -> Any:
        """Check ``position`` and prepare its evaluation (analyzer.evaluate.Evaluation).
        ``keep``: moves (record text) to evaluate even where the game screens a large set of
        options down (Twenty-Two's discards): the move a record played."""
        raise AnalyzerError(f"evaluate is not available for {self.name}")

    def extra_tables(self, rules: dict[str, Any], position: dict[str, Any], strat, samples: int, seed: int,
                     threads: int, kernel=None) -> dict[str, Any]:
        """Tables beyond the options' table that a position calls for, by name (DataFrames);
        e.g. Pitch's bid table at a bid. ``kernel``: the kernel with user strategies bound."""
        return {}


def dealt_hands_text(hands: list[list[str]]) -> str:
    """A deal's hands for a game's text record (``play``): one line per seat that holds cards,
    ``   seat 0 holds 2C 4C 8C`` (a line of all the hands wrapped in the middle of one)."""
    return "\n".join(f"   seat {s} holds {' '.join(h)}" for s, h in enumerate(hands) if h)


def game_end_event(winner_mask: int, players: int, scores: list[int], hands: int) -> dict[str, Any]:
    """The record's ``game_end`` event from the kernel's winner bit mask (every game's decode)."""
    return {"ev": "game_end", "winners": [s for s in range(players) if winner_mask >> s & 1],
            "scores": scores, "hands": hands}


def decision_index(events: list[dict[str, Any]], at: Any) -> int:
    """Where decision ``at`` (1-based, counted over the whole record of one game, as
    ``evaluate --at`` and ``solve --at`` count) stands in ``events``; a one-line error for a
    number that is not one of the game's decisions."""
    decisions = [i for i, ev in enumerate(events) if ev.get("ev") == "decide"]
    if at is None:
        raise AnalyzerError(f"a record's position needs --at N, the decision (from 1 to {len(decisions)})")
    if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= len(decisions):
        raise AnalyzerError(f"--at must be a decision number from 1 to {len(decisions)}, not {at!r}")
    return decisions[at - 1]


def register_strategies(entries: list[tuple[str, str]]) -> dict[str, StrategyInfo]:
    return {name: StrategyInfo(i, desc) for i, (name, desc) in enumerate(entries)}
