#!/usr/bin/env bash
# Benchmark: rulebook engine vs. a plain Lua 5.4 script, on Pass the Pandas (4 players).
#
#   bench/run.sh [--build DIR] [--rounds R] [--games N]
#
# Defaults: --build build (relative to the repository root), --rounds 7, --games 200000.
# After the wall-clock comparison it prints the targets table of issue 9 (games per
# CPU second of every bundled game against the baseline, the budget's cost, peak
# memory); --no-targets skips it.
# A relative --build DIR given on the command line is relative to the current directory.
# Needs bash, awk, coreutils, lua5.4; uses taskset and GNU time (/usr/bin/time) if present.
# See bench/README.md for what is measured and how to read the output.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD="$ROOT/build"
ROUNDS=7
GAMES=200000
PLAYERS=4
GAME=pass-the-pandas
BASELINE="$HERE/pass_the_pandas_baseline.lua"
TARGETS=1

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; }
die() { echo "run.sh: $*" >&2; exit 2; }
is_uint() { [[ $1 =~ ^[0-9]+$ ]] && (( $1 > 0 )); }

while (( $# )); do
  case $1 in
    --build)   [[ $# -ge 2 ]] || die "--build needs a directory"; BUILD=$2; shift 2 ;;
    --build=*) BUILD=${1#*=}; shift ;;
    --rounds)  [[ $# -ge 2 ]] || die "--rounds needs a number"; ROUNDS=$2; shift 2 ;;
    --rounds=*) ROUNDS=${1#*=}; shift ;;
    --games)   [[ $# -ge 2 ]] || die "--games needs a number"; GAMES=$2; shift 2 ;;
    --games=*) GAMES=${1#*=}; shift ;;
    --no-targets) TARGETS=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
is_uint "$ROUNDS" || die "--rounds must be a positive integer"
is_uint "$GAMES" || die "--games must be a positive integer"
[[ $BUILD = /* ]] || BUILD="$PWD/$BUILD"
RULEBOOK="$BUILD/cli/rulebook"

command -v lua5.4 >/dev/null || die "lua5.4 not found"
[[ -f $BASELINE ]] || die "missing $BASELINE"

# Pin every measured process to one core, if we can.
PIN=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
  PIN=(taskset -c 0)
fi

# GNU time for peak RSS (must understand -f/-o).
GTIME=""
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
  GTIME=/usr/bin/time
fi

HAVE_ENGINE=0
[[ -x $RULEBOOK ]] && HAVE_ENGINE=1

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now_ns() { date +%s%N; }

# json_num KEY LINE -> the number after "KEY": (empty if absent)
json_num() {
  printf '%s\n' "$2" | sed -n 's/.*"'"$1"'"[[:space:]]*:[[:space:]]*\(-\{0,1\}[0-9][0-9.eE+-]*\).*/\1/p' | head -n1
}

# stats FILE -> "median min max" of the numbers in FILE (one a line)
stats() {
  sort -g "$1" | awk '{ v[NR] = $1 }
    END { if (NR == 0) { print "n/a n/a n/a"; exit }
          m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          print m, v[1], v[NR] }'
}

# run_one NAME OUTFILE CMD... : runs CMD pinned, appends games/s, mean_turns, wall seconds
run_one() {
  local name=$1 prefix=$2; shift 2
  local t0 t1 line gps turns
  t0=$(now_ns)
  if ! line=$("${PIN[@]}" "$@" </dev/null 2>"$TMP/stderr"); then
    echo "run.sh: $name run failed: $*" >&2; cat "$TMP/stderr" >&2; exit 1
  fi
  t1=$(now_ns)
  line=$(printf "%s" "$line" | tr "\n\r\t" "   ")   # tolerate pretty-printed JSON
  gps=$(json_num games_per_second "$line")
  turns=$(json_num mean_turns "$line")
  if [[ -z $gps ]]; then
    echo "run.sh: no games_per_second in $name output: $*" >&2; exit 1
  fi
  echo "$gps" >>"$prefix.gps"
  echo "${turns:-nan}" >>"$prefix.turns"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' >>"$prefix.wall"
  printf '%s\n' "$line" >>"$prefix.json"
}


# peak_rss CMD... -> KiB, or n/a
peak_rss() {
  if [[ -z $GTIME ]]; then echo "n/a"; return; fi
  if "$GTIME" -f %M -o "$TMP/rss" "${PIN[@]}" "$@" </dev/null >/dev/null 2>&1; then
    tail -n1 "$TMP/rss"
  else
    echo "n/a (run failed)"
  fi
}

cpu_model() {
  local m
  m=$(awk -F': *' '/^(model name|Model|Hardware|cpu model)[[:space:]]*:/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  echo "${m:-unknown}"
}

# ---------------------------------------------------------------- header
echo "rulebook benchmark: Pass the Pandas, $PLAYERS players"
echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "host:      nproc=$(nproc), CPU: $(cpu_model)"
echo "pinning:   ${PIN[*]:-none (taskset unavailable)}"
echo "lua:       $(lua5.4 -v 2>&1 | head -n1 | awk '{ print $1, $2 }')"
echo "runs:      $ROUNDS interleaved rounds x $GAMES games (seed = round number)"
if (( HAVE_ENGINE )); then
  echo "engine:    $RULEBOOK"
  # How the engine has Lua: the archive (the default build) or the shared
  # library (-DRULEBOOK_SHARED_LUA=ON), about 15% slower (bench/README.md).
  if command -v ldd >/dev/null && ldd "$RULEBOOK" 2>/dev/null | grep -q 'liblua5\.4'; then
    echo "engine's Lua: Debian's shared liblua5.4"
  else
    echo "engine's Lua: Debian's liblua5.4.a, linked in"
  fi
else
  echo "engine:    NOT FOUND at $RULEBOOK -- running the baseline only"
fi
echo

# ---------------------------------------------------------------- warm-up (not measured)
warm=$(( GAMES < 2000 ? GAMES : 2000 ))
"${PIN[@]}" lua5.4 "$BASELINE" "$warm" 0 "$PLAYERS" >/dev/null </dev/null
ENGINE_BROKEN=0
if (( HAVE_ENGINE )); then
  probe=$("${PIN[@]}" "$RULEBOOK" simulate "$GAME" --players "$PLAYERS" --games "$warm" --seed 0 --json \
    </dev/null 2>"$TMP/stderr") || true
  if [[ -z $(json_num games_per_second "$probe") ]]; then
    echo "WARNING: $RULEBOOK is present but \`simulate $GAME --json\` printed no games_per_second:"
    printf "  stdout: %s\n" "$(printf "%s" "$probe" | head -c 300)"
    printf "  stderr: %s\n" "$(head -c 300 "$TMP/stderr")"
    echo "  -> running the baseline only (exit status will be 3)"
    echo
    HAVE_ENGINE=0; ENGINE_BROKEN=1
  fi
fi

# ---------------------------------------------------------------- interleaved rounds
for (( r = 1; r <= ROUNDS; r++ )); do
  run_one baseline "$TMP/base" lua5.4 "$BASELINE" "$GAMES" "$r" "$PLAYERS"
  b=$(tail -n1 "$TMP/base.gps")
  if (( HAVE_ENGINE )); then
    run_one engine "$TMP/eng" "$RULEBOOK" simulate "$GAME" --players "$PLAYERS" --games "$GAMES" --seed "$r" --json
    e=$(tail -n1 "$TMP/eng.gps")
    awk -v e="$e" -v b="$b" 'BEGIN { printf "%.4f\n", e / b }' >>"$TMP/ratio"
    printf 'round %d/%d: baseline %s games/s, engine %s games/s\n' "$r" "$ROUNDS" "$b" "$e" >&2
  else
    printf 'round %d/%d: baseline %s games/s\n' "$r" "$ROUNDS" "$b" >&2
  fi
done

mean_of() { awk '$1 != "nan" { s += $1; n++ } END { if (n) printf "%.3f", s / n; else printf "n/a" }' "$1"; }

row() { # NAME PREFIX
  read -r med mn mx < <(stats "$2.gps")
  read -r wmed _ _ < <(stats "$2.wall")
  printf '%-20s %14.1f %14.1f %14.1f %12.3f %11s\n' "$1" "$med" "$mn" "$mx" "$wmed" "$(mean_of "$2.turns")"
}

echo
printf '%-20s %14s %14s %14s %12s %11s\n' "" "median games/s" "min games/s" "max games/s" "median wall s" "mean_turns"
row "baseline (lua5.4)" "$TMP/base"
if (( HAVE_ENGINE )); then
  row "engine (rulebook)" "$TMP/eng"
  read -r bmed _ _ < <(stats "$TMP/base.gps")
  read -r emed _ _ < <(stats "$TMP/eng.gps")
  read -r rmed rmin rmax < <(stats "$TMP/ratio")
  awk -v e="$emed" -v b="$bmed" -v rm="$rmed" -v lo="$rmin" -v hi="$rmax" 'BEGIN {
    printf "\nratio engine/baseline (of medians): %.3f   (>1 means the engine is faster)\n", e / b
    printf "per-round ratio: median %.3f, min %.3f, max %.3f\n", rm, lo, hi }'
fi
echo

# ---------------------------------------------------------------- start-up and memory
if (( HAVE_ENGINE )); then
  : >"$TMP/startup"
  for (( r = 1; r <= ROUNDS; r++ )); do
    t0=$(now_ns)
    "${PIN[@]}" "$RULEBOOK" play "$GAME" --players "$PLAYERS" --seed 1 >/dev/null </dev/null \
      || { echo "run.sh: rulebook play failed" >&2; exit 1; }
    t1=$(now_ns)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$TMP/startup"
  done
  read -r smed smin smax < <(stats "$TMP/startup")
  echo "start-up (rulebook play $GAME --players $PLAYERS --seed 1 > /dev/null, $ROUNDS runs):"
  echo "  median ${smed} ms (min ${smin}, max ${smax})"
  echo "peak RSS (KiB, /usr/bin/time -f %M):"
  echo "  rulebook simulate ($GAMES games): $(peak_rss "$RULEBOOK" simulate "$GAME" --players "$PLAYERS" --games "$GAMES" --seed 1 --json)"
  echo "  rulebook play:                   $(peak_rss "$RULEBOOK" play "$GAME" --players "$PLAYERS" --seed 1)"
  echo "  baseline lua5.4 ($GAMES games):   $(peak_rss lua5.4 "$BASELINE" "$GAMES" 1 "$PLAYERS")"
else
  echo "start-up and engine peak RSS: skipped (no usable rulebook binary at $RULEBOOK)"
  echo "peak RSS (KiB, /usr/bin/time -f %M):"
  echo "  baseline lua5.4 ($GAMES games):   $(peak_rss lua5.4 "$BASELINE" "$GAMES" 1 "$PLAYERS")"
fi

# ---------------------------------------------------------------- targets (issue 9)
# One interleaved run in CPU time: each round runs the baseline, then every
# bundled game at 4 players with the default budget, then Pass the Pandas with
# every budget off. Ratios are games per CPU second over the baseline's games
# per CPU second in the same run (medians over the rounds).
if (( HAVE_ENGINE && TARGETS )); then
  # shellcheck source=bench/cpu_time.sh
  source "$HERE/cpu_time.sh"
  if [[ -z $CPU_MEASURE ]]; then
    echo; echo "targets: skipped (needs perf or GNU time for CPU time)"
  else
    declare -A N=([baseline]=$GAMES [pass-the-pandas]=$(( GAMES / 2 )) [hai-noon]=$(( GAMES / 50 + 1 ))
                  [hao-hao]=$(( GAMES / 200 + 1 )) [pandas-off]=$(( GAMES / 2 )))
    ARMS=(baseline pass-the-pandas hai-noon hao-hao pandas-off)
    for (( r = 1; r <= ROUNDS; r++ )); do
      line="targets round $r/$ROUNDS (games/CPU s):"
      for arm in "${ARMS[@]}"; do
        n=${N[$arm]}
        case $arm in
          baseline) cmd=(lua5.4 "$BASELINE" "$n" "$r" "$PLAYERS") ;;
          pandas-off) cmd=("$RULEBOOK" simulate pass-the-pandas --players "$PLAYERS" --games "$n" --seed "$r"
                           --max-seconds 0 --max-instructions 0) ;;
          *) cmd=("$RULEBOOK" simulate "$arm" --players "$PLAYERS" --games "$n" --seed "$r") ;;
        esac
        sec=$(cpu_seconds "${cmd[@]}") || { echo "run.sh: targets run failed: ${cmd[*]}" >&2; exit 1; }
        awk -v n="$n" -v s="$sec" 'BEGIN { printf "%.3f\n", n / s }' >>"$TMP/t.$arm"
        line+=" $arm $(tail -n1 "$TMP/t.$arm")"
      done
      echo "$line" >&2
    done
    med() { read -r m _ _ < <(stats "$1"); echo "$m"; }
    base=$(med "$TMP/t.baseline")
    echo
    echo "targets ($(date -u '+%Y-%m-%d'), nproc=$(nproc), $(cpu_model); measure: $CPU_MEASURE, medians of $ROUNDS interleaved rounds)"
    printf '| %-44s | %-22s | %-9s | %-4s |\n' what measured target met
    printf '| %-44s | %-22s | %-9s | %-4s |\n' --- --- --- ---
    target_row() { # WHAT MEASURED TARGET MET(1/0)
      printf '| %-44s | %-22s | %-9s | %-4s |\n' "$1" "$2" "$3" "$( (( $4 )) && echo yes || echo no)"
    }
    printf '| %-44s | %-22s | %-9s | %-4s |\n' "baseline lua5.4 (games per CPU s)" "$base" "" ""
    for g in pass-the-pandas:0.25 hai-noon:0.015 hao-hao:0.008; do
      name=${g%%:*} goal=${g#*:}
      gps=$(med "$TMP/t.$name")
      ratio=$(awk -v a="$gps" -v b="$base" 'BEGIN { printf "%.4f", a / b }')
      target_row "simulate $name --players $PLAYERS / baseline" "${ratio}x (${gps}/s)" ">= ${goal}x" \
        "$(awk -v r="$ratio" -v t="$goal" 'BEGIN { print (r >= t) }')"
    done
    on=$(med "$TMP/t.pass-the-pandas"); off=$(med "$TMP/t.pandas-off")
    cost=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.1f", (1 - a / b) * 100 }')
    target_row "budget's cost (Pandas, default vs off)" "${cost}%" "<= 3%" "$(awk -v c="$cost" 'BEGIN { print (c <= 3) }')"
    peak=0
    for g in pass-the-pandas hai-noon hao-hao; do
      kib=$(peak_rss "$RULEBOOK" simulate "$g" --players "$PLAYERS" --games "${N[$g]}" --seed 1)
      [[ $kib =~ ^[0-9]+$ ]] && (( kib > peak )) && peak=$kib
    done
    mib=$(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }')
    target_row "peak memory of simulate (largest game)" "${mib} MiB" "<= 16 MiB" "$(awk -v m="$mib" 'BEGIN { print (m > 0 && m <= 16) }')"
  fi
fi
(( ENGINE_BROKEN )) && exit 3
exit 0
