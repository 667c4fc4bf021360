// Samples that start from a checkpoint (issue 38, item 5): at a
// simultaneous decision (saved where it is asked, before any seat answers)
// and with other seats' private answers redrawn (saved where the first
// redrawn answer is asked). Each is the game a replay from the start plays:
// the same draws give the same simulated answers and rewards, the same
// redrawn answers are accepted or rejected alike (the seat is shown the
// same), and a checkpoint never goes into another game.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "capturing_agent.hpp"
#include "determinize/determinizer.hpp"
#include "inline_game.hpp"
#include "play/match.hpp"
#include "secret_games.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// Seat `seat` of a game answers `script` (then at random), and at its
// decision number `at` (0-based) hands what it saw to `examine`.
struct Examiner : test::CapturingAgent {
  size_t at = 0;
  std::vector<int> script;
  std::function<void(const Match&, const std::vector<nlohmann::json>&, const std::vector<std::string>&)> examine;
  size_t asked = 0;
  int choose(const Decision& d) override {
    if (asked == at) {
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      examine(*truth, events, labels);
      throw AgentFailure("enough decisions");
    }
    const size_t k = asked++;
    return k < script.size() ? script[k] % d.count() : random.choose(d);
  }
};

// Plays `def` with `examiner` at `seat` and random agents elsewhere; true
// when the examiner was reached.
bool examine_at(const std::shared_ptr<const GameDefinition>& def, int players, uint64_t seed, Seat seat,
                Examiner& examiner) {
  bool reached = false;
  auto inner = examiner.examine;
  examiner.examine = [&](const Match& m, const std::vector<nlohmann::json>& e, const std::vector<std::string>& l) {
    reached = true;
    inner(m, e, l);
  };
  Match match(def);
  for (Seat s : Seat::all(players))
    if (s == seat) match.set_agent(s, &examiner);
    else match.set_agent(s, std::make_unique<RandomAgent>());
  try {
    match.play(players, seed);
  } catch (const AgentFailure&) {  // the examiner's Enough, as the rules engine passes it on
    if (!reached) throw;
  }
  examiner.examine = inner;
  return reached;
}

// A policy drawing uniformly from its own stream: the same stream, the same
// choices, whichever way the simulation started.
struct Draw : SimulationPolicy {
  Rng rng;
  explicit Draw(uint64_t seed) : rng(seed) {}
  int choose(const Decision& d, GameState&) override { return static_cast<int>(rng.below(static_cast<uint32_t>(d.count()))); }
};

struct Stop : SimulationPolicy {
  int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
};

std::vector<std::pair<int, int>> answers_of(Determinizer& det) {
  std::vector<std::pair<int, int>> out;
  for (const auto& a : det.match().answers()) out.emplace_back(a.seat.value(), a.index);
  return out;
}

// One simulation on each determinizer with the same sample, chance and
// policy stream: the same outcome, rewards and simulated answers.
void same_simulation(Determinizer& restoring, Determinizer& replaying, const Sample& s, uint64_t k) {
  Draw a(k), b(k);
  const auto outcome = restoring.simulate(s, 100 + k, a);
  CHECK(outcome == replaying.simulate(s, 100 + k, b));
  if (outcome != Determinizer::Outcome::Finished && outcome != Determinizer::Outcome::Cutoff) return;
  CHECK(restoring.rewards() == replaying.rewards());
  CHECK(answers_of(restoring) == answers_of(replaying));
}

// Two determinizers prepared at the same decision of `seat`: one restores
// its checkpoints, the other replays every sample from the start.
struct SideBySide {
  Determinizer restoring, replaying;
  SideBySide(const Match& truth, Seat seat, const std::vector<nlohmann::json>& events,
             const std::vector<std::string>& labels)
      : restoring(truth.definition_ptr()), replaying(truth.definition_ptr()) {
    replaying.use_checkpoints(false);
    restoring.prepare(truth, seat, events, labels);
    replaying.prepare(truth, seat, events, labels);
  }
};

// The engines of `def` the pool holds now: taken out while it has one
// (a new one built means none is left; that one is not given back), then
// all given back.
size_t pooled_engines_of(const std::shared_ptr<const GameDefinition>& def) {
  std::vector<PooledEngine> taken;
  for (;;) {
    const size_t held = pooled_engine_count();
    taken.push_back(pooled_engine(def, EngineLimits{}));
    if (pooled_engine_count() < held) continue;
    std::unique_ptr<RuleEngine> built(taken.back().release());  // destroyed, not pooled
    taken.pop_back();
    return taken.size();
  }
}

}  // namespace

TEST_CASE("a simultaneous decision's simulation from its checkpoint is the replayed one", "[checkpoint][together]") {
  // Goofspiel bids with choose_together at every decision: the seat first,
  // in the middle and last of the seats asked, whose others draw their
  // answers from the simulation's stream before and after it.
  auto def = load_game("goofspiel");
  long compared = 0;
  for (const int seat : {0, 1, 2}) {
    for (const size_t at : {size_t{0}, size_t{3}}) {
      INFO("seat " << seat << ", decision " << at);
      Examiner ex;
      ex.at = at;
      ex.examine = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                       const std::vector<std::string>& labels) {
        SideBySide both(truth, Seat{seat}, events, labels);
        Determinizer &restoring = both.restoring, &replaying = both.replaying;
        REQUIRE(restoring.agrees());
        CHECK(restoring.restores());  // saved though the seat decides together with others
        CHECK_FALSE(replaying.restores());
        Rng draw_a(7), draw_b(7);
        for (uint64_t k = 0; k < 30; ++k) {
          const Sample s = restoring.sample(draw_a);
          CHECK(s.identities == replaying.sample(draw_b).identities);
          same_simulation(restoring, replaying, s, k);
          CHECK(restoring.last_restored());
          CHECK_FALSE(replaying.last_restored());
          ++compared;
        }
      };
      REQUIRE(examine_at(def, 3, 5, Seat{seat}, ex));
    }
  }
  CHECK(compared == 180);
}

TEST_CASE("a sample's redrawn private answers are checked alike from the checkpoint and from the start",
          "[checkpoint][private]") {
  // Seat 0's third bid in the private-number Goofspiel: seat 1's first two
  // bids are redrawn (5 and 4 options), and only who took each prize was
  // told. Every pair of redrawn bids is accepted or rejected alike whether
  // its replay resumes where the first redrawn bid is asked or starts from
  // the beginning; the accepted ones play the same games.
  auto def = load_game(std::string(RULEBOOK_TESTS_DIR) + "/data/private-goofspiel");
  for (const uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    int accepted = 0, rejected = 0;
    Examiner ex;
    ex.at = 2;
    ex.examine = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                     const std::vector<std::string>& labels) {
      SideBySide both(truth, Seat{0}, events, labels);
      Determinizer &restoring = both.restoring, &replaying = both.replaying;
      REQUIRE(restoring.free_answers().size() == 2);
      REQUIRE(restoring.restores_redrawn());
      CHECK_FALSE(replaying.restores_redrawn());
      const auto& free = restoring.free_answers();
      for (int first = 0; first < free[0].second; ++first)
        for (int second = 0; second < free[1].second; ++second) {
          Sample s;
          s.answers = {{free[0].first, first}, {free[1].first, second}};
          Stop stop_a, stop_b;
          const auto outcome = restoring.simulate(s, 1, stop_a);
          CHECK(restoring.last_restored_redrawn());
          CHECK(outcome == replaying.simulate(s, 1, stop_b));
          CHECK_FALSE(replaying.last_restored_redrawn());
          if (outcome == Determinizer::Outcome::Rejected) {
            ++rejected;
            continue;
          }
          CHECK(outcome == Determinizer::Outcome::Cutoff);
          ++accepted;
          same_simulation(restoring, replaying, s, static_cast<uint64_t>(first * 10 + second));
        }
      // The samples the search draws: the same agreeing options, so the
      // same draws.
      Rng draw_a(3), draw_b(3);
      for (uint64_t k = 0; k < 20; ++k) {
        const Sample s = restoring.sample(draw_a);
        CHECK(s.answers == replaying.sample(draw_b).answers);
        same_simulation(restoring, replaying, s, k);
      }
    };
    REQUIRE(examine_at(def, 2, seed, Seat{0}, ex));
    CHECK(accepted > 0);
    CHECK(rejected > 0);
  }
}

TEST_CASE("redrawn answers drawn from a saved prefix agree with the ones a replay from the start finds",
          "[checkpoint][private]") {
  // Seat 0's fourth bid in the private-number Goofspiel: seat 1's three
  // earlier bids are redrawn in turn, each option of the second and third
  // checked from where it is asked, the bids drawn before it in (saved once
  // per prefix), or by a replay from the start. The same options agree, so
  // the same samples are drawn and play the same games.
  auto def = load_game(std::string(RULEBOOK_TESTS_DIR) + "/data/private-goofspiel");
  for (const uint64_t seed : {1, 4}) {
    INFO("seed " << seed);
    Examiner ex;
    ex.at = 3;
    int compared = 0;
    ex.examine = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                     const std::vector<std::string>& labels) {
      SideBySide both(truth, Seat{0}, events, labels);
      Determinizer &restoring = both.restoring, &replaying = both.replaying;
      REQUIRE(restoring.free_answers().size() == 3);
      REQUIRE(restoring.restores_redrawn());
      Rng draw_a(11), draw_b(11);
      for (uint64_t k = 0; k < 40; ++k) {
        const Sample s = restoring.sample(draw_a);
        CHECK(s.answers == replaying.sample(draw_b).answers);
        same_simulation(restoring, replaying, s, k);
        ++compared;
      }
    };
    REQUIRE(examine_at(def, 2, seed, Seat{0}, ex));
    CHECK(compared == 40);
  }
}

TEST_CASE("a redrawn answer inside a simultaneous decision resumes where the seats before it answered",
          "[checkpoint][private][together]") {
  // Sealed bids together: seat 0's second bid redraws seat 1's first, which
  // was asked in the same decision as seat 0's own: the checkpoint holds
  // the decision with seat 0's answer in, seat 1's pending.
  const test::TempGame game(test::kTogetherBidYaml, test::kTogetherBidLua);
  auto def = load_game(game.dir());
  Examiner ex;
  ex.at = 1;
  int compared = 0;
  ex.examine = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                   const std::vector<std::string>& labels) {
    SideBySide both(truth, Seat{0}, events, labels);
    Determinizer &restoring = both.restoring, &replaying = both.replaying;
    REQUIRE(restoring.free_answers().size() == 1);
    REQUIRE(restoring.restores_redrawn());
    const auto& free = restoring.free_answers();
    for (int bid = 0; bid < free[0].second; ++bid) {
      Sample s;
      s.answers = {{free[0].first, bid}};
      Stop stop_a, stop_b;
      CHECK(restoring.simulate(s, 1, stop_a) == replaying.simulate(s, 1, stop_b));
      CHECK(restoring.last_restored_redrawn());
      same_simulation(restoring, replaying, s, static_cast<uint64_t>(bid));
      ++compared;
    }
  };
  REQUIRE(examine_at(def, 2, 1, Seat{0}, ex));
  CHECK(compared == 5);
}

TEST_CASE("a determinizer's checkpoints never go into a game they were not made for", "[checkpoint]") {
  // One determinizer prepared in turn at decisions of other games (another
  // seed, other answers before the redrawn ones, another seat's decision
  // count) simulates exactly as a fresh one that replays every sample: it
  // brings each game's position again instead of restoring the last one's.
  auto goofspiel = load_game("goofspiel");
  auto secret = load_game(std::string(RULEBOOK_TESTS_DIR) + "/data/private-goofspiel");
  Determinizer reused_goofspiel(goofspiel), reused_secret(secret);
  int compared = 0;
  struct Case {
    std::shared_ptr<const GameDefinition> def;
    Determinizer* reused;
    uint64_t seed;
    size_t at;
    std::vector<int> script;
  };
  const std::vector<Case> cases{
      {goofspiel, &reused_goofspiel, 1, 2, {}}, {goofspiel, &reused_goofspiel, 2, 2, {}},
      {goofspiel, &reused_goofspiel, 1, 3, {}}, {secret, &reused_secret, 1, 2, {0, 1}},
      {secret, &reused_secret, 1, 2, {1, 0}},   {secret, &reused_secret, 1, 2, {0, 1}},
      {secret, &reused_secret, 1, 3, {4, 0, 1}}};
  for (const Case& c : cases) {
    Examiner ex;
    ex.at = c.at;
    ex.script = c.script;
    ex.examine = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                     const std::vector<std::string>& labels) {
      Determinizer replaying(truth.definition_ptr());
      replaying.use_checkpoints(false);
      c.reused->prepare(truth, Seat{0}, events, labels);
      replaying.prepare(truth, Seat{0}, events, labels);
      Rng draw_a(9), draw_b(9);
      for (uint64_t k = 0; k < 15; ++k) {
        const Sample s = c.reused->sample(draw_a);
        CHECK(s.answers == replaying.sample(draw_b).answers);
        same_simulation(*c.reused, replaying, s, k);
        ++compared;
      }
    };
    REQUIRE(examine_at(c.def, 2, c.seed, Seat{0}, ex));
  }
  CHECK(compared == 105);
}

TEST_CASE("a determinizer's saved positions take their engines from the pool and give them back",
          "[checkpoint][private][engine_pool]") {
  // Seat 0's third bid in the private-number Goofspiel: the determinizer
  // plays on its own engine and saves positions on engines of their own:
  // the decision, where the first redrawn bid is asked, and where the
  // second is (the first drawn). All come from the process's pool and go
  // back to it, so the next search agent on the game loads the rules no
  // more (the first redrawn bid's engine was once built anew for every
  // determinizer, and destroyed with it).
  auto def = load_game(std::string(RULEBOOK_TESTS_DIR) + "/data/private-goofspiel");  // no pooled engine is of it
  // Its own game and those three positions (the game gives no sampling
  // hint, and nothing looks ahead).
  constexpr size_t kHeld = 4;
  auto search = [&](const Match& truth, const std::vector<nlohmann::json>& events,
                    const std::vector<std::string>& labels) {
    Determinizer det(truth.definition_ptr());
    det.prepare(truth, Seat{0}, events, labels);
    REQUIRE(det.restores());
    REQUIRE(det.restores_redrawn());
    Rng draw(3);
    Stop stop;
    for (int k = 0; k < 5; ++k) (void)det.simulate(det.sample(draw), 1, stop);
    CHECK(det.last_restored_redrawn());
    CHECK(pooled_engines_of(def) == 0);
  };
  Examiner first;
  first.at = 2;
  first.examine = search;
  REQUIRE(examine_at(def, 2, 1, Seat{0}, first));
  CHECK(pooled_engines_of(def) == kHeld);
  // A second determinizer, in another game, takes them all and builds none.
  Examiner again;
  again.at = 2;
  again.examine = search;
  REQUIRE(examine_at(def, 2, 2, Seat{0}, again));
  CHECK(pooled_engines_of(def) == kHeld);
}
