// The games of the "same view, same choice" tests (tests/unit/bots/
// test_same_view.cpp) pass `rulebook check` whole: its worlds test and its
// bots test with the search bot `check` uses. What the same-view tests
// assume of them -- that they show a seat nothing it may not know -- is
// checked, not taken on trust.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "bots/agent_factory.hpp"
#include "check/conformance.hpp"
#include "inline_game.hpp"
#include "secret_games.hpp"

using namespace rulebook;
using namespace rulebook::test;

TEST_CASE("check: every game of the same-view tests passes", "[conformance][same-view]") {
  const std::string bot = "ismcts:iterations=8,depth=20";  // what `rulebook check` uses
  auto check = [&](const std::string& dir, const std::vector<std::string>& sets) {
    INFO(dir);
    ConformanceOptions options;
    options.games = 5;
    options.sets = sets;
    options.make_bot = [&] { return build_agent(bot); };
    options.bot_kind = bot;
    const ConformanceReport report = check_conformance(dir, options);
    for (const auto& f : report.failures) FAIL_CHECK(describe(f));
    CHECK(report.ok());
    CHECK(report.games == 5 * report.configs);
    CHECK(report.worlds_compared > 0);
    CHECK(report.decisions_compared > 0);
  };
  check(private_goofspiel_dir(), kPrivateGoofspielSets);  // private numbers narrowed by an outcome
  const std::vector<std::pair<std::string, std::string>> games{
      {kHideYaml, kHideLua},                               // a private position
      {kTwoSecretsYaml, kTwoSecretsLua},                   // sequential private choices
      {kTogetherBidYaml, kTogetherBidLua},                 // simultaneous bids
      {kDealtYaml, kDealtLua},                             // dealt cards
      {kCupsYaml, kCupsLua},                               // rolled dice
      {kSeenThenShuffledYaml, kSeenThenShuffledLua},       // a deck shuffled back
  };
  for (const auto& [yaml, lua] : games) {
    const TempGame game(yaml, lua);
    check(game.dir(), {});
  }
}
