#pragma once
// Builds an agent of any kind the registry lists (agents/agent_spec.hpp)
// but the terminal's human: the one factory behind play, simulate, arena
// and scenarios, so that every place takes the same specifications.
#include <memory>
#include <string>

#include "agents/agent.hpp"
#include "agents/agent_spec.hpp"

namespace rulebook {

// Throws AgentSpecError (a usage error) for a kind this build cannot make
// and for "human" (the CLI builds it), and what the kind's own factory
// throws (an unreadable answers file).
std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const AgentSettings& settings = {});
std::unique_ptr<Agent> build_agent(const std::string& text, const AgentSettings& settings = {});

}  // namespace rulebook
