#pragma once
// The replay log: every event as JSON, in order, plus what it takes to
// play the game again (game, variants, overrides, players, seed, answers).
// Written deterministically, so the same game gives a byte-identical file.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/event.hpp"

namespace rulebook {

class GameState;

// One event as JSON, as `seat` may know it (-1: everything).
nlohmann::json event_json(const GameState& state, const Event& event, int seat = -1);

class EventRecorder : public EventSink {
 public:
  explicit EventRecorder(int seat = -1) : seat_(seat) {}
  void on_event(const GameState& state, const Event& event) override;
  const std::vector<nlohmann::json>& events() const { return events_; }

 private:
  int seat_;
  std::vector<nlohmann::json> events_;
};

// Fans one event stream out to several sinks.
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

// Serialises a log object with one event per line (readable, diffable).
std::string dump_log(const nlohmann::json& log);

}  // namespace rulebook
