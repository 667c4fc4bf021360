#!/usr/bin/env bash
# The budget's cost, and a before/after comparison, on every bundled game.
#
#   bench/budget.sh [--build DIR] [--rounds R] [--before DIR] [--before-off "FLAGS"]
#
# Each round runs, for Pass the Pandas (100000 games), Hai Noon (2000) and
# Hao Hao (500), 4 players: the build with its default budget ("on"), the
# same with every budget off ("off": --max-seconds 0 --max-instructions 0)
# and, with --before DIR, another build's default ("before"), interleaved.
# The measure is games per second of CPU time (perf stat's task-clock, or
# GNU time's user+sys), which a busy shared machine disturbs far less than
# wall time. Prints medians and ratios. See bench/README.md.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD="$HERE/../build"
BEFORE=""
ROUNDS=5
OFF="--max-seconds 0 --max-instructions 0"
while (( $# )); do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "budget.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
RULEBOOK="$BUILD/cli/rulebook"
[[ -x $RULEBOOK ]] || { echo "budget.sh: no $RULEBOOK" >&2; exit 2; }
[[ -z $BEFORE || -x $BEFORE/cli/rulebook ]] || { echo "budget.sh: no $BEFORE/cli/rulebook" >&2; exit 2; }
PIN=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then PIN=(taskset -c 0); fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=bench/cpu_time.sh
source "$HERE/cpu_time.sh"
[[ -n $CPU_MEASURE ]] || { echo "budget.sh: needs perf or GNU time" >&2; exit 2; }
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A COUNT=([pass-the-pandas]=100000 [hai-noon]=2000 [hao-hao]=500)
GAMES=(pass-the-pandas hai-noon hao-hao)
ARMS=(on off)
[[ -n $BEFORE ]] && ARMS+=(before)
for (( r = 1; r <= ROUNDS; r++ )); do
  for g in "${GAMES[@]}"; do
    n=${COUNT[$g]}
    line="round $r $g:"
    for arm in "${ARMS[@]}"; do
      case $arm in
        on) cmd=("$RULEBOOK" simulate "$g" --players 4 --games "$n" --seed "$r") ;;
        # shellcheck disable=SC2206
        off) cmd=("$RULEBOOK" simulate "$g" --players 4 --games "$n" --seed "$r" $OFF) ;;
        before) cmd=("$BEFORE/cli/rulebook" simulate "$g" --players 4 --games "$n" --seed "$r") ;;
      esac
      s=$(cpu_seconds "${cmd[@]}")
      awk -v n="$n" -v s="$s" 'BEGIN { print n / s }' >> "$TMP/$g.$arm"
      line+=" $arm $(tail -n1 "$TMP/$g.$arm")"
    done
    echo "$line" >&2
  done
done
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  nproc: $(nproc)  rounds: $ROUNDS  pinned: ${PIN[*]:-no}  measure: games per CPU second (medians)"
header=$(printf '%-16s %12s %12s %9s' game "budget on" "budget off" "cost")
[[ -n $BEFORE ]] && header+=$(printf ' %12s %9s' before "on/before")
echo "$header"
for g in "${GAMES[@]}"; do
  on=$(median "$TMP/$g.on"); off=$(median "$TMP/$g.off")
  row=$(printf '%-16s %12.1f %12.1f %8.1f%%' "$g" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print (1 - a / b) * 100 }')")
  if [[ -n $BEFORE ]]; then
    before=$(median "$TMP/$g.before")
    row+=$(printf ' %12.1f %8.2fx' "$before" "$(awk -v a="$on" -v b="$before" 'BEGIN { print a / b }')")
  fi
  echo "$row"
done
