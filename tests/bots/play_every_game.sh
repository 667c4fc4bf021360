#!/usr/bin/env bash
# Plays a whole game of every bundled game with an example bot at every
# seat (examples/bots/), then replays each log: the bot protocol end to end.
#   play_every_game.sh RULEBOOK REPO INTERPRETER BOT
# Exits 77 (CTest: skipped) when the interpreter is not installed.
set -euo pipefail
rulebook=$1 repo=$2 interpreter=$3 bot=$4
if ! command -v "$interpreter" >/dev/null; then
  echo "SKIPPED: '$interpreter' is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for game in "$repo"/rules/*/; do
  name=$(basename "$game")
  [[ -f $game/game.yaml ]] || continue
  for seed in 1 2; do
    if ! "$rulebook" play "$game" --seed "$seed" --agent-timeout 20 \
         --agent "all=exec:$interpreter '$repo/examples/bots/$bot'" --log "$work/$name.json" >"$work/out" 2>"$work/err"; then
      echo "FAILED: $name (seed $seed) with $bot:"; cat "$work/err"; exit 1
    fi
    grep -q "exec:$interpreter" "$work/$name.json" || { echo "FAILED: $name's log does not name the bot"; exit 1; }
    "$rulebook" replay "$work/$name.json" >/dev/null || { echo "FAILED: $name's log does not replay"; exit 1; }
    echo "ok: $name (seed $seed): $(tail -n 1 "$work/out")"
  done
done
