// Components shaped by options (setup/component_shapes.hpp): counts and
// faces follow the options after variants and --set, and every bad
// reference is an error at its file:line:col naming the option.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "core/game_state.hpp"
#include "setup/component_shapes.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "inline_game.hpp"
#include "shaped_game.hpp"

using rulebook::GameDefinition;
using rulebook::load_game;
using rulebook::LoadOptions;
using rulebook::SetupError;
using rulebook::test::kShapedGame;
using rulebook::test::TempGame;

namespace {

const char* const kRules = "return {setup = function() end, play = function(game) game:finish{} end}\n";

const char* const kSmallVariant =
    "name: small\ntitle: Small\nsource: tests\n"  // 1-3
    "overlay:\n"                                   // 4
    "  options: {cards: 5, sides: 20}\n";          // 5

// The error loading the game, its folder left out of file names.
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

std::string with(const std::string& from, const std::string& to) {
  std::string yaml = kShapedGame;
  const auto at = yaml.find(from);
  REQUIRE(at != std::string::npos);
  return yaml.replace(at, from.size(), to);
}

const rulebook::ComponentType& type_named(const GameDefinition& def, const std::string& name) {
  const int index = def.find_type(name);
  REQUIRE(index >= 0);
  return def.types[static_cast<size_t>(index)];
}

}  // namespace

TEST_CASE("shapes: counts and faces follow the options", "[setup][shapes]") {
  TempGame game(kShapedGame, kRules);
  const auto def = load_game(game.dir());
  const auto& bid = type_named(*def, "bid");
  CHECK(bid.count == 13 * 4);  // 13 for each of players.max seats
  REQUIRE(bid.faces.size() == 13);
  CHECK(bid.faces.front() == "1");
  CHECK(bid.faces.back() == "13");
  CHECK(bid.initial_face == 0);
  const auto& prize = type_named(*def, "prize");
  CHECK(prize.count == 13);
  CHECK(prize.faces == bid.faces);
  const auto& die = type_named(*def, "die");
  CHECK(die.count == 5 * 4);
  CHECK(die.faces == std::vector<std::string>{"1", "2", "3", "4", "5", "6"});
  CHECK(die.faces[static_cast<size_t>(die.initial_face)] == "6");
  CHECK(type_named(*def, "coin").count == 2);
  // The runtime sees ordinary components: one per piece, faces shared by name.
  CHECK(def->component_count() == 52 + 13 + 20 + 2);
  CHECK(def->face_id("13") == def->face_id("13"));
  CHECK(!def->face_id("13").is_none());
}

TEST_CASE("shapes: variants and --set decide the shape, --set last", "[setup][shapes]") {
  TempGame game(kShapedGame, kRules, {{"variants/small.yaml", kSmallVariant}});
  const auto small = load_game(game.dir(), LoadOptions{{"small"}, {}});
  CHECK(type_named(*small, "prize").count == 5);
  CHECK(type_named(*small, "prize").faces.back() == "5");
  CHECK(type_named(*small, "die").faces.size() == 20);

  const auto set = load_game(game.dir(), LoadOptions{{"small"}, {"options.cards=7", "players.max=3"}});
  CHECK(type_named(*set, "prize").count == 7);
  CHECK(type_named(*set, "bid").count == 7 * 3);
  CHECK(type_named(*set, "die").count == 5 * 3);

  // --set may shape a component that was fixed, and the other way round.
  const auto reshaped = load_game(game.dir(), LoadOptions{{}, {"components.3.count={option: dice}", "components.1.count=1"}});
  CHECK(type_named(*reshaped, "coin").count == 5);
  CHECK(type_named(*reshaped, "prize").count == 1);
}

TEST_CASE("shapes: a reference to an option the game does not have names it and its place", "[setup][shapes]") {
  TempGame game(with("count: {option: cards}", "count: {option: crads}"), kRules);
  const std::string error = error_of(game.dir());
  CHECK(error.find("game.yaml:16:47: error: component 'prize': count follows option 'crads', which this game "
                   "does not have (its options: cards, dice, label, sides); did you mean `cards`?") == 0);

  TempGame faces(with("to: {option: sides}", "to: {option: size}"), kRules);
  CHECK(error_of(faces.dir()).find("game.yaml:19:36: error: component 'die': faces' to follows option 'size', "
                                   "which this game does not have") == 0);

  // Removing the option with --set leaves the reference dangling: named where it is written.
  TempGame removed(kShapedGame, kRules);
  CHECK(error_of(removed.dir(), LoadOptions{{}, {"options.sides=~"}})
            .find("game.yaml:19:36: error: component 'die': faces' to follows option 'sides', which this game does "
                  "not have") == 0);
}

TEST_CASE("shapes: an option that is not an integer is an error naming both places", "[setup][shapes]") {
  TempGame game(with("count: {option: cards}", "count: {option: label}"), kRules);
  CHECK(error_of(game.dir()).find("game.yaml:16:47: error: component 'prize': count follows option 'label', which "
                                  "is \"thirteen\" (set at game.yaml:9:10): a string, not an integer") == 0);
  TempGame set(kShapedGame, kRules);
  const std::string error = error_of(set.dir(), LoadOptions{{}, {"options.sides=6.5"}});
  CHECK(error.find("game.yaml:19:36: error: component 'die': faces' to follows option 'sides', which is 6.5 "
                   "(set at --set:1:15): a number, not an integer") == 0);
}

TEST_CASE("shapes: counts and ranges out of bounds are errors at the reference", "[setup][shapes]") {
  TempGame game(kShapedGame, kRules, {{"variants/small.yaml", kSmallVariant}});
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.cards=-1"}})
            .find("game.yaml:14:45: error: component 'bid': count follows option 'cards' = -1 (set at --set:1:15), "
                  "below 0") == 0);
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.cards=3000"}})
            .find("game.yaml:14:45: error: component 'bid': count follows option 'cards' = 3000 (set at "
                  "--set:1:15) for each of 4 seats (players.max) makes 12000, above the most, 10000") == 0);
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.dice=9223372036854775807"}})
            .find("game.yaml:18:44: error: component 'die': count follows option 'dice' = 9223372036854775807 (set at "
                  "--set:1:14) for each of 4 seats (players.max), above the most, 10000") == 0);
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.sides=0"}})
            .find("game.yaml:19:36: error: component 'die': faces from 1 to 0 would be none (from 1; to follows "
                  "option 'sides' = 0 (set at --set:1:15)): to must be at least from") == 0);
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.sides=20000"}})
            .find("game.yaml:19:36: error: component 'die': faces from 1 to 20000 would be 20000 (from 1; to "
                  "follows option 'sides' = 20000 (set at --set:1:15)), above the most, 10000") == 0);
  CHECK(error_of(game.dir(), LoadOptions{{}, {"options.sides=5000000"}})
            .find("game.yaml:19:36: error: component 'die': faces' to follows option 'sides' = 5000000 (set at "
                  "--set:1:15), out of -1000000..1000000") == 0);
  // The starting face must be among the faces the options give.
  CHECK(error_of(game.dir(), LoadOptions{{"small"}, {"options.sides=4"}})
            .find("game.yaml:19:51: error: component 'die': face '6' is not one of its faces") == 0);
  // A variant's value is named where the variant wrote it.
  TempGame negative(kShapedGame, kRules,
                    {{"variants/none.yaml", "name: none\ntitle: None\nsource: tests\noverlay:\n  options: {cards: -2}\n"}});
  CHECK(error_of(negative.dir(), LoadOptions{{"none"}, {}})
            .find("component 'bid': count follows option 'cards' = -2 (set at variants/none.yaml:5:20), below 0") !=
        std::string::npos);
}

TEST_CASE("shapes: face: {in_order: true} starts each copy on its own face, in order", "[setup][shapes]") {
  // The bids: a suit 1..5 for each of the 4 seats, one after the other, 1 on top (the highest id); the dice keep "6".
  TempGame game(with("zone: box,\n     faces: {from: 1, to: {option: cards}}}",
                     "zone: box, face: {in_order: true},\n     faces: {from: 1, to: {option: cards}}}"),
                kRules);
  const auto def = load_game(game.dir(), LoadOptions{{}, {"options.cards=5"}});
  const auto& bid = type_named(*def, "bid");
  CHECK(bid.faces_in_order);
  CHECK_FALSE(type_named(*def, "die").faces_in_order);
  rulebook::GameState state(*def);
  state.reset(2, 1);
  std::vector<std::string> bids, dice;
  for (rulebook::ComponentId id : rulebook::ComponentId::all(state.component_count())) {
    const std::string& face = state.face_name(id);
    if (state.component(id).type == def->find_type("bid")) bids.push_back(face);
    if (state.component(id).type == def->find_type("die")) dice.push_back(face);
  }
  const std::vector<std::string> suit{"5", "4", "3", "2", "1"};  // by id, bottom up
  std::vector<std::string> four_suits;
  for (int seat = 0; seat < 4; ++seat) four_suits.insert(four_suits.end(), suit.begin(), suit.end());
  CHECK(bids == four_suits);
  CHECK(dice == std::vector<std::string>(20, "6"));
  // Written wrong: the schema says where.
  TempGame wrong(with("face: \"6\"}", "face: {in_order: yes}}"), kRules);
  CHECK(error_of(wrong.dir()).find("game.yaml:19:") == 0);
}

TEST_CASE("shapes: the schema checks how a shape is written", "[setup][shapes][schema]") {
  TempGame typo(with("count: {option: cards}", "count: {optoin: cards}"), kRules);
  const std::string typo_error = error_of(typo.dir());
  INFO(typo_error);
  CHECK(typo_error.find("game.yaml:16:38: error: missing required key 'option'") == 0);
  CHECK(typo_error.find("game.yaml:16:47: error: unknown key 'optoin' (allowed: players, plus, option, per_player); did you mean "
                        "`option`?") != std::string::npos);
  TempGame range(with("faces: {from: 1, to: {option: cards}}}\n  - {name: die",
                      "faces: {from: 1, upto: 6}}\n  - {name: die"),
                 kRules);
  CHECK(error_of(range.dir()).find("game.yaml:17:13: error: missing required key 'to'") == 0);
  TempGame list(with("faces: [heads, tails]", "faces: [heads, {option: cards}]"), kRules);
  CHECK(error_of(list.dir()).find("game.yaml:20:") == 0);
  TempGame flag(with("per_player: true}, zone: box,\n     faces", "per_player: yes}, zone: box,\n     faces"), kRules);
  CHECK(error_of(flag.dir()).find("game.yaml:14:64: error: expected boolean, got string") == 0);
  TempGame name(with("to: {option: sides}", "to: {option: 6}"), kRules);
  CHECK(error_of(name.dir()).find("game.yaml:19:36: error: expected string, got integer") == 0);
  TempGame text(with("count: 2, zone: box", "count: lots, zone: box"), kRules);
  CHECK(error_of(text.dir()).find("game.yaml:20:59: error: expected integer or object, got string") == 0);
}

TEST_CASE("shapes: display may style numbered faces the options leave out, but no other names", "[setup][shapes]") {
  const std::string styled = std::string(kShapedGame) +
                             "display:\n"
                             "  die:\n"
                             "    faces:\n"
                             "      \"20\": {glyph: X}\n";
  TempGame game(styled, kRules);
  CHECK(error_of(game.dir()) == "");
  TempGame misspelt(styled + "      six: {glyph: S}\n", kRules);
  CHECK(error_of(misspelt.dir()).find("error: display: 'six' is not a face of 'die' (its faces: numbers, 1..6 now)") !=
        std::string::npos);
}

TEST_CASE("shapes: the example in docs/writing-a-game.md loads as written", "[setup][shapes][docs]") {
  std::ifstream in(RULEBOOK_SOURCE_DIR "/docs/writing-a-game.md");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t section = doc.find("### Components shaped by options");
  REQUIRE(section != std::string::npos);
  const size_t start = doc.find("```yaml\n", section);
  REQUIRE(start != std::string::npos);
  const size_t end = doc.find("```", start + 8);
  const std::string example = doc.substr(start + 8, end - start - 8);
  TempGame game("name: example\ntitle: Example\nscript: rules.lua\nplayers: {min: 2, max: 4}\n"
                "zones: [{name: box}, {name: prizes, visibility: hidden}]\n" + example,
                kRules);
  const auto def = load_game(game.dir(), LoadOptions{{}, {"options.cards=8"}});
  CHECK(type_named(*def, "bid").count == 8 * 4);
  CHECK(type_named(*def, "prize").faces.back() == "8");
  CHECK(type_named(*def, "die").count == 5 * 4);
  CHECK(type_named(*def, "die").faces.size() == 6);
}

TEST_CASE("shapes: any document gets a shape or a SetupError, never another exception", "[setup][shapes]") {
  const auto setup = nlohmann::json::parse(R"({"options": {"n": 3, "big": 18446744073709551615, "list": [1]},
    "components": [
      {"name": "a", "count": "x"}, {"name": "b", "count": {"option": 3}}, {"count": {"option": "n", "per_player": "yes"}},
      {"name": "d", "faces": {"from": "a", "to": 1}}, {"name": "e", "faces": 5}, {"name": "f", "faces": {"from": 1}},
      {"name": "g", "faces": [1, 2]}, {"name": "h", "count": {"option": "big"}}, {"name": "i", "count": {"option": "list"}},
      {"name": "j", "faces": {"from": {"option": "n"}, "to": {"option": "big"}}}, {"name": "k", "count": -1}
    ]})");
  int errors = 0, shaped = 0;
  const rulebook::ComponentShapes shapes(
      setup, 3, [](const std::string& pointer, const std::string& message) { throw SetupError(pointer + ": " + message); },
      nullptr);
  for (size_t i = 0; i < setup["components"].size(); ++i) {
    const auto& c = setup["components"][i];
    try {
      (void)shapes.count(c, "/components/" + std::to_string(i));
      (void)shapes.faces(c, "/components/" + std::to_string(i));
      (void)rulebook::shape_summary(c);
      ++shaped;
    } catch (const SetupError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).rfind("/components/" + std::to_string(i) + "/", 0) == 0);
      ++errors;
    }
  }
  CHECK(shaped == 1);  // "per_player": "yes" is not true: the schema says so, the count is 3
  CHECK(errors == 10);
  CHECK(rulebook::shape_summary(nlohmann::json::parse(R"({"count": {"option": "n", "per_player": true},
        "faces": {"from": 1, "to": {"option": "sides"}}})")) == "count: options.n per seat; faces: 1..options.sides");
  CHECK(rulebook::shape_summary(nlohmann::json::parse(R"({"count": 3, "faces": ["a"]})")).empty());
}
