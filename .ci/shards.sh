#!/usr/bin/env bash
# CI stage: one simulation split in 4 shards run under GNU parallel (the
# recipe of docs/simulating-at-scale.md), merged, and checked against the
# same run on one machine: everything but the "time:" line must be equal.
#
#   .ci/shards.sh [RULEBOOK]     (default build/cli/rulebook; GAMES=N overrides the 20000 games)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=$(realpath "${1:-build/cli/rulebook}")
GAMES=${GAMES:-20000}
command -v parallel >/dev/null || { echo "shards.sh: GNU parallel is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run=(simulate hai-noon --players 4 --games "$GAMES" --seed 42 --variant short)
start=$(date +%s%N)
parallel --will-cite --halt now,fail=1 "$RULEBOOK" "${run[@]}" --shard {}/4 --out "$work/part{}.json" ::: 0 1 2 3
"$RULEBOOK" merge "$work"/part*.json > "$work/merged.txt"
"$RULEBOOK" merge "$work"/part*.json --json > "$work/merged.json"
end=$(date +%s%N)
"$RULEBOOK" "${run[@]}" --jobs 2 > "$work/single.txt"
if ! diff <(grep -v '^time:' "$work/merged.txt") <(grep -v '^time:' "$work/single.txt"); then
  echo "shards.sh: the merged shards differ from the single run" >&2
  exit 1
fi
cat "$work/merged.txt"
awk -v ns=$((end - start)) 'BEGIN { printf "shards.sh: 4 shards under GNU parallel merged to the single run (%.1f s)\n", ns / 1e9 }'
