#pragma once
// An agent that stops the game where it stands on purpose -- a search's
// simulation cut off after its rollout depth, or one decision deep -- says
// so with this type, not with words: the rules engine rethrows it as a
// GameCutOff (any other agent exception becomes a plain AgentFailure), so
// whoever plays the game tells a cut-off from a failure by its type.
#include "agents/agent.hpp"

namespace rulebook {

struct GameCutOff : AgentFailure {
  using AgentFailure::AgentFailure;
};

}  // namespace rulebook
