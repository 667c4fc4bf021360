#pragma once
// Turns events into readable lines, as one seat may know them (or, for
// Seat::none(), as an onlooker who sees everything): narration filtering, with
// the same "can this seat see it" as logs and agents (event_view.hpp).
//
// Three levels (`--narrate brief|normal|full`):
// - normal: every event a person needs. A decision with one legal option is
//   not told as a choice (what happens is told by the events that follow);
//   a yes/no decision is told with its question; a change of a component
//   that a rule's message of the same action already tells (names the
//   component and its new face, direction or place) is told once, by the
//   message; runs of identical moves are counted; many components of one
//   type moving alike in one step are summarised ("every shark moves one
//   place along the ring").
// - full: normal plus every component event on its own line (nothing
//   counted, summarised or left to a message).
// - brief: each turn on one line: its decisions, the rules' messages, rolls
//   and scores; component moves only where nothing else tells the action.
#include <ostream>
#include <string>
#include <vector>

#include "core/event.hpp"
#include "core/ids.hpp"

namespace rulebook {

class GameState;
struct BoardDef;

enum class NarrationLevel { Brief, Normal, Full };
const char* to_string(NarrationLevel level);
// "brief", "normal", "full"; false for anything else.
bool parse_narration_level(const std::string& text, NarrationLevel& out);

// How headings and asides are set off: terminal escapes are presentation
// (cli/ provides them); the default is plain text.
struct NarrationStyle {
  std::string strong;  // the game's title, turn headings, the end
  std::string faint;   // players' choices
  std::string reset;   // back to plain
  // For a terminal (cli/): the text's control characters (a script's
  // narration, players' names) are written as visible escapes
  // (core/safe_text.hpp's terminal_text); the style's own escapes pass.
  bool escape_controls = false;
};

class Narrator : public EventSink {
 public:
  explicit Narrator(std::ostream& out, Seat seat = Seat::none(), NarrationStyle style = {},
                    NarrationLevel level = NarrationLevel::Normal)
      : out_(out), seat_(seat), style_(std::move(style)), level_(level) {}
  ~Narrator() override;
  void on_event(const GameState& state, const Event& event) override;
  // Writes everything held back (before a person is asked, at the end).
  void flush();

  // One narrated thing of the current action, as the seat may know it.
  struct Line {
    enum Kind { Plain, Choice, Message, Roll, Move, Change } kind = Plain;
    std::string text;   // as normal narration says it
    std::string brief;  // as a brief turn line says it (choices)
    std::string label;  // choices: the chosen option
    // A component's change: its title as the seat knows it ("" when hidden
    // from the seat) and what a message must also name to tell the change.
    std::string title, mark;
    bool covered = false;
    bool secret = false;  // choices: another seat's private decision
    int zone = -1;  // rolls: the zone rolled
    // Moves: counted together when consecutive moves share `group`.
    std::string group, counted, counted_exact;
    int type = -1, board = -1, from_cell = -1, to_cell = -1;
    std::string plural_title, plural_kind, from_title;
    int from = -1, dest_board = -1;  // the zone left, the board arrived on
    int to = -1, dest_def = -1;  // the zone reached; its per-player zone
    Seat dest_owner;              // and that zone's owner
    std::string to_title;
  };

 private:
  void emit_line(const std::string& line);
  void add(Line line);
  // Narrates the action held back (since the last decision or turn).
  void resolve();
  void end_brief_turn();
  std::vector<std::string> render(std::vector<Line>& lines) const;

  std::ostream& out_;
  Seat seat_;
  NarrationStyle style_;
  NarrationLevel level_;
  const GameState* state_ = nullptr;
  std::vector<Line> action_;
  // Brief: the current turn's heading and what it told so far.
  std::string brief_head_;
  std::vector<std::string> brief_items_;
  Seat turn_seat_;
};

// "die (six)" when `seat` may know it, else "a die".
std::string describe_component(const GameState& state, ComponentId id, Seat seat);
// The same, `known` saying whether the seat knows it.
std::string describe_component(const GameState& state, ComponentId id, bool known);
// "an Otter", "a Red Panda", "an animal tile".
std::string with_article(const std::string& noun);
// How a board's cells are written, once per game: "the sea, 4x4: a cell is
// written (column,row), (1,1) being the top-left corner".
std::string board_coordinates(const BoardDef& board);

}  // namespace rulebook
