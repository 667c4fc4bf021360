// Decisions as yields: a game driven one answer at a time, forked by
// replaying answers, and observed by agents that see only their share.
#include <time.h>

#include <algorithm>
#include <cstdio>

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
    REQUIRE_FALSE(d.seat.is_none());
    REQUIRE(d.labels.size() >= 2);
    CHECK_FALSE(d.prompt.empty());
    // The request is whole: the seat's view comes with it.
    REQUIRE(d.view.is_object());
    CHECK(d.view.at("seat") == d.seat.value());
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

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Plays `seed` with every seat paused, answering by `pick`, until `cut`
// answers are given (or the game ends).
bool play_to(Match& match, int players, uint64_t seed, size_t cut) {
  Rng pick;
  pick.reseed(seed, 99);
  bool pending = match.start(players, seed);
  while (pending && match.answers().size() < cut)
    pending = match.answer(static_cast<int>(pick.below(static_cast<uint32_t>(match.pending().count()))));
  return pending;
}

}  // namespace

TEST_CASE("Match::fork replays the game so far on the same engine and plays on like it", "[step][fork]") {
  for (const char* game : {"pass-the-pandas", "hai-noon", "hao-hao"}) {
    INFO(game);
    auto def = load_game(game);
    Match match(def);
    EventRecorder recorder;
    match.add_sink(&recorder);
    match.record_answers();
    // A game long enough to fork half way (a whole game first, to count).
    uint64_t seed = 11;
    while (play_to(match, 4, seed, SIZE_MAX), match.answers().size() < 6) ++seed;
    const size_t cut = match.answers().size() / 2;
    REQUIRE(play_to(match, 4, seed, cut));
    auto fork = match.fork();
    CHECK(&fork->engine() == &match.engine());  // no new Lua state
    CHECK(fork->answers().size() == match.answers().size());
    // The fork's request is whole, and the same as the original's.
    CHECK(fork->pending().to_json() == match.pending().to_json());
    CHECK(fork->view(Seat{0}) == match.view(Seat{0}));
    // Both play on with the same answers to the same end, interleaved on one engine.
    bool a = true, b = true;
    int turn = 0;
    while (a && b) {
      const int index = turn++ % match.pending().count();
      a = match.answer(index);
      b = fork->answer(index % fork->pending().count());
      REQUIRE(a == b);
      if (a) CHECK(fork->pending().to_json() == match.pending().to_json());
    }
    CHECK(fork->result().finished);
    CHECK(fork->result().winners == match.result().winners);
    CHECK(fork->result().turns == match.result().turns);
    // A fork of a fork, and a fork of a game that is over.
    auto again = fork->fork();
    CHECK(again->result().finished);
    CHECK(again->answers().size() == fork->answers().size());
  }
}

TEST_CASE("Match::fork needs the answers and no forced chance", "[step][fork]") {
  auto def = load_game("pass-the-pandas");
  Match match(def);
  CHECK_THROWS_AS(match.fork(), std::logic_error);  // no game yet
  match.start(3, 5);
  CHECK_THROWS_WITH(match.fork(), Catch::Contains("record_answers"));
  struct NoForcing : ChanceOverride {
    bool forced_roll(const GameState&, ComponentId, int&) override { return false; }
    bool forced_shuffle(const GameState&, int, std::vector<ComponentId>&) override { return false; }
  } chance;
  match.record_answers();
  match.set_chance_override(&chance);
  match.start(3, 5);
  CHECK_THROWS_WITH(match.fork(), Catch::Contains("forced chance"));
}

// Fork cost at mid-game for each bundled game (README, "Performance").
// Hidden: a measurement, not a test (no timing assertions in tests). Run it:
//   build/tests/tests_play "[.fork-cost]"
TEST_CASE("fork cost at mid-game", "[.fork-cost]") {
  constexpr int kRepeats = 21;
  std::printf("%-16s %9s %14s %18s %10s\n", "game", "answers", "fork (µs CPU)", "new engine (µs CPU)", "ratio");
  for (const char* game : {"pass-the-pandas", "hai-noon", "hao-hao"}) {
    auto def = load_game(game);
    Match match(def);
    match.record_answers();
    play_to(match, 4, 3, SIZE_MAX);  // the whole game: how many answers it takes
    const size_t cut = match.answers().size() / 2;
    REQUIRE(play_to(match, 4, 3, cut));
    std::vector<double> fork_times, fresh_times;
    for (int r = 0; r < kRepeats; ++r) {
      double t0 = cpu_seconds();
      auto fork = match.fork();
      fork_times.push_back(cpu_seconds() - t0);
      REQUIRE(fork->pending().seat == match.pending().seat);
      // The old way: a new engine (Lua state, rules loaded), the answers replayed.
      t0 = cpu_seconds();
      Match fresh(def);
      bool pending = fresh.start(4, 3);
      for (const auto& a : match.answers()) pending = pending && fresh.answer(a.index);
      fresh_times.push_back(cpu_seconds() - t0);
      REQUIRE(pending);
    }
    const double f = median(fork_times) * 1e6, n = median(fresh_times) * 1e6;
    std::printf("%-16s %9zu %14.0f %18.0f %9.1fx\n", game, cut, f, n, n / f);
  }
}
