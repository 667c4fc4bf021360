// Components shaped by options at the command line: validate, play and
// info with --set, and a bad option reference exiting 2 (the shapes
// themselves: tests/unit/setup/test_component_shapes.cpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "cli_runner.hpp"
#include "shaped_game.hpp"

using rulebook::test::kShapedGame;

namespace {

// Deals each seat its suit 1..N; says what the rules see.
const char* const kDealingRules = R"(local rules = {}
function rules.setup(game)
  local n = game.options.cards
  for seat = 0, game:player_count() - 1 do
    local hand = game:zone("hand", seat)
    game:zone("box"):move_matching("bid", hand, n)
    for i = 1, n do hand:get(i):set_face(tostring(i)) end
  end
end
function rules.play(game)
  local hand, faces = game:zone("hand", 0), {}
  for i = 1, hand:count() do faces[#faces + 1] = hand:get(i):face() end
  game:say("Ann holds " .. table.concat(faces, " "))
  game:say(string.format("%d bids, %d prizes, %d dice of %d faces", #game:components("bid"),
                         #game:components("prize"), #game:components("die"), #game:components("die")[1]:faces()))
  game:finish{}
end
return rules
)";

std::string cli_game(const std::string& yaml) {
  const std::string dir = rulebook::test::temp_folder("shaped");
  rulebook::test::write_file(dir + "/game.yaml", yaml);
  rulebook::test::write_file(dir + "/rules.lua", kDealingRules);
  return dir;
}

}  // namespace

TEST_CASE("cli: a game shaped by options validates, plays, and info shows the shapes", "[cli][shapes]") {
  using rulebook::test::run_rulebook;
  std::string yaml = kShapedGame;
  yaml.insert(yaml.find("components:\n"), "  - {name: hand, per_player: true, visibility: owner}\n");
  const std::string dir = cli_game(yaml);

  auto validate = run_rulebook("validate " + dir);
  INFO(validate.err);
  CHECK(validate.exit_code == 0);

  auto play = run_rulebook("play " + dir + " --seed 1 --set options.cards=4 --set options.sides=8");
  INFO(play.err);
  CHECK(play.exit_code == 0);
  CHECK(play.out.find("Ann holds 1 2 3 4") != std::string::npos);
  CHECK(play.out.find("16 bids, 4 prizes, 20 dice of 8 faces") != std::string::npos);

  auto info = run_rulebook("info " + dir);
  CHECK(info.exit_code == 0);
  CHECK(info.out.find("   13 x prize            card   faces: 1..13  (count: options.cards; faces: 1..options.cards)") !=
        std::string::npos);
  CHECK(info.out.find("   52 x bid              card   faces: 1..13  (count: options.cards per seat; faces: "
                      "1..options.cards)") != std::string::npos);
  CHECK(info.out.find("    2 x coin             die    faces: heads, tails\n") != std::string::npos);
  auto shaped = run_rulebook("info " + dir + " --set options.cards=5");
  CHECK(shaped.out.find("    5 x prize            card   faces: 1..5  (count: options.cards;") != std::string::npos);
  CHECK(shaped.out.find("  cards = 5\n") != std::string::npos);
  auto json = nlohmann::json::parse(run_rulebook("info --json " + dir).out);
  CHECK(json["components"][2]["count"] == 20);
  CHECK(json["components"][2]["faces"].size() == 6);
  CHECK(json["components"][2]["shape"]["faces"]["to"]["option"] == "sides");
  CHECK(json["components"][2]["shape"]["count"]["per_player"] == true);
  CHECK(!json["components"][3].contains("shape"));
}

TEST_CASE("cli: a bad option reference exits 2 with file:line:col", "[cli][shapes]") {
  using rulebook::test::run_rulebook;
  std::string yaml = kShapedGame;
  yaml.replace(yaml.find("to: {option: sides}"), 19, "to: {option: side}");
  const std::string dir = cli_game(yaml);
  auto validate = run_rulebook("validate " + dir);
  CHECK(validate.exit_code == 2);
  CHECK(validate.err.find("game.yaml:19:36: error: component 'die': faces' to follows option 'side', which this "
                          "game does not have (its options: cards, dice, label, sides); did you mean `sides`?") !=
        std::string::npos);

  const std::string good = cli_game(kShapedGame);
  auto set = run_rulebook("play " + good + " --set options.cards=three");
  CHECK(set.exit_code == 2);
  CHECK(set.err.find("game.yaml:14:45: error: component 'bid': count follows option 'cards', which is \"three\" "
                     "(set at --set:1:15): a string, not an integer") != std::string::npos);
}

