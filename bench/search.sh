#!/usr/bin/env bash
# Search bots' speed (issue 14): median CPU time of one decision and
# iterations per CPU second, per bundled game, plus the 4-player Hai Noon
# decision of ismcts:iterations=1000 (target: under 1 s on one core).
# Usage: bench/search.sh [BUILD_DIR]   (about 2 minutes on an idle core)
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target bench_search_speed >/dev/null
run() { taskset -c 0 nice "$build/bench_search_speed" "$@" 2>/dev/null || "$build/bench_search_speed" "$@"; }
echo "== ismcts:iterations=1000, 4-player Hai Noon, seat 0 searching, 15 decisions"
run "ismcts:iterations=1000" 4 15 hai-noon
echo "== ismcts:iterations=200, every bundled game at 2 players (3 for Pass the Pandas: a 2-player game has no decision), 6 decisions"
run "ismcts:iterations=200" 2 6 hai-noon hao-hao
run "ismcts:iterations=200" 3 6 pass-the-pandas
