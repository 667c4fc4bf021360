// Game isolation, the guard: nothing one game does reaches the next on a
// reused Lua state. Module tables are guarded (new fields refused, changed
// fields put back and reported after every game), module-level locals are
// put back before every game, and the module cache starts every game as
// the rules were loaded. The guard's per-game work reads a copy of what
// every game starts from on a thread's stack (SandboxLock); bench/README.md
// tells what each step of it costs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

// The registry's list of guarded tables: for each, the table, its snapshot
// and its label (guard_table).
const char* const kGuardedKey = "rulebook.guarded";

}  // namespace

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
  // One entry a field of every table guarded when locked, in one flat list:
  // the comparison after every game walks it without a loop per table.
  struct Field {
    int table;            // stack slot of the guarded table
    int key;              // slot of the field's key; its value at load is next
    const void* address;  // that value's lua_topointer (null: a number, ...)
  };
  std::vector<Field> fields;
  struct Upvalue {
    int function;  // stack slot
    int n;
    int value;  // stack slot
  };
  std::vector<Upvalue> upvalues;
  lua_Integer guarded_length = 0;  // the guarded list's length when locked
  // Stack slot of the registry's guarded list: its length says whether a
  // table was guarded since, without a registry lookup after every game.
  int list = 0;
};

void sandbox_guard(lua_State* L, int index, const char* label) {
  index = lua_absindex(L, index);
  lua_pushstring(L, label);
  guard_table(L, index, -1, 0);
  lua_pop(L, 1);
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
  // Each field's value now stays above the keeper's copy until the end, one
  // slot a field (lock_on_keeper made the room): a push and a read a field,
  // and one pop for all.
  bool same = true;
  for (const SandboxLock::Field& f : lock.fields) {
    lua_pushvalue(K, f.key);
    lua_rawget(K, f.table);
    // The value at load lives on the keeper's stack, so no other object
    // can have its address: the same address is the same value.
    const void* now = lua_topointer(K, -1);
    if ((!now || now != f.address) && !same_value(K, -1, f.key + 1)) {
      same = false;
      break;
    }
  }
  lua_settop(K, top);
  return same;
}

}  // namespace

std::string sandbox_restore_guarded(lua_State* L) {
  std::string change;
  // Unchanged since the rules were locked: only tables guarded since (a
  // module first required during this game) are left to compare.
  const SandboxLock* lock = context(L)->lock;
  const lua_Integer from = lock && lock->keeper && locked_fields_unchanged(*lock) ? lock->guarded_length + 1 : 1;
  // Nothing guarded since the lock (the list on the keeper is the
  // registry's): nothing else to compare.
  if (from > 1 && static_cast<lua_Integer>(lua_rawlen(lock->keeper, lock->list)) < from) return change;
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

// Copies the guarded list and the upvalue record (at `record`) onto a new
// keeper thread (SandboxLock). Without room on a thread's stack (a million
// fields), there is no keeper and the registry's lists are read instead.
void lock_on_keeper(lua_State* L, int record) {
  LuaContext* ctx = context(L);
  auto lock = std::make_unique<SandboxLock>();
  if (lua_getfield(L, LUA_REGISTRYINDEX, kGuardedKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);  // the registry's from now on: the keeper reads its length
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kGuardedKey);
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
  // Room for the comparison's values above the copy too: one a field.
  slots += slots / 2;
  lua_State* K = lua_newthread(L);
  lock->keeper_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (slots >= 1000000 || !lua_checkstack(K, static_cast<int>(slots) + 1 + LUA_MINSTACK)) {
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
  lua_pushvalue(L, list);
  lua_xmove(L, K, 1);
  lock->list = lua_gettop(K);
  for (lua_Integer i = 1; i + 2 <= lock->guarded_length; i += 3) {
    const int table = push_to_keeper(list, i);
    lua_rawgeti(L, list, i + 1);
    const int snapshot = lua_gettop(L);
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, snapshot));
    for (lua_Integer k = 1; k + 1 <= n; k += 2) {
      const int key = push_to_keeper(snapshot, k);
      lock->fields.push_back({table, key, lua_topointer(K, push_to_keeper(snapshot, k + 1))});
    }
    lua_pop(L, 1);
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

void release_sandbox_lock(LuaContext* ctx) {
  delete ctx->lock;
  ctx->lock = nullptr;
}

}  // namespace rulebook
