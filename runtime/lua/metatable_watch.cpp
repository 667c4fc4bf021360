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
// until it ends. The look runs after every game, a search's thousand short
// games a decision among them, so it reads little: the set also lists its
// metatables in the order given (set[1] ... set[count], its array part),
// read by index, and only a metatable that has a '__mode' sends it on to
// the positions. The set's registry slot and its count lie in a full
// userdata of the state (GivenMetatables): a checkpoint's heap restore puts
// the count back with the set it counts, and after a game that gave none
// (most games) the look reads one number and the next game keeps the set.
// A read-only table (a module's, guarded) given as a metatable is kept in
// the set but not listed: setmetatable refused it if it had a '__mode',
// and it refuses new fields, so it can never get one (Liar's Dice gives
// its bids' label table, a module-level one, in every game).
#include <new>
#include <string>

#include "lua/sandbox.hpp"
#include "lua/sandbox_internal.hpp"

namespace rulebook {

struct GivenMetatables {
  lua_Integer count = 0;     // metatables in the set's list (set[1..count])
  lua_Integer kept = 0;      // metatables in the set, listed or not
  int set_ref = LUA_NOREF;   // the registry's slot of this game's set
  int mode_ref = LUA_NOREF;  // the string "__mode", made once
};

void note_given_metatable(lua_State* L, int metatable) {
  GivenMetatables* given = context(L)->given_metatables;
  if (!given) return;  // loading the rules: no game yet
  metatable = lua_absindex(L, metatable);
  lua_rawgeti(L, LUA_REGISTRYINDEX, given->set_ref);
  lua_pushvalue(L, metatable);
  if (lua_rawget(L, -2) != LUA_TNIL) {
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, metatable);
  if (refuses_new_fields(L, metatable)) {
    lua_pushboolean(L, 0);  // seen this game; never weak
  } else {
    luaL_where(L, 1);  // "rules.lua:12: "
    // Listed before its position is kept: a memory error between the two
    // leaves it looked at, with no position, rather than not at all.
    lua_pushvalue(L, metatable);
    lua_rawseti(L, -4, given->count + 1);
    ++given->count;
  }
  lua_rawset(L, -3);
  ++given->kept;
  lua_pop(L, 1);
}

void sandbox_forget_metatables(lua_State* L) {
  LuaContext* ctx = context(L);
  GivenMetatables* given = ctx->given_metatables;
  if (given && given->count == 0 && given->kept == 0) return;  // the set is empty already
  if (!given) {
    given = new (lua_newuserdatauv(L, sizeof(GivenMetatables), 0)) GivenMetatables{};
    luaL_ref(L, LUA_REGISTRYINDEX);  // kept alive with the state, never read back
    lua_pushliteral(L, "__mode");
    given->mode_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    given->set_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    ctx->given_metatables = given;
    return;
  }
  lua_newtable(L);
  lua_rawseti(L, LUA_REGISTRYINDEX, given->set_ref);
  given->count = 0;
  given->kept = 0;
}

namespace {

// The message for the metatables of the set (at `set`) that have a
// '__mode' (`mode` holds the string) now: the first position in text
// order, not in the order given, so the message names the line it named
// when the set was walked in address order.
std::string first_weak_position(lua_State* L, const GivenMetatables& given, int set, int mode) {
  std::string first;
  bool found = false;
  for (lua_Integer i = 1; i <= given.count; ++i) {
    lua_rawgeti(L, set, i);
    lua_pushvalue(L, mode);
    const bool weak = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    if (weak) {
      lua_rawget(L, set);  // the metatable's position
      const std::string where = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
      if (!found || where < first) {
        first = where;
        found = true;
      }
    }
    lua_pop(L, 1);
  }
  return first +
         "the metatable given to setmetatable here got a '__mode' field afterwards; weak tables are not allowed "
         "in rule scripts (a weak table would make the game depend on when memory is collected)";
}

}  // namespace

std::string sandbox_late_weak_metatable(lua_State* L) {
  const GivenMetatables* given = context(L)->given_metatables;
  if (!given || given->count == 0) return "";  // no game began, or none listed
  lua_rawgeti(L, LUA_REGISTRYINDEX, given->set_ref);
  const int set = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, given->mode_ref);
  const int mode = set + 1;
  // Whether any has one: a read a metatable (the positions are read only
  // then, for the message).
  bool weak = false;
  for (lua_Integer i = 1; i <= given->count && !weak; ++i) {
    lua_rawgeti(L, set, i);
    lua_pushvalue(L, mode);
    weak = lua_rawget(L, -2) != LUA_TNIL;
    lua_settop(L, mode);
  }
  if (!weak) {
    lua_settop(L, set - 1);
    return "";
  }
  std::string message = first_weak_position(L, *given, set, mode);
  lua_settop(L, set - 1);
  return message;
}

}  // namespace rulebook
