#pragma once
// Turns events into readable lines, as one seat may know them (or, for
// seat -1, as an onlooker who sees everything). Consecutive rolls of one
// zone become one line; identical consecutive moves are counted together.
#include <ostream>
#include <string>

#include "core/event.hpp"

namespace rulebook {

class Narrator : public EventSink {
 public:
  Narrator(std::ostream& out, int seat = -1, bool colour = false)
      : out_(out), seat_(seat), colour_(colour) {}
  ~Narrator() override;
  void on_event(const GameState& state, const Event& event) override;
  void flush();

 private:
  void emit_line(const std::string& line);
  void set_pending(const std::string& key, const std::string& first, const std::string& counted);

  std::ostream& out_;
  int seat_;
  bool colour_;
  // A line still growing: rolls of one zone, or a run of identical moves.
  std::string pending_key_, pending_text_, pending_counted_;
  int pending_count_ = 0;
  bool pending_roll_ = false;
};

// "die (six)" when `seat` may know it, else "a die".
std::string describe_component(const GameState& state, int id, int seat);

}  // namespace rulebook
