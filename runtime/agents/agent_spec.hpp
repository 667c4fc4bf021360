#pragma once
// Agent specifications: `KIND` or `KIND:key=value,key=value`, the one
// grammar of every place that takes an agent (`play --agent SEAT=KIND`,
// `simulate --agent`, `arena --agent`, scenarios' `default_agent`).
//
// The registry below lists every kind with its parameters (type, range,
// default); parse_agent_spec checks a specification against it, so a bad
// one (`ismcts:iterations=-3`, `mcts:foo=1`, an unknown kind) is refused
// before any game starts, with a message listing what is allowed. Kinds
// whose argument is free text (`scripted:FILE`, and `exec:COMMAND` for
// external bots) take everything after the colon as that argument, never
// as key=value pairs.
//
// Building the agent is the job of the layer that can: agents/ builds the
// simple kinds (make_bot), the simulating bots are built above play/
// (bots/agent_factory.hpp), the terminal's human by the CLI.
#include <map>
#include <string>
#include <vector>

#include "agents/agent.hpp"

namespace rulebook {

struct AgentParam {
  enum class Type { Integer, Number, Choice, Flag };
  std::string name;
  Type type = Type::Integer;
  double min = 0;              // Integer, Number
  bool min_exclusive = false;  // Number: must be > min
  double max = 1e12;
  std::vector<std::string> choices;  // Choice
  std::string default_value;         // "" = none: the parameter is unset unless given
  std::string help;
  // "iterations=N (a whole number >= 1; default 1000)": for messages and --help.
  std::string describe() const;
};

struct AgentKind {
  std::string name;
  std::string summary;
  // Non-empty for kinds whose argument is free text after the colon
  // ("FILE" for scripted:FILE, "COMMAND" for exec:COMMAND).
  std::string argument;
  std::vector<AgentParam> params;
  bool terminal_only = false;  // human: only where a terminal is attached (rulebook play)
  // "mcts[:key=value,...]", "scripted:FILE", "random".
  std::string syntax() const;
};

// Every kind, in the order --help lists them. Kinds with free-text
// arguments are registered here too: exec:COMMAND (external bots, issue
// 13) goes beside scripted:FILE, with argument "COMMAND".
const std::vector<AgentKind>& agent_registry();
const AgentKind* find_agent_kind(const std::string& name);

// A checked specification: the kind, its free-text argument, and the value
// of every parameter (defaults filled in; unset parameters absent).
struct AgentSpec {
  std::string text;      // as given
  std::string kind;
  std::string argument;  // scripted's FILE, exec's COMMAND
  std::map<std::string, std::string> values;

  bool has(const std::string& name) const { return values.count(name) != 0; }
  int integer(const std::string& name) const;
  double number(const std::string& name) const;
  const std::string& choice(const std::string& name) const;
  bool flag(const std::string& name) const;
  // Searches the true state instead of its seat's view (oracle=1): a
  // cheating bot, for measuring the value of information.
  bool cheats() const { return has("oracle") && flag("oracle"); }
  // The name outputs show: the specification as given, and
  // " (cheating: oracle)" for a bot that reads the true state.
  std::string label() const;
};

// How agents answered from outside the process (exec:COMMAND) are held:
// --agent-timeout, per decision.
struct AgentSettings {
  double timeout_seconds = 10.0;
};

// Throws AgentSpecError naming the problem and listing what is allowed.
AgentSpec parse_agent_spec(const std::string& text);

// One line per kind, with its parameters: for --help and usage messages.
std::string describe_agent_kinds(const std::string& indent = "  ");

}  // namespace rulebook
