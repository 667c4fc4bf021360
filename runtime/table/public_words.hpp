#pragma once
// What a network client may read of an error (a table's, or a refused
// request's): the message without the server's side of it. An operator's
// terminal gets the whole text (the source excerpt under a script error,
// its traceback, the folders); a page, GET /api/tables or an HTTP error
// gets only the message lines, with every path cut to what lies inside the
// game's folder ("rules.lua:12: ...", "variants/short.yaml:3:5: error:
// ...") or, for a path elsewhere, to its file name.
#include <string>

namespace rulebook {

// `game_dir`: the game's folder (as GameDefinition::dir holds it); its
// name is what a path is cut after.
std::string public_words(const std::string& text, const std::string& game_dir);

}  // namespace rulebook
