#!/usr/bin/env bash
# The budget's cost: each bundled game simulated with the default budget and
# with every budget off, interleaved, R rounds; prints medians and the ratio.
#
#   bench/budget.sh [--build DIR] [--rounds R] [--off "FLAGS"]
#
# --off gives the flags that turn the budget off (default: "--max-seconds 0
# --max-instructions 0"; use "--max-instructions 0" for builds older than
# --max-seconds). Games per run: Pass the Pandas 100000, Hai Noon 2000,
# Hao Hao 500 (about a second each). See bench/README.md.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD="$HERE/../build"
ROUNDS=5
OFF="--max-seconds 0 --max-instructions 0"
while (( $# )); do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --off) OFF=$2; shift 2 ;;
    -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "budget.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
RULEBOOK="$BUILD/cli/rulebook"
[[ -x $RULEBOOK ]] || { echo "budget.sh: no $RULEBOOK" >&2; exit 2; }
PIN=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then PIN=(taskset -c 0); fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

games_per_second() {
  sed -n 's/.*"games_per_second":\([0-9.eE+-]*\).*/\1/p'
}
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A COUNT=([pass-the-pandas]=100000 [hai-noon]=2000 [hao-hao]=500)
GAMES=(pass-the-pandas hai-noon hao-hao)
for (( r = 1; r <= ROUNDS; r++ )); do
  for g in "${GAMES[@]}"; do
    # shellcheck disable=SC2086
    "${PIN[@]}" "$RULEBOOK" simulate "$g" --players 4 --games "${COUNT[$g]}" --seed "$r" --json \
      | games_per_second >> "$TMP/$g.on"
    # shellcheck disable=SC2086
    "${PIN[@]}" "$RULEBOOK" simulate "$g" --players 4 --games "${COUNT[$g]}" --seed "$r" --json $OFF \
      | games_per_second >> "$TMP/$g.off"
    echo "round $r $g: on $(tail -n1 "$TMP/$g.on") off $(tail -n1 "$TMP/$g.off")" >&2
  done
done
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  nproc: $(nproc)  rounds: $ROUNDS  pinned: ${PIN[*]:-no}"
printf '%-16s %16s %16s %10s\n' game "budget on g/s" "budget off g/s" "cost"
for g in "${GAMES[@]}"; do
  on=$(median "$TMP/$g.on"); off=$(median "$TMP/$g.off")
  printf '%-16s %16.1f %16.1f %9.1f%%\n' "$g" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print (1 - a / b) * 100 }')"
done
