#!/usr/bin/env bash
# Benchmark: how strong the bots are, per bundled game at 2 players (issue
# 14, "Strength and speed"). Not a timed test: it plays arenas and prints a
# markdown table of win rates with their 95% intervals, ratings and mean
# decision times, for README and bench/README.
#
#   bench/bots.sh [--build DIR] [--games N] [--jobs J] [--seed S] [--games-list "g1 g2"]
#                 [--pairs "A|B A|B ..."]
#
# Defaults: --build build, --games 100 (a 95% interval at most about
# +-10 points wide around 50%), --jobs 2, --seed 1, every bundled game, and
# the pairs of the issue:
#   ismcts:iterations=1000 vs random, ismcts:iterations=1000 vs greedy,
#   mcts:iterations=1000 (PIMC) vs ismcts:iterations=1000
# Seats are swapped by the arena itself (each agent plays each seat equally
# often). Where full rollouts are slow, give the search bots a depth with
# the evaluation, e.g. --pairs "ismcts:iterations=1000,depth=20|random".
# Runs with `nice`; takes a long time with search bots (hours on 2 cores
# for the full table): start with --games 20 to see the shape.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD="$ROOT/build"
GAMES=100
JOBS=2
SEED=1
GAME_LIST=""
PAIRS="ismcts:iterations=1000|random ismcts:iterations=1000|greedy mcts:iterations=1000|ismcts:iterations=1000"
die() { echo "bots.sh: $*" >&2; exit 2; }
while (( $# )); do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --games-list) GAME_LIST=$2; shift 2 ;;
    --pairs) PAIRS=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
RULEBOOK="$BUILD/cli/rulebook"
[[ -x $RULEBOOK ]] || die "no $RULEBOOK: build first (scripts/build.sh)"
command -v jq >/dev/null || die "needs jq (apt-get install jq)"
[[ -n $GAME_LIST ]] || GAME_LIST=$("$RULEBOOK" list --json | jq -r '.[].name')

echo "Bots at 2 players, $GAMES games a pair (seats swapped), seed $SEED, $(date -u +%Y-%m-%d), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo
echo "| game | agent A | agent B | A's win rate (95% CI) | A's rating − B's (95% CI of A) | ms/decision A | ms/decision B | seconds |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for game in $GAME_LIST; do
  for pair in $PAIRS; do
    a=${pair%%|*}
    b=${pair#*|}
    json=$(nice "$RULEBOOK" arena "$game" --players 2 --games "$GAMES" --jobs "$JOBS" --seed "$SEED" \
             --agent "$a" --agent "$b" --json) || die "arena $game $a vs $b failed"
    jq -r --arg game "$game" '
      def pct: (. * 1000 | round) / 10 | tostring + "%";
      def ms: (. * 1000 * 100 | round) / 100 | tostring;
      .agents[0] as $a | .agents[1] as $b |
      "| \($game) | `\($a.label)` | `\($b.label)` | \($a.win_rate.estimate | pct) (\($a.win_rate.low | pct)–\($a.win_rate.high | pct)) | \(($a.rating.estimate - $b.rating.estimate) | round) (\($a.rating.low | round)..\($a.rating.high | round)) | \($a.mean_decision_seconds | ms) | \($b.mean_decision_seconds | ms) | \(.seconds | round) |"
    ' <<<"$json"
  done
done
