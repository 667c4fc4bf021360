#pragma once
// Records the events a seat may see (Seat::none(): all of them) as redacted
// JSON, for logs and tests.
#include <vector>

#include <nlohmann/json.hpp>

#include "core/event.hpp"

namespace rulebook {

class EventRecorder : public EventSink {
 public:
  explicit EventRecorder(Seat seat = Seat::none()) : seat_(seat) {}
  void on_event(const GameState& state, const Event& event) override;
  const std::vector<nlohmann::json>& events() const { return events_; }

 private:
  Seat seat_;
  std::vector<nlohmann::json> events_;
};

}  // namespace rulebook
