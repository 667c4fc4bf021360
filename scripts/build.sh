#!/usr/bin/env bash
# Configures and builds rulebook (Release) in ./build.
# With arguments, builds only those targets (scripts/demo.sh builds just
# `rulebook`, so the first look does not wait for the tests); without,
# everything: the CLI, the tests and the man page.
set -euo pipefail
cd "$(dirname "$0")/.."
# The compiler cache, where the machine has one: paths relative to the
# checkout, so that another clone of the project reuses what this one built.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
