// Pass the Pandas deals every seat the dice the rules say, or refuses.
#include <catch2/catch.hpp>

#include "cli_runner.hpp"

using rulebook::test::run_rulebook;

TEST_CASE("Pass the Pandas refuses a deal the box cannot cover", "[judging]") {
  // 5 players with 5 dice need 25 dice; the box holds 20. Before: seat 4 got none, silently.
  auto r = run_rulebook("simulate pass-the-pandas --players 5 --set options.dice_per_player.5=5 --games 3");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("options.dice_per_player: 5 players with 5 dice each need 25 dice, but the box holds 20") !=
        std::string::npos);
  CHECK(run_rulebook("simulate pass-the-pandas --players 5 --set options.dice_per_player.5=4 --games 3").exit_code == 0);
}
