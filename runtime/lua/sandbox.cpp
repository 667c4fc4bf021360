#include "lua/sandbox.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/rng.hpp"

namespace rulebook {
namespace {

constexpr int kHookInterval = 1000;
const char* const kFrozenMarker = "__frozen";

// ---- allocator: every byte counts against the cap -----------------------

void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* ctx = static_cast<LuaContext*>(ud);
  const size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    ctx->memory -= old;
    std::free(ptr);
    return nullptr;
  }
  if (ctx->memory_capped && nsize > old && ctx->memory - old + nsize > ctx->max_memory) {
    if (ctx->abort == Abort::None) {
      ctx->abort = Abort::Memory;
      ctx->abort_message = "script exceeded its memory cap of " +
                           std::to_string(ctx->max_memory / (1024 * 1024)) + " MiB";
    }
    return nullptr;
  }
  void* p = std::realloc(ptr, nsize);
  if (p) ctx->memory = ctx->memory - old + nsize;
  return p;
}

// ---- instruction budget --------------------------------------------------

void count_hook(lua_State* L, lua_Debug* ar) {
  LuaContext* ctx = context(L);
  ctx->instructions += kHookInterval;
  if ((ctx->max_instructions == 0 || ctx->instructions <= ctx->max_instructions) && ctx->abort == Abort::None) return;
  lua_getinfo(L, "Sl", ar);
  char where[256];
  snprintf(where, sizeof where, "%s:%d: ", ar->short_src, ar->currentline);
  if (ctx->abort == Abort::None) {
    ctx->abort = Abort::Budget;
    ctx->abort_message = std::string(where) + "script exceeded its instruction budget of " +
                         std::to_string(ctx->max_instructions) + " instructions";
  }
  lua_pushstring(L, ctx->abort_message.c_str());
  lua_error(L);
}

// ---- guarded globals and frozen tables -----------------------------------

int frozen_newindex(lua_State* L) {
  return luaL_error(L, "attempt to modify a read-only table (field '%s')",
                    luaL_tolstring(L, 2, nullptr));
}

int frozen_len(lua_State* L) {
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__index");
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, -1)));
  return 1;
}

int global_index(lua_State* L) {
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  if (lua_isnil(L, -1) && lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "attempt to read undeclared global '%s'", lua_tostring(L, 2));
  return 1;
}

int global_newindex(lua_State* L) {
  return luaL_error(L, "attempt to assign to global '%s' (rule scripts keep their data in "
                    "locals or in game.state)", luaL_tolstring(L, 2, nullptr));
}

// Moves every field of the table at `index` into a new table, left on the
// stack top, and empties the original: the first step of making it read-only.
int move_to_shadow(lua_State* L, int index) {
  lua_newtable(L);
  const int shadow = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, index)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, shadow);
  }
  for (;;) {
    lua_pushnil(L);
    if (!lua_next(L, index)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawset(L, index);
  }
  return shadow;
}

// Moves t's contents into a shadow table that t reads through.
void freeze_table(lua_State* L, int index, int depth) {
  index = lua_absindex(L, index);
  if (depth > 32) return;
  if (lua_getmetatable(L, index)) {
    lua_getfield(L, -1, kFrozenMarker);
    const bool frozen = lua_toboolean(L, -1);
    lua_pop(L, 2);
    if (frozen) return;
  }
  const int shadow = move_to_shadow(L, index);
  // Freeze nested tables in the shadow.
  lua_pushnil(L);
  while (lua_next(L, shadow)) {
    if (lua_type(L, -1) == LUA_TTABLE) freeze_table(L, -1, depth + 1);
    lua_pop(L, 1);
  }
  lua_newtable(L);  // metatable
  lua_pushvalue(L, shadow);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, frozen_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, frozen_len);
  lua_setfield(L, -2, "__len");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, kFrozenMarker);
  lua_pushliteral(L, "read-only table");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, index);
  lua_pop(L, 1);  // shadow
}

// The table whose contents `pairs` should walk: a frozen table's shadow.
int contents_of(lua_State* L, int index) {
  const int top = lua_gettop(L);
  if (lua_getmetatable(L, index)) {
    lua_getfield(L, -1, kFrozenMarker);
    const bool frozen = lua_toboolean(L, -1);
    if (frozen && lua_getfield(L, -2, "__index") == LUA_TTABLE) {
      lua_replace(L, top + 1);
      lua_settop(L, top + 1);
      return top + 1;
    }
    lua_settop(L, top);
  }
  lua_pushvalue(L, index);
  return top + 1;
}

// ---- deterministic replacements ------------------------------------------

struct KeyRef {
  int kind;  // 0 number, 1 string, 2 boolean
  lua_Number number;
  const char* text;
  size_t length;
  int slot;
};

int sorted_pairs_next(lua_State* L) {
  // upvalues: table, sorted keys, position
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(3)) + 1;
  if (lua_rawgeti(L, lua_upvalueindex(2), i) == LUA_TNIL) return 0;
  lua_pushinteger(L, i);
  lua_replace(L, lua_upvalueindex(3));
  lua_pushvalue(L, -1);
  lua_gettable(L, lua_upvalueindex(1));
  return 2;
}

// pairs() in a fixed order (numbers ascending, then strings, then booleans):
// Lua's own order depends on string hashes seeded per process.
int det_pairs(lua_State* L) {
  luaL_checkany(L, 1);
  if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);
    return 3;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  const int source = contents_of(L, 1);
  lua_newtable(L);
  const int keys = lua_gettop(L);
  std::vector<KeyRef> refs;
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, source)) {
    lua_pop(L, 1);
    KeyRef k{};
    switch (lua_type(L, -1)) {
      case LUA_TNUMBER: k.kind = 0; k.number = lua_tonumber(L, -1); break;
      case LUA_TSTRING: k.kind = 1; break;
      case LUA_TBOOLEAN: k.kind = 2; k.number = lua_toboolean(L, -1); break;
      default:
        return luaL_error(L, "pairs: keys of type %s have no fixed order; use ipairs or "
                          "string keys", luaL_typename(L, -1));
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++n);  // keeps strings alive while sorting
    k.slot = n;
    refs.push_back(k);
  }
  for (auto& k : refs) {
    if (k.kind != 1) continue;
    lua_rawgeti(L, keys, k.slot);
    k.text = lua_tolstring(L, -1, &k.length);
    lua_pop(L, 1);  // still referenced from `keys`
  }
  std::sort(refs.begin(), refs.end(), [](const KeyRef& a, const KeyRef& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.kind == 1) {
      const int c = std::memcmp(a.text, b.text, std::min(a.length, b.length));
      return c != 0 ? c < 0 : a.length < b.length;
    }
    return a.number < b.number;
  });
  lua_createtable(L, n, 0);
  const int sorted = lua_gettop(L);
  for (int i = 0; i < n; ++i) {
    lua_rawgeti(L, keys, refs[i].slot);
    lua_rawseti(L, sorted, i + 1);
  }
  lua_pushvalue(L, 1);
  lua_pushvalue(L, sorted);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, sorted_pairs_next, 3);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

// tostring() without addresses, which differ from run to run.
int det_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  const int t = lua_type(L, 1);
  if ((t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD) &&
      luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) {
    if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING) return 1;
    lua_pushstring(L, lua_typename(L, t));
    return 1;
  }
  if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD) lua_pop(L, 1);
  luaL_tolstring(L, 1, nullptr);
  return 1;
}

// math.random from the game's seeded stream (same contract as Lua's).
int det_random(lua_State* L) {
  Rng* rng = context(L)->random;
  if (!rng) return luaL_error(L, "math.random is not available outside a game");
  lua_Integer low, up;
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, static_cast<lua_Number>(rng->unit()));
      return 1;
    case 1:
      low = 1;
      up = luaL_checkinteger(L, 1);
      break;
    case 2:
      low = luaL_checkinteger(L, 1);
      up = luaL_checkinteger(L, 2);
      break;
    default: return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, low <= up, lua_gettop(L), "interval is empty");
  const uint64_t span = static_cast<uint64_t>(up) - static_cast<uint64_t>(low);
  luaL_argcheck(L, span < 0xffffffffull, lua_gettop(L), "interval is too large");
  lua_pushinteger(L, low + static_cast<lua_Integer>(rng->below(static_cast<uint32_t>(span + 1))));
  return 1;
}

int det_format(lua_State* L) {
  size_t n;
  const char* fmt = luaL_checklstring(L, 1, &n);
  int arg = 1;
  for (size_t i = 0; i + 1 < n; ++i) {
    if (fmt[i] != '%') continue;
    size_t j = i + 1;
    if (fmt[j] == '%') { i = j; continue; }
    ++arg;
    while (j < n && std::strchr("-+ #0123456789.", fmt[j])) ++j;
    if (j < n && fmt[j] == 'p')
      return luaL_argerror(L, 1, "'%p' prints addresses, which differ from run to run");
    // "%s" of a table, function, ... would show its address: use the
    // sandbox's tostring for it, as print and tostring do.
    if (j < n && fmt[j] == 's' && arg <= lua_gettop(L)) {
      const int t = lua_type(L, arg);
      if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD ||
          t == LUA_TLIGHTUSERDATA) {
        lua_pushcfunction(L, det_tostring);
        lua_pushvalue(L, arg);
        lua_call(L, 1, 1);
        lua_replace(L, arg);
      }
    }
    i = j;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// print() goes to the game's log through game.print if set.
int sandbox_print(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; ++i) {
    lua_pushcfunction(L, det_tostring);
    lua_pushvalue(L, i);
    lua_call(L, 1, 1);
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.print");
  if (lua_isfunction(L, -1)) {
    lua_insert(L, -2);
    lua_call(L, 1, 0);
  }
  return 0;
}

// pcall/xpcall that let runtime aborts (budget, memory, agent) through.
int finish_pcall(lua_State* L, int status, lua_KContext extra) {
  LuaContext* ctx = context(L);
  if (status != LUA_OK && status != LUA_YIELD) {
    if (ctx->abort != Abort::None) return lua_error(L);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - static_cast<int>(extra);
}

int safe_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  const int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
  return finish_pcall(L, status, 0);
}

// xpcall's message handler, guarded: once an abort is pending the script's
// handler is not called. The budget's error is raised inside the count
// hook, where Lua runs with hooks off: a handler called from there would
// run unbudgeted, and one that loops would hang the game for ever.
int guarded_handler(lua_State* L) {
  if (context(L)->abort != Abort::None) return 1;  // the message as it is
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int safe_xpcall(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);
  const int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
  return finish_pcall(L, status, 2);
}

// load() of text chunks only, in the sandbox by default.
int safe_load(lua_State* L) {
  size_t len;
  const char* s = lua_tolstring(L, 1, &len);
  luaL_argcheck(L, s != nullptr, 1, "load only accepts source text in rule scripts");
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
  const char* mode = luaL_optstring(L, 3, "t");
  luaL_argcheck(L, std::strcmp(mode, "t") == 0, 3, "binary chunks are not allowed");
  if (luaL_loadbufferx(L, s, len, chunkname, "t") != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  if (!lua_isnone(L, 4)) lua_pushvalue(L, 4);
  else sandbox_push_env(L);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}

// require("name") loads name.lua (dots for folders) from the game folder.
int safe_require(lua_State* L) {
  size_t len;
  const char* name = luaL_checklstring(L, 1, &len);
  bool ok = len > 0 && len < 200 && name[0] != '.' && name[len - 1] != '.';
  for (size_t i = 0; ok && i < len; ++i) {
    const char c = name[i];
    ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
         (c == '.' && name[i + 1] != '.');
  }
  luaL_argcheck(L, ok, 1, "module names are letters, digits, '_', '-' and single dots");
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");
  lua_getfield(L, -1, name);
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  LuaContext* ctx = context(L);
  std::string rel(name, len);
  std::replace(rel.begin(), rel.end(), '.', '/');
  rel += ".lua";
  const std::string display = ctx->display_dir.empty() ? rel : ctx->display_dir + "/" + rel;
  if (!sandbox_load_file(L, ctx->game_dir + "/" + rel, display))
    return luaL_error(L, "module '%s' not found in the game folder: %s", name, lua_tostring(L, -1));
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  if (lua_istable(L, -1)) freeze_table(L, -1, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, name);
  return 1;
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
  lua_State* L = lua_newstate(limited_alloc, ctx);
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
                          "tonumber", "type", "setmetatable", "getmetatable", "_VERSION"});
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
  lua_setfield(L, env, "string");
  lua_getfield(L, g, "table");
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
  return L;
}

void sandbox_close(lua_State* L) {
  if (L) lua_close(L);
}

void sandbox_push_env(lua_State* L) { lua_rawgeti(L, LUA_REGISTRYINDEX, context(L)->env_ref); }

bool sandbox_load_file(lua_State* L, const std::string& path, const std::string& display_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    lua_pushfstring(L, "cannot read %s", display_name.c_str());
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  const std::string chunkname = "@" + display_name;
  if (luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t") != LUA_OK)
    return false;
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
  return true;
}

void sandbox_freeze(lua_State* L, int index) { freeze_table(L, index, 0); }

namespace {

struct UpvalueWalk {
  lua_State* L;
  int visited;  // table: object -> true
  int record;   // array of {function, n, value} triples, flattened
  int count = 0;
  std::vector<const void*> upvalue_ids;

  bool first_visit(int index) {
    lua_pushvalue(L, index);
    if (lua_rawget(L, visited) != LUA_TNIL) {
      lua_pop(L, 1);
      return false;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, index);
    lua_pushboolean(L, 1);
    lua_rawset(L, visited);
    return true;
  }

  void visit(int index, int depth) {
    index = lua_absindex(L, index);
    if (depth > 64) return;
    luaL_checkstack(L, 8, "module state too deep");
    if (lua_type(L, index) == LUA_TTABLE) {
      if (!first_visit(index)) return;
      sandbox_push_env(L);
      const bool is_env = lua_rawequal(L, -1, index);
      lua_pop(L, 1);
      if (is_env) return;
      const int contents = contents_of(L, index);
      lua_pushnil(L);
      while (lua_next(L, contents)) {
        visit(-1, depth + 1);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      freeze_table(L, index, 0);
    } else if (lua_type(L, index) == LUA_TFUNCTION && !lua_iscfunction(L, index)) {
      if (!first_visit(index)) return;
      for (int n = 1;; ++n) {
        const char* name = lua_getupvalue(L, index, n);
        if (!name) break;
        const void* id = lua_upvalueid(L, index, n);
        const bool env = std::strcmp(name, "_ENV") == 0;
        const bool seen = std::find(upvalue_ids.begin(), upvalue_ids.end(), id) != upvalue_ids.end();
        if (!env && !seen) {
          upvalue_ids.push_back(id);
          visit(-1, depth + 1);
          lua_pushvalue(L, index);
          lua_rawseti(L, record, ++count);
          lua_pushinteger(L, n);
          lua_rawseti(L, record, ++count);
          lua_pushvalue(L, -1);
          lua_rawseti(L, record, ++count);
        }
        lua_pop(L, 1);
      }
    }
  }
};

}  // namespace

int sandbox_lock_upvalues(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  const int visited = lua_gettop(L);
  lua_newtable(L);
  const int record = lua_gettop(L);
  UpvalueWalk walk{L, visited, record, 0, {}};
  walk.visit(index, 0);
  lua_pushvalue(L, record);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 2);
  return ref;
}

void sandbox_restore_upvalues(lua_State* L, int record_ref) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, record_ref);
  const int record = lua_gettop(L);
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, record));
  for (lua_Integer i = 1; i + 2 <= n; i += 3) {
    lua_rawgeti(L, record, i);
    const int fn = lua_gettop(L);
    const int up = static_cast<int>((lua_rawgeti(L, record, i + 1), lua_tointeger(L, -1)));
    lua_pop(L, 1);
    lua_rawgeti(L, record, i + 2);
    lua_setupvalue(L, fn, up);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

void sandbox_seal_globals(lua_State* L) {
  sandbox_push_env(L);
  const int env = lua_gettop(L);
  if (lua_getmetatable(L, env)) {  // sealed already
    lua_pop(L, 2);
    return;
  }
  const int shadow = move_to_shadow(L, env);
  lua_newtable(L);
  lua_pushvalue(L, shadow);
  lua_pushcclosure(L, global_index, 1);
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

void sandbox_arm_hook(lua_State* L) {
  // No budget, no hook: a count hook makes the VM stop at every instruction.
  if (context(L)->max_instructions > 0) lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookInterval);
  else lua_sethook(L, nullptr, 0, 0);
}

}  // namespace rulebook
