#pragma once
// The skill trace's games (rulebook skill, rulebook report): at each
// budget, a search agent in every seat in turn against the baseline in
// the others, every budget on the same seeds, tallied as
// analysis/skill_trace.hpp's curve.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/skill_trace.hpp"
#include "cli/simulation_runner.hpp"

namespace rulebook::cli {

struct SkillPlan {
  RunPlan games;                  // its side, players, limits, seed, jobs and games (per budget); agents are set here
  std::string searcher = "ismcts";  // an agent kind with an `iterations` parameter
  std::string baseline = "random";
  std::vector<int> budgets = {25, 50, 100, 200, 400};
};

// "25,50,100" -> budgets (positive, increasing). Throws SetupError.
std::vector<int> parse_budgets(const std::string& text);
// Plays the curve; a cancelled run keeps the budgets completed.
std::vector<analysis::SkillPoint> run_skill_trace(const SkillPlan& plan);
// {searcher, baseline, games_per_budget, fair_win_rate, points: [{budget, games, wins, win_rate, seconds}],
//  levels_off_at, still_climbing, seconds, text}
nlohmann::json skill_json(const SkillPlan& plan, const std::vector<analysis::SkillPoint>& curve);
// One sentence for people.
std::string skill_sentence(const SkillPlan& plan, const std::vector<analysis::SkillPoint>& curve);

}  // namespace rulebook::cli
