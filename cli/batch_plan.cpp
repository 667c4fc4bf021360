#include "cli/batch_plan.hpp"

#include <unistd.h>

#include "cli/interrupt.hpp"

namespace rulebook::cli {

RunPlan batch_plan(const GameOptions& game, int64_t games, int jobs, bool progress) {
  RunPlan plan;
  plan.limits = engine_limits(game);
  plan.agent_timeout = game.agent_timeout;
  plan.seed = game.seed;
  plan.games = games;
  plan.jobs = jobs;
  plan.progress = progress && isatty(2);
  plan.cancel = cancel_on_interrupt();
  return plan;
}

}  // namespace rulebook::cli
