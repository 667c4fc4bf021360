#!/usr/bin/env bash
# The second quick-start command (and what CI runs): install, build, and
# run the whole test suite with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)"
