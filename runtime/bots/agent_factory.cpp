#include "bots/agent_factory.hpp"

#include <fmt/format.h>

#include "bots/greedy_agent.hpp"
#include "search/search_agent.hpp"

namespace rulebook {

std::unique_ptr<Agent> build_agent(const AgentSpec& spec) {
  if (auto bot = make_bot(spec.text)) return bot;
  if (spec.kind == "mcts" || spec.kind == "ismcts") {
    // Checked against the registry already; the search layer's own checks
    // add what it does not implement yet (rollout=greedy).
    try {
      return make_search_agent(spec.kind, parse_search_params(spec.kind, spec.values));
    } catch (const AgentSpecError& e) {
      throw AgentSpecError(fmt::format("agent '{}': {}", spec.text, e.what()));
    }
  }
  if (spec.kind == "greedy") return std::make_unique<GreedyAgent>();
  throw AgentSpecError(fmt::format("agent '{}': {} is only available at a terminal (rulebook play)", spec.text,
                                   spec.kind));
}

std::unique_ptr<Agent> build_agent(const std::string& text) { return build_agent(parse_agent_spec(text)); }

}  // namespace rulebook
