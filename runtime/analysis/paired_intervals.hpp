#pragma once
// Intervals for the difference of two sides played on the same seeds
// (with - base, one value per game), that hold when few games differ.
//
// Rates (a seat won, nobody won...) differ per game by -1, 0 or +1: only
// the games that differ carry information. The interval is Tango's score
// interval for paired proportions (Tango 1998, Stat Med 17:891) with a
// continuity correction, and significance is the exact McNemar test (the
// binomial test of the up-moves among the games that differ): four games
// all one way give p = 0.125, not "significant". When no game differed the
// interval is still the width the sample allows (about ±3.8/n points).
// Means (turns, decisions) get a paired Student-t interval.
#include <cstdint>
#include <string>

#include "analysis/intervals.hpp"

namespace rulebook::analysis {

struct Difference {
  Interval interval;
  double p_value = 1;
  int64_t games = 0;
  int64_t games_differing = 0;  // games whose value differs between the sides
  bool significant(double level = 0.05) const { return p_value < level; }
  bool no_game_differed() const { return games > 0 && games_differing == 0; }
};

// Exact two-sided McNemar p-value: `up` games went 0 -> 1, `down` 1 -> 0.
double exact_mcnemar_p(int64_t up, int64_t down);

// The difference of a paired rate from its up-moves, down-moves and games.
Difference paired_rate_difference(int64_t up, int64_t down, int64_t games);

// The difference of a paired mean from the per-game differences' count,
// sum, sum of squares and the number of games whose difference is not 0.
Difference paired_mean_difference(int64_t games, double sum, double sum_squares, int64_t games_differing);

}  // namespace rulebook::analysis
