#pragma once
// Are the seats equal, and how unfair is the game, when a game can have
// several winners, a shared win or no winner at all.
//
// The equal-seats test is Cochran's Q test (Cochran 1950): each game is a
// block of k binary outcomes (seat s won or not). Under equal seats the
// seats are exchangeable within a game, and
//   Q = k (k - 1) sum_s (C_s - C̄)² / (k sum_g R_g - sum_g R_g²)
// (C_s seat s's wins, R_g game g's winners) is chi-square with k - 1
// degrees of freedom. Pearson's chi-square on the win counts assumes one
// winner a game; with 2.9 winners a game (Hai Noon, 4 players) it gives a
// third of Q and almost never rejects. With one winner a game Q equals it.
// Games won by everybody or by nobody tell the seats nothing and add 0.
//
// Unfairness is one figure: the root mean square of the seats' advantages
// (win rate minus the fair rate, the mean of the seats' rates), in rate
// units: 0 for equal seats, 0.05 when seats are 5 points off on average.
// Why RMS rather than the largest advantage: it uses every seat, it is
// smooth, and it is Q's noncentrality on another scale, so its interval
// comes from inverting the noncentral chi-square of Q (as RMSEA does) and
// its low end is above 0 exactly when the equal-seats test rejects. The
// estimate is bias-corrected (Q - (k - 1), floored at 0), since noise alone
// spreads sample rates apart.
#include <cstdint>
#include <vector>

#include "analysis/intervals.hpp"
#include "analysis/paired_intervals.hpp"

namespace rulebook::analysis {

// wins: by seat; games_by_winner_count[r]: games with r winners (0..k).
ChiSquareTest cochran_q_test(const std::vector<int64_t>& wins, const std::vector<int64_t>& games_by_winner_count);

// Unfairness with its 95% interval (see above).
Interval unfairness(const std::vector<int64_t>& wins, const std::vector<int64_t>& games_by_winner_count);

// The unbiased estimate of U² (Q - (k - 1) on U²'s scale, not floored, so
// it can be negative): what ranks settings by fairness when several
// estimates are floored at 0.
double unfairness_squared_estimate(const std::vector<int64_t>& wins, const std::vector<int64_t>& games_by_winner_count);

// The paired difference of unfairness (with - base) between two sides
// played on the same seeds, from each game's winners (bit s: seat s won):
// a percentile bootstrap over games (`resamples` draws, seeded, so the
// same games give the same interval). When no game's winners differ the
// interval is ± zero_of_n_bound(games).
Difference unfairness_difference(const std::vector<uint64_t>& base, const std::vector<uint64_t>& with, int players,
                                 uint64_t seed, int resamples = 1000);

// Holm's step-down adjustment of p-values (same order as given).
std::vector<double> holm_adjusted(const std::vector<double>& p_values);

}  // namespace rulebook::analysis
