// An agent that cuts a game off on purpose (a search's rollout) is told
// apart from one that fails by the exception's type, not by its words
// (issue 38): the rules engine rethrows a GameCutOff as a GameCutOff, from
// a decision and from a simultaneous one, and any other agent exception as
// a plain AgentFailure, even one whose message says "cut off".
#include <catch2/catch.hpp>

#include "agents/game_cut_off.hpp"
#include "inline_game.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

struct Throws : Agent {
  bool cut_off = true;
  std::string kind() const override { return "throws"; }
  int choose(const Decision&) override {
    if (cut_off) throw GameCutOff("stopped here on purpose");
    throw AgentFailure("the rollout was cut off");  // the words, not the type
  }
};

}  // namespace

TEST_CASE("an agent's cut-off reaches the caller by its type", "[match][cut-off]") {
  for (const char* play : {"  game:choose(0, 'Go on?', {'yes', 'no'})\n  game:finish{}",
                           "  game:choose_together({0, 1}, 'Go on?', {'yes', 'no'})\n  game:finish{}"}) {
    INFO(play);
    const test::TempGame game(test::one_die_game_yaml("cut", "Cut"), test::rules_lua(play));
    const auto def = load_game(game.dir());
    Throws agent;
    Match match(def);
    match.set_agent(Seat{0}, &agent);
    match.set_agent(Seat{1}, std::make_unique<FirstAgent>());
    CHECK_THROWS_AS(match.play(2, 1), GameCutOff);

    Throws failing;
    failing.cut_off = false;
    Match again(def);
    again.set_agent(Seat{0}, &failing);
    again.set_agent(Seat{1}, std::make_unique<FirstAgent>());
    bool cut = false, failed = false;
    try {
      again.play(2, 1);
    } catch (const GameCutOff&) {
      cut = true;
    } catch (const AgentFailure&) {
      failed = true;
    }
    CHECK_FALSE(cut);
    CHECK(failed);
  }
}
