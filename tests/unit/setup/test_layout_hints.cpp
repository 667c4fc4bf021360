// Layout hints (game.yaml display: layout:): where the web table lays each
// zone. A good set loads and reaches the definition; each wrong name, side
// or place is an error at its file:line:col.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "inline_game.hpp"

using rulebook::load_game;
using rulebook::SetupError;
using rulebook::test::TempGame;

namespace {

const char* const kRules = "return {setup = function() end, play = function(game) game:finish{} end}\n";

const char* const kLaidOutGame =
    "name: laid-out\ntitle: Laid out\nsource: tests\nscript: rules.lua\n"       // 1-4
    "players: {min: 2, max: 4, default: 2}\n"                                    // 5
    "boards:\n  - {name: sea, width: 2, height: 2}\n"                            // 6-7
    "zones:\n"                                                                   // 8
    "  - {name: deck}\n"                                                         // 9
    "  - {name: north_side}\n"                                                   // 10
    "  - {name: hand, per_player: true, visibility: owner}\n"                    // 11
    "  - {name: won, per_player: true}\n"                                        // 12
    "components:\n  - {name: card, kind: card, faces: [up], count: 4, zone: deck}\n"  // 13-14
    "display:\n"                                                                 // 15
    "  card: {glyph: C}\n"                                                       // 16
    "  layout:\n"                                                                // 17
    "    zones:\n"                                                               // 18
    "      deck: {place: row}\n"                                                 // 19
    "      north_side: {place: side, board: sea, side: north}\n"                 // 20
    "      hand: {place: hand}\n"                                                // 21
    "      won: {place: seat}\n";                                                // 22

std::string with(const std::string& from, const std::string& to) {
  std::string yaml = kLaidOutGame;
  const auto at = yaml.find(from);
  REQUIRE(at != std::string::npos);
  return yaml.replace(at, from.size(), to);
}

// The error loading the game, its folder left out of file names.
std::string error_of(const std::string& yaml) {
  TempGame game(yaml, kRules);
  try {
    load_game(game.dir());
  } catch (const SetupError& e) {
    std::string error = e.what();
    const std::string dir = game.dir() + "/";
    for (size_t at; (at = error.find(dir)) != std::string::npos;) error.erase(at, dir.size());
    return error;
  }
  return "";
}

}  // namespace

TEST_CASE("layout hints: a good set loads and reaches the definition", "[setup][layout]") {
  TempGame game(kLaidOutGame, kRules);
  const auto def = load_game(game.dir());
  const auto& zones = def->display.at("layout").at("zones");
  CHECK(zones.at("north_side") == nlohmann::json{{"place", "side"}, {"board", "sea"}, {"side", "north"}});
  CHECK(zones.at("hand").at("place") == "hand");
  // The type's style beside them is untouched.
  CHECK(def->display.at("card").at("glyph") == "C");
}

TEST_CASE("layout hints: a wrong zone, board or side is an error at its place", "[setup][layout]") {
  CHECK(error_of(with("      deck: {place: row}", "      dek: {place: row}")) ==
        "game.yaml:19:12: error: display: layout: 'dek' is not a zone of this game (its zones: deck, north_side, "
        "hand, won)");
  CHECK(error_of(with("board: sea, side: north", "board: see, side: north")) ==
        "game.yaml:20:40: error: display: layout: no board 'see' (its boards: sea)");
  CHECK(error_of(with("side: north}", "side: up}")) ==
        "game.yaml:20:51: error: value \"up\" is not one of the allowed values: \"north\", \"south\", \"east\", \"west\"");
  CHECK(error_of(with("deck: {place: row}", "deck: {place: middle}")) ==
        "game.yaml:19:21: error: value \"middle\" is not one of the allowed values: \"hand\", \"seat\", \"row\", \"side\"");
  CHECK(error_of(with("      deck: {place: row}", "      sea: {place: row}")) ==
        "game.yaml:19:12: error: display: layout: 'sea' is a board, which the table draws itself; hints place zones");
}

TEST_CASE("layout hints: the place must fit the zone", "[setup][layout]") {
  CHECK(error_of(with("deck: {place: row}", "deck: {place: hand}")) ==
        "game.yaml:19:21: error: display: layout: 'deck' is one shared zone; place: hand is for a per-player zone");
  CHECK(error_of(with("won: {place: seat}", "won: {place: row}")) ==
        "game.yaml:22:20: error: display: layout: 'won' is per player; place it as hand or seat");
  CHECK(error_of(with("{place: side, board: sea, side: north}", "{place: side, board: sea}")) ==
        "game.yaml:20:19: error: display: layout: 'north_side' lies beside a board: say which side (north, south, "
        "east or west)");
  CHECK(error_of(with("{place: side, board: sea, side: north}", "{place: side, side: north}")) ==
        "game.yaml:20:19: error: display: layout: 'north_side' lies beside a board: say which (board: NAME)");
  CHECK(error_of(with("deck: {place: row}", "deck: {place: row, side: east}")) ==
        "game.yaml:19:32: error: display: layout: board and side go with place: side, not place: row");
}
