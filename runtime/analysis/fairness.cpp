#include "analysis/fairness.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/rng.hpp"

namespace rulebook::analysis {

namespace {

struct QParts {
  double statistic = 0;   // Q
  double denominator = 0; // k sum R - sum R²
  double games = 0;
  int players = 0;
};

QParts q_parts(const std::vector<int64_t>& wins, double sum_r, double sum_r2, double games) {
  QParts q;
  q.players = static_cast<int>(wins.size());
  q.games = games;
  const double k = q.players;
  q.denominator = k * sum_r - sum_r2;
  if (q.players < 2 || !(q.denominator > 0)) return q;
  const double mean = sum_r / k;
  double spread = 0;
  for (int64_t c : wins) spread += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean);
  q.statistic = k * (k - 1) * spread / q.denominator;
  return q;
}

QParts q_parts(const std::vector<int64_t>& wins, const std::vector<int64_t>& by_count) {
  double sum_r = 0, sum_r2 = 0, games = 0;
  for (size_t r = 0; r < by_count.size(); ++r) {
    const double g = static_cast<double>(by_count[r]);
    sum_r += g * static_cast<double>(r);
    sum_r2 += g * static_cast<double>(r * r);
    games += g;
  }
  return q_parts(wins, sum_r, sum_r2, games);
}

// Q's noncentrality -> unfairness: U² = lambda (k sum R - sum R²) / (k² (k - 1) n²).
double unfairness_of(double lambda, const QParts& q) {
  const double k = q.players;
  return std::sqrt(std::max(0.0, lambda) * q.denominator / (k * k * (k - 1) * q.games * q.games));
}

double bias_corrected(const QParts& q) {
  if (q.players < 2 || !(q.denominator > 0)) return 0;
  return unfairness_of(q.statistic - (q.players - 1), q);
}

// What the seats' rates show, before the bias correction.
double plain_unfairness(const QParts& q) {
  if (q.players < 2 || !(q.denominator > 0)) return 0;
  return unfairness_of(q.statistic, q);
}

// The noncentrality at which P(chi-square <= Q) = `probability`, or 0.
double noncentrality_for(double statistic, double df, double probability) {
  if (noncentral_chi_square_cdf(statistic, df, 0) <= probability) return 0;
  double low = 0, high = std::max(1.0, statistic);
  while (noncentral_chi_square_cdf(statistic, df, high) > probability) high *= 2;
  for (int i = 0; i < 80 && high - low > 1e-9 * high; ++i) {
    const double mid = (low + high) / 2;
    (noncentral_chi_square_cdf(statistic, df, mid) > probability ? low : high) = mid;
  }
  return (low + high) / 2;
}

}  // namespace

ChiSquareTest cochran_q_test(const std::vector<int64_t>& wins, const std::vector<int64_t>& by_count) {
  ChiSquareTest test;
  const QParts q = q_parts(wins, by_count);
  if (q.players < 2) return test;
  test.degrees_of_freedom = q.players - 1;
  if (!(q.denominator > 0)) return test;
  test.statistic = q.statistic;
  test.p_value = chi_square_survival(q.statistic, test.degrees_of_freedom);
  return test;
}

Interval unfairness(const std::vector<int64_t>& wins, const std::vector<int64_t>& by_count) {
  const QParts q = q_parts(wins, by_count);
  if (q.players < 2 || !(q.denominator > 0)) return {};
  const double df = q.players - 1;
  const double low = unfairness_of(noncentrality_for(q.statistic, df, 0.975), q);
  const double high = unfairness_of(noncentrality_for(q.statistic, df, 0.025), q);
  const double estimate = std::clamp(bias_corrected(q), low, high);
  return {estimate, low, high};
}

double unfairness_squared_estimate(const std::vector<int64_t>& wins, const std::vector<int64_t>& by_count) {
  const QParts q = q_parts(wins, by_count);
  if (q.players < 2 || !(q.denominator > 0)) return 0;
  const double lambda = q.statistic - (q.players - 1);
  const double u = unfairness_of(std::fabs(lambda), q);
  return lambda < 0 ? -u * u : u * u;
}

Difference unfairness_difference(const std::vector<uint64_t>& base, const std::vector<uint64_t>& with, int players,
                                 uint64_t seed, int resamples) {
  if (base.size() != with.size()) throw std::invalid_argument("unfairness_difference: sides of different sizes");
  Difference d;
  const auto n = static_cast<int64_t>(base.size());
  d.games = n;
  for (int64_t g = 0; g < n; ++g) d.games_differing += base[g] != with[g] ? 1 : 0;
  if (n == 0 || players < 2) return d;
  auto figure = [players](const std::vector<uint64_t>& side, const std::vector<uint32_t>* pick) {
    std::vector<int64_t> wins(static_cast<size_t>(players), 0);
    double sum_r = 0, sum_r2 = 0;
    const size_t count = pick ? pick->size() : side.size();
    for (size_t i = 0; i < count; ++i) {
      const uint64_t w = side[pick ? (*pick)[i] : i];
      int r = 0;
      for (int s = 0; s < players; ++s)
        if ((w >> s) & 1) {
          ++wins[static_cast<size_t>(s)];
          ++r;
        }
      sum_r += r;
      sum_r2 += r * r;
    }
    return plain_unfairness(q_parts(wins, sum_r, sum_r2, static_cast<double>(count)));
  };
  auto corrected = [players](const std::vector<uint64_t>& side) {
    std::vector<int64_t> wins(static_cast<size_t>(players), 0), by_count(static_cast<size_t>(players) + 1, 0);
    for (uint64_t w : side) {
      int r = 0;
      for (int s = 0; s < players; ++s)
        if ((w >> s) & 1) {
          ++wins[static_cast<size_t>(s)];
          ++r;
        }
      ++by_count[static_cast<size_t>(r)];
    }
    return unfairness(wins, by_count).estimate;
  };
  const double base_estimate = corrected(base), with_estimate = corrected(with);
  const double plain = figure(with, nullptr) - figure(base, nullptr);
  const double estimate = with_estimate - base_estimate;
  if (d.games_differing == 0) {
    const double bound = zero_of_n_bound(n);
    d.interval = {estimate, estimate - bound, estimate + bound};
    return d;
  }
  Rng rng;
  rng.reseed(seed, 0x666169726e657373ull);  // the "fairness" stream
  std::vector<double> draws;
  draws.reserve(static_cast<size_t>(resamples));
  std::vector<uint32_t> pick(static_cast<size_t>(n));
  int at_or_below = 0, at_or_above = 0;
  for (int b = 0; b < resamples; ++b) {
    for (auto& p : pick) p = rng.below(static_cast<uint32_t>(n));
    const double diff = figure(with, &pick) - figure(base, &pick);
    draws.push_back(diff);
    at_or_below += 2 * plain - diff <= 0 ? 1 : 0;
    at_or_above += 2 * plain - diff >= 0 ? 1 : 0;
  }
  std::sort(draws.begin(), draws.end());
  auto quantile = [&](double q) {
    const double at = q * static_cast<double>(draws.size() - 1);
    const auto i = static_cast<size_t>(std::floor(at));
    const size_t j = std::min(i + 1, draws.size() - 1);
    return draws[i] + (draws[j] - draws[i]) * (at - static_cast<double>(i));
  };
  // The basic bootstrap interval, 2 plain - quantiles: resampling adds the
  // same noise again, so the bootstrap's shift measures the plain figure's
  // bias, which this removes.
  d.interval = {estimate, std::min(estimate, 2 * plain - quantile(0.975)), std::max(estimate, 2 * plain - quantile(0.025))};
  d.p_value = std::min(1.0, 2.0 * (std::min(at_or_below, at_or_above) + 1) / (resamples + 1.0));
  return d;
}

std::vector<double> holm_adjusted(const std::vector<double>& p_values) {
  const size_t m = p_values.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (size_t rank = 0; rank < m; ++rank) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - rank) * p_values[order[rank]]));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

}  // namespace rulebook::analysis
