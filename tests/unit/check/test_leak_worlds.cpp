// `rulebook check`'s worlds test (issue 39): the rules played again in
// worlds a seat cannot tell apart. Every leak class of tests/data/leaks
// fails with the two worlds in its report; each correct twin, and a Love
// Letter Guard's fixed list of guesses, passes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "check/conformance.hpp"
#include "check/leak_worlds.hpp"
#include "files.hpp"
#include "inline_game.hpp"
#include "lua/rule_engine.hpp"
#include "recorded_game.hpp"
#include "secret_games.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

std::string leak_game(const std::string& name) { return std::string(RULEBOOK_TESTS_DIR) + "/data/leaks/" + name; }
// The leak classes and their twins: modes of one game (game.yaml lists them).
const std::string cards = leak_game("cards");

ConformanceReport check_worlds_only(const std::string& dir, int games, const std::string& leak_dir = {},
                                    const std::string& mode = {}) {
  ConformanceOptions options;
  options.games = games;
  options.leak_dir = leak_dir;
  if (!mode.empty()) options.sets = {"options.mode=" + mode};
  return check_conformance(dir, options);
}

bool failed(const ConformanceReport& r, const std::string& check) {
  for (const auto& f : r.failures)
    if (f.check == check) return true;
  return false;
}

}  // namespace

TEST_CASE("worlds: every leak class fails, and its correct twin passes", "[conformance][worlds]") {
  const std::vector<std::pair<std::string, std::string>> classes{
      {"labels", "labels-fine"},             // labels naming hidden cards
      {"state-titles", "state-fine"},        // public state: titles
      {"state-types", "state-fine"},         // public state: type names
      {"state-joined", "state-fine"},        // public state: one joined string
      {"hint-options", "hint-private"},      // a public decision whose options depend on a hand its owner cannot see
      {"position", "position-fine"},         // a public answer's position
      {"message", "message-fine"},           // a message telling a seat its own card
      {"describe", "describe-fine"},         // a description telling a seat its own card
  };
  for (const auto& [leak, twin] : classes) {
    INFO(leak);
    const ConformanceReport bad = check_worlds_only(cards, 5, {}, leak);
    CHECK(failed(bad, "worlds"));
    CHECK(to_json(bad).at("tests").at("worlds").at("ok") == false);
    INFO(twin);
    const ConformanceReport good = check_worlds_only(cards, 5, {}, twin);
    for (const auto& f : good.failures) FAIL_CHECK(describe(f));
    CHECK(good.ok());
    CHECK(good.worlds_compared > 0);
    CHECK(to_json(good).at("tests").at("worlds").at("worlds_compared") == good.worlds_compared);
  }
}

TEST_CASE("worlds: a leak report names the line, both worlds and what differs", "[conformance][worlds]") {
  const std::string dir = test::temp_folder("leak-worlds");
  const ConformanceReport r = check_worlds_only(cards, 1, dir, "message");
  REQUIRE(failed(r, "worlds"));
  const ConformanceFailure* f = nullptr;
  for (const auto& x : r.failures)
    if (x.check == "worlds" && !f) f = &x;
  REQUIRE(f);
  CHECK(f->where.find("line ") == 0);
  CHECK(f->message.find("game played: event {\"text\":\"Seat 0's first card is the ") != std::string::npos);
  CHECK(f->message.find("what differs: components hidden from seat 0 exchanged identities") != std::string::npos);
  REQUIRE(f->reproduce_worlds.size() == 2);
  CHECK(f->reproduce_worlds[1].find(" --world " + dir + "/cards-") != std::string::npos);
  // The world file plays the other world again: the seat receives there
  // the line the report shows.
  const std::string file = f->reproduce_worlds[1].substr(f->reproduce_worlds[1].find("--world ") + 8);
  std::ifstream in(file);
  const json world_json = json::parse(in);
  const LeakWorld world = leak_world_from_json(world_json);
  // The file holds the setting the game was checked with.
  CHECK(world_json.at("sets") == json::array({"options.mode=message"}));
  auto def = load_game(cards, LoadOptions{{}, world_json.at("sets").get<std::vector<std::string>>()});
  RuleEngine engine(def);
  const SeatStream stream =
      play_seat_stream(def, engine, world_json.at("players").get<int>(), world, Seat{world_json.at("seat").get<int>()});
  const std::string other = f->message.substr(f->message.find("other world: ") + 13);
  REQUIRE(stream.lines.size() >= 1);
  bool found = false;
  for (const auto& line : stream.lines) found = found || other.rfind(line, 0) == 0;
  CHECK(found);
}

TEST_CASE("worlds: a fixed list of guesses, narrated and answered on purpose, passes at 20 games", "[conformance][worlds]") {
  const ConformanceReport r = check_worlds_only(leak_game("guess"), 20);
  for (const auto& f : r.failures) FAIL_CHECK(describe(f));
  CHECK(r.ok());
  CHECK(r.worlds_compared > 0);
  // The guess names hidden titles: a warning at most, which claims no
  // other test's verdict.
  for (const auto& w : r.warnings) {
    CHECK(w.message.find("test") == std::string::npos);
    CHECK(w.message.find("judge") == std::string::npos);
  }
}

TEST_CASE("worlds: a world that takes another path is skipped and counted", "[conformance][worlds]") {
  // Seat 0 is asked another private question depending on its card, which
  // seat 1 never sees: seat 1 receives the same (a private choice), but the
  // game played's answers belong to another decision there: skipped.
  const test::TempGame game(
      "name: by-card\ntitle: By card\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
      "zones:\n  - {name: deck, visibility: hidden}\n  - {name: hand, per_player: true, visibility: owner}\n"
      "components:\n  - {name: a, kind: card, title: A, count: 2, zone: deck}\n"
      "  - {name: b, kind: card, title: B, count: 2, zone: deck}\n",
      "local rules = {}\nfunction rules.setup(game) game:zone('deck'):shuffle() end\n"
      "function rules.play(game)\n"
      "  for _, seat in ipairs(game:seats()) do game:zone('deck'):move_top(1, game:zone('hand', seat)) end\n"
      "  local card = game:zone('hand', 0):items()[1]\n"
      "  local prompt = card:title() == 'A' and 'Keep the A?' or 'Keep the B?'\n"
      "  game:choose(0, prompt, {'yes', 'no'}, {private = true})\n"
      "  game:choose(1, 'Go on?', {'yes', 'no'})\n"
      "  game:finish{}\nend\nreturn rules\n");
  const ConformanceReport r = check_worlds_only(game.dir(), 5);
  for (const auto& f : r.failures) FAIL_CHECK(describe(f));
  CHECK(r.worlds_skipped > 0);
  CHECK(r.worlds_compared > 0);
  CHECK(to_json(r).at("tests").at("worlds").at("worlds_skipped") == r.worlds_skipped);
}

namespace {

// The game two random agents play at `seed`, as the worlds test's played world.
LeakWorld random_world(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine, uint64_t seed) {
  LeakWorld played;
  played.seed = seed;
  played.answers = test::random_game_answers(def, engine, 2, seed);
  played.labels.assign(played.answers.size(), std::nullopt);
  return played;
}

}  // namespace

TEST_CASE("worlds: a seat's stream says what it knows through SeatKnowledge", "[worlds][knowledge]") {
  // The sealed bid: seat 1's number is the one private answer seat 0 was
  // not shown (the log's first answer, five options); the worlds test redraws it.
  const test::TempGame game(test::kSealedBidYaml, test::kSealedBidLua);
  auto def = load_game(game.dir());
  RuleEngine engine(def);
  const LeakWorld played = random_world(def, engine, 3);
  const SeatStream zero = play_seat_stream(def, engine, 2, played, Seat{0});
  CHECK(zero.knows.private_answers() == std::vector<std::pair<size_t, int>>{{0, 5}});
  const SeatStream one = play_seat_stream(def, engine, 2, played, Seat{1});
  CHECK(one.knows.private_answers() == std::vector<std::pair<size_t, int>>{{1, 5}});
  CHECK(one.knows.events().empty());  // the stream's lines are its events

  // Seen, then shuffled: every card was first seen at the stream's start,
  // which the identity worlds' horizons compare with.
  const test::TempGame shuffled(test::kSeenThenShuffledYaml, test::kSeenThenShuffledLua);
  auto cards = load_game(shuffled.dir());
  RuleEngine cards_engine(cards);
  const SeatStream s = play_seat_stream(cards, cards_engine, 2, random_world(cards, cards_engine, 3), Seat{0});
  for (ComponentId id : ComponentId::all(cards->component_count())) CHECK(s.knows.first_seen(id) == 0u);
}
