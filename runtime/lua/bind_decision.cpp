// game:choose(seat, prompt, options [, "seat" | {private =, labels =}]): a
// player picks one option. Synchronous agents (bots, a terminal) answer on
// the spot; a seat without an agent makes the game's thread yield until
// GameRun::answer().
//
// A decision is private when the rules say so (private = true), or, unless
// they say private = false, when an option is a component hidden from some
// seat: the other seats then learn that a choice was made, not which (the
// full log keeps the answer for replay).
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "lua/engine_impl.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

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

std::string component_label(const GameState& state, ComponentId id) {
  const auto& type = state.type_of(id);
  if (type.faces.size() > 1) return fmt::format("{} ({})", type.title, state.face_name(id));
  return type.title;
}

// option.label, honouring the option's metatable; run under lua_pcall.
int read_label(lua_State* L) {
  lua_getfield(L, 1, "label");
  return 1;
}

// The label of option i, its value on the top of L's stack (popped). Called
// inside the agent's C++ region (Decision::label), or on the engine's state
// while the game waits (`waiting`: GameRun::pending): nothing here may
// raise a Lua error, so a script's metatable is only consulted inside a
// protected call (an option whose __index raises would otherwise unwind
// past live C++ objects), under the rules' budget.
std::string label_of_top(lua_State* L, int i, bool seats, bool waiting) {
  const GameState& state = state_of(L);
  std::string label;
  switch (lua_type(L, -1)) {
    case LUA_TSTRING: label = lua_tostring(L, -1); break;
    case LUA_TBOOLEAN: label = lua_toboolean(L, -1) ? "yes" : "no"; break;
    case LUA_TNUMBER:
      if (seats && lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0 &&
          lua_tointeger(L, -1) < state.player_count())
        label = state.player(Seat{static_cast<int>(lua_tointeger(L, -1))}).name;
      else
        label = lua_isinteger(L, -1) ? std::to_string(lua_tointeger(L, -1))
                                     : fmt::format("{}", lua_tonumber(L, -1));
      break;
    case LUA_TTABLE:
      // A label may come from the option's metatable (built only when read):
      // read through a protected call, so that an __index that raises never
      // unwinds past this C++ frame (it gives the numbered label instead).
      lua_pushcfunction(L, read_label);
      lua_pushvalue(L, -2);
      if ((waiting ? engine(L).protected_run(1, 1, 0) : lua_pcall(L, 1, 1, 0)) == LUA_OK &&
          lua_type(L, -1) == LUA_TSTRING)
        label = lua_tostring(L, -1);
      else
        label = fmt::format("option {}", i + 1);
      lua_pop(L, 1);
      break;
    case LUA_TUSERDATA: {
      const auto* h = static_cast<const Handle*>(lua_touserdata(L, -1));
      if (h->kind == HandleKind::Component) label = component_label(state, ComponentId{h->index});
      else if (h->kind == HandleKind::Zone) label = state.zone_title(h->index);
      else label = fmt::format("option {}", i + 1);
      break;
    }
    default: label = fmt::format("option {}", i + 1);
  }
  lua_pop(L, 1);
  return label;
}

// The label of option i of the decision being taken (L is its thread).
std::string option_label(lua_State* L, int i, bool seats) {
  lua_rawgeti(L, kOptions, i + 1);
  return label_of_top(L, i, seats, false);
}

// Pushes option i; returns the component it is (none: it is not one).
ComponentId push_option_component(lua_State* L, int i) {
  if (lua_rawgeti(L, kOptions, i + 1) != LUA_TUSERDATA) return ComponentId::none();
  const auto* h = static_cast<const Handle*>(lua_touserdata(L, -1));
  return h->kind == HandleKind::Component ? ComponentId{h->index} : ComponentId::none();
}

// The component an option is (none: it is not one).
ComponentId option_component(lua_State* L, int i) {
  const ComponentId id = push_option_component(L, i);
  lua_pop(L, 1);
  return id;
}

lua_Integer flags(lua_State* L) { return lua_tointeger(L, kFlags); }

// What option i is on the table, as `seat` may know it (DecisionRequest::
// targets): a component it may know, a board's cell, a zone; else null.
nlohmann::json option_target(lua_State* L, int i, Seat seat) {
  const GameState& state = state_of(L);
  nlohmann::json target;
  lua_rawgeti(L, kOptions, i + 1);
  if (lua_type(L, -1) == LUA_TUSERDATA) {
    const auto* h = static_cast<const Handle*>(lua_touserdata(L, -1));
    if (h->kind == HandleKind::Component && state.visible_to(ComponentId{h->index}, seat)) {
      target = {{"component", h->index}};
    } else if (h->kind == HandleKind::Zone) {
      const GameDefinition& def = state.definition();
      const ZoneDef& z = def.zone_defs[def.zone_def_of[h->index]];
      if (z.board >= 0) {
        const auto& g = def.boards[z.board].geometry;
        const int c = def.zone_key_of[h->index];
        target = {{"board", def.boards[z.board].name}, {"cell", fmt::format("{},{}", g.x(c) + 1, g.y(c) + 1)}};
      } else {
        target = {{"zone", state.zone_id(h->index)}};
      }
    }
  }
  lua_pop(L, 1);
  return target;
}

// Automatic privacy: some option is a component hidden from some seat.
// Every option of a recorded decision is looked at, so they are popped a
// batch at a time (one lua_settop per batch instead of one per option): the
// stack holds the call's arguments and its flags (kFlags) here, and a C
// function may push LUA_MINSTACK (20) values unchecked.
bool hides_an_option(lua_State* L, int count) {
  constexpr int kBatch = 8;
  static_assert(kFlags + kBatch <= LUA_MINSTACK, "the batch fits the stack a C function gets");
  const int top = lua_gettop(L);
  const GameState& state = state_of(L);
  const SeatMask everybody = state.all_seats();
  bool hidden = false;
  for (int i = 0; i < count && !hidden; ++i) {
    const ComponentId id = push_option_component(L, i);
    hidden = !id.is_none() && state.knowers(id) != everybody;
    if (i % kBatch == kBatch - 1) lua_settop(L, top);
  }
  lua_settop(L, top);
  return hidden;
}

// `asked`: an agent answered (a lone option is taken without asking, and a
// replay must not expect an answer for it).
int push_choice(lua_State* L, Seat seat, int index, int count, bool asked = true) {
  GameRunImpl& game = current_game(L);
  if (asked && game.answer_log) game.answer_log->push_back(AnswerRecord{seat, index});
  GameState& state = *game.state;
  if (state.listening()) {
    const lua_Integer f = flags(L);
    ChoiceRecord c;
    c.seat = seat;
    c.index = index;
    c.label = option_label(L, index, (f & kSeatLabels) != 0);
    c.component = option_component(L, index);
    c.options = count;
    c.secret = (f & kSecret) != 0 || ((f & kAutoPrivacy) != 0 && hides_an_option(L, count));
    c.prompt = lua_tostring(L, 3);
    state.record_choice(c);
  }
  lua_rawgeti(L, kOptions, index + 1);
  lua_pushinteger(L, index + 1);
  return 2;
}

int choose_continue(lua_State* L, int /*status*/, lua_KContext seat) {
  const int index = static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);
  return push_choice(L, Seat{static_cast<int>(seat)}, index, static_cast<int>(lua_rawlen(L, kOptions)));
}

// The style argument: "seat" (numbers are seats), or a table
// {private = true | false, labels = "seat"}. Returns the flags it sets and
// whether it said `private` either way.
lua_Integer check_style(lua_State* L, bool& said_private) {
  said_private = false;
  if (lua_isnoneornil(L, kStyle)) return 0;
  if (lua_type(L, kStyle) == LUA_TSTRING) {
    luaL_argcheck(L, std::strcmp(lua_tostring(L, kStyle), "seat") == 0, kStyle, "'seat' expected");
    return kSeatLabels;
  }
  if (lua_type(L, kStyle) != LUA_TTABLE) luaL_typeerror(L, kStyle, "'seat' or a table of decision options");
  static const char* const kFields[] = {"private", "labels", nullptr};
  check_fields(L, kStyle, kFields);
  lua_Integer f = 0;
  const int secret = lua_getfield(L, kStyle, "private");
  if (secret != LUA_TNIL) {
    luaL_argcheck(L, secret == LUA_TBOOLEAN, kStyle, "field 'private' must be a boolean");
    said_private = true;
    if (lua_toboolean(L, -1)) f |= kSecret;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, kStyle, "labels") != LUA_TNIL) {
    const char* labels = lua_tostring(L, -1);
    luaL_argcheck(L, labels && std::strcmp(labels, "seat") == 0, kStyle, "field 'labels' must be 'seat'");
    f |= kSeatLabels;
  }
  lua_pop(L, 1);
  return f;
}

// A list whose length or items come from metamethods (a read-only module
// table) is copied into a plain one first, so that everything after reads
// it raw, also inside the agent's C++ region where no metamethod may run.
void plain_options(lua_State* L) {
  if (!lua_getmetatable(L, kOptions)) return;
  lua_pop(L, 1);
  const int n = check_list_length(L, kOptions);
  lua_createtable(L, n, 0);
  for (int i = 1; i <= n; ++i) {
    lua_geti(L, kOptions, i);
    lua_rawseti(L, -2, i);
  }
  lua_replace(L, kOptions);
}

int decision_choose(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  const char* prompt = luaL_checkstring(L, 3);
  luaL_checktype(L, kOptions, LUA_TTABLE);
  bool said_private = false;
  lua_Integer f = check_style(L, said_private);
  lua_settop(L, kStyle);
  plain_options(L);
  const lua_Unsigned count = lua_rawlen(L, kOptions);
  luaL_argcheck(L, count > 0, kOptions, "no options to choose from");
  luaL_argcheck(L, count <= static_cast<lua_Unsigned>(std::numeric_limits<int>::max()), kOptions, "too many options");
  const int n = static_cast<int>(count);
  if (!said_private) f |= kAutoPrivacy;
  lua_pushinteger(L, f);  // kFlags
  const bool seats = (f & kSeatLabels) != 0;
  GameRunImpl& game = current_game(L);
  if (n == 1) return push_choice(L, seat, 0, n, false);  // nothing to decide

  Agent* agent = game.agents[seat.index()];
  if (!agent) {  // the step API: the game pauses until GameRun::answer
    game.pending.seat = seat;
    game.pending.prompt = prompt;
    // Labels and targets are read from this call's stack when somebody
    // reads the request (GameRun::pending, fill_waiting_options): a caller
    // that only answers, as a replay does, never has them built.
    game.pending.labels.assign(static_cast<size_t>(n), std::string());
    game.pending.targets.clear();
    game.pending.view = nullptr;
    game.request_built = game.bare_requests;  // bare: nobody will read them
    return lua_yieldk(L, 0, seat.value(), choose_continue);
  }
  int index = -1;
  // The agent's C++ region: nothing in it raises a Lua error, and a C++
  // exception (an agent that cannot answer) ends the game as an agent
  // failure, raised once the region's objects are gone.
  catch_exceptions(L, Abort::Agent, [&] {
    const Decision::LabelFn label = [L, seats](int i) { return option_label(L, i, seats); };
    const Decision::ViewFn view = [&game, seat]() { return game.view(seat); };
    const Decision::TargetFn target = [L, seat](int i) { return option_target(L, i, seat); };
    // The agent's thinking is not charged to the rules' time budget (an
    // agent that answers at once is not worth the clock reads).
    struct PauseBudget {
      lua_State* L;
      explicit PauseBudget(lua_State* s) : L(s) {
        if (L) sandbox_pause_run(L);
      }
      ~PauseBudget() {
        if (L) sandbox_resume_run(L);
      }
    } pause(agent->answers_at_once() ? nullptr : L);
    index = agent->choose(Decision(seat, prompt, n, &label, &view, &target));
    if (index < 0 || index >= n)
      throw AgentFailure(fmt::format("{} agent for seat {} answered {} of {} options", agent->kind(), seat,
                                     index + 1, n));
    return 0;
  });
  return push_choice(L, seat, index, n);
}

const luaL_Reg kDecisionMethods[] = {
    {"choose", decision_choose},
    {nullptr, nullptr},
};

}  // namespace

void fill_waiting_options(GameRunImpl& g) {
  // The game's thread waits inside game:choose (lua_yieldk keeps the
  // call's stack): its options and flags are read from there, and a label
  // that runs Lua (a metatable) runs on the engine's own state, never on
  // the suspended thread.
  lua_State* co = g.co;
  lua_State* L = g.engine->L;
  const bool seats = (flags(co) & kSeatLabels) != 0;
  const int n = g.pending.count();
  lua_checkstack(L, 4);
  for (int i = 0; i < n; ++i) {
    lua_rawgeti(co, kOptions, i + 1);
    lua_xmove(co, L, 1);
    g.pending.labels[static_cast<size_t>(i)] = label_of_top(L, i, seats, true);
  }
  for (int i = 0; i < n; ++i) {
    nlohmann::json t = option_target(co, i, g.pending.seat);
    if (t.is_null()) continue;
    g.pending.targets.resize(static_cast<size_t>(n));
    g.pending.targets[static_cast<size_t>(i)] = std::move(t);
  }
}

void register_decisions(lua_State* L) { add_methods(L, "game", kDecisionMethods); }

}  // namespace rulebook
