#pragma once
// The games of a simulation (simulate, compare) on the batch runner
// (runtime/batch/batch.hpp): game i is seeded from (seed, i) whatever the
// job count or shard, so every split of a run plays the same games. Several
// "sides" (game definitions: the base game and a variant for `compare`)
// play each game index from the same seed.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/run_statistics.hpp"
#include "batch/batch.hpp"
#include "core/game_definition.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook::cli {

struct RunPlan {
  std::vector<std::shared_ptr<const GameDefinition>> sides;  // at least one
  int players = 0;
  std::vector<std::string> agent_kinds;  // one per seat
  // Per side, when the sides' agents differ (compare --base/--with '--agent ...'); empty: agent_kinds for every side.
  std::vector<std::vector<std::string>> side_agent_kinds;
  EngineLimits limits;
  double agent_timeout = 10.0;  // seconds per decision of an exec: bot
  uint64_t seed = 1;
  int64_t games = 0;  // the whole run's
  int shard = 0;      // this process plays the games i with i % shards == shard
  int shards = 1;
  int jobs = 1;
  bool keep_details = false;  // each outcome carries game:finish's details (--export)
  bool metrics = false;  // each outcome carries the metrics of how the game felt (batch/game_tracer.hpp)
  // With metrics: a search agent (mcts or ismcts, "ismcts:iterations=200") whose value estimate
  // values each position of a game without rules.evaluate, in place of its scores (a search per
  // decision); empty: none.
  std::string evaluator;
  bool kingmaking = false;  // and metrics.kingmaking, which plays on each alternative (batch/kingmaking.hpp)
  bool progress = false;  // a progress bar on stderr (the caller checks it is a terminal)
  const std::atomic<bool>* cancel = nullptr;  // set on Ctrl-C: stop at the next game
};

// Throws SetupError (a usage error) unless `spec` names a search agent
// (mcts or ismcts, with valid parameters): what --evaluator takes.
void check_evaluator(const std::string& spec);

struct RunTiming {
  double seconds = 0;
  int jobs = 1;
};

// The seed game `index` of the plan plays (the same on every side).
uint64_t game_seed(const RunPlan& plan, int64_t index);

// The number of games of `games` that shard K of N plays.
int64_t games_in_shard(int64_t games, int shard, int shards);

// Called on a worker thread after game `index`, with one outcome per side;
// `worker` is in [0, jobs): keep one accumulator per worker, merge at the end.
using GameRecorder = std::function<void(int worker, int64_t index, const std::vector<analysis::GameOutcome>&)>;

// Plays the plan's games. The first error (of the lowest game index) is
// rethrown, after a line on stderr naming its game and seed; a cancelled
// run returns the games completed (the first of the shard, in order).
// Throws SetupError for agent kinds a simulation cannot use.
batch::BatchRun run_games(const RunPlan& plan, const GameRecorder& record);
RunTiming timing_of(const batch::BatchRun& run);

}  // namespace rulebook::cli
