// The game's evaluation: rules.evaluate(game, seat) in [0, 1] before the
// end, the outcome after it; mistakes in it are reported, never trusted.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

const std::string kYaml = test::one_die_game_yaml("judged", "Judged", 3);

// Seat 0 chooses once; the winners are given; rules.evaluate is `evaluate`.
std::string rules_with(const std::string& evaluate, const std::string& winners = "{0}") {
  return "local rules = {}\n"                                         // 1
         "function rules.setup(game) game.state.v = 0.25 end\n"       // 2
         "function rules.play(game)\n"                                // 3
         "  game:choose(0, 'pick', {'a', 'b'})\n"                     // 4
         "  game:finish{winners = " + winners + "}\n"                 // 5
         "end\n"                                                      // 6
         + evaluate + "\nreturn rules\n";                             // 7..
}

// A match paused at seat 0's decision (no agent there).
struct Paused {
  test::TempGame game;
  std::shared_ptr<const GameDefinition> def;
  Match match;
  RandomAgent other;
  Paused(const std::string& lua, int players = 2)
      : game(kYaml, lua), def(load_game(game.dir())), match(def) {
    for (Seat s : Seat::range(1, players)) match.set_agent(s, &other);
    REQUIRE(match.start(players, 7));
  }
};

}  // namespace

TEST_CASE("rules.evaluate gives the estimate before the end and the outcome after it", "[evaluation]") {
  Paused p(rules_with("function rules.evaluate(game, seat) return seat == 0 and game.state.v or 0.75 end"));
  CHECK(p.match.engine().has_evaluation());
  CHECK(*p.match.evaluation(Seat{0}) == Approx(0.25));
  CHECK(*p.match.evaluation(Seat{1}) == Approx(0.75));
  CHECK_FALSE(p.match.answer(0));
  CHECK(*p.match.evaluation(Seat{0}) == 1.0);
  CHECK(*p.match.evaluation(Seat{1}) == 0.0);
  CHECK_THROWS_AS(p.match.evaluation(Seat{2}), std::out_of_range);
}

TEST_CASE("without rules.evaluate, only outcomes: a shared win is 1/k", "[evaluation]") {
  Paused p(rules_with("", "{0, 2}"), 3);
  CHECK_FALSE(p.match.engine().has_evaluation());
  CHECK_FALSE(p.match.evaluation(Seat{0}).has_value());
  CHECK_FALSE(p.match.answer(1));
  CHECK(*p.match.evaluation(Seat{0}) == 0.5);
  CHECK(*p.match.evaluation(Seat{1}) == 0.0);
  CHECK(*p.match.evaluation(Seat{2}) == 0.5);
}

TEST_CASE("a bad evaluation is reported with the script, the seat and what is wrong", "[evaluation]") {
  auto message = [](const std::string& evaluate) {
    Paused p(rules_with(evaluate));
    try {
      p.match.evaluation(Seat{1});
    } catch (const ScriptError& e) {
      // The game is not harmed: it goes on and ends as it would have.
      CHECK_FALSE(p.match.answer(1));
      CHECK(p.match.result().winners == std::vector<Seat>{Seat{0}});
      return std::string(e.what());
    }
    FAIL("no error");
    return std::string();
  };
  CHECK_THAT(message("function rules.evaluate(game, seat) return 1.5 end"),
             Catch::Contains("rules.lua:7: rules.evaluate(game, 1) returned 1.5; it must return a number from 0 to 1"));
  CHECK_THAT(message("function rules.evaluate(game, seat) return -0.5 end"), Catch::Contains("returned -0.5"));
  CHECK_THAT(message("function rules.evaluate(game, seat) return 0/0 end"), Catch::Contains("returned"));
  CHECK_THAT(message("function rules.evaluate(game, seat) return 'good' end"), Catch::Contains("returned string"));
  CHECK_THAT(message("function rules.evaluate(game, seat) return nil end"), Catch::Contains("returned nil"));
  const std::string failed = message("function rules.evaluate(game, seat)\n  error('no idea')\nend");
  CHECK_THAT(failed, Catch::Contains("rules.evaluate(game, 1) failed"));
  CHECK_THAT(failed, Catch::Contains("rules.lua:8: no idea"));
  CHECK_THAT(message("function rules.evaluate(game, seat) game:zone('supply'):roll() return 0 end"),
             Catch::Contains("rules.evaluate(game, 1) changed the game"));
}

TEST_CASE("rules.evaluate that is not a function is a load error", "[evaluation]") {
  test::TempGame game(kYaml, rules_with("rules.evaluate = 3"));
  auto def = load_game(game.dir());
  CHECK_THROWS_WITH(Match(def), Catch::Contains("rules.evaluate must be a function (got number)"));
}

TEST_CASE("math.random in rules.evaluate never draws the game's chance", "[evaluation]") {
  const std::string lua = rules_with("function rules.evaluate(game, seat) return math.random() end");
  Paused a(lua), b(lua);
  const double first = *a.match.evaluation(Seat{0});
  CHECK(*a.match.evaluation(Seat{0}) == first);  // the same position, the same value
  for (int i = 0; i < 5; ++i) b.match.evaluation(Seat{0});
  CHECK(a.match.state().chance().next() == b.match.state().chance().next());
}

TEST_CASE("every bundled game evaluates every seat within [0, 1] all game long", "[evaluation]") {
  for (const std::string& name : list_games()) {
    INFO(name);
    auto def = load_game(name);
    Match match(def);
    REQUIRE(match.engine().has_evaluation());
    int decisions = 0;  // (two-player Pass the Pandas has none: one place to pass to)
    double lo = 1, hi = 0;
    for (int players : {def->min_players, def->max_players}) {
      INFO(players);
      RandomAgent random;
      random.begin_game(11, Seat{0});
      bool pending = match.start(players, 3);
      while (pending) {
        for (Seat s : Seat::all(players)) {
          const double v = *match.evaluation(s);
          REQUIRE(v >= 0.0);
          REQUIRE(v <= 1.0);
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
        ++decisions;
        pending = match.answer(random.choose(Decision(match.pending())));
      }
      // Over: what the seat earned (the game's returns, else its share of the win).
      for (Seat s : Seat::all(players)) CHECK(*match.evaluation(s) == seat_payoff(match.result(), s));
    }
    CHECK(decisions > 0);
    CHECK(lo < hi);  // it tells positions apart
  }
}

namespace {

// An agent that asks the game's evaluation of every seat as it decides (what
// the metrics of simulate do), then answers 0.
struct AskingAgent : Agent {
  Match* match = nullptr;
  std::vector<double> seen;
  std::string kind() const override { return "asking"; }
  int choose(const Decision&) override {
    for (Seat s : Seat::all(2)) seen.push_back(*match->evaluation(s));
    return 0;
  }
};

}  // namespace

TEST_CASE("rules.evaluate may be asked while an agent decides, and the game goes on unharmed", "[evaluation]") {
  test::TempGame game(kYaml, rules_with("function rules.evaluate(game, seat) return seat == 0 and game.state.v or 0.75 end"));
  Match match(load_game(game.dir()));
  AskingAgent asking;
  asking.match = &match;
  RandomAgent other;
  match.set_agent(Seat{0}, &asking);
  match.set_agent(Seat{1}, &other);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    asking.seen.clear();
    const GameResult& r = match.play(2, seed);
    CHECK(r.winners == std::vector<Seat>{Seat{0}});
    CHECK(asking.seen == std::vector<double>{0.25, 0.75});
  }
}
