#!/bin/sh
# Compile one game's kernels into numba's cache, so that no later run waits for it:
# `make warm` runs this for every game, two games at a time. Usage: scripts/warm.sh BIN GAME
# (BIN: the folder of the `analyzer` command). Each step compiles one entry point and tier:
# simulate (run_chunk, base strategies), simulate with an mc seat (the search tier), play
# (run_traced), play with an mc seat (run_traced's search tier: records and a report's
# ladder timings) and evaluate at the first decision of that game (evaluate_chunk).
set -e
bin=$1
game=$2
record=$(mktemp "${TMPDIR:-/tmp}/warm-$game-XXXXXX.jsonl")
trap 'rm -f "$record"' EXIT
"$bin/analyzer" simulate "$game" --games 2 --seed 1 > /dev/null
"$bin/analyzer" simulate "$game" --games 1 --seed 1 --seat 0=mc:k=1 > /dev/null
"$bin/analyzer" play "$game" --seed 1 --record "$record" > /dev/null
"$bin/analyzer" play "$game" --seed 1 --seat 0=mc:k=1 > /dev/null
"$bin/analyzer" evaluate "$game" --record "$record" --game 0 --at 1 --samples 20 > /dev/null
