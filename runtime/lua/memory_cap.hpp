#pragma once
// Lua's allocator for a sandboxed state: every byte counts against the
// state's memory cap (ctx->max_memory, while ctx->memory_capped), and every
// block comes from the state's own LuaHeap (ctx->heap), which a snapshot
// can copy. A script that asks for more
// than the cap gets Lua's "not enough memory", with an abort that pcall
// cannot swallow.
#include "lua/context.hpp"

namespace rulebook {

// A new Lua state allocating under ctx's cap; ctx must outlive it. nullptr
// if even the state could not be allocated.
lua_State* memory_capped_state(LuaContext* ctx);
// Frees ctx's heap, after lua_close of its state.
void memory_cap_release(LuaContext* ctx);

}  // namespace rulebook
