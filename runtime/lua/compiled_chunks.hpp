#pragma once
// Rule files compiled once per process (compiled_chunks.cpp): the same
// text under the same chunk name loads from the bytes lua_dump kept the
// first time, instead of being parsed again. Internal to the sandbox.
#include <string_view>

#include <lua.hpp>

namespace rulebook {

// Pushes the function compiled from `text` under `chunkname` if this
// process compiled it before and kept it (true); else pushes nothing.
bool load_compiled_chunk(lua_State* L, std::string_view text, const char* chunkname);
// Keeps the function on the stack top, compiled from `text` under
// `chunkname` (before any upvalue of it is set), for later loads.
void keep_compiled_chunk(lua_State* L, std::string_view text, const char* chunkname);

}  // namespace rulebook
