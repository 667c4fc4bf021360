#pragma once
// Plays a game with seat 0 capturing what it is shown and the other seats
// at random, and hands seat 0's determinizer, prepared at some of its
// decisions as a search bot's is, to the test (which may sample and
// simulate on it). The game stops after the last of those decisions.
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "capturing_agent.hpp"
#include "determinize/determinizer.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

namespace rulebook::test {

struct EnoughDecisions : AgentFailure {
  EnoughDecisions() : AgentFailure("enough decisions") {}
};

// Returns how many of the decisions in `at` (1 = seat 0's first) the game
// reached before it ended. `hint` and `checkpoints` as a bot's hint=0|1
// and checkpoint=0|1.
inline int at_seat0_decisions(const std::string& game, const std::vector<std::string>& variants, int players,
                              uint64_t seed, const std::set<int>& at,
                              const std::function<void(Determinizer&, const Match& truth)>& look, bool hint = true,
                              bool checkpoints = true) {
  LoadOptions options;
  options.variants = variants;
  auto def = load_game(game, options);
  struct Seat0 : CapturingAgent {
    const std::set<int>* at = nullptr;
    const std::function<void(Determinizer&, const Match&)>* look = nullptr;
    std::unique_ptr<Determinizer> det;
    bool hint = true, checkpoints = true;
    int n = 0, reached = 0;
    int choose(const Decision& d) override {
      if (!at->count(++n)) return random.choose(d);
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      if (!det) det = std::make_unique<Determinizer>(truth->definition_ptr());
      det->use_hint(hint);
      det->use_checkpoints(checkpoints);
      det->prepare(*truth, Seat{0}, events, labels);
      ++reached;
      (*look)(*det, *truth);
      if (n == *at->rbegin()) throw EnoughDecisions();
      return random.choose(d);
    }
  } seat0;
  seat0.at = &at;
  seat0.look = &look;
  seat0.hint = hint;
  seat0.checkpoints = checkpoints;
  Match match(def);
  match.set_agent(Seat{0}, &seat0);
  for (int s = 1; s < players; ++s) match.set_agent(Seat{s}, std::make_unique<RandomAgent>());
  try {
    match.play(players, seed);
  } catch (const AgentFailure& e) {  // the match passes the agent's failure on in its words
    if (std::string(e.what()).find("enough decisions") == std::string::npos) throw;
  }
  return seat0.reached;
}

}  // namespace rulebook::test
