// Rule files are compiled once per process (lua/compiled_chunks.cpp): an
// engine built again for the same text loads the kept compiled function,
// which must play and fail exactly as the parsed text does (the same file
// and line in a message), and a file whose text changed is compiled anew,
// never served from what an older text compiled to.
#include <catch2/catch.hpp>

#include <string>

#include "inline_game.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// The error of a 2-player game of `dir` at seed 1, or "" if it ended well.
std::string failure_of(const std::string& dir) {
  const auto def = load_game(dir);
  Match match(def);
  match.set_agent(Seat{0}, std::make_unique<FirstAgent>());
  match.set_agent(Seat{1}, std::make_unique<FirstAgent>());
  try {
    match.play(2, 1);
  } catch (const ScriptError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a rule file compiled before plays and fails as its text does, and a changed file is compiled anew",
          "[sandbox][compiled]") {
  const std::string fails_at_5 = test::rules_lua("  local answer = game:choose(0, 'Go?', {'yes', 'no'})\n  error('boom ' .. answer)");
  const test::TempGame game(test::one_die_game_yaml("compiled", "Compiled"), fails_at_5);
  const std::string first = failure_of(game.dir());
  CHECK_THAT(first, Catch::Contains("rules.lua:5: boom yes"));
  // The second engine of the same text loads the kept compiled function:
  // the same message, the same line, the same traceback.
  CHECK(failure_of(game.dir()) == first);
  // The same file, another text: its own behaviour, not the kept one's.
  game.write("rules.lua", test::rules_lua("  game:choose(0, 'Go?', {'yes', 'no'})\n\n  error('bang')"));
  CHECK_THAT(failure_of(game.dir()), Catch::Contains("rules.lua:6: bang"));
  game.write("rules.lua", test::rules_lua("  game:choose(0, 'Go?', {'yes', 'no'})\n  game:finish{winners = {1}}"));
  CHECK(failure_of(game.dir()).empty());
  // And back to the first text: the kept function again, still right.
  game.write("rules.lua", fails_at_5);
  CHECK(failure_of(game.dir()) == first);
}
