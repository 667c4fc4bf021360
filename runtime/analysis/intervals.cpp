#include "analysis/intervals.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

double standard_deviation(int64_t n, double sum, double sum_squares) {
  if (n < 2) return 0;
  const long double count = static_cast<long double>(n);
  const long double variance =
      (static_cast<long double>(sum_squares) - static_cast<long double>(sum) * sum / count) / (count - 1);
  return variance > 0 ? static_cast<double>(std::sqrt(variance)) : 0.0;
}

Interval mean_interval(int64_t n, double sum, double sum_squares, double z) {
  if (n <= 0) return {};
  const double mean = sum / static_cast<double>(n);
  const double margin = z * standard_deviation(n, sum, sum_squares) / std::sqrt(static_cast<double>(n));
  return {mean, mean - margin, mean + margin};
}

namespace {

constexpr int kMaxIterations = 10000;
constexpr double kEpsilon = 1e-15;

// P(a, x) by its power series; converges fast for x < a + 1.
double gamma_p_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < kMaxIterations; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * kEpsilon) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by Lentz's continued fraction; converges fast for x >= a + 1.
double gamma_q_fraction(double a, double x) {
  const double tiny = std::numeric_limits<double>::min() / kEpsilon;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < kEpsilon) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

}  // namespace

double regularized_gamma_q(double a, double x) {
  if (!(a > 0) || std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 1;
  if (std::isinf(x)) return 0;
  if (x < a + 1) return std::clamp(1 - gamma_p_series(a, x), 0.0, 1.0);
  return std::clamp(gamma_q_fraction(a, x), 0.0, 1.0);
}

double chi_square_survival(double x, double df) { return regularized_gamma_q(df / 2, x / 2); }

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
