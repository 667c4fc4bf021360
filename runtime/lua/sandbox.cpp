#include "lua/sandbox.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/input_file.hpp"
#include "core/rng.hpp"
#include "lua/budget.hpp"
#include "lua/memory_cap.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {
namespace {

const char* const kFrozenMarker = "__frozen";

// ---- bounded library functions -------------------------------------------
//
// The hook only runs between VM instructions, so a loop inside a C library
// function would escape the budget. Every such function a script can reach
// is bounded here, before it starts: its work is at most proportional to
// what the memory cap lets a script build.

// Calls the original library function (upvalue 1) with the same arguments.
int call_original(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// The most elements a table could hold under the memory cap.
lua_Integer max_elements(lua_State* L) {
  const size_t cap = context(L)->max_memory;
  return static_cast<lua_Integer>(std::max<size_t>(cap / 16, size_t{1} << 16));
}

constexpr double kMaxPatternSteps = 2e8;

// Worst-case steps of Lua's backtracking matcher for pattern p on a subject
// of n bytes: each quantified item (and %b, back-references) followed by
// an item that can fail may be retried at every position, so each
// multiplies the work by n + 1 ('?' by 2); an unanchored pattern is tried
// at every start. Returns 0 if the pattern is malformed (Lua reports it).
double pattern_steps(const char* p, size_t lp, size_t n, bool plain) {
  const double subject = static_cast<double>(n) + 1;
  bool specials = false;
  for (size_t i = 0; i < lp && !specials; ++i) specials = std::strchr("^$*+?.([%-", p[i]) != nullptr;
  if (plain || !specials) return subject * static_cast<double>(std::max<size_t>(lp, 1));
  // Skips a set "[...]" starting at p[i] == '[' (as Lua's classEnd: the
  // first character may be ']'); false if it is not closed.
  auto skip_set = [&](size_t& i) {
    ++i;
    if (i < lp && p[i] == '^') ++i;
    do {
      if (i >= lp) return false;
      if (p[i++] == '%' && i < lp) ++i;
    } while (i < lp && p[i] != ']');
    if (i >= lp) return false;
    ++i;
    return true;
  };
  size_t i = 0;
  const bool anchored = lp > 0 && p[0] == '^';
  if (anchored) i = 1;
  std::vector<double> factors;  // per item
  std::vector<bool> can_fail;
  while (i < lp) {
    double factor = 1;
    bool fails = true;
    bool single = true;  // a single-character item, which a quantifier may follow
    const char c = p[i];
    if (c == '(' || c == ')') {
      i += (c == '(' && i + 1 < lp && p[i + 1] == ')') ? 2 : 1;
      fails = false;
      single = false;
    } else if (c == '$' && i + 1 == lp) {
      ++i;
      single = false;
    } else if (c == '%') {
      if (i + 1 >= lp) return 0;
      const char k = p[i + 1];
      i += 2;
      if (k == 'b') {
        if (i + 1 >= lp) return 0;
        i += 2;
        factor = subject;
        single = false;
      } else if (k == 'f') {
        if (i >= lp || p[i] != '[' || !skip_set(i)) return 0;
        single = false;
      } else if (k >= '0' && k <= '9') {
        factor = subject;
        single = false;
      }
    } else if (c == '[') {
      if (!skip_set(i)) return 0;
    } else {
      ++i;
    }
    if (single && i < lp && std::strchr("*+-?", p[i])) {
      factor = p[i] == '?' ? 2 : subject;
      ++i;
    }
    factors.push_back(factor);
    can_fail.push_back(fails);
  }
  double steps = anchored ? 1 : subject;
  bool failing_after = false;
  for (size_t k = factors.size(); k-- > 0;) {
    if (failing_after) steps *= factors[k];
    failing_after = failing_after || can_fail[k];
    if (steps > 1e300) break;
  }
  return steps;
}

// string.find / match / gmatch / gsub, refusing patterns whose worst case
// on this subject would run for minutes inside the matcher.
int bounded_match(lua_State* L) {
  size_t n, lp;
  luaL_checklstring(L, 1, &n);
  const char* p = luaL_checklstring(L, 2, &lp);
  const bool find = lua_toboolean(L, lua_upvalueindex(2));
  const bool plain = find && lua_toboolean(L, 4);
  if (pattern_steps(p, lp, n, plain) > kMaxPatternSteps)
    return luaL_argerror(L, 2, lua_pushfstring(L, "pattern too complex for a subject of %I bytes: its "
                                               "worst case exceeds %d million matching steps",
                                               static_cast<lua_Integer>(n),
                                               static_cast<int>(kMaxPatternSteps / 1e6)));
  return call_original(L);
}

// string.rep: the result must fit under the cap, and an empty result takes
// no time (Lua's own loop would run n times for nothing).
int bounded_rep(lua_State* L) {
  size_t l, lsep;
  luaL_checklstring(L, 1, &l);
  const lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (n > 0) {
    if (l + lsep == 0) {
      lua_pushliteral(L, "");
      return 1;
    }
    const size_t cap = context(L)->max_memory;
    luaL_argcheck(L, static_cast<lua_Unsigned>(n) <= cap / (l + lsep), 2,
                  "resulting string larger than the memory cap");
  }
  return call_original(L);
}

void check_count(lua_State* L, lua_Integer first, lua_Integer last, int arg, const char* what) {
  if (last < first) return;
  const lua_Unsigned count = static_cast<lua_Unsigned>(last) - static_cast<lua_Unsigned>(first) + 1;
  if (count > static_cast<lua_Unsigned>(max_elements(L)))
    luaL_argerror(L, arg, lua_pushfstring(L, "too many elements %s (more than %I)", what, max_elements(L)));
}

// table.move(a1, f, e, t [, a2])
int bounded_move(lua_State* L) {
  const lua_Integer f = luaL_checkinteger(L, 2);
  const lua_Integer e = luaL_checkinteger(L, 3);
  check_count(L, f, e, 3, "to move");
  return call_original(L);
}

// table.concat(list [, sep [, i [, j]]]) and table.unpack(list [, i [, j]]):
// the length is read once (a __len metamethod could answer differently the
// second time) and passed on explicitly.
int bounded_range(lua_State* L, int first_arg) {
  const lua_Integer i = luaL_optinteger(L, first_arg, 1);
  const lua_Integer j = lua_isnoneornil(L, first_arg + 1) ? luaL_len(L, 1) : luaL_checkinteger(L, first_arg + 1);
  check_count(L, i, j, first_arg + 1, "in the range");
  lua_settop(L, first_arg + 1);
  lua_pushinteger(L, i);
  lua_replace(L, first_arg);
  lua_pushinteger(L, j);
  lua_replace(L, first_arg + 1);
  return call_original(L);
}
int bounded_concat(lua_State* L) {
  if (lua_isnone(L, 2)) lua_pushliteral(L, "");
  return bounded_range(L, 3);
}
int bounded_unpack(lua_State* L) { return bounded_range(L, 2); }

// The length of the table at 1, read once, within bounds.
lua_Integer checked_length(lua_State* L) {
  const lua_Integer n = luaL_len(L, 1);
  check_count(L, 1, n, 1, "in the table");
  return n;
}

bool plain_table(lua_State* L, int arg) {
  if (lua_type(L, arg) != LUA_TTABLE || !lua_getmetatable(L, arg)) return lua_type(L, arg) == LUA_TTABLE;
  lua_pop(L, 1);
  return false;
}

// table.insert and table.remove on a table with metamethods: the length is
// read once and bounded (a plain table's length is bounded by its memory).
int bounded_insert(lua_State* L) {
  if (plain_table(L, 1) || lua_type(L, 1) != LUA_TTABLE) return call_original(L);
  const lua_Integer e = checked_length(L) + 1;
  lua_Integer pos = e;
  switch (lua_gettop(L)) {
    case 2: break;
    case 3:
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, static_cast<lua_Unsigned>(pos) - 1u < static_cast<lua_Unsigned>(e), 2,
                    "position out of bounds");
      for (lua_Integer i = e; i > pos; --i) {
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

int bounded_remove(lua_State* L) {
  if (plain_table(L, 1) || lua_type(L, 1) != LUA_TTABLE) return call_original(L);
  const lua_Integer size = checked_length(L);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size)
    luaL_argcheck(L, static_cast<lua_Unsigned>(pos) - 1u <= static_cast<lua_Unsigned>(size), 2,
                  "position out of bounds");
  lua_geti(L, 1, pos);
  for (; pos < size; ++pos) {
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

// table.sort on a table with metamethods sorts a plain copy of its
// elements (read once, bounded) and writes them back.
// Sorting is the one library loop that grows faster than its input
// (n log n comparisons, each possibly a C metamethod): at most kMaxSort.
constexpr lua_Integer kMaxSort = 1 << 20;

int bounded_sort(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE) return call_original(L);
  if (plain_table(L, 1)) {
    luaL_argcheck(L, static_cast<lua_Integer>(lua_rawlen(L, 1)) <= kMaxSort, 1,
                  "too many elements to sort (more than 1048576)");
    return call_original(L);
  }
  const lua_Integer n = checked_length(L);
  luaL_argcheck(L, n <= kMaxSort, 1, "too many elements to sort (more than 1048576)");
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_createtable(L, static_cast<int>(std::min<lua_Integer>(n, 1 << 20)), 0);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_geti(L, 1, i);
    lua_rawseti(L, 3, i);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 2);
  lua_call(L, 2, 0);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 3, i);
    lua_seti(L, 1, i);
  }
  return 0;
}

// setmetatable without finalizers or weak tables: Lua runs __gc with hooks
// off (so outside the budget), at any collection and when the state closes;
// a weak table shows when the collector ran, which depends on everything the
// Lua state did before (a reused state would play differently from a fresh
// one). A `__mode` added to a metatable afterwards is not seen here: the
// isolation check of `rulebook check` catches what it changes.
int safe_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    static const struct { const char* field; const char* message; } refused[] = {
        {"__gc", "a metatable with '__gc' is not allowed in rule scripts (finalizers would run "
                 "outside the budget)"},
        {"__mode", "a metatable with '__mode' is not allowed in rule scripts (a weak table would make "
                   "the game depend on when memory is collected)"},
    };
    for (const auto& r : refused) {
      lua_pushstring(L, r.field);
      const bool present = lua_rawget(L, 2) != LUA_TNIL;
      lua_pop(L, 1);
      luaL_argcheck(L, !present, 2, r.message);
    }
    // The common case (a table that has no metatable yet) is done here, as
    // the original would; anything else, errors included, goes to it.
    if (lua_type(L, 1) == LUA_TTABLE) {
      if (!lua_getmetatable(L, 1)) {
        lua_settop(L, 2);
        lua_setmetatable(L, 1);
        return 1;
      }
      lua_pop(L, 1);
    }
  }
  return call_original(L);
}

// Replaces library field `name` (table at `lib`) by `wrapper`, which gets
// the original as upvalue 1 and `flag` as upvalue 2.
void wrap_field(lua_State* L, int lib, const char* name, lua_CFunction wrapper, bool flag = false) {
  lua_getfield(L, lib, name);
  lua_pushboolean(L, flag);
  lua_pushcclosure(L, wrapper, 2);
  lua_setfield(L, lib, name);
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
// True if the table at `index` is frozen or guarded already.
bool read_only(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_getfield(L, -1, kFrozenMarker);
  const bool marked = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return marked;
}

// Gives the table at `index` the read-only metatable: writes of new fields
// fail; with a shadow (a stack index, or 0), reads go through it.
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

// Module tables are guarded, not frozen: their contents stay in the table,
// so scripts read them, take `#` and walk them with ipairs at plain-table
// speed. A metatable refuses new fields at once (__newindex); a change to
// an existing field cannot be caught as it happens, so a snapshot of each
// guarded table is compared after every game (sandbox_restore_guarded),
// which puts back what changed and reports it. `label` (a stack index, a
// string) names the table in that report. The snapshot is a flat list of
// keys and values (k1, v1, k2, v2, ...), read by index. Once the rules are
// locked, a copy on the keeper's stack (SandboxLock) serves the comparison
// after every game; this list is read for a table guarded since (a module
// first required during the game) and to repair and report a change.
const char* const kGuardedKey = "rulebook.guarded";

void guard_table(lua_State* L, int index, int label, int depth) {
  index = lua_absindex(L, index);
  label = lua_absindex(L, label);
  if (depth > 32 || read_only(L, index)) return;
  luaL_checkstack(L, 8, "module tables nested too deep");
  set_read_only_metatable(L, index, 0);
  lua_newtable(L);
  const int snapshot = lua_gettop(L);
  lua_Integer fields = 0;
  lua_pushnil(L);
  while (lua_next(L, index)) {
    lua_pushvalue(L, -2);
    lua_rawseti(L, snapshot, ++fields);
    lua_pushvalue(L, -1);
    lua_rawseti(L, snapshot, ++fields);
    if (lua_type(L, -1) == LUA_TTABLE) {
      if (lua_type(L, -2) == LUA_TSTRING) lua_pushfstring(L, "%s.%s", lua_tostring(L, label), lua_tostring(L, -2));
      else if (lua_isinteger(L, -2)) lua_pushfstring(L, "%s[%I]", lua_tostring(L, label), lua_tointeger(L, -2));
      else lua_pushfstring(L, "%s[?]", lua_tostring(L, label));
      guard_table(L, -2, -1, depth + 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, kGuardedKey);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kGuardedKey);
  }
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, -1));
  lua_pushvalue(L, index);
  lua_rawseti(L, -2, n + 1);
  lua_pushvalue(L, snapshot);
  lua_rawseti(L, -2, n + 2);
  lua_pushvalue(L, label);
  lua_rawseti(L, -2, n + 3);
  lua_pop(L, 2);  // list, snapshot
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

// The line where brackets nest deepest in Lua source (strings and
// comments skipped): where a "C stack overflow" of the parser comes from,
// since Lua's message for it has no line.
int deepest_line(const char* text, size_t size) {
  int line = 1, depth = 0, best_depth = -1, best_line = 1;
  auto long_bracket = [&](size_t i) -> int {  // level of "[==[" at i, or -1
    if (text[i] != '[') return -1;
    size_t j = i + 1;
    while (j < size && text[j] == '=') ++j;
    return (j < size && text[j] == '[') ? static_cast<int>(j - i - 1) : -1;
  };
  auto skip_long = [&](size_t& i, int level) {  // i at the opening '['
    i += static_cast<size_t>(level) + 2;
    for (; i < size; ++i) {
      if (text[i] == '\n') ++line;
      if (text[i] == ']') {
        size_t j = i + 1;
        while (j < size && text[j] == '=') ++j;
        if (j < size && text[j] == ']' && static_cast<int>(j - i - 1) == level) {
          i = j;
          return;
        }
      }
    }
  };
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '-' && i + 1 < size && text[i + 1] == '-') {
      i += 2;
      const int level = i < size ? long_bracket(i) : -1;
      if (level >= 0) skip_long(i, level);
      else
        while (i < size && text[i] != '\n') ++i;
      if (i < size && text[i] == '\n') ++line;
    } else if (c == '"' || c == '\'') {
      for (++i; i < size && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\' && i + 1 < size) {
          if (text[i + 1] == '\n') ++line;
          ++i;
        }
      if (i < size && text[i] == '\n') ++line;
    } else if (c == '[' && long_bracket(i) >= 0) {
      skip_long(i, long_bracket(i));
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > best_depth) {
        best_depth = depth;
        best_line = line;
      }
    } else if (c == '}' || c == ')' || c == ']') {
      --depth;
    }
  }
  return best_line;
}

// Loads source text with the sandbox as its environment; on failure leaves
// the message, which always names the chunk and a line. The message of a
// parser's "C stack overflow" has neither: it gets the deepest line.
bool load_text(lua_State* L, const char* text, size_t size, const char* chunkname) {
  if (luaL_loadbufferx(L, text, size, chunkname, "t") != LUA_OK) {
    const char* message = lua_tostring(L, -1);
    const char* shown = chunkname[0] == '@' || chunkname[0] == '=' ? chunkname + 1 : chunkname;
    if (message && std::strncmp(message, shown, std::strlen(shown)) != 0 &&
        std::strstr(message, "stack overflow")) {
      lua_pushfstring(L, "%s:%d: nesting too deep (%s)", shown, deepest_line(text, size), message);
      lua_replace(L, -2);
    }
    return false;
  }
  return true;
}

// load() of text chunks only, in the sandbox by default.
int safe_load(lua_State* L) {
  size_t len;
  const char* s = lua_tolstring(L, 1, &len);
  luaL_argcheck(L, s != nullptr, 1, "load only accepts source text in rule scripts");
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
  const char* mode = luaL_optstring(L, 3, "t");
  luaL_argcheck(L, std::strcmp(mode, "t") == 0, 3, "binary chunks are not allowed");
  if (!load_text(L, s, len, chunkname)) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  if (!lua_isnone(L, 4)) lua_pushvalue(L, 4);
  else sandbox_push_env(L);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}

// Reads a whole file into `text`; false if it cannot be read.
// sandbox_load_file for C strings. Scripts are read like every other input
// file, up to kMaxInputFileBytes (a rules.lua of /dev/zero is an error, not an
// exhausted machine). No C++ object is alive when a Lua call that may raise
// an error runs (luaL_loadbufferx is protected).
bool load_file(lua_State* L, const char* path, const char* display_name) {
  std::string error;
  {
    const InputFile file = read_input_file(path);
    if (file.ok) {
      const std::string chunkname = std::string("@") + display_name;
      if (!load_text(L, file.text.data(), file.text.size(), chunkname.c_str())) return false;
    } else {
      error = file.error;
    }
  }
  if (!error.empty()) {
    lua_pushfstring(L, "%s: %s", display_name, error.c_str());
    return false;
  }
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
  return true;
}

// require("name") loads name.lua (dots for folders) from the game folder.
// Paths are built as Lua strings: a Lua error (the module's own, or the
// memory cap) unwinds with longjmp, past any C++ destructor.
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
  lua_settop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");  // 2
  lua_getfield(L, 2, name);
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  LuaContext* ctx = context(L);
  luaL_gsub(L, name, ".", "/");
  const char* rel = lua_pushfstring(L, "%s.lua", lua_tostring(L, -1));  // 4
  const char* display = ctx->display_dir.empty() ? rel : lua_pushfstring(L, "%s/%s", ctx->display_dir.c_str(), rel);
  const char* path = lua_pushfstring(L, "%s/%s", ctx->game_dir.c_str(), rel);
  if (!load_file(L, path, display))
    return luaL_error(L, "module '%s' not found in the game folder: %s", name, lua_tostring(L, -1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  if (lua_istable(L, -1)) {
    lua_pushfstring(L, "module '%s'", name);
    guard_table(L, -2, -1, 0);
    lua_pop(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, 2, name);
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
  wrap_field(L, g, "setmetatable", safe_setmetatable);
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
  {
    const int lib = lua_gettop(L);
    wrap_field(L, lib, "find", bounded_match, true);
    wrap_field(L, lib, "match", bounded_match);
    wrap_field(L, lib, "gmatch", bounded_match);
    wrap_field(L, lib, "gsub", bounded_match);
    wrap_field(L, lib, "rep", bounded_rep);
  }
  lua_setfield(L, env, "string");
  lua_getfield(L, g, "table");
  {
    const int lib = lua_gettop(L);
    wrap_field(L, lib, "move", bounded_move);
    wrap_field(L, lib, "concat", bounded_concat);
    wrap_field(L, lib, "unpack", bounded_unpack);
    wrap_field(L, lib, "insert", bounded_insert);
    wrap_field(L, lib, "remove", bounded_remove);
    wrap_field(L, lib, "sort", bounded_sort);
  }
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

// What every game starts from, once the rules are loaded: the fields of
// each guarded table and the module-level locals, on the stack of a thread
// of their own (the keeper), in the order they are compared and put back.
// After every game the comparison reads each field by stack index and
// compares addresses (three API calls a field, where the registry's lists
// took four calls and two table reads); before every game each local is
// put back in two calls instead of seven. The registry's lists stay the
// record: a change found here is put back and reported from them.
struct SandboxLock {
  lua_State* keeper = nullptr;
  int keeper_ref = LUA_NOREF;
  struct Table {
    int table;   // stack slot of the guarded table
    int first;   // slot of its first field's key; the value is next
    int fields;
  };
  std::vector<Table> tables;
  std::vector<const void*> addresses;  // each field's value's lua_topointer (null: a number, ...)
  struct Upvalue {
    int function;  // stack slot
    int n;
    int value;  // stack slot
  };
  std::vector<Upvalue> upvalues;
  lua_Integer guarded_length = 0;  // the guarded list's length when locked
};

void sandbox_close(lua_State* L) {
  if (!L) return;
  LuaContext* ctx = context(L);
  budget_unwatch(ctx);
  // Scripts cannot set finalizers (no __gc), so closing runs no Lua.
  lua_close(L);
  delete ctx->lock;
  ctx->lock = nullptr;
  memory_cap_release(ctx);
}

void sandbox_push_env(lua_State* L) { lua_rawgeti(L, LUA_REGISTRYINDEX, context(L)->env_ref); }

bool sandbox_load_file(lua_State* L, const std::string& path, const std::string& display_name) {
  return load_file(L, path.c_str(), display_name.c_str());
}

void sandbox_freeze(lua_State* L, int index) { freeze_table(L, index, 0); }

void sandbox_guard(lua_State* L, int index, const char* label) {
  index = lua_absindex(L, index);
  lua_pushstring(L, label);
  guard_table(L, index, -1, 0);
  lua_pop(L, 1);
}

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

namespace {

bool same_value(lua_State* L, int a, int b) {
  if (lua_rawequal(L, a, b)) return true;
  // NaN is not equal to itself, but has not changed.
  return lua_type(L, a) == LUA_TNUMBER && lua_type(L, b) == LUA_TNUMBER && !lua_isinteger(L, a) &&
         !lua_isinteger(L, b) && std::isnan(lua_tonumber(L, a)) && std::isnan(lua_tonumber(L, b));
}

// Whether every field of the tables guarded when the rules were locked
// still holds the value it held then.
bool locked_fields_unchanged(const SandboxLock& lock) {
  lua_State* K = lock.keeper;
  const int top = lua_gettop(K);
  size_t field = 0;
  for (const SandboxLock::Table& t : lock.tables) {
    for (int f = 0; f < t.fields; ++f, ++field) {
      const int key = t.first + 2 * f;
      lua_pushvalue(K, key);
      lua_rawget(K, t.table);
      // The value at load lives on the keeper's stack, so no other object
      // can have its address: the same address is the same value.
      const void* now = lua_topointer(K, -1);
      const bool same = (now && now == lock.addresses[field]) || same_value(K, -1, key + 1);
      lua_settop(K, top);
      if (!same) return false;
    }
  }
  return true;
}

}  // namespace

std::string sandbox_restore_guarded(lua_State* L) {
  std::string change;
  // Unchanged since the rules were locked: only tables guarded since (a
  // module first required during this game) are left to compare.
  const SandboxLock* lock = context(L)->lock;
  const lua_Integer from = lock && lock->keeper && locked_fields_unchanged(*lock) ? lock->guarded_length + 1 : 1;
  if (lua_getfield(L, LUA_REGISTRYINDEX, kGuardedKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    return change;
  }
  const int list = lua_gettop(L);
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, list));
  for (lua_Integer i = from; i + 2 <= n; i += 3) {
    lua_rawgeti(L, list, i);
    const int table = lua_gettop(L);
    lua_rawgeti(L, list, i + 1);
    const int snapshot = lua_gettop(L);
    const lua_Integer fields = static_cast<lua_Integer>(lua_rawlen(L, snapshot));
    for (lua_Integer k = 1; k + 1 <= fields; k += 2) {
      // Four API calls a field when nothing changed. The key is read
      // again only for a change.
      lua_rawgeti(L, snapshot, k + 1);  // value at load
      lua_rawgeti(L, snapshot, k);      // key
      lua_rawget(L, table);             // value now
      if (same_value(L, -1, -2)) {
        lua_pop(L, 2);
        continue;
      }
      lua_rawgeti(L, snapshot, k);  // key
      lua_insert(L, -3);            // key, value at load, value now
      if (change.empty()) {
        lua_rawgeti(L, list, i + 2);
        change = lua_tostring(L, -1);
        lua_pop(L, 1);
        if (lua_type(L, -3) == LUA_TSTRING) change += std::string(" (field '") + lua_tostring(L, -3) + "')";
        else if (lua_isinteger(L, -3)) change += " (index " + std::to_string(lua_tointeger(L, -3)) + ")";
      }
      lua_pushvalue(L, -3);
      lua_pushvalue(L, -3);
      lua_rawset(L, table);  // the value at load, back
      lua_pop(L, 3);
    }
    lua_settop(L, list);
  }
  lua_pop(L, 1);
  return change;
}

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

  void visit(int index, int depth, const char* label) {
    index = lua_absindex(L, index);
    if (depth > 64) return;
    luaL_checkstack(L, 8, "module state too deep");
    if (lua_type(L, index) == LUA_TTABLE) {
      if (!first_visit(index)) return;
      sandbox_push_env(L);
      const bool is_env = lua_rawequal(L, -1, index);
      lua_pop(L, 1);
      if (is_env) return;
      lua_pushfstring(L, "module-level table '%s'", label);
      guard_table(L, index, -1, 0);
      lua_pop(L, 1);
      const int contents = contents_of(L, index);
      lua_pushnil(L);
      while (lua_next(L, contents)) {
        visit(-1, depth + 1, label);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
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
          visit(-1, depth + 1, name);
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

namespace {

// Copies the guarded list and the upvalue record (at `record`) onto a new
// keeper thread (SandboxLock). Without room on a thread's stack (a million
// fields), there is no keeper and the registry's lists are read instead.
void lock_on_keeper(lua_State* L, int record) {
  LuaContext* ctx = context(L);
  auto lock = std::make_unique<SandboxLock>();
  if (lua_getfield(L, LUA_REGISTRYINDEX, kGuardedKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
  }
  const int list = lua_gettop(L);
  lock->guarded_length = static_cast<lua_Integer>(lua_rawlen(L, list));
  const lua_Integer records = static_cast<lua_Integer>(lua_rawlen(L, record));
  lua_Integer slots = records / 3 * 2;
  for (lua_Integer i = 2; i <= lock->guarded_length; i += 3) {
    lua_rawgeti(L, list, i);
    slots += 1 + static_cast<lua_Integer>(lua_rawlen(L, -1));
    lua_pop(L, 1);
  }
  lua_State* K = lua_newthread(L);
  lock->keeper_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (slots >= 1000000 || !lua_checkstack(K, static_cast<int>(slots) + LUA_MINSTACK)) {
    lua_pop(L, 1);  // list
    luaL_unref(L, LUA_REGISTRYINDEX, lock->keeper_ref);
    lock->keeper_ref = LUA_NOREF;
    delete ctx->lock;
    ctx->lock = lock.release();  // no keeper: the lists are read
    return;
  }
  auto push_to_keeper = [&](int table, lua_Integer i) {
    lua_rawgeti(L, table, i);
    lua_xmove(L, K, 1);
    return lua_gettop(K);
  };
  for (lua_Integer i = 1; i + 2 <= lock->guarded_length; i += 3) {
    SandboxLock::Table t{push_to_keeper(list, i), 0, 0};
    lua_rawgeti(L, list, i + 1);
    const int snapshot = lua_gettop(L);
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, snapshot));
    t.first = lua_gettop(K) + 1;
    for (lua_Integer k = 1; k + 1 <= n; k += 2) {
      push_to_keeper(snapshot, k);
      lock->addresses.push_back(lua_topointer(K, push_to_keeper(snapshot, k + 1)));
      ++t.fields;
    }
    lua_pop(L, 1);
    lock->tables.push_back(t);
  }
  for (lua_Integer i = 1; i + 2 <= records; i += 3) {
    const int function = push_to_keeper(record, i);
    lua_rawgeti(L, record, i + 1);
    const int n = static_cast<int>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    lock->upvalues.push_back({function, n, push_to_keeper(record, i + 2)});
  }
  lua_pop(L, 1);  // list
  lock->keeper = K;
  delete ctx->lock;
  ctx->lock = lock.release();
}

}  // namespace

int sandbox_lock_upvalues(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  const int visited = lua_gettop(L);
  lua_newtable(L);
  const int record = lua_gettop(L);
  UpvalueWalk walk{L, visited, record, 0, {}};
  walk.visit(index, 0, "rules");
  // Modules loaded so far are part of the rules too, even those the rules
  // table does not reach (required only for what loading them does); the
  // cache as it is now is what every game starts with.
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");
  const int loaded = lua_gettop(L);
  lua_newtable(L);
  const int at_load = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, loaded)) {
    walk.visit(-1, 0, lua_tostring(L, -2));
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, at_load);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, "rulebook.loaded_at_load");
  lua_pop(L, 1);
  lock_on_keeper(L, record);
  lua_pushvalue(L, record);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 2);
  return ref;
}

void sandbox_restore_modules(lua_State* L) {
  // Guards of the modules the last game required first go with them: that
  // game's module tables are garbage now, and the list would grow a game.
  const SandboxLock* lock = context(L)->lock;
  if (lock && lua_getfield(L, LUA_REGISTRYINDEX, kGuardedKey) == LUA_TTABLE) {
    for (lua_Integer i = static_cast<lua_Integer>(lua_rawlen(L, -1)); i > lock->guarded_length; --i) {
      lua_pushnil(L);
      lua_rawseti(L, -2, i);
    }
  }
  if (lock) lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");
  const int loaded = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded_at_load");
  const int at_load = lua_gettop(L);
  if (lua_istable(L, at_load)) {
    lua_pushnil(L);
    while (lua_next(L, loaded)) {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      if (lua_rawget(L, at_load) == LUA_TNIL) {
        // Clearing a field during the traversal is allowed (lua_next).
        lua_pushvalue(L, -2);
        lua_pushnil(L);
        lua_rawset(L, loaded);
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 2);
}

void sandbox_restore_upvalues(lua_State* L, int record_ref) {
  const SandboxLock* lock = context(L)->lock;
  if (lock && lock->keeper) {
    lua_State* K = lock->keeper;
    for (const SandboxLock::Upvalue& u : lock->upvalues) {
      lua_pushvalue(K, u.value);
      lua_setupvalue(K, u.function, u.n);
    }
    return;
  }
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

}  // namespace rulebook

namespace rulebook {

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
