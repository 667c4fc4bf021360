#pragma once
// Scenario files: a game played with forced chance (dice faces, deck
// orders) and forced answers, whose outcome is checked against stated
// expectations. Every worked example of a rulebook is one.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lua/rule_engine.hpp"

namespace rulebook {

struct ScenarioOutcome {
  std::string file;
  std::string name;
  std::string source;
  bool passed = false;
  std::vector<std::string> failures;  // each one sentence
  std::string narration;              // the game as narrated, for a failing run
};

// Rule engines kept between the scenario runs of one thread: scenarios of
// the same game, variants and --set share one definition and one Lua
// state (the engine is made for reuse), as mutation testing runs many
// scenarios per mutant. Clear it whenever the game's files change.
class ScenarioEngineCache {
 public:
  struct Entry {
    std::shared_ptr<const GameDefinition> definition;
    std::unique_ptr<RuleEngine> engine;
  };
  Entry& entry(const std::string& key) { return entries_[key]; }
  void clear() { entries_.clear(); }

 private:
  std::map<std::string, Entry> entries_;
};

struct ScenarioOptions {
  EngineLimits limits;
  LineCoverage* coverage = nullptr;       // record the script lines the scenario runs
  ScenarioEngineCache* cache = nullptr;   // reuse engines (ignored with coverage)
  // Builds the agents this layer cannot (greedy, mcts, ismcts: the bots
  // layer's build_agent) for a `default_agent`; such an agent plays one
  // seat's game, so each seat gets its own. Null: only the kinds that
  // answer for every seat (random, first, scripted:FILE).
  std::function<std::unique_ptr<class Agent>(const std::string& spec)> make_agent;
};

// Runs one scenario file. Throws SetupError when the file itself is invalid.
ScenarioOutcome run_scenario(const std::string& path, const ScenarioOptions& options = {});

// Scenario files under a path: the file itself, a folder's scenarios/*.yaml
// (a game folder), or every *.yaml in a folder.
std::vector<std::string> find_scenarios(const std::string& path);

}  // namespace rulebook
