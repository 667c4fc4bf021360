#pragma once
// What every bot that searches its seat's game holds (greedy, mcts,
// ismcts): its own seeded stream, its seat, the redacted events its seat
// received, the game it sits in (its GameAccess: only ever handed to the
// Determinizer, never read) and the Determinizer it reuses from decision
// to decision.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/rng.hpp"
#include "observation/seat_knowledge.hpp"

namespace rulebook {

class Determinizer;

class SeatSearchAgent : public Agent {
 public:
  SeatSearchAgent();
  ~SeatSearchAgent() override;
  void begin_game(uint64_t stream_seed, Seat seat) override;
  bool wants_events() const override { return true; }
  // What its seat knows: the redacted events it received, handed to the
  // determinizer (which learns the rest by replaying them).
  void observe(const nlohmann::json& event) override { knowledge_.receive(event); }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* game) override;

 protected:
  // The determinizer prepared for decision `d` of this seat. Throws
  // AgentFailure ("the NAME agent needs a match to WHAT (it plays through
  // Match)") when the agent plays outside a Match. `hint`: whether it may
  // use the game's sampling hint (rules.deal_unseen).
  Determinizer& determinizer_for(const Decision& d, const std::string& name, const char* what, bool hint = true,
                                 bool checkpoint = true);
  // The game it sits in: what oracle bots (oracle=1) cheat through.
  const GameAccess& truth() const { return *truth_; }
  // Whether the bot still searches in this game: no longer once one of its
  // simulations ran over the rules' limits (a runaway script would cost a
  // whole budget in every simulation that reaches it); it then chooses at
  // random from its own stream, and the true game meets the runaway itself.
  bool searching() const { return !gave_up_; }
  // After a simulation on `det`: true, with a warning naming the limit and
  // the bot (`name`), when it ran over the rules' limits; from then on
  // searching() is false for the rest of the game. Throws ScriptError (the
  // game ends with it) when rules.evaluate failed in that simulation.
  bool give_up_if_over_limit(const Determinizer& det, const std::string& name);
  // The choice of a bot that does not search: uniform from its stream.
  int random_choice(const Decision& d);
  // No sample within the bot's budget agreed with what its seat saw (every
  // draw was rejected): the bot says so once a game (a warning naming it,
  // `name`), and chooses at random from its own stream at that decision --
  // never from the true game, whose answers and identities it may not use.
  int no_world_found(const Decision& d, const std::string& name);

  Rng rng_;
  Seat seat_{0};

 private:
  const GameAccess* truth_ = nullptr;
  bool gave_up_ = false;
  bool said_no_world_ = false;
  SeatKnowledge knowledge_;
  std::unique_ptr<Determinizer> determinizer_;
};

}  // namespace rulebook
