#!/usr/bin/env bash
# CI stage: the web table in a real browser. `rulebook serve hai-noon
# --players 2` in Debian's headless chromium, driven by puppeteer-core (npm,
# pinned by tests/browser/package-lock.json): both seats' pages play a
# whole game by clicking, neither ever shows the other's hand, both show the
# result, the server's log replays. Then the lobby (`rulebook serve` with
# no game): a table opened on its page, played to its end on the people's
# pages, its log downloaded from the lobby's list replays; then two pages
# decide sealed bids at once (play_together.mjs); then the designer's report
# page (open_report.mjs). Then every bundled game's
# table on a phone (phone.mjs: 390 x 844, touch: no sideways scroll, the
# decision's buttons inside the screen and at least 44 px high, a tap
# answers; phone-GAME.png is the whole page, phone-GAME-screen.png what the
# phone shows first), and a game of Goofspiel at one screen (hot_seat.mjs:
# --hot-seat, "pass the device", no seat's secrets between seats; and
# hot_seat_lobby.mjs: the lobby's box for it, on a phone). Screenshots of
# the pages land in OUT; docs/web-table.png is hai-noon-seat-0.png and
# docs/web-table-phone.png phone-goofspiel-screen.png.
#
#   .ci/browser.sh [RULEBOOK]     (default build/cli/rulebook; OUT=DIR, default build/browser)
set -euo pipefail
cd "$(dirname "$0")/.."
RULEBOOK=$(realpath "${1:-build/cli/rulebook}")
OUT=$(realpath -m "${OUT:-build/browser}")
start=$(date +%s)
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
node tests/browser/play_hai_noon.mjs "$RULEBOOK" "$OUT" "${SEED:-7}"
node tests/browser/play_from_lobby.mjs "$RULEBOOK" "$OUT" "${SEED:-7}"
# Two browsers deciding at once (game:choose_together): sealed bids.
node tests/browser/play_together.mjs "$RULEBOOK" "$OUT"
# The designer's report (rulebook report): opened from the disk, no network,
# every figure equal to its JSON's, a screenshot kept (report.png).
node tests/browser/open_report.mjs "$RULEBOOK" "$OUT"
# Every bundled game's table on a phone; two people at one phone.
node tests/browser/phone.mjs "$RULEBOOK" "$OUT"
node tests/browser/hot_seat.mjs "$RULEBOOK" "$OUT"
# The same from the lobby's "Everybody at one screen" box, on a phone.
node tests/browser/hot_seat_lobby.mjs "$RULEBOOK" "$OUT"
echo "browser.sh: two whole Hai Noon games (one table opened from the lobby), a game of sealed bids, a report, every game on a phone and hot-seat games (one opened from the lobby) played in chromium in $(( $(date +%s) - start )) s"
