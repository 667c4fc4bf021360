#!/usr/bin/env bash
# Configures and builds rulebook (Release) in ./build.
# With arguments, builds only those targets (scripts/demo.sh builds just
# `rulebook`, so the first look does not wait for the tests); without,
# everything: the CLI, the tests and the man page.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
