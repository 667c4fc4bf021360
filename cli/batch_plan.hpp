#pragma once
// The plan every batch command (simulate, compare, sweep, skill, report)
// starts from, read off the options they share.
#include <cstdint>

#include "cli/commands.hpp"
#include "cli/simulation_runner.hpp"

namespace rulebook::cli {

// `games` games on `jobs` threads by the game options (the engine's
// limits, an exec: bot's timeout, the seed), stopped at the next game by
// Ctrl-C, with a progress bar when `progress` and standard error is a
// terminal. The caller sets the sides, players and agents.
RunPlan batch_plan(const GameOptions& game, int64_t games, int jobs, bool progress);

}  // namespace rulebook::cli
