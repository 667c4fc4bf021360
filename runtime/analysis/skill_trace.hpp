#pragma once
// The skill trace (after Ludii's SkillTrace and TabletopGames' SkillLadder):
// a search agent at doubling budgets against a baseline, its win rate at
// each budget with a 95% interval, and the budget where the curve levels
// off -- the first from which no larger budget wins significantly more.
// A game where skill matters climbs; a game of luck stays flat at the fair
// rate.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/intervals.hpp"

namespace rulebook::analysis {

struct SkillPoint {
  int budget = 0;     // the search agent's iterations
  int64_t games = 0;  // games it played (every seat in turn)
  int64_t wins = 0;   // games it won (a shared win counts as a win)
  double seconds = 0;
  Interval win_rate() const { return wilson_interval(wins, games); }
};

// The difference of two independent rates (b - a) with its 95% interval
// (Newcombe's hybrid score interval from the two Wilson intervals).
Interval rate_gain(const SkillPoint& a, const SkillPoint& b);

// The index of the budget where the curve levels off: the first point from
// which no later point's gain over it excludes 0. -1: no points. The last
// point when it still climbs there (then more budget may still help).
int levels_off_at(const std::vector<SkillPoint>& curve);
// Whether even the last doubling gained significantly (the curve still climbs).
bool still_climbing(const std::vector<SkillPoint>& curve);

}  // namespace rulebook::analysis
