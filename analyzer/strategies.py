"""Resolving ``--seat K=STRATEGY`` into the kernel's per-seat strategy array.

A strategy is written ``name`` or ``name:key=value,key=value`` for a built-in (see
``analyzer strategies GAME``), or ``path/to/file.py:function[:key=value,...]`` for a user
strategy: an ``@njit`` function ``(view, legal, n, rng, [key=default, ...])`` (docs/strategies.md).
"""

from __future__ import annotations

import contextlib
import enum
import functools
import hashlib
import importlib.util
import inspect
import re
import sys
import sysconfig
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from analyzer.errors import AnalyzerError, StrategyError
from analyzer.games.base import GameSpec

DEFAULT_STRATEGY = "heuristic"
#: strategy parameters a seat's row of the kernels' ``strat`` array holds (after the id); the most
#: any strategy has: pitch10's ``ismcts`` (iterations, base, explore, hands, search)
N_PARAMS = 5


@dataclass(frozen=True)
class UserStrategy:
    """A user strategy as a kernel slot binds it (analyzer.engine): the ``@njit`` function
    and the values of its parameters after the four arguments (declared order)."""

    function: Callable
    params: tuple[int, ...] = ()


@dataclass
class SeatStrategy:
    label: str
    builtin: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    function: UserStrategy | None = None
    path: str | None = None
    #: a user strategy as the base of a search strategy (``mc:base=file.py:f``)
    base: UserStrategy | None = None

    @property
    def user_functions(self) -> list[UserStrategy]:
        """The user strategies this seat plays: its own, or its search's base."""
        return [f for f in (self.function, self.base) if f is not None]

    @property
    def user_label(self) -> str:
        """The user strategy an error of this seat's user code names: its own text, or its
        search's base with the search it serves (``x.py:f, the base of mc:k=2,base=x.py:f``)."""
        if self.function is None and self.base is not None:
            return f"{self.params['base']}, the base of {self.label},"
        return self.label


#: ``path.py:function[:key=value,...]``
_USER = re.compile(r"^(?P<path>.+\.py):(?P<name>[A-Za-z_]\w*)(?::(?P<args>[^:]*))?$")


def _is_user(text: str) -> bool:
    return bool(_USER.match(text))


def user_path(text: str) -> str:
    """The file of a user strategy ``path.py:function[:args]``."""
    return _USER.match(text.strip())["path"]


def with_user_path(text: str, where: dict[str, str]) -> str:
    """``text`` with its file moved to ``where[path]`` when it is a user strategy named there,
    or a search whose base is one (``mc:base=path.py:f``)."""
    parts = _USER.match(text.strip())
    if parts and parts["path"] in where:
        return where[parts["path"]] + text.strip()[len(parts["path"]):]
    for old, new in where.items():
        text = text.replace(f"base={old}:", f"base={new}:")
    return text


def user_strategy(text: str) -> UserStrategy:
    """Load ``path.py:function[:key=value,...]``: the function, checked to take
    ``(view, legal, n, rng)`` and then only integer parameters with defaults."""
    parts = _USER.match(text)
    fn = load_user_function(f"{parts['path']}:{parts['name']}")
    declared = list(inspect.signature(getattr(fn, "py_func", fn)).parameters.values())
    if len(declared) < 4 or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in declared[:4]):
        raise StrategyError(f"user strategy {text}: a strategy takes (view, legal, n, rng), "
                            f"not ({', '.join(p.name for p in declared)})")
    extra = declared[4:]
    if parts["args"] is not None and not parts["args"].strip():
        raise StrategyError(f"user strategy {text}: nothing after the last colon (parameters go there, "
                            f"{parts['path']}:{parts['name']}:k=1; or leave the colon out)")
    for p in extra:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            what = {p.VAR_POSITIONAL: f"*{p.name}", p.VAR_KEYWORD: f"**{p.name}"}.get(p.kind, p.name + " (keyword-only)")
            raise StrategyError(f"user strategy {text}: after (view, legal, n, rng) a strategy takes integer "
                                f"parameters with defaults, not {what}")
        if isinstance(p.default, bool) or not isinstance(p.default, int):
            raise StrategyError(f"user strategy {text}: parameter {p.name} needs an integer default "
                                f"(e.g. {p.name}=3)")
    values = {p.name: p.default for p in extra}
    given: set[str] = set()
    for item in filter(None, (a.strip() for a in (parts["args"] or "").split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in values:
            raise StrategyError(f"user strategy {text}: bad parameter {item!r} "
                                f"(parameters: {', '.join(values) or 'none'})")
        if key in given:
            raise StrategyError(f"user strategy {text}: parameter {key} is given twice")
        given.add(key)
        values[key] = _user_param_value(text, key, value)
    return UserStrategy(fn, tuple(values.values()))


def _user_param_value(text: str, key: str, value: str) -> int:
    """A user strategy's parameter value: an integer the kernels' int64 holds."""
    try:
        number = int(value)
    except ValueError:
        raise StrategyError(f"user strategy {text}: parameter {key} takes an integer, "
                            f"not {value.strip()!r}") from None
    if not -(2**63) <= number < 2**63:
        raise StrategyError(f"user strategy {text}: parameter {key} must be from -2**63 to 2**63-1, "
                            f"not {number}")
    return number


#: modules of user strategy files loaded in this process, by (resolved path, content hash):
#: the same file gives the same function objects, so one command binds (and compiles) them once
_MODULES: dict[tuple[str, str], Any] = {}


def user_file_hash(text: str) -> str:
    """SHA-256 of the file of a user strategy ``file.py:name[:args]`` ('' when it cannot be read)."""
    parts = _USER.match(text)
    try:
        return hashlib.sha256(Path(parts["path"] if parts else text.rsplit(":", 1)[0]).read_bytes()).hexdigest()
    except OSError:
        return ""


def user_sources(text: str) -> dict[str, str]:
    """The files a user strategy ``file.py:name[:args]`` is made of, with their texts: its own
    (under the path given, first) and the local modules it imports (``from helpers import f``
    beside it or below its folder; by their paths relative to that folder, POSIX style): what
    travels to a Dask worker, and what a batch checkpoint key hashes."""
    parts = _USER.match(text.strip())
    load_user_function(f"{parts['path']}:{parts['name']}", module=True)
    own, *deps = user_files(text)
    root = own.resolve().parent
    files = {parts["path"]: own.read_text(encoding="utf-8")}
    for dep in deps:
        files[dep.relative_to(root).as_posix()] = dep.read_text(encoding="utf-8")
    return files


def user_files(text: str) -> list[Path]:
    """The files of a user strategy ``file.py:name[:args]``: its own (the path given, first)
    and the local modules it imported when it was loaded in this process (none before)."""
    own = Path(user_path(text))
    return [own, *_LOCAL.get(str(own.resolve()), [])]


def user_sources_hash(text: str) -> str:
    """SHA-256 of a user strategy's files (``user_sources``): its own text, and its local
    modules' by their relative paths."""
    files = list(user_sources(text).items())
    digest = hashlib.sha256(files[0][1].encode())
    for relative, content in sorted(files[1:]):
        digest.update(b"\0" + relative.encode() + b"\0" + content.encode())
    return digest.hexdigest()


#: by a user strategy file's resolved path: the local modules it imported (files under its
#: folder), in the order found, and a digest of their texts when it was loaded (an edited
#: helper loads the strategy again)
_LOCAL: dict[str, list[Path]] = {}
_HELPERS_DIGEST: dict[str, str] = {}


def _helpers_digest(resolved: str) -> str:
    digest = hashlib.sha256()
    for dep in _LOCAL.get(resolved, []):
        try:
            digest.update(str(dep).encode() + b"\0" + dep.read_bytes() + b"\0")
        except OSError:
            digest.update(str(dep).encode() + b"\0gone\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def _not_user_roots() -> tuple[Path, ...]:
    """The folders whose modules are not a user's own: the analyzer's and Python's standard
    library (installed libraries are told by their site-packages folder)."""
    from analyzer.jit import _PACKAGE

    paths = sysconfig.get_paths()
    return (_PACKAGE.resolve(), Path(paths["stdlib"]).resolve(), Path(paths["platstdlib"]).resolve())


def _is_user_code(path: Path) -> bool:
    """Whether a module file is a user's own code: not the analyzer's, nor an installed
    library's (site-packages), nor Python's standard library."""
    if {"site-packages", "dist-packages"} & set(path.parts):
        return False
    return not any(path.is_relative_to(root) for root in _not_user_roots())


def _reached_modules(module: Any) -> tuple[list[Path], list[Path]]:
    """The files of the modules that ``module`` reaches through its globals (a module imported,
    or a function or ``@njit`` function defined in one), with the ``__init__.py`` of their
    packages: the user's own (``_is_user_code``), whose globals are read in turn, in the order
    found, and the others met (not followed)."""
    followed: dict[Path, None] = {}
    met: dict[Path, None] = {}
    todo = [module]
    seen = {id(module)}
    while todo:
        current = todo.pop()
        for value in list(vars(current).values()):
            names = [value.__name__] if isinstance(value, types.ModuleType) else []
            owner = getattr(getattr(value, "py_func", value), "__module__", None)
            if isinstance(owner, str):
                names.append(owner)
            for name in names:
                parts = name.split(".")
                for k in range(len(parts), 0, -1):  # the module, then its packages
                    dep = sys.modules.get(".".join(parts[:k]))
                    file = getattr(dep, "__file__", None)
                    if dep is None or file is None or id(dep) in seen:
                        continue
                    seen.add(id(dep))
                    resolved = Path(file).resolve()
                    if _is_user_code(resolved):
                        followed[resolved] = None
                        todo.append(dep)
                    else:
                        met[resolved] = None
    return list(followed), list(met)


def load_user_function(text: str, module: bool = False) -> Callable:
    """Import ``file.py:name`` and check that it is an ``@njit`` function (``module``: return
    its module instead, loaded). The file's folder is on ``sys.path`` while it loads, as for
    a script run from there: it may import its own helpers beside it."""
    path_text, name = text.rsplit(":", 1)
    path = Path(path_text)
    if not path.is_file():
        from analyzer.io import not_a_file

        raise StrategyError(f"user strategy {text}: file {path} {not_a_file(path)}")
    key = (str(path.resolve()), user_file_hash(text))
    # a name from the content only, registered: the same file loaded from another folder (a
    # batch worker's copy) is the same module
    module_name = "analyzer_user_" + (key[1] or hashlib.sha256(key[0].encode()).hexdigest())[:16]
    try:
        loaded = _MODULES.get(key)
        if loaded is None or _helpers_digest(key[0]) != _HELPERS_DIGEST.get(key[0]):
            loaded = _exec_user_module(path, module_name, key[1])
            _MODULES[key] = loaded
            _HELPERS_DIGEST[key[0]] = _helpers_digest(key[0])
    except KeyboardInterrupt:
        raise
    except SystemExit:
        raise StrategyError(f"user strategy {text}: its module called sys.exit while loading") from None
    except BaseException as exc:  # noqa: BLE001 - any failure of user code is reported in one line
        raise StrategyError(f"user strategy {text} failed to load: {type(exc).__name__}: {exc}"[:300]) from None
    if module:
        return loaded
    fn = getattr(loaded, name, None)
    if fn is None:
        found = _strategies_in(str(path))
        raise StrategyError(f"user strategy {text}: {path} has no function {name!r}"
                            + (f" (its @njit functions: {', '.join(found)})" if found else ""))
    if not hasattr(fn, "py_func") and not (_debugging() and callable(fn)):  # --debug: njit returns the function
        raise StrategyError(f"user strategy {text}: {name} is not an @njit function (decorate it with numba.njit)")
    return fn


#: the module attribute (and so the global of each of its functions) that holds the digest of the
#: code it was loaded from (``_code_digest``): what a compiled user strategy is cached under
CODE_DIGEST = "__analyzer_code_digest__"


def _code_digest(file_hash: str, root: Path, code: list[Path], libraries: list[Path]) -> str | None:
    """SHA-256 of a user strategy module as loaded: its file's hash (taken before it ran); the
    texts of the user's modules it reaches (``code``): those in its folder ``root`` by their
    relative paths (the same files in another folder give the same digest), others by their
    full paths; and the size and time of the other module files it reaches (``libraries``:
    an installed library upgraded is other code). None when a file could not be read."""
    if not file_hash:
        return None
    digest = hashlib.sha256(file_hash.encode())
    try:
        for dep in sorted(code):
            name = dep.relative_to(root).as_posix() if dep.is_relative_to(root) else str(dep)
            digest.update(b"\0" + name.encode() + b"\0" + dep.read_bytes())
        for dep in sorted(libraries):
            stat = dep.stat()
            digest.update(f"\0{dep}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    except OSError:
        return None
    return digest.hexdigest()


def code_digest(function: Callable) -> str | None:
    """The digest of the code ``function`` was loaded from by ``load_user_function``: its
    strategy file and the modules it reaches (``_code_digest``); None for a function defined
    anywhere else."""
    return getattr(function, "py_func", function).__globals__.get(CODE_DIGEST)


def frozen_values_digest(function: Callable) -> str:
    """SHA-256 of the values numba compiles into a user strategy as constants: the data
    (arrays, numbers, strings, tuples of them, enum members) that its code and the user's
    functions it calls read from their globals and closures, and every data attribute of the
    user's modules and classes they read (a ``tables.WEIGHTS`` is not told apart from the
    rest; nor an enum's member ``Seat.LEFT``). A file
    computes them when it loads (a table read from a data file, an environment variable), so
    its text does not say them: the compiled slot's cache key needs them too. Other values
    (functions, classes, numba types) are code or the libraries', left to ``code_digest``."""
    from analyzer.engine import global_names

    digest = hashlib.sha256()
    seen: set[int] = set()
    todo = [function]
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (types.ModuleType, type)):  # a module's or a class's attributes
            reads = sorted(vars(value).items())
            digest.update(f"\0{type(value).__name__} {value.__name__}".encode())
        else:
            py = getattr(value, "py_func", value)
            cells = [(f"<cell {i}>", cell.cell_contents) for i, cell in enumerate(py.__closure__ or ())
                     if _has_contents(cell)]
            reads = [(name, py.__globals__[name]) for name in sorted(global_names(py.__code__))
                     if name in py.__globals__] + cells
            digest.update(f"\0{py.__qualname__}".encode())
        for name, read in reads:
            if name.startswith("__") and name.endswith("__"):  # a module's file, name, digest: not read by kernels
                continue
            if _is_user_object(read):
                todo.append(read)
            elif (data := _data_bytes(read)) is not None:
                digest.update(f"\0{name}=".encode() + data)
    return digest.hexdigest()


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # a cell not yet filled
        return False
    return True


def is_user_module(module: types.ModuleType) -> bool:
    """Whether ``module`` is of the user's own code (``_is_user_code``; a module with no file
    is not)."""
    file = getattr(module, "__file__", None)
    return file is not None and _is_user_code(Path(file).resolve())


def _is_user_object(value: Any) -> bool:
    """A module, a class or a (compiled) function of the user's own code: its reads are followed."""
    if isinstance(value, types.ModuleType):
        return is_user_module(value)
    if isinstance(value, type):
        module = sys.modules.get(value.__module__)
        return module is not None and is_user_module(module)
    py = getattr(value, "py_func", value)
    if not isinstance(py, types.FunctionType):
        return False
    if CODE_DIGEST in py.__globals__:  # a strategy file's own
        return True
    module = sys.modules.get(py.__module__)
    if module is not None:
        return _is_user_object(module)
    file = py.__code__.co_filename  # a helper module the strategy's loading forgot
    return not file.startswith("<") and _is_user_code(Path(file).resolve())


def _data_bytes(value: Any) -> bytes | None:
    """``value`` as bytes that change with it, for the data numba freezes; None for the rest."""
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return None
        return f"array {value.dtype.str} {value.shape}:".encode() + np.ascontiguousarray(value).tobytes()
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic, enum.Enum)):
        return f"{type(value).__name__} {value!r}".encode()
    if isinstance(value, tuple):
        parts = [_data_bytes(item) for item in value]
        return None if None in parts else f"{type(value).__name__}(".encode() + b",".join(parts) + b")"
    return None


def _exec_user_module(path: Path, module_name: str, file_hash: str) -> Any:
    """Run a user strategy's file as module ``module_name``, its folder first on ``sys.path``;
    note the local modules it imported (``_LOCAL``: the user's modules under its folder) and
    the digest of its code (``CODE_DIGEST``, from ``file_hash``, the file's hash), then forget
    the local modules it brought in, so that another strategy's folder can have a helpers.py
    of its own."""
    root = path.resolve().parent
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    before = set(sys.modules)
    sys.modules[module_name] = module
    sys.path.insert(0, str(root))
    try:
        # what the file prints as it loads goes to stderr: the command's output (a table,
        # --json) stays whole (its compiled prints: supervise.compiled_prints_to_stderr)
        with contextlib.redirect_stdout(sys.stderr):
            spec.loader.exec_module(module)  # type: ignore[union-attr]
    except BaseException:
        del sys.modules[module_name]
        raise
    finally:
        sys.path.remove(str(root))
        code, libraries = _reached_modules(module)
        local = _LOCAL[str(path.resolve())] = [p for p in code if p.is_relative_to(root)]
        for name in set(sys.modules) - before - {module_name}:
            file = getattr(sys.modules[name], "__file__", None)
            if file is not None and Path(file).resolve() in local:
                del sys.modules[name]
    setattr(module, CODE_DIGEST, _code_digest(file_hash, root, code, libraries))  # None: never cached
    return module


def _debugging() -> bool:
    """Whether the engine runs uncompiled (``analyzer --debug``; analyzer.jit.DEBUG)."""
    from analyzer.jit import DEBUG

    return DEBUG


def _strategies_in(name: str) -> list[str]:
    """The functions of the file ``name`` that could be strategies, read without running it:
    decorated with ``njit`` or ``jit`` and taking four arguments or more (none if the file
    cannot be read or parsed)."""
    import ast

    try:
        tree = ast.parse(Path(name).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return []

    def jitted(decorator: ast.expr) -> bool:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        return (target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")) in ("njit", "jit")

    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and len(node.args.args) >= 4
            and any(jitted(d) for d in node.decorator_list)][:8]


def parse_strategy(spec: GameSpec, text: str) -> SeatStrategy:
    text = text.strip()
    head, _, rest = text.partition(":")
    if _is_user(text) and not (head in spec.strategies and "=" in rest):  # mc:base=x.py:f is mc's
        return SeatStrategy(label=text, function=user_strategy(text), path=text)
    name, _, arg_text = text.partition(":")
    if name.endswith(".py") and name not in spec.strategies:
        found = _strategies_in(name)
        function = found[0] if found else "function"
        listed = f" (its @njit functions: {', '.join(found)})" if found else ", an @njit function of the file"
        raise AnalyzerError(f"user strategy {text}{' names no function' if not arg_text.strip() else ''}: write "
                            f"{name}:{function}{listed}; parameters after one more colon, separated by commas "
                            f"({Path(name).name}:{function}:k=1,j=2)")
    if name not in spec.strategies:
        raise AnalyzerError(
            f"unknown strategy {name!r} for {spec.name} (strategies: {', '.join(spec.strategies)};"
            " or a user strategy as path/to/file.py:function)"
        )
    if ":" in text and not arg_text.strip():  # "random:" was played, and labelled, as written
        first = next(iter(spec.strategies[name].params), None)
        where = (f"parameters go there, {name}:{first}=..., or leave the colon out" if first
                 else f"{name} takes no parameters: leave the colon out")
        raise AnalyzerError(f"strategy {text!r}: nothing after the colon ({where})")
    info = spec.strategies[name]
    params: dict[str, Any] = dict(info.params)
    base = None
    given: set[str] = set()
    for item in filter(None, (s.strip() for s in arg_text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key not in info.params:
            allowed = ", ".join(info.params) or "none"
            raise AnalyzerError(f"strategy {name}: bad parameter {item!r} (parameters: {allowed})")
        if key in given:
            raise AnalyzerError(f"strategy {name}: parameter {key} is given twice")
        given.add(key)
        params[key] = value
        if key == "base" and _is_user(value) and spec.user_bases:
            base = user_strategy(value)
    return SeatStrategy(label=text, builtin=name, params=params, base=base)


def parse_seat_args(items: list[str] | None, flag: str = "--seat") -> dict[int, str]:
    """``["1=random", "0=heuristic"]`` -> ``{1: "random", 0: "heuristic"}``."""
    seats: dict[int, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isdigit() or not value.strip() or len(key.strip()) > 6:
            raise AnalyzerError(f"{flag} takes SEAT=STRATEGY like 1=random, not {item!r}"[:200])
        seat = int(key)
        if seat in seats:
            raise AnalyzerError(f"seat {seat} is given two strategies")
        seats[seat] = value.strip()
    return seats


def parse_rollout_args(items: list[str] | None) -> str | dict[int, str]:
    """``--rollout SPEC`` (one strategy for every seat, e.g. ``mc:k=8``) or ``--rollout K=SPEC``
    per seat (repeatable); the same strategy specs ``--seat`` takes."""
    items = list(items or [])
    if not items:
        return DEFAULT_STRATEGY
    per_seat = [bool(re.match(r"^\s*\d+\s*=", item)) for item in items]
    if not any(per_seat):
        if len(items) > 1:
            raise AnalyzerError("--rollout takes one strategy for every seat, or K=STRATEGY per seat")
        return items[0].strip()
    if not all(per_seat):
        raise AnalyzerError("--rollout: give one strategy for every seat, or K=STRATEGY for each seat, not both")
    return parse_seat_args(items, "--rollout")


def resolve_seats(spec: GameSpec, players: int, seats: dict[int, str] | list[str] | None) -> list[SeatStrategy]:
    if isinstance(seats, list):
        if len(seats) != players:
            raise AnalyzerError(f"{len(seats)} strategies given for {players} players")
        seats = dict(enumerate(seats))
    given = dict(seats or {})
    seats = {}
    for seat, value in given.items():
        if isinstance(seat, str) and seat.strip().isdigit():
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise AnalyzerError(f"seats are numbered 0..{players - 1}, not {seat!r}")
        if not 0 <= int(seat) < players:
            raise AnalyzerError(f"seat {seat} does not exist with {players} players (seats 0..{players - 1})")
        if not isinstance(value, str):
            raise AnalyzerError(f"seat {seat}: a strategy is a name like 'random', not {value!r}")
        seats[int(seat)] = value
    return [parse_strategy(spec, seats.get(s, DEFAULT_STRATEGY)) for s in range(players)]


def strategy_array(spec: GameSpec, chosen: list[SeatStrategy]) -> tuple[np.ndarray, list[Callable]]:
    """The kernel's ``strat`` array and the distinct user strategies (UserStrategy, slot order)."""
    strat = np.zeros((len(chosen), 1 + N_PARAMS), dtype=np.int64)
    functions: list[UserStrategy] = []
    for seat, choice in enumerate(chosen):
        for fn in choice.user_functions:
            if fn not in functions:
                functions.append(fn)
        if choice.function is not None:
            strat[seat, 0] = -1 - functions.index(choice.function)
            continue
        strat[seat, 0] = spec.strategies[choice.builtin].id
        for k, (key, value) in enumerate(choice.params.items()):
            if key == "base" and choice.base is not None:  # a user slot, as a seat's own id would be
                strat[seat, 1 + k] = -1 - functions.index(choice.base)
            else:
                strat[seat, 1 + k] = _param_value(spec, choice.builtin, key, value)
    return strat, functions


MAX_PARAM = 1 << 30


def _param_value(spec: GameSpec, name: str, key: str, value: Any) -> int:
    if isinstance(value, str) and _is_user(value) and key != "base":
        raise AnalyzerError(f"strategy {name}: parameter {key} takes an integer, not the user strategy {value} "
                            "(a user strategy goes in base=)")
    if isinstance(value, str) and _is_user(value):  # a game whose kernel takes no user base
        plain = ", ".join(n for n, info in spec.strategies.items() if "base" not in info.params)
        raise AnalyzerError(f"strategy {name}: parameter {key} takes a built-in strategy ({plain}): its rollouts "
                            f"run built-in strategies only, not the user strategy {value}")
    if isinstance(value, str) and value in spec.strategies:
        if "base" in spec.strategies[value].params:  # e.g. mc:base=mc: a search cannot be a base
            plain = ", ".join(n for n, info in spec.strategies.items() if "base" not in info.params)
            raise AnalyzerError(f"strategy {name}: parameter {key} takes a plain strategy ({plain}), not {value!r}")
        return spec.strategies[value].id
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise AnalyzerError(f"strategy {name}: parameter {key} takes an integer or a strategy name, not {value!r}") from None
    low, high = spec.strategies[name].limits.get(key, (1, MAX_PARAM))
    if not low <= number <= high:
        raise AnalyzerError(f"strategy {name}: parameter {key} must be from {low:,} to {high:,}, not {value}"[:200])
    return number
