// Byte-identical logs for fixed games: every case of tests/data/golden
// is played by the real binary and its replay log and narration must be
// exactly the files written before the runtime's layers were rearranged
// (issue 7). A refactoring that changes one byte of a game fails here.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

using namespace rulebook::test;

namespace {

struct GoldenCase {
  std::string name;
  std::string args;
};

std::vector<GoldenCase> golden_cases() {
  std::ifstream in(RULEBOOK_TESTS_DIR "/data/golden/cases.txt");
  std::vector<GoldenCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    cases.push_back({line.substr(0, space), line.substr(space + 1)});
  }
  return cases;
}

}  // namespace

TEST_CASE("golden logs: fixed games play byte for byte as before", "[golden][cli]") {
  const auto cases = golden_cases();
  REQUIRE(cases.size() >= 10);
  const std::string dir = temp_folder("golden");
  for (const auto& c : cases) {
    INFO(c.name << ": rulebook play " << c.args);
    const std::string expected_dir = RULEBOOK_TESTS_DIR "/data/golden/" + c.name;
    const std::string log = dir + "/" + c.name + ".log.json";
    const CommandResult r = run_rulebook("play " + c.args + " --log '" + log + "'");
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const std::string expected_log = read_text(expected_dir + ".log.json");
    REQUIRE_FALSE(expected_log.empty());
    CHECK(read_text(log) == expected_log);
    CHECK(r.out == read_text(expected_dir + ".out.txt"));
    // And the recorded log replays.
    CHECK(run_rulebook("replay --quiet '" + expected_dir + ".log.json'").exit_code == 0);
  }
}
