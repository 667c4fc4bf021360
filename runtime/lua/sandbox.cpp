// The sandbox's Lua state: the libraries a rule script may use (no io, os,
// debug, package, coroutine) assembled from the rooms beside this file, its
// globals (allow-listed, then sealed), a memory cap, and the budget's hook.
// What each room does: sandbox_internal.hpp.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "lua/budget.hpp"
#include "lua/memory_cap.hpp"
#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

// The __index of the globals' shadow table: only undeclared names get
// here, so declared globals are read without any C call.
int undeclared_global(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "attempt to read undeclared global '%s'", lua_tostring(L, 2));
  return 0;
}

int global_newindex(lua_State* L) {
  return luaL_error(L, "attempt to assign to global '%s' (rule scripts keep their data in "
                    "locals or in game.state)", luaL_tolstring(L, 2, nullptr));
}

void open_library(lua_State* L, const char* name, lua_CFunction open) {
  luaL_requiref(L, name, open, 1);
  lua_pop(L, 1);
}

void copy_fields(lua_State* L, int from, int to, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    lua_getfield(L, from, n);
    lua_setfield(L, to, n);
  }
}

}  // namespace

void refuse_inside_read_only_call(lua_State* L, const char* method) {
  const char* call = context(L)->read_only_call;
  if (call)
    luaL_error(L, "%s cannot be called inside %s: it must only read the game (a search bot calls it on "
               "positions it imagines)", method, call);
}

[[noreturn]] void raise_abort(lua_State* L, Abort why, const char* message) {
  LuaContext* ctx = context(L);
  if (ctx->abort == Abort::None) {
    ctx->abort = why;
    ctx->abort_message = message;
  }
  lua_pushstring(L, ctx->abort_message.c_str());
  lua_error(L);
  std::abort();  // unreachable: lua_error does not return
}

lua_State* sandbox_open(LuaContext* ctx) {
  lua_State* L = memory_capped_state(ctx);
  if (!L) return nullptr;
  *static_cast<LuaContext**>(lua_getextraspace(L)) = ctx;
  lua_atpanic(L, [](lua_State* S) { fprintf(stderr, "rulebook: unprotected Lua error: %s\n", lua_tostring(S, -1)); return 0; });
  lua_gc(L, LUA_GCGEN, 0, 0);

  // Only these libraries are opened: no io, os, debug, package, coroutine.
  open_library(L, "_G", luaopen_base);
  open_library(L, LUA_STRLIBNAME, luaopen_string);
  open_library(L, LUA_TABLIBNAME, luaopen_table);
  open_library(L, LUA_MATHLIBNAME, luaopen_math);
  open_library(L, LUA_UTF8LIBNAME, luaopen_utf8);

  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");

  lua_pushglobaltable(L);
  const int g = lua_gettop(L);
  lua_newtable(L);  // the sandbox's globals
  const int env = lua_gettop(L);
  copy_fields(L, g, env, {"assert", "error", "ipairs", "rawequal", "rawget", "rawlen", "select",
                          "tonumber", "type", "getmetatable", "_VERSION"});
  bound_setmetatable(L, g);
  lua_getfield(L, g, "setmetatable");
  lua_setfield(L, env, "setmetatable");
  lua_pushcfunction(L, det_pairs);     lua_setfield(L, env, "pairs");
  lua_pushcfunction(L, det_tostring);  lua_setfield(L, env, "tostring");
  lua_pushcfunction(L, sandbox_print); lua_setfield(L, env, "print");
  lua_pushcfunction(L, safe_pcall);    lua_setfield(L, env, "pcall");
  lua_pushcfunction(L, safe_xpcall);   lua_setfield(L, env, "xpcall");
  lua_pushcfunction(L, safe_load);     lua_setfield(L, env, "load");
  lua_pushcfunction(L, safe_require);  lua_setfield(L, env, "require");

  // string: no dump, format without %p. The library table itself is shared
  // with the string metatable, so it is frozen in place below.
  lua_getfield(L, g, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_getfield(L, -1, "format");
  lua_pushcclosure(L, det_format, 1);
  lua_setfield(L, -2, "format");
  bound_string_library(L, lua_gettop(L));
  lua_setfield(L, env, "string");
  lua_getfield(L, g, "table");
  bound_table_library(L, lua_gettop(L));
  lua_setfield(L, env, "table");
  lua_getfield(L, g, "utf8");
  lua_setfield(L, env, "utf8");
  lua_getfield(L, g, "math");
  lua_pushcfunction(L, det_random);
  lua_setfield(L, -2, "random");
  lua_pushnil(L);
  lua_setfield(L, -2, "randomseed");
  lua_setfield(L, env, "math");
  lua_getfield(L, env, "table");
  lua_getfield(L, -1, "unpack");
  lua_setfield(L, env, "unpack");
  lua_pop(L, 1);

  for (const char* lib : {"string", "table", "utf8", "math"}) {
    lua_getfield(L, env, lib);
    freeze_table(L, -1, 0);
    lua_pop(L, 1);
  }
  // Strings' metatable must not be reachable, or scripts could change it.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushliteral(L, "string");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);

  lua_pushvalue(L, env);
  ctx->env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 2);  // env, _G
  // The real global table is never seen by scripts; empty it anyway.
  lua_pushglobaltable(L);
  lua_newtable(L);
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  sandbox_arm_hook(L);
  ctx->memory_capped = true;
  budget_watch(ctx);
  return L;
}

void sandbox_close(lua_State* L) {
  if (!L) return;
  LuaContext* ctx = context(L);
  budget_unwatch(ctx);
  // Scripts cannot set finalizers (no __gc), so closing runs no Lua.
  lua_close(L);
  release_sandbox_lock(ctx);
  memory_cap_release(ctx);
}

void sandbox_push_env(lua_State* L) { lua_rawgeti(L, LUA_REGISTRYINDEX, context(L)->env_ref); }

void sandbox_seal_globals(lua_State* L) {
  sandbox_push_env(L);
  const int env = lua_gettop(L);
  if (lua_getmetatable(L, env)) {  // sealed already
    lua_pop(L, 2);
    return;
  }
  // Declared globals move to a shadow table that the (then empty) global
  // table reads through: a plain table lookup, no C call. Only a name the
  // shadow lacks reaches undeclared_global.
  const int shadow = move_to_shadow(L, env);
  lua_newtable(L);
  lua_pushcfunction(L, undeclared_global);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, shadow);
  lua_newtable(L);
  lua_pushvalue(L, shadow);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, global_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushliteral(L, "read-only table");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, env);
  lua_pop(L, 2);
}

int sandbox_traceback(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (!msg) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  luaL_traceback(L, L, msg, 1);
  return 1;
}

std::vector<std::string> sandbox_global_names(lua_State* L) {
  std::vector<std::string> names;
  sandbox_push_env(L);
  const int env = lua_gettop(L);
  auto collect = [&](int table) {
    lua_pushnil(L);
    while (lua_next(L, table)) {
      if (lua_type(L, -2) == LUA_TSTRING) names.emplace_back(lua_tostring(L, -2));
      lua_pop(L, 1);
    }
  };
  collect(env);
  // Once sealed, the globals live in the shadow table the global table reads through.
  if (lua_getmetatable(L, env) && lua_getfield(L, -1, "__index") == LUA_TTABLE) collect(lua_gettop(L));
  lua_settop(L, env - 1);
  return names;
}

}  // namespace rulebook
