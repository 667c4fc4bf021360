#pragma once
// Chance made explicit: every die roll and every shuffle is a chance node
// whose outcome is given from outside (a Python program's CFR, a replay of
// such a game), instead of drawn from the game's seeded stream.
//
// A roll is one node with an outcome per face. A shuffle of n components is
// presented as n - 1 draws, one at a time: the first picks, among the n,
// the component that ends on top, the next among the n - 1 left, and so on
// (the last is forced and asks nothing), so that every order is reached
// by exactly one path and each draw is uniform.
//
// The game runs with the outcomes given so far; at the first chance event
// past them it stops (throws ChanceNodeReached inside the rules, which the
// engine reports as a failed run) and the node is described by next(). A
// caller then plays the game again from its start with one more outcome:
// rules cannot be stopped halfway through a binding otherwise, and replay
// is what every fork of a game already is.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game_state.hpp"

namespace rulebook {

struct ChanceNode {
  enum class Kind { Roll, ShuffleDraw };
  Kind kind = Kind::Roll;
  int zone = -1;  // the shuffled zone, or the die's zone
  ComponentId die;  // a roll's die
  // One label per outcome: a die's face names; a draw's component as a
  // seat that sees everything would see it ("king", "panda 3").
  std::vector<std::string> labels;
  int outcomes() const { return static_cast<int>(labels.size()); }
};

// Thrown inside the rules (through the binding that rolled or shuffled)
// when the game reaches a chance event without a given outcome.
struct ChanceNodeReached : std::runtime_error {
  ChanceNodeReached() : std::runtime_error("the game stopped at a chance node (explicit chance)") {}
};

class ExplicitChance : public ChanceOverride {
 public:
  // The outcomes to play, in the order the game draws them.
  explicit ExplicitChance(std::vector<int> outcomes = {}) : outcomes_(std::move(outcomes)) {}

  bool forced_roll(const GameState& state, ComponentId die, int& face) override;
  bool forced_shuffle(const GameState& state, int zone, std::vector<ComponentId>& items) override;

  // Whether the game stopped at a node (set before ChanceNodeReached is
  // thrown; a rule that catches the error with pcall cannot hide it).
  bool stopped() const { return stopped_; }
  const ChanceNode& next() const { return next_; }
  // Outcomes used so far (all of them once the game has gone past them).
  size_t used() const { return used_; }

 private:
  [[noreturn]] void stop(ChanceNode node);

  std::vector<int> outcomes_;
  size_t used_ = 0;
  bool stopped_ = false;
  ChanceNode next_;
};

}  // namespace rulebook
