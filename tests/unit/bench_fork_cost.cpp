// Fork cost at mid-game for each bundled game (README, "Performance").
// Hidden: a measurement, not a test (no timing assertions in tests). Run it:
//   build/tests/rulebook_tests "[.fork-cost]"
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Answers by a seeded stream until `cut` answers are given or the game ends.
bool play_to(Match& match, int players, uint64_t seed, size_t cut) {
  Rng pick;
  pick.reseed(seed, 99);
  bool pending = match.start(players, seed);
  while (pending && match.answers().size() < cut)
    pending = match.answer(static_cast<int>(pick.below(static_cast<uint32_t>(match.pending().count()))));
  return pending;
}

}  // namespace

TEST_CASE("fork cost at mid-game", "[.fork-cost]") {
  constexpr int kRepeats = 21;
  std::printf("%-16s %9s %14s %18s %10s\n", "game", "answers", "fork (µs CPU)", "new engine (µs CPU)", "ratio");
  for (const char* game : {"pass-the-pandas", "hai-noon", "hao-hao"}) {
    auto def = load_game(game);
    Match match(def);
    match.record_answers();
    play_to(match, 4, 3, SIZE_MAX);  // the whole game: how many answers it takes
    const size_t cut = match.answers().size() / 2;
    REQUIRE(play_to(match, 4, 3, cut));
    std::vector<double> fork_times, fresh_times;
    for (int r = 0; r < kRepeats; ++r) {
      double t0 = cpu_seconds();
      auto fork = match.fork();
      fork_times.push_back(cpu_seconds() - t0);
      REQUIRE(fork->pending().seat == match.pending().seat);
      // The old way: a new engine (Lua state, rules loaded), the answers replayed.
      t0 = cpu_seconds();
      Match fresh(def);
      bool pending = fresh.start(4, 3);
      for (const auto& a : match.answers()) pending = pending && fresh.answer(a.index);
      fresh_times.push_back(cpu_seconds() - t0);
      REQUIRE(pending);
    }
    const double f = median(fork_times) * 1e6, n = median(fresh_times) * 1e6;
    std::printf("%-16s %9zu %14.0f %18.0f %9.1fx\n", game, cut, f, n, n / f);
  }
}
