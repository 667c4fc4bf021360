// A game's own statistics tallied (analysis/stat_tally.hpp): exact merges
// in any order, Student-t means, nearest-rank quantiles, the part format.
#include <catch2/catch.hpp>

#include "analysis/paired_statistics.hpp"
#include "analysis/run_statistics.hpp"
#include "analysis/stat_tally.hpp"

using namespace rulebook::analysis;

TEST_CASE("stat tally: mean with a Student-t interval, spread and quantiles", "[statistics]") {
  StatTally t;
  for (double v : {1.0, 2.0, 3.0, 4.0, 5.0}) t.add(v);
  CHECK(t.count() == 5);
  const Interval m = t.mean();
  CHECK(m.estimate == Approx(3));
  // sd sqrt(2.5), t(4) 97.5% = 2.776445.
  CHECK(m.high - m.estimate == Approx(2.776445 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-6));
  CHECK(t.standard_deviation() == Approx(std::sqrt(2.5)));
  CHECK(t.quantile(0) == 1);
  CHECK(t.quantile(0.25) == 2);  // ceil(1.25) = 2nd smallest
  CHECK(t.quantile(0.5) == 3);
  CHECK(t.quantile(0.75) == 4);
  CHECK(t.quantile(1) == 5);
  StatTally empty;
  CHECK(empty.mean().estimate == 0);
  CHECK(empty.quantile(0.5) == 0);
  StatTally one;
  one.add(-0.0);
  one.add(2.5, 3);
  CHECK(one.histogram().begin()->first == 0.0);
  CHECK(one.nonzero() == 3);
  CHECK(one.quantile(0) == 0);
  CHECK(one.quantile(1) == 2.5);
  CHECK_THROWS(one.add(1.0 / 0.0));
}

TEST_CASE("stat tally: batches merge to exactly one batch, in any order", "[statistics]") {
  const double values[] = {0.1, 7, -3.25, 0.1, 1e6, 0.3, 2, 2, -3.25};
  StatTally all, a, b;
  for (size_t i = 0; i < std::size(values); ++i) {
    all.add(values[i]);
    (i % 2 ? a : b).add(values[i]);
  }
  StatTally ab = a, ba = b;
  ab.merge(b);
  ba.merge(a);
  CHECK(ab == all);
  CHECK(ba == all);
  CHECK(ab.mean().estimate == all.mean().estimate);  // bit for bit: summed in value order
  CHECK(ba.standard_deviation() == all.standard_deviation());
  // Through JSON, as a part keeps it.
  CHECK(StatTally::from_json(all.to_json(), "x") == all);
  CHECK(all.to_json()[0] == nlohmann::json::array({-3.25, 2}));
  CHECK(all.to_json()[3] == nlohmann::json::array({2, 2}));  // whole values as integers
  CHECK_THROWS_WITH(StatTally::from_json(nlohmann::json::array({nlohmann::json::array({1, 0})}), "m"),
                    Catch::Contains("stats.m"));
  CHECK_THROWS(StatTally::from_json(nlohmann::json::object(), "m"));
}

TEST_CASE("stat tally: names, and run statistics that carry them", "[statistics]") {
  CHECK(valid_stat_name("margin"));
  CHECK(valid_stat_name("_x2"));
  CHECK_FALSE(valid_stat_name("2x"));
  CHECK_FALSE(valid_stat_name("a-b"));
  CHECK_FALSE(valid_stat_name(""));
  CHECK_FALSE(valid_stat_name(std::string(65, 'a')));

  RunStatistics s(2), t(2);
  s.add(GameOutcome{3, 4, 1, "", nullptr, {{"margin", 2}}});
  s.add(GameOutcome{3, 4, 2, "", nullptr, {}});  // a game that gave none
  t.add(GameOutcome{5, 4, 2, "", nullptr, {{"margin", -1}, {"tricks", 4}}});
  s.merge(t);
  CHECK(s.stats().at("margin").count() == 2);
  CHECK(s.stats().at("tricks").count() == 1);
  const auto j = s.to_json();
  CHECK(RunStatistics::from_json(j) == s);
  auto without = j;
  without.erase("stats");  // a part from before stats
  CHECK(RunStatistics::from_json(without).stats().empty());
  auto contradicting = j;
  contradicting["stats"]["margin"] = nlohmann::json::array({nlohmann::json::array({1, 9})});
  CHECK_THROWS_WITH(RunStatistics::from_json(contradicting), Catch::Contains("stats.margin counts 9 of 3 games"));
  CHECK_FALSE(RunStatistics(2).to_json().contains("stats"));
}

TEST_CASE("stat tally: paired differences of a statistic's mean", "[statistics]") {
  PairedStatistics p(2);
  for (int i = 0; i < 20; ++i)
    p.add(GameOutcome{1, 1, 1, "", nullptr, {{"margin", double(i % 3)}}},
          GameOutcome{1, 1, 1, "", nullptr, {{"margin", double(i % 3 + (i % 2))}}}, i);
  p.add(GameOutcome{1, 1, 1, "", nullptr, {{"margin", 1}}}, GameOutcome{1, 1, 1, "", nullptr, {}}, 20);  // one side only
  const Difference d = p.stat("margin");
  CHECK(d.games == 20);
  CHECK(d.games_differing == 10);
  CHECK(d.interval.estimate == Approx(0.5));
  CHECK(d.significant());
  CHECK(p.stat("nothing").games == 0);
}

TEST_CASE("stat tally: values too large for a paired difference are said so, by name", "[statistics]") {
  // Finite values whose difference is past the largest double: the game is
  // no error, the statistic has no paired difference, the others keep theirs.
  const double big = 1.7e308;
  PairedStatistics p(2);
  p.add(GameOutcome{1, 1, 1, "", nullptr, {{"huge", big}, {"margin", 1}}},
        GameOutcome{1, 1, 1, "", nullptr, {{"huge", -big}, {"margin", 2}}}, 0);
  p.add(GameOutcome{1, 1, 1, "", nullptr, {{"huge", 1}, {"margin", 1}}},
        GameOutcome{1, 1, 1, "", nullptr, {{"huge", 1}, {"margin", 3}}}, 1);
  CHECK(p.stat_too_large("huge"));
  CHECK_FALSE(p.stat_too_large("margin"));
  CHECK(p.stat("margin").games == 2);
  CHECK(p.stat("margin").interval.estimate == Approx(1.5));
  // Differences that fit, but whose squares do not: no finite interval.
  PairedStatistics spread(2);
  for (int i = 0; i < 3; ++i)
    spread.add(GameOutcome{1, 1, 1, "", nullptr, {{"wide", 0}}},
               GameOutcome{1, 1, 1, "", nullptr, {{"wide", i % 2 ? 1e300 : -1e300}}}, i);
  CHECK(spread.stat_too_large("wide"));
  // Merged: the overflow goes with the games.
  PairedStatistics merged(2);
  merged.merge(p);
  CHECK(merged.stat_too_large("huge"));
}
