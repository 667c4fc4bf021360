#pragma once
// Mutants of a Lua script: small deliberate bugs that a game's scenarios
// should notice. Each one is a single textual change found from a real
// parse (see lua_parser.hpp), so strings and comments are never touched
// and every mutant keeps the script's line numbers.
#include <string>
#include <string_view>
#include <vector>

namespace rulebook::mutation {

struct Mutant {
  std::string file;         // as given to make_mutants (a path inside the game folder)
  int line = 0;             // where the change is
  std::string kind;         // comparison, boundary, number, logical, boolean, delete, return, swap
  std::string change;       // what was changed, for people: "`<` -> `<=`"
  size_t offset = 0, length = 0;
  std::string replacement;
  // The mutant can only behave differently from the original in a run
  // that executes one of these lines.
  int reached_from = 0, reached_to = 0;
};

// Every mutant of `source`. Throws LuaSyntaxError when it is not valid Lua.
std::vector<Mutant> make_mutants(std::string_view source, const std::string& file);

// The source with the mutant's change made.
std::string apply_mutant(std::string_view source, const Mutant& mutant);

}  // namespace rulebook::mutation
