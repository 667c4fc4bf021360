// The human at a terminal (an istringstream here), and the agents the
// command line makes from their specification.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "agents/agent.hpp"
#include "cli/human_agent.hpp"
#include "decision_options.hpp"

using namespace rulebook;
using rulebook::cli::HumanAgent;
using rulebook::cli::make_agent;
using rulebook::test::Options;

TEST_CASE("HumanAgent reads a number or a label, re-asking on bad input", "[agents]") {
  Options options({"Keep", "Pass"});
  SECTION("a number") {
    std::istringstream in("2\n");
    std::ostringstream out;
    HumanAgent agent(in, out);
    CHECK(agent.choose(options.decision(Seat{0}, "What now?")) == 1);
    const std::string shown = out.str();
    CHECK_THAT(shown, Catch::Contains("What now?"));
    CHECK_THAT(shown, Catch::Contains("1) Keep"));
    CHECK_THAT(shown, Catch::Contains("2) Pass"));
    CHECK_THAT(shown, Catch::Contains("supply: 2 [panda, ?]"));  // the view
  }
  SECTION("bad answers first") {
    std::istringstream in("7\nmaybe\n\nkeep\n");
    std::ostringstream out;
    HumanAgent agent(in, out);
    CHECK(agent.choose(options.decision(Seat{0}, "What now?")) == 0);
    const std::string shown = out.str();
    size_t asks = 0;
    for (size_t at = shown.find("What now?"); at != std::string::npos; at = shown.find("What now?", at + 1)) ++asks;
    CHECK(asks == 4u);
    CHECK_THAT(shown, Catch::Contains("Please answer with a number from 1 to 2"));
  }
  SECTION("end of input throws") {
    std::istringstream in("nope\n");
    std::ostringstream out;
    HumanAgent agent(in, out);
    CHECK_THROWS_AS(agent.choose(options.decision()), AgentFailure);
  }
  SECTION("successive decisions read successive lines") {
    std::istringstream in("pass\n1\n");
    std::ostringstream out;
    HumanAgent agent(in, out);
    CHECK(agent.choose(options.decision()) == 1);
    CHECK(agent.choose(options.decision()) == 0);
    CHECK_THROWS_WITH(agent.choose(options.decision()), Catch::Contains("no more input"));
  }
}

TEST_CASE("make_agent", "[agents]") {
  std::istringstream in;
  std::ostringstream out;
  CHECK(make_agent("random", in, out)->kind() == "random");
  CHECK(make_agent("first", in, out)->kind() == "first");
  CHECK(make_agent("human", in, out)->kind() == "human");
  CHECK_THROWS_AS(make_agent("scripted:/nonexistent/answers.txt", in, out), AgentSpecError);
  CHECK(make_bot("human") == nullptr);  // the runtime has no terminal
  CHECK_THROWS_WITH(make_agent("genius", in, out), Catch::Contains("unknown agent 'genius'"));
}
