#pragma once
// Names for the integers that cross module boundaries, so that a signature
// says what it takes: `move(ComponentId, ZoneSlot)` rather than
// `move(int, int)`. They are aliases (the storage and the hot paths stay
// plain ints); -1 means "none" for each of them.
namespace rulebook {

using Seat = int;         // a player's seat, 0-based in turn order
using ComponentId = int;  // one physical component of a game
using ZoneSlot = int;     // one zone instance (a per-player zone has one per seat, a board one per cell)
using FaceId = int;       // a face name, as an id shared by every component type
using BoardId = int;      // a board of the game definition

}  // namespace rulebook
