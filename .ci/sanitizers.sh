#!/usr/bin/env bash
# CI stage: the whole test suite built with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on). Any report fails the stage.
# Build tree: build-asan (kept apart from the Release tree in build/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRULEBOOK_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" "${launcher[@]}" >/dev/null
nice cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
# The mutation scores (ctest -R mutation) run the same scenarios the
# scenario tests run here, once a mutant: the Release stage checks them.
ctest --output-on-failure -j"$jobs" -E '^mutation\.'
