// How well generic determinizations agree with what a seat saw, per game:
// at decisions of seat 0 (the others random), draws generic samples and
// counts how many would pass the rejection test the issue first proposed
// (a replay from the start with the sampled identities shows the seat
// exactly what it saw: Determinizer::replays_alike); with the game's
// sampling hint (rules.deal_unseen), the same for the hint's deals. Also
// the CPU time of one sample and its replay to the decision, generic
// (permuted at the decision, unchecked) and hinted (dealt from the start,
// checked). Built on demand: cmake --build build --target bench_sampling.
//
//   bench_sampling [PLAYERS] [DECISIONS] [SAMPLES] [GAME...]
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cpu_clock.hpp"
#include "play/match.hpp"
#include "determinize/determinizer.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using rulebook::bench::thread_cpu;

namespace {

struct Stop : SimulationPolicy {
  int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
};

struct Tally {
  long decisions = 0, samples = 0, generic_alike = 0, dealt = 0, dealt_alike = 0;
  double generic_seconds = 0, hinted_seconds = 0;
  long generic_runs = 0, hinted_runs = 0;
};

struct Enough : AgentFailure {
  Enough() : AgentFailure("enough") {}
};

class Probe : public Agent {
 public:
  Probe(std::shared_ptr<const GameDefinition> def, int samples, long limit, Tally& t)
      : det_(std::move(def)), samples_(samples), limit_(limit), t_(t) {}
  std::string kind() const override { return "probe"; }
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& e) override { observed_.push_back(e); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { truth_ = g; }
  void begin_game(uint64_t seed, Seat) override {
    rng_.reseed(seed, kAgentStream);
    observed_.clear();
  }
  int choose(const Decision& d) override {
    if (t_.decisions >= limit_) throw Enough();
    std::vector<std::string> labels;
    for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
    det_.prepare(*truth_, Seat{0}, observed_, labels);
    if (!det_.unobserved().empty()) {
      ++t_.decisions;
      Stop stop;
      for (int k = 0; k < samples_; ++k) {
        const Sample s = det_.sample(rng_);
        ++t_.samples;
        if (det_.replays_alike(s.identities)) ++t_.generic_alike;
        if (!s.dealt.empty()) {
          ++t_.dealt;
          if (det_.replays_alike(s.dealt)) ++t_.dealt_alike;
        }
        // The cost of a sample with its replay, as the search pays it.
        double t0 = thread_cpu();
        det_.simulate(s.identities, 1, stop);
        t_.generic_seconds += thread_cpu() - t0;
        ++t_.generic_runs;
        if (!s.dealt.empty()) {
          t0 = thread_cpu();
          det_.simulate(s, 1, stop);
          t_.hinted_seconds += thread_cpu() - t0;
          ++t_.hinted_runs;
        }
      }
    }
    return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count())));
  }

 private:
  Determinizer det_;
  int samples_;
  long limit_;
  Tally& t_;
  const GameAccess* truth_ = nullptr;
  std::vector<nlohmann::json> observed_;
  Rng rng_;
};

}  // namespace

int main(int argc, char** argv) {
  const int wanted_players = argc > 1 ? std::stoi(argv[1]) : 3;
  const long decisions = argc > 2 ? std::stol(argv[2]) : 20;
  const int samples = argc > 3 ? std::stoi(argv[3]) : 50;
  std::vector<std::string> games;
  for (int i = 4; i < argc; ++i) games.push_back(argv[i]);
  if (games.empty()) games = list_games();
  std::printf("%-16s %7s %9s %8s %16s %8s %15s %14s %14s\n", "game", "players", "decisions", "samples",
              "generic alike %", "dealt", "dealt alike %", "generic us", "hinted us");
  for (const auto& game : games) {
    auto def = load_game(game);
    const int players = std::clamp(wanted_players, def->min_players, def->max_players);
    Tally t;
    for (uint64_t seed = 1; t.decisions < decisions && seed < 200; ++seed) {
      Match match(def);
      match.set_agent(Seat{0}, std::make_unique<Probe>(def, samples, decisions, t));
      for (Seat s : Seat::range(1, players)) match.set_agent(s, std::make_unique<RandomAgent>());
      try {
        match.play(players, seed);
      } catch (const std::exception&) {  // enough decisions probed
      }
    }
    auto pct = [](long a, long b) { return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0; };
    std::printf("%-16s %7d %9ld %8ld %16.1f %8ld %15.1f %14.0f %14.0f\n", game.c_str(), players, t.decisions, t.samples,
                pct(t.generic_alike, t.samples), t.dealt, pct(t.dealt_alike, t.dealt),
                t.generic_runs ? 1e6 * t.generic_seconds / static_cast<double>(t.generic_runs) : 0.0,
                t.hinted_runs ? 1e6 * t.hinted_seconds / static_cast<double>(t.hinted_runs) : 0.0);
  }
  return 0;
}
