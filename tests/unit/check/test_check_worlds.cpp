// `rulebook check` judges by worlds, not by words (issue 28): a fixed list
// of guesses and a card shown then hidden again pass; its bots test catches
// a bot that reads the true state and reports the decisions it compared.
// (The leaks through public state and through a label still fail:
// test_conformance.cpp's fixtures.)
#include <catch2/catch.hpp>

#include <filesystem>

#include "bots/agent_factory.hpp"
#include "check/conformance.hpp"
#include "inline_game.hpp"
#include "secret_games.hpp"

using namespace rulebook;
using nlohmann::json;
using test::TrueStateReader;
using test::kSealedBidLua;
using test::kSealedBidYaml;

TEST_CASE("check: a fixed list of guesses and a card shown then hidden again pass", "[conformance]") {
  // Love Letter's Guard: name a card among a fixed list, every one of them
  // hidden from the guesser. A card played face up, named, and shuffled
  // back into the deck before the next decision: named while the seat saw it.
  const test::TempGame game(
      "name: guard\ntitle: Guard\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
      "zones:\n  - {name: deck, visibility: hidden}\n  - {name: table, visibility: public}\n"
      "  - {name: hand, per_player: true, visibility: owner}\n"
      "components:\n  - {name: priest, kind: card, title: Priest, count: 2, zone: deck}\n"
      "  - {name: baron, kind: card, title: Baron, count: 2, zone: deck}\n"
      "  - {name: king, kind: card, title: King, count: 2, zone: deck}\n",
      "local rules = {}\nfunction rules.setup(game) game:zone('deck'):shuffle() end\n"
      "function rules.play(game)\n"
      "  for _, seat in ipairs(game:seats()) do game:zone('deck'):move_top(1, game:zone('hand', seat)) end\n"
      "  for round = 1, 2 do\n"
      "    for _, seat in ipairs(game:seats()) do\n"
      "      game:begin_turn(seat)\n"
      "      local guess = game:choose(seat, 'Name a card', {'Priest', 'Baron', 'King'})\n"
      "      local card = game:zone('deck'):items()[1]\n"
      "      card:move(game:zone('table'))\n"
      "      game:say('Seat %d turns up the %s (guessed %s)', seat, card:title(), guess)\n"
      "      card:move(game:zone('deck'))\n"
      "      game:zone('deck'):shuffle()\n"
      "    end\n"
      "  end\n"
      "  game:finish{}\nend\nreturn rules\n");
  ConformanceOptions options;
  options.games = 10;
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  const ConformanceReport r = check_conformance(game.dir(), options);
  for (const auto& f : r.failures) FAIL_CHECK(describe(f));
  CHECK(r.ok());
  CHECK(r.decisions_compared > 0);
  const json j = to_json(r);
  CHECK(j.at("bots").at("decisions_compared") == r.decisions_compared);
  CHECK(j.at("bots").at("ok") == true);
}

TEST_CASE("check: a bot that reads the true state fails the bots test", "[conformance][no-peek]") {
  const test::TempGame game(kSealedBidYaml, kSealedBidLua);
  ConformanceOptions options;
  options.games = 2;
  options.make_bot = [] { return std::make_unique<TrueStateReader>(); };
  options.bot_kind = "peeking";
  const ConformanceReport r = check_conformance(game.dir(), options);
  REQUIRE_FALSE(r.ok());
  CHECK(r.failures.front().check == "bots");
  CHECK(to_json(r).at("bots").at("ok") == false);
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  const ConformanceReport fine = check_conformance(game.dir(), options);
  for (const auto& f : fine.failures) FAIL_CHECK(describe(f));
  CHECK(fine.decisions_compared > 0);
}

TEST_CASE("check: simultaneous bids pass, and a bot that reads the bid under way fails", "[conformance][together]") {
  // Every seat's request at a simultaneous decision is the same whatever
  // the others answered ("together"); the bots test compares seat 1, asked
  // after seat 0 answered, in worlds where seat 0 bid otherwise.
  const test::TempGame game(test::kTogetherBidYaml, test::kTogetherBidLua);
  ConformanceOptions options;
  options.games = 3;
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  const ConformanceReport r = check_conformance(game.dir(), options);
  for (const auto& f : r.failures) FAIL_CHECK(describe(f));
  CHECK(r.decisions_compared > 0);
  options.make_bot = [] { return std::make_unique<TrueStateReader>(); };
  options.bot_kind = "peeking";
  const ConformanceReport cheat = check_conformance(game.dir(), options);
  bool bots_failed = false;
  for (const auto& f : cheat.failures) bots_failed = bots_failed || f.check == "bots";
  CHECK(bots_failed);
}

TEST_CASE("check: the bots test compares decisions over several games and each seat's whole game",
          "[conformance][no-peek]") {
  // Seat 0 takes five public steps, then seat 1 seals a number and seat 0
  // decides once more: a secret only at seat 0's sixth and last decision.
  // Comparing only its first decisions (the test before compared two)
  // passes a peeking bot; spread over its game (the last included), not.
  const test::TempGame game(
      "name: late-secret\ntitle: Late secret\nplayers: {min: 2, max: 2}\nscript: rules.lua\n",
      "local rules = {}\nfunction rules.setup(game) end\n"
      "function rules.play(game)\n"
      "  for step = 1, 5 do game:choose(0, 'Step', {'left', 'right'}) end\n"
      "  local sealed = game:choose(1, 'Seal a number', {1, 2, 3, 4, 5}, {private = true})\n"
      "  local named = game:choose(0, 'Name it', {1, 2, 3, 4, 5})\n"
      "  game:finish{winners = {named == sealed and 0 or 1}}\nend\nreturn rules\n");
  ConformanceOptions options;
  options.games = 4;
  options.make_bot = [] { return std::make_unique<TrueStateReader>(); };
  options.bot_kind = "peeking";
  options.bot_decisions = 1;
  options.bot_games = 1;
  CHECK(check_conformance(game.dir(), options).ok());  // the first decision hides nothing
  options.bot_decisions = 2;  // the first and the last
  const ConformanceReport caught = check_conformance(game.dir(), options);
  REQUIRE_FALSE(caught.ok());
  CHECK(caught.failures.front().check == "bots");
  CHECK(caught.failures.front().where.find("decision 6 of seat 0") != std::string::npos);

  // An honest bot passes, and every comparison is counted: per game, seat
  // 0's decisions 1, 2, 4 and 6 in 7 worlds (seat 1's number redrawn, six
  // other chance seeds, which change nothing here), seat 1's one decision
  // in the 6 seeds' worlds (no secret of seat 0's to redraw): 34, in each
  // of the first 3 games.
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  options.bot_games = 3;
  options.bot_decisions = 4;
  const ConformanceReport fine = check_conformance(game.dir(), options);
  for (const auto& f : fine.failures) FAIL_CHECK(describe(f));
  CHECK(fine.decisions_compared == 3 * 34);
  CHECK(to_json(fine).at("bots").at("decisions_compared") == 3 * 34);
  options.bot_games = 1;
  options.bot_decisions = 1;
  CHECK(check_conformance(game.dir(), options).decisions_compared == 7 + 6);
  options.bot_decisions = 100;  // every decision of the seat, no more
  CHECK(check_conformance(game.dir(), options).decisions_compared == 6 * 7 + 6);
}

namespace {

// Card bids at once, as in Goofspiel: each seat holds the cards 1 to 3 (in
// its own hand, out of the other's sight) and bids one of them in each of
// two rounds; only who took a round is told. No chance at all.
const char* kCardBidYaml =
    "name: card-bid\ntitle: Card bid\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
    "zones:\n  - {name: box, visibility: hidden}\n"
    "  - {name: hand, per_player: true, visibility: owner}\n"
    "  - {name: spent, per_player: true, visibility: owner}\n"
    "components:\n  - {name: card, kind: card, title: card, faces: {from: 1, to: 3}, count: 6, zone: box}\n";
const char* kCardBidLua =
    "local rules = {}\n"
    "function rules.setup(game)\n"
    "  for seat = 0, 1 do\n"
    "    local hand = game:zone('hand', seat)\n"
    "    game:zone('box'):move_top(3, hand)\n"
    "    for i = 2, 3 do hand:get(i):set_face(tostring(i)) end\n"
    "  end\n"
    "end\n"
    "function rules.play(game)\n"
    "  local wins = {[0] = 0, [1] = 0}\n"
    "  for round = 1, 2 do\n"
    "    local bids = game:choose_together({0, 1}, 'Bid a card',\n"
    "                                      function(seat) return game:zone('hand', seat):items() end)\n"
    "    for seat = 0, 1 do bids[seat]:move(game:zone('spent', seat)) end\n"
    "    local winner = tonumber(bids[1]:face()) > tonumber(bids[0]:face()) and 1 or 0\n"
    "    wins[winner] = wins[winner] + 1\n"
    "    game:say('Round %d goes to seat %d', round, winner)\n"
    "  end\n"
    "  game:finish{winners = {wins[1] > wins[0] and 1 or 0}}\n"
    "end\n"
    "return rules\n";

}  // namespace

TEST_CASE("check: the bots test compares a seat's decisions in simultaneous card bids", "[conformance][together]") {
  // The bids are cards (components), so no earlier redraw of private
  // answers that are no component covers them: each decision of a
  // simultaneous decision has its own world, the other seat's answer to it
  // redrawn (and its earlier bid, where who took the round stays the same).
  const test::TempGame game(kCardBidYaml, kCardBidLua);
  ConformanceOptions options;
  options.games = 3;
  options.bot_games = 1;
  options.bot_decisions = 4;  // each seat has 2 (one a round), so both are compared
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  const ConformanceReport fine = check_conformance(game.dir(), options);
  for (const auto& f : fine.failures) FAIL_CHECK(describe(f));
  // Per seat: 2 decisions in the 6 other chance seeds' worlds (no chance
  // here: the same game) and each in its simultaneous decision's world.
  CHECK(fine.decisions_compared == 2 * (2 * 6 + 2));
  options.bot_games = 3;
  CHECK(check_conformance(game.dir(), options).decisions_compared == 3 * 2 * (2 * 6 + 2));

  options.make_bot = [] { return std::make_unique<TrueStateReader>(); };
  options.bot_kind = "peeking";
  const ConformanceReport cheat = check_conformance(game.dir(), options);
  REQUIRE_FALSE(cheat.ok());
  CHECK(cheat.failures.front().check == "bots");
  CHECK(cheat.failures.front().message.find("simultaneous decision") != std::string::npos);
}

TEST_CASE("check: Goofspiel's bids are compared, and a bot that reads them fails", "[conformance][together]") {
  const std::string goofspiel = (std::filesystem::path(RULEBOOK_TESTS_DIR) / ".." / "rules" / "goofspiel").string();
  ConformanceOptions options;
  options.games = 1;
  options.bot_games = 1;
  options.make_bot = [] { return build_agent("ismcts:iterations=8,depth=10"); };
  options.bot_kind = "ismcts";
  const ConformanceReport fine = check_conformance(goofspiel, options);
  for (const auto& f : fine.failures) FAIL_CHECK(describe(f));
  CHECK(fine.decisions_compared >= 2 * 4);  // at least each seat's 4 decisions in their simultaneous worlds
  options.make_bot = [] { return std::make_unique<TrueStateReader>(); };
  options.bot_kind = "peeking";
  const ConformanceReport cheat = check_conformance(goofspiel, options);
  REQUIRE_FALSE(cheat.ok());
  CHECK(cheat.failures.front().check == "bots");
}
