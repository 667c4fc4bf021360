#pragma once
// The one place that decides what a rule script may do (after Redis's
// scripting sandbox): allow-listed libraries, guarded globals, frozen
// library and module tables, text-only chunks, `require` confined to the
// game's folder, a deterministic math.random, pairs and tostring, no
// finalizers, C library functions bounded before they start, a CPU-time
// budget kept by a watchdog (or an exact instruction count, on request)
// and a memory cap. Behind it, one file per concern (sandbox_internal.hpp
// lists them).
#include <string>
#include <vector>

#include "lua/budget.hpp"  // the budget's half of the sandbox: the hook and the runs
#include "lua/context.hpp"

namespace rulebook {

// Creates a Lua state whose allocator and hook enforce ctx's limits.
// ctx must outlive the state.
lua_State* sandbox_open(LuaContext* ctx);
void sandbox_close(lua_State* L);

// Pushes the sandbox's global table.
void sandbox_push_env(lua_State* L);

// Loads a Lua file (text only) with the sandbox as its environment and
// pushes the chunk; on failure pushes the error message and returns false.
bool sandbox_load_file(lua_State* L, const std::string& path, const std::string& display_name);

// Makes a table (and the tables inside it) read-only in place: its
// contents move to a shadow table it reads through (libraries, options).
void sandbox_freeze(lua_State* L, int index);
// Pushes the table whose fields the table at `index` holds: a frozen
// table's shadow (sandbox_freeze leaves the table itself empty), else the
// table itself. Reads raw: no metamethod of a script's runs.
void sandbox_push_contents(lua_State* L, int index);
// Guards a module table (and the tables inside it): contents stay in place,
// read at plain-table speed; new fields are refused at once, and changed
// fields are put back, and reported, by sandbox_restore_guarded, which the
// engine calls after every game. `label` names the table ("rules").
void sandbox_guard(lua_State* L, int index, const char* label);
// Puts back every guarded field a game changed; describes the first change
// ("rules.data (field 'count')"), or returns "" if there was none.
std::string sandbox_restore_guarded(lua_State* L);
// Module state that outlives a game lives in upvalues: a script's
// module-level locals. This freezes every table reachable from the value
// at `index` (through tables and function upvalues) and records every
// upvalue's value; sandbox_restore_upvalues puts them back before each
// game, so nothing one game assigns is seen by the next. Returns a
// registry reference to the record.
// The modules `require` has loaded by then are locked the same way, and
// that module cache is what sandbox_restore_modules puts back before each
// game: a module first required during a game is loaded afresh (fresh
// module-level locals) by the next, exactly as in a fresh state, and its
// guard goes with it. What the guarded tables and the locals hold now is
// also copied to a thread's stack, which the after-game comparison and the
// before-game restore read at a few API calls a field
// (game_isolation.cpp, SandboxLock).
int sandbox_lock_upvalues(lua_State* L, int index);
void sandbox_restore_upvalues(lua_State* L, int record_ref);
void sandbox_restore_modules(lua_State* L);
// Metatables given by setmetatable are watched for a `__mode` (weak table)
// field added after it refused one (metatable_watch.cpp):
// forget those of the last game (when a game begins), and the first that
// has one ("rules.lua:12: the metatable given to setmetatable here got a
// '__mode' field afterwards; ..."), or "".
void sandbox_forget_metatables(lua_State* L);
std::string sandbox_late_weak_metatable(lua_State* L);

// Freezes the global table itself: from now on, reading or writing an
// undeclared global is an error.
void sandbox_seal_globals(lua_State* L);

// The names a script can read as globals (for "did you mean" advice).
std::vector<std::string> sandbox_global_names(lua_State* L);

// Message handler for lua_pcall: appends a traceback.
int sandbox_traceback(lua_State* L);

}  // namespace rulebook
