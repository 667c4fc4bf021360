// The tutorial in docs/writing-a-game.md is a working game: its code
// blocks are written out and played, validated and tested.
#include <catch2/catch.hpp>

#include <regex>

#include "cli_runner.hpp"

using namespace rulebook::test;

TEST_CASE("docs: the writing-a-game tutorial works as written", "[docs]") {
  const std::string doc = read_text(RULEBOOK_SOURCE_DIR "/docs/writing-a-game.md");
  // The tutorial's files: the first YAML block (game.yaml), the first Lua
  // block (rules.lua) and the first YAML block after it (the scenario);
  // blocks between them are examples of single features.
  std::vector<std::pair<std::string, std::string>> blocks;  // language, text
  const std::regex fence("```(yaml|lua)\\n([\\s\\S]*?)```");
  for (std::sregex_iterator it(doc.begin(), doc.end(), fence), end; it != end; ++it)
    blocks.emplace_back((*it)[1], (*it)[2]);
  REQUIRE(blocks.size() >= 3);
  REQUIRE(blocks[0].first == "yaml");
  size_t lua = 0;
  while (lua < blocks.size() && blocks[lua].first != "lua") ++lua;
  size_t scenario = lua + 1;
  while (scenario < blocks.size() && blocks[scenario].first != "yaml") ++scenario;
  REQUIRE(scenario < blocks.size());
  const std::string dir = temp_folder("tutorial");
  write_file(dir + "/game.yaml", blocks[0].second);
  write_file(dir + "/rules.lua", blocks[lua].second);
  write_file(dir + "/scenarios/first-heads.yaml", blocks[scenario].second);
  auto validate = run_rulebook("validate " + dir);
  INFO(validate.err);
  CHECK(validate.exit_code == 0);
  auto test = run_rulebook("test " + dir);
  INFO(test.out);
  CHECK(test.exit_code == 0);
  auto play = run_rulebook("play " + dir + " --seed 1");
  CHECK(play.exit_code == 0);
  CHECK(play.out.find("Game over: ") != std::string::npos);
}
