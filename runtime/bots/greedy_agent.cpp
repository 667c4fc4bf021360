#include "bots/greedy_agent.hpp"

#include <optional>

#include "determinize/determinizer.hpp"

namespace rulebook {

GreedyAgent::GreedyAgent(int samples, bool checkpoint) : samples_(samples), checkpoint_(checkpoint) {}
GreedyAgent::~GreedyAgent() = default;

int GreedyAgent::choose(const Decision& d) {
  if (!searching()) return random_choice(d);
  Determinizer& det = determinizer_for(d, "greedy", "look ahead", true, checkpoint_);

  std::vector<double> value(static_cast<size_t>(d.count()), 0.0);
  int worlds = 0;
  bool rejected = false;
  for (int tries = 0; worlds < samples_ && tries < 50 * samples_ && searching(); ++tries) {
    const Sample sample = det.sample(rng_);
    const uint64_t chance = rng_.next();
    std::vector<double> scores(value.size(), 0.0);
    bool accepted = true;
    for (int i = 0; i < d.count() && accepted; ++i) {
      OneStepPolicy policy(i);
      const auto outcome = det.simulate(sample, chance, policy);
      if (give_up_if_over_limit(det, "greedy")) return random_choice(d);
      if (outcome == Determinizer::Outcome::Rejected || outcome == Determinizer::Outcome::Failed) {
        rejected |= outcome == Determinizer::Outcome::Rejected;
        accepted = false;
        break;
      }
      // The outcome if the option ended the game, else the game's own
      // estimate (an error in rules.evaluate stops the game, reported);
      // without rules.evaluate every option that does not end it is alike.
      const std::optional<double> v = det.evaluation(seat_);
      scores[static_cast<size_t>(i)] = v ? *v : 1.0 / det.players();
    }
    if (!accepted) continue;
    for (size_t i = 0; i < value.size(); ++i) value[i] += scores[i];
    ++worlds;
  }
  if (worlds == 0 && rejected && searching()) return no_world_found(d, "greedy");
  // The best options; ties by its own stream.
  std::vector<int> best;
  for (int i = 0; i < d.count(); ++i) {
    const double v = value[static_cast<size_t>(i)];
    if (best.empty() || v > value[static_cast<size_t>(best[0])] + 1e-12) best = {i};
    else if (v >= value[static_cast<size_t>(best[0])] - 1e-12) best.push_back(i);
  }
  return best[rng_.below(static_cast<uint32_t>(best.size()))];
}

}  // namespace rulebook
