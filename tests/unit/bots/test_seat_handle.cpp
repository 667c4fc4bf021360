// A searching agent's handle to its game (GameAccess) is sealed: its type
// reads nothing of the true game (the chance seed, the answers, the
// identities), and no cast gets from it to the Match behind it. The bots
// search worlds the runtime's sampler makes for them; the tests reach the
// truth through their own door (truth_door.hpp).
#include <catch2/catch.hpp>

#include <type_traits>

#include "agents/agent.hpp"
#include "bots/agent_factory.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"
#include "truth_door.hpp"

using namespace rulebook;

// No virtual function: dynamic_cast from it does not compile; final: no
// agent-side subclass reads its record; no Match is one.
static_assert(std::is_final_v<GameAccess>);
static_assert(!std::is_polymorphic_v<GameAccess>);
static_assert(!std::is_base_of_v<GameAccess, Match>);
static_assert(!std::is_convertible_v<const GameAccess*, const TrueGame*>);

namespace {

struct Holder : Agent {
  const GameAccess* handle = nullptr;
  std::string kind() const override { return "holder"; }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { handle = g; }
  int choose(const Decision&) override { return 0; }
};

}  // namespace

TEST_CASE("a searching agent is handed a sealed handle, not the match", "[handle]") {
  auto def = load_game("liars-dice");
  Match match(def);
  Holder holder;
  FirstAgent first;
  match.set_agent(Seat{0}, &holder);
  match.set_agent(Seat{1}, &first);
  match.play(2, 3);
  REQUIRE(holder.handle != nullptr);
  CHECK(static_cast<const void*>(holder.handle) != static_cast<const void*>(&match));
  CHECK(holder.handle->definition_ptr().get() == def.get());  // the rules: the seat may know them
  // Only the tests' door reaches the game behind it.
  CHECK(test::TruthDoor::match(holder.handle) == &match);
}

TEST_CASE("the search bots play through the sealed handle", "[handle]") {
  auto def = load_game("goofspiel");
  for (const char* spec : {"greedy", "mcts:iterations=20", "ismcts:iterations=20", "ismcts:iterations=20,oracle=1"}) {
    INFO(spec);
    Match match(def);
    auto bot = build_agent(spec);
    RandomAgent other;
    match.set_agent(Seat{0}, bot.get());
    match.set_agent(Seat{1}, &other);
    CHECK_NOTHROW(match.play(2, 5));
    CHECK(match.answers().size() > 2);
  }
}
