"""The kernels' two compile tiers (engine.search_tier): a run of base strategies only uses
the specialization compiled without the search strategies, a run with ``mc`` or ``pimc``
the other one, and both play the base strategies' games identically."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import api, engine, games

GAMES = games.names()


@pytest.mark.parametrize("game", GAMES)
def test_a_run_is_in_the_search_tier_exactly_when_a_seat_searches(game):
    spec = games.get(game)
    kernel = spec.module("kernel")
    assert engine.search_tier(kernel, api.setup(game).strat) == engine.BASE_TIER
    assert engine.search_tier(kernel, api.setup(game, seats={0: "random"}).strat) == engine.BASE_TIER
    assert engine.search_tier(kernel, api.setup(game, seats={0: "mc:k=2"}).strat) == engine.SEARCH_TIER
    last = spec.players(spec.resolve_rules(None, None)) - 1
    assert engine.search_tier(kernel, api.setup(game, seats={last: "mc:k=2"}).strat) == engine.SEARCH_TIER
    if "pimc" in spec.strategies:
        assert engine.search_tier(kernel, api.setup(game, seats={0: "pimc:k=2"}).strat) == engine.SEARCH_TIER


@pytest.mark.parametrize("game", GAMES)
def test_both_tiers_play_the_base_strategies_games_byte_for_byte(game, tmp_path, monkeypatch):
    """The search tier is the same code with the search branches kept: forced on for a run
    of random and heuristic seats, it must write the very same rows."""
    seats = {0: "random"}
    api.simulate(game, games=300, seed=11, seats=seats, out=str(tmp_path / "base.csv"))
    monkeypatch.setattr(engine, "search_tier", lambda module, strat: engine.SEARCH_TIER)
    api.simulate(game, games=300, seed=11, seats=seats, out=str(tmp_path / "search.csv"))
    base = (tmp_path / "base.csv").read_bytes()
    assert base.count(b"\n") == 301
    assert (tmp_path / "search.csv").read_bytes() == base


def test_the_first_run_of_a_tier_says_it_compiles_once(cli, tmp_path, monkeypatch):
    """The notice comes at the first call of a tier whose stamp is missing from the cache
    folder, once per process, and the stamp is left for the next process."""
    assert cli("simulate", "hearts2", "--games", "3")[0] == 0  # loaded in this process
    assert cli("simulate", "hearts2", "--games", "3", "--seat", "0=mc:k=2")[0] == 0
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("ANALYZER_CACHE_DIR", str(tmp_path))  # a cache folder without stamps
    monkeypatch.setattr(engine, "_NOTICED", set())
    monkeypatch.setattr(engine, "_STAMPED", set())
    code, _, err = cli("simulate", "hearts2", "--games", "3")
    assert code == 0
    assert err.splitlines() == ["compiling hearts2 kernels (first run only, up to about a minute)..."]
    stamps = list(Path(tmp_path).rglob("compiled/*"))
    assert [p.name for p in stamps] == ["run_chunk-base"]
    assert cli("simulate", "hearts2", "--games", "3")[2] == ""
    # an older version's kernels (a sparse file of 150 MB) are worth a word, once per process
    old = tmp_path / "numba" / "hearts2-0123456789abcdef"
    old.mkdir(parents=True)
    with open(old / "kernel.nbc", "wb") as big:
        big.truncate(150 * 2**20)
    monkeypatch.setattr(engine, "_STALE_SAID", [])
    code, _, err = cli("simulate", "hearts2", "--games", "3", "--seat", "0=mc:k=2")
    assert code == 0
    assert err.splitlines() == ["compiling hearts2 search strategies (first run that plays one only, "
                                "a minute or two)...",
                                "(older versions' kernels take 150 MB of the cache: `analyzer cache --prune` "
                                "removes them)"]
    monkeypatch.setattr(engine, "_NOTICED", set())  # a new process: the stamps say it is compiled
    monkeypatch.setattr(engine, "_STAMPED", set())
    assert cli("simulate", "hearts2", "--games", "3", "--seat", "0=mc:k=2")[2] == ""
    assert cli("simulate", "hearts2", "--games", "3")[2] == ""


def test_two_ten_jack_random_play_leaves_the_solver_uncompiled_until_a_caller_types_it():
    """The solver's recursive ``search`` has a declared signature, compiled when a caller
    first types it rather than at import (solver._declared_before_typed): a base-tier run
    never asks for it (a cold start saved 3.8 s), and the first caller compiled gets
    exactly the declared version."""
    import subprocess
    import sys

    script = (
        "import numpy as np\n"
        "from analyzer import api\n"
        "from analyzer.jit import njit\n"
        "from analyzer.games.two_ten_jack import solver\n"
        "api.simulate('two-ten-jack', games=3, seed=1, seats={0: 'random'}, workers=1)\n"
        "print(len(solver.search.signatures))\n"
        "@njit\n"
        "def caller(x, table, work):\n"
        "    return solver.search(x, x, x, x, x, x, x, table, work)\n"
        "caller.compile('int64(int64, uint64[:, :], int64[:])')  # any layout: inference would take it\n"
        "from numba.core.sigutils import normalize_signature\n"
        "print(solver.search.signatures[0] == normalize_signature(solver.SEARCH_SIGNATURE)[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True)
    assert out.stdout.splitlines() == ["0", "True"]
