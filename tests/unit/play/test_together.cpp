// Simultaneous decisions (game:choose_together): every listed seat decides
// without seeing the others' answers, synchronous agents seat by seat,
// seats without an agent all at once and answered in any order; the log
// records every answer with the decision's number, and replay checks them.
#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "inline_game.hpp"
#include "observation/event_recorder.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/replay.hpp"
#include "play/scenario.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

const char* kBidYaml = "name: bids\ntitle: Bids\nplayers: {min: 2, max: 3}\nscript: rules.lua\n";

// Two rounds of sealed bids; the options are a function of the seat, and
// each call says so (the calls come before anybody is asked).
const std::string kBidLua = test::rules_lua(
    "  for round = 1, 2 do\n"
    "    local bids, numbers = game:choose_together({1, 0}, 'Bid', function(seat)\n"
    "      game:say('options for seat %d', seat)\n"
    "      return seat == 0 and {1, 2, 3} or {10, 20}\n"
    "    end)\n"
    "    game:say('bids %d %d numbers %d %d', bids[0], bids[1], numbers[0], numbers[1])\n"
    "  end\n"
    "  local lone = game:choose_together({0, 1}, 'Nothing to choose', {'only'})\n"
    "  game:say('lone %s %s', lone[0], lone[1])\n"
    "  game:finish{}");

// Remembers every event its seat received before each decision, and the
// decision.
class Witness : public Agent {
 public:
  explicit Witness(int answer) : answer_(answer) {}
  std::string kind() const override { return "witness"; }
  bool wants_events() const override { return true; }
  void observe(const json& e) override { seen.push_back(e.dump()); }
  void asked_together(const Decision& d) override { told.push_back(d.seat().value()); }
  int choose(const Decision& d) override {
    asked.push_back(d.request());
    seen_when_asked.push_back(seen);
    return std::min(answer_, d.count() - 1);
  }
  std::vector<std::string> seen;
  std::vector<int> told;
  std::vector<DecisionRequest> asked;
  std::vector<std::vector<std::string>> seen_when_asked;

 private:
  int answer_;
};

bool mentions(const std::vector<std::string>& events, const std::string& text) {
  return std::any_of(events.begin(), events.end(), [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("synchronous agents answer a simultaneous decision seat by seat, each with its own decision",
          "[together][agents]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto def = load_game(game.dir());
  Match match(def);
  EventRecorder recorder;
  match.add_sink(&recorder);
  match.record_answers();
  Witness first(2), second(1);
  match.set_agent(Seat{0}, &first);
  match.set_agent(Seat{1}, &second);
  REQUIRE(match.play(2, 1).finished);

  // Asked twice each (the lone option is taken without asking), told
  // before being asked, and each request is its own seat's.
  REQUIRE(first.asked.size() == 2);
  REQUIRE(second.asked.size() == 2);
  CHECK(first.told == std::vector<int>{0, 0});
  CHECK(second.told == std::vector<int>{1, 1});
  CHECK(first.asked[0].labels == std::vector<std::string>{"1", "2", "3"});
  CHECK(second.asked[0].labels == std::vector<std::string>{"10", "20"});
  CHECK(first.asked[0].together == std::vector<Seat>{Seat{0}, Seat{1}});
  CHECK(first.asked[0].to_json().at("together") == json::array({0, 1}));
  // The options were gathered for both seats before anybody was asked,
  // and seat 1, asked after seat 0 answered, saw nothing of that answer.
  CHECK(mentions(first.seen_when_asked[0], "options for seat 1"));
  CHECK(mentions(first.seen_when_asked[0], "options for seat 0"));
  for (const auto& e : second.seen_when_asked[0]) CHECK(e.find("\"choice\"") == std::string::npos);

  // The answers come back by seat, and are logged in seat order with the
  // decision's number; the lone option is not logged.
  const auto& answers = match.answers();
  REQUIRE(answers.size() == 4);
  CHECK(answers[0].seat == Seat{0});
  CHECK(answers[0].index == 2);
  CHECK(answers[0].together == 1);
  CHECK(answers[1].seat == Seat{1});
  CHECK(answers[1].together == 1);
  CHECK(answers[3].together == 2);
  std::vector<std::string> texts;
  for (const auto& e : recorder.events())
    if (e.value("type", "") == "message") texts.push_back(e.at("text"));
  CHECK(std::find(texts.begin(), texts.end(), "bids 3 20 numbers 3 2") != texts.end());
  CHECK(std::find(texts.begin(), texts.end(), "lone only only") != texts.end());
  // Every answer is a private choice, recorded once all are in.
  int choices = 0;
  for (const auto& e : recorder.events())
    if (e.value("type", "") == "choice") {
      ++choices;
      CHECK(e.value("private", false));
    }
  CHECK(choices == 6);
}

TEST_CASE("a simultaneous decision waits for every seat without an agent, answered in any order",
          "[together][step]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto def = load_game(game.dir());
  auto play = [&](bool seat1_first) {
    Match match(def);
    EventRecorder recorder;
    match.add_sink(&recorder);
    match.record_answers();
    REQUIRE(match.start(2, 1));
    CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}, Seat{1}});
    CHECK(match.pending_seat() == Seat{0});
    CHECK(match.pending(Seat{1}).labels == std::vector<std::string>{"10", "20"});
    CHECK(match.pending(Seat{1}).together == std::vector<Seat>{Seat{0}, Seat{1}});
    CHECK(match.pending(Seat{0}).view.at("seat") == 0);
    const size_t events = recorder.events().size();
    if (seat1_first) {
      CHECK(match.answer(Seat{1}, 1));
      CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}});
      CHECK(match.together_answers().size() == 1);
      CHECK(recorder.events().size() == events);  // nothing shows yet
      CHECK_THROWS_AS(match.answer(Seat{1}, 0), std::logic_error);
      CHECK(match.answer(Seat{0}, 0));
    } else {
      CHECK(match.answer(0));  // the lowest seat still to answer
      CHECK(match.pending_seat() == Seat{1});
      CHECK_THROWS_AS(match.answer(Seat{1}, 2), std::out_of_range);
      CHECK(match.answer(1));
    }
    CHECK(match.together_answers().empty());
    CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}, Seat{1}});  // the second round
    CHECK(match.answer(Seat{1}, 0));
    CHECK_FALSE(match.answer(Seat{0}, 2));
    CHECK(match.result().finished);
    return std::make_pair(recorder.events(), match.answers());
  };
  const auto a = play(true), b = play(false);
  CHECK(a.first == b.first);
  REQUIRE(a.second.size() == b.second.size());
  for (size_t i = 0; i < a.second.size(); ++i) {
    CHECK(a.second[i].seat == b.second[i].seat);
    CHECK(a.second[i].index == b.second[i].index);
    CHECK(a.second[i].together == b.second[i].together);
  }

  // A fork replays the answers and stops at the simultaneous decision.
  Match match(def);
  match.record_answers();
  REQUIRE(match.start(2, 1));
  match.answer(Seat{1}, 1);
  match.answer(Seat{0}, 1);
  auto fork = match.fork();
  CHECK(fork->pending_seats() == std::vector<Seat>{Seat{0}, Seat{1}});
  CHECK(fork->answers().size() == 2);
}

TEST_CASE("an agent at one seat and none at the other: the game waits for the other", "[together][step]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto def = load_game(game.dir());
  Match match(def);
  match.record_answers();
  Witness bot(0);
  match.set_agent(Seat{1}, &bot);
  REQUIRE(match.start(2, 1));
  CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}});
  REQUIRE(match.together_answers().size() == 1);  // the bot's, held back
  CHECK(match.answers().empty());
  CHECK(match.answer(1));
  CHECK(match.answers().size() == 2);
}

TEST_CASE("an options function may ask a decision, and the game may wait there", "[together][step]") {
  // The options are gathered in a protected continuation: a seat without
  // an agent asked inside the function makes the game wait (a web table's
  // person, a search's saved decision), and it goes on from there. (It
  // used to be "attempt to yield across a C-call boundary", and a search
  // with checkpoints then stopped the game: "seat 0 has no decision pending".)
  const test::TempGame game(kBidYaml, test::rules_lua(
      "  local seats = {0, 1}\n"
      "  local bids = game:choose_together(seats, 'Bid', function(seat)\n"
      "    seats[1], seats[2] = 'x', 'y'  -- the call read the list already\n"
      "    local n = game:choose(seat, 'How many?', {2, 3})\n"
      "    local list = {}\n"
      "    for i = 1, n do list[i] = i * 10 end\n"
      "    return list\n"
      "  end)\n"
      "  game:say('bids %d %d', bids[0], bids[1])\n"
      "  game:finish{}"));
  auto def = load_game(game.dir());
  Match match(def);
  EventRecorder recorder;
  match.add_sink(&recorder);
  match.record_answers();
  REQUIRE(match.start(2, 1));
  CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}});
  CHECK(match.pending(Seat{0}).prompt == "How many?");
  CHECK(match.answer(Seat{0}, 1));  // 3 options
  CHECK(match.pending(Seat{1}).prompt == "How many?");
  CHECK(match.answer(Seat{1}, 0));  // 2 options
  CHECK(match.pending_seats() == std::vector<Seat>{Seat{0}, Seat{1}});
  CHECK(match.pending(Seat{0}).labels == std::vector<std::string>{"10", "20", "30"});
  CHECK(match.pending(Seat{1}).labels == std::vector<std::string>{"10", "20"});
  CHECK(match.answer(Seat{1}, 1));
  CHECK_FALSE(match.answer(Seat{0}, 2));
  CHECK(match.result().finished);
  bool told = false;
  for (const auto& e : recorder.events()) told = told || e.dump().find("bids 30 20") != std::string::npos;
  CHECK(told);
  // A fork replays into the function's decision and waits there too.
  Match again(def);
  again.record_answers();
  REQUIRE(again.start(2, 1));
  again.answer(Seat{0}, 1);
  auto fork = again.fork();
  CHECK(fork->pending_seats() == std::vector<Seat>{Seat{1}});
}

TEST_CASE("logs of simultaneous decisions replay, and their marks are checked", "[together][replay]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto def = load_game(game.dir());
  Match match(def);
  EventRecorder recorder;
  match.add_sink(&recorder);
  match.record_answers();
  for (Seat s : Seat::all(2)) match.set_agent(s, std::make_unique<RandomAgent>());
  const GameResult result = match.play(2, 5);
  GameSpec spec{game.dir(), {}, {}, 2, 5, {}};
  json log = make_log(spec, match.state(), result, match.answers(), recorder.events(), {"random", "random"});
  CHECK(log.at("answers").at(0).size() == 3);
  CHECK(log.at("answers").at(3).at(2) == 2);
  CHECK(replay_log(log).ok);
  json unmarked = log;
  unmarked["answers"][0].erase(2);
  const ReplayReport r = replay_log(unmarked);
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.message, Catch::Contains("simultaneous"));
}

TEST_CASE("a log whose simultaneous decisions carry wrong numbers does not replay", "[together][replay]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto def = load_game(game.dir());
  Match match(def);
  EventRecorder recorder;
  match.add_sink(&recorder);
  match.record_answers();
  for (Seat s : Seat::all(2)) match.set_agent(s, std::make_unique<RandomAgent>());
  const GameResult result = match.play(2, 5);
  GameSpec spec{game.dir(), {}, {}, 2, 5, {}};
  const json log = make_log(spec, match.state(), result, match.answers(), recorder.events(), {"random", "random"});
  REQUIRE(log.at("answers").size() >= 4);
  REQUIRE(replay_log(log).ok);

  json one = log;  // the second decision's first answer renumbered
  one["answers"][2][2] = 7;
  const ReplayReport changed = replay_log(one);
  CHECK_FALSE(changed.ok);
  CHECK_THAT(changed.message, Catch::Contains("answer 3 differs") && Catch::Contains("[0, ") &&
                                  Catch::Contains(", 7]") && Catch::Contains(", 2]"));

  json shifted = log;  // every decision's number one too high
  for (json& a : shifted["answers"]) a[2] = a[2].get<int>() + 1;
  const ReplayReport all = replay_log(shifted);
  CHECK_FALSE(all.ok);
  CHECK_THAT(all.message, Catch::Contains("answer 1 differs"));
}

TEST_CASE("choose_together checks its arguments", "[together][errors]") {
  auto error_of = [](const std::string& body) {
    const test::TempGame game(kBidYaml, test::rules_lua(body + "\n  game:finish{}"));
    Match match(load_game(game.dir()));
    try {
      match.start(2, 1);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of("game:choose_together({}, 'x', {1, 2})"), Catch::Contains("no seats to ask"));
  CHECK_THAT(error_of("game:choose_together({0, 0}, 'x', {1, 2})"), Catch::Contains("seat 0 is listed twice"));
  CHECK_THAT(error_of("game:choose_together({0, 5}, 'x', {1, 2})"), Catch::Contains("item 2 is not a seat"));
  CHECK_THAT(error_of("game:choose_together({0, 1}, 'x', 7)"), Catch::Contains("table or function expected"));
  CHECK_THAT(error_of("game:choose_together({0, 1}, 'x', function(s) return s end)"),
             Catch::Contains("the options of seat 0: a list expected"));
  CHECK_THAT(error_of("game:choose_together({0, 1}, 'x', function(s) return s == 1 and {} or {1, 2} end)"),
             Catch::Contains("no options to choose from for seat 1"));
  CHECK_THAT(error_of("game:choose_together({0, 1}, 'x', {1, 2}, {private = 1})"), Catch::Contains("private"));
}

TEST_CASE("{private = false}: every answer is told to everybody once all are in", "[together]") {
  const test::TempGame game(kBidYaml, test::rules_lua("  local a = game:choose_together({0, 1}, 'Rock?', {'rock', "
                                                      "'paper'}, {private = false})\n  game:finish{}"));
  Match match(load_game(game.dir()));
  EventRecorder recorder;
  match.add_sink(&recorder);
  for (Seat s : Seat::all(2)) match.set_agent(s, std::make_unique<FirstAgent>());
  match.play(2, 1);
  for (const auto& e : recorder.events())
    if (e.value("type", "") == "choice") CHECK_FALSE(e.value("private", false));
}

TEST_CASE("scenarios answer a simultaneous decision by seat, or in seat order", "[together][scenario]") {
  const test::TempGame game(kBidYaml, kBidLua);
  auto scenario = [&](const std::string& answers, const std::string& expect = "[\"bids 2 20 numbers 2 2\"]") {
    game.write("scenarios/s.yaml", "name: bids\nplayers: 2\nnames: [Ann, Bob]\nanswers: " + answers +
                                       "\nexpect:\n  log: " + expect + "\n");
    return run_scenario(game.dir() + "/scenarios/s.yaml");
  };
  auto failures = [](const ScenarioOutcome& o) { return fmt::format("{}", fmt::join(o.failures, " | ")); };
  ScenarioOutcome o = scenario("[{Bob: 20, Ann: 2}, {'0': 1, '1': 1}]");
  INFO(failures(o));
  CHECK(o.passed);
  CHECK(scenario("[2, 20, 1, 10]").passed);
  o = scenario("[{Bob: 20}, 1, 1]");
  CHECK_FALSE(o.passed);
  CHECK_THAT(failures(o), Catch::Contains("gives no answer for Ann"));
  o = scenario("[{Ann: 2, Bob: 20, Cid: 1}, {Ann: 1, Bob: 10}]");
  CHECK_FALSE(o.passed);
  CHECK_THAT(failures(o), Catch::Contains("gives an answer for Cid, who was not asked"));
  o = scenario("[{Ann: 2, Bob: 7}, {Ann: 1, Bob: 10}]");
  CHECK_THAT(failures(o), Catch::Contains("scenario answer '7' for Bob is not an option"));
}
