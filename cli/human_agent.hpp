#pragma once
// A human at a terminal: a numbered menu showing the seat's view. The
// command line's agent (OpenSpiel keeps its human bot out of the core too).
#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "agents/agent.hpp"
#include "agents/agent_registry.hpp"
#include "core/game_definition.hpp"

namespace rulebook::cli {

class HumanAgent : public Agent {
 public:
  HumanAgent(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  std::string kind() const override { return "human"; }
  int choose(const Decision& d) override;
  // Called before the menu is shown (the CLI flushes its narration).
  void set_before_prompt(std::function<void()> fn) { before_prompt_ = std::move(fn); }
  // Offers "undo": the function returns why an undo is refused, or empty
  // when it goes ahead (choose then throws UndoRequested).
  void set_undo(std::function<std::string()> fn) { undo_ = std::move(fn); }
  // The game played: its components are shown as its `display:` says.
  void set_definition(std::shared_ptr<const GameDefinition> def) { def_ = std::move(def); }

 private:
  std::istream& in_;
  std::ostream& out_;
  std::function<void()> before_prompt_;
  std::function<std::string()> undo_;
  std::shared_ptr<const GameDefinition> def_;
};

// Thrown out of HumanAgent::choose when the player's undo goes ahead: the
// game unwinds and is played again up to the decision taken back.
struct UndoRequested : AgentFailure {
  UndoRequested() : AgentFailure("undo") {}
};

// Any kind of the registry (bots/agent_factory.hpp), "human" included;
// `settings` (--agent-timeout) for the kinds answered from outside the
// process (exec:COMMAND). Throws AgentSpecError.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::istream& in, std::ostream& out,
                                  const AgentSettings& settings = {});

}  // namespace rulebook::cli
