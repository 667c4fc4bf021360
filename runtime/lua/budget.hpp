#pragma once
// The budget of a rule script's runs of Lua.
//
// A count hook makes Lua 5.4 stop at every instruction whatever the count,
// which cost a fifth of the time of a game. So the default budget is CPU
// time, kept by a watchdog thread that costs the game nothing: it samples
// each running state's thread CPU clock every few milliseconds, and when a
// run goes over its budget it signals that thread, whose handler arms a
// count-1 hook (lua_sethook is async-signal-safe: this is how the lua
// interpreter stops a script on Ctrl-C). The hook raises the budget error
// at the next instruction; it stays armed until the run ends, so pcall,
// xpcall handlers and __close handlers cannot run on past it. The exact
// instruction count (max_instructions) keeps the old count hook, for those
// who ask for it.
#include "lua/context.hpp"

namespace rulebook {

// Puts ctx's state under the watchdog when it has a time budget
// (ctx->max_seconds), and takes it off before the state closes.
void budget_watch(LuaContext* ctx);
void budget_unwatch(LuaContext* ctx);

// Sets thread L's hook for ctx->max_instructions (none when it is 0).
void sandbox_arm_hook(lua_State* L);

// Bracket every run of Lua on state or thread L (a resume, a protected
// call): the watchdog charges the CPU time between them to the budget of
// ctx->max_seconds and stops the run when it is spent. Runs may nest (an
// agent that plays games of its own); end_run must be called on every path.
void sandbox_begin_run(lua_State* L);
void sandbox_end_run(lua_State* L);
// Bracket an agent's answer inside a run: the CPU time between them is not
// charged to the run's budget (a search bot's thinking is not the rules'),
// while the games the agent simulates on engines of its own are budgeted
// by those engines.
void sandbox_pause_run(lua_State* L);
void sandbox_resume_run(lua_State* L);

}  // namespace rulebook
