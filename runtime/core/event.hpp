#pragma once
// Every change to a game is an event. Events are only built when somebody
// listens (a log, a narrator, an observing agent): GameState checks for a
// sink first, so a bulk simulation pays nothing for them.
#include <cstdint>
#include <string>

#include "core/visibility.hpp"

namespace rulebook {

class GameState;

enum class EventType : uint8_t {
  GameStart,  // value = number of players
  TurnBegin,  // seat, value = round
  Roll,       // component, from = zone, value = face
  Move,       // component, from -> to (zone slots)
  SetFace,    // component, value = new face
  Reveal,     // component becomes public (value = face)
  Hide,       // component becomes hidden
  Peek,       // seat learns component (audience: that seat only)
  Facing,     // component, value = direction
  Shuffle,    // from = zone
  Score,      // seat, value = delta, to = new total
  Eliminate,  // seat
  Choice,     // seat, value = option index, text = chosen label
  Message,    // seat (or -1), text
  GameEnd,    // text = result summary
};

const char* to_string(EventType t);

struct Event {
  EventType type = EventType::Message;
  int seat = -1;
  int component = -1;
  int from = -1;
  int to = -1;
  int value = 0;
  std::string text;
  // Seats that may see the event at all; the rest never receive it.
  SeatMask audience = ~SeatMask{0};
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Called after the change has been applied to `state`.
  virtual void on_event(const GameState& state, const Event& event) = 0;
};

}  // namespace rulebook
