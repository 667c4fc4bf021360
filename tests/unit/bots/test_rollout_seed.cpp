// A rollout never reads the true game's chance seed: past the seat's
// decision, the simulated game's state says the simulation's own seed
// (GameState::seed()), whichever way the sample reached the decision.
#include <catch2/catch.hpp>

#include <vector>

#include "determinize/determinizer.hpp"
#include "seat_decisions.hpp"

using namespace rulebook;

namespace {

constexpr uint64_t kTrueSeed = 1234567;
constexpr uint64_t kSimulationSeed = 99;

// A rollout policy that reads the state's seed (what a policy written to
// cheat would try), then cuts the game off.
struct SeedReader : SimulationPolicy {
  std::vector<uint64_t> seeds;
  int choose(const Decision&, GameState& state) override {
    seeds.push_back(state.seed());
    if (seeds.size() == 3) throw SearchCutoff();
    return 0;
  }
};

void check_seeds(const SeedReader& policy) {
  REQUIRE(!policy.seeds.empty());
  for (uint64_t seen : policy.seeds) {
    CHECK(seen != kTrueSeed);
    CHECK(seen == kSimulationSeed);
  }
}

}  // namespace

TEST_CASE("a rollout policy reads the simulation's seed, never the true game's", "[search][no-peek][seed]") {
  // Hao Hao: hinted deals (checked from the start, or applied at the saved
  // decision), generic draws (from the saved decision, or replayed when
  // checkpoints are off), and the oracle's true identities.
  for (bool checkpoints : {true, false}) {
    for (bool hint : {true, false}) {
      INFO("checkpoints " << checkpoints << ", hint " << hint);
      int simulated = 0;
      const int reached = test::at_seat0_decisions(
          "hao-hao", {}, 2, kTrueSeed, {4},
          [&](Determinizer& det, const Match& truth) {
            REQUIRE(truth.state().seed() == kTrueSeed);
            CHECK(det.restores() == checkpoints);
            Rng rng(3);
            for (bool checked : {true, false}) {
              Sample s = det.sample(rng);
              CHECK(s.dealt.empty() == !hint);
              s.checked = checked;
              SeedReader policy;
              CHECK(det.simulate(s, kSimulationSeed, policy) == Determinizer::Outcome::Cutoff);
              check_seeds(policy);
              ++simulated;
            }
            SeedReader oracle;
            CHECK(det.simulate(truth.true_identities(), kSimulationSeed, oracle, true) ==
                  Determinizer::Outcome::Cutoff);
            check_seeds(oracle);
            ++simulated;
          },
          hint, checkpoints);
      CHECK(reached == 1);
      CHECK(simulated == 3);
    }
  }
}
