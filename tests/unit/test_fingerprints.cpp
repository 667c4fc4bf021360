// Fingerprints of every bundled game at fixed seeds: simulate's mean turns
// and win rates by seat, and the FNV-1a hash of a played game's narration
// and replay log, must stay exactly what tests/golden/fingerprints.json
// says. A speed-up that keeps the rules' logic must not move them; a change
// of the rules' logic that moves them regenerates the file on purpose
// (the failure message prints the new values).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

#include "cli_runner.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;

namespace {

std::string fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

nlohmann::json golden() {
  return nlohmann::json::parse(read_text(std::string(RULEBOOK_TESTS_DIR) + "/golden/fingerprints.json"));
}

}  // namespace

TEST_CASE("fingerprints: simulate's mean turns and win rates by seat at fixed seeds", "[fingerprints]") {
  const auto cases = golden();
  REQUIRE(cases["simulate"].size() >= 3);
  for (const auto& c : cases["simulate"]) {
    const std::string args = c["args"].get<std::string>() + " --json";
    INFO("rulebook " << args);
    const auto r = run_rulebook(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    // Exact: the same seed plays the same games, whatever the speed.
    CHECK(j["mean_turns"] == c["mean_turns"]);
    CHECK(j["win_rate_by_seat"] == c["win_rate_by_seat"]);
  }
}

TEST_CASE("fingerprints: a played game's narration and replay log at a fixed seed", "[fingerprints]") {
  const std::string dir = temp_folder("fingerprints");
  const auto cases = golden();
  REQUIRE(cases["play"].size() >= 3);
  for (const auto& c : cases["play"]) {
    const std::string log = dir + "/log.json";
    const std::string args = c["args"].get<std::string>() + " --log " + log;
    INFO("rulebook " << args);
    const auto r = run_rulebook(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(fnv1a64(r.out) == c["narration_fnv1a64"].get<std::string>());
    CHECK(fnv1a64(read_text(log)) == c["log_fnv1a64"].get<std::string>());
  }
}
