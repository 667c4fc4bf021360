#pragma once
// Fans one event stream out to several sinks.
#include <vector>

#include "core/event.hpp"

namespace rulebook {

class EventTee : public EventSink {
 public:
  void add(EventSink* sink) {
    if (sink) sinks_.push_back(sink);
  }
  bool empty() const { return sinks_.empty(); }
  void on_event(const GameState& state, const Event& event) override {
    for (auto* s : sinks_) s->on_event(state, event);
  }

 private:
  std::vector<EventSink*> sinks_;
};

}  // namespace rulebook
