// Undo at the terminal: offered to a human seat, refused with the reason,
// and a game with undos logs the game that was played (undo itself:
// tests/unit/play/test_undo.cpp).
#include <catch2/catch.hpp>

#include <string>

#include "cli_runner.hpp"

using namespace rulebook;

TEST_CASE("undo: the terminal offers undo to a human seat and says why it is refused", "[undo][cli]") {
  std::string input;
  for (int i = 0; i < 60; ++i) input += "1\nundo\n";
  const auto r = test::run_rulebook("play hao-hao --seed 3 --agent 0=human", input);
  CHECK_THAT(r.out, Catch::Contains("(undo: take back your last decision)"));
  CHECK_THAT(r.out, Catch::Contains("takes back 1 decision."));
  CHECK_THAT(r.out, Catch::Contains("Cannot undo: a tile was"));
  // A game with undos logs the game that was played, which replays.
  const std::string dir = test::temp_folder("undo-log");
  std::string moves;
  for (int i = 0; i < 400; ++i) moves += i % 3 == 1 ? "undo\n" : "1\n";
  const auto played = test::run_rulebook("play pass-the-pandas --seed 4 --agent 0=human --log " + dir + "/log.json", moves);
  REQUIRE(played.exit_code == 0);
  CHECK(test::run_rulebook("replay " + dir + "/log.json").exit_code == 0);
}
