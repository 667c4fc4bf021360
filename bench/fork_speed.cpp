// Forks at mid-game: for each game, Match::fork() of a game stopped at the
// middle of its answers (random answers from a fixed stream), the median
// CPU time of several forks (a replay from the start, as the determinizer's
// replays are); and the checkpoint of the same position (GameCheckpoint):
// the median CPU time of a restore after the game was played on to its end
// (what a search iteration pays instead of the replay), of a save, and the
// heap bytes a restore copies.
// Built on demand: cmake --build build --target bench_fork_speed; run by
// bench/search_compare.sh.
//
//   bench_fork_speed [REPEATS] [GAME:PLAYERS...]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cpu_clock.hpp"
#include "core/rng.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using rulebook::bench::thread_cpu;

namespace {

// Plays `match` from its start, answering from a fixed stream, until
// `cut` answers were given (true: a decision waits) or the game is over.
bool play_to(Match& match, int players, uint64_t seed, size_t cut) {
  Rng pick;
  pick.reseed(seed, 99);
  bool pending = match.start(players, seed);
  while (pending && match.answers().size() < cut)
    pending = match.answer(static_cast<int>(pick.below(static_cast<uint32_t>(match.pending().count()))));
  return pending;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::stoi(argv[1]) : 21;
  std::vector<std::string> specs;
  for (int i = 2; i < argc; ++i) specs.push_back(argv[i]);
  if (specs.empty()) specs = {"pass-the-pandas:4", "hai-noon:2", "hai-noon:4", "hao-hao:4", "liars-dice:2"};
  std::printf("%-16s %7s %8s %14s %17s %14s %9s\n", "game", "players", "answers", "fork µs CPU", "restore µs CPU",
              "save µs CPU", "heap KiB");
  for (const auto& spec : specs) {
    const auto colon = spec.find(':');
    const std::string game = spec.substr(0, colon);
    const int players = colon == std::string::npos ? 4 : std::stoi(spec.substr(colon + 1));
    auto def = load_game(game);
    Match match(def);
    match.record_answers();
    // A seed whose game asks at least 6 answers, stopped at half of them.
    uint64_t seed = 3;
    while (play_to(match, players, seed, SIZE_MAX), match.answers().size() < 6 && seed < 50) ++seed;
    const size_t cut = match.answers().size() / 2;
    if (!play_to(match, players, seed, cut)) {
      std::printf("%-16s %7d   (no decision at mid-game)\n", game.c_str(), players);
      continue;
    }
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
      const double t0 = thread_cpu();
      auto fork = match.fork();
      times.push_back(thread_cpu() - t0);
      if (fork->pending_seat() != match.pending_seat()) {
        std::fprintf(stderr, "%s: the fork stands elsewhere\n", game.c_str());
        return 1;
      }
    }
    // The checkpoint: saved at the same decision, restored after each
    // playing-on to the end (random answers, a new stream each time).
    std::vector<double> saves, restores;
    GameCheckpoint saved;
    for (int r = 0; r < repeats; ++r) {
      const double t0 = thread_cpu();
      match.save(saved);
      saves.push_back(thread_cpu() - t0);
    }
    for (int r = 0; r < repeats; ++r) {
      Rng on;
      on.reseed(seed, 1000 + static_cast<uint64_t>(r));
      bool pending = true;
      while (pending) pending = match.answer(static_cast<int>(on.below(static_cast<uint32_t>(match.pending().count()))));
      const double t0 = thread_cpu();
      match.restore(saved);
      restores.push_back(thread_cpu() - t0);
      if (match.answers().size() != cut) {
        std::fprintf(stderr, "%s: the restored game stands elsewhere\n", game.c_str());
        return 1;
      }
    }
    std::printf("%-16s %7d %8zu %14.1f %17.1f %14.1f %9.0f\n", game.c_str(), players, cut, median(times) * 1e6,
                median(restores) * 1e6, median(saves) * 1e6, static_cast<double>(saved.heap_bytes()) / 1024);
  }
  return 0;
}
