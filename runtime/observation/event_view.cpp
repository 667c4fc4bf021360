#include "observation/event_view.hpp"

#include "core/game_state.hpp"

namespace rulebook {

using nlohmann::json;

bool can_see(const Event& event, Seat seat) { return seat.is_none() || (event.audience & seat_bit(seat)) != 0; }

bool knows_event_component(const GameState& s, const Event& e, Seat seat) {
  if (e.component.is_none()) return false;
  if (s.visible_to(e.component, seat)) return true;
  // A seat that knew what moved saw it move, wherever it went.
  return e.type == EventType::Move && (e.knew & seat_bit(seat)) != 0;
}

bool hides_choice(const Event& e, Seat seat) { return e.type == EventType::Choice && e.secret && !seat.is_none() && seat != e.seat; }

json event_json(const GameState& s, const Event& e, Seat seat) {
  json j;
  j["type"] = to_string(e.type);
  auto component = [&](ComponentId id) {
    const bool known = id == e.component ? knows_event_component(s, e, seat) : s.visible_to(id, seat);
    j["component"] = !id.is_none() && known ? json(id) : json(nullptr);
    if (!id.is_none() && known) {
      j["name"] = s.type_of(id).name;
    }
  };
  switch (e.type) {
    case EventType::GameStart: j["players"] = e.value; break;
    case EventType::TurnBegin:
      j["seat"] = e.seat;
      j["round"] = e.value;
      if (e.to > 0) j["game_round"] = e.to;
      break;
    case EventType::RoundBegin:
      j["round"] = e.value;
      if (!e.seat.is_none()) j["first"] = e.seat;
      break;
    case EventType::SitOut: j["seat"] = e.seat; break;
    case EventType::TrickBegin:
      j["trick"] = e.value;
      if (!e.seat.is_none()) j["leader"] = e.seat;
      if (e.to > 0) j["game_round"] = e.to;
      break;
    case EventType::PhaseBegin: j["phase"] = e.text; break;
    case EventType::Roll:
      component(e.component);
      j["zone"] = s.zone_id(e.from);
      if (s.visible_to(e.component, seat)) j["face"] = s.type_of(e.component).faces[e.value];
      break;
    case EventType::Move:
      component(e.component);
      j["from"] = e.from >= 0 ? json(s.zone_id(e.from)) : json(nullptr);
      j["to"] = s.zone_id(e.to);
      break;
    case EventType::SetFace:
      component(e.component);
      j["face"] = s.type_of(e.component).faces[e.value];
      break;
    case EventType::Reveal:
      component(e.component);
      j["zone"] = s.zone_id(e.from);
      j["face"] = s.type_of(e.component).faces[e.value];
      break;
    case EventType::Hide:
      j["zone"] = s.zone_id(e.from);
      break;
    case EventType::Peek:
      j["seat"] = e.seat;
      j["zone"] = s.zone_id(e.from);
      component(e.component);
      break;
    case EventType::Facing:
      component(e.component);
      j["direction"] = to_string(static_cast<Direction>(e.value));
      break;
    case EventType::Shuffle: j["zone"] = s.zone_id(e.from); j["count"] = e.value; break;
    case EventType::Score: j["seat"] = e.seat; j["delta"] = e.value; j["total"] = e.to; break;
    case EventType::Eliminate: j["seat"] = e.seat; break;
    case EventType::Choice:
      j["seat"] = e.seat;
      if (e.secret) j["private"] = true;
      if (hides_choice(e, seat)) break;  // that a choice was made, not which
      j["index"] = e.value;
      j["label"] = e.text;
      break;
    case EventType::Message:
      j["text"] = e.text;
      if (e.audience != ~SeatMask{0}) {
        json to = json::array();
        for (int s2 = 0; s2 < s.player_count(); ++s2)
          if (e.audience & seat_bit(s2)) to.push_back(s2);
        j["to"] = std::move(to);
      }
      break;
    case EventType::GameEnd: j["text"] = e.text; break;
  }
  return j;
}

}  // namespace rulebook
