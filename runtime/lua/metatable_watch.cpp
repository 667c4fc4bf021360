// Metatables given by setmetatable during a game, watched for a `__mode`
// field added afterwards (a `__gc` added afterwards makes no finalizer in
// Lua 5.4: the object was not marked for finalization when it got the
// metatable). setmetatable refuses a metatable that
// has one (bounded_library.cpp), but a field can be set on the metatable
// later, and a weak table makes the game depend on when the collector ran
// (a search that saves a checkpoint collects, a simulation's reused state
// collects at other moments): the same game would play differently. So
// every metatable given during a game is kept, with where it was given, and
// the guard looks at them after the game and before a checkpoint: the game
// fails with that position, in every mode alike (play, simulate, check,
// search with or without checkpoints).
//
// The set is strong (a weak one would itself depend on the collector) and
// emptied when a game begins; a game keeps the metatables it gave alive
// until it ends.
#include <string>

#include "lua/sandbox.hpp"
#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

const char kGivenMetatables = 0;  // its address keys the set in the registry

}  // namespace

void note_given_metatable(lua_State* L, int metatable) {
  metatable = lua_absindex(L, metatable);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kGivenMetatables) != LUA_TTABLE) {  // loading the rules: no game yet
    lua_pop(L, 1);
    return;
  }
  lua_pushvalue(L, metatable);
  if (lua_rawget(L, -2) != LUA_TNIL) {
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, metatable);
  luaL_where(L, 1);  // "rules.lua:12: "
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void sandbox_forget_metatables(lua_State* L) {
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kGivenMetatables);
}

std::string sandbox_late_weak_metatable(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kGivenMetatables) != LUA_TTABLE) {
    lua_pop(L, 1);
    return "";
  }
  const int set = lua_gettop(L);
  // The first position in text order: the set's own order depends on
  // addresses, the message must not.
  std::string first;
  bool found = false;
  lua_pushnil(L);
  while (lua_next(L, set)) {
    lua_pushliteral(L, "__mode");
    const bool weak = lua_rawget(L, -3) != LUA_TNIL;
    lua_pop(L, 1);
    if (weak) {  // the place is read only then: this runs after every game
      const std::string where = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
      if (!found || where < first) {
        first = where;
        found = true;
      }
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (!found) return "";
  return first +
         "the metatable given to setmetatable here got a '__mode' field afterwards; weak tables are not allowed "
         "in rule scripts (a weak table would make the game depend on when memory is collected)";
}

}  // namespace rulebook
