# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install warm bench clean
JOBS ?= 2
# bash, so that a failing command in a pipe (demo's `play ... | tail`) fails the target
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# uv installs the same versions as pip, in half the time (a fresh clone's `make test`); where
# uv cannot be had, pip does it. --compile-bytecode, as pip does: without the .pyc files,
# where PYTHONDONTWRITEBYTECODE is set (as on CI) every process compiles numba, pandas, ...
# from source, 2.7 s more of CPU each (a test run starts dozens)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	( $(BIN)/pip install --quiet uv \
	  && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[test]' ) \
	  || ( $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[test]' )
	touch $(STAMP)

install: $(STAMP)

# compile every game's kernels once (numba's cache), two games at a time: the first run of
# each game is then as fast as the next ones (scripts/warm.py says which entry points). First
# the package's own bytecode, which an editable install leaves out: where
# PYTHONDONTWRITEBYTECODE is set, every new process (the CLI, Dask workers, a test's
# subprocess: about 55 in a test run) would compile analyzer/ from source, up to 0.3 s of CPU each.
# checked-hash: a .pyc is used only while its source's content is the same (not its mtime)
warm: $(STAMP)
	@$(BIN)/python -m compileall -q --invalidation-mode checked-hash analyzer
	@$(BIN)/python scripts/warm.py --jobs $(JOBS)

demo: warm
	$(BIN)/analyzer games
	$(BIN)/analyzer simulate ninety-nine --games 20000 --seed 1 --seat 0=random
	$(BIN)/analyzer evaluate ninety-nine --hand "KS 4D 7C" --total 92 --chips 3,1,2 --samples 20000
	$(BIN)/analyzer compare hearts2 heuristic random --games 20000 --seed 1
	$(BIN)/analyzer play ninety-nine --seed 1 --index 0 --record demo-game.jsonl | tail -n 15

# the whole suite on $(JOBS) pytest-xdist workers (a module's expensive set-ups stay on one:
# its xdist_group mark); `$(BIN)/python -m pytest` runs it on one
test: warm
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

# the virtual environment and build files, and demo's record; numba's cache of compiled
# kernels (~/.cache/analyzer, or ANALYZER_CACHE_DIR) stays: `analyzer cache --clear` empties it
clean:
	rm -rf $(VENV) build *.egg-info demo-game.jsonl
