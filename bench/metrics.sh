#!/usr/bin/env bash
# The cost of the metrics of how games felt (docs/judging-a-rule.md) in
# plain `simulate`: CPU seconds of `simulate --no-metrics` against the
# default (metrics on), interleaved, ROUNDS rounds, medians and their
# ratio, on (1) Pass the Pandas, which gives rules.evaluate (one call per
# seat and decision), and (2) a game that gives neither rules.evaluate nor
# scores (made here: two seats decide 20 times each), where the metrics
# read only who decides and who is out.
#
#   bench/metrics.sh [RULEBOOK] [GAMES] [ROUNDS]   (defaults: build/cli/rulebook 20000 5)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=${1:-build/cli/rulebook}
GAMES=${2:-20000}
ROUNDS=${3:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source bench/cpu_time.sh
[[ -n "$CPU_MEASURE" ]] || { echo "metrics.sh: needs perf or GNU time" >&2; exit 2; }
mkdir -p "$TMP/plain"
cat > "$TMP/plain/game.yaml" <<'YAML'
name: plain
title: Plain
players: {min: 2, max: 2, default: 2}
script: rules.lua
YAML
cat > "$TMP/plain/rules.lua" <<'LUA'
local rules = {}
function rules.setup(game) end
function rules.play(game)
  local total = 0
  for i = 1, 20 do
    total = total + game:choose(0, "Pick", {1, 2})
    total = total - game:choose(1, "Pick", {1, 2})
  end
  game:finish{winners = {total >= 0 and 0 or 1}}
end
return rules
LUA
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for game in pass-the-pandas "$TMP/plain"; do
  : > "$TMP/on"; : > "$TMP/off"
  for ((r = 0; r < ROUNDS; r++)); do
    cpu_seconds "$RULEBOOK" simulate "$game" --games "$GAMES" --no-metrics >> "$TMP/off"
    cpu_seconds "$RULEBOOK" simulate "$game" --games "$GAMES" >> "$TMP/on"
  done
  off=$(median < "$TMP/off"); on=$(median < "$TMP/on")
  printf '%-16s %d games: --no-metrics %.3f s, metrics %.3f s CPU (medians of %d, %s); ratio %.2f\n' \
    "$(basename "$game")" "$GAMES" "$off" "$on" "$ROUNDS" "$CPU_MEASURE" "$(awk -v a="$on" -v b="$off" 'BEGIN { print a / b }')"
done
