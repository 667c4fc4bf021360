#include "bots/agent_factory.hpp"

#include <fmt/format.h>

#include "search/search_agent.hpp"

namespace rulebook {

std::unique_ptr<Agent> build_agent(const AgentSpec& spec) {
  if (auto bot = make_bot(spec.text)) return bot;
  if (spec.kind == "mcts" || spec.kind == "ismcts")
    return make_search_agent(spec.kind, parse_search_params(spec.kind, spec.values));
  if (spec.kind == "greedy")
    throw AgentSpecError(fmt::format("agent '{}': {} needs the runtime's determinizations, which this build "
                                     "does not have yet", spec.text, spec.kind));
  throw AgentSpecError(fmt::format("agent '{}': {} is only available at a terminal (rulebook play)", spec.text,
                                   spec.kind));
}

std::unique_ptr<Agent> build_agent(const std::string& text) { return build_agent(parse_agent_spec(text)); }

}  // namespace rulebook
