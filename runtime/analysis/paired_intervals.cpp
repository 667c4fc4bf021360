#include "analysis/paired_intervals.hpp"

#include <algorithm>
#include <cmath>

namespace rulebook::analysis {

double exact_mcnemar_p(int64_t up, int64_t down) {
  const int64_t differing = up + down;
  if (differing == 0) return 1;
  return std::min(1.0, 2 * binomial_half_cdf(std::min(up, down), differing));
}

namespace {

// Tango's score statistic for the true difference `delta`, continuity
// corrected: (|b - c - n delta| - 1)+ / sqrt(n (2 q + delta (1 - delta))),
// q the maximum-likelihood rate of down-moves given delta (the root of
// 2n q² - B q - c delta (1 - delta) = 0, B = b(1 - delta) + c(1 - 3 delta) - 2 m delta,
// m the games that did not differ). Signed like b - c - n delta.
double tango_statistic(double b, double c, double n, double delta) {
  const double m = n - b - c;
  const double big_b = b * (1 - delta) + c * (1 - 3 * delta) - 2 * m * delta;
  const double q = std::max(0.0, (big_b + std::sqrt(std::max(0.0, big_b * big_b + 8 * n * c * delta * (1 - delta)))) / (4 * n));
  const double variance = n * (2 * q + delta * (1 - delta));
  const double numerator = b - c - n * delta;
  const double corrected = std::max(0.0, std::fabs(numerator) - 1);
  if (corrected == 0) return 0;
  if (!(variance > 0)) return numerator > 0 ? INFINITY : -INFINITY;
  return (numerator > 0 ? corrected : -corrected) / std::sqrt(variance);
}

// The delta in [from, to] where the statistic crosses `target` (it falls as delta grows).
double solve(double b, double c, double n, double target, double from, double to) {
  for (int i = 0; i < 100; ++i) {
    const double mid = (from + to) / 2;
    (tango_statistic(b, c, n, mid) > target ? from : to) = mid;
  }
  return (from + to) / 2;
}

}  // namespace

Difference paired_rate_difference(int64_t up, int64_t down, int64_t games) {
  Difference d;
  d.games = games;
  d.games_differing = up + down;
  if (games <= 0) return d;
  const double b = static_cast<double>(up), c = static_cast<double>(down), n = static_cast<double>(games);
  const double estimate = (b - c) / n;
  d.interval = {estimate, solve(b, c, n, kZ95, -1, estimate), solve(b, c, n, -kZ95, estimate, 1)};
  d.p_value = exact_mcnemar_p(up, down);
  return d;
}

Difference paired_mean_difference(int64_t games, double sum, double sum_squares, int64_t games_differing) {
  Difference d;
  d.games = games;
  d.games_differing = games_differing;
  d.interval = mean_interval(games, sum, sum_squares);
  if (games < 2) return d;
  const double sd = standard_deviation(games, sum, sum_squares);
  if (sd > 0) {
    const double t = d.interval.estimate / (sd / std::sqrt(static_cast<double>(games)));
    d.p_value = student_t_two_sided(t, static_cast<double>(games - 1));
  } else {
    // Every game differed by the same amount: the sign test of its games.
    d.p_value = d.interval.estimate == 0 ? 1 : exact_mcnemar_p(games_differing, 0);
  }
  return d;
}

}  // namespace rulebook::analysis
