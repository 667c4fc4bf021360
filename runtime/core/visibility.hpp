#pragma once
#include <cstdint>
#include <string>

#include "core/ids.hpp"

namespace rulebook {

// Who may know a component's identity (its type, face and attributes).
// Anyone may know that it exists and where it lies. Others: everyone but
// its owner (a hand held facing out, as in Hanabi).
enum class Visibility : uint8_t { Public, Hidden, Owner, Others };

// What a zone does to a component that enters it: Keep leaves its
// visibility alone (board cells, where tiles are face up or down by rule).
enum class ZonePolicy : uint8_t { Keep, Public, Hidden, Owner, Others };

// Bitmask of seats (at most 32 players).
using SeatMask = uint32_t;
inline SeatMask seat_bit(int seat) { return SeatMask{1} << seat; }
inline SeatMask seat_bit(Seat seat) { return seat_bit(seat.value()); }

const char* to_string(Visibility v);
const char* to_string(ZonePolicy p);
bool parse_zone_policy(const std::string& text, ZonePolicy& out);

}  // namespace rulebook
