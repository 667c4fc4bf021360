// The statistics of simulations (runtime/analysis): intervals, the
// chi-square distribution, sufficient statistics that merge exactly,
// paired differences and the sentences built from them, on known values.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/intervals.hpp"
#include "analysis/paired_statistics.hpp"
#include "analysis/run_statistics.hpp"
#include "analysis/verdict.hpp"

using namespace rulebook::analysis;

TEST_CASE("statistics: Wilson score intervals match published values", "[statistics]") {
  // Wilson (1927); values as given by R's prop.test(correct = FALSE) and binom::binom.wilson.
  const Interval half = wilson_interval(5, 10);
  CHECK(half.estimate == Approx(0.5));
  CHECK(half.low == Approx(0.2365931).epsilon(1e-6));
  CHECK(half.high == Approx(0.7634069).epsilon(1e-6));
  const Interval none = wilson_interval(0, 10);
  CHECK(none.low == 0);
  CHECK(none.high == Approx(0.2775328).epsilon(1e-6));
  const Interval all = wilson_interval(10, 10);
  CHECK(all.high == 1);
  CHECK(all.low == Approx(1 - 0.2775328).epsilon(1e-6));
  // (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), by hand for 27.5% of 10000.
  const Interval big = wilson_interval(2750, 10000);
  CHECK(big.low == Approx(0.266336).epsilon(1e-5));
  CHECK(big.high == Approx(0.283837).epsilon(1e-5));
  CHECK(wilson_interval(0, 0).high == 0);
}

TEST_CASE("statistics: normal intervals of means from sums", "[statistics]") {
  // 1, 2, 3, 4, 5: mean 3, sample standard deviation sqrt(2.5).
  const Interval i = mean_interval(5, 15, 55);
  CHECK(i.estimate == Approx(3));
  CHECK(i.half_width() == Approx(kZ95 * std::sqrt(2.5) / std::sqrt(5.0)));
  CHECK(standard_deviation(5, 15, 55) == Approx(std::sqrt(2.5)));
  const Interval constant = mean_interval(4, 28, 196);  // 7, 7, 7, 7
  CHECK(constant.low == Approx(7));
  CHECK(constant.high == Approx(7));
  CHECK(constant.half_width() == 0);
  CHECK(constant.excludes_zero());
  CHECK(mean_interval(1, 9, 81).half_width() == 0);
}

TEST_CASE("statistics: the chi-square distribution through the incomplete gamma function", "[statistics]") {
  CHECK(regularized_gamma_q(1, 2.5) == Approx(std::exp(-2.5)));
  CHECK(regularized_gamma_q(0.5, 0.7) == Approx(std::erfc(std::sqrt(0.7))));
  CHECK(regularized_gamma_q(0.5, 30) == Approx(std::erfc(std::sqrt(30.0))).epsilon(1e-6));
  CHECK(regularized_gamma_q(3, 0) == 1);
  // Critical values of the chi-square tables.
  CHECK(chi_square_survival(3.841459, 1) == Approx(0.05).epsilon(1e-5));
  CHECK(chi_square_survival(7.814728, 3) == Approx(0.05).epsilon(1e-5));
  CHECK(chi_square_survival(11.34487, 3) == Approx(0.01).epsilon(1e-5));
  CHECK(chi_square_survival(2, 2) == Approx(std::exp(-1.0)));
  CHECK(chi_square_survival(0, 4) == 1);
  CHECK(chi_square_survival(400, 3) < 1e-80);
  CHECK(chi_square_survival(400, 3) >= 0);
}

TEST_CASE("statistics: chi-square test of equal counts", "[statistics]") {
  const auto equal = chi_square_equal({25, 25, 25, 25});
  CHECK(equal.statistic == 0);
  CHECK(equal.degrees_of_freedom == 3);
  CHECK(equal.p_value == Approx(1));
  const auto two = chi_square_equal({30, 20});
  CHECK(two.statistic == Approx(2));
  CHECK(two.p_value == Approx(0.1572992).epsilon(1e-5));
  CHECK_FALSE(two.significant());
  const auto skewed = chi_square_equal({2900, 2500, 2400, 2200});
  CHECK(skewed.statistic == Approx(104));
  CHECK(skewed.significant());
  CHECK(chi_square_equal({0, 0, 0}).p_value == 1);
}

namespace {

GameOutcome game(int turns, uint64_t winners, int64_t decisions = 0, std::string reason = "") {
  return GameOutcome{turns, decisions, winners, std::move(reason)};
}

}  // namespace

TEST_CASE("statistics: rates, quantiles and histograms of a batch", "[statistics]") {
  RunStatistics s(2);
  for (int t = 1; t <= 10; ++t) s.add(game(t, t <= 7 ? 1 : 2, 2 * t, t == 10 ? "timeout" : ""));
  s.add(game(11, 3));  // a shared win
  s.add(game(12, 0));  // nobody wins
  CHECK(s.games() == 12);
  CHECK(s.wins() == std::vector<int64_t>{8, 4});
  CHECK(s.shared_wins() == 1);
  CHECK(s.no_winner() == 1);
  CHECK(s.fair_win_rate() == Approx(0.5));
  CHECK(s.most_unequal_seat() == 0);
  CHECK(s.turns().mean().estimate == Approx(6.5));
  CHECK(s.turns_quantile(0) == 1);
  CHECK(s.turns_quantile(0.1) == 2);   // rank ceil(1.2) = 2
  CHECK(s.turns_quantile(0.5) == 6);   // rank 6
  CHECK(s.turns_quantile(0.9) == 11);  // rank ceil(10.8) = 11
  CHECK(s.turns_quantile(1) == 12);
  const Interval median = s.turns_quantile_interval(0.5);
  CHECK(median.low <= 6);
  CHECK(median.high >= 6);
  CHECK(s.end_reasons().at("timeout") == 1);
  CHECK(s.end_reasons().at(kUnspecifiedReason) == 11);
  CHECK(s.decisions().sum == 110);

  std::map<int64_t, int64_t> lengths;
  for (int t = 0; t < 100; ++t) lengths[t] = 1;
  CHECK(nice_bin_width(0, 99, 20) == 5);
  CHECK(nice_bin_width(3, 7, 20) == 1);
  CHECK(nice_bin_width(0, 999, 20) == 50);
  const auto bins = bin_histogram(lengths);
  REQUIRE(bins.size() == 20);
  CHECK(bins.front().from == 0);
  CHECK(bins.front().to == 4);
  CHECK(bins.front().games == 5);
  CHECK(bins.back().to == 99);
}

TEST_CASE("statistics: batches merge to exactly the statistics of all their games", "[statistics]") {
  RunStatistics all(3), odd(3), even(3);
  for (int i = 0; i < 500; ++i) {
    const GameOutcome g = game(5 + (i * 7) % 23, uint64_t{1} << (i % 3), i % 11, i % 5 ? "" : "bust");
    all.add(g);
    (i % 2 ? odd : even).add(g);
  }
  RunStatistics merged(3);
  merged.merge(odd);
  merged.merge(even);
  CHECK(merged == all);
  CHECK(RunStatistics::from_json(all.to_json()) == all);
  CHECK(RunStatistics::from_json(nlohmann::json::parse(all.to_json().dump())) == all);
  CHECK_THROWS_AS(merged.merge(RunStatistics(2)), std::invalid_argument);
  auto damaged = all.to_json();
  damaged["wins_by_seat"] = {1, 2};
  CHECK_THROWS_WITH(RunStatistics::from_json(damaged), Catch::Contains("one count per seat"));
  damaged = all.to_json();
  damaged["games"] = 3;
  CHECK_THROWS_AS(RunStatistics::from_json(damaged), std::invalid_argument);
}

TEST_CASE("statistics: paired differences over common seeds", "[statistics]") {
  PairedStatistics same(2), longer(2);
  for (int i = 0; i < 200; ++i) {
    const GameOutcome base = game(10 + i % 7, i % 3 ? 1 : 2, 4);
    same.add(base, base);
    GameOutcome with = base;
    with.turns += 5 + i % 3;      // 6 more turns on average
    with.winners = i % 2 ? 1 : 2;  // seat 0 wins less often: 50% against 66.5%
    longer.add(base, with);
  }
  CHECK(same.turns().estimate == 0);
  CHECK_FALSE(same.turns().excludes_zero());
  CHECK_FALSE(same.win_rate(0).excludes_zero());
  CHECK(comparison_verdict("Nothing", same) ==
        "Nothing does not change the game's length significantly (+0.0 ± 0.0 turns); seat advantage unchanged");
  CHECK(longer.turns().estimate == Approx(6.0).epsilon(0.01));
  CHECK(longer.turns().excludes_zero());
  CHECK(longer.win_rate(0).estimate < 0);
  CHECK(longer.seat_advantage(0).estimate == Approx(longer.win_rate(0).estimate));
  CHECK(longer.seat_advantage(1).estimate == Approx(-longer.win_rate(0).estimate));
  const std::string verdict = comparison_verdict("Slow rule", longer);
  CHECK(verdict.rfind("Slow rule lengthens the game by 6.0", 0) == 0);
  CHECK(verdict.find("seat 0's advantage shrinks by") != std::string::npos);
  PairedStatistics halves(2);
  halves.merge(same);
  CHECK(halves.games() == 200);
}

TEST_CASE("statistics: figures in words", "[statistics]") {
  CHECK(plus_minus({31.2, 30.3, 32.1}) == "31.2 ± 0.9");
  CHECK(plus_minus({-2.5, -2.54, -2.46}, 1, true) == "-2.50 ± 0.04");
  CHECK(percent({0.275, 0.271, 0.279}) == "27.5% ± 0.4%");
  CHECK(short_percent(0.25) == "25%");
  CHECK(short_percent(1.0 / 3) == "33.3%");
  RunStatistics s(4);
  for (int i = 0; i < 40; ++i) s.add(game(10, uint64_t{1} << (i < 16 ? 0 : 1 + i % 3)));
  CHECK(seat_advantage_sentence(s).rfind("seat 0 wins 40.0% ± ", 0) == 0);
  CHECK(seat_advantage_sentence(s).find("against a fair 25%") != std::string::npos);
  CHECK(equal_seats_sentence(chi_square_equal({30, 20})) ==
        "chi-square 2.00, 1 degree of freedom, p = 0.1573: no evidence that the seats differ (5% level)");
  CHECK(p_value_text(1e-7) == "p = 1.0e-07");
}
