// The sandbox's deterministic library: pairs, tostring, string.format and
// print that show no addresses and walk tables in a fixed order,
// math.random drawn from the game's seeded stream, and pcall/xpcall that
// let the runtime's aborts (budget, memory, agent) through. A game plays
// alike in every process and on a reused Lua state as on a fresh one.
#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/rng.hpp"
#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

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

}  // namespace

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
  // No C++ object may be alive here: a Lua error (a key without a fixed
  // order, the memory cap) unwinds with longjmp. The keys' records live in
  // a userdata, which also counts against the cap.
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, source)) {
    lua_pop(L, 1);
    const int t = lua_type(L, -1);
    if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
      return luaL_error(L, "pairs: keys of type %s have no fixed order; use ipairs or "
                        "string keys", luaL_typename(L, -1));
    ++n;
  }
  auto* refs = static_cast<KeyRef*>(lua_newuserdatauv(L, sizeof(KeyRef) * static_cast<size_t>(n) + 1, 0));
  lua_createtable(L, n, 0);
  const int keys = lua_gettop(L);
  int filled = 0;
  lua_pushnil(L);
  while (lua_next(L, source) && filled < n) {
    lua_pop(L, 1);
    KeyRef& k = refs[filled];
    k = KeyRef{};
    switch (lua_type(L, -1)) {
      case LUA_TNUMBER: k.kind = 0; k.number = lua_tonumber(L, -1); break;
      case LUA_TSTRING: k.kind = 1; k.text = lua_tolstring(L, -1, &k.length); break;
      default: k.kind = 2; k.number = lua_toboolean(L, -1); break;
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++filled);  // keeps strings alive while sorting
    k.slot = filled;
  }
  std::sort(refs, refs + filled, [](const KeyRef& a, const KeyRef& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.kind == 1) {
      const int c = std::memcmp(a.text, b.text, std::min(a.length, b.length));
      return c != 0 ? c < 0 : a.length < b.length;
    }
    return a.number < b.number;
  });
  n = filled;
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
  if (t == LUA_TNUMBER && lua_isinteger(L, 1)) {
    // Lua's own "%lld", without a formatted print (a quarter of the cost).
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, static_cast<long long>(lua_tointeger(L, 1))).ptr;
    lua_pushlstring(L, text, static_cast<size_t>(end - text));
    return 1;
  }
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

// string.format's plain cases, "%d" of an integer, "%s" of a string and
// "%%" between literal text, written here byte for byte as Lua's
// str_format writes them (a label such as "bid %d x %s" is built at every
// step of a search's tree). False, and nothing pushed: anything else (a
// flag, a width, another conversion, a missing argument, a longer result),
// which Lua's own string.format then formats.
bool plain_format(lua_State* L, const char* fmt, size_t n) {
  char out[256];
  size_t used = 0;
  int arg = 1;
  const int top = lua_gettop(L);
  auto put = [&](const char* text, size_t length) {
    if (length > sizeof out - used) return false;
    std::memcpy(out + used, text, length);
    used += length;
    return true;
  };
  for (size_t i = 0; i < n; ++i) {
    if (fmt[i] != '%') {  // the literal text up to the next '%', at once
      const void* percent = std::memchr(fmt + i, '%', n - i);
      const size_t end = percent ? static_cast<size_t>(static_cast<const char*>(percent) - fmt) : n;
      if (!put(fmt + i, end - i)) return false;
      i = end - 1;
      continue;
    }
    if (i + 1 >= n) return false;
    const char conversion = fmt[++i];
    if (conversion == '%') {
      if (!put("%", 1)) return false;
      continue;
    }
    if (++arg > top) return false;
    if (conversion == 'd' && lua_isinteger(L, arg)) {
      char digits[32];  // as LUA_INTEGER_FMT ("%lld") writes it
      const auto written = std::to_chars(digits, digits + sizeof digits, static_cast<long long>(lua_tointeger(L, arg)));
      if (!put(digits, static_cast<size_t>(written.ptr - digits))) return false;
    } else if (conversion == 's' && lua_type(L, arg) == LUA_TSTRING) {
      size_t length;
      const char* text = lua_tolstring(L, arg, &length);
      if (!put(text, length)) return false;
    } else {
      return false;
    }
  }
  lua_pushlstring(L, out, used);
  return true;
}

int det_format(lua_State* L) {
  size_t n;
  const char* fmt = luaL_checklstring(L, 1, &n);
  if (plain_format(L, fmt, n)) return 1;
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

int safe_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  const int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
  return finish_pcall(L, status, 0);
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

}  // namespace rulebook
