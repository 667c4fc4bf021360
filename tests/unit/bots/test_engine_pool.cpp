// The process's pool of rule engines (lua/engine_pool.hpp): a search bot's
// determinizer takes its engines from it, so a game's search may run on
// engines other searches used before. Such a game must be the game a search
// on fresh engines plays, byte for byte, and a reused engine must hold no
// memory its cap would count against the next game.
#include <catch2/catch.hpp>

#include "bots/agent_factory.hpp"
#include "inline_game.hpp"
#include "lua/engine_pool.hpp"
#include "observation/event_view.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using rulebook::test::TempGame;

namespace {

class EventLog : public EventSink {
 public:
  void on_event(const GameState& state, const Event& event) override { text += event_json(state, event).dump() + "\n"; }
  std::string text;
};

// The game's events and answers with search bots at both seats.
std::string search_game_log(const std::shared_ptr<const GameDefinition>& def, const EngineLimits& limits, uint64_t seed) {
  Match match(def, limits);
  EventLog log;
  match.add_sink(&log);
  match.record_answers();
  match.set_agent(Seat{0}, build_agent("ismcts:iterations=40"));
  match.set_agent(Seat{1}, build_agent("mcts:iterations=30,determinizations=2"));
  const GameResult& r = match.play(2, seed);
  for (const auto& a : match.answers()) log.text += fmt::format("answer {} {}\n", a.seat.value(), a.index);
  for (Seat w : r.winners) log.text += fmt::format("winner {}\n", w.value());
  return log.text;
}

}  // namespace

TEST_CASE("an engine given back to the pool is the next taker's, of the same definition and limits only",
          "[engine_pool]") {
  auto def = load_game("liars-dice");
  const EngineLimits limits{};
  RuleEngine* first = nullptr;
  {
    PooledEngine e = pooled_engine(def, limits);
    first = e.get();
  }
  PooledEngine again = pooled_engine(def, limits);
  CHECK(again.get() == first);
  EngineLimits other = limits;
  other.max_memory /= 2;
  PooledEngine capped = pooled_engine(def, other);
  CHECK(capped.get() != first);
  CHECK(capped->limits() == other);
  PooledEngine elsewhere = pooled_engine(load_game("liars-dice"), limits);  // another definition object
  CHECK(elsewhere.get() != first);
}

TEST_CASE("a search on pooled engines plays the games a search on fresh engines plays", "[engine_pool][search]") {
  for (const std::string game : {"liars-dice", "kuhn-poker"}) {
    for (const EngineLimits& limits : {EngineLimits{}, EngineLimits{0, 64u * 1024 * 1024, 5.0}}) {
      INFO(game << " cap " << limits.max_memory);
      // Several games in a row on one definition: from the second on, the
      // bots' determinizers take the engines the last game's gave back.
      auto def = load_game(game);
      std::vector<std::string> pooled;
      for (uint64_t seed = 1; seed <= 3; ++seed) pooled.push_back(search_game_log(def, limits, seed));
      CHECK(pooled_engine_count() > 0);
      // Each again on a definition loaded anew, which no pooled engine is of.
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        INFO("seed " << seed);
        CHECK(search_game_log(load_game(game), limits, seed) == pooled[seed - 1]);
      }
    }
  }
}

TEST_CASE("a pooled engine holds none of its last search's memory, and its cap still stops a hostile game",
          "[engine_pool]") {
  // Answer 0 holds 16 MiB in blocks of 20 KB, answer 1 16 MiB in blocks of
  // 40 KB, answer 2 grows without end. Under a 32 MiB cap, the first
  // game's memory kept for its checkpoint (which a pinned heap never gives
  // back, and a later game cannot reuse at the larger size) would refuse
  // the second game's 16 MiB (with the garbage of making them).
  TempGame game(test::one_die_game_yaml("pool-memory", "Pool memory"),
                test::rules_lua("  local _, i = game:choose(0, 'how much?', {'small', 'large', 'endless'})\n"
                                "  local kept, size, n = {}, ({20000, 40000, 40000})[i], 1\n"
                                "  while i == 3 or n * size < 16 * 1024 * 1024 do\n"
                                "    kept[n] = string.rep('x', size - 8) .. string.format('%8d', n)\n"
                                "    n = n + 1\n"
                                "  end\n"
                                "  game:finish{winners = {0}}"));
  auto def = load_game(game.dir());
  const EngineLimits limits{0, 32u * 1024 * 1024, 5.0};
  RuleEngine* used = nullptr;
  {
    PooledEngine engine = pooled_engine(def, limits);
    used = engine.get();
    Match match(def, *engine);
    match.record_answers();
    REQUIRE(match.start(2, 1));
    GameCheckpoint saved;
    match.save(saved);  // pins the heap
    CHECK_FALSE(match.answer(0));
  }
  PooledEngine engine = pooled_engine(def, limits);
  REQUIRE(engine.get() == used);
  Match match(def, *engine);
  REQUIRE(match.start(2, 2));
  CHECK_FALSE(match.answer(1));
  CHECK(match.result().finished);
  REQUIRE(match.start(2, 3));
  CHECK_THROWS_WITH(match.answer(2), Catch::Contains("memory cap of 32 MiB"));
}
