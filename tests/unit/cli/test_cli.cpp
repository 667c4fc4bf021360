// The rulebook binary, run for real: commands, exit codes, messages.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"
#include "inline_game.hpp"

using rulebook::test::read_text;
using rulebook::test::rules_lua;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {

const char* const kTinyGame = R"(name: tiny
title: Tiny
players: {min: 2, max: 3, default: 2}
script: rules.lua
zones:
  - {name: pool, per_player: true}
components:
  - {name: coin, kind: die, faces: [heads, tails], count: 4}
)";

std::string tiny_game(const std::string& lua, const std::string& yaml = kTinyGame) {
  const std::string dir = temp_folder("game");
  write_file(dir + "/game.yaml", yaml);
  write_file(dir + "/rules.lua", lua);
  return dir;
}

}  // namespace

TEST_CASE("cli: --help and usage errors", "[cli]") {
  auto help = run_rulebook("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("simulate") != std::string::npos);
  for (const char* cmd : {"play --help", "simulate --help", "replay --help", "test --help", "validate --help", "info --help", "list --help"})
    CHECK(run_rulebook(cmd).exit_code == 0);
  CHECK(run_rulebook("").exit_code == 2);
  CHECK(run_rulebook("frobnicate").exit_code == 2);
  CHECK(run_rulebook("play").exit_code == 2);
  CHECK(run_rulebook("simulate pass-the-pandas --games x").exit_code == 2);
}

TEST_CASE("cli: list and info", "[cli]") {
  auto list = run_rulebook("list");
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find("pass-the-pandas") != std::string::npos);
  auto json = run_rulebook("list --json");
  REQUIRE(json.exit_code == 0);
  CHECK(nlohmann::json::parse(json.out).is_array());
  auto info = run_rulebook("info pass-the-pandas");
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("bamboozled") != std::string::npos);
  CHECK(info.out.find("panda-monium") != std::string::npos);
  CHECK(info.out.find("dice_per_player") != std::string::npos);
  auto info_json = nlohmann::json::parse(run_rulebook("info pass-the-pandas --json").out);
  CHECK(info_json["players"]["min"] == 2);
  CHECK(info_json["players"]["max"] == 5);
  auto missing = run_rulebook("info no-such-game");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no such game") != std::string::npos);
}

TEST_CASE("cli: play narrates, is deterministic per seed, and writes a replayable log", "[cli]") {
  auto a = run_rulebook("play pass-the-pandas --players 4 --seed 11");
  REQUIRE(a.exit_code == 0);
  CHECK(a.out.find("Pass the Pandas for 4 players") != std::string::npos);
  CHECK(a.out.find("Game over:") != std::string::npos);
  CHECK(a.out.find("\033[") == std::string::npos);  // NO_COLOR and not a terminal
  auto b = run_rulebook("play pass-the-pandas --players 4 --seed 11");
  CHECK(a.out == b.out);
  auto c = run_rulebook("play pass-the-pandas --players 4 --seed 12");
  CHECK(a.out != c.out);

  const std::string dir = temp_folder("log");
  REQUIRE(run_rulebook("play pass-the-pandas --seed 5 --log " + dir + "/one.json").exit_code == 0);
  REQUIRE(run_rulebook("play pass-the-pandas --seed 5 --log " + dir + "/two.json").exit_code == 0);
  const std::string log = read_text(dir + "/one.json");
  CHECK(log == read_text(dir + "/two.json"));  // byte-identical
  auto replay = run_rulebook("replay " + dir + "/one.json");
  CHECK(replay.exit_code == 0);
  CHECK(replay.out.find("replay OK") != std::string::npos);
  CHECK(run_rulebook("validate " + dir + "/one.json").exit_code == 0);

  // A tampered log fails to replay, naming the event.
  auto doc = nlohmann::json::parse(log);
  auto& events = doc["events"];
  for (auto& e : events)
    if (e["type"] == "roll") {
      e["face"] = e["face"] == "panda" ? "water" : "panda";
      break;
    }
  write_file(dir + "/tampered.json", doc.dump());
  auto bad = run_rulebook("replay " + dir + "/tampered.json");
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("differs") != std::string::npos);
  write_file(dir + "/garbage.json", "{not json");
  CHECK(run_rulebook("replay " + dir + "/garbage.json").exit_code == 2);
}

TEST_CASE("cli: play --json prints one JSON object per line", "[cli]") {
  auto r = run_rulebook("play pass-the-pandas --seed 3 --json");
  REQUIRE(r.exit_code == 0);
  std::istringstream lines(r.out);
  std::string line, last;
  int n = 0;
  while (std::getline(lines, line)) {
    CHECK_NOTHROW(nlohmann::json::parse(line));
    last = line;
    ++n;
  }
  CHECK(n > 10);
  auto result = nlohmann::json::parse(last);
  CHECK(result["type"] == "result");
  CHECK(result["finished"] == true);
  CHECK(result["winners"].size() >= 1);
}

TEST_CASE("cli: scripted and human agents", "[cli]") {
  const std::string dir = temp_folder("answers");
  write_file(dir + "/answers.txt", "# John passes every panda to seat 3\nAllison\nAllison\nAllison\nAllison\n");
  auto human = run_rulebook("play pass-the-pandas --seed 3 --agent 0=human", std::string(200, '\n') + "1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n");
  CHECK(human.out.find("Pass a panda die to") != std::string::npos);
  CHECK(human.out.find("1) ") != std::string::npos);
  auto eof = run_rulebook("play pass-the-pandas --seed 3 --agent all=human", "");
  CHECK(eof.exit_code == 1);
  CHECK(eof.err.find("no more input") != std::string::npos);
  auto bad_kind = run_rulebook("play pass-the-pandas --agent 0=genius");
  CHECK(bad_kind.exit_code == 2);
  auto bad_seat = run_rulebook("play pass-the-pandas --agent 9=random");
  CHECK(bad_seat.exit_code == 2);
  auto missing = run_rulebook("play pass-the-pandas --agent 0=scripted:" + dir + "/nope.txt");
  CHECK(missing.exit_code == 2);
  write_file(dir + "/wrong.txt", "Nobody\n");
  auto wrong = run_rulebook("play pass-the-pandas --seed 3 --agent all=scripted:" + dir + "/wrong.txt");
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.err.find("'Nobody' is not among the options") != std::string::npos);
}

TEST_CASE("cli: simulate reports statistics independent of the job split", "[cli]") {
  auto one = run_rulebook("simulate pass-the-pandas --players 4 --games 300 --seed 9 --json");
  REQUIRE(one.exit_code == 0);
  auto a = nlohmann::json::parse(one.out);
  for (const char* key : {"games", "seconds", "games_per_second", "mean_turns", "win_rate_by_seat"})
    CHECK(a.contains(key));
  CHECK(a["games"] == 300);
  CHECK(a["win_rate_by_seat"].size() == 4);
  double total = 0;
  for (auto& w : a["win_rate_by_seat"]) total += w.get<double>();
  CHECK(total == Approx(1.0));
  auto b = nlohmann::json::parse(run_rulebook("simulate pass-the-pandas --players 4 --games 300 --seed 9 --json --jobs 2").out);
  CHECK(a["mean_turns"] == b["mean_turns"]);
  CHECK(a["win_rate_by_seat"] == b["win_rate_by_seat"]);
  auto text = run_rulebook("simulate pass-the-pandas --games 50 --variant panda-monium");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("win rate by seat") != std::string::npos);
}

TEST_CASE("cli: validation errors are file:line:col and exit 2", "[cli]") {
  CHECK(run_rulebook("validate rules/pass-the-pandas").exit_code == 0);
  const std::string dir = tiny_game("return {setup = function() end, play = function(game) game:finish{} end}",
                                    std::string(kTinyGame) + "colour: red\n");
  auto r = run_rulebook("validate " + dir);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("game.yaml:9:9: error: unknown key 'colour'") != std::string::npos);
  auto play = run_rulebook("play " + dir);
  CHECK(play.exit_code == 2);

  auto unknown_variant = run_rulebook("play pass-the-pandas --variant nope");
  CHECK(unknown_variant.exit_code == 2);
  CHECK(unknown_variant.err.find("no variant 'nope'") != std::string::npos);
  auto bad_set = run_rulebook("play pass-the-pandas --set options.points_target=-3");
  CHECK(bad_set.exit_code == 2);
  CHECK(bad_set.err.find("--set:1:") != std::string::npos);
  auto bad_type = run_rulebook("play pass-the-pandas --set options.play_for_places=maybe");
  CHECK(bad_type.exit_code == 2);
  auto conflict = run_rulebook("play pass-the-pandas --set options.points_target=3 --set options.points_target=4");
  CHECK(conflict.exit_code == 2);
  CHECK(conflict.err.find("conflicting overrides") != std::string::npos);
  auto semantic = run_rulebook("play pass-the-pandas --set components.0.zone=dice");
  CHECK(semantic.exit_code == 2);
  CHECK(semantic.err.find("--set:1:19: error: component 'panda_die': starts in 'dice'") != std::string::npos);
  auto dangling = run_rulebook("play pass-the-pandas --set 'zones=~'");
  CHECK(dangling.exit_code == 2);
  CHECK(dangling.err.find("game.yaml:61:11: error: component 'panda_die': unknown zone 'supply'") != std::string::npos);
  auto players = run_rulebook("play pass-the-pandas --players 7");
  CHECK(players.exit_code == 2);
  auto syntax = tiny_game("return {}", "name: tiny\ntitle: [unclosed\n");
  auto yaml = run_rulebook("validate " + syntax);
  CHECK(yaml.exit_code == 2);
  CHECK(yaml.err.find("game.yaml:") != std::string::npos);
}

TEST_CASE("cli: a script error names file and line, exits 1", "[cli]") {
  const std::string dir = tiny_game(rules_lua(
      "  local x = nil\n"
      "  return x.field"));
  auto r = run_rulebook("play " + dir + " --seed 1");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("rules.lua:5:") != std::string::npos);
  CHECK(r.err.find("stack traceback") != std::string::npos);
  auto v = run_rulebook("validate " + dir);
  CHECK(v.exit_code == 0);  // it loads; it fails only when played
  const std::string broken = tiny_game("local rules = {\n");
  auto syntax = run_rulebook("validate " + broken);
  CHECK(syntax.exit_code == 2);
  CHECK(syntax.err.find("rules.lua:") != std::string::npos);
}

TEST_CASE("cli: a game folder outside rules/ plays", "[cli]") {
  const std::string dir = tiny_game(rules_lua(
      "  game:begin_turn(0)\n"
      "  local seat = game:choose(0, 'Who wins?', {0, 1}, 'seat')\n"
      "  game:finish{winners = {seat}}"));
  auto r = run_rulebook("play " + dir + " --seed 1 --agent 0=first --name Ann --name Bob");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Ann chooses: Ann") != std::string::npos);
  CHECK(r.out.find("Game over: Ann wins") != std::string::npos);
}

TEST_CASE("cli: test runs scenarios and fails clearly", "[cli]") {
  auto ok = run_rulebook("test rules/pass-the-pandas");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find(" passed, 0 failed") != std::string::npos);
  const std::string dir = temp_folder("scenario");
  write_file(dir + "/wrong.yaml",
             "name: wrong on purpose\n"
             "game: pass-the-pandas\n"
             "players: 2\n"
             "names: [John, Susan]\n"
             "set: [\"options.dice_per_player.2=1\"]\n"
             "rolls: [[bamboo], [water]]\n"
             "expect:\n"
             "  winners: [Susan]\n");
  auto fail = run_rulebook("test " + dir + "/wrong.yaml");
  CHECK(fail.exit_code == 1);
  CHECK(fail.out.find("FAIL wrong on purpose") != std::string::npos);
  CHECK(fail.out.find("winners: expected [Susan], got [John]") != std::string::npos);
  write_file(dir + "/invalid.yaml", "name: x\nexpect: {winnners: [John]}\n");
  auto invalid = run_rulebook("test " + dir + "/invalid.yaml");
  CHECK(invalid.exit_code == 2);
  CHECK(invalid.err.find("invalid.yaml:2:20: error: unknown key 'winnners'") != std::string::npos);
}

TEST_CASE("cli: --version prints the version and the Lua version", "[cli]") {
  auto r = run_rulebook("--version");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("rulebook 0.") == 0);
  CHECK(r.out.find("Lua 5.4") != std::string::npos);
}

TEST_CASE("cli: new scaffolds a game that validates, plays and passes its scenario", "[cli]") {
  const std::string dir = temp_folder("new") + "/my-game";
  auto made = run_rulebook("new " + dir);
  REQUIRE(made.exit_code == 0);
  for (const char* f : {"/game.yaml", "/rules.lua", "/README.md", "/.luarc.json"}) CHECK(std::filesystem::exists(dir + f));
  CHECK(std::filesystem::is_directory(dir + "/variants"));
  CHECK(std::filesystem::is_empty(dir + "/variants"));
  const std::string yaml = read_text(dir + "/game.yaml");
  CHECK(yaml.rfind("# yaml-language-server: $schema=", 0) == 0);
  CHECK(yaml.find("/game.schema.json\n") != std::string::npos);
  CHECK(yaml.find("name: my-game\n") != std::string::npos);
  const auto luarc = nlohmann::json::parse(read_text(dir + "/.luarc.json"));
  const std::string library = luarc.at("workspace.library").at(0);
  CHECK(std::filesystem::exists(library + "/rulebook.lua"));
  const std::string readme = read_text(dir + "/README.md");
  for (const char* section : {"## Rules in brief", "## Components", "## Interpretations", "## Scenarios"})
    CHECK(readme.find(section) != std::string::npos);

  CHECK(run_rulebook("validate " + dir).exit_code == 0);
  auto tested = run_rulebook("test " + dir);
  CHECK(tested.exit_code == 0);
  CHECK(tested.out.find("1 passed, 0 failed") != std::string::npos);
  auto played = run_rulebook("play " + dir + " --seed 3");
  CHECK(played.exit_code == 0);
  CHECK(played.out.find("wins") != std::string::npos);

  // A variant file, with a script, that applies at once.
  auto variant = run_rulebook("new-variant " + dir + " long-race --script");
  CHECK(variant.exit_code == 0);
  CHECK(read_text(dir + "/variants/long-race.yaml").rfind("# yaml-language-server: $schema=", 0) == 0);
  CHECK(std::filesystem::exists(dir + "/variants/long-race.lua"));
  CHECK(run_rulebook("validate " + dir).exit_code == 0);
  CHECK(run_rulebook("play " + dir + " --variant long-race --seed 3").exit_code == 0);
  CHECK(run_rulebook("new-variant " + dir + " long-race").exit_code == 2);  // never overwrites

  CHECK(run_rulebook("new " + dir).exit_code == 2);  // exists
  auto bad = run_rulebook("new " + temp_folder("new") + "/Bad_Name");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("lower-case") != std::string::npos);
}

TEST_CASE("cli: new --from copies a bundled game under a new name", "[cli]") {
  const std::string dir = temp_folder("new") + "/my-pandas";
  REQUIRE(run_rulebook("new " + dir + " --from pass-the-pandas").exit_code == 0);
  CHECK(read_text(dir + "/game.yaml").find("\nname: my-pandas\n") != std::string::npos);
  CHECK(std::filesystem::exists(dir + "/.luarc.json"));
  CHECK(std::filesystem::exists(dir + "/variants/bamboozled.yaml"));
  auto tested = run_rulebook("test " + dir);
  CHECK(tested.exit_code == 0);
  CHECK(tested.out.find(" 0 failed") != std::string::npos);
  CHECK(run_rulebook("new " + temp_folder("new") + "/x --from no-such-game").exit_code == 2);
}

TEST_CASE("cli: new --from copies a game's own files, never what a symbolic link points to", "[cli][security]") {
  const std::string top = temp_folder("new");
  const std::string source = top + "/linked";
  REQUIRE(run_rulebook("new " + source).exit_code == 0);
  write_file(top + "/private.txt", "my own secret notes\n");
  std::filesystem::create_symlink(top + "/private.txt", source + "/notes.txt");
  std::filesystem::create_directories(top + "/private-folder");
  write_file(top + "/private-folder/key.txt", "a key\n");
  std::filesystem::create_symlink(top + "/private-folder", source + "/stuff");
  const std::string copy = top + "/copied";
  auto r = run_rulebook("new " + copy + " --from " + source);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(std::filesystem::exists(copy + "/rules.lua"));
  CHECK(std::filesystem::exists(copy + "/scenarios/first-heads-wins.yaml"));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(copy + "/notes.txt")));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(copy + "/stuff")));
  CHECK(r.err.find("notes.txt is not copied: it is a symbolic link") != std::string::npos);
  CHECK(r.err.find("stuff is not copied: it is a symbolic link") != std::string::npos);
  CHECK(run_rulebook("test " + copy).exit_code == 0);
}

TEST_CASE("cli: a misspelt method suggests the closest; the error shows the line with a caret", "[cli]") {
  const std::string dir = tiny_game(rules_lua(
      "  game:finnish{winners = {0}}"));
  auto r = run_rulebook("play " + dir + " --seed 1");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("rules.lua:4: attempt to call a nil value (method 'finnish'); did you mean `finish`?") !=
        std::string::npos);
  CHECK(r.err.find("rules.lua:4:8\n") != std::string::npos);
  CHECK(r.err.find("4 |   game:finnish{winners = {0}}\n  |        ^\n") != std::string::npos);
  CHECK(r.err.find("stack traceback") != std::string::npos);
}

TEST_CASE("cli: an unknown option name in --set suggests the closest", "[cli]") {
  auto r = run_rulebook("play pass-the-pandas --set options.points_targt=3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--set:1:") == 0);
  CHECK(r.err.find("unknown key 'points_targt'") != std::string::npos);
  CHECK(r.err.find("did you mean `points_target`?") != std::string::npos);
}

TEST_CASE("cli: completions and the man page list every command, from the app itself", "[cli]") {
  auto help = run_rulebook("--help");
  auto bash = run_rulebook("completions bash");
  auto zsh = run_rulebook("completions zsh");
  auto man = run_rulebook("manpage");
  REQUIRE(bash.exit_code == 0);
  REQUIRE(zsh.exit_code == 0);
  REQUIRE(man.exit_code == 0);
  CHECK(man.out.find(".TH RULEBOOK 1") != std::string::npos);
  CHECK(bash.out.find("complete -o filenames -F _rulebook rulebook") != std::string::npos);
  CHECK(zsh.out.rfind("#compdef rulebook", 0) == 0);
  // Every command --help lists appears in all three.
  const std::regex command_line(R"(^  ([a-z][a-z-]*) )");
  int commands = 0;
  std::istringstream lines(help.out);
  std::string line;
  bool in_commands = false;
  while (std::getline(lines, line)) {
    if (line.rfind("Subcommands:", 0) == 0) in_commands = true;
    std::smatch m;
    if (!in_commands || !std::regex_search(line, m, command_line)) continue;
    ++commands;
    const std::string name = m[1];
    INFO(name);
    const std::string roff_name = std::regex_replace(name, std::regex("-"), "\\-");
    CHECK(man.out.find(".SS \"rulebook " + roff_name) != std::string::npos);
    CHECK(bash.out.find("    " + name + ")\n") != std::string::npos);
    CHECK(zsh.out.find("'" + name + ":") != std::string::npos);
  }
  CHECK(commands >= 10);
  CHECK(run_rulebook("completions fish").exit_code == 2);
  auto games = run_rulebook("completions --list-games");
  CHECK(games.out.find("hai-noon\n") != std::string::npos);
}

TEST_CASE("cli: misspelt zone names and globals suggest the closest", "[cli]") {
  const std::string zone = tiny_game(rules_lua(
      "  local z = game:zone(\"pooll\", 0)"));
  auto r = run_rulebook("play " + zone + " --seed 1");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("(no zone named 'pooll'; did you mean `pool`?)") != std::string::npos);
  CHECK(r.err.find("4 |   local z = game:zone(\"pooll\", 0)\n  |                  ^\n") != std::string::npos);
  const std::string global = tiny_game(rules_lua(
      "  for _, s in ipars(game:seats()) do end"));
  auto g = run_rulebook("play " + global + " --seed 1");
  CHECK(g.exit_code == 1);
  CHECK(g.err.find("undeclared global 'ipars'; did you mean `ipairs`?") != std::string::npos);
}

TEST_CASE("cli: an unknown key in game.yaml suggests the closest", "[cli]") {
  const std::string dir = tiny_game("return {}\n", std::string(kTinyGame) + "zoens: []\n");
  auto r = run_rulebook("validate " + dir);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown key 'zoens' (allowed: ") != std::string::npos);
  CHECK(r.err.find("did you mean `zones`?") != std::string::npos);
}

TEST_CASE("cli: arena ranks agents with every agent in every seat", "[cli][arena]") {
  const auto text = run_rulebook("arena pass-the-pandas --players 3 --agent random --agent first --games 41 --seed 5");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("42 games (seed 5)"));  // rounded up to a multiple of 2 agents
  CHECK_THAT(text.out, Catch::Contains("win rate (95% CI)"));
  CHECK_THAT(text.out, Catch::Contains("Bradley-Terry"));

  const auto run = [](const std::string& jobs) {
    return run_rulebook("arena hao-hao --players 2 --agent random --agent first --agent random --games 12 --seed 3 --json --jobs " + jobs);
  };
  const auto one = run("1"), two = run("2");
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  const auto j = nlohmann::json::parse(one.out), k = nlohmann::json::parse(two.out);
  CHECK(j.at("games") == 12);
  CHECK(j.at("players") == 2);
  REQUIRE(j.at("agents").size() == 3u);
  int64_t wins = 0;
  for (size_t a = 0; a < 3; ++a) {
    const auto& agent = j.at("agents").at(a);
    CHECK(agent.at("games") == 8);  // 12 games x 2 seats / 3 agents
    CHECK(agent.at("games_by_seat") == nlohmann::json::array({4, 4}));
    const double rate = agent.at("win_rate").at("estimate");
    CHECK(agent.at("win_rate").at("low").get<double>() <= rate);
    CHECK(rate <= agent.at("win_rate").at("high").get<double>());
    CHECK(agent.at("rating").at("low").get<double>() <= agent.at("rating").at("high").get<double>());
    CHECK(agent.at("decisions").get<int64_t>() > 0);
    wins += agent.at("wins").get<int64_t>();
    // The same games whatever the number of jobs.
    const auto& same = k.at("agents").at(a);
    CHECK(same.at("wins") == agent.at("wins"));
    CHECK(same.at("rating") == agent.at("rating"));
  }
  CHECK(wins >= 12);  // every game has a winner (ties count for each)
  CHECK(j.at("agents").at(0).at("agent") == "random");
  CHECK(j.at("rating_model").at("name") == "bradley-terry");
}

TEST_CASE("cli: bad agent specifications are usage errors listing what is allowed", "[cli][arena]") {
  const auto iterations = run_rulebook("arena hai-noon --agent random --agent ismcts:iterations=-3");
  CHECK(iterations.exit_code == 2);
  CHECK_THAT(iterations.err, Catch::Contains("iterations must be a whole number from 1"));
  const auto unknown_key = run_rulebook("simulate hai-noon --games 1 --agent 0=mcts:foo=1");
  CHECK(unknown_key.exit_code == 2);
  CHECK_THAT(unknown_key.err, Catch::Contains("mcts has no parameter 'foo'") && Catch::Contains("rollout=random|greedy"));
  const auto kind = run_rulebook("play hai-noon --agent 1=genius");
  CHECK(kind.exit_code == 2);
  CHECK_THAT(kind.err, Catch::Contains("unknown agent 'genius'") && Catch::Contains("ismcts[:key=value,...]"));
  const auto alone = run_rulebook("arena hai-noon --agent random");
  CHECK(alone.exit_code == 2);
  CHECK_THAT(alone.err, Catch::Contains("at least two agents"));
  const auto human = run_rulebook("arena hai-noon --agent random --agent human");
  CHECK(human.exit_code == 2);
  const auto help = run_rulebook("arena --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("iterations=N") && Catch::Contains("--jobs"));
}

TEST_CASE("cli: arena plays greedy and search bots; greedy beats random at Hai Noon", "[cli][arena][greedy]") {
  const auto r = run_rulebook("arena hai-noon --players 2 --agent greedy --agent random --games 20 --seed 2 --json --jobs 2");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& greedy = j.at("agents").at(0);
  CHECK(greedy.at("agent") == "greedy");
  CHECK(greedy.at("decisions").get<int64_t>() > 0);
  CHECK(greedy.at("mean_decision_seconds").get<double>() > 0);
  // Fixed seeds: the same games every run. Hai Noon's evaluation (danger
  // from bites and facing sharks) lets greedy dodge attacks random walks into.
  CHECK(greedy.at("win_rate").at("low").get<double>() > 0.5);
  CHECK(greedy.at("rating").at("estimate").get<double>() > 0);
  // Search bots reach their game through the arena's timing wrapper.
  const auto search = run_rulebook("arena pass-the-pandas --players 3 --agent ismcts:iterations=10 --agent random --games 4 --json");
  INFO(search.err);
  REQUIRE(search.exit_code == 0);
  CHECK(nlohmann::json::parse(search.out).at("agents").at(0).at("decisions").get<int64_t>() > 0);
}

TEST_CASE("cli: arena --until-interval stops once every interval is narrow enough, whatever --jobs", "[cli][arena]") {
  // greedy against first at Hai Noon is lopsided: an interval of +-20
  // points is reached long before 200 games; +-0.5 points never is.
  const auto run = [](const std::string& extra, int64_t games = 200) {
    return run_rulebook("arena hai-noon --players 2 --agent greedy --agent first --seed 4 --json --games " +
                        std::to_string(games) + " " + extra);
  };
  const auto one = run("--until-interval 20 --jobs 1"), two = run("--until-interval 20 --jobs 2");
  INFO(one.err);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  const auto j = nlohmann::json::parse(one.out), k = nlohmann::json::parse(two.out);
  CHECK(j.at("stopped_early") == true);
  const int64_t games = j.at("games");
  CHECK(games < 200);
  CHECK(games % 2 == 0);
  CHECK(k.at("games") == games);  // decided on the games in order
  for (size_t a = 0; a < 2; ++a) {
    const auto& rate = j.at("agents").at(a).at("win_rate");
    CHECK((rate.at("high").get<double>() - rate.at("low").get<double>()) / 2 <= 0.20 + 1e-9);
    CHECK(k.at("agents").at(a).at("wins") == j.at("agents").at(a).at("wins"));
  }
  // Two games fewer and the interval was still too wide for one of them.
  const auto shorter = run("--until-interval 20", games - 2);
  REQUIRE(shorter.exit_code == 0);
  CHECK(nlohmann::json::parse(shorter.out).at("stopped_early") == false);
  const auto text = run_rulebook("arena hai-noon --players 2 --agent random --agent first --games 4 --until-interval 0.5");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("not stopped early"));
  // Search bots report their iterations per second.
  const auto search = run_rulebook("arena pass-the-pandas --players 3 --agent ismcts:iterations=20 --agent random --games 2 --json");
  REQUIRE(search.exit_code == 0);
  const auto s = nlohmann::json::parse(search.out).at("agents");
  CHECK(s.at(0).at("iterations").get<int64_t>() >= 20);
  CHECK(s.at(0).at("iterations_per_second").get<double>() > 0);
  CHECK(s.at(1).at("iterations") == 0);
}

TEST_CASE("cli: a person plays Hai Noon against ismcts and greedy at the terminal, seeing only their view",
          "[cli][arena][greedy]") {
  // The issue's command, with small searches to keep the suite fast.
  std::string input;
  for (int i = 0; i < 300; ++i) input += "1\n";
  const auto r = run_rulebook("play hai-noon --seed 2 --agent 0=human --agent 1=ismcts:iterations=20 "
                              "--agent 2=ismcts:iterations=20 --agent 3=greedy",
                              input);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("John, it is your decision.") && Catch::Contains("Your view:") &&
                        Catch::Contains("Game over"));
  // John's own hand is listed by card; the others' only counted.
  CHECK_THAT(r.out, Catch::Contains("John's hand: 3 ["));
  for (const std::string other : {"Susan", "Bill", "Allison"}) {
    CHECK_THAT(r.out, Catch::Contains(other + "'s hand: 3\n"));
    CHECK_THAT(r.out, !Catch::Contains(other + "'s hand: 3 [") && !Catch::Contains(other + "'s hand receives"));
  }
}

TEST_CASE("cli: scenarios take search bots and greedy as their default agent, one per seat", "[cli][greedy]") {
  const std::string dir = temp_folder("search-scenarios");
  for (const std::string kind : {"ismcts:iterations=5", "mcts:iterations=5,depth=3", "greedy"}) {
    write_file(dir + "/bots.yaml", "name: Bots finish the game\ngame: hai-noon\nplayers: 2\nseed: 3\n"
                                   "default_agent: " + kind + "\nexpect:\n  finished: true\n");
    const auto r = run_rulebook("test " + dir + "/bots.yaml");
    INFO(kind << ": " << r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("PASS Bots finish the game"));
  }
  // Forced chance: their determinizations could not replay it; said so.
  write_file(dir + "/forced.yaml", "name: Forced\ngame: pass-the-pandas\nplayers: 3\n"
                                   "rolls: [[panda, blank, blank, blank, blank, blank]]\n"
                                   "default_agent: ismcts\nexpect:\n  finished: true\n");
  const auto forced = run_rulebook("test " + dir + "/forced.yaml");
  CHECK(forced.exit_code == 2);
  CHECK_THAT(forced.err, Catch::Contains("forced rolls or shuffles") && Catch::Contains("forced.yaml:5:16: error"));
}

TEST_CASE("cli: validate tells a scenario anywhere by its content, or by --kind", "[cli]") {
  const std::string dir = temp_folder("loose");
  write_file(dir + "/first-heads.yaml",
             "name: First heads\ngame: pass-the-pandas\nplayers: 2\nexpect:\n  finished: true\n");
  auto ok = run_rulebook("validate " + dir + "/first-heads.yaml");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("first-heads.yaml: ok") != std::string::npos);
  write_file(dir + "/typo.yaml", "name: Typo\nexpect:\n  winers: [Ann]\n");
  auto typo = run_rulebook("validate " + dir + "/typo.yaml");
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("typo.yaml:3:11: error: unknown key 'winers'") != std::string::npos);
  // Content that says nothing: the flag says it.
  write_file(dir + "/bare.yaml", "name: Bare\n");
  auto bare = run_rulebook("validate " + dir + "/bare.yaml");
  CHECK(bare.exit_code == 2);
  CHECK(bare.err.find("--kind game|variant|scenario|log") != std::string::npos);
  auto told = run_rulebook("validate --kind scenario " + dir + "/bare.yaml");
  CHECK(told.exit_code == 2);
  CHECK(told.err.find("bare.yaml:1:1: error: missing required key 'expect'") != std::string::npos);
  CHECK(run_rulebook("validate --kind recipe " + dir + "/bare.yaml").exit_code == 2);
  // A variant file outside variants/.
  write_file(dir + "/fast.yaml", "name: fast\ntitle: Fast\nsource: house rule\noverlay: {options: {points_target: 5}}\n");
  CHECK(run_rulebook("validate " + dir + "/fast.yaml").exit_code == 0);
}

TEST_CASE("cli: --narrate brief|normal|full tells a game at three levels", "[cli][narration]") {
  // Hai Noon, seed 1: a forced decision (Bill's only diver to camouflage),
  // "Every shark swims one place clockwise" told by the rules, face changes
  // the rules' messages tell.
  auto normal = run_rulebook("play hai-noon --seed 1");
  auto brief = run_rulebook("play hai-noon --seed 1 --narrate brief");
  auto full = run_rulebook("play hai-noon --seed 1 --narrate full");
  REQUIRE(normal.exit_code == 0);
  REQUIRE(brief.exit_code == 0);
  REQUIRE(full.exit_code == 0);
  CHECK(normal.out == run_rulebook("play hai-noon --seed 1 --narrate normal").out);  // the default
  // The header explains the coordinates once.
  CHECK(normal.out.find("Board: the sea, 4x4: a cell is written (column,row), (1,1) being the top-left corner") !=
        std::string::npos);
  // A single legal option is no choice: what happens is told instead.
  CHECK(normal.out.find("Bill chooses: camouflage the green diver") == std::string::npos);
  CHECK(normal.out.find("The green diver is camouflaged") != std::string::npos);
  // A face change the rules' message tells is told once (full tells both).
  CHECK(normal.out.find("The full shark at (2,4) turns hungry") != std::string::npos);
  CHECK(normal.out.find("shark at the sea (2,4) turns to hungry") == std::string::npos);
  CHECK(full.out.find("shark at the sea (2,4) turns to hungry") != std::string::npos);
  // Full: every shark's move; normal: none (the rules' message tells it).
  CHECK(full.out.find("shark (hungry) moves from the sea (1,1) to the sea (2,1)") != std::string::npos);
  CHECK(normal.out.find("moves from the sea (1,1) to the sea (2,1)") == std::string::npos);
  CHECK(normal.out.size() < full.out.size());
  // Brief: one line a turn.
  CHECK(brief.out.find("-- Round") == std::string::npos);
  CHECK(brief.out.find("Round 1, John: ") != std::string::npos);
  size_t turns = 0;
  for (size_t at = brief.out.find("\nRound "); at != std::string::npos; at = brief.out.find("\nRound ", at + 1)) ++turns;
  CHECK(turns == 16);  // "Turns played: 16"
  CHECK(brief.out.size() < normal.out.size());
  CHECK(run_rulebook("play hai-noon --seed 1 --narrate loud").exit_code == 2);
}

TEST_CASE("cli: yes/no decisions are told with their question; many moves summarised", "[cli][narration]") {
  const std::string dir = tiny_game(rules_lua(
      "  game:begin_turn(0)\n"
      "  local go = game:choose(0, 'Keep hunting?', {false, true})\n"
      "  game:choose(1, 'Only one way', {'the lone option'})\n"
      "  game:finish{winners = {go and 0 or 1}}"));
  auto r = run_rulebook("play " + dir + " --seed 1 --agent all=first --name Lou --name Bob");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Lou answers no to \"Keep hunting?\"") != std::string::npos);
  CHECK(r.out.find("lone option") == std::string::npos);
  auto brief = run_rulebook("play " + dir + " --seed 1 --agent all=first --name Lou --name Bob --narrate brief");
  CHECK(brief.out.find("Round 1, Lou: Keep hunting? no") != std::string::npos);
}

TEST_CASE("cli: replay --narrate tells the replayed game", "[cli][narration]") {
  const std::string dir = temp_folder("narrated-replay");
  REQUIRE(run_rulebook("play pass-the-pandas --seed 5 --log " + dir + "/game.json").exit_code == 0);
  auto quiet = run_rulebook("replay " + dir + "/game.json");
  CHECK(quiet.out.find("-- Round") == std::string::npos);
  auto told = run_rulebook("replay " + dir + "/game.json --narrate brief");
  CHECK(told.exit_code == 0);
  CHECK(told.out.find("Round 1, ") != std::string::npos);
  CHECK(told.out.find("replay OK") != std::string::npos);
  CHECK(run_rulebook("replay " + dir + "/game.json --narrate full --view 9").exit_code == 2);
}

TEST_CASE("cli: a number option given a word or a number out of range says which, in our words", "[cli]") {
  auto word = run_rulebook("simulate pass-the-pandas --games abc");
  CHECK(word.exit_code == 2);
  CHECK(word.err.find("--games: 'abc' is not a number: give one from 1 to") != std::string::npos);
  CHECK(word.err.find("Value abc") == std::string::npos);
  CHECK(word.err.find("Run with --help for more information.") != std::string::npos);
  auto high = run_rulebook("serve pass-the-pandas --port 70000");
  CHECK(high.exit_code == 2);
  CHECK(high.err.find("--port: 70000 is out of range: give a number from 0 to 65535") != std::string::npos);
  auto unknown = run_rulebook("simulate pass-the-pandas --bogus");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--bogus") != std::string::npos);
}
