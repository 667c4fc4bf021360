#!/usr/bin/env bash
# CI stage: builds the libFuzzer targets (tests/fuzz, clang, ASan+UBSan) and
# runs each one for FUZZ_SECONDS (default 30) from its seed corpus and
# dictionary. A crash, a leak, a hang (-timeout) or running out of memory
# fails the stage; the input is kept in build-fuzz/artifacts/ and must become
# a regression test (tests/fuzz/corpus/<target>/ and a unit test).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
seconds=${FUZZ_SECONDS:-30}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DRULEBOOK_FUZZ=ON -DBUILD_TESTING=OFF "${launcher[@]}" >/dev/null
targets=(yaml schema overlay replay lua lobby_request http_head)
nice cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p build-fuzz/artifacts
status=0
for t in "${targets[@]}"; do
  # The fuzzer writes what it finds to a scratch copy, never to the repo.
  work=build-fuzz/corpus-$t
  rm -rf "$work" && mkdir -p "$work"
  seeds=(tests/fuzz/corpus/"$t")
  case $t in
    yaml|schema|overlay) dict=yaml ;;
    replay|lobby_request) dict=json ;;
    http_head) dict=http ;;
    lua) dict=lua ;;
  esac
  # Every bundled game's files are seeds too for the YAML-reading targets.
  [[ $t == yaml || $t == overlay ]] && seeds+=(rules)
  echo "== fuzz_$t: $seconds s"
  if ! nice build-fuzz/tests/fuzz/fuzz_"$t" "$work" "${seeds[@]}" -dict=tests/fuzz/dict/$dict.dict \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=build-fuzz/artifacts/"$t"- -print_final_stats=1 2>build-fuzz/fuzz_"$t".log; then
    echo "fuzz_$t failed:" >&2
    tail -60 build-fuzz/fuzz_"$t".log >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' build-fuzz/fuzz_"$t".log || true
  fi
done
exit $status
