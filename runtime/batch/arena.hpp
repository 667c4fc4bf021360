#pragma once
// An arena: every listed agent plays in every seat of many games, and each
// is scored by its wins (a Wilson 95% interval), its mean decision time,
// and a Bradley-Terry rating on the Elo scale with a bootstrap 95%
// interval (docs/bots.md explains the model).
//
// Seating: game g seats agent (g + s) mod A at seat s (A agents), so over
// every A consecutive games each agent plays each seat equally often; the
// number of games is rounded up to a multiple of A. Game g is seeded from
// (seed, g) and its lineup depends on g alone, so the results do not
// depend on the number of jobs.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent_registry.hpp"
#include "analysis/intervals.hpp"
#include "analysis/stat_tally.hpp"
#include "core/game_definition.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

struct ArenaPlan {
  std::shared_ptr<const GameDefinition> definition;
  std::vector<AgentSpec> agents;  // at least two
  int players = 2;
  int64_t games = 100;  // rounded up to a multiple of agents.size()
  // When above 0: stop at the first multiple of agents.size() games after
  // which every agent's 95% win-rate interval is at most this wide on each
  // side (0.10: +-10 points), `games` being the most played. Decided on the
  // games in order (0, 1, ...), so the result does not depend on --jobs.
  double until_half_width = 0;
  uint64_t seed = 1;
  int jobs = 1;
  EngineLimits limits;
  AgentSettings agent_settings;  // --agent-timeout for exec: bots
  // Optional: once true (Ctrl-C), the games under way finish and no more
  // start; the result is of the games played, which are the first ones.
  const std::atomic<bool>* cancel = nullptr;
};

// The games a plan plays: `games` rounded up to a multiple of `agents`.
int64_t arena_games(int64_t games, int agents);
// The agent (index into ArenaPlan::agents) seated at `seat` in game `game`.
int arena_seat_agent(int64_t game, Seat seat, int agents);

// An agent's figures in one seat.
struct ArenaSeatResult {
  int64_t games = 0;
  int64_t wins = 0;
  analysis::Interval win_rate;  // Wilson, 95%
  // The agent's returns in this seat (game:finish returns), exact; empty
  // when the game gives none.
  analysis::StatTally returns;
};

struct ArenaAgentResult {
  std::string spec;    // as given
  std::string label;   // with " (cheating: oracle)" for an oracle
  bool cheating = false;
  int64_t games = 0;   // seats played (an agent may hold several seats of a game when there are fewer agents than seats)
  int64_t wins = 0;    // of those, seats among the winners
  analysis::Interval win_rate;  // Wilson, 95%
  std::vector<int64_t> games_by_seat;
  int64_t decisions = 0;
  double decision_seconds = 0;  // total wall time in choose()
  double mean_decision_seconds() const { return decisions ? decision_seconds / static_cast<double>(decisions) : 0; }
  // Search bots (mcts, ismcts): accepted simulations and the time spent
  // searching, for iterations per second; 0 for other kinds.
  int64_t iterations = 0;
  double search_seconds = 0;
  analysis::Interval rating;  // Bradley-Terry, Elo scale, mean 0; bootstrap 95%
  std::vector<ArenaSeatResult> by_seat;  // one a seat
  analysis::StatTally returns;           // over every seat it held (empty: the game gives none)
};

struct ArenaResult {
  int64_t games = 0;          // played and counted
  int64_t planned_games = 0;  // ArenaPlan::games rounded up
  bool stopped_early = false;  // until_half_width was reached before `games`
  bool cancelled = false;      // ArenaPlan::cancel stopped it
  std::vector<ArenaAgentResult> agents;
  bool has_returns = false;  // the game gave returns (game:finish returns)
  double seconds = 0;
  int jobs = 1;
  int bootstrap_samples = 0;
};

// Plays the plan on the batch runner (batch/batch.hpp). `done` (optional)
// counts finished games, for a progress line. Rethrows the first error (of
// the lowest game index: ScriptError, AgentFailure).
ArenaResult run_arena(const ArenaPlan& plan, std::atomic<int64_t>* done = nullptr);

// Bradley-Terry strengths from pairwise scores: `score[i][j]` is how many
// times i beat j (a tie counts half to each). Each pair gets one extra
// tie as a prior, so an agent that never lost still has a finite rating.
// Returns Elo-scale ratings (400 log10 of the strengths), mean 0.
std::vector<double> bradley_terry_ratings(const std::vector<std::vector<double>>& score);

}  // namespace rulebook
