#include "analysis/intervals.hpp"

#include <algorithm>
#include <cmath>

namespace rulebook::analysis {

Interval wilson_interval(int64_t successes, int64_t trials, double z) {
  if (trials <= 0) return {};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double spread = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  // Clamp rounding noise: the interval always lies within [0, 1] and holds p.
  return {p, std::clamp(std::min(centre - spread, p), 0.0, 1.0), std::clamp(std::max(centre + spread, p), 0.0, 1.0)};
}

double zero_of_n_bound(int64_t trials) {
  if (trials <= 0) return 1;
  return kZ95 * kZ95 / (static_cast<double>(trials) + kZ95 * kZ95);
}

double standard_deviation(int64_t n, double sum, double sum_squares) {
  if (n < 2) return 0;
  const long double count = static_cast<long double>(n);
  const long double variance =
      (static_cast<long double>(sum_squares) - static_cast<long double>(sum) * sum / count) / (count - 1);
  return variance > 0 ? static_cast<double>(std::sqrt(variance)) : 0.0;
}

Interval mean_interval(int64_t n, double sum, double sum_squares) {
  if (n <= 0) return {};
  const double mean = sum / static_cast<double>(n);
  if (n < 2) return {mean, mean, mean};
  const double sd = standard_deviation(n, sum, sum_squares);
  const double margin = sd > 0 ? student_t_critical(static_cast<double>(n - 1)) * sd / std::sqrt(static_cast<double>(n))
                               : zero_of_n_bound(n);
  return {mean, mean - margin, mean + margin};
}

ChiSquareTest chi_square_equal(const std::vector<int64_t>& counts) {
  ChiSquareTest test;
  if (counts.size() < 2) return test;
  test.degrees_of_freedom = static_cast<int>(counts.size()) - 1;
  double total = 0;
  for (int64_t c : counts) total += static_cast<double>(c);
  if (total <= 0) return test;
  const double expected = total / static_cast<double>(counts.size());
  for (int64_t c : counts) {
    const double d = static_cast<double>(c) - expected;
    test.statistic += d * d / expected;
  }
  test.p_value = chi_square_survival(test.statistic, test.degrees_of_freedom);
  return test;
}

}  // namespace rulebook::analysis
