// rulebook skill: the skill trace -- a search agent at doubling budgets
// against a baseline, its win rate at each budget with a 95% interval, and
// where the curve levels off (analysis/skill_trace.hpp).
#include <iostream>


#include <fmt/format.h>

#include "analysis/verdict.hpp"
#include "cli/batch_plan.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/run_provenance.hpp"
#include "cli/skill_run.hpp"
#include "setup/game_loader.hpp"

namespace rulebook::cli {
namespace {

struct SkillOptions {
  GameOptions game;
  int64_t games = 200;
  int jobs = 1;
  std::string budgets = "25,50,100,200,400";
  std::string searcher = "ismcts";
  std::string baseline = "random";
  bool json = false;
};

int run(SkillOptions& o) {
  SkillPlan plan;
  plan.budgets = parse_budgets(o.budgets);
  plan.searcher = o.searcher;
  plan.baseline = o.baseline;
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  plan.games = batch_plan(o.game, o.games, o.jobs, !o.json);
  RunPlan& games = plan.games;
  games.sides = {def};
  games.players = player_count_for(*def, o.game.players);
  const auto curve = run_skill_trace(plan);
  nlohmann::json j = skill_json(plan, curve);
  if (o.json) {
    j["game"] = def->name;
    j["title"] = def->title;
    j["players"] = games.players;
    j["variants"] = o.game.variants;
    j["sets"] = o.game.sets;
    j["seed"] = games.seed;
    j["rulebook_version"] = rulebook_version();
    j["rules_hash"] = rules_hash(def->dir, o.game.variants, o.game.sets);
    std::cout << j.dump() << "\n";
  } else {
    std::cout << fmt::format("skill trace of {} with {} players: {} against {}, {} games a budget (every seat in turn), "
                             "seed {}\n",
                             def->title, games.players, plan.searcher, plan.baseline, o.games, games.seed);
    std::cout << fmt::format("  {:>10}  {:<28} {:>8}\n", "iterations", "win rate [95%]", "seconds");
    for (const auto& p : curve)
      std::cout << fmt::format("  {:>10}  {:<28} {:>8.1f}\n", p.budget, analysis::percent(p.win_rate()), p.seconds);
    std::cout << fmt::format("fair rate: {}\n", analysis::short_percent(1.0 / games.players));
    if (!j["levels_off_at"].is_null())
      std::cout << fmt::format("levels off at: {} iterations{}\n", j["levels_off_at"].get<int>(),
                               j["still_climbing"].get<bool>() ? " (still climbing at the largest budget)" : "");
    std::cout << j["text"].get<std::string>() << "\n";
  }
  const int64_t planned = o.games * static_cast<int64_t>(plan.budgets.size());
  int64_t played = 0;
  for (const auto& p : curve) played += p.games;
  return played < planned ? report_interrupted(played, planned, "games of the skill trace played") : kOk;
}

}  // namespace

Runner add_skill(CLI::App& app) {
  auto o = std::make_shared<SkillOptions>();
  auto* cmd = app.add_subcommand("skill", "play a search agent at doubling budgets against a baseline: how much skill pays");
  add_game_options(*cmd, o->game);
  cmd->add_option("--games,-n", o->games, "games at each budget (the search agent sits in every seat in turn)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
  cmd->add_option("--jobs,-j", o->jobs, "worker threads, each with its own Lua state")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--budgets", o->budgets, "the search agent's iterations, increasing (e.g. 25,50,100,200,400)")->capture_default_str();
  cmd->add_option("--searcher", o->searcher, "the search agent's kind (mcts, ismcts: any kind with iterations)")->capture_default_str();
  cmd->add_option("--baseline", o->baseline, "the agent in the other seats")->capture_default_str();
  add_agent_timeout_option(*cmd, o->game.agent_timeout);
  cmd->add_flag("--json", o->json, "print one JSON object");
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
