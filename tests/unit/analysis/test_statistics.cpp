// The statistics of simulations (runtime/analysis): intervals, the
// chi-square distribution, sufficient statistics that merge exactly,
// paired differences and the sentences built from them, on known values.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/fairness.hpp"
#include "analysis/paired_intervals.hpp"

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

TEST_CASE("statistics: Student-t intervals of means from sums", "[statistics]") {
  // 1, 2, 3, 4, 5: mean 3, sample standard deviation sqrt(2.5), t(4) 97.5% = 2.776445.
  const Interval i = mean_interval(5, 15, 55);
  CHECK(i.estimate == Approx(3));
  CHECK(i.half_width() == Approx(2.776445 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-6));
  CHECK(standard_deviation(5, 15, 55) == Approx(std::sqrt(2.5)));
  CHECK(student_t_critical(99) == Approx(1.984217).epsilon(1e-6));
  CHECK(student_t_critical(1) == Approx(12.7062).epsilon(1e-5));
  CHECK(student_t_critical(1e7) == Approx(kZ95).epsilon(1e-6));
  CHECK(student_t_two_sided(2.776445, 4) == Approx(0.05).epsilon(1e-5));
  // Values that are all equal: never a zero-width interval (the next game could differ).
  const Interval constant = mean_interval(4, 28, 196);  // 7, 7, 7, 7
  CHECK(constant.estimate == Approx(7));
  CHECK(constant.half_width() == Approx(zero_of_n_bound(4)));
  CHECK(constant.half_width() > 0);
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
  CHECK(noncentral_chi_square_cdf(7.814728, 3, 0) == Approx(0.95).epsilon(1e-6));
  // The Poisson(2) mixture of P(chi-square(3 + 2j) <= 10), summed by hand to j = 7: 0.7758.
  CHECK(noncentral_chi_square_cdf(10, 3, 4) == Approx(0.7758).epsilon(2e-4));
  CHECK(binomial_half_cdf(0, 4) == Approx(1.0 / 16));
  CHECK(binomial_half_cdf(2, 4) == Approx(11.0 / 16));
  CHECK(binomial_half_cdf(5000, 10000) == Approx(0.503989).epsilon(1e-5));
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
  return GameOutcome{turns, decisions, winners, std::move(reason), {}};
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
  // Figures that contradict each other are refused, each with its reason.
  auto contradiction = [&](const char* key, nlohmann::json value, const char* reason) {
    auto j = all.to_json();
    j[key] = std::move(value);
    INFO(key);
    CHECK_THROWS_WITH(RunStatistics::from_json(j), Catch::Contains("contradict themselves") && Catch::Contains(reason));
  };
  contradiction("wins_by_seat", {600, 0, 0}, "won 600 of 500 games");
  contradiction("wins_by_seat", {167, 167, 167}, "the seats' wins add up to 501");
  contradiction("no_winner", 3, "'no_winner' is 3");
  contradiction("shared_wins", 2, "'shared_wins' is 2");
  auto histogram = all.to_json()["turns_histogram"];
  histogram[0][0] = histogram[0][0].get<int64_t>() + 1;  // the same games, one turn longer
  contradiction("turns_histogram", histogram, "the turns add up to");
  auto by_count = all.to_json()["games_by_winner_count"];
  by_count[0] = 1;
  contradiction("games_by_winner_count", by_count, "'games_by_winner_count' counts 501 games");
  contradiction("end_reasons", {{"bust", 100}}, "'end_reasons' counts 100 games");
  auto decisions = all.to_json()["decisions"];
  decisions["sum_squares"] = 1;
  contradiction("decisions", decisions, "sum of squares");
}

TEST_CASE("statistics: paired differences over common seeds", "[statistics]") {
  PairedStatistics same(2), longer(2);
  RunStatistics base_runs(2), longer_runs(2);
  for (int i = 0; i < 200; ++i) {
    const GameOutcome base = game(10 + i % 7, i % 3 ? 1 : 2, 4);
    same.add(base, base);
    GameOutcome with = base;
    with.turns += 5 + i % 3;      // 6 more turns on average
    with.winners = i % 2 ? 1 : 2;  // seat 0 wins less often: 50% against 66.5%
    longer.add(base, with);
    base_runs.add(base);
    longer_runs.add(with);
  }
  CHECK(same.turns().interval.estimate == 0);
  CHECK_FALSE(same.turns().significant());
  CHECK(same.turns().no_game_differed());
  CHECK(same.turns().interval.half_width() > 0);  // never "+0.0 ± 0.0"
  CHECK_FALSE(same.win_rate(0).significant());
  CHECK(same.win_rate(0).interval.high > 0);
  const Difference same_fairness = same.unfairness(1);
  CHECK(same_fairness.no_game_differed());
  CHECK(same_fairness.interval.half_width() > 0);
  const std::string nothing = comparison_verdict("Nothing", base_runs, base_runs, same, same_fairness);
  CHECK(nothing.rfind("Nothing does not change the game's length significantly (no game differed (+0.0", 0) == 0);
  CHECK(nothing.find("no significant change in fairness") != std::string::npos);
  CHECK(longer.turns().interval.estimate == Approx(6.0).epsilon(0.01));
  CHECK(longer.turns().significant());
  CHECK(longer.win_rate(0).interval.estimate < 0);
  CHECK(longer.seat_advantage(0).interval.estimate == Approx(longer.win_rate(0).interval.estimate));
  CHECK(longer.seat_advantage(1).interval.estimate == Approx(-longer.win_rate(0).interval.estimate));
  const std::string verdict = comparison_verdict("Slow rule", base_runs, longer_runs, longer, longer.unfairness(1));
  CHECK(verdict.rfind("Slow rule lengthens the game by 6.0", 0) == 0);
  // Seat 0 went from +16.5 to 0 points: the game got fairer, seat 0 toward fair.
  CHECK(verdict.find("; fairer: unfairness 16.") != std::string::npos);
  CHECK(verdict.find("seat 0 moves toward fair (+16.5 -> +0.0 points)") != std::string::npos);
  PairedStatistics halves(2);
  halves.merge(same);
  CHECK(halves.games() == 200);
}

TEST_CASE("statistics: a seat brought toward fair is fairer, whatever the sign of its advantage", "[statistics]") {
  // Panda-monium's case: seat 2 from -1.8 to -0.8 points. Before the fix the
  // verdict read the sign ("seat 2's advantage grows by 1.0").
  RunStatistics base(2), with(2);
  PairedStatistics d(2);
  for (int i = 0; i < 4000; ++i) {
    const GameOutcome b = game(10, i % 10 < 7 ? 1 : 2);  // seat 1 wins 30%: -20 points
    const GameOutcome w = game(10, i % 10 < 6 ? 1 : 2);  // 40%: -10 points
    base.add(b);
    with.add(w);
    d.add(b, w, i);
  }
  const std::string verdict = comparison_verdict("Rule", base, with, d, d.unfairness(3));
  CHECK(verdict.find("; fairer:") != std::string::npos);
  CHECK(verdict.find("seat 1 moves toward fair (-20.0 -> -10.0 points)") != std::string::npos);
  CHECK(verdict.find("grows") == std::string::npos);
  CHECK(d.unfairness(3).interval.high < 0);
}

TEST_CASE("statistics: few games differing, exactly", "[statistics]") {
  // Four games differ, all one way: the exact McNemar test gives p = 0.125, not significant.
  CHECK(exact_mcnemar_p(4, 0) == Approx(0.125));
  CHECK(exact_mcnemar_p(0, 0) == 1);
  CHECK(exact_mcnemar_p(6, 0) == Approx(0.03125));
  const Difference four = paired_rate_difference(4, 0, 100);
  CHECK_FALSE(four.significant());
  CHECK_FALSE(four.interval.excludes_zero());
  CHECK(four.interval.estimate == Approx(0.04));
  // No game differed: the interval the sample allows, about 3.8/n wide each way.
  const Difference none = paired_rate_difference(0, 0, 1000);
  CHECK(none.no_game_differed());
  CHECK(none.interval.low < 0);
  CHECK(none.interval.high > 0.002);
  CHECK(none.interval.high < 0.006);
  // Many games: close to the normal interval of the mean difference.
  const Difference many = paired_rate_difference(600, 400, 10000);
  CHECK(many.significant());
  const double margin = kZ95 * std::sqrt((1000.0 / 10000 - 0.02 * 0.02) / 10000);
  CHECK(many.interval.low == Approx(0.02 - margin).epsilon(0.05));
  CHECK(many.interval.high == Approx(0.02 + margin).epsilon(0.05));
  // Holm: the smallest p times m, then step down, never decreasing.
  const auto holm = holm_adjusted({0.01, 0.04, 0.03, 0.5});
  CHECK(holm[0] == Approx(0.04));
  CHECK(holm[2] == Approx(0.09));
  CHECK(holm[1] == Approx(0.09));
  CHECK(holm[3] == Approx(0.5));
}

TEST_CASE("statistics: the equal-seats test is right with several winners a game", "[statistics]") {
  // Four seats, three winners a game (everybody but the loser), as in Hai
  // Noon. Seat 0 loses 31% of games, the others 23%: Cochran's Q sees it,
  // Pearson's chi-square on the win counts gives a third of it.
  RunStatistics s(4);
  for (int i = 0; i < 1000; ++i) {
    const int loser = i % 100 < 31 ? 0 : 1 + i % 3;
    s.add(game(10, 0b1111 & ~(uint64_t{1} << loser)));
  }
  const auto q = s.equal_seats_test();
  const auto pearson = chi_square_equal(s.wins());
  CHECK(q.significant());
  CHECK_FALSE(pearson.significant());
  CHECK(pearson.statistic == Approx(q.statistic / 3).epsilon(0.01));
  // Q by hand: 4 * 3 * sum (C - mean)² / (4 * 3000 - 9000).
  double spread = 0;
  for (int64_t w : s.wins()) spread += (w - 750.0) * (w - 750.0);
  CHECK(q.statistic == Approx(12 * spread / 3000));
  // One winner a game: Q is Pearson's chi-square.
  RunStatistics single(3);
  for (int i = 0; i < 300; ++i) single.add(game(5, uint64_t{1} << (i % 7 < 3 ? 0 : i % 2 + 1)));
  CHECK(single.equal_seats_test().statistic == Approx(chi_square_equal(single.wins()).statistic));
  // Games nobody or everybody won say nothing about the seats.
  RunStatistics idle(3);
  for (int i = 0; i < 10; ++i) idle.add(game(5, i % 2 ? 0 : 0b111));
  CHECK(idle.equal_seats_test().p_value == 1);
  CHECK(idle.unfairness().high == 0);
}

TEST_CASE("statistics: figures in words", "[statistics]") {
  CHECK(plus_minus({31.2, 30.3, 32.1}) == "31.2 ± 0.9");
  CHECK(plus_minus({-2.5, -2.54, -2.46}, 1, true) == "-2.50 ± 0.04");
  CHECK(percent({0.275, 0.271, 0.279}) == "27.5% ± 0.4%");
  // A lopsided interval is shown as it is, not as ± half its width.
  CHECK(percent(wilson_interval(20, 20)) == "100.0% [83.9%, 100.0%]");
  CHECK(plus_minus({0.5, 0.2, 0.6}, 1, true) == "+0.5 [+0.2, +0.6]");
  CHECK(short_percent(0.25) == "25%");
  CHECK(short_percent(1.0 / 3) == "33.3%");
  RunStatistics s(4);
  for (int i = 0; i < 40; ++i) s.add(game(10, uint64_t{1} << (i < 16 ? 0 : 1 + i % 3)));
  CHECK(seat_advantage_sentence(s).rfind("seat 0 wins 40.0% [", 0) == 0);
  CHECK(seat_advantage_sentence(s).find("against a fair 25%") != std::string::npos);
  CHECK(equal_seats_sentence(chi_square_equal({30, 20})) ==
        "Cochran's Q 2.00, 1 degree of freedom, p = 0.1573: no evidence that the seats differ (5% level)");
  CHECK(p_value_text(1e-7) == "p = 1.0e-07");
}
