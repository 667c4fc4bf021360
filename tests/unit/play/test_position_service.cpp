// The position service (play/position_service.hpp): a game brought to a
// position by restoring its snapshot is the game brought there by a
// replay; a snapshot is used only for the very position it holds and only
// in the run that made it; the one replaying agent checks every logged
// answer against the decision asked, in words.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/rng.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// A game of `seed` answered at random (from `pick_seed`) to its end: its answers.
std::vector<AnswerRecord> played(const std::shared_ptr<const GameDefinition>& def, int players, uint64_t seed,
                                 uint64_t pick_seed) {
  Match m(def);
  m.record_answers();
  Rng pick;
  pick.reseed(pick_seed, 3);
  bool pending = m.start(players, seed);
  while (pending) {
    const Seat seat = m.pending_seats().front();
    pending = m.answer(seat, static_cast<int>(pick.below(static_cast<uint32_t>(m.pending(seat).count()))));
  }
  return m.answers();
}

std::vector<std::string> views(Match& m, int players) {
  std::vector<std::string> v;
  for (Seat s : Seat::all(players)) v.push_back(m.view(s).dump());
  return v;
}

}  // namespace

TEST_CASE("the position service restores the very position a replay reaches", "[position]") {
  for (const std::string game : {"old-maid", "goofspiel", "hai-noon", "hao-hao"}) {
    INFO(game);
    auto def = load_game(game);
    const int players = def->min_players;
    const ReplayStart start{players, 11, {}};
    const std::vector<AnswerRecord> answers = played(def, players, 11, 5);
    REQUIRE(answers.size() >= 4);
    const size_t keep = answers.size() / 2;

    RuleEngine engine(def);
    PositionService service(def, engine);
    REQUIRE(service.bring(start, answers, keep));
    CHECK_FALSE(service.last_restored());
    REQUIRE(service.has_snapshot());
    const auto replayed_views = views(service.match(), players);
    const Seat replayed_seat = service.match().pending_seat();

    // Played on from there, then brought back: restored, the same position.
    service.match().answer(answers[keep].index);
    REQUIRE(service.bring(start, answers, keep));
    CHECK(service.last_restored());
    CHECK(views(service.match(), players) == replayed_views);
    CHECK(service.match().pending_seat() == replayed_seat);
    CHECK(service.match().answers().size() == keep);

    // The same answers on another game's seed, or one answer fewer: replayed.
    const ReplayStart other{players, 12, {}};
    service.bring(other, answers, 0);
    CHECK_FALSE(service.last_restored());
    REQUIRE(service.bring(start, answers, keep - 1));
    CHECK_FALSE(service.last_restored());
    REQUIRE(service.bring(start, answers, keep));
    CHECK_FALSE(service.last_restored());  // the snapshot held keep - 1 answers

    // A game started on the service's match makes its snapshot useless:
    // never restored into another run.
    service.match().start(players, 11);
    REQUIRE(service.bring(start, answers, keep));
    CHECK_FALSE(service.last_restored());
    CHECK(views(service.match(), players) == replayed_views);
  }
}

TEST_CASE("bring_to says which answer does not retrace the game", "[position]") {
  auto def = load_game("liars-dice");
  std::vector<AnswerRecord> answers = played(def, 2, 4, 9);
  REQUIRE(answers.size() >= 3);
  answers[1].seat = Seat{answers[1].seat.value() == 0 ? 1 : 0};
  Match m(def);
  CHECK_THROWS_AS(bring_to(m, ReplayStart{2, 4, {}}, answers, 3), ReplayMismatch);
  CHECK_THROWS_WITH(bring_to(m, ReplayStart{2, 4, {}}, answers, 3), Catch::Contains("answer 2 is seat"));
}

TEST_CASE("the one replaying agent checks each answer, then hands each seat over", "[position]") {
  auto def = load_game("liars-dice");
  const std::vector<AnswerRecord> answers = played(def, 2, 4, 9);
  REQUIRE(answers.size() >= 3);
  Match m(def);
  m.record_answers();
  FirstAgent first;
  LogReplayAgent replay(&answers, 2);
  replay.hand_over_to({&first, &first});
  bool told = false;
  replay.on_hand_over([&] { told = true; });
  m.set_agents({&replay, &replay});
  m.play(2, 4);
  CHECK(told);
  REQUIRE(m.answers().size() > 2);
  for (size_t i = 0; i < 2; ++i) CHECK(m.answers()[i].index == answers[i].index);
  CHECK(m.answers()[2].index == 0);  // the first agent's

  // An answer of another seat: refused in words.
  std::vector<AnswerRecord> wrong = answers;
  wrong[0].seat = Seat{1};
  LogReplayAgent strict(&wrong, wrong.size());
  m.set_agents({&strict, &strict});
  CHECK_THROWS_WITH(m.play(2, 4), Catch::Contains("log answer 1 was given by seat 1, but seat 0 is asked"));
}

TEST_CASE("Match::fork is the position service's replay", "[position]") {
  auto def = load_game("goofspiel");
  const std::vector<AnswerRecord> answers = played(def, 2, 8, 1);
  Match m(def);
  m.record_answers();
  bool pending = m.start(2, 8);
  for (size_t i = 0; i + 2 < answers.size() && pending; ++i) pending = m.answer(answers[i].seat, answers[i].index);
  REQUIRE(pending);
  auto fork = m.fork();
  CHECK(views(*fork, 2) == views(m, 2));
  CHECK(fork->pending_seats() == m.pending_seats());
}
