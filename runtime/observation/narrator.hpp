#pragma once
// Turns events into readable lines, as one seat may know them (or, for
// seat -1, as an onlooker who sees everything): narration filtering, with
// the same "can this seat see it" as logs and agents (event_view.hpp). Consecutive rolls of one
// zone become one line; identical consecutive moves are counted together.
#include <ostream>
#include <string>

#include "core/event.hpp"
#include "core/ids.hpp"

namespace rulebook {

// How headings and asides are set off: terminal escapes are presentation
// (cli/ provides them); the default is plain text.
struct NarrationStyle {
  std::string strong;  // the game's title, turn headings, the end
  std::string faint;   // players' choices
  std::string reset;   // back to plain
};

class Narrator : public EventSink {
 public:
  explicit Narrator(std::ostream& out, Seat seat = -1, NarrationStyle style = {})
      : out_(out), seat_(seat), style_(std::move(style)) {}
  ~Narrator() override;
  void on_event(const GameState& state, const Event& event) override;
  void flush();

 private:
  void emit_line(const std::string& line);
  void set_pending(const std::string& key, const std::string& first, const std::string& counted);

  std::ostream& out_;
  int seat_;
  NarrationStyle style_;
  // A line still growing: rolls of one zone, or a run of identical moves.
  std::string pending_key_, pending_text_, pending_counted_;
  int pending_count_ = 0;
  bool pending_roll_ = false;
};

// "die (six)" when `seat` may know it, else "a die".
std::string describe_component(const GameState& state, ComponentId id, Seat seat);
// The same, `known` saying whether the seat knows it.
std::string describe_component(const GameState& state, ComponentId id, bool known);

}  // namespace rulebook
