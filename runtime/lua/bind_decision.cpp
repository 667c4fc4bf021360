// game:choose(seat, prompt, options [, "seat" | {private =, labels =}]): a
// player picks one option. Synchronous agents (bots, a terminal) answer on
// the spot; a seat without an agent makes the game's thread yield until
// GameRun::answer().
//
// A decision is private when the rules say so (private = true), or, unless
// they say private = false, when an option is a component hidden from some
// seat: the other seats then learn that a choice was made, not which (the
// full log keeps the answer for replay).
#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "core/safe_text.hpp"
#include "lua/decision_options.hpp"
#include "lua/engine_impl.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

std::string component_label(const GameState& state, ComponentId id) {
  const auto& type = state.type_of(id);
  if (type.faces.size() > 1) return fmt::format("{} ({})", type.title, state.face_name(id));
  return type.title;
}

// The registry's hold on the string "label" (register_decisions): kept
// interned for the state's life, so that label_of_top may push it where no
// Lua error may be raised (interning it anew allocates, which may fail at
// the memory cap).
const char kLabelKept = 0;

// option.label, honouring the option's metatable; run under lua_pcall.
int read_label(lua_State* L) {
  lua_getfield(L, 1, "label");
  return 1;
}

}  // namespace

PauseBudget::PauseBudget(lua_State* s) : L(s) {
  if (L) sandbox_pause_run(L);
}
PauseBudget::~PauseBudget() {
  if (L) sandbox_resume_run(L);
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
      // A label of the table's own is what option.label reads, whatever its
      // metatable says: read raw, no call (a search reads every option's
      // label at every step in its tree). "label" is interned for good
      // (kLabelKept): pushing it allocates nothing.
      lua_pushliteral(L, "label");
      if (lua_rawget(L, -2) == LUA_TSTRING) {
        label = lua_tostring(L, -1);
        lua_pop(L, 1);
        break;
      }
      lua_pop(L, 1);
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
  make_valid_utf8(label);  // a script's text: logs and JSON hold UTF-8 only
  return label;
}

std::string option_label(lua_State* L, int slot, int i, bool seats) {
  lua_rawgeti(L, slot, i + 1);
  return label_of_top(L, i, seats, false);
}

namespace {

// The label of option `type` (its type) on the top of L's stack where
// label_of_top would take it as it is, read in place: a string option or a
// table's own string `label` (`key` is the stack slot of the string
// "label"); the text stays valid while the options do. Pushes the label
// read from a table (`pushed` says how many values it left); false, with
// the option alone on the top, for a label label_of_top builds.
bool raw_label(lua_State* L, int type, int key, std::string_view& text, int& pushed) {
  pushed = 0;
  size_t len = 0;
  const char* s = nullptr;
  if (type == LUA_TSTRING) {
    s = lua_tolstring(L, -1, &len);
  } else if (type == LUA_TTABLE) {
    lua_pushvalue(L, key);
    if (lua_rawget(L, -2) != LUA_TSTRING) {
      lua_pop(L, 1);
      return false;
    }
    pushed = 1;
    s = lua_tolstring(L, -1, &len);
  }
  if (!s) return false;
  text = std::string_view(s, len);
  return true;
}

// Whether label_of_top keeps `text` as it is: valid UTF-8, and no NUL (it
// reads the string up to one). Labels are mostly ASCII: one pass then.
bool kept_as_is(std::string_view text) {
  for (const char c : text) {
    if (c == 0) return false;
    if (static_cast<unsigned char>(c) >= 0x80)
      return std::memchr(text.data(), 0, text.size()) == nullptr && valid_utf8(text);
  }
  return true;
}

// Whether component `id`'s label (component_label) is `expected`, compared
// piece by piece: nothing built.
bool component_label_is(const GameState& state, ComponentId id, const std::string& expected) {
  const auto& type = state.type_of(id);
  const std::string_view label(expected);
  if (type.faces.size() <= 1) return label == type.title && valid_utf8(label);
  const std::string& face = state.face_name(id);
  return label.size() == type.title.size() + face.size() + 3 && label.substr(0, type.title.size()) == type.title &&
         label.substr(type.title.size(), 2) == " (" && label.substr(type.title.size() + 2, face.size()) == face &&
         label.back() == ')' && valid_utf8(label);
}

}  // namespace

void OptionLabels::read(std::vector<std::string>& out) const {
  lua_pushliteral(L_, "label");  // interned for good (kLabelKept): pushing it allocates nothing
  const int key = lua_gettop(L_);
  for (size_t i = 0; i < out.size(); ++i) {
    const int type = lua_rawgeti(L_, slot_, static_cast<lua_Integer>(i) + 1);
    std::string_view text;
    int pushed = 0;
    if (raw_label(L_, type, key, text, pushed) && kept_as_is(text)) {
      out[i].assign(text);
      lua_settop(L_, key);
    } else {
      lua_pop(L_, pushed);
      out[i] = label_of_top(L_, static_cast<int>(i), seats_, false);
    }
  }
  lua_settop(L_, key - 1);
}

bool OptionLabels::same(const std::vector<std::string>& labels) const {
  lua_pushliteral(L_, "label");
  const int key = lua_gettop(L_);
  bool same = true;
  for (size_t i = 0; i < labels.size() && same; ++i) {
    const int type = lua_rawgeti(L_, slot_, static_cast<lua_Integer>(i) + 1);
    std::string_view text;
    int pushed = 0;
    if (raw_label(L_, type, key, text, pushed) && kept_as_is(text)) {
      same = text == labels[i];
      lua_settop(L_, key);
      continue;
    }
    lua_pop(L_, pushed);
    const auto* h = type == LUA_TUSERDATA ? static_cast<const Handle*>(lua_touserdata(L_, -1)) : nullptr;
    if (h && h->kind == HandleKind::Component) {
      same = component_label_is(state_of(L_), ComponentId{h->index}, labels[i]);
      lua_pop(L_, 1);
    } else {
      same = label_of_top(L_, static_cast<int>(i), seats_, false) == labels[i];
    }
  }
  lua_settop(L_, key - 1);
  return same;
}


namespace {

// Pushes option i; returns the component it is (none: it is not one).
ComponentId push_option_component(lua_State* L, int slot, int i) {
  if (lua_rawgeti(L, slot, i + 1) != LUA_TUSERDATA) return ComponentId::none();
  const auto* h = static_cast<const Handle*>(lua_touserdata(L, -1));
  return h->kind == HandleKind::Component ? ComponentId{h->index} : ComponentId::none();
}

}  // namespace

ComponentId option_component(lua_State* L, int slot, int i) {
  const ComponentId id = push_option_component(L, slot, i);
  lua_pop(L, 1);
  return id;
}

lua_Integer decision_flags(lua_State* L) { return lua_tointeger(L, kFlags); }

nlohmann::json option_target(lua_State* L, int slot, int i, Seat seat) {
  const GameState& state = state_of(L);
  nlohmann::json target;
  lua_rawgeti(L, slot, i + 1);
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
bool hides_an_option(lua_State* L, int slot, int count) {
  constexpr int kBatch = 8;
  static_assert(kFlags + kBatch <= LUA_MINSTACK, "the batch fits the stack a C function gets");
  const int top = lua_gettop(L);
  const GameState& state = state_of(L);
  const SeatMask everybody = state.all_seats();
  bool hidden = false;
  for (int i = 0; i < count && !hidden; ++i) {
    const ComponentId id = push_option_component(L, slot, i);
    hidden = !id.is_none() && state.knowers(id) != everybody;
    if (i % kBatch == kBatch - 1) lua_settop(L, top);
  }
  lua_settop(L, top);
  return hidden;
}

void record_choice_at(lua_State* L, Seat seat, int slot, int index, int count) {
  GameState& state = state_of(L);
  if (!state.listening()) return;
  const lua_Integer f = decision_flags(L);
  ChoiceRecord c;
  c.seat = seat;
  c.index = index;
  c.label = option_label(L, slot, index, (f & kSeatLabels) != 0);
  c.component = option_component(L, slot, index);
  c.options = count;
  c.secret = (f & kSecret) != 0 || ((f & kAutoPrivacy) != 0 && hides_an_option(L, slot, count));
  c.prompt = lua_tostring(L, 3);
  state.record_choice(c);
}

namespace {

// `asked`: an agent answered (a lone option is taken without asking, and a
// replay must not expect an answer for it).
int push_choice(lua_State* L, Seat seat, int index, int count, bool asked = true) {
  GameRunImpl& game = current_game(L);
  if (asked && game.answer_log) game.answer_log->push_back(AnswerRecord{seat, index});
  record_choice_at(L, seat, kOptions, index, count);
  lua_rawgeti(L, kOptions, index + 1);
  lua_pushinteger(L, index + 1);
  return 2;
}

int choose_continue(lua_State* L, int /*status*/, lua_KContext seat) {
  const int index = static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);
  // The count is read by a choice recorded only (record_choice_at).
  const int count = state_of(L).listening() ? static_cast<int>(lua_rawlen(L, kOptions)) : 0;
  return push_choice(L, Seat{static_cast<int>(seat)}, index, count);
}

}  // namespace

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

void plain_list(lua_State* L, int arg, int slot) {
  if (!lua_getmetatable(L, slot)) return;
  lua_pop(L, 1);
  const int n = list_length_at(L, arg, slot);
  lua_createtable(L, n, 0);
  for (int i = 1; i <= n; ++i) {
    lua_geti(L, slot, i);
    lua_rawseti(L, -2, i);
  }
  lua_replace(L, slot);
}

namespace {

// The game pauses in game:choose until GameRun::answer: the step API (a
// seat without an agent), or an agent that paused it (Agent::kPause).
int pause_at_decision(lua_State* L, GameRunImpl& game, Seat seat, const char* prompt, int n) {
  // Labels and targets are read from this call's stack when somebody
  // reads the request (GameRun::pending, fill_waiting_options): a caller
  // that only answers, as a replay does, never has them built.
  game.pending.resize(1);
  GameRunImpl::Waiting& w = game.pending.front();
  w.request.seat = seat;
  w.request.prompt = prompt;
  w.request.labels.assign(static_cast<size_t>(n), std::string());
  w.request.targets.clear();
  w.request.together.clear();
  w.request.view = nullptr;
  w.built = game.bare_requests;  // bare: nobody will read them
  w.slot = kOptions;
  w.kept_labels = 0;
  w.copy_of_save = 0;
  return lua_yieldk(L, 0, seat.value(), choose_continue);
}

// check_text for the prompt (argument 3), which is mostly the same string
// call after call (the rules' constant): the last one checked is kept as
// the function's own upvalue, and the same string object is taken as it
// is (its text was checked when it was kept).
const char* check_prompt(lua_State* L) {
  const void* prompt = lua_topointer(L, 3);
  if (prompt && prompt == lua_topointer(L, lua_upvalueindex(kOwnUpvalue))) return lua_tostring(L, 3);
  const char* text = check_text(L, 3);  // a string in the slot from here on
  lua_pushvalue(L, 3);
  lua_replace(L, lua_upvalueindex(kOwnUpvalue));
  return text;
}

int decision_choose(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  const char* prompt = check_prompt(L);
  if (lua_type(L, kOptions) != LUA_TTABLE) luaL_checktype(L, kOptions, LUA_TTABLE);
  bool said_private = false;
  lua_Integer f = check_style(L, said_private);
  if (lua_gettop(L) == kOptions) lua_pushnil(L);  // the style's slot: as lua_settop, for less
  else lua_settop(L, kStyle);
  plain_list(L, kOptions, kOptions);
  const lua_Unsigned count = lua_rawlen(L, kOptions);
  luaL_argcheck(L, count > 0, kOptions, "no options to choose from");
  luaL_argcheck(L, count <= static_cast<lua_Unsigned>(std::numeric_limits<int>::max()), kOptions, "too many options");
  const int n = static_cast<int>(count);
  if (!said_private) f |= kAutoPrivacy;
  refuse_inside_read_only_call(L, "game:choose");
  lua_pushinteger(L, f);  // kFlags
  const bool seats = (f & kSeatLabels) != 0;
  GameRunImpl& game = current_game(L);
  if (n == 1) return push_choice(L, seat, 0, n, false);  // nothing to decide

  Agent* agent = game.agents[seat.index()];
  if (!agent) return pause_at_decision(L, game, seat, prompt, n);  // the step API
  int index = -1;
  // The agent's C++ region: nothing in it raises a Lua error, and a C++
  // exception (an agent that cannot answer) ends the game as an agent
  // failure, raised once the region's objects are gone.
  catch_exceptions(L, Abort::Agent, [&] {
    const Decision::LabelFn label = [L, seats](int i) { return option_label(L, kOptions, i, seats); };
    const Decision::ViewFn view = [&game, seat]() { return game.view(seat); };
    const Decision::TargetFn target = [L, seat](int i) { return option_target(L, kOptions, i, seat); };
    const OptionLabels labels(L, kOptions, seats);
    // The agent's thinking is not charged to the rules' time budget (an
    // agent that answers at once is not worth the clock reads).
    const PauseBudget pause(agent->answers_at_once() ? nullptr : L);
    Decision decision(seat, prompt, n, &label, &view, &target);
    decision.set_label_reader(&labels);
    index = agent->choose(decision);
    if ((index < 0 || index >= n) && index != Agent::kPause)
      throw AgentFailure(fmt::format("{} agent for seat {} answered {} of {} options", agent->kind(), seat,
                                     index + 1, n));
    return 0;
  });
  if (index == Agent::kPause) return pause_at_decision(L, game, seat, prompt, n);
  return push_choice(L, seat, index, n);
}

const luaL_Reg kDecisionMethods[] = {
    {"choose", decision_choose},
    {nullptr, nullptr},
};

}  // namespace

void fill_waiting_options(GameRunImpl& g, GameRunImpl::Waiting& w) {
  // The game's thread waits inside game:choose (lua_yieldk keeps the
  // call's stack): its options and flags are read from there, and a label
  // that runs Lua (a metatable) runs on the engine's own state, never on
  // the suspended thread.
  lua_State* co = g.co;
  DecisionRequest& r = w.request;
  const int n = r.count();
  for (int i = 0; i < n; ++i) r.labels[static_cast<size_t>(i)] = waiting_option_label(g, w, i);
  r.targets.clear();
  for (int i = 0; i < n; ++i) {
    nlohmann::json t = option_target(co, w.slot, i, r.seat);
    if (t.is_null()) continue;
    r.targets.resize(static_cast<size_t>(n));
    r.targets[static_cast<size_t>(i)] = std::move(t);
  }
}

std::string waiting_option_label(GameRunImpl& g, const GameRunImpl::Waiting& w, int i) {
  if (i < 64 && ((w.kept_labels >> i) & 1) != 0) return w.request.labels[static_cast<size_t>(i)];
  lua_State* co = g.co;
  lua_State* L = g.engine->L;
  lua_checkstack(L, 4);
  lua_rawgeti(co, w.slot, i + 1);
  lua_xmove(co, L, 1);
  return label_of_top(L, i, (decision_flags(co) & kSeatLabels) != 0, true);
}

void WaitingLabels::read(std::vector<std::string>& out) const {
  for (size_t i = 0; i < out.size(); ++i) {
    if (kept(i)) out[i] = w_.request.labels[i];
    else out[i] = waiting_option_label(g_, w_, static_cast<int>(i));
  }
}

uint64_t WaitingLabels::token() const {
  const size_t n = w_.request.labels.size();
  const bool all_kept = n > 0 && n <= 64 && w_.kept_labels == (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1);
  if (w_.copy_of_save == 0 || !all_kept || w_.copy_of_index >= 256) return 0;
  return w_.copy_of_save << 8 | w_.copy_of_index;
}

bool WaitingLabels::same(const std::vector<std::string>& labels) const {
  lua_State* co = g_.co;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (kept(i)) {
      if (w_.request.labels[i] != labels[i]) return false;
      continue;
    }
    // A component's label compared piece by piece, on the waiting thread's
    // stack (nothing runs there); any other read as waiting_option_label.
    lua_checkstack(co, 1);
    const ComponentId id = push_option_component(co, w_.slot, static_cast<int>(i));
    lua_pop(co, 1);
    if (id.is_none() ? waiting_option_label(g_, w_, static_cast<int>(i)) != labels[i]
                     : !component_label_is(*g_.state, id, labels[i]))
      return false;
  }
  return true;
}

void keep_heap_labels(GameRunImpl& g, GameRunImpl::Waiting& w) {
  w.kept_labels = 0;
  lua_State* co = g.co;
  const int n = std::min(w.request.count(), 64);
  lua_checkstack(co, 2);
  for (int i = 0; i < n; ++i) {
    // Only what label_of_top reads without a call and without the game's
    // state: a string, or a table's own string `label` ("label" is
    // interned for good: pushing it allocates nothing).
    const int type = lua_rawgeti(co, w.slot, i + 1);
    if (type == LUA_TTABLE) {
      lua_pushliteral(co, "label");
      if (lua_rawget(co, -2) != LUA_TSTRING) {
        lua_pop(co, 2);
        continue;
      }
      lua_remove(co, -2);
    } else if (type != LUA_TSTRING) {
      lua_pop(co, 1);
      continue;
    }
    std::string label = lua_tostring(co, -1);
    lua_pop(co, 1);
    make_valid_utf8(label);
    w.request.labels[static_cast<size_t>(i)] = std::move(label);
    w.kept_labels |= uint64_t{1} << i;
  }
}

void register_decisions(lua_State* L) {
  lua_pushnil(L);  // the last prompt checked (check_prompt)
  add_methods(L, "game", kDecisionMethods, 1);
  lua_pushliteral(L, "label");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kLabelKept);
}

}  // namespace rulebook
