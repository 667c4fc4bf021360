// Named squares (issue 40): a board may name its columns and rows, and
// narration, option labels, scenario answers and Lua use the names ("e4").
// A board without names is written as before, (x,y).
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <sstream>
#include <string>

#include "agents/agent.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "play/scenario.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

using namespace rulebook;
using rulebook::test::TempGame;

namespace {

std::string yaml(const std::string& names) {
  return "name: squares\ntitle: Squares\nscript: rules.lua\nplayers: {min: 2, max: 2, default: 2, names: [Ann, Bob]}\n"
         "boards:\n  - {name: board, title: the board, width: 3, height: 2" + names + "}\n"
         "zones:\n  - {name: box, title: the box}\n"
         "components:\n  - {name: pawn, kind: piece, title: Pawn, zone: box}\n";
}

// The pawn goes to the square Ann chooses, then one step east.
const char* const kPlay = R"(
  local b = game:board("board")
  local d = {}
  d.name_of = b:square_name(b:cell(2, 1)) or "none"
  if b:square_name(1, 1) then  -- a board without names takes no names
    d.by_name = b:cell("a1"):title()
    d.xy = {b:xy("c2")}
    d.name_xy = b:square_name(3, 2)
    d.unknown = b:cell("z9") == nil
    d.step = b:step("a2", "east") == b:cell("b2")
  else
    d.refused = not pcall(b.cell, b, "a1")
  end
  local square = game:choose(0, "Where?", b:cells())
  game:zone("box"):top():move(square)
  square:move_all(b:step(square, "east"))
  game:finish{details = d}
)";

std::string narrate(const TempGame& game) {
  Match match(load_game(game.dir()));
  std::ostringstream text;
  Narrator narrator(text);
  match.add_sink(&narrator);
  FirstAgent first;
  match.set_agents({&first, &first});
  const GameResult r = match.play(2, 1);
  narrator.flush();
  return text.str() + "\n" + r.details.dump();
}

}  // namespace

TEST_CASE("named squares: narration, labels, answers and Lua use the squares' names", "[board][names]") {
  // Columns a..c from the west, rows 2..1 from the north: a1 is the bottom-left.
  TempGame game(yaml(", column_names: letters, row_names: numbers_reversed"), rulebook::test::rules_lua(kPlay),
                {{"scenarios/b1.yaml", "name: b1\nanswers: [b1]\nexpect:\n  zones: {\"board@c1\": 1, \"board@b1\": 0}\n"
                                       "  log: [\"Pawn moves from b1 to c1\"]\n"},
                 {"scenarios/position.yaml", "name: position\nanswers: [2]\nexpect:\n  zones: {\"board@c2\": 1}\n"}});
  const std::string told = narrate(game);
  INFO(told);
  // The first square (cells() starts at the top-left, a2) is chosen.
  CHECK(told.find("Ann chooses: a2") != std::string::npos);
  CHECK(told.find("Pawn moves from a2 to b2") != std::string::npos);
  CHECK(told.find("(1,1)") == std::string::npos);
  CHECK(told.find("\"by_name\":\"a1\"") != std::string::npos);
  CHECK(told.find("\"xy\":[3,1]") != std::string::npos);
  CHECK(told.find("\"name_of\":\"b2\"") != std::string::npos);
  CHECK(told.find("\"name_xy\":\"c1\"") != std::string::npos);
  CHECK(told.find("\"unknown\":true") != std::string::npos);
  CHECK(told.find("\"step\":true") != std::string::npos);
  for (const char* name : {"b1", "position"}) {
    const ScenarioOutcome o = run_scenario(game.dir() + "/scenarios/" + name + ".yaml");
    INFO(name << ": " << (o.failures.empty() ? "" : o.failures.front()) << "\n" << o.narration);
    CHECK(o.passed);
  }
}

TEST_CASE("named squares: a list of names, and a board without names as before", "[board][names]") {
  TempGame named(yaml(", column_names: [x, y, z], row_names: [top, bottom]"), rulebook::test::rules_lua(R"(
  local b = game:board("board")
  game:finish{details = {b:square_name(1, 1), b:square_name(3, 2), b:cell("ytop"):title()}})"));
  CHECK(narrate(named).find("[\"xtop\",\"zbottom\",\"ytop\"]") != std::string::npos);
  TempGame plain(yaml(""), rulebook::test::rules_lua(kPlay));
  // Unnamed: cells are (x,y), square_name is nil and a name is no cell.
  const std::string told = narrate(plain);
  INFO(told);
  CHECK(told.find("Ann chooses: the board (1,1)") != std::string::npos);
  CHECK(told.find("Pawn moves from the board (1,1) to the board (2,1)") != std::string::npos);
  CHECK(told.find("\"name_of\":\"none\"") != std::string::npos);
  CHECK(told.find("\"refused\":true") != std::string::npos);
}

TEST_CASE("named squares: names that do not fit the board are errors at their key", "[board][names]") {
  auto error_of = [](const std::string& names) {
    TempGame game(yaml(names), rulebook::test::rules_lua("game:finish{}"));
    try {
      load_game(game.dir());
    } catch (const SetupError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of(", column_names: [a, b], row_names: numbers"),
             Catch::Contains("game.yaml:6:72: error: board 'board': column_names: 2 names for 3 squares (the board is 3 wide)"));
  CHECK_THAT(error_of(", column_names: letters"), Catch::Contains("names both its columns (column_names) and its rows"));
  CHECK_THAT(error_of(", column_names: [a, a1, b], row_names: [\"1\", \"11\"]"),
             Catch::Contains("two squares would have the same name"));
  CHECK_THAT(error_of(", column_names: diagonal, row_names: numbers"),
             Catch::Contains("game.yaml:6:72: error: value does not match any of the 2 alternatives"));
}
