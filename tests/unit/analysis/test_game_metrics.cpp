// The metrics of how a game felt, on traces whose true values are known by
// construction: a leader who never changes, a winner fixed before the
// first decision, a comeback, a seat that waits, a seat knocked out; and
// the coverage of their 95% intervals over 1,000 seeded runs of a random
// game whose expected values are known in closed form.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "analysis/game_metrics.hpp"
#include "analysis/lead_metrics.hpp"
#include "analysis/stat_tally.hpp"
#include "analysis/wait_metrics.hpp"
#include "core/rng.hpp"

using namespace rulebook::analysis;

namespace {

// A trace from rows {seat, {values...}, out bits}; the last row is the final position.
struct Row {
  int seat;
  std::vector<double> values;
  uint64_t out = 0;
};
GameTrace trace_of(int players, const std::vector<Row>& rows, uint64_t winners, int turns) {
  GameTrace t;
  t.begin(players);
  for (size_t i = 0; i < rows.size(); ++i) t.add(rows[i].seat, static_cast<int>(i), rows[i].values, rows[i].out);
  t.finish(winners, turns);
  return t;
}

GameStats metrics_of(const GameTrace& t) {
  GameStats m;
  add_trace_metrics(t, m);
  return m;
}

}  // namespace

TEST_CASE("a leader who never changes: no lead change, no drama, decided from the start", "[metrics]") {
  const auto t = trace_of(2, {{0, {3, 1}}, {1, {4, 1}}, {0, {5, 2}}, {1, {6, 2}}, {-1, {1, 0}}}, 0b01, 4);
  const auto m = metrics_of(t);
  CHECK(m.at("lead_changes") == 0);
  CHECK(m.at("lead_changes_per_10_turns") == 0);
  CHECK(m.at("drama") == 0);
  CHECK(m.at("decisiveness") == 1);
}

TEST_CASE("a comeback: the lead changes, the winner trailed, and it was decided late", "[metrics]") {
  // Seat 1 leads by 0.4 then 0.2, ties, then seat 0 leads and wins.
  const auto t = trace_of(2, {{0, {0.3, 0.7}}, {1, {0.4, 0.6}}, {0, {0.5, 0.5}}, {1, {0.8, 0.2}}, {-1, {1, 0}}},
                          0b01, 4);
  CHECK(lead_changes(t) == 1);
  CHECK(drama(t) == Approx(0.3));  // (0.4 + 0.2) / 2 decisions where the winner trailed
  CHECK(decisiveness(t) == Approx(0.25));  // one decision of four after seat 0 led for good
  const auto m = metrics_of(t);
  CHECK(m.at("lead_changes_per_10_turns") == Approx(2.5));
}

TEST_CASE("a lead that swings back and forth counts every change; a tie changes nothing", "[metrics]") {
  const auto t = trace_of(2, {{0, {1, 0}}, {1, {0, 1}}, {0, {1, 1}}, {1, {0, 1}}, {0, {1, 0}}, {-1, {1, 0}}}, 0b01, 5);
  CHECK(lead_changes(t) == 2);  // 0 -> 1, (tie), 1 -> 0
  CHECK(decisiveness(t) == Approx(0.2));
}

TEST_CASE("without a sole winner there is no drama nor decisiveness", "[metrics]") {
  const auto shared = trace_of(2, {{0, {1, 1}}, {-1, {0.5, 0.5}}}, 0b11, 1);
  const auto m = metrics_of(shared);
  CHECK_FALSE(m.count("drama"));
  CHECK_FALSE(m.count("decisiveness"));
  CHECK(m.at("lead_changes") == 0);
}

TEST_CASE("downtime counts the other seats' decisions between two of a seat's own", "[metrics]") {
  // Seat 0 decides, then seats 1 and 2 twice each, then seat 0 again, then 1, 0.
  const auto t = trace_of(3,
                          {{0, {0, 0, 0}}, {1, {0, 0, 0}}, {2, {0, 0, 0}}, {1, {0, 0, 0}}, {2, {0, 0, 0}},
                           {0, {0, 0, 0}}, {1, {0, 0, 0}}, {0, {0, 0, 0}}, {-1, {1, 0, 0}}},
                          0b001, 8);
  CHECK(waits(t, 0) == std::vector<int>{4, 1});
  CHECK(waits(t, 1) == std::vector<int>{1, 2});
  CHECK(waits(t, 2) == std::vector<int>{1});
  const auto m = metrics_of(t);
  CHECK(m.at("downtime_seat0") == Approx(2.5));
  CHECK(m.at("downtime_p90_seat0") == 4);
  CHECK(m.at("downtime_seat2") == 1);
  CHECK(m.at("downtime") == Approx((4 + 1 + 1 + 2 + 1) / 5.0));
  CHECK(m.at("downtime_p90") == 4);
}

TEST_CASE("sit-out: a seat out before the end and the share of the game it then waits", "[metrics]") {
  // Seat 2 is out from the third decision on: it waits 3 of the 5 decisions.
  const auto t = trace_of(3,
                          {{0, {0, 0, 0}}, {2, {0, 0, 0}}, {0, {0, 0, 0}, 0b100}, {1, {0, 0, 0}, 0b100},
                           {0, {0, 0, 0}, 0b100}, {-1, {1, 0, 0}, 0b110}},
                          0b001, 5);
  const SitOut out = sit_out(t);
  CHECK(out.seats == 1);
  CHECK(out.out_seats == 0b100);
  CHECK(out.wait_share == Approx(0.6));
  const auto m = metrics_of(t);
  CHECK(m.at("sit_out") == 1);
  CHECK(m.at("sit_out_wait") == Approx(0.6));
  // Out only at the end (the loser of the last decision) is not sitting out.
  const auto none = trace_of(2, {{0, {0, 0}}, {1, {0, 0}}, {-1, {1, 0}, 0b10}}, 0b01, 2);
  CHECK(metrics_of(none).at("sit_out") == 0);
  CHECK_FALSE(metrics_of(none).count("sit_out_wait"));
}

TEST_CASE("every metric has an entry in the catalogue, seats' metrics by their family", "[metrics]") {
  const auto t = trace_of(2, {{0, {0.3, 0.7}}, {1, {0.4, 0.6}}, {0, {0.8, 0.2}}, {-1, {1, 0}}}, 0b01, 3);
  for (const auto& [name, value] : metrics_of(t)) {
    INFO(name);
    CHECK(metric_info(name) != nullptr);
  }
  CHECK(metric_info("kingmaking") != nullptr);
  CHECK(metric_info("no_such_metric") == nullptr);
}

namespace {

// The least coverage a correct 95% interval shows in `samples` draws.
double lowest_coverage(int samples) { return 0.95 - 3 * std::sqrt(0.95 * 0.05 / samples); }

// A random two-seat game of `steps` decisions, alternating seats: before
// each decision after the first, the lead passes to the other seat with
// probability p; the leader at the end wins; with probability q seat 1 is
// knocked out before one of the last three decisions (each alike). Known
// in closed form, with n = steps:
//   lead changes (n - 1) p, per 10 turns 10 (n - 1) p / n;
//   drama (the winner trailed by 1 wherever it trailed) 1 - (1 - p)^(n - 1),
//     the chance that the lead ever changed;
//   decisiveness E[R] / n, R the decisions since the last change:
//     P(R >= k) = (1 - p)^(k - 1), so E[R] = (1 - (1 - p)^n) / p;
//   sit_out q; sit_out_wait (games with one) (1 + 2 + 3) / 3 / n = 2 / n.
GameTrace& random_game(rulebook::Rng& rng, int steps, double p, double q, GameTrace& t) {
  t.begin(2);
  int leader = 0;
  const bool knocked_out = rng.unit() < q;
  const int out_from = steps - 1 - static_cast<int>(rng.below(3));
  std::vector<double> v(2);
  for (int i = 0; i < steps; ++i) {
    if (i > 0 && rng.unit() < p) leader = 1 - leader;
    v[0] = leader == 0 ? 1 : 0;
    v[1] = 1 - v[0];
    t.add(i % 2, i, v, knocked_out && i >= out_from ? 0b10 : 0);
  }
  t.add(-1, steps, v, knocked_out ? 0b10 : 0);
  t.finish(uint64_t{1} << leader, steps);
  return t;
}

// Seat 0 decides, seat 1 decides K times (K = 1, 2 or 3 alike), seat 0
// decides again: seat 0's one wait is K, so downtime_seat0 and its 90th
// percentile have mean 2.
GameTrace& waiting_game(rulebook::Rng& rng, GameTrace& t) {
  t.begin(2);
  const std::vector<double> v{0, 0};
  const int k = 1 + static_cast<int>(rng.below(3));
  int step = 0;
  t.add(0, step++, v, 0);
  for (int i = 0; i < k; ++i) t.add(1, step++, v, 0);
  t.add(0, step++, v, 0);
  t.add(-1, step, v, 0);
  t.finish(0b01, step);
  return t;
}

// Over `runs` runs of `games` games each, how often each named metric's 95%
// interval holds its true mean.
struct Coverage {
  std::map<std::string, double> truth;
  std::map<std::string, int> covered;
  void count(const StatTallies& tallies) {
    for (const auto& [name, value] : truth) {
      const Interval i = tallies.at(name).mean();
      covered[name] += i.low <= value && value <= i.high ? 1 : 0;
    }
  }
};

}  // namespace

TEST_CASE("every metric's 95% interval covers its true mean in about 95% of 1,000 runs", "[metrics][coverage]") {
  const int runs = 1000, games = 100, n = 12;
  const double p = 0.1, q = 0.3;
  Coverage lead, wait;
  lead.truth = {{"lead_changes", (n - 1) * p},
                {"lead_changes_per_10_turns", 10.0 * (n - 1) * p / n},
                {"drama", 1 - std::pow(1 - p, n - 1)},
                {"decisiveness", (1 - std::pow(1 - p, n)) / p / n},
                {"sit_out", q},
                {"sit_out_wait", 2.0 / n}};
  wait.truth = {{"downtime_seat0", 2.0}, {"downtime_p90_seat0", 2.0}};
  rulebook::Rng rng(42);
  GameTrace t;
  for (int run = 0; run < runs; ++run) {
    StatTallies lead_tallies, wait_tallies;
    for (int g = 0; g < games; ++g) {
      GameStats m;
      add_trace_metrics(random_game(rng, n, p, q, t), m);
      add_stats(lead_tallies, m);
      m.clear();
      add_trace_metrics(waiting_game(rng, t), m);
      add_stats(wait_tallies, m);
    }
    lead.count(lead_tallies);
    wait.count(wait_tallies);
  }
  for (const Coverage* c : {&lead, &wait})
    for (const auto& [name, times] : c->covered) {
      INFO(name << " covered its true mean in " << times << " of " << runs << " runs");
      CHECK(times >= lowest_coverage(runs) * runs);
      CHECK(times <= 0.99 * runs);
    }
}

TEST_CASE("a share's interval stays within [0, 1]", "[metrics][intervals]") {
  // No game had a seat out: 0.0% [0.0%, 0.2%] at 2,000 games, never below 0
  // (Student's t with the zero-spread margin gave [-0.2%, 0.2%]).
  StatTally none;
  none.add(0, 2000);
  const Interval out = metric_mean("sit_out", none);
  CHECK(out.estimate == 0);
  CHECK(out.low == 0);
  CHECK(out.high > 0);
  CHECK(out.high < 0.01);
  CHECK(out.high == Approx(wilson_interval(0, 2000).high));
  // Every game: up to 1, not beyond.
  StatTally all;
  all.add(1, 50);
  CHECK(metric_mean("kingmaking", all).high == 1);
  CHECK(metric_mean("kingmaking", all).low < 1);
  // A 0/1 share in between: the Wilson interval of the games where it was 1.
  StatTally some;
  some.add(1, 3);
  some.add(0, 97);
  const Interval w = wilson_interval(3, 100), m = metric_mean("sit_out", some);
  CHECK(m.estimate == Approx(0.03));
  CHECK(m.low == Approx(w.low));
  CHECK(m.high == Approx(w.high));
  // A share that is not 0/1 per game: Student's t, clipped to [0, 1].
  StatTally near_one;
  near_one.add(1, 8);
  near_one.add(0.5, 2);
  const Interval d = metric_mean("decisiveness", near_one);
  CHECK(d.estimate == Approx(0.9));
  CHECK(d.high == 1);
  CHECK(d.low == Approx(near_one.mean().low));
  CHECK(near_one.mean().high > 1);  // what the clip removes
  // Not a share: the mean's own interval, which may well go below 0.
  StatTally changes;
  changes.add(0, 20);
  CHECK(metric_mean("lead_changes", changes).low == changes.mean().low);
  CHECK(metric_mean("lead_changes", changes).low < 0);
}
