// `rulebook check` through the real binary: exit codes, the failure's
// report (check, configuration, seed, where, a command reproducing it) and
// --json. The checks themselves are tested in test_conformance.cpp.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "inline_game.hpp"

using rulebook::test::run_rulebook;

TEST_CASE("cli: check passes a sound game and fails a leaky one", "[cli][check]") {
  auto ok = run_rulebook("check pass-the-pandas --games 1 --jobs 2");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("PASS pass-the-pandas  (16 configurations, 16 games)") != std::string::npos);

  const rulebook::test::DefectiveGame game("hai-noon", "leak-public-hand");
  auto leak = run_rulebook("check " + game.dir() + " --games 1");
  CHECK(leak.exit_code == 1);
  CHECK(leak.out.find("FAIL " + game.dir()) != std::string::npos);
  CHECK(leak.out.find("view: " + game.dir() + ", 2 players, variants leak-public-hand, seed 1, seat 0: "
                      "the view of seat 0 shows component") != std::string::npos);
  CHECK(leak.out.find("variants none") == std::string::npos);  // Hai Noon itself passes
  CHECK(leak.out.find("at decision 1 (seat 0: \"Play a card to a side\")") != std::string::npos);
  const std::string reproduce = "rulebook play " + game.dir() + " --players 2 --variant leak-public-hand --seed 1 --view 0";
  CHECK(leak.out.find("reproduce: " + reproduce + "\n") != std::string::npos);

  // The command it prints plays that game.
  auto again = run_rulebook(reproduce.substr(std::string("rulebook ").size()));
  CHECK(again.exit_code == 0);
}

TEST_CASE("cli: check --json prints one object", "[cli][check]") {
  const rulebook::test::DefectiveGame game("hai-noon", "leak-private-decision");
  auto r = run_rulebook("check --json --games 1 " + game.dir() + " pass-the-pandas");
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);  // one object, nothing else
  CHECK(j.at("ok") == false);
  CHECK(j.at("failures").get<int>() >= 1);
  REQUIRE(j.at("games").size() == 2);
  CHECK(j.at("games")[1].at("ok") == true);
  const auto& f = j.at("games")[0].at("failures")[0];
  CHECK(f.at("check") == "worlds");
  for (const char* key : {"game", "players", "variants", "seed", "seat", "where", "message", "reproduce", "reproduce_worlds"})
    CHECK(f.contains(key));
  // Per test, the worlds compared and skipped.
  const auto& tests = j.at("games")[1].at("tests");
  CHECK(tests.at("worlds").at("worlds_compared").get<int>() > 0);
  CHECK(tests.at("worlds").at("worlds_skipped").get<int>() >= 0);
  CHECK(tests.at("bots").at("worlds_compared").get<int>() >= 0);
  CHECK(tests.at("bots").at("worlds_skipped").get<int>() >= 0);
  CHECK(tests.at("bots").at("decisions_compared") == j.at("games")[1].at("bots").at("decisions_compared"));
  CHECK(j.at("games")[0].at("tests").at("worlds").at("ok") == false);
}

TEST_CASE("cli: a leak's two worlds are written, and --world plays one again", "[cli][check]") {
  const std::string dir = rulebook::test::temp_folder("cli-check-worlds");
  auto leak = run_rulebook("check tests/data/leaks/cards --set options.mode=labels --games 1 --bots none --leak-dir " + dir);
  CHECK(leak.exit_code == 1);
  // The failure names the setting, and its `play` command sets it again.
  CHECK(leak.out.find(", set options.mode=labels, seed 1") != std::string::npos);
  CHECK(leak.out.find("reproduce: rulebook play tests/data/leaks/cards --players 2 --set options.mode=labels --seed 1") !=
        std::string::npos);
  const std::string marker = "the other world, as the seat receives it: rulebook check tests/data/leaks/cards --world ";
  const auto at = leak.out.find(marker);
  REQUIRE(at != std::string::npos);
  const std::string file = leak.out.substr(at + marker.size(), leak.out.find('\n', at) - at - marker.size());
  CHECK(file.rfind(dir + "/cards-2p-options_mode_labels-", 0) == 0);
  auto again = run_rulebook("check tests/data/leaks/cards --world " + file);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("you are asked: Play a card | play card 1 (") != std::string::npos);
  CHECK(again.out.find("# * marks a line that reveals") != std::string::npos);
  CHECK(run_rulebook("check tests/data/leaks/cards --world /no/such/file").exit_code == 2);
  const std::string bad = dir + "/bad.json";
  rulebook::test::write_file(bad, "{\"seed\": 1}");
  CHECK(run_rulebook("check tests/data/leaks/cards --world " + bad).exit_code == 2);
}

TEST_CASE("cli: check --set and --variant choose the configurations", "[cli][check]") {
  // The correct twin passes where its leak fails: the setting is applied.
  CHECK(run_rulebook("check tests/data/leaks/cards --set options.mode=labels-fine --games 1 --bots none").exit_code == 0);
  // --variant checks that variant set alone, at every player count (2 to 4):
  // 3 configurations instead of 6 (no variant, and reveal-bids).
  auto all = run_rulebook("check goofspiel --games 1 --bots none --worlds-games 0");
  CHECK(all.out.find("(6 configurations, 6 games)") != std::string::npos);
  auto one = run_rulebook("check goofspiel --variant reveal-bids --games 1 --bots none --worlds-games 0");
  CHECK(one.exit_code == 0);
  CHECK(one.out.find("(3 configurations, 3 games)") != std::string::npos);
  CHECK(run_rulebook("check tests/data/leaks/cards --variant no-such-variant --games 1").exit_code == 2);
  CHECK(run_rulebook("check tests/data/leaks/cards --set no.such.path=1 --games 1").exit_code == 2);
}

TEST_CASE("cli: check usage errors exit 2", "[cli][check]") {
  CHECK(run_rulebook("check").exit_code == 2);
  CHECK(run_rulebook("check --help").exit_code == 0);
  CHECK(run_rulebook("check no-such-game").exit_code == 2);
  CHECK(run_rulebook("check pass-the-pandas --games 0").exit_code == 2);
  CHECK(run_rulebook("check pass-the-pandas --jobs x").exit_code == 2);
  // A listed combination naming no variant is the author's mistake, found before any game.
  const std::string dir = rulebook::test::temp_folder("check-combinations");
  rulebook::test::write_file(dir + "/game.yaml",
                             "name: c\ntitle: C\nplayers: {min: 1, max: 1}\nscript: rules.lua\n"
                             "check: {combinations: [[fast, slow]]}\n");
  rulebook::test::write_file(dir + "/rules.lua", "return {setup = function() end, play = function(g) g:finish{} end}\n");
  auto bad = run_rulebook("check " + dir);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("check.combinations names 'fast'") != std::string::npos);
}

TEST_CASE("cli: check --bots-games and --bots-decisions say how much the bots test compares", "[cli][check]") {
  // Seat 0 decides six times, seat 1 seals a number before seat 0's last:
  // per game, each compared decision of seat 0 in 7 worlds (the number
  // redrawn, six other chance seeds), seat 1's one decision in 6.
  const std::string dir = rulebook::test::temp_folder("check-bots-decisions");
  rulebook::test::write_file(dir + "/game.yaml", "name: late\ntitle: Late\nplayers: {min: 2, max: 2}\nscript: rules.lua\n");
  rulebook::test::write_file(dir + "/rules.lua",
                             "local rules = {}\nfunction rules.setup(game) end\n"
                             "function rules.play(game)\n"
                             "  for step = 1, 5 do game:choose(0, 'Step', {'left', 'right'}) end\n"
                             "  local sealed = game:choose(1, 'Seal', {1, 2, 3}, {private = true})\n"
                             "  local named = game:choose(0, 'Name it', {1, 2, 3})\n"
                             "  game:finish{winners = {named == sealed and 0 or 1}}\nend\nreturn rules\n");
  auto compared = [&](const std::string& options) {
    auto r = run_rulebook("check " + dir + " --games 4 --json " + options);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out).at("games")[0].at("bots").at("decisions_compared").get<int>();
  };
  CHECK(compared("") == 3 * (4 * 7 + 6));  // the first 3 games, 4 decisions of each seat
  CHECK(compared("--bots-games 1 --bots-decisions 1") == 7 + 6);
  CHECK(compared("--bots-games 4 --bots-decisions 6") == 4 * (6 * 7 + 6));
  CHECK(run_rulebook("check " + dir + " --bots-decisions 0").exit_code == 2);
  CHECK(run_rulebook("check " + dir + " --bots-games 0").exit_code == 2);
}

TEST_CASE("cli: check prints the variants it leaves out, and --json lists them", "[cli][check][skip]") {
  const rulebook::test::DefectiveGame game("hai-noon", "leak-public-hand");
  game.write("variants/leak-public-hand.yaml",
             "name: leak-public-hand\ntitle: A leak\nsource: a test\nscript: leak_public_hand.lua\n"
             "check: {skip: shows every hand on purpose}\n");
  auto text = run_rulebook("check " + game.dir() + " --games 1");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("  skipped: variant leak-public-hand (its check.skip: shows every hand on purpose)\n") !=
        std::string::npos);
  auto json = run_rulebook("check --json --games 1 " + game.dir());
  CHECK(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j.at("games")[0].at("skipped_variants") ==
        nlohmann::json::parse(R"([{"variant": "leak-public-hand", "reason": "shows every hand on purpose"}])"));
}
