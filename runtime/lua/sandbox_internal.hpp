#pragma once
// Internal to the sandbox: what its rooms share. sandbox.hpp is the
// sandbox's interface; behind it, one file per concern:
//
//   sandbox.cpp                the Lua state: the libraries and globals a
//                              script may use, assembled from the rooms below;
//                              sealing the globals
//   bounded_library.cpp        C library functions bounded before they start
//                              (patterns, string.rep, table functions), and
//                              setmetatable without finalizers or weak tables
//   read_only.cpp              frozen tables (libraries, options) and the
//                              read-only metatable
//   deterministic_library.cpp  pairs, tostring, string.format, print,
//                              math.random, pcall and xpcall that play alike
//                              in every run
//   game_isolation.cpp         the guard: nothing one game changes in the
//                              rules reaches the next
//   sandbox_loading.cpp        text-only chunks, load and require
//   compiled_chunks.cpp        rule files compiled once per process
//
// The budget and the memory cap have files of their own (budget.hpp,
// memory_cap.hpp).
#include <lua.hpp>

#include "lua/context.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {

// ---- bounded_library.cpp ---------------------------------------------------
// Each replaces fields of the library table at `lib` (the base library's
// setmetatable) by bounded versions that call the original.
void bound_string_library(lua_State* L, int lib);  // find, match, gmatch, gsub, rep
void bound_table_library(lua_State* L, int lib);   // move, concat, unpack, insert, remove, sort
void bound_setmetatable(lua_State* L, int base);
// Keeps the metatable at `index`, given by setmetatable during a game, with
// where it was given (metatable_watch.cpp).
void note_given_metatable(lua_State* L, int index);

// ---- read_only.cpp ---------------------------------------------------------
// The read-only metatable's mark (frozen and guarded tables have it).
inline const char* const kFrozenMarker = "__frozen";
// Moves every field of the table at `index` into a new table, left on the
// stack top, and empties the original: the first step of making it read-only.
int move_to_shadow(lua_State* L, int index);
// True if the table at `index` is frozen or guarded already.
bool read_only(lua_State* L, int index);
// True if the table at `index` has a read-only metatable the sandbox made:
// its `__newindex` is the sandbox's own C function, which no script can
// reach, where read_only's mark is a field a script's metatable may have.
bool refuses_new_fields(lua_State* L, int index);
// Gives the table at `index` the read-only metatable: writes of new fields
// fail; with a shadow (a stack index, or 0), reads go through it.
void set_read_only_metatable(lua_State* L, int index, int shadow);
// Moves t's contents into a shadow table that t reads through, and freezes
// the tables inside (to a depth of 32).
void freeze_table(lua_State* L, int index, int depth);

// The table whose contents `pairs` should walk: a frozen table's shadow.
// Pushes it and returns its stack index. Inline: pairs calls it every time.
inline int contents_of(lua_State* L, int index) {
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

// ---- deterministic_library.cpp ---------------------------------------------
int det_pairs(lua_State* L);      // pairs() in a fixed order
int det_tostring(lua_State* L);   // tostring() without addresses
int det_random(lua_State* L);     // math.random from the game's seeded stream
int det_format(lua_State* L);     // string.format (the original: upvalue 1) without addresses
int sandbox_print(lua_State* L);  // print() to the game's log
int safe_pcall(lua_State* L);     // pcall and xpcall that let the runtime's aborts through
int safe_xpcall(lua_State* L);

// ---- game_isolation.cpp ----------------------------------------------------
// Guards the table at `index` and the tables inside it, named by the string
// at stack index `label` (sandbox_guard; a module's table as it loads).
void guard_table(lua_State* L, int index, int label, int depth);
// Frees what sandbox_lock_upvalues kept (ctx->lock), once the state is closed.
void release_sandbox_lock(LuaContext* ctx);

// ---- sandbox_loading.cpp ---------------------------------------------------
int safe_load(lua_State* L);     // load() of text chunks, in the sandbox by default
int safe_require(lua_State* L);  // require() from the game's folder

}  // namespace rulebook
