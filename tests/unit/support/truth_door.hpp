#pragma once
// The tests' door through a searching agent's sealed handle (GameAccess)
// to the true game: only the no-peek tests' reference cheater and the
// tests that examine a bot's determinizer against the truth go through it.
// Nothing of the runtime may include this file.
#include "agents/agent.hpp"
#include "play/match.hpp"

namespace rulebook::test {

struct TruthDoor {
  // The Match behind a handle (every handle the runtime makes is a Match's).
  static const Match* match(const GameAccess* g) { return g ? dynamic_cast<const Match*>(g->record_) : nullptr; }
};

}  // namespace rulebook::test
