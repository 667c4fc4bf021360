#pragma once
// greedy: tries each option one decision deep and keeps the best by the
// game's evaluation (rules.evaluate; the outcome when the option ends the
// game), ties broken by its own seeded stream.
//
// It never peeks. It sees what its seat sees: its redacted events and the
// decision put to it. Each option is tried on a determinization of its
// seat's game (search/determinizer.hpp): the game replayed with the
// identities of every component the seat never observed resampled, and
// with the future chance drawn from the bot's own stream. The same
// determinization and chance serve every option (common random numbers),
// so options are compared on the same sampled world; `samples=N` averages
// N such worlds.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/rng.hpp"

namespace rulebook {

class Determinizer;
class Match;

class GreedyAgent : public Agent {
 public:
  explicit GreedyAgent(int samples = 1);
  ~GreedyAgent() override;
  std::string kind() const override { return "greedy"; }
  void begin_game(uint64_t stream_seed, Seat seat) override;
  int choose(const Decision& d) override;
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& event) override { observed_.push_back(event); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* game) override;

 private:
  int samples_;
  Rng rng_;
  Seat seat_ = 0;
  const Match* truth_ = nullptr;
  std::vector<nlohmann::json> observed_;
  std::unique_ptr<Determinizer> determinizer_;
};

}  // namespace rulebook
