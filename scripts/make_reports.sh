#!/usr/bin/env bash
# Regenerate the strategy reports under reports/<game>/ (Markdown, HTML, figures, tables)
# and reports/index.md + index.html (each report's findings, linked); full reports under reports/
# also rewrite the strength ladder of each game's guide (docs/GAME.md) from its tables.
#
#   scripts/make_reports.sh                    # full reports of all five games (up to ~10 minutes each)
#   scripts/make_reports.sh hearts2 pitch10    # only these games (the index lists every report present)
#   QUICK=1 OUT=/tmp/preview scripts/make_reports.sh   # quick versions (seconds each), to preview
#   SEED=2026 OUT=reports WORKERS=2 scripts/make_reports.sh
#
# Settings (environment): SEED (default 2026), OUT (default the repository's reports/; a
# relative OUT is read from the current folder), QUICK=1 (quick reports: keep them out of
# reports/, which holds the committed full ones), WORKERS (default: every core), PYTHON and
# ANALYZER (default .venv/bin/python and .venv/bin/analyzer, else python3 and analyzer).
#
# The games run one after another. Each prints its time and, where /usr/bin/time is there,
# its peak memory (maximum resident set size). The numbers depend on the game, SEED and
# QUICK only (not on WORKERS or the machine), so rerunning with the same settings
# reproduces the committed reports up to the timings. Each report is built aside and moved
# into OUT/<game> once whole (analyzer report), so a failed or interrupted run leaves the
# report before it as it was. Exit status 0, or the first failing step's (2: a bad argument).
set -euo pipefail

case "${1:-}" in
  -h|--help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

OUT="${OUT:-}"
[ -z "$OUT" ] || case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="$(realpath -m "${OUT:-$ROOT/reports}")"
SEED="${SEED:-2026}"
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
ANALYZER="${ANALYZER:-.venv/bin/analyzer}"
[ -x "$ANALYZER" ] || ANALYZER=analyzer

if [ "$#" -gt 0 ]; then
  games=("$@")
else
  games=(ninety-nine twenty-two hearts2 two-ten-jack pitch10)
fi
# every name checked before anything is played or written
"$PYTHON" - "${games[@]}" <<'EOF'
import sys
from analyzer import games
from analyzer.errors import AnalyzerError
for name in sys.argv[1:]:
    try:
        if name.startswith("-"):
            raise AnalyzerError(f"unknown option {name!r} (settings are environment variables: see --help)")
        if name not in games.names():  # exactly: the name is also the report's folder
            raise AnalyzerError(f"unknown game {name!r} (games: {', '.join(games.names())})")
    except AnalyzerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
EOF

flags=(--seed "$SEED")
[ -n "${QUICK:-}" ] && [ "${QUICK}" != "0" ] && flags+=(--quick)

timer=()
timings=""
if [ -x /usr/bin/time ]; then
  timings=$(mktemp)
  trap 'rm -f "$timings"' EXIT
  timer=(/usr/bin/time -v -o "$timings")
fi

mkdir -p "$OUT"
for game in "${games[@]}"; do
  started=$(date +%s)
  echo "== $game -> $OUT/$game"
  # compile the game's kernels in child processes first (a no-op on a warm cache), so that
  # the report's own peak memory is its work's, not numba's compiler's
  "$PYTHON" scripts/warm.py --jobs 1 "$game" > /dev/null
  "${timer[@]}" "$ANALYZER" report "$game" --out "$OUT/$game" "${flags[@]}" ${WORKERS:+--workers "$WORKERS"}
  peak=""
  if [ -n "$timings" ] && [ -s "$timings" ]; then
    peak=$(awk -F: '/Maximum resident set size/ {printf ", peak memory %d MB", $2 / 1024}' "$timings")
  fi
  echo "   done in $(( $(date +%s) - started )) s$peak"
done
"$PYTHON" -m analyzer.report index "$OUT"
# the guides' strength ladders (docs/GAME.md) come from the committed reports' tables
if [ "$OUT" = "$ROOT/reports" ] && [[ ! " ${flags[*]} " =~ " --quick " ]]; then
  "$PYTHON" -m analyzer.report guides "$OUT" docs "${games[@]}"
fi
