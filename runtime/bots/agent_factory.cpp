#include "bots/agent_factory.hpp"

#include <fmt/format.h>

#include "bots/greedy_agent.hpp"
#include "bots/search_agent.hpp"
#include "agents/exec_transport.hpp"
#include "agents/external_seat.hpp"

namespace rulebook {

std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const AgentSettings& settings) {
  if (spec.kind == "exec") {
    const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(settings.timeout_seconds * 1000));
    return std::make_unique<ExternalSeat>(std::make_unique<ExecTransport>(spec.argument), spec.text, timeout);
  }
  if (auto bot = make_bot(spec.text)) return bot;
  if (spec.kind == "mcts" || spec.kind == "ismcts") {
    // Checked against the registry already; the search layer checks again
    // (it is also built from text, by the benchmarks).
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

std::unique_ptr<Agent> build_agent(const std::string& text, const AgentSettings& settings) {
  return build_agent(parse_agent_spec(text), settings);
}

}  // namespace rulebook
