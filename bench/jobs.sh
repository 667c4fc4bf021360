#!/usr/bin/env bash
# Benchmark: how `simulate --jobs J` scales on this machine.
#
#   bench/jobs.sh [--build DIR] [--rounds R] [--games N] [--game G] [--jobs "1 2"]
#
# Defaults: --build build, --rounds 7, --games 40000, --game pass-the-pandas
# (4 players), --jobs "1 2". Rounds interleave the job counts so that a
# change of machine load hits them alike; each reports the median games/s
# of its rounds and its speed-up over the first job count, with the load
# average before and after (other processes on the cores lower the ratio).
# With GNU time (/usr/bin/time) it also reports the median CPU time a game
# takes (user + system): if J workers need no more CPU a game than one,
# the workers do not slow each other down (no lock, allocator or cache
# contention), and a speed-up short of J means the cores were not free.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD="$ROOT/build"
ROUNDS=7
GAMES=40000
GAME=pass-the-pandas
JOBS="1 2"
die() { echo "jobs.sh: $*" >&2; exit 2; }
while (( $# )); do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --game) GAME=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument: $1" ;;
  esac
done
[[ $BUILD = /* ]] || BUILD="$PWD/$BUILD"
RULEBOOK="$BUILD/cli/rulebook"
[[ -x $RULEBOOK ]] || die "no $RULEBOOK: build first"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "simulate $GAME --players 4 --games $GAMES, $ROUNDS rounds, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
GTIME=()
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %U -o /dev/null true 2>/dev/null; then
  GTIME=(/usr/bin/time -f '%U %S' -o "$TMP/cpu")
fi
for ((r = 0; r < ROUNDS; ++r)); do
  for j in $JOBS; do
    "${GTIME[@]}" "$RULEBOOK" simulate "$GAME" --players 4 --games "$GAMES" --seed $((r + 1)) --jobs "$j" --json |
      grep -o '"games_per_second":[0-9.eE+-]*' | cut -d: -f2 >> "$TMP/jobs$j"
    if ((${#GTIME[@]})); then
      awk -v g="$GAMES" '{ print ($1 + $2) * 1e6 / g }' "$TMP/cpu" >> "$TMP/cpu$j"
    fi
  done
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
first=""
printf '%-6s %14s %10s %18s\n' jobs "games/s" speed-up "CPU us a game"
for j in $JOBS; do
  m=$(median "$TMP/jobs$j")
  c=$([[ -s $TMP/cpu$j ]] && median "$TMP/cpu$j" || echo 0)
  [[ -n $first ]] || first=$m
  awk -v j="$j" -v m="$m" -v f="$first" -v c="$c" 'BEGIN { printf "%-6s %14.0f %9.2fx %18.1f\n", j, m, m / f, c }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
