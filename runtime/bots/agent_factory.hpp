#pragma once
// Every kind of agent this build knows, declared once, in one place: the
// registry (agents/agent_registry.hpp) of the runtime's bots (random,
// first, scripted, greedy, mcts, ismcts), external ones (exec) and the
// terminal's human (built by the CLI). The CLI's --agent options and
// their help, completions, the arena, scenarios' default_agent and the
// tables of docs/bots.md (a test compares them) all read it.
#include <memory>
#include <string>

#include "agents/agent.hpp"
#include "agents/agent_registry.hpp"

namespace rulebook {

const AgentRegistry& builtin_agents();

// builtin_agents().build: throws AgentSpecError (a usage error) for a bad
// specification and for "human" (the CLI builds it), and what the kind's
// builder throws (an unreadable answers file).
std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const AgentSettings& settings = {});
std::unique_ptr<Agent> build_agent(const std::string& text, const AgentSettings& settings = {});

}  // namespace rulebook
