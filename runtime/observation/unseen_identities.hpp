#pragma once
// A world a seat cannot tell apart from the game played, by identity: the
// components it did not see exchange identities (type and face) among
// components of the same kind and start zone. The no-peek worlds of
// `rulebook check` and of the bots' test draw them here, in one order.
#include <functional>
#include <vector>

#include "core/game_definition.hpp"
#include "core/rng.hpp"

namespace rulebook {

struct ExchangedIdentities {
  // Component i starts with the identity of component identities[i] (the
  // identity for everything the seat saw).
  std::vector<int> identities;
  // Whether some component now has another type than in the game played
  // (else the world is the game played again).
  bool changed = false;
};

// Groups the components `unseen` names (those that start in a zone) by
// (kind, start zone), in that order, and shuffles each group from `rng`
// (Fisher-Yates, from the last place down).
ExchangedIdentities exchange_unseen_identities(const GameDefinition& definition,
                                               const std::function<bool(int component)>& unseen, Rng& rng);

}  // namespace rulebook
