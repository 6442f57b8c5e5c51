"""How the kernels compile (analyzer/jit.py): kernel-only functions without numba's Python
wrappers, machine code made only for what is called by address, and the cache of both."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from analyzer import games as registry
from analyzer.jit import KernelDispatcher, MachineCodeOnDemand, njit


@njit
def _plus_one(x):
    return x + 1


@njit
def _sum_plus_one(values):
    total = 0
    for v in values:
        total += _plus_one(v)
    return total


@njit(entry=True)
def _entry(n):
    return _sum_plus_one(np.arange(n)) * 2


def _libraries(dispatcher):
    return [result.library for result in dispatcher.overloads.values()]


def test_kernel_only_functions_run_from_compiled_code_and_from_python():
    assert isinstance(_plus_one, KernelDispatcher) and not isinstance(_entry, KernelDispatcher)
    assert _entry(4) == 2 * (1 + 2 + 3 + 4)
    # from Python: a twin compiled with numba's wrapper, any argument type numba takes
    assert _plus_one(41) == 42 and _plus_one(1.5) == 2.5
    assert _sum_plus_one(np.arange(3)) == 6
    assert _plus_one.python_twin.py_func.__qualname__.endswith("__from_python")


def test_only_what_is_called_by_address_becomes_machine_code():
    _entry(2)
    _plus_one(7)  # from Python: its twin, an entry point calling it, becomes machine code
    (entry,) = _libraries(_entry)
    assert isinstance(entry, MachineCodeOnDemand) and entry._machine_code  # its CPython wrapper was asked for
    assert all(lib._machine_code for lib in _libraries(_plus_one.python_twin))
    kernel_only = _libraries(_sum_plus_one) + _libraries(_plus_one)
    assert kernel_only and not any(lib._machine_code for lib in kernel_only)


def test_a_kernel_only_function_can_use_its_environment():
    """numba writes a function's environment pointer into its machine code's globals
    (print, among others, reads it): a library without machine code gets the global in a
    module of its own (jit._set_env). Without it this would crash the process."""
    code = textwrap.dedent("""
        from analyzer.jit import njit

        @njit
        def shout(x):
            print("value", x)
            return x + 1

        @njit(entry=True)
        def run(x):
            return shout(x) * 2

        print(run(3), shout(5))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["value", "3", "value", "5", "8", "6"]


def test_cached_kernel_only_functions_load_as_ir_and_entries_as_machine_code(tmp_path):
    """A second process loads both from numba's cache (no compile) and gets the same answers."""
    (tmp_path / "chain.py").write_text(textwrap.dedent("""
        import numpy as np
        from analyzer.jit import njit

        @njit(cache=True)
        def inner(x):
            return x * 3 + 1

        @njit(cache=True, entry=True)
        def outer(n):
            total = 0
            for v in np.arange(n):
                total += inner(v)
            return total
    """))
    probe = textwrap.dedent("""
        import numba
        import chain
        print(chain.outer(10), chain.inner(4), sum(chain.outer.stats.cache_hits.values()))
        chain.inner.compile((numba.int64,))  # as outer calls it: from the cache the second time
        (lib,) = [r.library for r in chain.inner.overloads.values()]
        print(sum(chain.inner.stats.cache_hits.values()), lib._machine_code)
    """)

    def run():
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                              cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    expected = str(sum(3 * v + 1 for v in range(10)))
    assert run() == [expected, "13", "0", "0", "False"]  # compiled
    assert run() == [expected, "13", "1", "1", "False"]  # loaded from the cache


_PRODUCT_PATHS = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from analyzer import api, jit, records
    from analyzer import games as registry

    game, folder = sys.argv[1], Path(sys.argv[2])
    api.simulate(game, games=20, seed=1)
    record, played = folder / "game.jsonl", api.play(game, seed=1)
    record.write_text(records.to_jsonl(played))
    decisions = sum(event["ev"] == "decide" for event in played[0])
    for at in sorted({1, 2, decisions // 2, decisions}):  # positions rebuilt from the record
        api.evaluate(game, record=str(record), at=at, samples=4)
    if registry.get(game).has_solver:  # the last decision: a play, with few cards left
        api.solve(game, record=str(record), at=decisions)
    twins = sorted(f"{module.__name__}.{name}" for module in list(sys.modules.values())
                   if module is not None and module.__name__.startswith("analyzer")
                   for name, value in vars(module).items()
                   if isinstance(value, jit.KernelDispatcher) and "python_twin" in value.__dict__)
    print(json.dumps(twins))
""")


@pytest.mark.parametrize("game", registry.names())
def test_the_product_calls_no_kernel_only_function_from_python(game, tmp_path):
    """Each function the Python side calls is marked ``entry=True``: an unmarked one works (a
    twin) but compiles a second time. simulate, play, evaluate at four decisions of the
    recorded game (positions rebuilt from it) and solve, in a process of their own."""
    done = subprocess.run([sys.executable, "-c", _PRODUCT_PATHS, game, str(tmp_path)], capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_the_garbage_collector_runs_less_often_while_numba_compiles_and_as_before_after():
    """jit._FewerCollections: every compile, nested ones included, runs with the raised
    thresholds; after it (and after one that fails) the thresholds are what they were."""
    import gc

    from numba.core import event
    from numba.core.errors import TypingError

    from analyzer import jit

    seen = []

    class Spy(event.Listener):  # registered after the analyzer's: sees what it set
        def on_start(self, ev):
            seen.append(gc.get_threshold())

        def on_end(self, ev):
            pass

    before = gc.get_threshold()
    assert before != jit.COMPILE_GC_THRESHOLD
    spy = Spy()
    event.register("numba:compile", spy)
    try:
        @jit.numba.njit
        def inner(x):
            return x + 1

        @jit.numba.njit
        def outer(x):
            return inner(x) * 2

        @jit.numba.njit
        def broken(x):
            return x + "one"

        assert outer(3) == 8
        assert len(seen) == 2 and all(t == jit.COMPILE_GC_THRESHOLD for t in seen)
        assert gc.get_threshold() == before
        with pytest.raises(TypingError):
            broken(1)
        assert len(seen) == 3 and gc.get_threshold() == before
    finally:
        event.unregister("numba:compile", spy)


@pytest.fixture
def optimized(monkeypatch):
    """The names of the libraries numba's module optimization runs on, from now on."""
    from numba.core import codegen

    names: list[str] = []
    numba_optimize = codegen.CPUCodeLibrary._optimize_final_module

    def spy(library):
        names.append(library.name)
        numba_optimize(library)

    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", spy)
    return names


def test_llvm_optimizes_once_per_machine_code_not_at_every_level(optimized):
    """MachineCodeOnDemand: numba's module optimization runs for the library that becomes
    machine code (with what it links), never for the kernel-only ones under it."""

    @njit
    def leaf(x):
        return x * 3

    @njit
    def middle(x):
        return leaf(x) + 1

    @njit(entry=True)
    def top(x):
        return middle(x) - 1

    assert top(5) == 15
    assert [name for name in optimized if "leaf" in name or "middle" in name] == []
    assert any("top" in name for name in optimized)


def test_a_game_that_declares_it_keeps_numbas_optimization_at_every_level(optimized, monkeypatch):
    """``OPTIMIZE_EACH_LEVEL = True`` in a package (Two-Ten-Jack's): its functions' libraries
    are optimized when compiled, as numba does; other functions' wait for machine code."""
    import types as pytypes

    package = pytypes.ModuleType("each_level_game")
    package.OPTIMIZE_EACH_LEVEL = True
    monkeypatch.setitem(sys.modules, "each_level_game", package)

    def declared(x):
        return x * 5

    def plain(x):
        return x * 7

    declared.__module__ = "each_level_game.kernel"
    declared_kernel_only, plain_kernel_only = njit(declared), njit(plain)

    @njit(entry=True)
    def top(x):
        return declared_kernel_only(x) + plain_kernel_only(x)

    assert top(1) == 12
    assert any("declared" in name for name in optimized)
    assert not any("plain" in name for name in optimized)
    from analyzer.games import two_ten_jack

    assert two_ten_jack.OPTIMIZE_EACH_LEVEL is True


def _branchy(x):
    y = 0
    if x > 0:
        y = x + 1
    else:
        y = x - 1
    for i in range(3):
        if i == x:
            y += 10
        y += i
    return y


def test_the_inliner_copies_an_ir_with_one_scope_shared_by_its_blocks():
    """jit._OneCopyOfTheScope: the blocks of an IR copied during one ``inline_ir`` share one
    copy of the scope (numba copied the whole scope once per block), and are the same blocks."""
    from numba.core import compiler, inline_closurecall

    from analyzer import jit

    assert inline_closurecall.copy is jit._OneCopyOfTheScope
    func_ir = compiler.run_frontend(_branchy)
    assert len(func_ir.blocks) > 4
    jit._OneCopyOfTheScope.memos = {}
    try:
        copies = {label: jit._OneCopyOfTheScope.deepcopy(block) for label, block in func_ir.blocks.items()}
    finally:
        jit._OneCopyOfTheScope.memos = None
    assert len({id(block.scope) for block in copies.values()}) == 1
    assert all(block.scope is not func_ir.blocks[label].scope for label, block in copies.items())
    for label, block in copies.items():
        assert [str(s) for s in block.body] == [str(s) for s in func_ir.blocks[label].body]
    # outside an inline_ir: numba's deepcopy, a scope per block as before
    apart = [jit._OneCopyOfTheScope.deepcopy(block) for block in func_ir.blocks.values()]
    assert len({id(block.scope) for block in apart}) == len(apart)


def test_a_function_inlined_twice_computes_as_written():
    """Two call sites of one ``inline="always"`` function get their own copies of it."""
    from analyzer.jit import numba

    inlined = numba.njit(inline="always")(_branchy)

    @numba.njit
    def twice(a, b):
        return inlined(a) * 100 + inlined(b)

    assert [twice(a, b) for a, b in [(1, 2), (-4, 0), (2, 5)]] == [
        _branchy(a) * 100 + _branchy(b) for a, b in [(1, 2), (-4, 0), (2, 5)]]


def test_shared_helpers_are_inlined_by_numba_or_by_llvm_as_the_game_declares(monkeypatch):
    """jit.HELPER_INLINE: a function of a package that declares ``LLVM_INLINES_HELPERS = True``
    calls a shared helper (``bits.popcount``), which LLVM inlines; any other function gets
    numba's inlined copy. Both compute the same."""
    import types as pytypes

    from numba.core import inline_closurecall

    from analyzer import jit
    from analyzer.bits import popcount

    package = pytypes.ModuleType("llvm_inlining_game")
    package.LLVM_INLINES_HELPERS = True
    monkeypatch.setitem(sys.modules, "llvm_inlining_game", package)
    inlined: list[str] = []
    numba_inline = inline_closurecall.InlineWorker.inline_function

    def spy(worker, caller_ir, block, i, function, *args, **kwargs):
        inlined.append(function.__name__)
        return numba_inline(worker, caller_ir, block, i, function, *args, **kwargs)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_function", spy)

    def in_the_game(x):
        return popcount(x) + 1

    def elsewhere(x):
        return popcount(x) + 2

    in_the_game.__module__ = "llvm_inlining_game.kernel"
    assert njit(entry=True)(in_the_game)(0b1011) == 4
    assert inlined == []
    assert njit(entry=True)(elsewhere)(0b1011) == 5
    assert inlined == ["popcount"]
    # read as numba reads it: "always" outside a compile; one instance, pickled as itself
    assert jit.HELPER_INLINE == "always" and jit.HELPER_INLINE != "never"
    import pickle

    assert pickle.loads(pickle.dumps(jit.HELPER_INLINE)) is jit.HELPER_INLINE
    assert {g for g in ("hearts2", "twenty_two", "pitch10", "ninety_nine", "two_ten_jack")
            if jit._llvm_inlines(f"analyzer.games.{g}.kernel")} == {"twenty_two", "pitch10"}


def _next_function_number() -> int:
    """The number numba gives the next function it compiles (one used up)."""
    from numba.core.bytecode import FunctionIdentity

    return next(FunctionIdentity._unique_ids)


def test_processes_number_their_compiled_functions_apart():
    """numba's names of compiled functions end in a number from a counter; counted from 1 in
    every process, two processes gave two strategies' cached slots one name, and a third that
    loaded both ran one for both (tests/test_user_strategies.py). Every process, new or forked,
    counts from a random start of its own."""
    import os

    script = "from analyzer import jit; from numba.core.bytecode import FunctionIdentity as F; print(next(F._unique_ids))"
    starts = [int(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
              for _ in range(2)]
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its next number, then out at once
        os.write(write, str(_next_function_number()).encode())
        os._exit(0)
    os.close(write)
    forked = int(os.read(read, 64))
    os.waitpid(child, 0)
    here = _next_function_number()
    # a counter from 1 gives numbers in the thousands; a forked counter, the parent's next number
    assert min(starts + [forked, here]) > 1_000_000 and starts[0] != starts[1]
    assert abs(forked - here) > 1_000_000
