// Checkpoints (GameCheckpoint, Match::save / restore): a game saved at a
// decision and put back in place plays on exactly as it did, and exactly
// as the same game replayed from its start: the same events, answers,
// result and views (the rules' game.state included), byte for byte, on
// every bundled game.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "agents/agent.hpp"
#include "core/rng.hpp"
#include "inline_game.hpp"
#include "observation/event_view.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// Every event, as the all-seeing onlooker's JSON, once `on`.
struct EventText : EventSink {
  bool on = false;
  std::vector<std::string> lines;
  void on_event(const GameState& state, const Event& e) override {
    if (on) lines.push_back(event_json(state, e).dump());
  }
};

// Answers every waiting seat from `pick` until the game is over, or until
// `stop_at` answers are in (then a decision waits). Returns whether one does.
bool answer_until(Match& match, bool pending, Rng& pick, size_t stop_at = SIZE_MAX) {
  while (pending && match.answers().size() < stop_at) {
    const Seat seat = match.pending_seats().front();
    const int n = match.pending(seat).count();
    pending = match.answer(seat, static_cast<int>(pick.below(static_cast<uint32_t>(n))));
  }
  return pending;
}

struct Ending {
  std::vector<std::string> events;
  std::vector<std::pair<int, int>> answers;
  std::vector<std::string> views;  // each seat's, game.state included
  std::vector<int> winners;
  bool operator==(const Ending& o) const {
    return events == o.events && answers == o.answers && views == o.views && winners == o.winners;
  }
};

Ending ending_of(Match& match, const EventText& events, int players) {
  Ending e;
  e.events = events.lines;
  for (const auto& a : match.answers()) e.answers.emplace_back(a.seat.value(), a.index);
  for (Seat s : Seat::all(players)) e.views.push_back(match.view(s).dump());
  for (Seat w : match.result().winners) e.winners.push_back(w.value());
  return e;
}

}  // namespace

TEST_CASE("a game restored from a checkpoint plays on exactly as the same game replayed", "[checkpoint]") {
  for (const std::string& game : list_games()) {
    auto def = load_game(game);
    for (int players : {def->min_players, def->max_players}) {
      INFO(game << ", " << players << " players");
      const uint64_t seed = 7;
      // How long the game is with these answers: saved at its middle.
      size_t total = 0;
      {
        Match whole(def);
        whole.record_answers();
        Rng pick;
        pick.reseed(seed, 99);
        answer_until(whole, whole.start(players, seed), pick);
        total = whole.answers().size();
      }
      if (total < 2) continue;
      const size_t cut = total / 2;

      // A game of these answers stopped where `cut` are in, its events
      // noted from then on.
      auto stop_at_cut = [&](Match& m, EventText& events, Rng& pick) {
        m.record_answers();
        m.add_sink(&events);
        pick.reseed(seed, 99);
        REQUIRE(answer_until(m, m.start(players, seed), pick, cut));
      };
      Match match(def);
      EventText events;
      Rng pick;
      stop_at_cut(match, events, pick);
      GameCheckpoint saved;
      match.save(saved);
      CHECK(saved.heap_bytes() > 0);
      const Rng after = pick;  // the rest of the answers, the same each time
      // What the decision and the result were at the save: a restore puts
      // them back over what the last playing left (its finished result).
      const std::string result_at_save = match.result().details.dump() + match.result().summary;
      std::vector<std::string> labels_at_save;
      for (Seat s : match.pending_seats()) labels_at_save.push_back(match.pending(s).to_json().dump());

      // Played on from the checkpoint, three times, with restores between.
      std::vector<Ending> endings;
      for (int round = 0; round < 3; ++round) {
        if (round > 0) match.restore(saved);
        REQUIRE(match.answers().size() == cut);
        CHECK(match.result().details.dump() + match.result().summary == result_at_save);
        std::vector<std::string> labels;
        for (Seat s : match.pending_seats()) labels.push_back(match.pending(s).to_json().dump());
        CHECK(labels == labels_at_save);
        events.lines.clear();
        events.on = true;
        Rng rest = after;
        CHECK_FALSE(answer_until(match, true, rest));
        events.on = false;
        endings.push_back(ending_of(match, events, players));
      }
      CHECK(endings[1] == endings[0]);
      CHECK(endings[2] == endings[0]);

      // The same game replayed from its start, on a fresh engine.
      Match replayed(def);
      EventText replayed_events;
      Rng again;
      stop_at_cut(replayed, replayed_events, again);
      replayed_events.on = true;
      CHECK_FALSE(answer_until(replayed, true, again));
      const Ending fresh = ending_of(replayed, replayed_events, players);
      CHECK(fresh.events == endings[0].events);
      CHECK(fresh.answers == endings[0].answers);
      CHECK(fresh.views == endings[0].views);
      CHECK(fresh.winners == endings[0].winners);
      CHECK(fresh.events.size() > 1);
    }
  }
}

TEST_CASE("a checkpoint is restored only into the game that saved it, at a decision", "[checkpoint]") {
  auto def = load_game("hai-noon");
  Match match(def);
  GameCheckpoint none;
  CHECK(none.empty());
  REQUIRE(match.start(2, 3));
  CHECK_THROWS_AS(match.restore(none), std::logic_error);
  GameCheckpoint saved;
  match.save(saved);
  CHECK_FALSE(saved.empty());
  // A new game on the same match is another run.
  REQUIRE(match.start(2, 4));
  CHECK_THROWS_AS(match.restore(saved), std::logic_error);
  // Over, no decision waits.
  Rng pick;
  pick.reseed(1, 2);
  REQUIRE_FALSE(answer_until(match, true, pick));
  CHECK_THROWS_AS(match.save(saved), std::logic_error);
}

TEST_CASE("a restored game keeps its memory cap's count", "[checkpoint]") {
  // The cap counts the heap's bytes; a restore puts the count back with
  // them, so thousands of restores neither leak nor drift toward the cap.
  auto def = load_game("liars-dice");
  Match match(def);
  match.record_answers();
  REQUIRE(match.start(2, 5));
  GameCheckpoint saved;
  match.save(saved);
  const size_t bytes = saved.heap_bytes();
  const std::string view = match.view(Seat{0}).dump();
  for (int i = 0; i < 2000; ++i) {
    match.restore(saved);
    Rng pick;
    pick.reseed(static_cast<uint64_t>(i), 1);
    answer_until(match, true, pick);
  }
  match.restore(saved);
  CHECK(match.view(Seat{0}).dump() == view);
  match.save(saved);
  CHECK(saved.heap_bytes() <= bytes + 64 * 1024);
}

TEST_CASE("a restored decision shows its own labels, and the next decision its own", "[checkpoint]") {
  // Labels a checkpoint keeps (a string option, a table's own `label`) come
  // back with the heap; one built by a metatable is built again; and the
  // decision after it, which reuses the run's waiting entry, keeps nothing
  // of the restored one's.
  const test::TempGame game(test::one_die_game_yaml("labels", "Labels"), test::rules_lua(R"(  local round = 0
  while true do
    round = round + 1
    game.state.round = round
    local built = setmetatable({}, {__index = function(_, key)
      if key == "label" then return "built " .. game.state.round end
    end})
    game:choose(0, 'Pick', {{label = "kept " .. round}, "plain " .. round, built, round})
    if round == 3 then return game:finish{winners = {0}} end
  end)"));
  const auto def = load_game(game.dir());
  Match match(def);
  REQUIRE(match.start(2, 1));
  REQUIRE(match.answer(Seat{0}, 0));  // the second decision waits
  GameCheckpoint saved;
  match.save(saved);
  const std::vector<std::string> second{"kept 2", "plain 2", "built 2", "2"};
  CHECK(match.pending(Seat{0}).labels == second);
  for (int round = 0; round < 2; ++round) {
    match.restore(saved);
    CHECK(match.pending(Seat{0}).labels == second);
    std::vector<std::string> read;
    match.decide_pending(Seat{0}, [&](const Decision& d) {
      for (int i = 0; i < d.count(); ++i) read.push_back(d.label(i));
      return 0;
    });
    CHECK(read == second);
    REQUIRE(match.answer(Seat{0}, 1));
    CHECK(match.pending(Seat{0}).labels == std::vector<std::string>{"kept 3", "plain 3", "built 3", "3"});
  }
  // Saved again, at the third decision: its labels, none of the second's.
  match.save(saved);
  match.restore(saved);
  std::vector<std::string> read;
  match.decide_pending(Seat{0}, [&](const Decision& d) {
    for (int i = 0; i < d.count(); ++i) read.push_back(d.label(i));
    return 0;
  });
  CHECK(read == std::vector<std::string>{"kept 3", "plain 3", "built 3", "3"});
}

namespace {

// Pauses the game at its decisions while `pause` holds, else takes the first option.
struct PausingAgent : Agent {
  bool pause = true;
  std::string kind() const override { return "pausing"; }
  bool answers_at_once() const override { return true; }
  int choose(const Decision&) override { return pause ? kPause : 0; }
};

}  // namespace

TEST_CASE("two checkpoints of one game, restored in turn, each bring back their own decision", "[checkpoint]") {
  // A restore skips copying a waiting entry that is its own save's copy,
  // untouched (a search restores one decision every simulation and its
  // agents play the game out): restoring the other save, or the same one
  // after the entry served another decision, must still bring back that
  // save's decision.
  const test::TempGame game(test::one_die_game_yaml("saves", "Saves"), test::rules_lua(R"(  for round = 1, 4 do
    game:choose(0, 'Pick ' .. round, {{label = "kept " .. round}, "plain " .. round, round})
  end
  return game:finish{winners = {0}})"));
  const auto def = load_game(game.dir());
  Match match(def);
  auto agent = std::make_unique<PausingAgent>();
  PausingAgent& pausing = *agent;
  match.set_agent(Seat{0}, std::move(agent));
  match.set_agent(Seat{1}, std::make_unique<FirstAgent>());
  REQUIRE(match.start(2, 1));
  REQUIRE(match.answer(Seat{0}, 0));
  GameCheckpoint second, third;
  match.save(second);
  REQUIRE(match.answer(Seat{0}, 0));
  match.save(third);
  auto asked = [&match] {
    std::vector<std::string> seen;
    match.decide_pending(Seat{0}, [&](const Decision& d) {
      seen.emplace_back(d.prompt());
      for (int i = 0; i < d.count(); ++i) seen.push_back(d.label(i));
      return 0;
    });
    return seen;
  };
  const std::vector<std::string> at_second{"Pick 2", "kept 2", "plain 2", "2"};
  const std::vector<std::string> at_third{"Pick 3", "kept 3", "plain 3", "3"};
  pausing.pause = false;  // from now on the agent plays every game out
  for (int round = 0; round < 2; ++round) {
    match.restore(second);
    CHECK(asked() == at_second);
    match.restore(second);  // its entry waits, untouched: not copied again
    CHECK(asked() == at_second);
    REQUIRE_FALSE(match.answer(Seat{0}, 1));  // over: the restored entry is the last answered
    match.restore(third);   // that entry is the other save's copy
    CHECK(asked() == at_third);
    REQUIRE_FALSE(match.answer(Seat{0}, 2));
    match.restore(third);   // this save's copy, untouched
    CHECK(asked() == at_third);
    CHECK(match.pending(Seat{0}).labels == std::vector<std::string>{"kept 3", "plain 3", "3"});  // built now
    REQUIRE_FALSE(match.answer(Seat{0}, 0));
    match.restore(third);   // the built entry is copied again
    CHECK(asked() == at_third);
    REQUIRE_FALSE(match.answer(Seat{0}, 0));
  }
}
