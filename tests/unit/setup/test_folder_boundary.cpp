// A game folder is a boundary for what game.yaml and variants name: a
// script outside it ("../x.lua", or a symbolic link out) is refused at the
// YAML key that names it, before any Lua runs.
#include <filesystem>

#include <catch2/catch.hpp>

#include "files.hpp"
#include "inline_game.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

using namespace rulebook;
namespace fs = std::filesystem;

namespace {

std::string load_error(const std::string& dir, const LoadOptions& options = {}) {
  try {
    load_game(dir, options);
  } catch (const SetupError& e) {
    return e.what();
  }
  FAIL("the game loaded: " << dir);
  return "";
}

}  // namespace

TEST_CASE("game folder boundary: game.yaml's script stays inside the folder", "[setup][security]") {
  const std::string top = test::temp_folder("boundary");
  const std::string game = top + "/game";
  const std::string yaml = test::one_die_game_yaml("duel", "Duel");
  test::write_file(top + "/x.lua", "return {}\n");
  test::write_file(top + "/other/rules.lua", "return {}\n");
  test::write_file(game + "/rules.lua", test::rules_lua("game:finish{}"));

  auto with_script = [&](const std::string& script) {
    std::string text = yaml;
    text.replace(text.find("script: rules.lua"), 17, "script: " + script);
    test::write_file(game + "/game.yaml", text);
  };
  with_script("../x.lua");
  std::string message = load_error(game);
  INFO(message);
  CHECK(message.find("game.yaml:3:9: error: script '../x.lua' is outside the game folder") != std::string::npos);
  with_script("../other/rules.lua");
  CHECK(load_error(game).find("script '../other/rules.lua' is outside the game folder") != std::string::npos);
  // A link out of the folder is outside too.
  fs::create_symlink(top + "/x.lua", game + "/linked.lua");
  with_script("linked.lua");
  CHECK(load_error(game).find("game.yaml:3:9: error: script 'linked.lua' is outside the game folder") != std::string::npos);
  // A variant or --set naming it is refused the same way.
  with_script("rules.lua");
  CHECK(load_game(game)->script == "rules.lua");
  CHECK(load_error(game, LoadOptions{{}, {"script=../x.lua"}}).find("--set:1:8: error: script '../x.lua' is outside the game folder") !=
        std::string::npos);
  test::write_file(game + "/variants/escape.yaml",
                   "name: escape\ntitle: Escape\nsource: test\noverlay:\n  script: ../x.lua\n");
  CHECK(load_error(game, LoadOptions{{"escape"}, {}}).find("variants/escape.yaml:5:11: error: script '../x.lua' is outside") !=
        std::string::npos);
  fs::remove_all(top);
}

TEST_CASE("game folder boundary: a variant's script and file stay inside the folder", "[setup][security]") {
  const std::string top = test::temp_folder("boundary");
  const std::string game = top + "/game";
  test::write_file(game + "/game.yaml", test::one_die_game_yaml("duel", "Duel"));
  test::write_file(game + "/rules.lua", test::rules_lua("game:finish{}"));
  test::write_file(top + "/x.lua", "return {}\n");
  test::write_file(game + "/variants/climb.yaml", "name: climb\ntitle: Climb\nsource: test\nscript: ../../x.lua\n");
  std::string message = load_error(game, LoadOptions{{"climb"}, {}});
  INFO(message);
  CHECK(message.find("variants/climb.yaml:4:9: error: variant script '../../x.lua' is outside the game folder") !=
        std::string::npos);
  CHECK_THROWS_AS(list_variants(game), SetupError);

  // A variant file that is a link out of the folder is refused.
  fs::remove(game + "/variants/climb.yaml");
  test::write_file(top + "/elsewhere.yaml", "name: elsewhere\ntitle: Elsewhere\nsource: test\n");
  fs::create_symlink(top + "/elsewhere.yaml", game + "/variants/elsewhere.yaml");
  message = load_error(game, LoadOptions{{"elsewhere"}, {}});
  CHECK(message.find("a symbolic link out of the game folder") != std::string::npos);

  // game.yaml itself a link out: refused.
  const std::string linked = top + "/linked";
  fs::create_directories(linked);
  test::write_file(linked + "/rules.lua", test::rules_lua("game:finish{}"));
  fs::create_symlink(game + "/game.yaml", linked + "/game.yaml");
  CHECK(load_error(linked).find("game.yaml: error: a symbolic link out of the game folder") != std::string::npos);
  fs::remove_all(top);
}
