// `rulebook test --mutate` on a small fixture game and on scenarios played
// by bots (the lexer, parser and operators: tests/unit/mutation/).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "cli_runner.hpp"
#include "inline_game.hpp"

using rulebook::test::rules_lua;
using rulebook::test::run_rulebook;

namespace {

// The status of the mutant at `line` making `change`, in a --json report
// of one game ("absent" when there is none).
std::string mutant_status(const nlohmann::json& report, int line, const std::string& change) {
  for (const auto& m : report.at("mutants"))
    if (m.at("line") == line && m.at("change") == change) return m.at("status").get<std::string>();
  return "absent";
}

}  // namespace

TEST_CASE("cli: test --mutate reports killed, timed out, survived and not covered mutants", "[mutation][cli]") {
  const std::string fixture = std::string(RULEBOOK_TESTS_DIR) + "/fixtures/mutation-game";
  auto r = run_rulebook("test --mutate --json --jobs 2 --max-instructions 1000000 " + fixture);
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(r.out).at("games").at(0);
  auto find = [&](int line, const std::string& change) { return mutant_status(report, line, change); };
  CHECK(find(12, "`==` -> `~=`") == "killed");
  CHECK(find(12, "2 -> 1") == "survived");  // 4 % 1 == 4 % 2: nothing tells them apart
  CHECK(find(15, "1 -> 2") == "not covered");
  CHECK(find(20, "1 -> 0") == "not covered");
  CHECK(find(27, "deleted `count = count - 1`") == "timed out");
  CHECK(find(29, "deleted `game:say(\"counted down from %d\", 3)`") == "survived");
  CHECK(report.at("total") == 36);
  CHECK(report.at("killed").get<int>() + report.at("timed_out").get<int>() + report.at("survived").get<int>() +
            report.at("not_covered").get<int>() == 36);
  CHECK(report.at("timed_out") == 2);
  CHECK(report.at("not_covered") == 4);
  // Failures name the game's own files, not the temporary copies.
  for (const auto& m : report.at("mutants"))
    if (m.contains("failure")) CHECK(m.at("failure").get<std::string>().find("rulebook-mutate-") == std::string::npos);
  // The text report, and --min-score.
  auto text = run_rulebook("test --mutate --max-instructions 1000000 --min-score 90 " + fixture);
  CHECK(text.exit_code == 1);
  CHECK(text.out.find("SURVIVED    tests/fixtures/mutation-game/rules.lua:12: 2 -> 1") != std::string::npos);
  CHECK(text.out.find("NOT COVERED tests/fixtures/mutation-game/rules.lua:20:") != std::string::npos);
  CHECK(text.out.find("mutation score: 50.0% (18 of 36)") != std::string::npos);
  CHECK(run_rulebook("test --jobs 2 " + fixture).exit_code == 2);  // --jobs only with --mutate
}

TEST_CASE("cli: test --mutate runs scenarios whose default agent is a search bot or greedy", "[mutation][cli][search]") {
  // Seat 0's choice decides the game; the bots take the prize, and a
  // mutant that gives the game to the other seat whatever the choice is
  // noticed. (Before, --mutate refused these scenarios: it did not pass
  // the bots layer's build_agent to them.)
  const rulebook::test::TempGame game(rulebook::test::one_die_game_yaml("prize", "Prize"),
                                      rules_lua("  game:begin_turn(0)\n"
                                                "  local pick = game:choose(0, 'Take', {'nothing', 'the prize'})\n"
                                                "  game:finish{winners = {pick == 'the prize' and 0 or 1}}"));
  for (const std::string kind : {"ismcts:iterations=20", "mcts:iterations=20", "greedy"}) {
    INFO(kind);
    game.write("scenarios/bot.yaml", "name: The bot takes the prize\nplayers: 2\nnames: [Ann, Bob]\n"
                                     "default_agent: " + kind + "\nexpect:\n  winners: [Ann]\n");
    const auto r = run_rulebook("test --mutate --json " + game.dir());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out).at("games").at(0);
    auto status = [&](int line, const std::string& change) { return mutant_status(report, line, change); };
    CHECK(status(6, "0 -> 1") == "killed");  // Bob wins whatever the bot takes
    // The bots search the mutated rules too: when the mutant makes
    // "nothing" the winning option, they take it, and Ann still wins.
    CHECK(status(6, "`==` -> `~=`") == "survived");
  }
}
