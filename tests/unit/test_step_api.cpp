// Decisions as yields: a game driven one answer at a time, forked by
// replaying answers, and observed by agents that see only their share.
#include <catch2/catch.hpp>

#include "observation/event_recorder.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

struct Recorded {
  std::vector<nlohmann::json> events;
  std::vector<AnswerRecord> answers;
  GameResult result;
};

// Plays with no agents at all: every decision pauses the game.
Recorded play_stepwise(std::shared_ptr<const GameDefinition> def, uint64_t seed, int players,
                       const std::vector<AnswerRecord>* forced = nullptr) {
  Match match(def);
  EventRecorder recorder;
  match.add_sink(&recorder);
  match.record_answers();
  Recorded r;
  Rng pick;
  pick.reseed(seed, 99);
  size_t next = 0;
  bool pending = match.start(players, seed);  // no agents: every decision pauses
  while (pending) {
    const DecisionRequest& d = match.pending();
    REQUIRE(d.seat >= 0);
    REQUIRE(d.labels.size() >= 2);
    CHECK_FALSE(d.prompt.empty());
    // The request is whole: the seat's view comes with it.
    REQUIRE(d.view.is_object());
    CHECK(d.view.at("seat") == d.seat);
    int index;
    if (forced && next < forced->size()) {
      CHECK((*forced)[next].seat == d.seat);
      index = (*forced)[next++].index;
    } else {
      index = static_cast<int>(pick.below(static_cast<uint32_t>(d.labels.size())));
    }
    pending = match.answer(index);
  }
  r.result = match.result();
  r.answers = match.answers();
  r.events = recorder.events();
  return r;
}

class Observer : public Agent {
 public:
  std::string kind() const override { return "observer"; }
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& e) override { seen.push_back(e); }
  int choose(const Decision& d) override { return d.count() - 1; }
  std::vector<nlohmann::json> seen;
};

}  // namespace

TEST_CASE("step API: a game paused at every decision plays to the end", "[step]") {
  auto def = load_game("pass-the-pandas");
  Recorded r = play_stepwise(def, 42, 4);
  CHECK(r.result.finished);
  CHECK_FALSE(r.answers.empty());
  // Driving with the same answers gives the same game (a replay).
  Recorded again = play_stepwise(def, 42, 4, &r.answers);
  CHECK(again.events == r.events);
}

TEST_CASE("step API: forking at a decision point replays the answers so far", "[step]") {
  auto def = load_game("pass-the-pandas");
  Recorded full = play_stepwise(def, 7, 3);
  REQUIRE(full.answers.size() >= 4);
  const size_t cut = full.answers.size() / 2;
  std::vector<AnswerRecord> prefix(full.answers.begin(), full.answers.begin() + cut);

  // The fork: a new state with the same seed, the prefix replayed, then
  // different choices from there on.
  Match match(def);
  bool pending = match.start(3, 7);
  for (const auto& a : prefix) {
    REQUIRE(pending);
    CHECK(match.pending().seat == a.seat);
    pending = match.answer(a.index);
  }
  REQUIRE(pending);
  CHECK(match.pending().seat == full.answers[cut].seat);
  while (pending) pending = match.answer(0);
  CHECK(match.result().finished);
  CHECK_THROWS_AS(match.answer(0), std::logic_error);
}

TEST_CASE("observing agents receive the events their seat may see", "[step]") {
  auto def = load_game("pass-the-pandas");
  Match match(def);
  Observer a, b;
  match.set_agents({&a, &b});
  GameResult result = match.play(2, 5);
  CHECK(result.finished);
  REQUIRE_FALSE(a.seen.empty());
  CHECK(a.seen.size() == b.seen.size());  // nothing is hidden in this game
  bool saw_roll = false;
  for (const auto& e : a.seen) saw_roll = saw_roll || e.at("type") == "roll";
  CHECK(saw_roll);
  // Without observers the state's sink is untouched afterwards.
  CHECK(match.state().sink() == nullptr);
}
