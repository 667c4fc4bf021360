#pragma once
// Mutation testing of a game: makes mutants of the game's Lua scripts, runs
// the game's scenarios against each, and tells which mutants no scenario
// notices. A baseline run records which lines each scenario executes, so a
// mutant only runs the scenarios that reach it, and a mutant that no
// scenario reaches is "not covered" without running anything. Mutants are
// the batch runner's items (batch/batch.hpp), one game copy per worker.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lua/rule_engine.hpp"
#include "mutation/mutator.hpp"

namespace rulebook::mutation {

enum class MutantStatus { Killed, TimedOut, Survived, NotCovered };
const char* status_name(MutantStatus s);  // "killed", "timed out", "survived", "not covered"

struct MutantResult {
  Mutant mutant;
  MutantStatus status = MutantStatus::NotCovered;
  std::string scenario;  // the scenario that killed it
  std::string failure;   // its first failure
  int scenarios_run = 0;
};

struct MutationOptions {
  int jobs = 1;
  // Per scenario and mutant: a mutant that loops runs into it and counts
  // as killed ("timed out").
  EngineLimits limits{20'000'000, 256u * 1024 * 1024};
  // Called after each mutant (from worker threads, one at a time).
  std::function<void(const MutantResult&, size_t done, size_t total)> progress;
  // Builds the agents of scenarios' `default_agent` that this layer cannot
  // (greedy, mcts, ismcts), as ScenarioOptions::make_agent; called from
  // worker threads, so it must be safe to call concurrently. Null: those
  // scenarios are refused, as by run_scenario without it.
  std::function<std::unique_ptr<class Agent>(const std::string& spec)> make_agent;
  // Optional: once true (Ctrl-C), the mutants under way finish and no more
  // start; the report holds the mutants tested, the first ones.
  const std::atomic<bool>* cancel = nullptr;
};

struct MutationReport {
  std::string game_dir;
  std::vector<std::string> scripts;    // the Lua files mutated, relative to game_dir
  std::vector<std::string> scenarios;  // the scenario files run
  std::vector<MutantResult> mutants;   // in file and source order
  size_t planned_mutants = 0;          // mutants.size() unless cancelled
  bool cancelled = false;
  int killed = 0, timed_out = 0, survived = 0, not_covered = 0;
  double seconds = 0;
  // Killed (timeouts included) over all mutants; not covered counts as not killed.
  double score() const;
  // The same over the mutants some scenario reaches.
  double covered_score() const;
};

// The game folder a scenario file plays: its `game:` field, else the game
// folder it sits in. Throws SetupError.
std::string game_of_scenario(const std::string& scenario_file);

// Runs the mutation test of one game with these scenarios (files inside the
// game folder). Throws SetupError when a scenario fails on the unmutated
// game, or a script cannot be parsed.
MutationReport run_mutation_test(const std::string& game_dir, const std::vector<std::string>& scenarios,
                                 const MutationOptions& options);

}  // namespace rulebook::mutation
