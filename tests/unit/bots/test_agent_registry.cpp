// Agent specifications: one grammar, KIND:key=value,..., checked against
// the registry of kinds and their parameters wherever an agent is taken.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "agents/agent_registry.hpp"
#include "bots/agent_factory.hpp"

using namespace rulebook;

namespace {

std::string spec_error(const std::string& text) {
  try {
    builtin_agents().parse(text);
  } catch (const AgentSpecError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("agent specs: kinds, defaults and given values", "[agents][spec]") {
  const AgentSpec plain = builtin_agents().parse("ismcts");
  CHECK(plain.kind == "ismcts");
  CHECK(plain.integer("iterations") == 1000);
  CHECK(plain.number("c") == Approx(1.41421356));
  CHECK(plain.choice("rollout") == "random");
  CHECK(plain.integer("depth") == 0);
  CHECK_FALSE(plain.has("seconds"));  // no default: no time limit
  CHECK_FALSE(plain.cheats());

  const AgentSpec tuned = builtin_agents().parse("mcts:iterations=50,seconds=0.5,c=0,rollout=greedy,depth=8,oracle=1");
  CHECK(tuned.integer("iterations") == 50);
  CHECK(tuned.number("seconds") == 0.5);
  CHECK(tuned.number("c") == 0.0);
  CHECK(tuned.choice("rollout") == "greedy");
  CHECK(tuned.integer("depth") == 8);
  CHECK(tuned.cheats());
  CHECK(tuned.label() == "mcts:iterations=50,seconds=0.5,c=0,rollout=greedy,depth=8,oracle=1 (cheating: oracle)");

  // Free-text arguments are taken whole: commas and '=' belong to the file name.
  const AgentSpec scripted = builtin_agents().parse("scripted:answers,v=2.txt");
  CHECK(scripted.kind == "scripted");
  CHECK(scripted.argument == "answers,v=2.txt");
  CHECK(builtin_agents().parse("random").values.empty());
  CHECK(builtin_agents().find("human")->terminal_only);
}

TEST_CASE("agent specs: bad specifications say what is allowed", "[agents][spec]") {
  CHECK_THAT(spec_error("ismcts:iterations=-3"),
             Catch::Contains("ismcts's iterations must be a whole number from 1 to") && Catch::Contains("got '-3'"));
  CHECK_THAT(spec_error("mcts:foo=1"), Catch::Contains("mcts has no parameter 'foo'") &&
                                           Catch::Contains("iterations=N") && Catch::Contains("rollout=random|greedy"));
  CHECK_THAT(spec_error("mcts:iteratons=5"), Catch::Contains("did you mean `iterations`?"));
  CHECK_THAT(spec_error("genius"), Catch::Contains("unknown agent 'genius'") && Catch::Contains("greedy") &&
                                       Catch::Contains("ismcts[:key=value,...]") && Catch::Contains("scripted:FILE"));
  CHECK_THAT(spec_error("gredy"), Catch::Contains("did you mean `greedy`?"));
  CHECK_THAT(spec_error("ismcts:seconds=0"), Catch::Contains("seconds must be a number > 0"));
  CHECK_THAT(spec_error("ismcts:seconds=nan"), Catch::Contains("seconds must be a number > 0"));
  CHECK_THAT(spec_error("ismcts:c=-1"), Catch::Contains("c must be a number >= 0"));
  CHECK_THAT(spec_error("ismcts:depth=-"), Catch::Contains("depth must be a whole number"));
  CHECK_THAT(spec_error("ismcts:depth=1.5"), Catch::Contains("depth must be a whole number"));
  CHECK_THAT(spec_error("ismcts:rollout=smart"), Catch::Contains("rollout must be random or greedy"));
  CHECK_THAT(spec_error("ismcts:rollout=gredy"), Catch::Contains("got 'gredy'; did you mean `greedy`?"));
  CHECK_THAT(spec_error("ismcts:oracle=yes"), Catch::Contains("oracle must be 0 or 1"));
  CHECK_THAT(spec_error("ismcts:iterations=5,iterations=6"), Catch::Contains("iterations is given twice"));
  CHECK_THAT(spec_error("ismcts:iterations"), Catch::Contains("expected key=value, got 'iterations'"));
  CHECK_THAT(spec_error("ismcts:"), Catch::Contains("nothing after 'ismcts:'"));
  CHECK_THAT(spec_error("random:x=1"), Catch::Contains("random takes no parameters"));
  CHECK_THAT(spec_error("scripted"), Catch::Contains("scripted needs its FILE"));
  CHECK_THAT(spec_error("ismcts:iterations=99999999999999"), Catch::Contains("must be a whole number"));
}

TEST_CASE("agent specs: --help describes every kind and parameter", "[agents][spec]") {
  const std::string help = builtin_agents().describe();
  for (const auto& kind : builtin_agents().kinds()) {
    CHECK_THAT(help, Catch::Contains(kind.syntax()));
    for (const auto& p : kind.params) CHECK_THAT(help, Catch::Contains(p.name + "="));
  }
  CHECK_THAT(help, Catch::Contains("CHEATING"));
}

TEST_CASE("agent registry: a kind is declared once, and its declaration is checked", "[agents][spec]") {
  auto build = [](const AgentSpec&, const AgentSettings&) -> std::unique_ptr<Agent> { return std::make_unique<FirstAgent>(); };
  AgentRegistry r;
  r.add({"walker", "walks", "", {AgentParam::integer("steps", 1, 10, "3", "how far")}, false, build});
  CHECK(r.parse("walker").integer("steps") == 3);
  CHECK(r.parse("walker:steps=10").integer("steps") == 10);
  CHECK_THROWS_WITH(r.parse("walker:steps=11"), Catch::Contains("walker's steps must be a whole number from 1 to 10"));
  CHECK_THROWS_WITH(r.parse("walkr"), Catch::Contains("did you mean `walker`?"));
  CHECK(r.build(r.parse("walker"))->kind() == "first");
  // Declaration mistakes show when the registry is made, not at a user's spec.
  CHECK_THROWS_AS(r.add({"walker", "again", "", {}, false, build}), std::logic_error);
  CHECK_THROWS_AS(r.add({"runner", "out of range", "", {AgentParam::integer("steps", 1, 10, "0", "")}, false, build}),
                  std::logic_error);
  CHECK_THROWS_AS(r.add({"twice", "", "", {AgentParam::flag("x", ""), AgentParam::flag("x", "")}, false, build}),
                  std::logic_error);
  CHECK_THROWS_AS(r.add({"unbuilt", "no builder, not the terminal's", "", {}, false, nullptr}), std::logic_error);
  CHECK_THROWS_AS(r.add({"a:b", "bad name", "", {}, false, build}), std::logic_error);
}

TEST_CASE("agent registry: docs/bots.md lists the kinds and parameters as the registry declares them", "[agents][spec][docs]") {
  std::ifstream in(RULEBOOK_SOURCE_DIR "/docs/bots.md");
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const std::string start = "<!-- agent-registry:start (generated: AgentRegistry::markdown) -->\n";
  const std::string end = "<!-- agent-registry:end -->";
  const size_t from = text.find(start), to = text.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::string table = text.substr(from + start.size(), to - from - start.size());
  if (table != "\n" + builtin_agents().markdown() + "\n") {
    std::ofstream("agent-registry.md") << builtin_agents().markdown();
    FAIL_CHECK("docs/bots.md's tables differ from the registry's: paste agent-registry.md (written in the "
               "test's working folder) between the markers, with an empty line before and after");
  }
}

TEST_CASE("the agent factory builds the runtime's kinds and refuses the terminal's", "[agents][spec]") {
  CHECK(build_agent("random")->kind() == "random");
  CHECK(build_agent("first")->kind() == "first");
  CHECK_THROWS_WITH(build_agent("human"), Catch::Contains("only available at a terminal"));
  CHECK_THROWS_AS(build_agent("scripted:/nonexistent/answers.txt"), AgentSpecError);
  CHECK_THROWS_WITH(build_agent("ismcts:foo=1"), Catch::Contains("no parameter 'foo'"));
}
