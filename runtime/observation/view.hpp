#pragma once
// What a seat may know of a game, as JSON: players, turn, zones and boards,
// with every component hidden from the seat shown only as {"hidden": true}.
// Agents, the human menu, the step API and the conformance suite read these.
#include <nlohmann/json.hpp>

#include "core/game_state.hpp"

namespace rulebook {

// The state as `seat` may know it (Seat::none(): everything).
nlohmann::json seat_view(const GameState& state, Seat seat);
// One component as `seat` may know it.
nlohmann::json component_view(const GameState& state, ComponentId id, Seat seat);

}  // namespace rulebook
