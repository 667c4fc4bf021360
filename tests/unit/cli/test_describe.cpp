// Seeing the game at a glance: rules.describe (the public state in words,
// part of every view, sandboxed, checked for leaks) and game.yaml's
// display: (labels, colours, glyphs, images, checked when loaded), as the
// terminal's human menu and the web table use them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "observation/component_look.hpp"
#include "cli/terminal_view.hpp"
#include "cli_runner.hpp"
#include "lua/rule_engine.hpp"
#include "observation/event_recorder.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "inline_game.hpp"

using nlohmann::json;
using namespace rulebook;
using rulebook::test::TempGame;

namespace {

const char* const kYaml = R"(name: glance
title: Glance
script: rules.lua
players: {min: 2, max: 2, default: 2, names: [Ann, Bob]}
zones:
  - {name: deck, title: the deck, visibility: hidden}
  - {name: hand, per_player: true, title: "{player}'s hand", visibility: owner}
components:
  - {name: guard, kind: card, title: Guard, count: 2, zone: deck}
  - {name: priest, kind: card, title: Priest, zone: deck}
  - {name: coin, kind: token, title: coin, faces: [heads, tails], zone: deck}
)";

// Deals the deck's top card to each hand, then seat 0 chooses.
std::string script(const std::string& describe_body) {
  return "local rules = {}\n"
         "function rules.setup(game) end\n"
         "function rules.play(game)\n"
         "  game:zone('deck'):move_top(1, game:zone('hand', 0))\n"
         "  game:zone('deck'):move_top(1, game:zone('hand', 1))\n"
         "  game:choose(0, 'Which?', {'a', 'b'})\n"
         "  game:finish({0})\n"
         "end\n"
         "function rules.describe(game, seat)\n" + describe_body + "\nend\n"
         "return rules\n";
}

json view_at_first_decision(const std::string& dir, Seat seat) {
  Match match(load_game(dir));
  REQUIRE(match.start(2, 1));
  return match.view(seat);
}

}  // namespace

TEST_CASE("describe: lines and fields are part of every seat's view", "[describe]") {
  TempGame game(kYaml, script(R"(
  return {"Hello", {label = "you are", value = game:player_name(seat)}, {label = "cards", value = 4},
          {label = "over", value = false}})"));
  const json view = view_at_first_decision(game.dir(), Seat{1});
  REQUIRE(view.contains("describe"));
  CHECK(view["describe"] == json::parse(R"(["Hello", {"label": "you are", "value": "Bob"},
      {"label": "cards", "value": 4}, {"label": "over", "value": false}])"));
  const auto lines = glance_lines(view);
  CHECK(lines == std::vector<std::string>{"Hello", "you are: Bob", "cards: 4", "over: false"});
}

TEST_CASE("describe: a wrong answer, a change to the game or an error is reported with the script and seat", "[describe]") {
  struct Case {
    const char* body;
    const char* message;
  };
  for (const Case& c : {Case{"return 7", "rules.describe(game, 0) returned a number; it must return a list of lines"},
                        Case{"return {{label = 'x'}}", "rules.describe(game, 0) returned item 1 is {\"label\":\"x\"}"},
                        Case{"game:zone('deck'):move_top(1, game:zone('hand', 0)) return {}",
                             "rules.describe(game, 0) changed the game (a move event)"},
                        Case{"error('no words')", "rules.describe(game, 0) failed: "},
                        Case{"while true do end", "rules.describe(game, 0) failed: "}}) {
    INFO(c.body);
    TempGame game(kYaml, script(c.body));
    Match match(load_game(game.dir()), EngineLimits{1000000, 256u * 1024 * 1024, 5.0});
    try {
      // The pause's request holds the deciding seat's view: describe runs there.
      match.start(2, 1);
      match.view(Seat{0});
      FAIL("no error");
    } catch (const ScriptError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(c.message) != std::string::npos);
      CHECK(std::string(e.what()).find("rules.lua") != std::string::npos);
    }
  }
}

TEST_CASE("describe: math.random inside it never moves the game's chance", "[describe]") {
  const std::string yaml = std::string(kYaml);
  TempGame quiet(yaml, script("return {}"));
  TempGame noisy(yaml, script("return {tostring(math.random(100))}"));
  auto log_of = [](const std::string& dir, bool look) {
    Match match(load_game(dir));
    EventRecorder events;
    match.add_sink(&events);
    REQUIRE(match.start(2, 9));
    if (look)
      for (int i = 0; i < 5; ++i) match.view(Seat{i % 2});
    match.answer(1);
    return json(events.events()).dump();
  };
  CHECK(log_of(noisy.dir(), true) == log_of(quiet.dir(), false));
}

TEST_CASE("describe: rulebook check finds what describe tells a seat it may not know", "[describe][check]") {
  // Every seat is told the title of Bob's card: hidden from Ann.
  TempGame leak(kYaml, script(R"(
  local names = {}
  for _, c in ipairs(game:zone('hand', 1):items()) do names[#names + 1] = c:title() end
  return {{label = "Bob holds", value = table.concat(names, ", ")}})"));
  const auto r = rulebook::test::run_rulebook("check '" + leak.dir() + "' --games 1");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("rules.describe shows seat 0") != std::string::npos);
  // Counts are public: no leak.
  TempGame fine(kYaml, script(R"(
  return {{label = "Bob holds", value = game:zone('hand', 1):count() .. " card"}})"));
  const auto ok = rulebook::test::run_rulebook("check '" + fine.dir() + "' --games 1");
  INFO(ok.out << ok.err);
  CHECK(ok.out.find("rules.describe shows") == std::string::npos);
}

TEST_CASE("display: labels, colours and glyphs per type and face, over the defaults", "[describe][display]") {
  TempGame game(std::string(kYaml) + R"(display:
  priest: {label: the Priest, colour: "#aa00aa", glyph: P, image: art/priest.svg}
  coin:
    colour: gold
    faces:
      tails: {label: tails up, glyph: T}
)",
                script("return {}"), {{"art/priest.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>"}});
  const auto def = load_game(game.dir());
  const auto priest = look_of(*def, "priest", "default");
  CHECK(priest.label == "the Priest");
  CHECK(priest.colour == "#aa00aa");
  CHECK(priest.glyph == "P");
  CHECK(priest.image == "art/priest.svg");
  const auto guard = look_of(*def, "guard", "default");  // nothing declared: title, first letter
  CHECK(guard.label == "Guard");
  CHECK(guard.glyph == "G");
  CHECK(look_of(*def, "coin", "tails").label == "tails up");
  CHECK(look_of(*def, "coin", "tails").colour == "gold");
  CHECK(look_of(*def, "coin", "heads").label == "coin (heads)");
}

TEST_CASE("display: unknown types and faces and images outside the folder are errors with file:line:col", "[describe][display]") {
  struct Case {
    const char* display;
    const char* message;
  };
  for (const Case& c : {Case{"display:\n  preist: {label: x}\n", "game.yaml:13:11: error: display: 'preist' is not a component type"},
                        Case{"display:\n  coin:\n    faces:\n      head: {label: x}\n", "'head' is not a face of 'coin' (its faces: heads, tails)"},
                        Case{"display:\n  coin: {image: ../coin.png}\n", "must be a file of the game's folder"},
                        Case{"display:\n  coin: {image: coin.png}\n", "image 'coin.png' not found"},
                        Case{"display:\n  coin: {colour: 12}\n", "game.yaml:13:"},
                        Case{"display:\n  coin: {glyph: x, size: 3}\n", "size"}}) {
    INFO(c.display);
    TempGame game(std::string(kYaml) + c.display, script("return {}"));
    try {
      load_game(game.dir());
      FAIL("no error");
    } catch (const SetupError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(c.message) != std::string::npos);
    }
  }
}

TEST_CASE("display: layout: a wrong hint stops every command with file:line:col, exit 2", "[describe][display][layout]") {
  // The deck beside a board this game does not have (line 15, the board at column 34).
  TempGame game(std::string(kYaml) + "display:\n  layout:\n    zones:\n      deck: {place: side, board: sea, side: north}\n",
                script("return {}"));
  const auto r = rulebook::test::run_rulebook("info '" + game.dir() + "'");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(game.dir() + "/game.yaml:15:34: error: display: layout: no board 'sea' (this game has no boards)") !=
        std::string::npos);
  const auto side = rulebook::test::run_rulebook("play '" + game.dir() + "'");
  INFO(side.err);
  CHECK(side.exit_code == 2);
  CHECK(side.err.find("game.yaml:15:34: error:") != std::string::npos);
  // The web table's first message carries the bundled games' hints: Hai Noon's sides around the sea.
  const auto def = load_game(std::string(RULEBOOK_SOURCE_DIR) + "/rules/hai-noon");
  CHECK(def->display.at("layout").at("zones").at("side_left") ==
        json{{"place", "side"}, {"board", "sea"}, {"side", "west"}});
}

TEST_CASE("display and describe: Hai Noon at a glance in the terminal", "[describe][hai-noon]") {
  // Seat 0 is a person at the terminal: its menu says which divers are its
  // own, which sharks are hungry, what is in its hand, by labels.
  const auto r = rulebook::test::run_rulebook("play hai-noon --players 2 --seed 3 --agent 0=human --agent 1=first", "1\n1\n1\n");
  INFO(r.out);
  CHECK(r.out.find("At a glance:") != std::string::npos);
  CHECK(r.out.find("pink diver: YOURS, healthy, at (2,2)") != std::string::npos);
  CHECK(r.out.find("blue diver: Susan's, healthy, at (3,2)") != std::string::npos);
  CHECK(r.out.find("hungry sharks: (1,1) (4,1) (4,4) (1,4)") != std::string::npos);
  CHECK(r.out.find("John's hand: 3 [red cage/harpoon, green shark swims on, green all sharks swim on]") != std::string::npos);
  CHECK(r.out.find("S! hungry shark") != std::string::npos);  // the board's legend
  // No type ids, no raw JSON of the rules' state.
  CHECK(r.out.find("green_shark_swims") == std::string::npos);
  CHECK(r.out.find("{\"cage\"") == std::string::npos);
}

TEST_CASE("describe: every bundled game describes itself, the same for every seat but the seat's own words", "[describe]") {
  for (const char* name : {"goofspiel", "hai-noon", "hao-hao", "liars-dice", "old-maid", "pass-the-pandas"}) {
    INFO(name);
    const auto def = load_game(name);
    CHECK_FALSE(def->display.empty());
    Match match(def);
    bool pending = match.start(def->default_players, 5);
    for (int step = 0; pending && step < 30; ++step) {
      for (Seat s : Seat::all(def->default_players)) {
        const json view = match.view(s);
        REQUIRE(view.contains("describe"));
        CHECK_FALSE(view["describe"].empty());
      }
      pending = match.answer(0);
    }
  }
}
