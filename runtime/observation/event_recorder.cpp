#include "observation/event_recorder.hpp"

#include "observation/event_view.hpp"

namespace rulebook {

void EventRecorder::on_event(const GameState& state, const Event& event) {
  if (can_see(event, seat_)) events_.push_back(event_json(state, event, seat_));
}

}  // namespace rulebook
