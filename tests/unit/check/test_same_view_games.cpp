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
  const std::vector<std::pair<std::string, std::string>> games{
      {kPrivateGoofspielYaml, kPrivateGoofspielLua},       // private numbers narrowed by an outcome
      {kHideYaml, kHideLua},                               // a private position
      {kTwoSecretsYaml, kTwoSecretsLua},                   // sequential private choices
      {kTogetherBidYaml, kTogetherBidLua},                 // simultaneous bids
      {kDealtYaml, kDealtLua},                             // dealt cards
      {kCupsYaml, kCupsLua},                               // rolled dice
      {kSeenThenShuffledYaml, kSeenThenShuffledLua},       // a deck shuffled back
  };
  const std::string bot = "ismcts:iterations=8,depth=20";  // what `rulebook check` uses
  for (const auto& [yaml, lua] : games) {
    const TempGame game(yaml, lua);
    INFO(yaml.substr(0, yaml.find('\n')));
    ConformanceOptions options;
    options.games = 5;
    options.make_bot = [&] { return build_agent(bot); };
    options.bot_kind = bot;
    const ConformanceReport report = check_conformance(game.dir(), options);
    for (const auto& f : report.failures) FAIL_CHECK(describe(f));
    CHECK(report.ok());
    CHECK(report.games == 5 * report.configs);
    CHECK(report.worlds_compared > 0);
    CHECK(report.decisions_compared > 0);
  }
}
