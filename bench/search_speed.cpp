// Search bots' speed: for each bundled game, the median CPU time of one
// decision of a search bot and its iterations per CPU second; and the
// 4-player Hai Noon decision of ismcts:iterations=1000 (issue 14's target:
// under 1 s on one core). Built on demand: cmake --build build --target
// bench_search_speed; run by bench/search.sh.
//
//   bench_search_speed [SPEC] [PLAYERS] [DECISIONS] [GAME...]
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cpu_clock.hpp"
#include "play/match.hpp"
#include "bots/agent_factory.hpp"
#include "bots/search_agent.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using rulebook::bench::thread_cpu;

namespace {

struct Stop : AgentFailure {
  Stop() : AgentFailure("enough") {}
};

// Times each decision of the search bot it wraps; stops after `limit`.
class Timed : public Agent {
 public:
  Timed(std::unique_ptr<Agent> inner, size_t limit) : inner_(std::move(inner)), limit_(limit) {}
  std::string kind() const override { return inner_->kind(); }
  void begin_game(uint64_t s, Seat seat) override { inner_->begin_game(s, seat); }
  bool wants_events() const override { return inner_->wants_events(); }
  void observe(const nlohmann::json& e) override { inner_->observe(e); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { inner_->attach(g); }
  int choose(const Decision& d) override {
    if (seconds.size() >= limit_) throw Stop();
    const double t0 = thread_cpu();
    const int i = inner_->choose(d);
    seconds.push_back(thread_cpu() - t0);
    return i;
  }
  std::vector<double> seconds;
  const Agent& inner() const { return *inner_; }

 private:
  std::unique_ptr<Agent> inner_;
  size_t limit_;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc > 1 ? argv[1] : "ismcts:iterations=1000";
  const int wanted_players = argc > 2 ? std::stoi(argv[2]) : 4;
  const size_t decisions = argc > 3 ? static_cast<size_t>(std::stoul(argv[3])) : 15;
  std::vector<std::string> games;
  for (int i = 4; i < argc; ++i) games.push_back(argv[i]);
  if (games.empty()) games = list_games();
  std::printf("%-16s %7s %9s %12s %14s %12s\n", "game", "players", "decisions", "median s", "iterations/s", "rejections");
  for (const auto& game : games) {
    auto def = load_game(game);
    const int players = std::clamp(wanted_players, def->min_players, def->max_players);
    std::vector<double> all;
    long iterations = 0, rejections = 0;
    double seconds = 0;
    // Seat 0 searches, the others play at random; several seeds until
    // enough decisions were timed.
    for (uint64_t seed = 1; all.size() < decisions && seed < 50; ++seed) {
      Match match(def);
      auto timed = std::make_unique<Timed>(build_agent(spec), decisions - all.size());
      Timed* t = timed.get();
      match.set_agent(Seat{0}, std::move(timed));
      for (Seat s : Seat::range(1, players)) match.set_agent(s, std::make_unique<RandomAgent>());
      try {
        match.play(players, seed);
      } catch (const AgentFailure&) {  // enough decisions timed (the type does not cross Lua)
      }
      all.insert(all.end(), t->seconds.begin(), t->seconds.end());
      const SearchStats* st = search_stats(t->inner());
      iterations += st->iterations;
      rejections += st->rejections;
      for (double s : t->seconds) seconds += s;
    }
    std::printf("%-16s %7d %9zu %12.4f %14.0f %12ld\n", game.c_str(), players, all.size(), median(all),
                seconds > 0 ? static_cast<double>(iterations) / seconds : 0.0, rejections);
  }
  return 0;
}
