#!/usr/bin/env bash
# Regenerate the strategy reports under reports/<game>/ (Markdown, HTML, figures, tables).
#
#   scripts/make_reports.sh                    # full reports of all five games (a few minutes each)
#   scripts/make_reports.sh hearts2 pitch10    # only these games
#   QUICK=1 scripts/make_reports.sh            # quick versions (seconds each), e.g. to preview
#   SEED=2026 OUT=reports WORKERS=2 scripts/make_reports.sh
#
# The numbers depend on the game, SEED and QUICK only (not on WORKERS or the machine), so
# rerunning with the same settings reproduces the committed reports up to the timings.
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

# the CLI command when it is there, else the module's own entry point (same function)
if "$ANALYZER" report --help >/dev/null 2>&1; then
  run() { "$ANALYZER" report "$1" --out "$2" "${flags[@]}" ${WORKERS:+--workers "$WORKERS"}; }
else
  run() { "$PYTHON" -m analyzer.report "$1" "$2" "${flags[@]}" ${WORKERS:+--workers "$WORKERS"}; }
fi

for game in "${games[@]}"; do
  started=$(date +%s)
  echo "== $game -> $OUT/$game"
  rm -rf "${OUT:?}/$game"
  run "$game" "$OUT/$game"
  echo "   done in $(( $(date +%s) - started )) s"
done
