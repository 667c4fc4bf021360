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
#include <filesystem>
#include <fstream>
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

// Pass the Pandas plays its five turn steps in one function while no
// variant has replaced one, and calls rules.roll, rules.evaporate, ... one by
// one when one has (rules/pass-the-pandas/rules.lua). Both ways must play
// the same games: here a variant replaces keep_blanks with itself, which
// forces the step-by-step turn, and every event, answer and result of the
// log must be the same, narration too, for each player count.
TEST_CASE("fingerprints: Pass the Pandas' whole turn plays exactly as its steps one by one", "[fingerprints]") {
  namespace fs = std::filesystem;
  const fs::path dir = temp_folder("pandas-steps");
  const fs::path game = dir / "pass-the-pandas";
  fs::remove_all(game);
  fs::copy(fs::path(RULEBOOK_SOURCE_DIR) / "rules" / "pass-the-pandas", game, fs::copy_options::recursive);
  std::ofstream(game / "variants" / "steps.yaml")
      << "name: steps\ntitle: Step by step\nsource: a test of rulebook\n"
         "description: replaces keep_blanks with itself\nscript: steps.lua\n";
  std::ofstream(game / "variants" / "steps.lua")
      << "local rules = ...\nlocal keep_blanks = rules.keep_blanks\n"
         "function rules.keep_blanks(...) return keep_blanks(...) end\n";
  // Panda-monium plays on for places (seats go out, the recipients and the
  // bamboo challenge skip them) and deals again each round.
  for (const std::string variant : {"", " --variant panda-monium"}) {
    for (const std::string players : {"2", "3", "4", "5"}) {
      for (const std::string seed : {"1", "7", "2026"}) {
        const std::string common = "play '" + game.string() + "' --players " + players + " --seed " + seed + variant;
        const std::string whole_log = (dir / "whole.json").string(), steps_log = (dir / "steps.json").string();
        INFO(common);
        const auto whole = run_rulebook(common + " --log '" + whole_log + "'");
        const auto steps = run_rulebook(common + " --variant steps --log '" + steps_log + "'");
        REQUIRE(whole.exit_code == 0);
        REQUIRE(steps.exit_code == 0);
        CHECK(whole.out == steps.out);
        auto a = nlohmann::json::parse(read_text(whole_log));
        auto b = nlohmann::json::parse(read_text(steps_log));
        CHECK(b["variants"].back() == "steps");
        a.erase("variants");
        b.erase("variants");
        CHECK(a == b);
        CHECK(a["events"].size() > 20);
      }
    }
  }
  // And a simulation's every figure but the timings.
  auto figures = [&](const std::string& variant, int games = 3000) {
    const auto r = run_rulebook("simulate '" + game.string() + "' --players 4 --seed 5 --games " +
                                std::to_string(games) + " --json" + variant);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"seconds", "games_per_second", "variants", "rules_hash"}) j.erase(key);  // the hash names the variant
    return j;
  };
  CHECK(figures("") == figures(" --variant steps"));
  CHECK(figures(" --variant panda-monium", 300) == figures(" --variant panda-monium --variant steps", 300));
}
