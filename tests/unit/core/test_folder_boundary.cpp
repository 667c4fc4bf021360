// A game folder is a boundary (core/folder_boundary.hpp): paths with "..",
// absolute paths and symbolic links are resolved before they are judged.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "core/folder_boundary.hpp"
#include "files.hpp"

using rulebook::inside_folder;
namespace fs = std::filesystem;

TEST_CASE("folder boundary: a path is inside only when, links resolved, it lies in the folder", "[core][security]") {
  const std::string top = rulebook::test::temp_folder("boundary");
  const std::string game = top + "/game";
  rulebook::test::write_file(game + "/rules.lua", "return {}\n");
  rulebook::test::write_file(game + "/lib/util.lua", "return {}\n");
  rulebook::test::write_file(top + "/secret.txt", "secret\n");
  rulebook::test::write_file(top + "/game-other/x.lua", "return {}\n");
  fs::create_symlink(top + "/secret.txt", game + "/secret.lua");
  fs::create_symlink(top, game + "/up");
  fs::create_symlink("rules.lua", game + "/alias.lua");
  fs::create_symlink(game, top + "/game-link");

  CHECK(inside_folder(game, game + "/rules.lua"));
  CHECK(inside_folder(game, game + "/lib/util.lua"));
  CHECK(inside_folder(game, game + "/lib/../rules.lua"));
  CHECK(inside_folder(game, game + "/not-yet-there.lua"));  // a file to be made: judged as written
  CHECK(inside_folder(game, game + "/alias.lua"));           // a link that stays inside
  CHECK(inside_folder(game + "/", game + "/rules.lua"));
  CHECK(inside_folder(top + "/game-link", top + "/game-link/rules.lua"));  // the folder itself may be a link

  CHECK_FALSE(inside_folder(game, game + "/../secret.txt"));
  CHECK_FALSE(inside_folder(game, top + "/secret.txt"));
  CHECK_FALSE(inside_folder(game, "/etc/passwd"));
  CHECK_FALSE(inside_folder(game, game + "/secret.lua"));     // a link out
  CHECK_FALSE(inside_folder(game, game + "/up/secret.txt"));  // through a linked folder
  CHECK_FALSE(inside_folder(game, game + "/up/game-other/x.lua"));
  CHECK_FALSE(inside_folder(game, top + "/game-other/x.lua"));  // a name that only begins like the folder's
  CHECK_FALSE(inside_folder(game, ""));
  CHECK_FALSE(inside_folder("", game + "/rules.lua"));
  fs::remove_all(top);
}
