// Bots that never peek, for every kind of secret (issue 28): for greedy,
// mcts and ismcts, on games whose secrets are rolled dice under cups with
// spare dice left in the box (Liar's Dice), a private number (a sealed
// bid) and cards seen, then shuffled out of sight, a bot chooses the same in worlds its seat cannot tell apart
// (play/bot_worlds.hpp); a bot that reads the true state fails that test.
// `rulebook check`'s side: tests/unit/check/test_check_worlds.cpp.
#include <catch2/catch.hpp>

#include <map>

#include "bots/agent_factory.hpp"
#include "capturing_agent.hpp"
#include "determinize/determinizer.hpp"
#include "inline_game.hpp"
#include "secret_games.hpp"
#include "play/bot_worlds.hpp"
#include "play/match.hpp"
#include "recorded_game.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;
using test::TrueStateReader;
using test::kSealedBidLua;
using test::kSealedBidYaml;
using test::kSeenThenShuffledLua;
using test::kSeenThenShuffledYaml;

namespace {

// Plays a random game and compares `bot` in the worlds seat 0 cannot tell
// from it, over a few seeds; returns the totals.
BotWorldsResult compare(const std::shared_ptr<const GameDefinition>& def, int players,
                        const std::function<std::unique_ptr<Agent>()>& bot, int games, int seeds,
                        Seat seat = Seat{0}) {
  RuleEngine engine(def);
  BotWorldsResult total;
  for (int g = 0; g < games && !total.peeked; ++g) {
    const uint64_t seed = 100 + static_cast<uint64_t>(g);
    const auto answers = test::random_game_answers(def, engine, players, seed);
    BotWorldsOptions o;
    o.make_bot = bot;
    o.decisions = 2;
    o.seeds = seeds;
    const BotWorldsResult r = compare_bot_in_worlds(def, engine, players, seed, answers, seat, o);
    total.decisions_compared += r.decisions_compared;
    if (r.peeked) total = BotWorldsResult{total.decisions_compared, true, r.where, r.message};
  }
  return total;
}

const std::vector<std::string> kBots{"greedy", "mcts:iterations=16,depth=12,determinizations=4",
                                     "ismcts:iterations=16,depth=12"};

// Every bot kind chooses the same in the worlds `seats` cannot tell apart
// (4 games, `seeds` other chance seeds), and the positive control, a bot
// that reads the true state at `cheat_seat`, fails the same test.
void check_no_bot_peeks(const std::shared_ptr<const GameDefinition>& def, int seeds,
                        const std::vector<Seat>& seats = {Seat{0}}, Seat cheat_seat = Seat{0}) {
  for (const auto& spec : kBots) {
    INFO(spec);
    for (Seat seat : seats) {
      INFO("seat " << seat);
      const BotWorldsResult r = compare(def, 2, [&] { return build_agent(spec); }, 4, seeds, seat);
      INFO(r.where << ": " << r.message);
      CHECK(r.decisions_compared > 0);
      CHECK_FALSE(r.peeked);
    }
  }
  const BotWorldsResult cheat = compare(def, 2, [] { return std::make_unique<TrueStateReader>(); }, 4, seeds, cheat_seat);
  CHECK(cheat.peeked);
}

}  // namespace

TEST_CASE("no bot peeks at dice rolled under another seat's cup, nor takes a spare's face", "[no-peek][dice]") {
  // Two players, one die each: the box keeps ten spare dice showing their
  // first face. Other worlds: other chance seeds where seat 0 rolled the
  // same (the opponent's die redrawn).
  check_no_bot_peeks(load_game("liars-dice"), 24);
}

TEST_CASE("no bot peeks at another seat's private number", "[no-peek][private]") {
  const test::TempGame game(kSealedBidYaml, kSealedBidLua);
  check_no_bot_peeks(load_game(game.dir()), 0);
}

TEST_CASE("no bot peeks at another seat's answer to a simultaneous decision", "[no-peek][together]") {
  // Seat 1 is asked after seat 0 has answered: the answer exists, held
  // back until both are in. In the other worlds seat 0 bid otherwise.
  const test::TempGame game(test::kTogetherBidYaml, test::kTogetherBidLua);
  check_no_bot_peeks(load_game(game.dir()), 0, {Seat{1}, Seat{0}}, Seat{1});
}

TEST_CASE("a search bot bids to win a simultaneous round against a seat it cannot see", "[no-peek][together]") {
  // Seat 1 wins a round only with exactly one more than seat 0's sealed
  // bid: a bid of 1 never wins. In the first round, the search draws seat
  // 0's bid among its options, and finds that out.
  const test::TempGame game(test::kTogetherBidYaml, test::kTogetherBidLua);
  auto def = load_game(game.dir());
  for (const std::string spec : {"ismcts:iterations=60", "mcts:iterations=60,determinizations=4", "greedy"}) {
    INFO(spec);
    int ones = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Match match(def);
      match.record_answers();
      match.set_agent(Seat{0}, std::make_unique<RandomAgent>());
      match.set_agent(Seat{1}, build_agent(spec));
      match.play(2, seed);
      for (const AnswerRecord& a : match.answers())
        if (a.seat == Seat{1} && a.together == 1) ones += a.index == 0;
    }
    CHECK(ones == 0);
  }
}

TEST_CASE("no bot peeks at the order of a shuffle it did not see, though it saw every card", "[no-peek][shuffle]") {
  // Other worlds: other chance seeds, where the shuffle put another card on
  // top for seat 1 (seat 0 is shown the same: the cards moved face down).
  const test::TempGame game(kSeenThenShuffledYaml, kSeenThenShuffledLua);
  check_no_bot_peeks(load_game(game.dir()), 8);
}

TEST_CASE("determinizations redraw unseen rolls from the die's faces and private answers among the options",
          "[no-peek][determinizer]") {
  // At seat 0's first decision of Liar's Dice the opponent's die is a fresh
  // roll in every determinization: all six faces come up, whatever it
  // truly shows (and never only a spare's first face). In the sealed bid,
  // seat 1's number is redrawn among its five options.
  struct Count : SimulationPolicy {
    std::map<int, int>* seen;
    std::function<int(GameState&)> read;
    int choose(const Decision&, GameState& state) override {
      ++(*seen)[read(state)];
      throw SearchCutoff();
    }
  };
  auto def = load_game("liars-dice");
  const int cup1 = [&] {
    GameState probe(*def);
    probe.reset(2, 1);
    for (int slot = 0;; ++slot)
      if (probe.zone_id(slot) == "cup@1") return slot;
  }();
  struct Capture : test::CapturingAgent {
    std::function<void(Capture&, const Decision&)> at_first;
    int choose(const Decision& d) override {
      at_first(*this, d);
      throw AgentFailure("enough");
    }
  };
  for (uint64_t seed : {1, 2, 3}) {
    std::map<int, int> faces;
    Capture capture;
    capture.at_first = [&](Capture& c, const Decision& d) {
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      Determinizer det(c.truth->definition_ptr());
      det.prepare(*c.truth, Seat{0}, c.events, labels);
      REQUIRE(det.agrees());
      Count count;
      count.seen = &faces;
      count.read = [&](GameState& s) { return s.component(s.zone(cup1).at(0)).face; };
      Rng rng(seed);
      for (int k = 0; k < 120; ++k) det.simulate(det.sample(rng), 1, count);
    };
    Match match(def);
    match.set_agent(Seat{0}, &capture);
    match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
    try {
      match.play(2, seed);
    } catch (const AgentFailure&) {
    }
    if (faces.empty()) continue;  // seat 1 called before seat 0 was asked
    CHECK(faces.size() == 6);
    for (const auto& [face, n] : faces) CHECK(n >= 5);
  }

  const test::TempGame game(kSealedBidYaml, kSealedBidLua);
  auto bid = load_game(game.dir());
  std::map<int, int> answers;
  Capture capture;
  capture.at_first = [&](Capture& c, const Decision& d) {
    Determinizer det(c.truth->definition_ptr());
    det.prepare(*c.truth, Seat{0}, c.events, {"1", "2", "3", "4", "5"});
    REQUIRE(det.free_answers().size() == 1);
    Rng rng(3);
    struct Answer : SimulationPolicy {
      int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
    } stop;
    for (int k = 0; k < 100; ++k) {
      const Sample s = det.sample(rng);
      REQUIRE(s.answers.size() == 1);
      ++answers[s.answers[0].second];
      CHECK(det.simulate(s, 1, stop) == Determinizer::Outcome::Cutoff);  // the replay shows seat 0 the same
    }
    (void)d;
  };
  Match match(bid);
  match.set_agent(Seat{0}, &capture);
  match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
  try {
    match.play(2, 1);
  } catch (const AgentFailure&) {
  }
  CHECK(answers.size() == 5);
}

TEST_CASE("a die rolled in a cup another seat cannot see is hidden from that seat", "[no-peek][knowledge]") {
  // The die lies on a public tray (every seat sees its face), goes into
  // seat 1's cup and is rolled there: seat 0 no longer knows it.
  const test::TempGame game(
      "name: cup-roll\ntitle: Cup roll\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
      "zones:\n  - {name: tray, visibility: public}\n  - {name: cup, per_player: true, visibility: owner}\n"
      "components:\n  - {name: die, kind: die, title: Die, faces: ['1', '2', '3', '4', '5', '6'], zone: tray}\n",
      "local rules = {}\nfunction rules.setup(game) end\n"
      "function rules.play(game)\n"
      "  local die = game:zone('tray'):items()[1]\n"
      "  die:move(game:zone('cup', 1))\n"
      "  die:roll()\n"
      "  game:choose(0, 'Go on', {'yes', 'no'})\n"
      "  game:finish{}\nend\nreturn rules\n");
  auto def = load_game(game.dir());
  struct Look : test::CapturingAgent {
    bool known = true;
    int choose(const Decision&) override {
      known = truth->state().visible_to(ComponentId{0}, Seat{0});
      return 0;
    }
  } look;
  Match match(def);
  match.set_agent(Seat{0}, &look);
  match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
  match.play(2, 1);
  CHECK_FALSE(look.known);
  bool saw_roll = false;
  for (const json& e : look.events)
    if (e.at("type") == "roll") {
      saw_roll = true;
      CHECK_FALSE(e.contains("face"));
      CHECK(e.at("component").is_null());
    }
  CHECK(saw_roll);
}

TEST_CASE("determinizations put cards seen, then shuffled out of sight, in other places", "[no-peek][determinizer]") {
  // At seat 0's first decision every card was seen face up, then shuffled
  // face down, and seat 0 holds one of them again: the three others keep
  // no place across samples. Seat 1's card and the deck's top card each
  // take the three identities seat 0 does not hold, never the one it does.
  const test::TempGame game(kSeenThenShuffledYaml, kSeenThenShuffledLua);
  auto def = load_game(game.dir());
  struct Capture : test::CapturingAgent {
    std::map<int, int> in_hand, on_top;
    size_t unobserved = 0;
    int mine = -1;
    int choose(const Decision& d) override {
      std::vector<std::string> labels;
      for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
      Determinizer det(truth->definition_ptr());
      det.prepare(*truth, Seat{0}, events, labels);
      REQUIRE(det.agrees());
      unobserved = det.unobserved().size();
      struct Read : SimulationPolicy {
        Capture* c;
        int choose(const Decision&, GameState& s) override {
          int hand = 0, deck = 0, own = 0;
          while (s.zone_id(hand) != "hand@1") ++hand;
          while (s.zone_id(own) != "hand@0") ++own;
          c->mine = s.component(s.zone(own).at(0)).type;
          while (s.zone_id(deck) != "deck") ++deck;
          ++c->in_hand[s.component(s.zone(hand).at(0)).type];
          ++c->on_top[s.component(s.zone(deck).at(0)).type];
          throw SearchCutoff();
        }
      } read;
      read.c = this;
      Rng rng(11);
      for (int k = 0; k < 200; ++k)
        CHECK(det.simulate(det.sample(rng), 1, read) == Determinizer::Outcome::Cutoff);
      throw AgentFailure("enough");
    }
  };
  for (uint64_t seed : {1, 2, 3}) {
    Capture capture;
    Match match(def);
    match.set_agent(Seat{0}, &capture);
    match.set_agent(Seat{1}, std::make_unique<RandomAgent>());
    try {
      match.play(2, seed);
    } catch (const AgentFailure&) {
    }
    CHECK(capture.unobserved == 3);
    CHECK(capture.in_hand.size() == 3);
    CHECK(capture.on_top.size() == 3);
    CHECK(capture.in_hand.count(capture.mine) == 0);
    CHECK(capture.on_top.count(capture.mine) == 0);
    for (const auto& [type, n] : capture.in_hand) CHECK(n >= 40);
  }
}
