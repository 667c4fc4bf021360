// Matches: one concept for a game in progress. Several games at once on one
// Lua state, decision requests as values, and agents that never receive the
// seed of the game's chance.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "observation/event_recorder.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

// Records everything an agent is ever handed.
class SpyAgent : public Agent {
 public:
  std::string kind() const override { return "spy"; }
  void begin_game(uint64_t stream_seed, Seat seat) override {
    seeds.push_back(stream_seed);
    received.push_back(fmt::format("{} {}", stream_seed, seat));
  }
  bool wants_events() const override { return true; }
  void observe(const json& event) override { received.push_back(event.dump()); }
  int choose(const Decision& d) override {
    received.push_back(d.request().to_json().dump());
    return random.choose(d);
  }
  std::vector<uint64_t> seeds;
  std::vector<std::string> received;
  RandomAgent random;
};

}  // namespace

TEST_CASE("agents never receive the seed of the game's chance", "[match][agents]") {
  // A seed whose decimal digits cannot turn up by accident.
  const uint64_t seed = 8234567890123456789ull;
  const std::string digits = std::to_string(seed);
  for (const std::string& game : list_games()) {
    INFO(game);
    auto def = load_game(game);
    Match match(def);
    const int players = def->min_players;
    std::vector<std::unique_ptr<SpyAgent>> spies;
    for (Seat s : Seat::all(players)) {
      spies.push_back(std::make_unique<SpyAgent>());
      match.set_agent(s, spies.back().get());
    }
    REQUIRE(match.play(players, seed).finished);
    for (Seat s : Seat::all(players)) {
      const SpyAgent& spy = *spies[s.index()];
      REQUIRE(spy.seeds.size() == 1u);
      CHECK(spy.seeds[0] != seed);
      CHECK(spy.seeds[0] == agent_stream_seed(seed, s));
      CHECK(spy.received.size() > 1u);
      for (const auto& text : spy.received) CHECK(text.find(digits) == std::string::npos);
    }
    // And the game's chance does not depend on what agents are handed: the
    // first roll or shuffle is the same whoever plays.
    CHECK(match.state().seed() == seed);
  }
}

TEST_CASE("one engine holds several games at once", "[match]") {
  auto def = load_game("pass-the-pandas");
  // Each game alone, on its own engine.
  auto alone = [&](uint64_t seed) {
    Match match(def);
    EventRecorder recorder;
    match.add_sink(&recorder);
    bool pending = match.start(3, seed);
    while (pending) pending = match.answer(match.pending().count() - 1);
    return recorder.events();
  };
  const auto expected_a = alone(11), expected_b = alone(12);
  REQUIRE(expected_a != expected_b);

  // Both on one engine, answered in turns: each game keeps its own thread,
  // `game` table, pending decision and result.
  RuleEngine engine(def);
  Match a(def, engine), b(def, engine);
  EventRecorder events_a, events_b;
  a.add_sink(&events_a);
  b.add_sink(&events_b);
  bool pending_a = a.start(3, 11), pending_b = b.start(3, 12);
  int interleaved = 0;
  while (pending_a || pending_b) {
    if (pending_a) pending_a = a.answer(a.pending().count() - 1);
    if (pending_b) pending_b = b.answer(b.pending().count() - 1);
    ++interleaved;
  }
  CHECK(interleaved > 2);
  CHECK(a.result().finished);
  CHECK(b.result().finished);
  CHECK(events_a.events() == expected_a);
  CHECK(events_b.events() == expected_b);
}

TEST_CASE("a pending decision is a serialisable request", "[match]") {
  auto def = load_game("hai-noon");
  Match match(def);
  REQUIRE(match.start(2, 3));
  const DecisionRequest& request = match.pending();
  const json wire = json::parse(request.to_json().dump());
  const DecisionRequest back = DecisionRequest::from_json(wire);
  CHECK(back.seat == request.seat);
  CHECK(back.prompt == request.prompt);
  CHECK(back.labels == request.labels);
  CHECK(back.view == match.view(request.seat));
  // A bot answering from the request alone answers like one in the game.
  ScriptedAgent agent({request.labels.back()});
  CHECK(agent.choose(Decision(back)) == request.count() - 1);
}

TEST_CASE("a match plays many games and needs an agent at every seat to play", "[match]") {
  auto def = load_game("pass-the-pandas");
  Match match(def);
  CHECK_THROWS_AS(match.play(2, 1), std::invalid_argument);
  CHECK_THROWS_AS(match.result(), std::logic_error);
  FirstAgent first;
  match.set_agents({&first, &first});
  const int turns = match.play(2, 1).turns;
  CHECK(match.play(2, 2).finished);
  CHECK(match.play(2, 1).turns == turns);
}

TEST_CASE("a game run begins once and is answered only while a decision waits", "[match][lifecycle]") {
  auto def = load_game("pass-the-pandas");
  RuleEngine engine(def);
  GameState state(*def);
  state.reset(3, 5);
  GameRun run(engine, state, {nullptr, nullptr, nullptr});  // every decision pauses
  CHECK_THROWS_AS(run.answer(0), std::logic_error);        // not begun
  REQUIRE(run.begin());                                      // waits at a decision
  CHECK_THROWS_AS(run.begin(), std::logic_error);
  CHECK_THROWS_AS(run.answer(run.pending().count()), std::out_of_range);
  bool pending = true;
  int answers = 0;
  while (pending) {
    pending = run.answer(0);
    ++answers;
  }
  CHECK(answers > 1);
  REQUIRE(run.result().finished);  // over
  CHECK_THROWS_AS(run.answer(0), std::logic_error);
  CHECK_THROWS_AS(run.begin(), std::logic_error);
  CHECK(run.evaluation(Seat{0}) == outcome_share(run.result(), Seat{0}));

  // A run a script error ended is over too: it does not begin again.
  GameState failing_state(*def);
  failing_state.reset(3, 5);
  GameRunSettings settings;
  settings.prepare = {"error('no table today')", "prepare.yaml"};
  GameRun failing(engine, failing_state, {nullptr, nullptr, nullptr}, settings);
  CHECK_THROWS_AS(failing.begin(), ScriptError);
  CHECK_THROWS_AS(failing.begin(), std::logic_error);
  CHECK_THROWS_AS(failing.answer(0), std::logic_error);
}

TEST_CASE("a match keeps the settings of its games in one value, and a fork replays with them", "[match]") {
  auto def = load_game("pass-the-pandas");
  Match match(def);
  CHECK(match.settings().turn_limit == -1);
  CHECK(match.settings().keep_details);
  CHECK(match.settings().prepare.code.empty());
  match.set_turn_limit(6);
  match.set_keep_details(false);
  match.set_prepare("game.state.prepared = true", "prepare.yaml", true);
  const GameRunSettings& settings = match.settings();
  CHECK(settings.turn_limit == 6);
  CHECK_FALSE(settings.keep_details);
  CHECK(settings.prepare.code == "game.state.prepared = true");
  CHECK(settings.prepare.chunk_name == "prepare.yaml");
  CHECK(settings.prepare.at_first_turn);
  CHECK_FALSE(settings.bare_requests);

  match.record_answers();
  bool pending = match.start(3, 7);
  for (int i = 0; i < 3 && pending; ++i) pending = match.answer(0);
  REQUIRE(pending);
  CHECK(match.evaluate("game.state.prepared", "check.lua") == true);  // run as the first turn began
  const auto fork = match.fork();
  // The same game: its turn limit and prepare code (details are kept, as by
  // default), and whole requests for the games it starts next.
  CHECK(fork->settings().turn_limit == 6);
  CHECK(fork->settings().prepare.code == settings.prepare.code);
  CHECK(fork->settings().prepare.at_first_turn);
  CHECK(fork->settings().keep_details);
  CHECK_FALSE(fork->settings().bare_requests);
  CHECK(fork->pending().labels == match.pending().labels);
  CHECK(fork->evaluate("game.state.prepared", "check.lua") == true);
}
