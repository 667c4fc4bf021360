#include "bots/agent_factory.hpp"

#include <chrono>

#include "agents/exec_transport.hpp"
#include "agents/external_seat.hpp"
#include "bots/greedy_agent.hpp"
#include "bots/search_agent.hpp"

namespace rulebook {
namespace {

using Param = AgentParam;

// The parameters of the search bots, shared by both kinds; mcts adds its
// number of trees.
AgentParam checkpoint_param() {
  return Param::choice("checkpoint", {"0", "1"}, "1",
                       "1: simulations start from the decision, saved once (a copy of the rules' Lua state); 0: "
                       "every simulation replays the game from its start (the same games, to measure)");
}

std::vector<AgentParam> search_params(bool mcts) {
  std::vector<AgentParam> params = {
      Param::integer("iterations", 1, 1e8, "1000", "simulations per decision"),
      Param::number("seconds", 0, true, 86400, "",
                    "time limit per decision; the first limit reached stops the search "
                    "(the one exception to byte-identical logs)"),
      Param::number("c", 0, false, 1000, "1.4142135623730951", "UCB1 exploration constant (default sqrt 2)"),
      Param::choice("rollout", {"random", "greedy"}, "random", "how simulations play on after the tree"),
      Param::integer("depth", 0, 1e6, "0",
                     "cut a rollout after N decisions and score it with the game's evaluation (0: play to the end)"),
      Param::flag("oracle", "1: search the true state instead of the seat's view -- CHEATING, for measuring "
                            "the value of information"),
      Param::choice("hint", {"0", "1"}, "1",
                    "1: sample with the game's hint (rules.deal_unseen) when it gives one, checked; 0: generic "
                    "sampling only, to measure what the hint brings"),
      checkpoint_param(),
      Param::choice("others", {"search", "random"}, "search",
                    "how the other seats choose in the tree: search (each maximises its own reward) or random "
                    "(uniformly: a best response to random play, an opponent model)"),
  };
  params[2].default_shown = "sqrt 2";
  if (mcts)
    params.push_back(Param::integer("determinizations", 1, 1e5, "10",
                                    "trees, one per determinization, on games with hidden information (PIMC)"));
  return params;
}

std::unique_ptr<Agent> build_search_agent(const AgentSpec& spec, const AgentSettings&) {
  SearchParams p;
  p.kind = spec.kind;
  p.iterations = spec.integer("iterations");
  p.seconds = spec.has("seconds") ? spec.number("seconds") : 0;
  p.c = spec.number("c");
  p.rollout = spec.choice("rollout");
  p.depth = spec.integer("depth");
  p.oracle = spec.flag("oracle");
  p.hint = spec.choice("hint") == "1";
  p.checkpoint = spec.choice("checkpoint") == "1";
  p.random_others = spec.choice("others") == "random";
  if (spec.has("determinizations")) p.determinizations = spec.integer("determinizations");
  return make_search_agent(p);
}

AgentRegistry declare_builtin_agents() {
  AgentRegistry r;
  r.add({"random", "uniform over the options", "", {}, false,
         [](const AgentSpec&, const AgentSettings&) { return std::make_unique<RandomAgent>(); }});
  r.add({"first", "always the first option", "", {}, false,
         [](const AgentSpec&, const AgentSettings&) { return std::make_unique<FirstAgent>(); }});
  r.add({"greedy",
         "tries each option one decision deep on its seat's determinized game and keeps the best by the game's "
         "evaluation (ties: its own stream)",
         "", {checkpoint_param()}, false, [](const AgentSpec& spec, const AgentSettings&) {
           return std::make_unique<GreedyAgent>(1, spec.choice("checkpoint") == "1");
         }});
  r.add({"mcts", "UCT; on hidden information one tree per determinization (PIMC)", "", search_params(true), false,
         build_search_agent});
  r.add({"ismcts", "information-set MCTS: one tree over the seat's information sets", "", search_params(false),
         false, build_search_agent});
  r.add({"scripted", "answers from a file: option labels or 1-based numbers, one a line", "FILE", {}, false,
         [](const AgentSpec& spec, const AgentSettings&) -> std::unique_ptr<Agent> {
           return ScriptedAgent::from_file(spec.argument);
         }});
  r.add({"exec",
         "a program in any language speaking the bot protocol on its stdin/stdout (docs/bot-protocol.md); no shell",
         "COMMAND", {}, false, [](const AgentSpec& spec, const AgentSettings& settings) -> std::unique_ptr<Agent> {
           const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(settings.timeout_seconds * 1000));
           return std::make_unique<ExternalSeat>(std::make_unique<ExecTransport>(spec.argument), spec.text, timeout);
         }});
  r.add({"human", "a person at this terminal (rulebook play)", "", {}, true, nullptr});
  return r;
}

}  // namespace

const AgentRegistry& builtin_agents() {
  static const AgentRegistry registry = declare_builtin_agents();
  return registry;
}

std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const AgentSettings& settings) {
  return builtin_agents().build(spec, settings);
}

std::unique_ptr<Agent> build_agent(const std::string& text, const AgentSettings& settings) {
  return builtin_agents().build(builtin_agents().parse(text), settings);
}

}  // namespace rulebook
