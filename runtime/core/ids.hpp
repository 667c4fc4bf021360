#pragma once
// Names for the numbers that cross module boundaries, so that a signature
// says what it takes: `move(ComponentId, ZoneSlot)` rather than
// `move(int, int)`. Seat, ComponentId and FaceId are distinct StrongId
// types (strong_id.hpp): none of them converts into another or from an int
// without saying so. -1 (a default-constructed id) means "none" for each.
// ZoneSlot and BoardId are still plain aliases.
#include "core/strong_id.hpp"

namespace rulebook {

using Seat = StrongId<struct SeatTag>;                // a player's seat, 0-based in turn order
using ComponentId = StrongId<struct ComponentIdTag>;  // one physical component of a game
using FaceId = StrongId<struct FaceIdTag>;  // a face name, as an id shared by every component type

using ZoneSlot = int;  // one zone instance (a per-player zone has one per seat, a board one per cell)
using BoardId = int;   // a board of the game definition

}  // namespace rulebook
