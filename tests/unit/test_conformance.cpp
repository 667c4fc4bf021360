// The conformance suite every game runs: random games of every player
// count and variant finish; a log replays event for event; a reused Lua
// state plays exactly like a fresh one; no view or event shows a seat
// anything it may not know.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "observation/view.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

// Every component id a view shows must be one the seat may know.
void check_view(const GameState& state, const json& v, int seat, const std::string& where) {
  if (v.is_object()) {
    if (v.contains("id") && v.at("id").is_number_integer()) {
      const int id = v.at("id").get<int>();
      INFO(where << ": view of seat " << seat << " shows component " << id);
      CHECK(state.visible_to(id, seat));
    }
    if (v.contains("hidden")) CHECK_FALSE(v.contains("type"));
    for (const auto& [k, item] : v.items()) check_view(state, item, seat, where);
  } else if (v.is_array()) {
    for (const auto& item : v) check_view(state, item, seat, where);
  }
}

// A seat's view must not change when the identities of components hidden
// from it are exchanged: swap the type and face of two hidden components of
// different types in a copy of the state and compare the views.
void check_hidden_invariance(const GameState& state, int seat, const std::string& where) {
  int a = -1, b = -1;
  for (int id = 0; id < state.component_count() && b < 0; ++id) {
    if (state.visible_to(id, seat) || state.component(id).zone < 0) continue;
    if (a < 0) a = id;
    else if (state.component(id).type != state.component(a).type) b = id;
  }
  if (b < 0) return;
  GameState twin = state;
  twin.set_sink(nullptr);
  std::swap(twin.mutable_component(a).type, twin.mutable_component(b).type);
  std::swap(twin.mutable_component(a).face, twin.mutable_component(b).face);
  INFO(where << ": seat " << seat << " can tell components " << a << " and " << b << " apart");
  CHECK(seat_view(state, seat) == seat_view(twin, seat));
}

// A random bot that, at every decision, inspects every seat's view.
class InspectingAgent : public Agent {
 public:
  explicit InspectingAgent(const Match* match) : match_(match) {}
  std::string kind() const override { return "random"; }
  void begin_game(uint64_t stream_seed, Seat seat) override { random_.begin_game(stream_seed, seat); }
  int choose(const Decision& d) override {
    if (inspections_ < 40) {  // enough to cover every phase without slowing the suite
      ++inspections_;
      const GameState& state = match_->state();
      for (int s = 0; s < state.player_count(); ++s) {
        check_view(state, match_->view(s), s, d.prompt());
        check_hidden_invariance(state, s, d.prompt());
      }
      check_view(state, d.view(), d.seat(), d.prompt());
    }
    return random_.choose(d);
  }

 private:
  const Match* match_;
  RandomAgent random_;
  int inspections_ = 0;
};

// Events as a seat receives them never name a component hidden from it.
class RedactionCheck : public EventSink {
 public:
  void on_event(const GameState& state, const Event& e) override {
    for (int s = 0; s < state.player_count(); ++s) {
      if (!can_see(e, s)) continue;
      const json j = event_json(state, e, s);
      if (j.contains("component") && j.at("component").is_number_integer())
        CHECK(state.visible_to(j.at("component").get<int>(), s));
    }
  }
};

struct Played {
  GameResult result;
  std::vector<json> events;
  std::vector<AnswerRecord> answers;
};

Played play_recorded(RuleEngine& engine, std::shared_ptr<const GameDefinition> def, int players, uint64_t seed,
                     bool inspect) {
  Match match(std::move(def), engine);
  EventRecorder recorder;
  RedactionCheck redaction;
  match.add_sink(&recorder);
  if (inspect) match.add_sink(&redaction);
  match.record_answers();
  for (int s = 0; s < players; ++s) {
    if (inspect) match.set_agent(s, std::make_unique<InspectingAgent>(&match));
    else match.set_agent(s, std::make_unique<RandomAgent>());
  }
  Played p;
  p.result = match.play(players, seed);
  p.events = recorder.events();
  p.answers = match.answers();
  return p;
}

void check_conformance(const std::string& game, int games_per_config) {
  auto base = load_game(game);
  std::vector<std::vector<std::string>> configs{{}};
  for (const auto& v : list_variants(base->dir)) configs.push_back({v.name});
  for (const auto& variants : configs) {
    auto def = load_game(game, LoadOptions{variants, {}});
    for (int players = def->min_players; players <= def->max_players; ++players) {
      const std::string label = fmt::format("{} {} players {}", game, players, fmt::join(variants, "+"));
      SECTION(label) {
        RuleEngine engine(def);  // one Lua state for every game of this config
        for (int g = 0; g < games_per_config; ++g) {
          const uint64_t seed = 1000 + 17 * g + players;
          INFO(label << " seed " << seed);
          Played p = play_recorded(engine, def, players, seed, g == 0);
          CHECK(p.result.finished);
          CHECK(p.result.turns > 0);

          // The log replays event for event.
          GameState state(*def);
          state.reset(players, seed);
          GameSpec spec{game, variants, {}, players, seed, {}};
          json log = make_log(spec, state, p.result, p.answers, p.events,
                              std::vector<std::string>(players, "random"));
          log.erase("result");  // `state` is not the game's final state; a log may omit it
          const ReplayReport report = replay_log(log);
          INFO(report.message);
          CHECK(report.ok);

          // A fresh Lua state plays the same game identically (isolation).
          if (g == games_per_config - 1) {
            RuleEngine fresh(def);
            Played q = play_recorded(fresh, def, players, seed, false);
            CHECK(q.events == p.events);
          }
        }
      }
    }
  }
}

}  // namespace

// One test for every game folder under rules/: a new game is checked the
// moment its folder exists.
TEST_CASE("conformance: every bundled game", "[conformance]") {
  const std::vector<std::string> games = list_games();
  REQUIRE_FALSE(games.empty());
  const std::string game = GENERATE_COPY(from_range(games));
  check_conformance(game, 3);
}
