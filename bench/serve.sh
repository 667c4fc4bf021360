#!/usr/bin/env bash
# rulebook serve under a crowd (issue 32): 1,000 open spectator streams and
# 300 slowloris connections while four players play Hai Noon; prints the
# players' latency (p50, p99, max) and the server's memory. About a minute.
# Usage: bench/serve.sh [BUILD_DIR] [STREAMS] [SLOW] [REQUESTS]
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target rulebook bench_serve_load >/dev/null
"$build/bench_serve_load" "$build/cli/rulebook" "${2:-1000}" "${3:-300}" "${4:-1000}"
