#pragma once
// A test agent that keeps what its seat was shown (its redacted events)
// and the match it sits in, as a search bot does, and leaves its choices
// to the test (a random agent on its stream for the ones it does not
// examine).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "play/match.hpp"
#include "truth_door.hpp"

namespace rulebook::test {

struct CapturingAgent : Agent {
  std::vector<nlohmann::json> events;
  const Match* truth = nullptr;
  RandomAgent random;
  std::string kind() const override { return "capture"; }
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& e) override { events.push_back(e); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { truth = TruthDoor::match(g); }
  void begin_game(uint64_t s, Seat) override { random.begin_game(s, Seat{0}); }
};

}  // namespace rulebook::test
