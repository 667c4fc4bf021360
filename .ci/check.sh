#!/usr/bin/env bash
# CI stage: `rulebook check` on every bundled game (the conformance suite:
# every player count and variant set plays random games that must finish,
# replay, play alike in a reused and a fresh Lua state and leak nothing, and
# ismcts chooses alike in worlds a seat cannot tell apart; and every seat
# receives the same in worlds it cannot tell apart, the rules played again:
# the worlds test, about a third of the stage's CPU). 20 games a
# configuration: Hai Noon's card shown and hidden again (issue 28) needed
# seed 12 of 4 players, last-diver-swimming + long, to show.
#
#   .ci/check.sh [RULEBOOK]     (default build/cli/rulebook; GAMES=N overrides the 20 games per configuration)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=${1:-build/cli/rulebook}
GAMES=${GAMES:-20}
games=()
for dir in rules/*/; do
  [ -f "$dir/game.yaml" ] && games+=("${dir%/}")
done
start=$(date +%s)
"$RULEBOOK" check --games "$GAMES" --jobs 2 "${games[@]}"
echo "check.sh: ${#games[@]} games checked in $(( $(date +%s) - start )) s"
