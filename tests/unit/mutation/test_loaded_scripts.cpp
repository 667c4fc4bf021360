// `test --mutate` mutates only the scripts the game and its variants load
// (issue 40): the rules, the modules they `require` (at load or during a
// game), the variants' scripts; never a Lua file the game never opens.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <string>
#include <vector>

#include "mutation/mutation_run.hpp"

using namespace rulebook;
using rulebook::test::TempGame;

TEST_CASE("mutation: only the scripts the game and its variants load are mutated", "[mutation][scripts]") {
  const TempGame game(
      rulebook::test::one_die_game_yaml("loaded", "Loaded"),
      // helper is required when the rules load, lib.late only during a game.
      "local helper = require('helper')\nlocal rules = {}\nfunction rules.setup(game) end\n"
      "function rules.play(game)\n  local late = require('lib.late')\n"
      "  game:finish{winners = {helper.first(late.zero())}}\nend\nreturn rules\n",
      {{"helper.lua", "return {first = function(x) return x + 0 end}\n"},
       {"lib/late.lua", "return {zero = function() return 0 end}\n"},
       {"tools/notes.lua", "-- never loaded\nreturn 1 + 1\n"},
       {"variants/other.yaml", "name: other\ntitle: Other\nsource: a test\nscript: other.lua\n"},
       {"variants/other.lua", "local rules = ...\nrules.extra = function() return 2 * 3 end\n"},
       {"scenarios/win.yaml", "name: win\nexpect:\n  winners: [0]\n"}});
  mutation::MutationOptions options;
  options.limits = EngineLimits{1'000'000, 64u * 1024 * 1024};
  const auto report = mutation::run_mutation_test(game.dir(), {game.dir() + "/scenarios/win.yaml"}, options);
  CHECK(report.scripts == std::vector<std::string>{"helper.lua", "lib/late.lua", "rules.lua", "variants/other.lua"});
  for (const auto& m : report.mutants) CHECK(m.mutant.file != "tools/notes.lua");
  // The variant no scenario plays is mutated all the same: not covered.
  bool variant_mutant = false;
  for (const auto& m : report.mutants)
    if (m.mutant.file == "variants/other.lua") {
      variant_mutant = true;
      CHECK(m.status == mutation::MutantStatus::NotCovered);
    }
  CHECK(variant_mutant);
}
