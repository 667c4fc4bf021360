// Undo that cannot peek (play/undo.hpp), on every bundled game: at every
// decision of random games, a seat's undo is refused exactly when something
// was revealed to anybody since its last decision (checked against the
// game's events), with the reason in words; an allowed undo puts the game
// back where that decision was asked: same seat, prompt, options and view.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "observation/event_recorder.hpp"
#include "play/match.hpp"
#include "inline_game.hpp"
#include "play/undo.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Pause {
  DecisionRequest request;
  json view;
  size_t events = 0;  // events before it was asked
};

void check_game(const std::string& game) {
  auto def = load_game(game);
  INFO(game);
  RuleEngine checker(def);
  int allowed = 0, refused = 0;
  for (uint64_t seed : {1, 2}) {
    Match match(def);
    EventRecorder events;  // everything
    match.add_sink(&events);
    match.record_answers();
    const ReplayStart start{def->default_players, seed, {}};
    std::vector<Pause> pauses;  // one per answer
    Rng pick(seed);
    bool pending = match.start(start.players, seed);
    // The first 25 decisions of each game: each check replays the game so far.
    while (pending && pauses.size() < 25) {
      const DecisionRequest& now = match.pending();
      const Seat seat = now.seat;
      const UndoCheck check = check_undo(def, checker, start, match.answers(), seat);
      size_t last = match.answers().size();
      while (last > 0 && match.answers()[last - 1].seat != seat) --last;
      if (last == 0) {
        CHECK_FALSE(check.allowed);
        CHECK(check.reason == "you have made no decision to take back");
      } else {
        const size_t k = last - 1;
        // What happened since, in the log: a roll, a reveal or a peek must refuse;
        // nothing but turns, scores, choices and messages must allow.
        bool revealing = false, quiet = true;
        for (size_t i = pauses[k].events; i < events.events().size(); ++i) {
          const std::string type = events.events()[i].at("type");
          revealing = revealing || type == "roll" || type == "reveal" || type == "peek" || type == "shuffle";
          quiet = quiet && (type == "turn" || type == "score" || type == "choice" || type == "message");
        }
        if (revealing) CHECK_FALSE(check.allowed);
        if (quiet) CHECK(check.allowed);
        if (check.allowed) {
          ++allowed;
          CHECK(check.keep == k);
          Match again(def, checker);
          REQUIRE(replay_answers(again, start, match.answers(), k));
          CHECK(again.pending().seat == seat);
          CHECK(again.pending().prompt == pauses[k].request.prompt);
          CHECK(again.pending().labels == pauses[k].request.labels);
          CHECK(again.view(seat) == pauses[k].view);
        } else {
          ++refused;
          CHECK(std::regex_match(check.reason,
                                 std::regex("(an? [a-z]+ was (rolled|drawn|revealed|flipped|peeked at|shown)|"
                                            ".+ was shuffled|the rules drew at random|something was shown to another player) since")));
        }
      }
      pauses.push_back(Pause{now, match.view(seat), events.events().size()});
      pending = match.answer(static_cast<int>(pick.below(static_cast<uint32_t>(now.count()))));
    }
  }
  INFO(game << ": allowed " << allowed << ", refused " << refused);
  CHECK(refused > 0);  // every bundled game draws, rolls or reveals
}

}  // namespace

TEST_CASE("undo: Hai Noon refuses after a draw or a reveal, and otherwise goes back to the decision", "[undo]") {
  check_game("hai-noon");
}

TEST_CASE("undo: Hao Hao refuses after a draw, a reveal or a peek, and otherwise goes back to the decision", "[undo]") {
  check_game("hao-hao");
}

TEST_CASE("undo: Pass the Pandas refuses after a roll, and otherwise goes back to the decision", "[undo]") {
  check_game("pass-the-pandas");
}

TEST_CASE("undo: a card hidden again and shown again is news, one in sight all along is not", "[undo][knowledge]") {
  // What is new to a seat is SeatKnowledge's: in its sight now, not when
  // last noted. The card lies face up at seat 0's decision; `between` runs
  // before seat 1 is asked.
  const std::string yaml =
      "name: shown-again\ntitle: Shown again\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
      "zones:\n  - {name: table}\n  - {name: box}\n  - {name: deck, visibility: hidden}\n"
      "components:\n  - {name: ace, kind: card, zone: table}\n";
  auto undo_after = [&](const std::string& between) {
    const test::TempGame game(yaml, test::rules_lua("  local card = game:zone('table'):top()\n"
                                                    "  game:choose(0, 'Go?', {'yes', 'no'})\n" +
                                                    between +
                                                    "\n  game:choose(1, 'Done?', {'yes', 'no'})\n"
                                                    "  game:finish{winners = {0}}"));
    auto def = load_game(game.dir());
    RuleEngine engine(def);
    Match match(def, engine);
    match.record_answers();
    REQUIRE(match.start(2, 1));
    REQUIRE(match.answer(0));
    return check_undo(def, engine, ReplayStart{2, 1, {}}, match.answers(), Seat{0});
  };
  const UndoCheck moved = undo_after("  card:move(game:zone('box'))");
  CHECK(moved.allowed);
  const UndoCheck again = undo_after("  card:move(game:zone('deck'))\n  card:move(game:zone('table'))");
  CHECK_FALSE(again.allowed);
  CHECK(again.reason == "a card was revealed since");
}
