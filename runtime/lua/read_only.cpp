// Read-only tables: a frozen table (a library, the options) keeps its
// contents in a shadow table it reads through, and refuses every write;
// the read-only metatable is also what the guard (game_isolation.cpp) gives
// module tables, whose contents stay in place.
#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

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

}  // namespace

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

bool read_only(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_getfield(L, -1, kFrozenMarker);
  const bool marked = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return marked;
}

bool refuses_new_fields(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_pushliteral(L, "__newindex");
  const bool ours = lua_rawget(L, -2) == LUA_TFUNCTION && lua_tocfunction(L, -1) == frozen_newindex;
  lua_pop(L, 2);
  return ours;
}

void set_read_only_metatable(lua_State* L, int index, int shadow) {
  lua_newtable(L);
  if (shadow) {
    lua_pushvalue(L, shadow);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, frozen_len);
    lua_setfield(L, -2, "__len");
  }
  lua_pushcfunction(L, frozen_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, kFrozenMarker);
  lua_pushliteral(L, "read-only table");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, index);
}

void freeze_table(lua_State* L, int index, int depth) {
  index = lua_absindex(L, index);
  if (depth > 32 || read_only(L, index)) return;
  const int shadow = move_to_shadow(L, index);
  // Freeze nested tables in the shadow.
  lua_pushnil(L);
  while (lua_next(L, shadow)) {
    if (lua_type(L, -1) == LUA_TTABLE) freeze_table(L, -1, depth + 1);
    lua_pop(L, 1);
  }
  set_read_only_metatable(L, index, shadow);
  lua_pop(L, 1);  // shadow
}

void sandbox_freeze(lua_State* L, int index) { freeze_table(L, index, 0); }

void sandbox_push_contents(lua_State* L, int index) {
  index = lua_absindex(L, index);
  if (lua_getmetatable(L, index)) {
    lua_pushstring(L, kFrozenMarker);
    const bool frozen = lua_rawget(L, -2) != LUA_TNIL && lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_pushliteral(L, "__index");
    if (frozen && lua_rawget(L, -2) == LUA_TTABLE) {
      lua_remove(L, -2);  // the metatable
      return;
    }
    lua_pop(L, 2);
  }
  lua_pushvalue(L, index);
}

}  // namespace rulebook
