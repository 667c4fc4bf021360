#pragma once
// Internal to the Lua layer: what game:choose (bind_decision.cpp) and
// game:choose_together (bind_together.cpp) share. Both take (game, seat or
// seats, prompt, options [, how]) and keep the decision's flags in stack
// slot kFlags; a list of options lies at a stack slot of the call (kOptions
// for game:choose, one per seat for game:choose_together).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/decision.hpp"
#include "core/ids.hpp"
#include "lua/context.hpp"

namespace rulebook {

constexpr int kOptions = 4;
constexpr int kStyle = 5;  // "seat", or the options table
// Upvalue-free flags of the decision being taken, kept in the call's stack
// slot 6 as an integer (a yield keeps the stack; C++ state would not).
constexpr int kFlags = 6;
constexpr lua_Integer kSeatLabels = 1, kSecret = 2;
// The rules did not say whether the decision is private: it is when an
// option is a component hidden from some seat (hides_an_option), worked out
// only when the choice is recorded, as nobody else reads it (a silent
// simulation never looks at the options).
constexpr lua_Integer kAutoPrivacy = 4;

// The flags of the decision being taken (L is its thread).
lua_Integer decision_flags(lua_State* L);

// The style argument: "seat" (numbers are seats), or a table
// {private = true | false, labels = "seat"}. Returns the flags it sets and
// whether it said `private` either way.
lua_Integer check_style(lua_State* L, bool& said_private);

// A list whose length or items come from metamethods (a read-only module
// table) is copied into a plain one first, so that everything after reads
// it raw, also inside the agent's C++ region where no metamethod may run.
// `slot` holds the list; errors name argument `arg`.
void plain_list(lua_State* L, int arg, int slot);

// The label of option i, its value on the top of L's stack (popped); see
// bind_decision.cpp.
std::string label_of_top(lua_State* L, int i, bool seats, bool waiting);
// The label of option i of the list at `slot` (L is the decision's thread).
std::string option_label(lua_State* L, int slot, int i, bool seats);
// The labels of the options of a decision, the list at `slot` of its
// thread L, all at once (the agent's C++ region of game:choose and
// game:choose_together): the same text as option_label, a string option or
// a table's own string label read or compared in place, a component's
// compared piece by piece.
class OptionLabels final : public LabelReader {
 public:
  OptionLabels(lua_State* L, int slot, bool seats) : L_(L), slot_(slot), seats_(seats) {}
  void read(std::vector<std::string>& out) const override;
  bool same(const std::vector<std::string>& labels) const override;

 private:
  lua_State* L_;
  int slot_;
  bool seats_;
};
// The component option i is (none: it is not one).
ComponentId option_component(lua_State* L, int slot, int i);
// What option i is on the table, as `seat` may know it (DecisionRequest::
// targets): a component it may know, a board's cell, a zone; else null.
nlohmann::json option_target(lua_State* L, int slot, int i, Seat seat);
// Records `seat`'s choice of option `index` of `count` (the list at `slot`)
// as an event, private as the flags say.
void record_choice_at(lua_State* L, Seat seat, int slot, int index, int count);

// The agent's thinking is not charged to the rules' time budget (an agent
// that answers at once is not worth the clock reads): null L, no pause.
struct PauseBudget {
  lua_State* L;
  explicit PauseBudget(lua_State* s);
  ~PauseBudget();
  PauseBudget(const PauseBudget&) = delete;
  PauseBudget& operator=(const PauseBudget&) = delete;
};

}  // namespace rulebook
