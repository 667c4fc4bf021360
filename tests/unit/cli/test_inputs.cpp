// Hostile and mistaken inputs, through the real binary: every one ends with
// exit 1 or 2 and a sentence naming the file (and line where there is one),
// never a crash, a hang or a library's exception text.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

#include "cli_runner.hpp"

using nlohmann::json;
using rulebook::test::CommandResult;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// No raw nlohmann / yaml-cpp / std::filesystem text reaches the user.
void check_no_library_text(const CommandResult& r) {
  INFO(r.err);
  CHECK_FALSE(has(r.err, "[json.exception"));
  CHECK_FALSE(has(r.err, "filesystem error"));
  CHECK_FALSE(has(r.err, "bad file"));
  CHECK_FALSE(has(r.err, "yaml-cpp"));
}

// A game with decisions, played once with a log; each tamper test edits a
// copy of it.
const json& original_log() {
  static const json log = [] {
    const std::string dir = temp_folder("tamper");
    auto r = run_rulebook("play hao-hao --players 2 --seed 5 --log " + dir + "/log.json");
    REQUIRE(r.exit_code == 0);
    json parsed = json::parse(read_text(dir + "/log.json"));
    REQUIRE(parsed.at("answers").size() >= 2);
    return parsed;
  }();
  return log;
}

CommandResult replay_tampered(const std::function<void(json&)>& tamper) {
  json log = original_log();
  tamper(log);
  const std::string file = temp_folder("tampered") + "/log.json";
  write_file(file, log.dump());
  return run_rulebook("replay " + file);
}

void check_fails(const CommandResult& r, const std::string& difference) {
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(has(r.err, "replay failed"));
  CHECK(has(r.err, difference));
  check_no_library_text(r);
}

const std::string k2to32 = "4294967296";

}  // namespace

TEST_CASE("inputs: the untampered log replays", "[inputs][replay]") {
  auto r = replay_tampered([](json&) {});
  CHECK(r.exit_code == 0);
}

TEST_CASE("inputs: tamper, an answer's seat plus 2^32", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"][0][0] = log["answers"][0][0].get<int64_t>() + (int64_t{1} << 32); });
  check_fails(r, "answer 1 is given by seat " + k2to32);
}

TEST_CASE("inputs: tamper, an answer's index plus 2^32", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"][1][1] = log["answers"][1][1].get<int64_t>() + (int64_t{1} << 32); });
  check_fails(r, "answer 2 picks option");
}

TEST_CASE("inputs: tamper, an answer given by the other seat", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"][0][0] = 1 - log["answers"][0][0].get<int>(); });
  check_fails(r, "log answer 1 was given by seat");
}

TEST_CASE("inputs: tamper, an answer's index changed", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"][0][1] = 999; });
  check_fails(r, "log answer 1 picks option 1000");
}

TEST_CASE("inputs: tamper, an answer removed", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"].erase(log["answers"].size() - 1); });
  check_fails(r, "no answer left");
}

TEST_CASE("inputs: tamper, an answer added", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["answers"].push_back(json::array({0, 0})); });
  check_fails(r, "the replay used");
}

TEST_CASE("inputs: an agent kind is a record of who answered, not a check", "[inputs][replay]") {
  // The answers replay whoever gave them (a bot this build lacks included).
  auto r = replay_tampered([](json& log) { log["agents"][1] = "robot:depth=3"; });
  INFO(r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("inputs: the logs of search bots replay", "[inputs][replay]") {
  const std::string dir = temp_folder("bot-logs");
  for (const std::string kind : {"greedy", "mcts:iterations=20", "ismcts:iterations=20"}) {
    INFO(kind);
    const std::string file = dir + "/" + kind.substr(0, kind.find(':')) + ".json";
    const auto played = run_rulebook("play liars-dice --seed 3 --agent 1=" + kind + " --log " + file);
    REQUIRE(played.exit_code == 0);
    CHECK(json::parse(read_text(file)).at("agents").at(1) == kind);
    const auto replayed = run_rulebook("replay " + file);
    INFO(replayed.err);
    CHECK(replayed.exit_code == 0);
    CHECK(has(replayed.out, "replay OK"));
  }
}

TEST_CASE("inputs: tamper, a simultaneous decision's number", "[inputs][replay]") {
  const std::string file = temp_folder("together") + "/log.json";
  REQUIRE(run_rulebook("play goofspiel --seed 3 --log " + file).exit_code == 0);
  json log = json::parse(read_text(file));
  REQUIRE(log.at("answers").at(2).size() == 3);
  log["answers"][2][2] = 9;
  write_file(file, log.dump());
  check_fails(run_rulebook("replay " + file), "answer 3 differs");
}

TEST_CASE("inputs: tamper, an agent more than seats", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["agents"].push_back("random"); });
  check_fails(r, "agents: the log lists 3 agents for 2 players");
}

TEST_CASE("inputs: tamper, game_name", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["game_name"] = "chess"; });
  check_fails(r, "game_name differs");
}

TEST_CASE("inputs: tamper, an extra name", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["names"].push_back("Mallory"); });
  check_fails(r, "names differ");
}

TEST_CASE("inputs: tamper, a renamed player", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["names"][0] = "Mallory"; });
  check_fails(r, "differs:");
}

TEST_CASE("inputs: tamper, the seed", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["seed"] = log["seed"].get<uint64_t>() + 1; });
  check_fails(r, "replay failed: ");
}

TEST_CASE("inputs: tamper, an event", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["events"][2]["tampered"] = true; });
  check_fails(r, "event 3 differs");
}

TEST_CASE("inputs: tamper, an event removed", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["events"].erase(log["events"].size() - 1); });
  check_fails(r, "the log has");
}

TEST_CASE("inputs: tamper, the result", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["result"]["turns"] = log["result"]["turns"].get<int>() + 1; });
  check_fails(r, "the result differs");
}

TEST_CASE("inputs: tamper, the player count", "[inputs][replay]") {
  auto r = replay_tampered([](json& log) { log["players"] = 3; });
  check_fails(r, "agents: the log lists 2 agents for 3 players");
}

TEST_CASE("inputs: a log without result still checks everything else", "[inputs][replay]") {
  auto ok = replay_tampered([](json& log) { log.erase("result"); });
  CHECK(ok.exit_code == 0);
  check_no_library_text(ok);
  auto bad = replay_tampered([](json& log) {
    log.erase("result");
    log["events"][1]["tampered"] = 1;
  });
  check_fails(bad, "event 2 differs");
}

TEST_CASE("inputs: numbers no C++ type holds are validation errors, not casts", "[inputs][replay]") {
  const std::string dir = temp_folder("numbers");
  std::string text = original_log().dump();
  const auto seed_at = text.find("\"seed\":");
  REQUIRE(seed_at != std::string::npos);
  std::string huge = text;
  huge.replace(seed_at, text.find(',', seed_at) - seed_at, "\"seed\":1e30");
  write_file(dir + "/huge.json", huge);
  auto r = run_rulebook("replay " + dir + "/huge.json");
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, dir + "/huge.json"));
  CHECK(has(r.err, "above the maximum 18446744073709551615"));
  check_no_library_text(r);

  std::string overflow = text;
  overflow.replace(seed_at, text.find(',', seed_at) - seed_at, "\"seed\":1e400");
  write_file(dir + "/overflow.json", overflow);
  r = run_rulebook("replay " + dir + "/overflow.json");
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, dir + "/overflow.json: error: not valid JSON"));
  check_no_library_text(r);
}

TEST_CASE("inputs: a deeply nested replay log is refused, not a stack overflow", "[inputs][replay]") {
  const std::string dir = temp_folder("deep");
  json log = original_log();
  log["events"][0]["deep"] = "@";
  std::string text = log.dump();
  text.replace(text.find("\"@\""), 3, std::string(100000, '[') + std::string(100000, ']'));
  write_file(dir + "/deep.json", text);
  auto r = run_rulebook("replay " + dir + "/deep.json");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, dir + "/deep.json:1:"));
  CHECK(has(r.err, "nesting deeper than 100 levels"));
}

TEST_CASE("inputs: out-of-range numbers on the command line are usage errors", "[inputs][cli]") {
  for (const char* args : {"play pass-the-pandas --seed -1", "play pass-the-pandas --seed 99999999999999999999999",
                           "play pass-the-pandas --max-memory 17592186044416", "play pass-the-pandas --seed 1x",
                           "simulate pass-the-pandas --max-instructions -5"}) {
    INFO(args);
    auto r = run_rulebook(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
  }
  CHECK(has(run_rulebook("play pass-the-pandas --seed -1").err, "'-1' is not a whole number"));
  CHECK(has(run_rulebook("play pass-the-pandas --max-memory 17592186044416").err, "out of range"));
  CHECK(run_rulebook("play pass-the-pandas --seed 18446744073709551615 --max-memory 1048576").exit_code == 0);
}

TEST_CASE("inputs: --log /dev/full fails", "[inputs][cli]") {
  auto r = run_rulebook("play pass-the-pandas --seed 1 --log /dev/full");
  CHECK(r.exit_code == 1);
  CHECK(has(r.err, "--log: error: could not write '/dev/full' (No space left on device)"));
}

TEST_CASE("inputs: endless files are read up to a limit", "[inputs][cli]") {
  auto test = run_rulebook("test /dev/zero");
  CHECK(test.exit_code == 2);
  CHECK(has(test.err, "/dev/zero: error: file is larger than 16 MiB, the limit for input files"));
  auto replay = run_rulebook("replay /dev/zero");
  CHECK(replay.exit_code == 2);
  CHECK(has(replay.err, "/dev/zero: error: file is larger than 16 MiB"));
  auto scripted = run_rulebook("play hao-hao --seed 1 --agent all=scripted:/dev/zero");
  CHECK(scripted.exit_code == 2);
  CHECK(has(scripted.err, "/dev/zero: error: file is larger than 16 MiB"));
}

TEST_CASE("inputs: a variant path longer than the system allows is a usage error", "[inputs][cli]") {
  const std::string name = std::string(5000, 'v') + "/x.yaml";
  auto r = run_rulebook("play pass-the-pandas --variant " + name);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "--variant: error: variant 'vvvv"));
  CHECK(has(r.err, "File name too long"));
  check_no_library_text(r);
}

TEST_CASE("inputs: very deep YAML says how deep is too deep", "[inputs][yaml]") {
  const std::string dir = temp_folder("deepyaml");
  write_file(dir + "/game.yaml", "name: deep\nextra: " + std::string(5000, '[') + std::string(5000, ']') + "\n");
  auto r = run_rulebook("validate " + dir);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "game.yaml:2:"));
  CHECK(has(r.err, "nesting deeper than 100 levels"));
  check_no_library_text(r);
}

TEST_CASE("inputs: a 60,000-character name is an error, not a stack overflow", "[inputs][schema]") {
  const std::string longname(60000, 'a');
  const std::string dir = temp_folder("longname");
  write_file(dir + "/game.yaml", "name: " + longname + "\ntitle: Long\nplayers: {min: 2, max: 2}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", "return {}\n");
  auto r = run_rulebook("validate " + dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "game.yaml:1:7: error: string \"aaaa"));
  CHECK(has(r.err, "is too long (60000 characters, maximum 64)"));

  auto set = run_rulebook("play pass-the-pandas --set name=" + longname);
  CHECK(set.exit_code == 2);
  CHECK(has(set.err, "--set:1:6: error: string \"aaaa"));
  CHECK(has(set.err, "too long (60000 characters, maximum 64)"));
}

TEST_CASE("inputs: integers beyond their C++ range in a scenario point at the line", "[inputs][schema]") {
  const std::string dir = temp_folder("bigints");
  for (const auto& [key, text] : std::vector<std::pair<std::string, std::string>>{
           {"seed", "seed: 1e30\nexpect: {finished: true}\n"},
           {"stop_after_turns", "stop_after_turns: 1e30\nexpect: {finished: true}\n"},
           {"turns", "expect: {turns: 1e30}\n"},
           {"zones", "expect: {zones: {box: 1e30}}\n"},
           {"scores", "expect: {scores: {\"0\": -1e30}}\n"}}) {
    INFO(key);
    write_file(dir + "/s.yaml", "name: big\ngame: pass-the-pandas\n" + text);
    auto r = run_rulebook("test " + dir + "/s.yaml");
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, dir + "/s.yaml:3:"));
    CHECK((has(r.err, "above the maximum") || has(r.err, "below the minimum")));
  }
}

TEST_CASE("inputs: text that is not UTF-8 is refused before it reaches JSON", "[inputs][cli]") {
  // Found by fuzz_overlay: a --set path with bytes 0x8e 0x9e made a JSON key
  // that nlohmann refuses to write; --name did the same to --json and logs.
  // (printf '\\216' writes the byte 0x8e; the runner's shell is sh.)
  for (const std::string args : {"play pass-the-pandas --seed 1 --json --name \"$(printf '\\216')\"",
                                 "play pass-the-pandas --seed 1 --set \"options.$(printf '\\216')=1\"",
                                 "play \"pass$(printf '\\216')\""}) {
    INFO(args);
    auto r = run_rulebook(args);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "not valid UTF-8"));
    check_no_library_text(r);
  }
}
