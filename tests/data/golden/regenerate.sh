#!/usr/bin/env bash
# Rewrites the expected logs and narrations of cases.txt with a built
# rulebook binary. Only for an intended change of the logs: say why in the
# commit. Usage: tests/data/golden/regenerate.sh BUILD/cli/rulebook
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
grep -v '^#' "$here/cases.txt" | while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  NO_COLOR=1 "$bin" play $args --log "$here/$name.log.json" > "$here/$name.out.txt" </dev/null
done
