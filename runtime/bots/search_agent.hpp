#pragma once
// Search bots: `mcts` (UCT; on hidden information, one tree per
// determinization: PIMC) and `ismcts` (single-observer information-set
// MCTS, Cowling, Powley & Whitehouse 2012: one tree over the seat's
// information sets, a fresh determinization every iteration, availability
// counts). Both simulate on determinizations the runtime makes for their
// seat (determinize/determinizer.hpp) and draw from their own seeded stream.
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "determinize/determinizer.hpp"

namespace rulebook {

struct SearchParams {
  std::string kind = "ismcts";  // mcts | ismcts
  int iterations = 1000;        // simulations per decision
  double seconds = 0;           // per-decision time limit, 0 = none
  double c = 1.4142135623730951;
  std::string rollout = "random";  // random | greedy
  int depth = 0;                   // cut rollouts after N decisions, 0 = play to the end
  bool oracle = false;             // search on the true state: cheating, for measuring
  bool hint = true;                // use the game's sampling hint (rules.deal_unseen) when it has one
  bool checkpoint = true;          // start simulations from the saved decision (Determinizer::use_checkpoints)
  int determinizations = 10;       // mcts on hidden information: trees (PIMC)
  // How the other seats choose in the tree: false, each maximises its own
  // reward by UCB (the default); true, uniformly at random: the search is
  // then a best response to random play (an opponent model).
  bool random_others = false;
};

// An mcts or ismcts bot (params.kind). Its parameters are declared, and
// specifications checked, in the agent registry (bots/agent_factory.hpp:
// build_agent("ismcts:iterations=50") makes one from text).
std::unique_ptr<Agent> make_search_agent(const SearchParams& params);
// What a search agent's statistics say (iterations, rejections, seconds),
// for benchmarks: null when `agent` is not one.
struct SearchStats {
  long decisions = 0;
  long iterations = 0;   // accepted simulations
  long rejections = 0;   // determinizations whose replay showed the seat something else
  long failures = 0;     // simulations a script error or budget stopped
  long fallbacks = 0;    // decisions answered at random: no determinization accepted
  long restored = 0;     // simulations started from the decision's checkpoint, not a replay
  double seconds = 0;    // wall time spent deciding
  HintStats hint;        // the game's sampling hint (rules.deal_unseen), this game definition's
};
const SearchStats* search_stats(const Agent& agent);
// The last decision's search, valued at its root: each seat's mean reward
// over its accepted simulations (a share of the win, or the returns), from
// the searching seat's information; empty when it searched nothing (it
// answered at random). Null when `agent` is not a search agent.
const std::vector<double>* search_root_values(const Agent& agent);

}  // namespace rulebook
