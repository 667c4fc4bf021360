#include "lua/rule_engine.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "lua/engine_impl.hpp"
#include "lua/error_report.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

const char* const kDriver =
    "local rules, game, prepare = ...\n"
    "rules.setup(game)\n"
    "if prepare then prepare(game) end\n"
    "return rules.play(game)\n";

int handle_tostring(lua_State* L) {
  EngineImpl& e = engine(L);
  const char* tname = nullptr;
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__name");
  tname = lua_tostring(L, -1);
  const int index = static_cast<const Handle*>(lua_touserdata(L, 1))->index;
  std::string text;
  if (std::string(tname) == "component") {
    const auto& t = e.def->types[e.def->component_type[index]];
    text = fmt::format("{} #{}", t.title, index);
  } else if (std::string(tname) == "zone") {
    text = e.state ? e.state->zone_title(index) : "zone";
  } else {
    text = e.def->boards[index].title;
  }
  lua_pushstring(L, text.c_str());
  return 1;
}

void new_handle_metatable(lua_State* L, const char* name) {
  luaL_newmetatable(L, name);
  lua_newtable(L);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, handle_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

// Handles are made once per Lua state and reused by every game.
int make_handles(lua_State* L, const char* metatable, HandleKind kind, int count) {
  lua_createtable(L, count, 0);
  for (int i = 0; i < count; ++i) {
    *static_cast<Handle*>(lua_newuserdatauv(L, sizeof(Handle), 0)) = Handle{kind, i};
    luaL_setmetatable(L, metatable);
    lua_rawseti(L, -2, i + 1);
  }
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

int print_to_log(lua_State* L) {
  GameState* state = context(L)->state;
  if (state && state->listening()) state->message(-1, lua_tostring(L, 1));
  return 0;
}

std::string display_dir(const std::string& dir) {
  std::error_code ec;
  auto rel = std::filesystem::relative(dir, std::filesystem::current_path(ec), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  return dir;
}

}  // namespace

EngineImpl::~EngineImpl() { sandbox_close(L); }

void EngineImpl::load_rules() {
  ctx.memory_capped = false;
  const std::string script_path = def->dir + "/" + def->script;
  const std::string shown = (ctx.display_dir.empty() ? "" : ctx.display_dir + "/") + def->script;
  lua_pushcfunction(L, sandbox_traceback);
  const int handler = lua_gettop(L);
  auto fail = [&](const std::string& what) {
    std::string msg = lua_tostring(L, -1) ? explain_script_error(L, lua_tostring(L, -1)) : "unknown error";
    lua_settop(L, 0);
    throw ScriptError(what.empty() ? msg : what + ": " + msg);
  };
  if (!sandbox_load_file(L, script_path, shown)) fail("");
  if (protected_run(0, 1, handler) != LUA_OK) fail("");
  if (!lua_istable(L, -1))
    throw ScriptError(fmt::format("{}: the script must return a table of rule functions", shown));
  const int rules = lua_gettop(L);
  for (const char* required : {"setup", "play"}) {
    lua_getfield(L, rules, required);
    if (!lua_isfunction(L, -1))
      throw ScriptError(fmt::format("{}: the returned table has no function '{}'", shown, required));
    lua_pop(L, 1);
  }
  // Variants replace named rule functions, in the order they were given.
  for (const auto& v : def->variants) {
    if (v.script.empty()) continue;
    const std::string vshown = display_dir(v.script);
    if (!sandbox_load_file(L, v.script, vshown)) fail("");
    lua_pushvalue(L, rules);
    if (protected_run(1, 0, handler) != LUA_OK) fail("");
  }
  sandbox_guard(L, rules, "rules");
  upvalues_ref = sandbox_lock_upvalues(L, rules);
  rules_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 1);  // handler
  sandbox_seal_globals(L);

  luaL_loadbufferx(L, kDriver, std::char_traits<char>::length(kDriver), "=(rulebook)", "t");
  driver_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  push_json(L, def->options);
  sandbox_freeze(L, -1);
  options_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void EngineImpl::check_guarded() {
  const std::string change = sandbox_restore_guarded(L);
  if (!change.empty())
    throw ScriptError(fmt::format("{}: the game changed the read-only {}; module tables and their "
                                  "fields cannot change during a game (keep game data in game.state)",
                                  def->script, change));
}

int EngineImpl::protected_run(int nargs, int nresults, int handler) {
  ctx.memory_capped = true;
  ctx.abort = Abort::None;
  sandbox_begin_run(L);
  const int status = lua_pcall(L, nargs, nresults, handler);
  sandbox_end_run(L);
  ctx.memory_capped = false;
  // A memory error skips the message handler: say which limit it was.
  if (status != LUA_OK && ctx.abort == Abort::Memory) {
    lua_pushstring(L, ctx.abort_message.c_str());
    lua_replace(L, -2);
  }
  return status;
}

bool EngineImpl::resume(int nargs) {
  // Once the game is over, the caller's sink is restored.
  struct RestoreSink {
    EngineImpl& e;
    bool* running;
    ~RestoreSink() {
      if (!*running && !e.feed.observers.empty() && e.state) {
        e.state->set_sink(e.caller_sink);
        e.feed.observers.clear();
      }
    }
  } restore{*this, &running};
  int nres = 0;
  ctx.memory_capped = true;
  sandbox_begin_run(co);
  const int status = lua_resume(co, L, nargs, &nres);
  sandbox_end_run(co);
  ctx.memory_capped = false;
  if (status == LUA_OK) {
    lua_pop(co, nres);
    running = false;
    check_guarded();
    if (!result.finished)
      throw ScriptError(fmt::format("{}: the rules' play function returned without calling "
                                    "game:finish", def->script));
    return false;
  }
  if (status == LUA_YIELD) {
    lua_pop(co, nres);
    if (pending.seat < 0) throw ScriptError("a rule script yielded outside a decision");
    return true;
  }
  running = false;
  const Abort why = ctx.abort;
  if (why == Abort::Finished || why == Abort::Stopped) {
    result.stopped = why == Abort::Stopped;
    check_guarded();
    return false;
  }
  sandbox_restore_guarded(L);  // the script's own error is the one to report
  if (why == Abort::Agent) throw AgentFailure(ctx.abort_message);
  std::string message = lua_tostring(co, -1) ? lua_tostring(co, -1) : "error object is not a string";
  if (why == Abort::Budget || why == Abort::Memory) message = ctx.abort_message;
  luaL_traceback(L, co, message.c_str(), 0);
  std::string text = explain_script_error(L, lua_tostring(L, -1));
  lua_pop(L, 1);
  // Never reuse a thread a script error unwound: when the error came from
  // the count hook (the budget), Lua leaves hooks disabled on that thread,
  // and the next game would run without any instruction budget.
  luaL_unref(L, LUA_REGISTRYINDEX, co_ref);
  co_ref = LUA_NOREF;
  co = nullptr;
  // And free what the failed game left (a memory bomb's garbage), or the
  // next game would start next to the memory cap.
  lua_gc(L, LUA_GCCOLLECT);
  throw ScriptError(text);
}

nlohmann::json EngineImpl::view(int seat) const {
  nlohmann::json v = state->view(seat);
  if (game_ref != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref);
    lua_getfield(L, -1, "state");
    nlohmann::json s;
    std::string error;
    const bool converted = to_json_checked(L, -1, s, error);
    lua_pop(L, 2);
    if (!converted) throw ScriptError("game.state: cannot convert it to JSON: " + error);
    if (!s.empty()) v["state"] = std::move(s);
  }
  return v;
}

RuleEngine::RuleEngine(std::shared_ptr<const GameDefinition> definition, EngineLimits limits,
                       LineCoverage* coverage)
    : impl_(std::make_unique<EngineImpl>()) {
  EngineImpl& e = *impl_;
  e.def = std::move(definition);
  e.ctx.engine = &e;
  e.ctx.game_dir = e.def->dir;
  e.ctx.display_dir = display_dir(e.def->dir);
  e.ctx.max_instructions = limits.max_instructions;
  e.ctx.max_memory = limits.max_memory;
  e.ctx.max_seconds = limits.max_seconds;
  e.ctx.coverage = coverage;
  e.L = sandbox_open(&e.ctx);
  if (!e.L) throw ScriptError("cannot create a Lua state");
  lua_State* L = e.L;
  e.ctx.memory_capped = false;
  lua_pushcfunction(L, print_to_log);
  lua_setfield(L, LUA_REGISTRYINDEX, "rulebook.print");

  luaL_newmetatable(L, "game");
  lua_newtable(L);
  lua_setfield(L, -2, "__index");
  lua_pushliteral(L, "game");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  new_handle_metatable(L, "component");
  new_handle_metatable(L, "zone");
  new_handle_metatable(L, "board");
  // The method tables need no freezing: their metatables are protected
  // (__metatable), so scripts can call the methods but never reach a table.
  lua_createtable(L, 0, static_cast<int>(e.def->face_names.size()));
  for (size_t i = 0; i < e.def->face_names.size(); ++i) {
    lua_pushinteger(L, static_cast<lua_Integer>(i));
    lua_setfield(L, -2, e.def->face_names[i].c_str());
  }
  e.faces_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  e.components_ref = make_handles(L, "component", HandleKind::Component, e.def->component_count());
  e.zones_ref = make_handles(L, "zone", HandleKind::Zone, e.def->zone_count());
  e.boards_ref = make_handles(L, "board", HandleKind::Board, static_cast<int>(e.def->boards.size()));
  // After the handles: every binding gets the handle tables as upvalues.
  register_game(L);
  register_turns(L);
  register_decisions(L);
  register_components(L);
  register_dice(L);
  register_zones(L);
  register_decks(L);
  register_boards(L);

  e.load_rules();
}

RuleEngine::~RuleEngine() = default;

const GameDefinition& RuleEngine::definition() const { return *impl_->def; }

std::map<std::string, std::vector<std::string>> RuleEngine::api_methods() const {
  return api_method_names(impl_->L);
}

const char* lua_version() { return LUA_RELEASE; }

bool RuleEngine::begin(GameState& state, const std::vector<Agent*>& agents) {
  EngineImpl& e = *impl_;
  lua_State* L = e.L;
  e.state = &state;
  e.agents = agents;
  e.agents.resize(state.player_count(), nullptr);
  e.result = GameResult{};
  e.pending = PendingDecision{};
  e.ctx.state = &state;
  e.ctx.random = &state.chance();
  e.ctx.instructions = 0;
  e.ctx.abort = Abort::None;
  e.ctx.abort_message.clear();
  e.ctx.memory_capped = false;
  for (int seat = 0; seat < state.player_count(); ++seat)
    if (e.agents[seat]) e.agents[seat]->begin_game(state.seed(), seat);
  // Observing agents get the events their seat may see, besides whoever
  // already listens. Without them the state's sink is left alone, so a
  // silent simulation builds no events at all.
  e.feed.observers.clear();
  for (int seat = 0; seat < state.player_count(); ++seat)
    if (e.agents[seat] && e.agents[seat]->wants_events()) e.feed.observers.emplace_back(seat, e.agents[seat]);
  if (!e.feed.observers.empty()) {
    e.caller_sink = state.sink();
    e.tee = EventTee();
    e.tee.add(e.caller_sink);
    e.tee.add(&e.feed);
    state.set_sink(&e.tee);
  }

  // Module-level locals start every game as they were loaded, and a fresh
  // `game` table: nothing a game writes reaches the next.
  sandbox_restore_upvalues(L, e.upvalues_ref);
  luaL_unref(L, LUA_REGISTRYINDEX, e.game_ref);
  lua_createtable(L, 0, 2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.options_ref);
  lua_setfield(L, -2, "options");
  lua_newtable(L);
  lua_setfield(L, -2, "state");
  luaL_setmetatable(L, "game");
  e.game_table = lua_topointer(L, -1);
  e.game_ref = luaL_ref(L, LUA_REGISTRYINDEX);

  // Reuse the game thread; after an error or game:finish it is reset first.
  if (e.co && (lua_status(e.co) != LUA_OK || lua_gettop(e.co) != 0)) {
    // Resetting runs the __close handlers a finished game left pending:
    // Lua code, so under the budget like any other.
    e.ctx.memory_capped = true;
    sandbox_begin_run(e.co);
    const int reset = lua_resetthread(e.co);
    sandbox_end_run(e.co);
    e.ctx.memory_capped = false;
    if (reset != LUA_OK) lua_settop(e.co, 0);
    e.ctx.abort = Abort::None;
    e.ctx.abort_message.clear();
    e.ctx.instructions = 0;
  }
  if (!e.co || lua_status(e.co) != LUA_OK || lua_gettop(e.co) != 0) {
    luaL_unref(L, LUA_REGISTRYINDEX, e.co_ref);
    e.co = lua_newthread(L);
    e.co_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    sandbox_arm_hook(e.co);
  }
  lua_rawgeti(e.co, LUA_REGISTRYINDEX, e.driver_ref);
  lua_rawgeti(e.co, LUA_REGISTRYINDEX, e.rules_ref);
  lua_rawgeti(e.co, LUA_REGISTRYINDEX, e.game_ref);
  if (e.prepare_ref != LUA_NOREF) lua_rawgeti(e.co, LUA_REGISTRYINDEX, e.prepare_ref);
  else lua_pushnil(e.co);
  e.running = true;
  const bool pending = e.resume(3);
  if (!pending) e.result.turns = state.turns().turns_started();
  return pending;
}

bool RuleEngine::answer(int index) {
  EngineImpl& e = *impl_;
  if (!e.running || e.pending.seat < 0) throw std::logic_error("no decision is pending");
  if (index < 0 || index >= static_cast<int>(e.pending.labels.size()))
    throw std::out_of_range("answer out of range");
  lua_pushinteger(e.co, index);
  e.pending = PendingDecision{};
  const bool pending = e.resume(1);
  if (!pending) e.result.turns = e.state->turns().turns_started();
  return pending;
}

GameResult RuleEngine::play(GameState& state, const std::vector<Agent*>& agents) {
  for (int seat = 0; seat < state.player_count(); ++seat)
    if (seat >= static_cast<int>(agents.size()) || !agents[seat])
      throw std::invalid_argument(fmt::format("no agent for seat {}", seat));
  begin(state, agents);
  return impl_->result;
}

const PendingDecision& RuleEngine::pending() const { return impl_->pending; }
const GameResult& RuleEngine::result() const { return impl_->result; }
void RuleEngine::set_turn_limit(int turns) { impl_->turn_limit = turns; }
void RuleEngine::set_answer_log(std::vector<AnswerRecord>* log) { impl_->answer_log = log; }
nlohmann::json RuleEngine::view(int seat) const { return impl_->view(seat); }

void RuleEngine::set_prepare(const std::string& code, const std::string& chunk_name) {
  EngineImpl& e = *impl_;
  lua_State* L = e.L;
  luaL_unref(L, LUA_REGISTRYINDEX, e.prepare_ref);
  e.prepare_ref = LUA_NOREF;
  if (code.empty()) return;
  const std::string source = "local game = ...\n" + code;
  const std::string name = "@" + chunk_name;
  e.ctx.memory_capped = false;
  if (luaL_loadbufferx(L, source.data(), source.size(), name.c_str(), "t") != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_pop(L, 1);
    throw ScriptError(msg);
  }
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
  e.prepare_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

nlohmann::json RuleEngine::evaluate(const std::string& expression, const std::string& chunk_name) {
  EngineImpl& e = *impl_;
  lua_State* L = e.L;
  if (e.game_ref == LUA_NOREF) throw std::logic_error("no game to evaluate against");
  const std::string source = "local game = ...\nreturn " + expression;
  const std::string name = "@" + chunk_name;
  e.ctx.memory_capped = false;
  e.ctx.abort = Abort::None;
  e.ctx.instructions = 0;
  lua_pushcfunction(L, sandbox_traceback);
  const int handler = lua_gettop(L);
  if (luaL_loadbufferx(L, source.data(), source.size(), name.c_str(), "t") != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_settop(L, handler - 1);
    throw ScriptError(msg);
  }
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.game_ref);
  const int status = e.protected_run(1, 1, handler);
  sandbox_restore_guarded(L);  // an expression cannot change the next game
  if (status != LUA_OK) {
    std::string msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : "error";
    lua_settop(L, handler - 1);
    throw ScriptError(msg);
  }
  nlohmann::json value;
  std::string error;
  const bool converted = to_json_checked(L, -1, value, error);
  lua_settop(L, handler - 1);
  if (!converted) throw ScriptError(chunk_name + ": cannot convert the value to JSON: " + error);
  return value;
}

}  // namespace rulebook
