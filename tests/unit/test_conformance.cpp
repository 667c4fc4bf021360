// The conformance suite every game runs: random games of every player
// count and variant finish; a log replays event for event; a reused Lua
// state plays exactly like a fresh one; no view or event shows a seat
// anything it may not know.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "core/game_log.hpp"
#include "lua/rule_engine.hpp"
#include "setup/game_loader.hpp"
#include "setup/game_record.hpp"

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
  CHECK(state.view(seat) == twin.view(seat));
}

// A random bot that, at every decision, inspects every seat's view.
class InspectingAgent : public Agent {
 public:
  InspectingAgent(const GameState* state, RuleEngine* engine) : state_(state), engine_(engine) {}
  std::string kind() const override { return "random"; }
  void begin_game(uint64_t seed, int seat) override { random_.begin_game(seed, seat); }
  int choose(const Decision& d) override {
    if (inspections_ < 40) {  // enough to cover every phase without slowing the suite
      ++inspections_;
      for (int s = 0; s < state_->player_count(); ++s) {
        check_view(*state_, engine_->view(s), s, d.prompt());
        check_hidden_invariance(*state_, s, d.prompt());
      }
      check_view(*state_, d.view(), d.seat(), d.prompt());
    }
    return random_.choose(d);
  }

 private:
  const GameState* state_;
  RuleEngine* engine_;
  RandomAgent random_;
  int inspections_ = 0;
};

// Events as a seat receives them never name a component hidden from it.
class RedactionCheck : public EventSink {
 public:
  void on_event(const GameState& state, const Event& e) override {
    for (int s = 0; s < state.player_count(); ++s) {
      if (!(e.audience & seat_bit(s))) continue;
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

Played play_recorded(RuleEngine& engine, const GameDefinition& def, int players, uint64_t seed, bool inspect) {
  GameState state(def);
  EventRecorder recorder;
  RedactionCheck redaction;
  EventTee tee;
  tee.add(&recorder);
  if (inspect) tee.add(&redaction);
  state.set_sink(&tee);
  Played p;
  engine.set_answer_log(&p.answers);
  state.reset(players, seed);
  std::vector<std::unique_ptr<Agent>> owned;
  std::vector<Agent*> agents;
  for (int s = 0; s < players; ++s) {
    if (inspect) owned.push_back(std::make_unique<InspectingAgent>(&state, &engine));
    else owned.push_back(std::make_unique<RandomAgent>());
    agents.push_back(owned.back().get());
  }
  p.result = engine.play(state, agents);
  p.events = recorder.events();
  engine.set_answer_log(nullptr);
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
          Played p = play_recorded(engine, *def, players, seed, g == 0);
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
            Played q = play_recorded(fresh, *def, players, seed, false);
            CHECK(q.events == p.events);
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("conformance: pass-the-pandas", "[conformance]") { check_conformance("pass-the-pandas", 3); }
TEST_CASE("conformance: hai-noon", "[conformance]") { check_conformance("hai-noon", 3); }
TEST_CASE("conformance: hao-hao", "[conformance]") { check_conformance("hao-hao", 3); }
