#pragma once
// The agent registry: every kind of agent declared once -- its name, a
// one-line summary, its parameters (type, default, range, description)
// and how it is built -- and the one parser of agent specifications,
// `KIND` or `KIND:key=value,key=value`, the grammar of every place that
// takes an agent (`play --agent SEAT=KIND`, `simulate --agent`, `arena
// --agent`, scenarios' `default_agent`).
//
// A specification is checked against its kind's declaration, so a bad one
// (`ismcts:iterations=-3`, `mcts:foo=1`, an unknown kind) is refused
// before any game starts, with a message listing what is allowed and,
// for a misspelt name, the one that was probably meant. Kinds whose
// argument is free text (`scripted:FILE`, `exec:COMMAND`) take everything
// after the colon as that argument, never as key=value pairs.
//
// The type lives here, below every bot; the built-in kinds are declared
// in one place above them all (bots/agent_factory.hpp: builtin_agents()).
#include <functional>
#include <map>
#include <memory>
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
  std::vector<std::string> choices;  // Choice, Flag ("0", "1")
  std::string default_value;         // "" = none: the parameter is unset unless given
  std::string default_shown;         // how --help writes the default, when not as given ("sqrt 2")
  std::string help;

  static AgentParam integer(std::string name, double min, double max, std::string default_value, std::string help);
  static AgentParam number(std::string name, double min, bool min_exclusive, double max, std::string default_value,
                           std::string help);
  static AgentParam choice(std::string name, std::vector<std::string> choices, std::string default_value,
                           std::string help);
  // 0 or 1, default 0.
  static AgentParam flag(std::string name, std::string help);

  // "iterations=N (whole number >= 1; default 1000)": for messages and --help.
  std::string describe() const;
  // "a whole number from 1 to 100000000": what a value must be.
  std::string expected() const;
  // `value` in canonical form; throws AgentSpecError ("KIND's NAME must be
  // ..., got 'VALUE'", prefixed with `where`) when it is not allowed.
  std::string check(const std::string& value, const std::string& kind, const std::string& where) const;
};

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

struct AgentKind {
  using Builder = std::function<std::unique_ptr<Agent>(const AgentSpec&, const AgentSettings&)>;
  std::string name;
  std::string summary;
  // Non-empty for kinds whose argument is free text after the colon
  // ("FILE" for scripted:FILE, "COMMAND" for exec:COMMAND).
  std::string argument;
  std::vector<AgentParam> params;
  // human: only where a terminal is attached (rulebook play), which builds it.
  bool terminal_only = false;
  // Makes an agent of a checked specification; null for terminal_only kinds.
  Builder build;

  // "mcts[:key=value,...]", "scripted:FILE", "random".
  std::string syntax() const;
  const AgentParam* param(const std::string& name) const;
};

class AgentRegistry {
 public:
  // Declares a kind. Throws std::logic_error for a name declared before, a
  // parameter declared twice, a default its own range refuses, or a kind
  // that is neither built here nor terminal_only: declarations are checked
  // once, when the registry is made.
  AgentRegistry& add(AgentKind kind);

  // In the order they were declared (the order --help lists them).
  const std::vector<AgentKind>& kinds() const { return kinds_; }
  const AgentKind* find(const std::string& name) const;

  // Checks `text` against its kind's declaration. Throws AgentSpecError
  // naming the problem and listing what is allowed.
  AgentSpec parse(const std::string& text) const;
  // An agent of a checked specification. Throws AgentSpecError for a
  // terminal_only kind ("only available at a terminal"), and what the
  // kind's builder throws (an unreadable answers file).
  std::unique_ptr<Agent> build(const AgentSpec& spec, const AgentSettings& settings = {}) const;

  // One line per kind, and one per parameter under it: for --help.
  std::string describe(const std::string& indent = "  ") const;
  // The same as Markdown tables: docs/bots.md holds them (a test compares).
  std::string markdown() const;

 private:
  std::vector<AgentKind> kinds_;
};

}  // namespace rulebook
