#!/usr/bin/env bash
# Search speed before and after a change (issue 31): for each game, the
# median CPU time of one `ismcts:iterations=1000` decision (seat 0 searching,
# the others random) and iterations per CPU second, by two builds run
# interleaved (before, after, before, ...) and pinned to core 0; then the
# median CPU time of a fork at mid-game (after only). Prints a markdown
# table of the medians of the rounds and their ratios.
# The two sides may also be one build with two bot specifications (e.g.
# --before-spec ismcts:iterations=1000,checkpoint=0: replays against
# checkpoints).
# Usage: bench/search_compare.sh --before BUILD_DIR [--after BUILD_DIR] [--rounds N]
#                                [--before-spec SPEC] [--after-spec SPEC]
set -euo pipefail
before="" after=build rounds=5
before_spec="ismcts:iterations=1000" after_spec="ismcts:iterations=1000"
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --before-spec) before_spec=$2; shift 2 ;;
    --after-spec) after_spec=$2; shift 2 ;;
    *) echo "usage: $0 --before BUILD_DIR [--after BUILD_DIR] [--rounds N] [--before-spec SPEC] [--after-spec SPEC]" >&2
       exit 2 ;;
  esac
done
[ -n "$before" ] || { echo "--before BUILD_DIR is required (a build of the older commit, or the same build with --before-spec)" >&2; exit 2; }
cmake --build "$after" --target bench_search_speed bench_fork_speed >/dev/null
pin() { if command -v taskset >/dev/null; then taskset -c 0 "$@"; else "$@"; fi; }
# game players decisions
plan=("pass-the-pandas 3 9" "hai-noon 2 9" "hai-noon 4 9" "hao-hao 2 5" "liars-dice 2 15" "old-maid 2 9" "goofspiel 2 9")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq 1 "$rounds"); do
  for line in "${plan[@]}"; do
    read -r game players decisions <<<"$line"
    for side in before after; do
      dir=$before spec=$before_spec; [ $side = after ] && dir=$after spec=$after_spec
      pin "$dir/bench_search_speed" "$spec" "$players" "$decisions" "$game" | tail -1 |
        awk -v s=$side -v g="$game" -v p="$players" '{print g, p, s, $4, $5}' >>"$tmp/runs"
    done
  done
  echo "round $r of $rounds done" >&2
done
pin "$after/bench_fork_speed" 21 pass-the-pandas:4 hai-noon:2 hai-noon:4 hao-hao:4 liars-dice:2 >"$tmp/forks"
echo "| game | players | decision s before | after | after/before | iterations/CPU-s before | after | after/before |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for line in "${plan[@]}"; do
  read -r game players decisions <<<"$line"
  med() { awk -v g="$game" -v p="$players" -v s="$1" -v c="$2" '$1==g && $2==p && $3==s {print $c}' "$tmp/runs" |
          sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
  bs=$(med before 4) as=$(med after 4) bi=$(med before 5) ai=$(med after 5)
  awk -v g="$game" -v p="$players" -v bs="$bs" -v as="$as" -v bi="$bi" -v ai="$ai" 'BEGIN {
    printf "| %s | %s | %.4f | %.4f | %.2fx | %.0f | %.0f | %.2fx |\n", g, p, bs, as, as/bs, bi, ai, ai/bi }'
done
echo
echo "Fork at mid-game (after; median of 21, µs of CPU):"
echo
cat "$tmp/forks"
