#pragma once
// What a seat may know of an event: whether it receives the event at all
// (its audience), and the event as JSON with every component hidden from
// the seat redacted. The one place that answers "can this seat see this".
#include <nlohmann/json.hpp>

#include "core/event.hpp"

namespace rulebook {

class GameState;

// Whether `seat` receives `event` (Seat::none(), an onlooker, receives all).
bool can_see(const Event& event, Seat seat);

// Whether `seat` knows the component the event is about: it may see it
// now, or, for a move, knew it before it moved.
bool knows_event_component(const GameState& state, const Event& event, Seat seat);

// Whether `seat` receives a private decision without its answer (it learns
// that a choice was made, not which).
bool hides_choice(const Event& event, Seat seat);

// One event as JSON, as `seat` may know it (none: everything).
nlohmann::json event_json(const GameState& state, const Event& event, Seat seat = Seat::none());

}  // namespace rulebook
