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
