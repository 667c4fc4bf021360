// The sandbox's bounded C library functions. The hook only runs between VM
// instructions, so a loop inside a C library function would escape the
// budget. Every such function a script can reach is bounded here, before
// it starts: its work is at most proportional to what the memory cap lets
// a script build. And setmetatable, which may not set finalizers or make
// weak tables.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

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
// one). A `__mode` added to a metatable afterwards is found by the guard
// (metatable_watch.cpp).
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
    note_given_metatable(L, 2);  // and one added later is found by the guard
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

}  // namespace

void bound_string_library(lua_State* L, int lib) {
  wrap_field(L, lib, "find", bounded_match, true);
  wrap_field(L, lib, "match", bounded_match);
  wrap_field(L, lib, "gmatch", bounded_match);
  wrap_field(L, lib, "gsub", bounded_match);
  wrap_field(L, lib, "rep", bounded_rep);
}

void bound_table_library(lua_State* L, int lib) {
  wrap_field(L, lib, "move", bounded_move);
  wrap_field(L, lib, "concat", bounded_concat);
  wrap_field(L, lib, "unpack", bounded_unpack);
  wrap_field(L, lib, "insert", bounded_insert);
  wrap_field(L, lib, "remove", bounded_remove);
  wrap_field(L, lib, "sort", bounded_sort);
}

void bound_setmetatable(lua_State* L, int base) { wrap_field(L, base, "setmetatable", safe_setmetatable); }

}  // namespace rulebook
