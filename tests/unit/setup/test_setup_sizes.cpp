// Sizes from the setup (setup/component_shapes.hpp): a count and a face
// range that follow the player count (Kuhn poker's deck of players + 1), a
// `plus` on an option, and a board whose width and height follow options;
// errors at the reference.
#include <catch2/catch.hpp>

#include <string>

#include "core/game_state.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "inline_game.hpp"

using rulebook::load_game;
using rulebook::LoadOptions;
using rulebook::SetupError;
using rulebook::test::TempGame;

namespace {

const char* const kRules = "return {setup = function() end, play = function(game) game:finish{} end}\n";

// Lines 1..: a deck of players + 1 cards 0..players, a board of options.size.
std::string sized_game(const std::string& count = "{players: true, plus: 1}",
                       const std::string& to = "{players: true}", const std::string& width = "{option: size}") {
  return "name: sized\n"                                                         // 1
         "title: Sized\n"                                                        // 2
         "script: rules.lua\n"                                                   // 3
         "players: {min: 2, max: 4, default: 2}\n"                               // 4
         "options: {size: 5, extra: 2}\n"                                        // 5
         "boards:\n"                                                             // 6
         "  - {name: grid, width: " + width + ", height: {option: size, plus: -2}}\n"  // 7
         "zones:\n"                                                              // 8
         "  - {name: deck, visibility: hidden}\n"                                // 9
         "components:\n"                                                         // 10
         "  - {name: card, kind: card, count: " + count + ", zone: deck,\n"      // 11
         "     faces: {from: 0, to: " + to + "}, face: {in_order: true}}\n"     // 12
         "  - {name: chip, kind: token, count: {option: extra, plus: 3}, zone: deck}\n";  // 13
}

std::string error_of(const std::string& dir, const LoadOptions& options = {}) {
  try {
    load_game(dir, options);
  } catch (const SetupError& e) {
    std::string error = e.what();
    for (size_t at; (at = error.find(dir + "/")) != std::string::npos;) error.erase(at, dir.size() + 1);
    return error;
  }
  return "";
}

// The faces of the cards in the deck, top first, in a game of `players`.
std::vector<std::string> deck_faces(const rulebook::GameDefinition& def, int players) {
  rulebook::GameState state(def);
  state.reset(players, 1);
  std::vector<std::string> faces;
  const int deck = def.zone_slot(def.find_zone_def("deck"), 0);
  const auto& items = state.zone(deck);
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (state.component(*it).type == def.find_type("card")) faces.push_back(state.face_name(*it));
  return faces;
}

}  // namespace

TEST_CASE("sizes: a count and faces that follow the player count; each game plays players + plus", "[setup][sizes]") {
  TempGame game(sized_game(), kRules);
  const auto def = load_game(game.dir());
  const auto& card = def->types[static_cast<size_t>(def->find_type("card"))];
  CHECK(card.count == 5);  // sized for players.max
  CHECK(card.faces == std::vector<std::string>{"0", "1", "2", "3", "4"});
  CHECK(card.in_play(2) == 3);
  CHECK(deck_faces(*def, 2) == std::vector<std::string>{"0", "1", "2"});
  CHECK(deck_faces(*def, 3) == std::vector<std::string>{"0", "1", "2", "3"});
  CHECK(deck_faces(*def, 4) == std::vector<std::string>{"0", "1", "2", "3", "4"});
  // An option's value plus 3; a board of the options' size.
  CHECK(def->types[static_cast<size_t>(def->find_type("chip"))].count == 5);
  REQUIRE(def->boards.size() == 1);
  CHECK(def->boards[0].geometry.width() == 5);
  CHECK(def->boards[0].geometry.height() == 3);
  const auto wide = load_game(game.dir(), LoadOptions{{}, {"options.size=8"}});
  CHECK(wide->boards[0].geometry.width() == 8);
  CHECK(wide->boards[0].geometry.height() == 6);
}

TEST_CASE("sizes: the existing shapes keep working; fixed numbers too", "[setup][sizes]") {
  TempGame game(sized_game("4", "3", "7"), kRules);
  const auto def = load_game(game.dir());
  const auto& card = def->types[static_cast<size_t>(def->find_type("card"))];
  CHECK(card.count == 4);
  CHECK_FALSE(card.follows_players);
  CHECK(card.in_play(2) == 4);
  CHECK(def->boards[0].geometry.width() == 7);
}

TEST_CASE("sizes: errors at the reference", "[setup][sizes]") {
  TempGame negative(sized_game("{players: true, plus: -3}"), kRules);
  CHECK(error_of(negative.dir()).find("game.yaml:11:59: error: component 'card': count follows the player count plus -3 "
                                      "(-1..1 for 2..4 players), below 0") == 0);
  TempGame no_faces(sized_game("{players: true}", "{players: true, plus: -3}"), kRules);
  CHECK(error_of(no_faces.dir()).find("component 'card': faces from 0 to -1 at 2 players would be none (from 0; to "
                                      "follows the player count plus -3 (-1..1 for 2..4 players)): to must be at "
                                      "least from") != std::string::npos);
  TempGame not_true(sized_game("{players: 2}"), kRules);
  // The schema says it first.
  CHECK(error_of(not_true.dir()).find("game.yaml:11:37: error: value does not match any of the 2 alternatives of "
                                      "'anyOf' (closest is #2: expected true, got 2 at '/components/0/count/players')") ==
        0);
  TempGame board(sized_game(), kRules);
  CHECK(error_of(board.dir(), LoadOptions{{}, {"options.size=100"}})
            .find("game.yaml:7:34: error: board 'grid': width follows option 'size' = 100 (set at --set:1:14), out "
                  "of 1..64") == 0);
  CHECK(error_of(board.dir(), LoadOptions{{}, {"options.size=2"}})
            .find("board 'grid': height follows option 'size' plus -2 = 0 (set at --set:1:14), out of 1..64") !=
        std::string::npos);
  TempGame unknown(sized_game("{players: true}", "{players: true}", "{option: sise}"), kRules);
  CHECK(error_of(unknown.dir()).find("board 'grid': width follows option 'sise', which this game does not have (its "
                                     "options: extra, size); did you mean `size`?") != std::string::npos);
}
