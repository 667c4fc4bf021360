// The arena: every agent in every seat equally often, and its ratings.
#include <catch2/catch.hpp>

#include "batch/arena.hpp"

using namespace rulebook;

TEST_CASE("arena: seats rotate so that every agent plays every seat equally often", "[arena]") {
  for (int agents : {2, 3, 5}) {
    for (int players : {2, 3, 4}) {
      const int64_t games = arena_games(7, agents);
      CHECK(games % agents == 0);
      CHECK(games >= 7);
      std::vector<std::vector<int>> count(static_cast<size_t>(agents), std::vector<int>(static_cast<size_t>(players)));
      for (int64_t g = 0; g < games; ++g)
        for (Seat s : Seat::all(players)) ++count[static_cast<size_t>(arena_seat_agent(g, s, agents))][s.index()];
      for (const auto& row : count)
        for (int c : row) CHECK(c == games / agents);
    }
  }
}

TEST_CASE("arena: Bradley-Terry ratings on the Elo scale", "[arena]") {
  // Equal records: equal ratings, mean 0.
  auto even = bradley_terry_ratings({{0, 50}, {50, 0}});
  CHECK(even[0] == Approx(0).margin(1e-9));
  CHECK(even[1] == Approx(0).margin(1e-9));
  // 76 wins in 100 (with the prior's tie, 76.5 of 101): about +200 Elo apart.
  auto strong = bradley_terry_ratings({{0, 76}, {24, 0}});
  const double expected = 400 * std::log10(76.5 / 24.5);
  CHECK(strong[0] - strong[1] == Approx(expected).epsilon(1e-6));
  CHECK(strong[0] + strong[1] == Approx(0).margin(1e-9));
  // An agent that never lost has a finite rating; order is kept through a chain.
  auto chain = bradley_terry_ratings({{0, 10, 10}, {0, 0, 10}, {0, 0, 0}});
  CHECK(std::isfinite(chain[0]));
  CHECK(chain[0] > chain[1]);
  CHECK(chain[1] > chain[2]);
}
