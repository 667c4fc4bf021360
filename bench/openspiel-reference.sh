#!/usr/bin/env bash
# OPTIONAL reference for issue 31: OpenSpiel's own C++ ISMCTS on OpenSpiel's
# Liar's Dice (its defaults: 2 players, one six-sided die each) against
# rulebook's `ismcts:iterations=1000` on rules/liars-dice (the same defaults),
# both timed the same way: seat 0 searches, seat 1 plays at random, games
# on seeds 1, 2, ... until DECISIONS decisions of seat 0 were timed, each
# run's median thread-CPU time of a decision, runs interleaved and pinned
# to core 0; prints the medians of the rounds and rulebook / OpenSpiel.
#
# Never needed to build or test rulebook (not in CMake, ctest or .ci/run).
# Nothing of OpenSpiel is kept in this repository: the script compiles the
# ~11 files it needs (core, games/liars_dice, algorithms/is_mcts, mcts)
# from YOUR checkout into a scratch directory, with two mechanical edits
# there (see below), and links them with the system's Abseil.
#
# Needs: g++ (C++17), pkg-config, Abseil with pkg-config files
# (Debian 12: apt-get install libabsl-dev, 20220623), nlohmann/json.hpp
# (Debian: nlohmann-json3-dev), git (only for --download).
#
# Usage:
#   bench/openspiel-reference.sh --openspiel DIR [--build BUILD_DIR] [--rounds N] [--decisions N]
#   bench/openspiel-reference.sh --download [--build BUILD_DIR] ...   (git clone --depth 1 of
#       https://github.com/google-deepmind/open_spiel into the scratch directory)
# DIR is the root of an OpenSpiel checkout (the folder holding open_spiel/).
# BUILD_DIR is rulebook's build (default build; bench_search_speed is built there).
# Takes about a minute to compile on one core, then ~1 s per round.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
os="" download=0 build=build rounds=7 decisions=15 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --openspiel) os=$2; shift 2 ;;
    --download) download=1; shift ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --decisions) decisions=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;  # scratch directory to use and keep (reused if it holds a build)
    *) echo "usage: $0 (--openspiel DIR | --download) [--build BUILD_DIR] [--rounds N] [--decisions N] [--keep DIR]" >&2; exit 2 ;;
  esac
done
if [ -n "$keep" ]; then tmp=$keep; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
if [ $download = 1 ]; then
  [ -d "$tmp/checkout/open_spiel" ] || git clone --depth 1 https://github.com/google-deepmind/open_spiel "$tmp/checkout"
  os=$tmp/checkout
fi
if [ -z "$os" ] || [ ! -f "$os/open_spiel/spiel.h" ]; then echo "need --openspiel DIR (an OpenSpiel checkout: DIR/open_spiel/spiel.h) or --download" >&2; exit 2; fi
pkg-config --exists absl_strings || { echo "Abseil's pkg-config files not found (Debian: apt-get install libabsl-dev)" >&2; exit 2; }
[ -f /usr/include/nlohmann/json.hpp ] || { echo "/usr/include/nlohmann/json.hpp not found (Debian: apt-get install nlohmann-json3-dev)" >&2; exit 2; }

exe=$tmp/ismcts_liars_dice
if [ ! -x "$exe" ]; then
  src=$tmp/src obj=$tmp/obj
  rm -rf "$src" "$obj"; mkdir -p "$src" "$obj"
  (cd "$os" && tar -cf - open_spiel/*.h open_spiel/*.cc open_spiel/utils/*.h open_spiel/utils/*.cc \
      open_spiel/games/liars_dice open_spiel/algorithms/is_mcts.* open_spiel/algorithms/mcts.*) | tar -xf - -C "$src"
  # The two edits for an older Abseil (Debian 12's 20220623; OpenSpiel pins
  # 20250814 since 2026-01): MutexLock takes a pointer there, and
  # absl::optional is its own type (Debian builds Abseil without
  # std::optional), while OpenSpiel's files mix it with std::optional.
  # Both edits are no-ops in meaning with a newer Abseil.
  find "$src/open_spiel" \( -name '*.h' -o -name '*.cc' \) -exec sed -i \
    -e 's/absl::MutexLock lock(\([A-Za-z_]*\));/absl::MutexLock lock(\&\1);/' \
    -e 's/absl::optional\b/std::optional/g; s/absl::nullopt/std::nullopt/g' {} +
  grep -q '#include <optional>' "$src/open_spiel/spiel_utils.h" ||
    sed -i '0,/#include </s//#include <optional>\n#include </' "$src/open_spiel/spiel_utils.h"
  # OpenSpiel includes Abseil and nlohmann as open_spiel/abseil-cpp/absl/...
  # and open_spiel/json/include/nlohmann/...: point both at the system's.
  rm -rf "$src/open_spiel/abseil-cpp" "$src/open_spiel/json"
  ln -s /usr/include "$src/open_spiel/abseil-cpp"
  mkdir -p "$src/open_spiel/json" && ln -s /usr/include "$src/open_spiel/json/include"
  files="spiel.cc spiel_utils.cc game_parameters.cc observer.cc policy.cc spiel_bots.cc
         utils/status.cc utils/usage_logging.cc games/liars_dice/liars_dice.cc
         algorithms/is_mcts.cc algorithms/mcts.cc"
  echo "compiling OpenSpiel's core, Liar's Dice and ISMCTS from $os (-j2) ..." >&2
  cp "$here/openspiel/ismcts_liars_dice.cc" "$src/driver.cc"
  # shellcheck disable=SC2016  # $1..$3 are expanded by the inner sh
  { for f in $files; do echo "$src/open_spiel/$f"; done; echo "$src/driver.cc"; } |
    xargs -P2 -I{} sh -c 'g++ -std=c++17 -O2 -DNDEBUG -I"$1" -c "$2" -o "$3/$(echo "$2" | tr / _).o"' _ "$src" {} "$obj"
  # shellcheck disable=SC2046
  g++ -o "$exe" "$obj"/*.o $(pkg-config --libs absl_strings absl_str_format absl_synchronization \
      absl_random_random absl_random_distributions absl_flat_hash_map absl_flat_hash_set \
      absl_node_hash_map absl_btree absl_time absl_hash absl_span absl_optional)
fi

cmake --build "$build" --target bench_search_speed >/dev/null
pin() { if command -v taskset >/dev/null; then taskset -c 0 "$@"; else "$@"; fi; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
: >"$tmp/os.txt"; : >"$tmp/osfirst.txt"; : >"$tmp/rb.txt"
for r in $(seq 1 "$rounds"); do
  line=$(pin "$exe" "$decisions" 1000 | tail -1)
  echo "$line" | awk '{print $3}' >>"$tmp/os.txt"
  echo "$line" | awk '{print $4}' >>"$tmp/osfirst.txt"
  pin "$build/bench_search_speed" "ismcts:iterations=1000" 2 "$decisions" liars-dice 2>/dev/null |
    awk '$1=="liars-dice" {print $4}' >>"$tmp/rb.txt"
  echo "round $r: OpenSpiel $(tail -1 "$tmp/os.txt") s, rulebook $(tail -1 "$tmp/rb.txt") s" >&2
done
o=$(median <"$tmp/os.txt") f=$(median <"$tmp/osfirst.txt") b=$(median <"$tmp/rb.txt")
echo "| Liar's Dice, 2 players, ismcts 1,000 simulations, $decisions decisions x $rounds rounds | OpenSpiel $o s (first decision of a game $f s) | rulebook $b s | rulebook/OpenSpiel $(awk -v a="$b" -v b="$o" 'BEGIN {printf "%.1fx", a/b}') |"
