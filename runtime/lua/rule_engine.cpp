#include "lua/rule_engine.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "lua/engine_impl.hpp"
#include "lua/error_report.hpp"
#include "lua/lua_heap.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

const char* const kDriver =
    "local rules, game, prepare = ...\n"
    "rules.setup(game)\n"
    "if prepare then prepare(game, rules) end\n"
    "return rules.play(game)\n";

int handle_tostring(lua_State* L) {
  EngineImpl& e = engine(L);
  const GameState* state = context(L)->state;
  const char* tname = nullptr;
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__name");
  tname = lua_tostring(L, -1);
  const int index = static_cast<const Handle*>(lua_touserdata(L, 1))->index;
  std::string text;
  if (std::string(tname) == "component") {
    const auto& t = e.def->types[state ? state->component(ComponentId{index}).type : e.def->component_type[index]];
    text = fmt::format("{} #{}", t.title, index);
  } else if (std::string(tname) == "zone") {
    text = state ? state->zone_title(index) : "zone";
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

// `game` holds the rules' own fields (state, options, anything they add)
// beside its methods, which come from the metatable: a field named like a
// method would hide it (`game.board = ...` and game:board() is gone), so
// such an assignment is an error naming the method.
int guard_game_methods(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
      return luaL_error(L, "game.%s is a method of game and cannot be assigned "
                           "(keep the rules' data in game.state)", lua_tostring(L, 2));
    lua_pop(L, 1);
  }
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 0;
}

int print_to_log(lua_State* L) {
  GameState* state = context(L)->state;
  if (state && state->listening()) state->message(Seat::none(), text_at(L, 1));
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

namespace {

// Protected: the name of the first of the required rule functions that the
// table (argument 1) lacks, or nil.
int missing_rule_function(lua_State* L) {
  for (const char* required : {"setup", "play"}) {
    if (lua_getfield(L, 1, required) != LUA_TFUNCTION) {
      lua_pushstring(L, required);
      return 1;
    }
    lua_pop(L, 1);
  }
  return 0;
}

// rules[name], in a protected call: the table's __index may raise or loop.
int read_rule_field(lua_State* L) {
  lua_getfield(L, 1, lua_tostring(L, 2));
  return 1;
}

}  // namespace

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
  // Reading the fields may run the table's __index: in a protected call,
  // under the budget, so that its error or loop never unwinds through here.
  lua_pushcfunction(L, missing_rule_function);
  lua_pushvalue(L, rules);
  if (protected_run(1, 1, handler) != LUA_OK) fail("");
  if (lua_isstring(L, -1))
    throw ScriptError(fmt::format("{}: the returned table has no function '{}'", shown, lua_tostring(L, -1)));
  lua_pop(L, 1);
  // Variants replace named rule functions, in the order they were given.
  for (const auto& v : def->variants) {
    if (v.script.empty()) continue;
    const std::string vshown = display_dir(v.script);
    if (!sandbox_load_file(L, v.script, vshown)) fail("");
    lua_pushvalue(L, rules);
    if (protected_run(1, 0, handler) != LUA_OK) fail("");
  }
  // Optional rule functions: registry references, or LUA_NOREF when absent.
  auto optional_rule = [&](const char* name) {
    lua_pushcfunction(L, read_rule_field);
    lua_pushvalue(L, rules);
    lua_pushstring(L, name);
    if (protected_run(2, 1, handler) != LUA_OK) fail("");
    if (lua_isfunction(L, -1)) return luaL_ref(L, LUA_REGISTRYINDEX);
    if (!lua_isnil(L, -1))
      throw ScriptError(fmt::format("{}: rules.{} must be a function (got {})", shown, name, luaL_typename(L, -1)));
    lua_pop(L, 1);
    return LUA_NOREF;
  };
  // rules.evaluate: a game without it is scored by outcomes.
  evaluate_ref = optional_rule("evaluate");
  // rules.describe: pages and the terminal show game.state without it.
  describe_ref = optional_rule("describe");
  // rules.deal_unseen: search bots sample generically without it.
  deal_unseen_ref = optional_rule("deal_unseen");
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
  check_metatables();
  const std::string change = sandbox_restore_guarded(L);
  if (!change.empty())
    throw ScriptError(fmt::format("{}: the game changed the read-only {}; module tables and their "
                                  "fields cannot change during a game (keep game data in game.state)",
                                  def->script, change));
}

void EngineImpl::check_metatables() {
  const std::string weak = sandbox_late_weak_metatable(L);
  if (!weak.empty()) throw ScriptError(weak);
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

EngineLimits RuleEngine::limits() const {
  const LuaContext& ctx = impl_->ctx;
  return EngineLimits{ctx.max_instructions, ctx.max_memory, ctx.max_seconds};
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
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");
  lua_pushcclosure(L, guard_game_methods, 1);  // the method table
  lua_setfield(L, -2, "__newindex");
  lua_pushliteral(L, "game");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  new_handle_metatable(L, "component");
  new_handle_metatable(L, "zone");
  new_handle_metatable(L, "board");
  // The method tables need no freezing: their metatables are protected
  // (__metatable), so scripts can call the methods but never reach a table.
  lua_createtable(L, 0, static_cast<int>(e.def->face_names.size()));
  e.face_names.assign(e.def->face_names.size(), nullptr);
  for (size_t i = 0; i < e.def->face_names.size(); ++i) {
    const std::string& name = e.def->face_names[i];
    // The key's string (interned when short) is the one every script's
    // same short string is: face_id_of recognises it by its address.
    lua_pushlstring(L, name.data(), name.size());
    e.face_names[i] = lua_topointer(L, -1);
    lua_pushinteger(L, static_cast<lua_Integer>(i));
    lua_rawset(L, -3);
    auto& slot = e.face_cache[EngineImpl::face_slot(e.face_names[i])];
    if (!slot.name) slot = {e.face_names[i], FaceId{static_cast<int>(i)}};
  }
  e.faces_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  e.attrs_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  e.components_ref = make_handles(L, "component", HandleKind::Component, e.def->component_count());
  e.zones_ref = make_handles(L, "zone", HandleKind::Zone, e.def->zone_count());
  e.boards_ref = make_handles(L, "board", HandleKind::Board, static_cast<int>(e.def->boards.size()));
  // After the handles: every binding gets the handle tables as upvalues.
  register_game(L);
  register_turns(L);
  register_decisions(L);
  register_together(L);
  register_components(L);
  register_dice(L);
  register_zones(L);
  register_decks(L);
  register_boards(L);

  e.load_rules();
}

RuleEngine::~RuleEngine() = default;

void RuleEngine::trim_memory() {
  EngineImpl& e = *impl_;
  // The last game's thread keeps that game's stack (its locals) until the
  // next game resets it: let go, as a fresh engine has none.
  if (e.spare_co) {
    luaL_unref(e.L, LUA_REGISTRYINDEX, e.spare_co_ref);
    e.spare_co = nullptr;
    e.spare_co_ref = LUA_NOREF;
  }
  lua_gc(e.L, LUA_GCCOLLECT);
  e.ctx.heap->trim();
}

const GameDefinition& RuleEngine::definition() const { return *impl_->def; }

std::map<std::string, std::vector<std::string>> RuleEngine::api_methods() const {
  return api_method_names(impl_->L);
}

const char* lua_version() { return LUA_RELEASE; }

void RuleEngine::check_prepare(const std::string& code, const std::string& chunk_name) {
  if (code.empty()) return;
  impl_->load_game_chunk(code, chunk_name);
  lua_pop(impl_->L, 1);
}

bool RuleEngine::has_evaluation() const { return impl_->evaluate_ref != LUA_NOREF; }
bool RuleEngine::has_deal_unseen() const { return impl_->deal_unseen_ref != LUA_NOREF; }

void EngineImpl::load_game_chunk(const std::string& code, const std::string& chunk_name) {
  // The parameters share the code's first line, so that the chunk's line
  // numbers are the code's own (a scenario pads its code to the file's).
  const std::string source = "local game, rules = ...; " + code;
  const std::string name = "@" + chunk_name;
  ctx.memory_capped = false;
  if (luaL_loadbufferx(L, source.data(), source.size(), name.c_str(), "t") != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_pop(L, 1);
    throw ScriptError(msg);
  }
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
}

}  // namespace rulebook
