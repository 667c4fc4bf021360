// OpenSpiel's own ISMCTS on its Liar's Dice, timed like rulebook's
// bench_search_speed: seat 0 searches, seat 1 plays at random, games on
// seeds 1, 2, ... until DECISIONS decisions of seat 0 were timed; prints the
// median thread-CPU time of a decision (all, first of a game, later ones)
// and simulations per CPU second. Optional reference for issue 31, built
// only by bench/openspiel-reference.sh against an OpenSpiel checkout; not
// part of rulebook's build.
//
//   ismcts_liars_dice [DECISIONS] [SIMULATIONS] [UCT_C]
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "open_spiel/algorithms/is_mcts.h"
#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

namespace {

double thread_cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// OpenSpiel's Liar's Dice does not implement State::ResampleFromInfostate,
// which its ISMCTS needs at every simulation: this one keeps the searching
// player's dice and the bids, and draws every other die uniformly (what
// rulebook's rules.deal_unseen hint does for its Liar's Dice).
std::unique_ptr<open_spiel::State> resample(const open_spiel::Game& game, int dice_each,
                                            const open_spiel::State& state, open_spiel::Player player,
                                            std::function<double()> rng) {
  std::unique_ptr<open_spiel::State> world = game.NewInitialState();
  const std::vector<open_spiel::Action> history = state.History();
  for (size_t i = 0; i < history.size(); ++i) {
    const bool own_die = static_cast<int>(i) / dice_each == player;
    if (world->IsChanceNode() && !own_die) {
      world->ApplyAction(open_spiel::SampleAction(world->ChanceOutcomes(), rng()).first);
    } else {
      world->ApplyAction(history[i]);
    }
  }
  return world;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t decisions = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 15;
  const int simulations = argc > 2 ? std::atoi(argv[2]) : 1000;
  // rulebook's ismcts default (docs/bots.md): UCB1 with c = sqrt 2.
  const double uct_c = argc > 3 ? std::atof(argv[3]) : std::sqrt(2.0);

  // OpenSpiel's defaults: 2 players, one six-sided die each.
  std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame("liars_dice");
  const int dice_each = game->GetParameters().at("numdice").int_value();
  std::vector<double> all, first, later;
  for (int seed = 1; all.size() < decisions && seed < 1000; ++seed) {
    // One random rollout per simulation, the most visited move at the root
    // (as rulebook's ismcts), every world sample allowed.
    auto evaluator = std::make_shared<open_spiel::algorithms::RandomRolloutEvaluator>(1, seed);
    open_spiel::algorithms::ISMCTSBot bot(seed, evaluator, uct_c, simulations,
                                          open_spiel::algorithms::kUnlimitedNumWorldSamples,
                                          open_spiel::algorithms::ISMCTSFinalPolicyType::kMaxVisitCount,
                                          /*use_observation_string=*/false,
                                          /*allow_inconsistent_action_sets=*/false);
    bot.SetResampler([&game, dice_each](const open_spiel::State& s, open_spiel::Player p,
                                        std::function<double()> rng) {
      return resample(*game, dice_each, s, p, std::move(rng));
    });
    std::mt19937 rng(seed);
    std::unique_ptr<open_spiel::State> state = game->NewInitialState();
    int decision_in_game = 0;
    while (!state->IsTerminal() && all.size() < decisions) {
      open_spiel::Action a;
      if (state->IsChanceNode()) {
        a = open_spiel::SampleAction(state->ChanceOutcomes(),
                                     std::uniform_real_distribution<double>(0.0, 1.0)(rng)).first;
      } else if (state->CurrentPlayer() == 0) {
        const double t0 = thread_cpu();
        a = bot.Step(*state);
        const double s = thread_cpu() - t0;
        all.push_back(s);
        (decision_in_game++ == 0 ? first : later).push_back(s);
      } else {
        const std::vector<open_spiel::Action> legal = state->LegalActions();
        a = legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
      }
      state->ApplyAction(a);
    }
  }
  double total = 0;
  for (double s : all) total += s;
  std::printf("%-26s %9s %12s %12s %12s %14s\n", "game", "decisions", "median s", "first s", "later s",
              "simulations/s");
  std::printf("%-26s %9zu %12.6f %12.6f %12.6f %14.0f\n", "openspiel-liars_dice", all.size(), median(all),
              median(first), median(later), total > 0 ? simulations * all.size() / total : 0.0);
  return 0;
}
