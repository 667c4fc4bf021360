#!/usr/bin/env bash
# What a target costs to compile from nothing, in CPU-seconds (user + sys of
# every compiler and linker process; ccache off), file by file. The machine
# may be shared: CPU-seconds, not wall time, are the figure; the load average
# is printed with it.
#
#   bench/compile_cost.sh BUILD_DIR [TARGET] [-- CMAKE_OPTION...]
#
# BUILD_DIR is removed and configured afresh (Release unless an option says
# otherwise); TARGET defaults to rulebook. Prints the 15 dearest units, then
# "total CPU-s", the unit count and the wall time. The per-file log stays in
# BUILD_DIR/compile_cost.log.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: bench/compile_cost.sh BUILD_DIR [TARGET] [-- CMAKE_OPTION...]}
shift
target=rulebook
if [[ $# -gt 0 && $1 != -- ]]; then target=$1; shift; fi
[[ ${1:-} == -- ]] && shift
launcher=$PWD/bench/time_each_compile.sh
rm -rf "$dir"
export CCACHE_DISABLE=1
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
  -DCMAKE_CXX_LINKER_LAUNCHER="$launcher" "$@" >/dev/null
log=$(realpath "$dir")/compile_cost.log
: >"$log"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
RULEBOOK_COMPILE_LOG=$log nice cmake --build "$dir" -j"${JOBS:-2}" --target "$target" >"$dir/compile_cost.out"
end=$(date +%s.%N)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# /usr/bin/time writes "Command exited with non-zero status" lines on failure.
grep -v '^Command' "$log" | awk '{ printf "%7.1f  %s\n", $1 + $2, $3 }' | sort -rn | head -15
grep -v '^Command' "$log" | awk -v wall="$(echo "$end - $start" | bc)" \
  '{ cpu += $1 + $2; n++ } END { printf "total CPU-s %.1f over %d compiler and linker runs, wall %.0f s\n", cpu, n, wall }'
