#pragma once
// What every bot that searches its seat's game holds (greedy, mcts,
// ismcts): its own seeded stream, its seat, the redacted events its seat
// received, the match it sits in (only ever handed to the Determinizer,
// never read) and the Determinizer it reuses from decision to decision.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/rng.hpp"

namespace rulebook {

class Determinizer;
class Match;

class SeatSearchAgent : public Agent {
 public:
  SeatSearchAgent();
  ~SeatSearchAgent() override;
  void begin_game(uint64_t stream_seed, Seat seat) override;
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& event) override { observed_.push_back(event); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* game) override;

 protected:
  // The determinizer prepared for decision `d` of this seat. Throws
  // AgentFailure ("the NAME agent needs a match to WHAT (it plays through
  // Match)") when the agent plays outside a Match. `hint`: whether it may
  // use the game's sampling hint (rules.deal_unseen).
  Determinizer& determinizer_for(const Decision& d, const std::string& name, const char* what, bool hint = true);
  const Match& truth() const { return *truth_; }

  Rng rng_;
  Seat seat_{0};

 private:
  const Match* truth_ = nullptr;
  std::vector<nlohmann::json> observed_;
  std::unique_ptr<Determinizer> determinizer_;
};

}  // namespace rulebook
