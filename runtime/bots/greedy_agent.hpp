#pragma once
// greedy: tries each option one decision deep and keeps the best by the
// game's evaluation (rules.evaluate; the outcome when the option ends the
// game), ties broken by its own seeded stream.
//
// It never peeks. It sees what its seat sees: its redacted events and the
// decision put to it. Each option is tried on a determinization of its
// seat's game (determinize/determinizer.hpp): the game replayed with the
// identities of every component the seat never observed resampled, and
// with the future chance drawn from the bot's own stream. The same
// determinization and chance serve every option (common random numbers),
// so options are compared on the same sampled world; `samples=N` averages
// N such worlds.
#include <string>

#include "bots/seat_agent.hpp"

namespace rulebook {

class GreedyAgent : public SeatSearchAgent {
 public:
  // `checkpoint`: Determinizer::use_checkpoints (the same choices either way).
  explicit GreedyAgent(int samples = 1, bool checkpoint = true);
  ~GreedyAgent() override;
  std::string kind() const override { return "greedy"; }
  int choose(const Decision& d) override;

 private:
  int samples_;
  bool checkpoint_;
};

}  // namespace rulebook
