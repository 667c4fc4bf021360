// The metrics of how a game felt, on traces whose true values are known by
// construction: a leader who never changes, a winner fixed before the
// first decision, a comeback, a seat that waits, a seat knocked out; and
// the coverage of their 95% intervals over 1,000 seeded runs of a random
// game whose expected values are known in closed form.
#include <catch2/catch.hpp>

#include <cmath>
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
// probability p; the leader at the end wins; seat 1 is knocked out before
// the last decision with probability q. Expected: lead changes (steps-1) p,
// sit_out q.
GameTrace random_game(rulebook::Rng& rng, int steps, double p, double q, GameTrace& t) {
  t.begin(2);
  int leader = 0;
  const bool knocked_out = rng.unit() < q;
  std::vector<double> v(2);
  for (int i = 0; i < steps; ++i) {
    if (i > 0 && rng.unit() < p) leader = 1 - leader;
    v[0] = leader == 0 ? 1 : 0;
    v[1] = 1 - v[0];
    t.add(i % 2, i, v, knocked_out && i >= steps - 2 ? 0b10 : 0);
  }
  t.add(-1, steps, v, 0);
  t.finish(uint64_t{1} << leader, steps);
  return t;
}

}  // namespace

TEST_CASE("the intervals of lead changes and sit-out cover their true means (1,000 runs)", "[metrics][coverage]") {
  const int runs = 1000, games = 100, steps = 12;
  const double p = 0.2, q = 0.3;
  rulebook::Rng rng(42);
  GameTrace t;
  int lead_covered = 0, sit_covered = 0;
  for (int run = 0; run < runs; ++run) {
    StatTallies tallies;
    for (int g = 0; g < games; ++g) {
      GameStats m;
      add_trace_metrics(random_game(rng, steps, p, q, t), m);
      add_stats(tallies, m);
    }
    const Interval lead = tallies.at("lead_changes").mean(), sit = tallies.at("sit_out").mean();
    lead_covered += lead.low <= (steps - 1) * p && (steps - 1) * p <= lead.high ? 1 : 0;
    sit_covered += sit.low <= q && q <= sit.high ? 1 : 0;
  }
  CHECK(lead_covered >= lowest_coverage(runs) * runs);
  CHECK(lead_covered <= 0.99 * runs);
  CHECK(sit_covered >= lowest_coverage(runs) * runs);
  CHECK(sit_covered <= 0.99 * runs);
}
