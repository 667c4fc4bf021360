// The determinizer and the bots' no-peek worlds read what a seat knows
// from one model (observation/seat_knowledge.hpp): on small inline games,
// what they resample or exchange is what SeatKnowledge says the seat did
// not observe, and their results on those games.
#include <catch2/catch.hpp>

#include "capturing_agent.hpp"
#include "determinize/determinizer.hpp"
#include "inline_game.hpp"
#include "observation/seat_knowledge.hpp"
#include "play/bot_worlds.hpp"
#include "play/match.hpp"
#include "recorded_game.hpp"
#include "secret_games.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// Seat 0's first decision of a game with random agents elsewhere: what
// SeatKnowledge learnt of it from the true game (every event, a look at
// every decision, as the determinizer's first replay does), and the
// determinizer prepared there.
struct AtFirstDecision {
  SeatKnowledge knows;
  std::vector<int> unobserved;
  std::vector<std::pair<size_t, int>> free_answers;
  std::vector<nlohmann::json> events;
  bool agrees = false;
};

AtFirstDecision prepare_at_first_decision(const std::shared_ptr<const GameDefinition>& def, uint64_t seed) {
  AtFirstDecision out;
  out.knows.begin(Seat{0}, def->component_count());
  struct Capture : test::CapturingAgent {
    AtFirstDecision* out;
    int choose(const Decision& d) override {
      out->knows.look(truth->state());
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      Determinizer det(truth->definition_ptr());
      det.prepare(*truth, Seat{0}, events, labels);
      out->unobserved = det.unobserved();
      out->free_answers = det.free_answers();
      out->events = events;
      out->agrees = det.agrees();
      throw AgentFailure("enough");
    }
  } capture;
  capture.out = &out;
  Match match(def);
  match.add_sink(&out.knows);
  match.set_agent(Seat{0}, &capture);
  match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
  try {
    match.play(2, seed);
  } catch (const AgentFailure&) {
  }
  return out;
}

std::vector<int> not_observed(const GameDefinition& def, const SeatKnowledge& k) {
  std::vector<int> out;
  for (ComponentId id : ComponentId::all(def.component_count()))
    if (!k.observed(id) && !def.types[static_cast<size_t>(def.component_type[id.index()])].zone.empty())
      out.push_back(id.value());
  return out;
}

}  // namespace

TEST_CASE("the determinizer resamples what SeatKnowledge says the seat did not observe", "[knowledge][determinizer]") {
  {
    // Seat 0 saw all four cards, then the shuffle out of its sight: only
    // the card it drew is observed again.
    const test::TempGame game(test::kSeenThenShuffledYaml, test::kSeenThenShuffledLua);
    auto def = load_game(game.dir());
    const AtFirstDecision at = prepare_at_first_decision(def, 5);
    REQUIRE(at.agrees);
    CHECK(at.events == at.knows.events());  // what the agent received is what the model was shown
    CHECK(at.unobserved == not_observed(*def, at.knows));
    CHECK(at.unobserved.size() == 3u);
    for (int id : at.unobserved) CHECK(at.knows.ever_seen(ComponentId{id}));
    CHECK(at.free_answers.empty());
  }
  {
    // Seat 1's sealed number: redrawn among its five options.
    const test::TempGame game(test::kSealedBidYaml, test::kSealedBidLua);
    auto def = load_game(game.dir());
    const AtFirstDecision at = prepare_at_first_decision(def, 5);
    REQUIRE(at.agrees);
    CHECK(at.free_answers == at.knows.private_answers());
    CHECK(at.free_answers == std::vector<std::pair<size_t, int>>{{0, 5}});
    CHECK(at.unobserved.empty());
  }
}

TEST_CASE("the bots' no-peek worlds change what SeatKnowledge says the seat never saw", "[knowledge][no-peek]") {
  auto compare = [](const std::shared_ptr<const GameDefinition>& def) {
    RuleEngine engine(def);
    BotWorldsOptions o;
    o.make_bot = [] { return std::make_unique<test::TrueStateReader>(); };
    o.seeds = 0;  // only the worlds made from what the seat knows
    return compare_bot_in_worlds(def, engine, 2, 100, test::random_game_answers(def, engine, 2, 100), Seat{0}, o);
  };
  {
    // The other seat's private answer is the one thing redrawn: the
    // cheating bot is caught in that world.
    const test::TempGame game(test::kSealedBidYaml, test::kSealedBidLua);
    const BotWorldsResult r = compare(load_game(game.dir()));
    CHECK(r.peeked);
    CHECK(r.message.find("the other seats' private answers redrawn") != std::string::npos);
  }
  {
    // Seat 0 saw every card at some point (before the shuffle): no card is
    // one it never saw, so no identity world is made, and without other
    // chance seeds nothing is compared.
    const test::TempGame game(test::kSeenThenShuffledYaml, test::kSeenThenShuffledLua);
    const BotWorldsResult r = compare(load_game(game.dir()));
    CHECK_FALSE(r.peeked);
    CHECK(r.decisions_compared == 0);
    CHECK(r.worlds_compared + r.worlds_skipped == 0);
  }
}
