#!/usr/bin/env bash
# Benchmark: how strong the bots are, per bundled game at 2 players (issue
# 14, "Strength and speed"). Not a timed test: it plays arenas and prints a
# markdown table of win rates with their 95% intervals, ratings, mean
# decision times and search iterations per second, for README and
# bench/README.
#
#   bench/bots.sh [--build DIR] [--games MAX] [--until-interval P] [--jobs J]
#                 [--seed S] [--out DIR] [--only REGEX] [--plan FILE]
#   bench/bots.sh --table DIR      (the table again from the JSON of a run)
#
# Each line of the plan is one arena:  GAME;ARENA OPTIONS;AGENT A;AGENT B
# (the default plan is below: every bundled game at 2 players,
# ismcts:iterations=1000 vs random and vs greedy, mcts (PIMC) vs ismcts;
# in Hai Noon and Hao Hao the two search bots play at 200 iterations each:
# a game of two searching bots near 50% needs ~100 games, which at 1000
# iterations is hours of CPU on the project's 2 cores).
# Seats are swapped by the arena itself (each agent plays each seat equally
# often). An arena stops as soon as both agents' 95% intervals are within
# +-P points (--until-interval, default 10: "arena --until-interval"), at
# most MAX games (default 300): a lopsided result needs far fewer games
# than one near 50% (about 96). Each arena's JSON is kept in --out (default
# BUILD/bench-bots). Runs with `nice`; --only REGEX keeps the plan lines
# that match.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD="$ROOT/build"
GAMES=300
UNTIL=10
JOBS=2
SEED=1
OUT=""
ONLY=""
PLAN_FILE=""
TABLE_ONLY=""
# Where full rollouts are slow (Hao Hao: a random game is ~90 turns, 3 ms),
# the search bots cut rollouts after `depth` decisions and score them with
# the game's rules.evaluate, as the issue allows. Pass the Pandas at 2
# players has no decision at all (a panda goes to the only other player):
# it is measured at 3 players, where passing is a choice.
DEFAULT_PLAN='
hao-hao;--players 2;ismcts:iterations=1000,depth=10;random
hai-noon;--players 2;ismcts:iterations=1000;random
pass-the-pandas;--players 2;ismcts:iterations=1000;random
pass-the-pandas;--players 3;ismcts:iterations=1000;random
old-maid;--players 2;ismcts:iterations=1000;random
hao-hao;--players 2;ismcts:iterations=1000,depth=10;greedy
hai-noon;--players 2;ismcts:iterations=1000;greedy
pass-the-pandas;--players 3;ismcts:iterations=1000;greedy
old-maid;--players 2;ismcts:iterations=1000;greedy
hao-hao;--players 2;mcts:iterations=200,depth=10;ismcts:iterations=200,depth=10
hai-noon;--players 2;mcts:iterations=200,depth=10;ismcts:iterations=200,depth=10
pass-the-pandas;--players 3;mcts:iterations=1000;ismcts:iterations=1000
old-maid;--players 2;mcts:iterations=1000,depth=10;ismcts:iterations=1000,depth=10
'
die() { echo "bots.sh: $*" >&2; exit 2; }
while (( $# )); do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --until-interval) UNTIL=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --plan) PLAN_FILE=$2; shift 2 ;;
    --table) TABLE_ONLY=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
command -v jq >/dev/null || die "needs jq (apt-get install jq)"

row() {  # one markdown row from an arena's JSON
  jq -r '
    def pct: (. * 1000 | round) / 10 | tostring;
    def ms: if . < 0.001 then (. * 1000 * 1000 | round) / 1000 else (. * 1000 * 10 | round) / 10 end | tostring;
    def ips: if . > 0 then (. | round | tostring) else "–" end;
    .agents[0] as $a | .agents[1] as $b |
    "| \(.game) | \(.players)\(if (.variants | length) > 0 then " +" + (.variants | join(" +")) else "" end) | `\($a.label)` | `\($b.label)` | \(.games) | \($a.win_rate.estimate | pct)% (\($a.win_rate.low | pct)–\($a.win_rate.high | pct)) | \(($a.rating.estimate - $b.rating.estimate) | round) | \($a.decisions) / \($b.decisions) | \($a.mean_decision_seconds | ms) / \($b.mean_decision_seconds | ms) | \($a.iterations_per_second | ips) / \($b.iterations_per_second | ips) | \(.seconds | round) |"
  ' "$1"
}
header() {
  echo "| game | players | agent A | agent B | games | A's win rate, 95% CI | rating A − B | decisions A / B | ms/decision A / B | iterations/s A / B | seconds |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
}

if [[ -n $TABLE_ONLY ]]; then
  header
  for f in "$TABLE_ONLY"/*.json; do row "$f"; done
  exit 0
fi

RULEBOOK="$BUILD/cli/rulebook"
[[ -x $RULEBOOK ]] || die "no $RULEBOOK: build first (scripts/build.sh)"
[[ -n $OUT ]] || OUT="$BUILD/bench-bots"
mkdir -p "$OUT"
PLAN=$DEFAULT_PLAN
[[ -z $PLAN_FILE ]] || PLAN=$(cat "$PLAN_FILE")

echo "Bots: at most $GAMES games an arena, stopped when both 95% intervals are within ±$UNTIL points; seats swapped; seed $SEED; $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
header
n=0
while IFS= read -r line; do
  [[ -n ${line// } && ${line:0:1} != "#" ]] || continue
  [[ -z $ONLY ]] || [[ $line =~ $ONLY ]] || continue
  IFS=';' read -r game opts a b <<<"$line"
  n=$((n + 1))
  file="$OUT/$(printf '%02d' "$n")-$game.json"
  # shellcheck disable=SC2086  # opts are arena options, split on purpose
  nice "$RULEBOOK" arena "$game" $opts --games "$GAMES" --until-interval "$UNTIL" --jobs "$JOBS" \
    --seed "$SEED" --agent "$a" --agent "$b" --json >"$file" || die "arena $game $opts $a vs $b failed"
  row "$file"
done <<<"$PLAN"
