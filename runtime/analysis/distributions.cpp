#include "analysis/distributions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rulebook::analysis {

namespace {

constexpr int kMaxIterations = 10000;
constexpr double kEpsilon = 1e-15;
const double kTiny = std::numeric_limits<double>::min() / kEpsilon;

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
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < kEpsilon) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// The continued fraction of the incomplete beta function (Lentz).
double beta_fraction(double x, double a, double b) {
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < kMaxIterations; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < kEpsilon) break;
  }
  return h;
}

}  // namespace

double regularized_gamma_q(double a, double x) {
  if (!(a > 0) || std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 1;
  if (std::isinf(x)) return 0;
  if (x < a + 1) return std::clamp(1 - gamma_p_series(a, x), 0.0, 1.0);
  return std::clamp(gamma_q_fraction(a, x), 0.0, 1.0);
}

double regularized_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  // The fraction converges fast on the side of the mean a / (a + b).
  if (x < (a + 1) / (a + b + 2)) return std::clamp(front * beta_fraction(x, a, b) / a, 0.0, 1.0);
  return std::clamp(1 - front * beta_fraction(1 - x, b, a) / b, 0.0, 1.0);
}

double chi_square_survival(double x, double df) { return regularized_gamma_q(df / 2, x / 2); }

double noncentral_chi_square_cdf(double x, double df, double lambda) {
  if (x <= 0) return 0;
  if (lambda <= 0) return 1 - chi_square_survival(x, df);
  // Sum the Poisson weights outwards from their mode until they vanish.
  const double mean = lambda / 2;
  const auto mode = static_cast<int64_t>(std::floor(mean));
  auto weight = [&](int64_t j) { return std::exp(-mean + j * std::log(mean) - std::lgamma(j + 1.0)); };
  auto term = [&](int64_t j) { return weight(j) * (1 - chi_square_survival(x, df + 2.0 * j)); };
  double sum = 0;
  for (int64_t j = mode; j >= 0; --j) {
    const double t = term(j);
    sum += t;
    if (weight(j) < 1e-17 && j < mode) break;
  }
  for (int64_t j = mode + 1;; ++j) {
    const double t = term(j);
    sum += t;
    if (weight(j) < 1e-17 || t < 1e-17 * sum) break;
  }
  return std::clamp(sum, 0.0, 1.0);
}

double student_t_two_sided(double t, double df) {
  if (!(df > 0)) return 1;
  t = std::fabs(t);
  if (std::isinf(t)) return 0;
  return regularized_beta(df / (df + t * t), df / 2, 0.5);
}

double student_t_critical(double df, double level) {
  const double tail = 1 - level;
  double low = 0, high = 1;
  while (student_t_two_sided(high, df) > tail && high < 1e12) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (student_t_two_sided(mid, df) > tail ? low : high) = mid;
  }
  return (low + high) / 2;
}

double binomial_half_cdf(int64_t k, int64_t n) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // log C(n, j) - n log 2, summed from the largest term (j = k <= n / 2 is
  // the usual case) with log-sum-exp.
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  auto log_term = [&](int64_t j) {
    return std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(static_cast<double>(n - j) + 1) + log_half_n;
  };
  if (2 * k > n) return 1 - binomial_half_cdf(n - k - 1, n);
  const double top = log_term(k);
  double sum = 0;
  for (int64_t j = k; j >= 0; --j) {
    const double ratio = std::exp(log_term(j) - top);
    sum += ratio;
    if (ratio < 1e-17) break;
  }
  return std::min(1.0, std::exp(top) * sum);
}

}  // namespace rulebook::analysis
