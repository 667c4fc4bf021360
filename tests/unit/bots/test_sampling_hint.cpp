// The optional sampling hint, rules.deal_unseen(game, seat, unseen): a
// game may deal the components its seat never observed itself (Hao Hao
// keeps the removed types in the box); the runtime checks every deal and
// falls back to generic sampling, with a warning, when a hint answers
// wrongly, fails, changes the game or deals something the seat's replay
// contradicts. A deal is applied at the seat's saved decision; the
// decision's first deals and a sample of the rest are checked from the
// start, and all of them after a rejection.
#include <catch2/catch.hpp>

#include <mutex>
#include <set>

#include "capturing_agent.hpp"
#include "play/match.hpp"
#include "determinize/determinizer.hpp"
#include "bots/agent_factory.hpp"
#include "bots/search_agent.hpp"
#include "setup/game_loader.hpp"
#include "inline_game.hpp"
#include "observation/view.hpp"
#include "seat_decisions.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

struct Enough : AgentFailure {
  Enough() : AgentFailure("enough decisions") {}
};

struct Stop : SimulationPolicy {
  int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
};

// What a determinizer made of seat 0's sixth decision in a two-player
// game (seat 1 random, seed 3): `samples` samples, each checked by the
// rejection test (a replay from the start shows the seat what it saw).
struct Probed {
  HintStats hint;
  int samples = 0, dealt = 0, dealt_alike = 0, generic_alike = 0, accepted = 0;
  int box_right = 0;  // dealt samples whose box holds only the removed types
};

Probed probe(const std::string& game, const std::vector<std::string>& variants, bool hint = true, int samples = 12) {
  LoadOptions options;
  options.variants = variants;
  auto def = load_game(game, options);
  struct Seat0 : test::CapturingAgent {
    Probed out;
    bool hint = true;
    int samples = 0, n = 0;
    int choose(const Decision& d) override {
      if (++n < 6) return random.choose(d);
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      Determinizer det(truth->definition_ptr());
      det.use_hint(hint);
      det.prepare(*truth, Seat{0}, events, labels);
      REQUIRE(det.agrees());
      // The box's components and the removed types (the test may look).
      const GameState& t = truth->state();
      std::vector<ComponentId> box;
      for (int slot = 0; slot < static_cast<int>(t.definition().zone_def_of.size()); ++slot)
        if (t.zone_id(slot) == "box") box = t.zone(slot);
      std::set<std::string> removed;
      for (const auto& name : t.definition().options.at("remove")) removed.insert(name.get<std::string>());
      Rng rng(9);
      for (int k = 0; k < samples; ++k) {
        const Sample s = det.sample(rng);
        ++out.samples;
        if (det.replays_alike(s.identities)) ++out.generic_alike;
        if (!s.dealt.empty()) {
          ++out.dealt;
          if (det.replays_alike(s.dealt)) ++out.dealt_alike;
          bool right = true;
          for (ComponentId id : box) {
            const auto& type = t.definition().types[static_cast<size_t>(
                t.definition().component_type[static_cast<size_t>(s.dealt[id.index()])])];
            if (type.kind == "tile" && type.zone == "bag" && !removed.count(type.name)) right = false;
          }
          if (right) ++out.box_right;
        }
        Stop stop;
        if (det.simulate(s, 1, stop) == Determinizer::Outcome::Cutoff) ++out.accepted;
      }
      out.hint = det.hint_stats();
      throw Enough();
    }
  } seat0;
  seat0.hint = hint;
  seat0.samples = samples;
  Match match(def);
  match.set_agent(Seat{0}, &seat0);
  match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
  CHECK_THROWS_AS(match.play(2, 3), AgentFailure);
  CHECK(seat0.n == 6);
  return seat0.out;
}

// Warnings the search layer gives, collected for one test.
struct Warnings {
  std::mutex mutex;
  std::vector<std::string> said;
  Warnings() {
    set_search_warning_handler([this](const std::string& w) {
      std::lock_guard<std::mutex> lock(mutex);
      said.push_back(w);
    });
  }
  ~Warnings() { set_search_warning_handler(nullptr); }
  std::string all() {
    std::string text;
    for (const auto& w : said) text += w + "\n";
    return text;
  }
};

}  // namespace

TEST_CASE("Hao Hao's sampling hint keeps the removed types in the box, and its deals pass the rejection test",
          "[search][hint]") {
  const Probed with = probe("hao-hao", {});
  CHECK(with.samples == 12);
  CHECK(with.dealt == 12);
  CHECK(with.box_right == 12);     // without the hint, the box gets any type
  CHECK(with.dealt_alike == 12);   // every deal agrees with everything the seat saw
  CHECK(with.accepted == 12);
  CHECK(with.hint.rejected == 0);
  CHECK(with.hint.failures == 0);
  CHECK(with.hint.problem.empty());
  // Generic samples of the same decision mostly fail that test (the box
  // holds other types, so other tiles reach the field than the seat saw).
  CHECK(with.generic_alike < 6);
  // ismcts:hint=0: generic samples only.
  const Probed without = probe("hao-hao", {}, false);
  CHECK(without.dealt == 0);
  CHECK(without.accepted == 12);
}

TEST_CASE("a wrong sampling hint is turned off or overruled, with a warning, and the bot samples generically",
          "[search][hint]") {
  const test::DefectiveGame game("hao-hao", "bad-hints");
  struct Case {
    std::string variant, warning;
    bool turned_off;
  };
  const std::vector<Case> cases{
      {"hint-not-a-permutation", "twice: it must answer each unseen component once", true},
      {"hint-other-kind", "of another kind or start zone", true},
      {"hint-fails", "no deal today", true},
      {"hint-changes-game", "changed the game", true},
      {"hint-wrong-answer", "returned a number; it must return the unseen components", true},
      {"hint-shows-more", "showed seat 0 something it did not see", false},
  };
  for (const auto& c : cases) {
    INFO(c.variant);
    Warnings warnings;
    const Probed p = probe(game.dir(), {c.variant});
    INFO(warnings.all());
    CHECK(p.accepted == 12);  // every sample still played: generic instead
    CHECK_THAT(warnings.all(), Catch::Contains(c.warning) && Catch::Contains("rules.deal_unseen(game, 0)"));
    CHECK_THAT(p.hint.problem, Catch::Contains(c.warning));
    if (c.turned_off) {
      CHECK(p.hint.failures == 1);
      CHECK(p.dealt == 0);  // off from the first deal on
    } else {
      CHECK(p.hint.failures == 0);
      CHECK(p.dealt == 12);
      CHECK(p.dealt_alike == 0);
      CHECK(p.hint.rejected == 12);
    }
  }
}

TEST_CASE("search bots use the sampling hint in play, and still choose alike when hidden identities are swapped",
          "[search][hint][no-peek]") {
  // The no-peek test of test_search.cpp covers Hao Hao with its hint;
  // here: the hint is really used in play, and a game plays to the end.
  auto def = load_game("hao-hao");
  Match match(def);
  auto bot = build_agent("ismcts:iterations=20,depth=5");
  Agent* b = bot.get();
  match.set_agent(Seat{0}, std::move(bot));
  match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
  match.set_turn_limit(12);
  match.play(2, 5);
  const SearchStats* stats = search_stats(*b);
  REQUIRE(stats);
  CHECK(stats->decisions > 0);
  CHECK(stats->hint.dealt >= stats->iterations);  // every iteration on a deal
  CHECK(stats->hint.rejected == 0);
  CHECK(stats->rejections == 0);
}

namespace {

// A rollout that notes what seat 0 may see and what is asked at each of
// its first `decisions` decisions, choosing on a fixed stream, then cuts
// the game off.
struct Recording : SimulationPolicy {
  Rng rng{17};
  int left;
  std::vector<json> seen;
  explicit Recording(int decisions) : left(decisions) {}
  int choose(const Decision& d, GameState& state) override {
    if (left-- == 0) throw SearchCutoff();
    json step{{"seat", d.seat().value()}, {"prompt", d.prompt()}, {"view", seat_view(state, Seat{0})}};
    for (int i = 0; i < d.count(); ++i) step["options"].push_back(d.label(i));
    seen.push_back(std::move(step));
    return static_cast<int>(rng.below(static_cast<uint32_t>(d.count())));
  }
};

}  // namespace

TEST_CASE("a hinted sample started from the saved decision shows the seat what the same deal played from the start does",
          "[search][hint]") {
  for (const auto& [players, seed] : std::vector<std::pair<int, uint64_t>>{{2, 3}, {3, 9}, {4, 3}}) {
    INFO(players << " players, seed " << seed);
    int compared = 0, differ_from_generic = 0;
    const int reached = test::at_seat0_decisions("hao-hao", {}, players, seed, {3, 6, 9}, [&](Determinizer& det, const Match&) {
      REQUIRE(det.restores());
      Rng rng(5);
      for (int k = 0; k < 4; ++k) {
        Sample s = det.sample(rng);
        REQUIRE(!s.dealt.empty());
        s.checked = false;  // applied at the saved decision
        Recording at_decision(1000);
        const auto a = det.simulate(s, 77, at_decision);
        CHECK(det.last_restored());
        const std::vector<double> rewards_at_decision = det.rewards();
        s.checked = true;  // played from the start, compared with what the seat saw
        Recording from_start(1000);
        const auto b = det.simulate(s, 77, from_start);
        CHECK_FALSE(det.last_restored());
        CHECK(b != Determinizer::Outcome::Rejected);
        CHECK(a == b);
        CHECK(at_decision.seen.size() > 4);
        CHECK(at_decision.seen == from_start.seen);
        CHECK(det.rewards() == rewards_at_decision);
        // The deal is what is applied, not the generic draw under it.
        Sample generic = s;
        generic.dealt.clear();
        Recording drawn(12);
        (void)det.simulate(generic, 77, drawn);
        if (drawn.seen != at_decision.seen) ++differ_from_generic;
        ++compared;
      }
    });
    CHECK(reached == 3);
    CHECK(compared == 12);
    CHECK(differ_from_generic > 0);
  }
}

TEST_CASE("a hinted sample ends at the saved decision where the same deal from the start ends: Hao Hao's dead field reads the tiles",
          "[search][hint]") {
  // Seat 0's 22nd decision of seed 1 (the others random), the 4th sample:
  // its deal puts tiles of other types face down on the field than the
  // replayed game had there. rules.dead_field judged the field by the
  // script's picture of it (game.on_field, built at setup from the replayed
  // game's tiles), so the game played from the decision ended after 164
  // decisions, and the same deal from the start after 275.
  const int reached = test::at_seat0_decisions("hao-hao", {}, 2, 1, {22}, [&](Determinizer& det, const Match&) {
    REQUIRE(det.restores());
    Rng rng(5);
    for (int k = 0; k < 4; ++k) {
      Sample s = det.sample(rng);
      REQUIRE(!s.dealt.empty());
      s.checked = false;
      Recording at_decision(100000);
      at_decision.rng = Rng(static_cast<uint64_t>(k));  // the rollouts' choices
      const auto a = det.simulate(s, 77, at_decision);
      const std::vector<double> rewards_at_decision = det.rewards();
      s.checked = true;
      Recording from_start(100000);
      from_start.rng = Rng(static_cast<uint64_t>(k));
      const auto b = det.simulate(s, 77, from_start);
      INFO("sample " << k);
      CHECK(a == b);
      CHECK(at_decision.seen.size() == from_start.seen.size());
      CHECK(at_decision.seen == from_start.seen);
      CHECK(det.rewards() == rewards_at_decision);
    }
  });
  CHECK(reached == 1);
}

TEST_CASE("deals applied at the saved decision are still checked: the first ones, a sample of the rest, all after a rejection",
          "[search][hint]") {
  Stop stop;
  SECTION("the bundled hint: every checked deal passes, most deals are not checked") {
    test::at_seat0_decisions("hao-hao", {}, 2, 3, {6}, [&](Determinizer& det, const Match&) {
      Rng rng(9);
      long flagged = 0;
      for (int k = 0; k < 96; ++k) {
        const Sample s = det.sample(rng);
        REQUIRE(!s.dealt.empty());
        if (k < Determinizer::kFirstChecked) CHECK(s.checked);
        flagged += s.checked;
        CHECK(det.simulate(s, 1, stop) == Determinizer::Outcome::Cutoff);
        CHECK(det.last_restored() == !s.checked);
      }
      const HintStats& hint = det.hint_stats();
      CHECK(hint.dealt == 96);
      CHECK(hint.checked == flagged);
      CHECK(hint.rejected == 0);
      // The first four, and about one in sixteen of the other 92.
      CHECK(flagged > Determinizer::kFirstChecked);
      CHECK(flagged < 24);
    });
  }
  SECTION("a hint wrong in one deal of four is caught, and every later deal of the decision checked") {
    const test::DefectiveGame game("hao-hao", "bad-hints");
    int decisions = 0;
    test::at_seat0_decisions(game.dir(), {"hint-sometimes-wrong"}, 2, 3, {6, 9}, [&](Determinizer& det, const Match&) {
      ++decisions;
      Rng rng(9);
      const HintStats start = det.hint_stats();
      bool after_rejection = false;
      int unflagged_checked = 0;
      for (int k = 0; k < 48; ++k) {
        const Sample s = det.sample(rng);
        REQUIRE(!s.dealt.empty());
        const HintStats before = det.hint_stats();
        // Every sample is played: a rejected deal by the generic draw.
        CHECK(det.simulate(s, 1, stop) == Determinizer::Outcome::Cutoff);
        const HintStats& after = det.hint_stats();
        if (after_rejection || s.checked) CHECK(after.checked == before.checked + 1);
        else CHECK(after.checked == before.checked);
        if (after_rejection && !s.checked) ++unflagged_checked;
        after_rejection |= after.rejected > before.rejected;
      }
      const HintStats& end = det.hint_stats();
      INFO("decision " << decisions << ": " << end.checked - start.checked << " checked, "
                       << end.rejected - start.rejected << " rejected");
      CHECK(after_rejection);
      CHECK(unflagged_checked > 0);  // deals the stream would not have checked were
      // About a quarter of the checked deals are wrong, and each one is caught.
      CHECK(end.rejected - start.rejected >= 4);
      CHECK(end.failures == 0);  // not mostly rejected: the hint stays on
      CHECK_THAT(end.problem, Catch::Contains("showed seat 0 something it did not see"));
    });
    CHECK(decisions == 2);
  }
}
