// Agents: random (seeded per game and seat), first and scripted answers (a
// human at a terminal: tests/unit/cli/test_human_agent.cpp).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "decision_options.hpp"

using namespace rulebook;
using rulebook::test::Options;

namespace {

// A random bot of seat `seat` in a game of seed `seed` (as a match seeds it).
std::vector<int> random_choices(uint64_t seed, Seat seat, int count, int n) {
  RandomAgent agent;
  agent.begin_game(agent_stream_seed(seed, seat), seat);
  std::vector<std::string> labels;
  for (int i = 0; i < count; ++i) labels.push_back(std::to_string(i));
  Options options(labels);
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(agent.choose(options.decision(seat)));
  return out;
}

}  // namespace

TEST_CASE("RandomAgent: deterministic per (seed, seat), within range", "[agents]") {
  CHECK(random_choices(1, Seat{0}, 6, 50) == random_choices(1, Seat{0}, 6, 50));
  CHECK(random_choices(1, Seat{0}, 6, 50) != random_choices(1, Seat{1}, 6, 50));
  CHECK(random_choices(1, Seat{0}, 6, 50) != random_choices(2, Seat{0}, 6, 50));
  // begin_game restarts the sequence.
  RandomAgent agent;
  Options options({"a", "b", "c", "d", "e"});
  agent.begin_game(9, Seat{2});
  std::vector<int> first, second;
  for (int i = 0; i < 20; ++i) first.push_back(agent.choose(options.decision(Seat{2})));
  agent.begin_game(9, Seat{2});
  for (int i = 0; i < 20; ++i) second.push_back(agent.choose(options.decision(Seat{2})));
  CHECK(first == second);
  // In range, and every option gets picked.
  std::set<int> seen;
  for (int c : random_choices(3, Seat{1}, 7, 500)) {
    REQUIRE(c >= 0);
    REQUIRE(c < 7);
    seen.insert(c);
  }
  CHECK(seen.size() == 7u);
  // The bot's stream is not the game's chance stream: seat 0 of seed S does
  // not replay the dice of seed S.
  Rng chance;
  chance.reseed(1, kChanceStream);
  std::vector<int> dice;
  for (int i = 0; i < 50; ++i) dice.push_back(static_cast<int>(chance.below(6)));
  CHECK(random_choices(1, Seat{0}, 6, 50) != dice);
  CHECK(RandomAgent().kind() == "random");
  // Seats get different streams, and the derivation is fixed (logs of
  // random bots must stay byte-identical across versions): the first 8
  // bytes, little-endian, of SHA-256("rulebook agent stream" || seed as 8
  // bytes || seat as 4 bytes), a one-way function of the chance seed (no
  // longer the invertible Rng::mix). Python's hashlib gives the same value.
  CHECK(agent_stream_seed(1, Seat{0}) != agent_stream_seed(1, Seat{1}));
  CHECK(agent_stream_seed(1, Seat{0}) != 1u);
  CHECK(agent_stream_seed(1, Seat{0}) != Rng::mix(1, 0));
  CHECK(agent_stream_seed(1, Seat{0}) == 0xb5bba4d7712026f4ull);
}

TEST_CASE("DecisionRequest: a decision as a value, to JSON and back", "[agents]") {
  Options options({"Keep", "Pass"});
  const DecisionRequest r = options.decision(Seat{1}, "Keep or pass?").request();
  CHECK(r.seat == Seat{1});
  CHECK(r.prompt == "Keep or pass?");
  CHECK(r.labels == std::vector<std::string>{"Keep", "Pass"});
  CHECK(r.view.at("zones").at("supply").at("count") == 2);
  const nlohmann::json j = r.to_json();
  CHECK(j.at("options") == nlohmann::json{"Keep", "Pass"});
  const DecisionRequest back = DecisionRequest::from_json(nlohmann::json::parse(j.dump()));
  CHECK(back.to_json() == j);
  // A synchronous agent answers a request as it answers a live decision.
  ScriptedAgent agent({"pass"});
  CHECK(agent.choose(Decision(back)) == 1);
  CHECK(option_list(Decision(back)) == "Keep, Pass");
  CHECK_THROWS(DecisionRequest::from_json(nlohmann::json{{"seat", 0}}));
}

TEST_CASE("FirstAgent always takes the first option", "[agents]") {
  FirstAgent agent;
  Options options({"x", "y", "z"});
  for (int i = 0; i < 5; ++i) CHECK(agent.choose(options.decision()) == 0);
  CHECK(agent.kind() == "first");
}

TEST_CASE("ScriptedAgent answers by label (any case) or by number", "[agents]") {
  Options options({"Keep", "Pass", "Roll again"});
  ScriptedAgent agent({"pass", "ROLL AGAIN", "1", " 3 ", "keep"});
  agent.begin_game(0, Seat{0});
  CHECK(agent.remaining() == 5u);
  CHECK(agent.choose(options.decision()) == 1);
  CHECK(agent.choose(options.decision()) == 2);
  CHECK(agent.choose(options.decision()) == 0);
  CHECK(agent.choose(options.decision()) == 2);
  CHECK(agent.choose(options.decision()) == 0);
  CHECK(agent.remaining() == 0u);
  CHECK(agent.kind() == "scripted");

  SECTION("out of answers") {
    CHECK_THROWS_AS(agent.choose(options.decision()), AgentFailure);
    CHECK_THROWS_WITH(agent.choose(options.decision(Seat{0}, "Keep or pass?")),
                      Catch::Contains("ran out of answers") && Catch::Contains("Keep or pass?") &&
                          Catch::Contains("Keep, Pass, Roll again"));
  }
  SECTION("begin_game starts the answers again") {
    agent.begin_game(0, Seat{0});
    CHECK(agent.remaining() == 5u);
    CHECK(agent.choose(options.decision()) == 1);
  }
}

TEST_CASE("ScriptedAgent rejects answers that are not options", "[agents]") {
  Options options({"Keep", "Pass"});
  for (const std::string bad : {"discard", "0", "3", "-1", "", "Kee", "99999999999"}) {
    ScriptedAgent agent({bad}, "answers.txt");
    INFO("answer '" << bad << "'");
    CHECK_THROWS_WITH(agent.choose(options.decision(Seat{0}, "Keep?")),
                      Catch::Contains("answers.txt") && Catch::Contains("not among the options") &&
                          Catch::Contains("Keep?"));
  }
}

TEST_CASE("ScriptedAgent::from_file skips blanks and comments", "[agents]") {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() /
                        ("rulebook-answers-" + std::to_string(::getpid()) + ".txt");
  {
    std::ofstream out(path);
    out << "# my answers\n\n  pass  \n2\n# done\n";
  }
  auto agent = ScriptedAgent::from_file(path.string());
  fs::remove(path);
  Options options({"keep", "pass"});
  CHECK(agent->remaining() == 2u);
  CHECK(agent->choose(options.decision()) == 1);
  CHECK(agent->choose(options.decision()) == 1);
  CHECK_THROWS_WITH(ScriptedAgent::from_file(path.string()), Catch::Contains("cannot read"));
}

TEST_CASE("match_answer", "[agents]") {
  Options options({"Alpha", "beta", "Gamma ray"});
  const Decision d = options.decision();
  CHECK(match_answer(d, "1") == 0);
  CHECK(match_answer(d, "3") == 2);
  CHECK(match_answer(d, "4") == -1);
  CHECK(match_answer(d, "BETA") == 1);
  CHECK(match_answer(d, "gamma RAY\n") == 2);
  CHECK(match_answer(d, "gamma") == -1);
  CHECK(match_answer(d, "") == -1);
}
