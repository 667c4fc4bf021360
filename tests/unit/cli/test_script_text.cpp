// A script's text through the real binary: invalid UTF-8 is repaired where
// it enters the runtime (U+FFFD), so that --json, --log and replay work;
// control characters reach JSON as JSON escapes them, and every terminal
// writer shows them as visible escapes, never obeys them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "inline_game.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

const std::string kYaml = test::one_die_game_yaml("text", "Text");
const std::string kFffd = "\xEF\xBF\xBD";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Every line of --json output is JSON.
void check_json_lines(const std::string& out) {
  std::istringstream lines(out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK_NOTHROW(json::parse(line));
    ++n;
  }
  CHECK(n > 2);
}

}  // namespace

TEST_CASE("script text: invalid UTF-8 in narration, prompts, labels and results keeps the log", "[cli][text]") {
  const test::TempGame game(kYaml, test::rules_lua(
      "  local bad = 'caf\\xe9 \\xff'\n"
      "  game.state.note = bad\n"
      "  game.state[bad] = 1\n"
      "  game:begin_phase('ph\\xe9')\n"
      "  game:say('say %s', bad)\n"
      "  game:say_to(0, 'to %s', bad)\n"
      "  print('print ' .. bad)\n"
      "  game:choose(0, 'prompt ' .. bad, {'label ' .. bad, {label = 'table ' .. bad}})\n"
      "  game:choose_together({0, 1}, 'both ' .. bad, {'x ' .. bad, 'y'})\n"
      "  game:finish{winners = {0}, summary = 'sum ' .. bad, reason = 'why ' .. bad, details = {text = bad}}"));
  const std::string dir = test::temp_folder("bad-utf8");
  const auto json_run = test::run_rulebook("play '" + game.dir() + "' --seed 4 --json --log " + dir + "/a.json");
  INFO(json_run.err);
  REQUIRE(json_run.exit_code == 0);
  check_json_lines(json_run.out);
  CHECK(has(json_run.out, "caf" + kFffd + " " + kFffd));
  const std::string log_text = test::read_text(dir + "/a.json");
  const json log = json::parse(log_text);
  CHECK(log["result"]["summary"] == "sum caf" + kFffd + " " + kFffd);
  CHECK(log["result"]["reason"] == "why caf" + kFffd + " " + kFffd);
  CHECK((has(log_text, "\"label caf" + kFffd) || has(log_text, "\"table caf" + kFffd)));  // the chosen option's
  CHECK(has(log_text, "ph" + kFffd));
  // The same game again writes the same bytes, and the log replays.
  REQUIRE(test::run_rulebook("play '" + game.dir() + "' --seed 4 --log " + dir + "/b.json").exit_code == 0);
  CHECK(test::read_text(dir + "/b.json") == log_text);
  const auto replay = test::run_rulebook("replay " + dir + "/a.json");
  INFO(replay.err);
  CHECK(replay.exit_code == 0);
  CHECK(has(replay.out, "replay OK"));
}

TEST_CASE("script text: a script error in invalid UTF-8 is still reported", "[cli][text]") {
  const test::TempGame game(kYaml, test::rules_lua("  error('broken \\xff')"));
  const auto r = test::run_rulebook("play '" + game.dir() + "' --seed 1 --json");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(has(r.err, "rules.lua:4"));
  CHECK(has(r.err, "broken " + kFffd));
  CHECK_FALSE(has(r.err, "internal error"));
}

TEST_CASE("script text: control characters never reach the terminal raw", "[cli][text]") {
  const std::string hostile = "osc \\27]0;pwned\\7 clear \\27[2J cr \\r\\27[2K c1 \\xc2\\x9b31m";
  const test::TempGame game(kYaml, test::rules_lua(
      "  game:say('" + hostile + "')\n"
      "  game:choose(0, 'pick " + hostile + "', {'one', 'two'})\n"
      "  game:finish{winners = {0}, summary = 'sum " + hostile + "', reason = 'why " + hostile + "'}"));
  auto no_controls = [](const std::string& text) {
    for (unsigned char c : text)
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
    return !has(text, "\xC2\x9B");
  };
  // Narration and the result, narrated (NO_COLOR: no style escapes either).
  const auto narrated = test::run_rulebook("play '" + game.dir() + "' --seed 1");
  INFO(narrated.out << narrated.err);
  REQUIRE(narrated.exit_code == 0);
  CHECK(no_controls(narrated.out));
  CHECK(has(narrated.out, "osc \\x1b]0;pwned\\x07 clear \\x1b[2J cr \\r\\x1b[2K c1 \\u009b31m"));
  // The log's replay, narrated.
  const std::string dir = test::temp_folder("controls");
  REQUIRE(test::run_rulebook("play '" + game.dir() + "' --seed 1 --json --log " + dir + "/log.json").exit_code == 0);
  const auto replayed = test::run_rulebook("replay --narrate normal " + dir + "/log.json");
  CHECK(replayed.exit_code == 0);
  CHECK(no_controls(replayed.out));
  // JSON keeps the text: JSON escapes the controls itself.
  const auto as_json = test::run_rulebook("play '" + game.dir() + "' --seed 1 --json");
  CHECK(has(as_json.out, "\\u001b]0;pwned\\u0007"));
  CHECK(json::parse(test::read_text(dir + "/log.json"))["result"]["reason"].get<std::string>().find("\x1b]0;pwned\x07") !=
        std::string::npos);
  // A simulation's end reasons in its text report.
  const auto simulated = test::run_rulebook("simulate '" + game.dir() + "' --games 3 --jobs 1");
  INFO(simulated.err);
  REQUIRE(simulated.exit_code == 0);
  CHECK(no_controls(simulated.out));
  CHECK(has(simulated.out, "why osc \\x1b]0;pwned"));
  // A comparison's.
  const auto compared = test::run_rulebook("compare '" + game.dir() + "' --with '--agent 0=first' --games 3 --jobs 1");
  INFO(compared.err);
  REQUIRE(compared.exit_code == 0);
  CHECK(no_controls(compared.out));
}

TEST_CASE("script text: a script error's control characters are escaped on standard error", "[cli][text]") {
  const test::TempGame game(kYaml, test::rules_lua("  error('err \\27]0;pwned\\7 \\27[2J \\r')"));
  const auto r = test::run_rulebook("play '" + game.dir() + "' --seed 1");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(has(r.err, "err \\x1b]0;pwned\\x07 \\x1b[2J \\r"));
  CHECK_FALSE(has(r.err, "\x1b"));
  CHECK_FALSE(has(r.err, "\r"));
}

TEST_CASE("script text: a statistic too large for a paired difference is said so", "[cli][text][compare]") {
  // The sides answer differently (first against random): a game's statistic
  // is 1.7e308 or -1.7e308 by the answer, so some differences overflow.
  const test::TempGame game(kYaml, test::rules_lua(
      "  local i = game:choose(0, 'sign', {'up', 'down'})\n"
      "  game:finish{winners = {0}, stats = {huge = i == 'up' and 1.7e308 or -1.7e308, small = 1}}"));
  const auto r = test::run_rulebook("compare '" + game.dir() + "' --with '--agent 0=first' --games 40 --jobs 1 --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["differences"]["stats"]["huge"]["too_large"] == true);
  CHECK(j["differences"]["stats"]["small"]["games"] == 40);
  const auto text = test::run_rulebook("compare '" + game.dir() + "' --with '--agent 0=first' --games 40 --jobs 1");
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(has(text.out, "too large to subtract"));
  CHECK_FALSE(has(text.err, "game 0"));
}
