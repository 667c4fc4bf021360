#pragma once
// Confidence intervals and the chi-square test the simulation reports use.
// Rates get Wilson score intervals (good near 0% and 100%, unlike the
// normal approximation); means get Student's t (the z of the normal
// approximation covers only 92% at 100 games); quantiles get the
// distribution-free interval from binomial order statistics.
#include <cstdint>
#include <vector>

#include "analysis/distributions.hpp"

namespace rulebook::analysis {

// The 97.5% quantile of the standard normal distribution: 95% two-sided.
constexpr double kZ95 = 1.959963984540054;

struct Interval {
  double estimate = 0;
  double low = 0;
  double high = 0;
  double half_width() const { return (high - low) / 2; }
  // The interval excludes zero (for a difference: significant at 5%).
  bool excludes_zero() const { return low > 0 || high < 0; }
};

// Wilson score interval of successes/trials (trials 0: all zeros).
Interval wilson_interval(int64_t successes, int64_t trials, double z = kZ95);

// The largest rate that 0 successes in `trials` leave plausible (95%,
// score bound z² / (n + z²)): the margin given when no game differed.
double zero_of_n_bound(int64_t trials);

// Student-t interval of a mean from n values, their sum and the sum of
// their squares (sample standard deviation, n - 1 degrees of freedom).
// Values that are all equal show no spread, yet a next game could differ:
// the interval is then the value ± zero_of_n_bound(n) (in units of one,
// the data's resolution: every figure is a count), never zero-width.
// n < 2: the interval is the estimate itself.
Interval mean_interval(int64_t n, double sum, double sum_squares);
double standard_deviation(int64_t n, double sum, double sum_squares);

struct ChiSquareTest {
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
  bool significant(double level = 0.05) const { return p_value < level; }
};

// Pearson's goodness-of-fit test of the counts against equal expected
// counts (k categories, k - 1 degrees of freedom). No counts: p = 1.
ChiSquareTest chi_square_equal(const std::vector<int64_t>& counts);

}  // namespace rulebook::analysis
