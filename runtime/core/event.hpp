#pragma once
// Every change to a game is an event. Events are only built when somebody
// listens (a log, a narrator, an observing agent): GameState checks for a
// sink first, so a bulk simulation pays nothing for them.
#include <cstdint>
#include <string>

#include "core/ids.hpp"
#include "core/visibility.hpp"

namespace rulebook {

class GameState;

enum class EventType : uint8_t {
  GameStart,  // value = number of players
  TurnBegin,  // seat, value = round (the turn order's), to = the game's round (0: none)
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
  Choice,     // seat, value = option index, text = chosen label, from = option count
  Message,    // seat (or none), text; audience: the seats it is said to
  GameEnd,    // text = result summary
  RoundBegin, // seat = the round's first seat, value = the game's round
  SitOut,     // seat, out of this round only
  TrickBegin, // seat = the leader (or none), value = the round's trick, to = the game's round (0: none)
  PhaseBegin, // text = the phase's name
};

const char* to_string(EventType t);

// Built with the named constructors below, which say what each field
// holds for that kind of event; readers use the fields.
struct Event {
  EventType type = EventType::Message;
  Seat seat;  // none when the event is about no seat
  ComponentId component;  // none when the event is about no component
  ZoneSlot from = -1;
  ZoneSlot to = -1;
  int value = 0;
  std::string text;
  // Seats that may see the event at all; the rest never receive it.
  SeatMask audience = ~SeatMask{0};
  // Move: the seats that knew the component before it moved (they saw
  // what moved, even when it arrives hidden).
  SeatMask knew = 0;
  // Choice: a private decision (other seats learn that a choice was made,
  // not which), and its prompt (not logged).
  bool secret = false;
  std::string prompt;

  static Event game_start(int players) { return make(EventType::GameStart, Seat::none(), ComponentId::none(), -1, -1, players); }
  static Event turn_begin(Seat seat, int round, int game_round = 0) {
    return make(EventType::TurnBegin, seat, ComponentId::none(), -1, game_round, round);
  }
  static Event round_begin(Seat first, int game_round) { return make(EventType::RoundBegin, first, ComponentId::none(), -1, -1, game_round); }
  static Event trick_begin(Seat leader, int trick, int game_round) {
    return make(EventType::TrickBegin, leader, ComponentId::none(), -1, game_round, trick);
  }
  static Event phase_begin(std::string name) {
    return make(EventType::PhaseBegin, Seat::none(), ComponentId::none(), -1, -1, 0, std::move(name));
  }
  static Event sit_out(Seat seat) { return make(EventType::SitOut, seat, ComponentId::none(), -1, -1, 0); }
  // `owner`: the seat owning the die, or none.
  static Event roll(ComponentId die, Seat owner, ZoneSlot zone, int face) {
    return make(EventType::Roll, owner, die, zone, -1, face);
  }
  static Event move(ComponentId id, Seat owner, ZoneSlot from, ZoneSlot to, SeatMask knew = 0) {
    Event e = make(EventType::Move, owner, id, from, to, 0);
    e.knew = knew;
    return e;
  }
  static Event set_face(ComponentId id, ZoneSlot zone, int face) { return make(EventType::SetFace, Seat::none(), id, zone, -1, face); }
  static Event reveal(ComponentId id, ZoneSlot zone, int face) { return make(EventType::Reveal, Seat::none(), id, zone, -1, face); }
  static Event hide(ComponentId id, ZoneSlot zone) { return make(EventType::Hide, Seat::none(), id, zone, -1, 0); }
  // Only `seat` receives a peek.
  static Event peek(Seat seat, ComponentId id, ZoneSlot zone) {
    Event e = make(EventType::Peek, seat, id, zone, -1, 0);
    e.audience = seat_bit(seat);
    return e;
  }
  static Event facing(ComponentId id, ZoneSlot zone, int direction) {
    return make(EventType::Facing, Seat::none(), id, zone, -1, direction);
  }
  static Event shuffle(ZoneSlot zone, int count) { return make(EventType::Shuffle, Seat::none(), ComponentId::none(), zone, -1, count); }
  // `to` holds the new total.
  static Event score(Seat seat, int delta, int total) { return make(EventType::Score, seat, ComponentId::none(), -1, total, delta); }
  static Event eliminate(Seat seat) { return make(EventType::Eliminate, seat, ComponentId::none(), -1, -1, 0); }
  // `component`: the chosen option's component, when it is one (not
  // logged): the conformance check knows which identity the label may name.
  // `options`: how many there were (1: taken without asking).
  static Event choice(Seat seat, int index, std::string label, ComponentId component = ComponentId::none(), int options = 0,
                      bool secret = false, std::string prompt = {}) {
    Event e = make(EventType::Choice, seat, component, options, -1, index, std::move(label));
    e.secret = secret;
    e.prompt = std::move(prompt);
    return e;
  }
  // `to`: the seats it is said to (game:say_to); everybody by default.
  static Event message(Seat seat, std::string text, SeatMask to = ~SeatMask{0}) {
    Event e = make(EventType::Message, seat, ComponentId::none(), -1, -1, 0, std::move(text));
    e.audience = to;
    return e;
  }
  static Event game_end(std::string summary) { return make(EventType::GameEnd, Seat::none(), ComponentId::none(), -1, -1, 0, std::move(summary)); }

 private:
  static Event make(EventType type, Seat seat, ComponentId component, ZoneSlot from, ZoneSlot to, int value,
                    std::string text = {}) {
    Event e;
    e.type = type;
    e.seat = seat;
    e.component = component;
    e.from = from;
    e.to = to;
    e.value = value;
    e.text = std::move(text);
    return e;
  }
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Called after the change has been applied to `state`.
  virtual void on_event(const GameState& state, const Event& event) = 0;
};

}  // namespace rulebook
