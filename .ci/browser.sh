#!/usr/bin/env bash
# CI stage: the web table in a real browser. `rulebook serve hai-noon
# --players 2` in Debian's headless chromium, driven by puppeteer-core (npm,
# pinned by tests/browser/package-lock.json): both seats' pages play a
# whole game by clicking, neither ever shows the other's hand, both show the
# result, the server's log replays. Screenshots of both pages land in OUT.
#
#   .ci/browser.sh [RULEBOOK]     (default build/cli/rulebook; OUT=DIR, default build/browser)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=$(realpath "${1:-build/cli/rulebook}")
OUT=$(realpath -m "${OUT:-build/browser}")
start=$(date +%s)
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
node tests/browser/play_hai_noon.mjs "$RULEBOOK" "$OUT" "${SEED:-7}"
echo "browser.sh: a whole Hai Noon game played in chromium in $(( $(date +%s) - start )) s"
