#!/usr/bin/env bash
# Regenerate the strategy reports under reports/<game>/ (Markdown, HTML, figures, tables)
# and reports/index.md + index.html (each report's findings, linked); full reports under reports/
# also rewrite the strength ladder of each game's guide (docs/GAME.md) from its tables.
#
#   scripts/make_reports.sh                    # full reports of all five games (up to ~10 minutes each)
#   scripts/make_reports.sh hearts2 pitch10    # only these games (the index lists every report present)
#   QUICK=1 scripts/make_reports.sh            # quick versions (seconds each), e.g. to preview
#   SEED=2026 OUT=reports WORKERS=2 scripts/make_reports.sh
#
# The games run one after another. Each prints its time and, where /usr/bin/time is there,
# its peak memory (maximum resident set size). The numbers depend on the game, SEED and
# QUICK only (not on WORKERS or the machine), so rerunning with the same settings
# reproduces the committed reports up to the timings.
set -euo pipefail

cd "$(dirname "$0")/.."
SEED="${SEED:-2026}"
OUT="${OUT:-reports}"
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
ANALYZER="${ANALYZER:-.venv/bin/analyzer}"
[ -x "$ANALYZER" ] || ANALYZER=analyzer

if [ "$#" -gt 0 ]; then
  games=("$@")
else
  games=(ninety-nine twenty-two hearts2 two-ten-jack pitch10)
fi

flags=(--seed "$SEED")
[ -n "${QUICK:-}" ] && [ "${QUICK}" != "0" ] && flags+=(--quick)

timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o "$OUT/.time.txt")

mkdir -p "$OUT"
for game in "${games[@]}"; do
  started=$(date +%s)
  echo "== $game -> $OUT/$game"
  rm -rf "${OUT:?}/$game"
  # compile the game's kernels in child processes first (a no-op on a warm cache), so that
  # the report's own peak memory is its work's, not numba's compiler's
  "$PYTHON" scripts/warm.py --jobs 1 "$game" > /dev/null
  "${timer[@]}" "$ANALYZER" report "$game" --out "$OUT/$game" "${flags[@]}" ${WORKERS:+--workers "$WORKERS"}
  peak=""
  if [ -f "$OUT/.time.txt" ]; then
    peak=$(awk -F: '/Maximum resident set size/ {printf ", peak memory %d MB", $2 / 1024}' "$OUT/.time.txt")
    rm -f "$OUT/.time.txt"
  fi
  echo "   done in $(( $(date +%s) - started )) s$peak"
done
"$PYTHON" -m analyzer.report index "$OUT"
# the guides' strength ladders (docs/GAME.md) come from the committed reports' tables
if [ "$OUT" = reports ] && [[ ! " ${flags[*]} " =~ " --quick " ]]; then
  "$PYTHON" -m analyzer.report guides "$OUT" docs "${games[@]}"
fi
