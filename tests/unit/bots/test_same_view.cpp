// "Same view, same choice" (issue 38): a bot with a fixed seed chooses the
// same in any two games whose views up to its decision are byte-identical
// -- every redacted event its seat was sent (what `play --view SEAT --json`
// prints) and every question it was asked. For greedy, mcts and ismcts
// (random and greedy rollouts), on small games of every kind of secret:
// private numbers narrowed by an outcome, private positions, sequential
// private choices, simultaneous bids, dealt cards, rolled dice and a deck
// shuffled back. Each game's worlds differ only in what the seat may not
// know (the other seats' answers, the chance seed); the bot plays its seat
// in every world. The positive control, a bot that reads the true game
// (test::TrueStateReader), fails the same test on the same worlds.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "bots/agent_factory.hpp"
#include "inline_game.hpp"
#include "play/match.hpp"
#include "secret_games.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using namespace rulebook::test;

namespace {

// What the bot's seat was shown in one world, and what the bot chose.
struct SeatRun {
  std::vector<std::string> shown;  // redacted events (JSON) and questions, in order
  std::vector<size_t> asked_at;    // shown.size() once each decision was asked
  std::vector<int> choices;
};

struct Enough : AgentFailure {
  Enough() : AgentFailure("enough decisions probed") {}
};

// The bot's seat: hands the bot everything a seat gets (its redacted
// events, the game) and records it; the bot's stream has the same seed in
// every world.
class ProbeSeat : public Agent {
 public:
  ProbeSeat(Agent& bot, SeatRun& run, size_t decisions) : bot_(bot), run_(run), decisions_(decisions) {}
  std::string kind() const override { return "probe"; }
  void begin_game(uint64_t, Seat seat) override { bot_.begin_game(0x5a3e, seat); }
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& e) override {
    run_.shown.push_back(e.dump());
    if (bot_.wants_events()) bot_.observe(e);
  }
  bool wants_game_access() const override { return bot_.wants_game_access(); }
  void attach(const GameAccess* g) override { bot_.attach(g); }
  void asked_together(const Decision& d) override { bot_.asked_together(d); }
  int choose(const Decision& d) override {
    std::string question = std::string("? ") + d.prompt();
    for (int i = 0; i < d.count(); ++i) question += "|" + d.label(i);
    run_.shown.push_back(std::move(question));
    run_.asked_at.push_back(run_.shown.size());
    run_.choices.push_back(bot_.choose(d));
    if (run_.choices.size() >= decisions_) throw Enough();
    return run_.choices.back();
  }

 private:
  Agent& bot_;
  SeatRun& run_;
  size_t decisions_;
};

// Another seat: its answers from a list (option indices), then the first option.
class ListSeat : public Agent {
 public:
  explicit ListSeat(std::vector<int> answers) : answers_(std::move(answers)) {}
  std::string kind() const override { return "list"; }
  bool answers_at_once() const override { return true; }
  int choose(const Decision& d) override {
    const int a = next_ < answers_.size() ? answers_[next_] : 0;
    ++next_;
    return a < d.count() ? a : d.count() - 1;
  }

 private:
  std::vector<int> answers_;
  size_t next_ = 0;
};

// One world: the chance seed and the other seats' answers.
struct World {
  uint64_t seed = 1;
  std::map<int, std::vector<int>> answers;  // by seat
};

SeatRun play_world(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine, const World& w, Seat seat,
                   Agent& bot, size_t decisions) {
  SeatRun run;
  Match match(def, engine);
  match.record_answers();
  ProbeSeat probe(bot, run, decisions);
  std::vector<std::unique_ptr<ListSeat>> others;
  for (Seat s : Seat::all(2)) {
    if (s == seat) {
      match.set_agent(s, &probe);
      continue;
    }
    const auto it = w.answers.find(s.value());
    others.push_back(std::make_unique<ListSeat>(it == w.answers.end() ? std::vector<int>{} : it->second));
    match.set_agent(s, others.back().get());
  }
  try {
    match.play(2, w.seed);
  } catch (const AgentFailure& e) {  // the match words it its own way
    if (std::string(e.what()).find("enough decisions probed") == std::string::npos) throw;
  }
  return run;
}

struct Verdict {
  long compared = 0;  // (pair of worlds, decision) with the same view up to the decision
  std::string first_difference;
};

// Plays every world with a fresh bot of `make_bot` at `seat`; compares the
// bot's choices wherever two worlds showed the seat the same.
Verdict same_view_same_choice(const std::shared_ptr<const GameDefinition>& def, const std::vector<World>& worlds,
                              Seat seat, const std::function<std::unique_ptr<Agent>()>& make_bot, size_t decisions) {
  RuleEngine engine(def);
  std::vector<SeatRun> runs;
  for (const World& w : worlds) {
    auto bot = make_bot();
    runs.push_back(play_world(def, engine, w, seat, *bot, decisions));
  }
  Verdict v;
  for (size_t a = 0; a < runs.size(); ++a)
    for (size_t b = a + 1; b < runs.size(); ++b)
      for (size_t k = 0; k < runs[a].choices.size() && k < runs[b].choices.size(); ++k) {
        const size_t until = runs[a].asked_at[k];
        if (runs[b].asked_at[k] != until ||
            !std::equal(runs[a].shown.begin(), runs[a].shown.begin() + static_cast<std::ptrdiff_t>(until),
                        runs[b].shown.begin()))
          break;
        ++v.compared;
        if (runs[a].choices[k] != runs[b].choices[k] && v.first_difference.empty())
          v.first_difference = "worlds " + std::to_string(a) + " and " + std::to_string(b) + ", decision " +
                               std::to_string(k + 1) + ": option " + std::to_string(runs[a].choices[k]) + " vs " +
                               std::to_string(runs[b].choices[k]) + " after " + runs[a].shown[until - 1];
      }
  return v;
}

const std::vector<std::string> kBots{"greedy",
                                     "mcts:iterations=24,determinizations=4",
                                     "ismcts:iterations=8",
                                     "ismcts:iterations=100",
                                     "ismcts:iterations=16,rollout=greedy"};

// Every bot kind passes, the cheater fails, and the worlds do put the
// seat in the same view often enough to say so.
void check_same_view_same_choice(const std::shared_ptr<const GameDefinition>& def, const std::vector<World>& worlds,
                                 Seat seat, size_t decisions, const std::vector<std::string>& bots = kBots) {
  for (const std::string& spec : bots) {
    INFO(spec << " at seat " << seat);
    const Verdict v = same_view_same_choice(def, worlds, seat, [&] { return build_agent(spec); }, decisions);
    INFO(v.first_difference);
    CHECK(v.compared >= 3);
    CHECK(v.first_difference.empty());
  }
  const Verdict cheat = same_view_same_choice(
      def, worlds, seat, [] { return std::make_unique<test::TrueStateReader>(); }, decisions);
  INFO("the cheater, at seat " << seat);
  CHECK(cheat.compared >= 3);
  CHECK_FALSE(cheat.first_difference.empty());
}

std::vector<World> seeds(int n) {
  std::vector<World> w;
  for (int s = 1; s <= n; ++s) w.push_back(World{static_cast<uint64_t>(s), {}});
  return w;
}

}  // namespace

TEST_CASE("same view, same choice: private numbers narrowed by an outcome", "[same-view][private]") {
  const auto def = load_game(private_goofspiel_dir(), LoadOptions{{}, kPrivateGoofspielSets});
  for (int seat : {0, 1}) {
    std::vector<World> worlds;  // the other seat's first two bids, every way
    for (int first = 0; first < 4; ++first)
      for (int second = 0; second < 3; ++second) worlds.push_back(World{1, {{1 - seat, {first, second}}}});
    check_same_view_same_choice(def, worlds, Seat{seat}, 3);
  }
}

TEST_CASE("same view, same choice: a private position", "[same-view][private]") {
  const test::TempGame game(kHideYaml, kHideLua);
  const auto def = load_game(game.dir());
  std::vector<World> worlds;
  for (int spot = 0; spot < 5; ++spot) worlds.push_back(World{1, {{1, {spot}}}});
  check_same_view_same_choice(def, worlds, Seat{0}, 3);
}

TEST_CASE("same view, same choice: sequential private choices", "[same-view][private]") {
  const test::TempGame game(kTwoSecretsYaml, kTwoSecretsLua);
  const auto def = load_game(game.dir());
  std::vector<World> worlds;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) worlds.push_back(World{1, {{1, {x, y}}}});
  check_same_view_same_choice(def, worlds, Seat{0}, 2);
}

TEST_CASE("same view, same choice: simultaneous bids", "[same-view][together]") {
  const test::TempGame game(test::kTogetherBidYaml, test::kTogetherBidLua);
  const auto def = load_game(game.dir());
  for (int seat : {0, 1}) {
    std::vector<World> worlds;
    for (int first = 0; first < 5; ++first)
      for (int second = 0; second < 5; second += 2) worlds.push_back(World{1, {{1 - seat, {first, second}}}});
    check_same_view_same_choice(def, worlds, Seat{seat}, 2);
  }
}

TEST_CASE("same view, same choice: dealt cards", "[same-view][cards]") {
  const test::TempGame game(kDealtYaml, kDealtLua);
  check_same_view_same_choice(load_game(game.dir()), seeds(40), Seat{0}, 2);
}

TEST_CASE("same view, same choice: rolled dice", "[same-view][dice]") {
  const test::TempGame game(kCupsYaml, kCupsLua);
  check_same_view_same_choice(load_game(game.dir()), seeds(30), Seat{0}, 2);
}

TEST_CASE("same view, same choice: a deck shuffled back", "[same-view][shuffle]") {
  const test::TempGame game(test::kSeenThenShuffledYaml, test::kSeenThenShuffledLua);
  check_same_view_same_choice(load_game(game.dir()), seeds(24), Seat{0}, 2);
}
