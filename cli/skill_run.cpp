#include "cli/skill_run.hpp"

#include <fmt/format.h>

#include "analysis/verdict.hpp"
#include "cli/simulation_report.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {

using analysis::SkillPoint;

std::vector<int> parse_budgets(const std::string& text) {
  std::vector<int> budgets;
  size_t from = 0;
  while (from <= text.size()) {
    const size_t comma = std::min(text.find(',', from), text.size());
    const std::string part = text.substr(from, comma - from);
    int budget = 0;
    try {
      size_t used = 0;
      budget = std::stoi(part, &used);
      if (used != part.size()) budget = 0;
    } catch (const std::exception&) {
      budget = 0;
    }
    if (budget < 1 || (!budgets.empty() && budget <= budgets.back()))
      throw SetupError(fmt::format("--budgets: error: expected increasing positive iteration counts such as "
                                   "25,50,100,200,400, got '{}'", text));
    budgets.push_back(budget);
    from = comma + 1;
  }
  return budgets;
}

std::vector<SkillPoint> run_skill_trace(const SkillPlan& plan) {
  std::vector<SkillPoint> curve;
  const int players = plan.games.players;
  for (int budget : plan.budgets) {
    SkillPoint point;
    point.budget = budget;
    for (int seat = 0; seat < players; ++seat) {
      RunPlan run = plan.games;
      run.metrics = run.kingmaking = false;
      run.games = plan.games.games / players + (seat < plan.games.games % players ? 1 : 0);
      if (run.games == 0) continue;
      run.agent_kinds.assign(static_cast<size_t>(players), plan.baseline);
      run.agent_kinds[static_cast<size_t>(seat)] =
          fmt::format("{}{}iterations={}", plan.searcher, plan.searcher.find(':') == std::string::npos ? ":" : ",", budget);
      run.side_agent_kinds.clear();
      std::vector<int64_t> wins(static_cast<size_t>(run.jobs), 0);
      const batch::BatchRun played = run_games(run, [&](int worker, int64_t, const std::vector<analysis::GameOutcome>& g) {
        wins[static_cast<size_t>(worker)] += (g[0].winners >> seat) & 1;
      });
      for (int64_t w : wins) point.wins += w;
      point.games += played.completed;
      point.seconds += played.seconds;
      if (played.cancelled) {
        if (point.games > 0) curve.push_back(point);
        return curve;
      }
    }
    curve.push_back(point);
  }
  return curve;
}

nlohmann::json skill_json(const SkillPlan& plan, const std::vector<SkillPoint>& curve) {
  nlohmann::json points = nlohmann::json::array();
  double seconds = 0;
  for (const auto& p : curve) {
    points.push_back({{"budget", p.budget},
                      {"games", p.games},
                      {"wins", p.wins},
                      {"win_rate", interval_json(p.win_rate())},
                      {"seconds", p.seconds}});
    seconds += p.seconds;
  }
  const int level = analysis::levels_off_at(curve);
  return {{"searcher", plan.searcher},
          {"baseline", plan.baseline},
          {"games_per_budget", plan.games.games},
          {"fair_win_rate", 1.0 / plan.games.players},
          {"points", points},
          {"levels_off_at", level < 0 ? nlohmann::json(nullptr) : nlohmann::json(curve[static_cast<size_t>(level)].budget)},
          {"still_climbing", analysis::still_climbing(curve)},
          {"method", "win rate of the search agent, seated in every seat in turn, Wilson 95% intervals; levels off at "
                     "the first budget no larger budget beats significantly (Newcombe's interval of the gain)"},
          {"seconds", seconds},
          {"text", skill_sentence(plan, curve)}};
}

std::string skill_sentence(const SkillPlan& plan, const std::vector<SkillPoint>& curve) {
  if (curve.empty()) return "The skill trace was not played.";
  const SkillPoint &first = curve.front(), &last = curve.back();
  const double fair = 1.0 / plan.games.players;
  const auto gain = analysis::rate_gain(first, last);
  const int level = analysis::levels_off_at(curve);
  std::string text = fmt::format("The {} agent wins {} with {} iterations and {} with {} against {} (fair {})",
                                 plan.searcher, analysis::percent(first.win_rate()), first.budget,
                                 analysis::percent(last.win_rate()), last.budget, plan.baseline,
                                 analysis::short_percent(fair));
  if (gain.low > 0 && analysis::still_climbing(curve))
    text += "; skill still pays at the largest budget: the curve has not levelled off.";
  else if (gain.low > 0)
    text += fmt::format("; more search pays up to {} iterations, then the curve levels off.",
                        curve[static_cast<size_t>(level)].budget);
  else
    text += "; more search does not win significantly more: at these budgets the game rewards luck more than thought.";
  return text;
}

}  // namespace rulebook::cli
