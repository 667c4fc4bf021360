#!/usr/bin/env bash
# CI stage: `rulebook check` on every bundled game (the conformance suite:
# every player count and variant set plays random games that must finish,
# replay, play alike in a reused and a fresh Lua state and leak nothing).
#
#   .ci/check.sh [RULEBOOK]     (default build/cli/rulebook; GAMES=N overrides the 5 games per configuration)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=${1:-build/cli/rulebook}
GAMES=${GAMES:-5}
games=()
for dir in rules/*/; do
  [ -f "$dir/game.yaml" ] && games+=("${dir%/}")
done
start=$(date +%s)
"$RULEBOOK" check --games "$GAMES" --jobs 2 "${games[@]}"
echo "check.sh: ${#games[@]} games checked in $(( $(date +%s) - start )) s"
