// How much the decisions of a game matter: plays games at random and, at
// every decision, plays each option on from there (the true state: no
// hidden information is resampled) in ROLLOUTS games, random after the
// option, with the same chance seeds for every option (common random
// numbers), and reports the deciding seat's win rate per option. The
// spread between its best and worst option is what the choice is worth to
// a player who knows it; a game whose spreads are near 0 is decided by
// chance, whatever the players do. Built on demand: cmake --build build
// --target bench_decision_value.
//
//   bench_decision_value GAME [PLAYERS] [GAMES] [ROLLOUTS] [SEED]
#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <string>
#include <vector>

#include "play/match.hpp"
#include "determinize/determinizer.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// The option first, then random answers from the rollout's own stream.
class ThenRandom : public SimulationPolicy {
 public:
  ThenRandom(int option, uint64_t seed) : option_(option) { rng_.reseed(seed, kAgentStream); }
  int choose(const Decision& d, GameState&) override {
    if (!used_) {
      used_ = true;
      return option_;
    }
    return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count())));
  }

 private:
  int option_;
  bool used_ = false;
  Rng rng_;
};

struct Spread {
  std::vector<double> spreads;  // best - worst option's win rate, per decision
  long decisions = 0, games = 0;
  long mattered = 0;  // decisions whose spread exceeds twice its standard error
  long judged = 0, agreed = 0;  // of those, where rules.evaluate one decision deep picks the rollouts' best
};

// Asks the probe at every decision of every seat, then answers at random.
class Prober : public Agent {
 public:
  Prober(std::shared_ptr<const GameDefinition> def, int rollouts, Spread& out)
      : det_(std::move(def)), rollouts_(rollouts), out_(out) {}
  std::string kind() const override { return "prober"; }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { truth_ = g; }
  void begin_game(uint64_t seed, Seat) override { rng_.reseed(seed, kAgentStream); }
  int choose(const Decision& d) override {
    ++out_.decisions;
    std::vector<std::string> labels;
    for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
    det_.prepare(*truth_, d.seat(), {}, labels);
    const std::vector<int> identities = truth_->true_identities();
    std::vector<double> rate;
    std::vector<std::vector<double>> reward(static_cast<size_t>(d.count()));
    for (int option = 0; option < d.count(); ++option) {
      double wins = 0;
      for (int k = 0; k < rollouts_; ++k) {
        ThenRandom policy(option, static_cast<uint64_t>(k) * 7919 + 1);
        double r = 0;
        if (det_.simulate(identities, static_cast<uint64_t>(k) + 1, policy, true) == Determinizer::Outcome::Finished)
          r = det_.rewards()[d.seat().index()];
        reward[static_cast<size_t>(option)].push_back(r);
        wins += r;
      }
      rate.push_back(wins / rollouts_);
    }
    const size_t lo = static_cast<size_t>(std::min_element(rate.begin(), rate.end()) - rate.begin());
    const size_t hi = static_cast<size_t>(std::max_element(rate.begin(), rate.end()) - rate.begin());
    const double spread = rate[hi] - rate[lo];
    out_.spreads.push_back(spread);
    // The paired difference's standard error (the same chance seeds).
    double sq = 0;
    for (int k = 0; k < rollouts_; ++k) {
      const double diff = reward[hi][static_cast<size_t>(k)] - reward[lo][static_cast<size_t>(k)] - spread;
      sq += diff * diff;
    }
    const double se = std::sqrt(sq / (rollouts_ - 1) / rollouts_);
    if (spread > 2 * se && spread > 0) {
      ++out_.mattered;
      // What greedy would pick: the option whose position one decision
      // later the game's evaluation rates best for the seat deciding.
      std::vector<double> value;
      for (int option = 0; option < d.count(); ++option) {
        OneStepPolicy step(option);
        const auto outcome = det_.simulate(identities, 1, step, true);
        std::optional<double> v;
        if (outcome == Determinizer::Outcome::Finished || outcome == Determinizer::Outcome::Cutoff)
          v = det_.evaluation(d.seat());
        value.push_back(v ? *v : -1);
      }
      if (*std::max_element(value.begin(), value.end()) >= 0) {
        ++out_.judged;
        if (value[hi] >= *std::max_element(value.begin(), value.end()) - 1e-12) ++out_.agreed;
      }
    }
    return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count())));
  }

 private:
  Determinizer det_;
  int rollouts_;
  Spread& out_;
  const GameAccess* truth_ = nullptr;
  Rng rng_;
};

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_decision_value GAME [PLAYERS] [GAMES] [ROLLOUTS] [SEED]\n");
    return 2;
  }
  auto def = load_game(argv[1]);
  const int players = argc > 2 ? std::stoi(argv[2]) : def->default_players;
  const int games = argc > 3 ? std::stoi(argv[3]) : 20;
  const int rollouts = argc > 4 ? std::stoi(argv[4]) : 200;
  const uint64_t seed = argc > 5 ? std::stoull(argv[5]) : 1;
  Spread spread;
  for (int g = 0; g < games; ++g) {
    Match match(def);
    match.record_answers();
    std::vector<std::unique_ptr<Prober>> probers;
    std::vector<Agent*> seats;
    for (Seat s : Seat::all(players)) {
      probers.push_back(std::make_unique<Prober>(def, rollouts, spread));
      seats.push_back(probers.back().get());
    }
    match.set_agents(seats);
    match.play(players, seed + static_cast<uint64_t>(g));
    ++spread.games;
  }
  double mean = 0;
  for (double s : spread.spreads) mean += s;
  if (!spread.spreads.empty()) mean /= static_cast<double>(spread.spreads.size());
  std::printf("%s, %d players, %ld games, %d rollouts per option\n", argv[1], players, spread.games, rollouts);
  std::printf("decisions per game: %.2f\n", static_cast<double>(spread.decisions) / static_cast<double>(spread.games));
  std::printf("win-rate spread between the best and worst option: mean %.3f, median %.3f, 90th percentile %.3f\n",
              mean, quantile(spread.spreads, 0.5), quantile(spread.spreads, 0.9));
  std::printf("decisions whose spread exceeds two standard errors: %ld of %ld\n", spread.mattered,
              spread.decisions);
  std::printf("of those, rules.evaluate one decision deep rates the rollouts' best option best: %ld of %ld\n",
              spread.agreed, spread.judged);
  return 0;
}
