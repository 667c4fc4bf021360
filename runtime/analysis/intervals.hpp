#pragma once
// Confidence intervals and the chi-square test the simulation reports use.
// Rates get Wilson score intervals (good near 0% and 100%, unlike the
// normal approximation); means get the normal approximation, which is
// accurate for the thousands of games a simulation plays; quantiles get the
// distribution-free interval from binomial order statistics.
#include <cstdint>
#include <vector>

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

// Normal-approximation interval of a mean from n values, their sum and the
// sum of their squares (sample standard deviation, n - 1). n < 2: the
// interval is the estimate itself.
Interval mean_interval(int64_t n, double sum, double sum_squares, double z = kZ95);
double standard_deviation(int64_t n, double sum, double sum_squares);

// Regularized upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a),
// by its series (x < a + 1) or continued fraction (Numerical Recipes, 6.2).
double regularized_gamma_q(double a, double x);

// P(X >= x) for X chi-square distributed with `df` degrees of freedom.
double chi_square_survival(double x, double df);

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
