// TurnOrder: next/previous seats, direction, eliminations and rounds.
#include <catch2/catch.hpp>

#include <vector>

#include "core/turn_order.hpp"

using rulebook::TurnOrder;

namespace {

// Plays `turns` turns from the first seat, following next(); returns the seats.
std::vector<int> play(TurnOrder& t, int turns) {
  std::vector<int> seats;
  int seat = t.first();
  for (int i = 0; i < turns; ++i) {
    if (i > 0) seat = t.next(t.current());
    t.begin(seat);
    seats.push_back(seat);
  }
  return seats;
}

}  // namespace

TEST_CASE("TurnOrder: reset", "[turns]") {
  TurnOrder t;
  t.reset(4);
  CHECK(t.seats() == 4);
  CHECK(t.current() == -1);
  CHECK(t.first() == 0);
  CHECK(t.round() == 0);
  CHECK(t.turns_started() == 0);
  CHECK(t.direction() == 1);
  CHECK(t.active_count() == 4);
  // A reset forgets eliminations, turns and direction.
  t.eliminate(2);
  t.begin(0);
  t.set_direction(-1);
  t.reset(3, 1);
  CHECK(t.active_count() == 3);
  CHECK_FALSE(t.eliminated(2));
  CHECK(t.turns_started() == 0);
  CHECK(t.round() == 0);
  CHECK(t.first() == 1);
  CHECK(t.direction() == 1);
}

TEST_CASE("TurnOrder: next and previous go round the table", "[turns]") {
  TurnOrder t;
  t.reset(4);
  CHECK(t.next(0) == 1);
  CHECK(t.next(2) == 3);
  CHECK(t.next(3) == 0);
  CHECK(t.previous(0) == 3);
  CHECK(t.previous(3) == 2);
  CHECK(t.previous(1) == 0);
}

TEST_CASE("TurnOrder: direction -1 reverses next and previous", "[turns]") {
  TurnOrder t;
  t.reset(4, 0, -1);
  CHECK(t.direction() == -1);
  CHECK(t.next(0) == 3);
  CHECK(t.next(3) == 2);
  CHECK(t.next(1) == 0);
  CHECK(t.previous(0) == 1);
  CHECK(t.previous(3) == 0);
  // set_direction normalises to +-1.
  t.set_direction(5);
  CHECK(t.direction() == 1);
  CHECK(t.next(0) == 1);
  t.set_direction(-7);
  CHECK(t.direction() == -1);
  CHECK(t.next(0) == 3);
}

TEST_CASE("TurnOrder: eliminated seats are skipped", "[turns]") {
  TurnOrder t;
  t.reset(5);
  t.eliminate(1);
  t.eliminate(2);
  CHECK(t.eliminated(1));
  CHECK_FALSE(t.eliminated(0));
  CHECK(t.active_count() == 3);
  CHECK(t.next(0) == 3);
  CHECK(t.previous(3) == 0);
  CHECK(t.next(4) == 0);
  // next of an eliminated seat is the next one still in.
  CHECK(t.next(1) == 3);
  CHECK(t.previous(2) == 0);
  t.set_direction(-1);
  CHECK(t.next(3) == 0);
  CHECK(t.next(0) == 4);

  // The only seat left is its own neighbour; with nobody left, -1.
  t.set_direction(1);
  t.eliminate(0);
  t.eliminate(4);
  CHECK(t.active_count() == 1);
  CHECK(t.next(3) == 3);
  CHECK(t.previous(3) == 3);
  t.eliminate(3);
  CHECK(t.active_count() == 0);
  CHECK(t.next(3) == -1);
  CHECK(t.previous(0) == -1);
}

TEST_CASE("TurnOrder: reinstate brings a seat back", "[turns]") {
  TurnOrder t;
  t.reset(3);
  t.eliminate(1);
  CHECK(t.next(0) == 2);
  t.reinstate(1);
  CHECK_FALSE(t.eliminated(1));
  CHECK(t.active_count() == 3);
  CHECK(t.next(0) == 1);
  // Reinstating a seat that is in changes nothing.
  t.reinstate(2);
  CHECK(t.active_count() == 3);
}

TEST_CASE("TurnOrder: rounds are counted when play comes back to the first seat", "[turns]") {
  TurnOrder t;
  t.reset(3);
  CHECK(t.first_round());  // before any turn
  const auto seats = play(t, 7);
  CHECK(seats == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
  CHECK(t.turns_started() == 7);
  CHECK(t.round() == 3);
  CHECK_FALSE(t.first_round());
  CHECK(t.current() == 0);

  SECTION("round by round") {
    TurnOrder u;
    u.reset(3);
    std::vector<int> rounds;
    for (int seat : {0, 1, 2, 0, 1, 2}) {
      u.begin(seat);
      rounds.push_back(u.round());
    }
    CHECK(rounds == std::vector<int>{1, 1, 1, 2, 2, 2});
  }
  SECTION("an extra turn for the same seat is not a new round") {
    TurnOrder u;
    u.reset(3);
    u.begin(0);
    u.begin(1);
    u.begin(1);
    CHECK(u.round() == 1);
    CHECK(u.turns_started() == 3);
  }
  SECTION("counter-clockwise") {
    TurnOrder u;
    u.reset(4, 0, -1);
    const auto order = play(u, 5);
    CHECK(order == std::vector<int>{0, 3, 2, 1, 0});
    CHECK(u.round() == 2);
  }
  SECTION("a first seat other than 0") {
    TurnOrder u;
    u.reset(4, 2);
    const auto order = play(u, 5);
    CHECK(order == std::vector<int>{2, 3, 0, 1, 2});
    CHECK(u.round() == 2);
  }
}

TEST_CASE("TurnOrder: rounds still counted when the first seat is eliminated", "[turns]") {
  TurnOrder t;
  t.reset(4);
  t.begin(0);
  t.begin(1);
  t.eliminate(0);
  // Play continues 2, 3, then passes the first seat (out) to 1: a new round.
  std::vector<int> rounds;
  std::vector<int> order;
  for (int i = 0; i < 6; ++i) {
    const int seat = t.next(t.current());
    t.begin(seat);
    order.push_back(seat);
    rounds.push_back(t.round());
  }
  CHECK(order == std::vector<int>{2, 3, 1, 2, 3, 1});
  CHECK(rounds == std::vector<int>{1, 1, 2, 2, 2, 3});

  SECTION("the first seat out before the first turn") {
    TurnOrder u;
    u.reset(3);
    u.eliminate(0);
    const int first = u.next(u.first() - 1 < 0 ? u.seats() - 1 : u.first() - 1);
    CHECK(first == 1);
    std::vector<int> r;
    int seat = first;
    for (int i = 0; i < 5; ++i) {
      if (i > 0) seat = u.next(u.current());
      u.begin(seat);
      r.push_back(u.round());
    }
    CHECK(r == std::vector<int>{1, 1, 2, 2, 3});
  }
  SECTION("a lone survivor starts a new round every turn") {
    TurnOrder u;
    u.reset(2);
    u.begin(0);
    u.begin(1);
    u.eliminate(0);
    CHECK(u.next(1) == 1);
    u.begin(1);
    CHECK(u.round() == 2);
    u.begin(1);
    CHECK(u.round() == 3);
  }
}
