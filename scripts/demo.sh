#!/usr/bin/env bash
# The first quick-start command: install, build the `rulebook` command alone
# (not the tests: scripts/test.sh builds those), and play a narrated 4-bot
# game of Pass the Pandas.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --build-only
scripts/build.sh rulebook
exec build/cli/rulebook play pass-the-pandas --players 4 --seed 2026 "$@"
