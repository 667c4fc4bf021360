#pragma once
// Turns a Lua error (message and traceback) into one a person fixes in one
// step: a misspelt API method gets the closest real name, and the line the
// error points at is shown with a caret under the culprit, like a compiler:
//
//   rules.lua:14: attempt to call a nil value (method 'move_topp'); did you mean `move_top`?
//     --> rules.lua:14:12
//      |
//   14 |     supply:move_topp(per_player, game.dice[seat])
//      |            ^
//   stack traceback: ...
//
// The first line stays exactly what Lua said (plus the suggestion), so tools
// that read `file:line: message` keep working.
#include <map>
#include <string>
#include <vector>

#include "lua/context.hpp"

namespace rulebook {

// The method names of the API's objects ("game", "zone", "component",
// "board"), read from the method tables the bindings registered in L.
std::map<std::string, std::vector<std::string>> api_method_names(lua_State* L);

// `text` is a message with its traceback; ctx maps displayed script names
// back to files (display_dir -> game_dir).
std::string explain_script_error(lua_State* L, const std::string& text);

// The column (1-based) of what a Lua message is about in `line`: the method,
// field or variable it names, else the first non-blank character.
int error_column(const std::string& message, const std::string& line);

// "rules.lua:12: ", the position of the innermost Lua function running on
// L, to begin a message raised from C (a budget, the memory cap); "" if
// no Lua function is running.
std::string script_position(lua_State* L);

}  // namespace rulebook
