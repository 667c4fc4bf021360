// BoardGeometry: cells and coordinates, the eight directions, adjacency,
// lines of sight, rings and named paths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/board_geometry.hpp"

using rulebook::BoardGeometry;
using rulebook::BoardPath;
using rulebook::Direction;

namespace {

using Cells = std::vector<int>;

}  // namespace

TEST_CASE("BoardGeometry: cells and coordinates", "[board]") {
  BoardGeometry g(5, 3);  // 5 wide, 3 high
  CHECK(g.width() == 5);
  CHECK(g.height() == 3);
  CHECK(g.cell_count() == 15);
  CHECK(g.cell(0, 0) == 0);
  CHECK(g.cell(4, 0) == 4);
  CHECK(g.cell(0, 1) == 5);
  CHECK(g.cell(4, 2) == 14);
  CHECK(g.cell(5, 0) == -1);
  CHECK(g.cell(0, 3) == -1);
  CHECK(g.cell(-1, 0) == -1);
  CHECK(g.cell(0, -1) == -1);
  for (int c = 0; c < g.cell_count(); ++c) {
    CHECK(g.contains(g.x(c), g.y(c)));
    CHECK(g.cell(g.x(c), g.y(c)) == c);
  }
  CHECK(g.x(7) == 2);
  CHECK(g.y(7) == 1);
}

TEST_CASE("BoardGeometry: direction names", "[board]") {
  Direction d;
  REQUIRE(rulebook::parse_direction("north", d));
  CHECK(d == Direction::North);
  REQUIRE(rulebook::parse_direction("sw", d));
  CHECK(d == Direction::SouthWest);
  REQUIRE(rulebook::parse_direction("northeast", d));
  CHECK(d == Direction::NorthEast);
  CHECK_FALSE(rulebook::parse_direction("up", d));
  CHECK_FALSE(rulebook::parse_direction("North", d));
  CHECK(std::string(rulebook::to_string(Direction::West)) == "west");
  CHECK(rulebook::is_diagonal(Direction::SouthEast));
  CHECK_FALSE(rulebook::is_diagonal(Direction::South));
}

TEST_CASE("BoardGeometry: step in all eight directions, and off the edges", "[board]") {
  BoardGeometry g(3, 3);
  const int centre = g.cell(1, 1);
  // y grows downwards: north is row 0.
  CHECK(g.step(centre, Direction::North) == g.cell(1, 0));
  CHECK(g.step(centre, Direction::NorthEast) == g.cell(2, 0));
  CHECK(g.step(centre, Direction::East) == g.cell(2, 1));
  CHECK(g.step(centre, Direction::SouthEast) == g.cell(2, 2));
  CHECK(g.step(centre, Direction::South) == g.cell(1, 2));
  CHECK(g.step(centre, Direction::SouthWest) == g.cell(0, 2));
  CHECK(g.step(centre, Direction::West) == g.cell(0, 1));
  CHECK(g.step(centre, Direction::NorthWest) == g.cell(0, 0));

  const int top_left = g.cell(0, 0);
  CHECK(g.step(top_left, Direction::North) == -1);
  CHECK(g.step(top_left, Direction::West) == -1);
  CHECK(g.step(top_left, Direction::NorthWest) == -1);
  CHECK(g.step(top_left, Direction::NorthEast) == -1);
  CHECK(g.step(top_left, Direction::SouthWest) == -1);
  CHECK(g.step(top_left, Direction::East) == g.cell(1, 0));
  CHECK(g.step(top_left, Direction::SouthEast) == centre);

  // The east edge must not wrap onto the next row.
  const int right_middle = g.cell(2, 1);
  CHECK(g.step(right_middle, Direction::East) == -1);
  CHECK(g.step(right_middle, Direction::NorthEast) == -1);
  CHECK(g.step(right_middle, Direction::SouthEast) == -1);
  const int bottom_right = g.cell(2, 2);
  CHECK(g.step(bottom_right, Direction::South) == -1);
  CHECK(g.step(bottom_right, Direction::East) == -1);
  CHECK(g.step(bottom_right, Direction::SouthEast) == -1);
  // The west edge must not wrap onto the previous row.
  CHECK(g.step(g.cell(0, 1), Direction::West) == -1);
  CHECK(g.step(g.cell(0, 2), Direction::NorthWest) == -1);

  // A board one cell wide.
  BoardGeometry column(1, 4);
  CHECK(column.step(0, Direction::South) == 1);
  CHECK(column.step(1, Direction::East) == -1);
  CHECK(column.step(1, Direction::West) == -1);
  CHECK(column.step(3, Direction::South) == -1);
}

TEST_CASE("BoardGeometry: neighbours, orthogonal and diagonal, clockwise from north", "[board]") {
  BoardGeometry g(3, 3);
  const int c = g.cell(1, 1);
  CHECK(g.neighbours(c, false) == Cells{g.cell(1, 0), g.cell(2, 1), g.cell(1, 2), g.cell(0, 1)});
  CHECK(g.neighbours(c, true) == Cells{g.cell(1, 0), g.cell(2, 0), g.cell(2, 1), g.cell(2, 2),
                                       g.cell(1, 2), g.cell(0, 2), g.cell(0, 1), g.cell(0, 0)});
  // A corner has two orthogonal and three neighbours in all.
  CHECK(g.neighbours(g.cell(0, 0), false) == Cells{g.cell(1, 0), g.cell(0, 1)});
  CHECK(g.neighbours(g.cell(0, 0), true) == Cells{g.cell(1, 0), g.cell(1, 1), g.cell(0, 1)});
  // An edge cell.
  CHECK(g.neighbours(g.cell(2, 1), false) == Cells{g.cell(2, 0), g.cell(2, 2), g.cell(1, 1)});
  CHECK(g.neighbours(g.cell(2, 1), true).size() == 5u);
}

TEST_CASE("BoardGeometry: adjacent", "[board]") {
  BoardGeometry g(4, 4);
  const int a = g.cell(1, 1);
  CHECK(g.adjacent(a, g.cell(1, 2), false));
  CHECK(g.adjacent(a, g.cell(0, 1), false));
  CHECK_FALSE(g.adjacent(a, g.cell(2, 2), false));
  CHECK(g.adjacent(a, g.cell(2, 2), true));
  CHECK(g.adjacent(a, g.cell(0, 0), true));
  CHECK_FALSE(g.adjacent(a, a, false));
  CHECK_FALSE(g.adjacent(a, a, true));
  CHECK_FALSE(g.adjacent(a, g.cell(3, 1), false));
  CHECK_FALSE(g.adjacent(a, g.cell(3, 3), true));
  // Cells at the ends of neighbouring rows are not adjacent (no wrapping).
  CHECK_FALSE(g.adjacent(g.cell(3, 0), g.cell(0, 1), false));
  CHECK_FALSE(g.adjacent(g.cell(3, 0), g.cell(0, 1), true));
  // Symmetric.
  for (int x = 0; x < g.cell_count(); ++x)
    for (int y = 0; y < g.cell_count(); ++y) {
      REQUIRE(g.adjacent(x, y, false) == g.adjacent(y, x, false));
      REQUIRE(g.adjacent(x, y, true) == g.adjacent(y, x, true));
    }
}

TEST_CASE("BoardGeometry: line of sight, nearest first, up to the edge", "[board]") {
  BoardGeometry g(5, 4);
  const int from = g.cell(1, 1);
  CHECK(g.line_of_sight(from, Direction::East) == Cells{g.cell(2, 1), g.cell(3, 1), g.cell(4, 1)});
  CHECK(g.line_of_sight(from, Direction::West) == Cells{g.cell(0, 1)});
  CHECK(g.line_of_sight(from, Direction::South) == Cells{g.cell(1, 2), g.cell(1, 3)});
  CHECK(g.line_of_sight(from, Direction::SouthEast) == Cells{g.cell(2, 2), g.cell(3, 3)});
  CHECK(g.line_of_sight(from, Direction::NorthEast) == Cells{g.cell(2, 0)});
  CHECK(g.line_of_sight(g.cell(0, 0), Direction::North).empty());
  CHECK(g.line_of_sight(g.cell(4, 3), Direction::SouthEast).empty());
  // Never includes the cell itself.
  for (int d = 0; d < rulebook::kDirectionCount; ++d)
    for (int c : g.line_of_sight(from, static_cast<Direction>(d))) CHECK(c != from);
}

TEST_CASE("BoardGeometry: direction between two cells", "[board]") {
  BoardGeometry g(5, 5);
  Direction d = Direction::North;
  const int c = g.cell(2, 2);
  REQUIRE(g.direction_between(c, g.cell(2, 0), d));
  CHECK(d == Direction::North);
  REQUIRE(g.direction_between(c, g.cell(4, 2), d));
  CHECK(d == Direction::East);
  REQUIRE(g.direction_between(c, g.cell(0, 4), d));
  CHECK(d == Direction::SouthWest);
  REQUIRE(g.direction_between(c, g.cell(4, 0), d));
  CHECK(d == Direction::NorthEast);
  REQUIRE(g.direction_between(c, g.cell(1, 1), d));
  CHECK(d == Direction::NorthWest);
  REQUIRE(g.direction_between(c, g.cell(2, 3), d));
  CHECK(d == Direction::South);
  // A knight's move shares no line; nor does a cell with itself.
  CHECK_FALSE(g.direction_between(c, g.cell(3, 4), d));
  CHECK_FALSE(g.direction_between(c, c, d));
  // Consistent with line_of_sight.
  for (int dir = 0; dir < rulebook::kDirectionCount; ++dir)
    for (int target : g.line_of_sight(c, static_cast<Direction>(dir))) {
      REQUIRE(g.direction_between(c, target, d));
      CHECK(static_cast<int>(d) == dir);
    }
}

TEST_CASE("BoardGeometry: ring(0,0,4,4) is the 12 border cells clockwise from the top-left", "[board]") {
  BoardGeometry g(4, 4);
  const Cells ring = g.ring(0, 0, 4, 4);
  CHECK(ring == Cells{0, 1, 2, 3, 7, 11, 15, 14, 13, 12, 8, 4});
  // The 2x2 centre is not on it.
  for (int c : {5, 6, 9, 10}) CHECK(std::find(ring.begin(), ring.end(), c) == ring.end());
  // Consecutive cells are orthogonally adjacent, and so are the last and first.
  for (size_t i = 0; i < ring.size(); ++i) CHECK(g.adjacent(ring[i], ring[(i + 1) % ring.size()], false));

  // An inner ring, a degenerate row and an empty one.
  BoardGeometry big(5, 5);
  CHECK(big.ring(1, 1, 3, 3) == Cells{6, 7, 8, 13, 18, 17, 16, 11});
  CHECK(big.ring(0, 2, 3, 1) == Cells{10, 11, 12});
  CHECK(big.ring(0, 0, 0, 3).empty());
}

TEST_CASE("BoardGeometry: named paths and along()", "[board]") {
  BoardGeometry g(4, 4);
  g.add_path(BoardPath{"ring", g.ring(0, 0, 4, 4), true});
  g.add_path(BoardPath{"track", {0, 1, 2, 3}, false});
  REQUIRE(g.path("ring") != nullptr);
  REQUIRE(g.path("track") != nullptr);
  CHECK(g.path("nowhere") == nullptr);
  CHECK(g.paths().size() == 2u);
  const BoardPath& ring = *g.path("ring");
  const BoardPath& track = *g.path("track");

  CHECK(BoardGeometry::position_on(ring, 0) == 0);
  CHECK(BoardGeometry::position_on(ring, 7) == 4);
  CHECK(BoardGeometry::position_on(ring, 5) == -1);

  // Cyclic: wraps both ways.
  CHECK(BoardGeometry::along(ring, 0, 1) == 1);
  CHECK(BoardGeometry::along(ring, 0, 4) == 7);
  CHECK(BoardGeometry::along(ring, 4, 1) == 0);     // last -> first
  CHECK(BoardGeometry::along(ring, 0, -1) == 4);    // first -> last
  CHECK(BoardGeometry::along(ring, 0, 12) == 0);    // a full lap
  CHECK(BoardGeometry::along(ring, 0, 25) == 1);    // two laps and one
  CHECK(BoardGeometry::along(ring, 0, -13) == 4);
  CHECK(BoardGeometry::along(ring, 0, 0) == 0);
  CHECK(BoardGeometry::along(ring, 5, 1) == -1);    // not on the path

  // Not cyclic: runs off at both ends.
  CHECK(BoardGeometry::along(track, 0, 3) == 3);
  CHECK(BoardGeometry::along(track, 3, -2) == 1);
  CHECK(BoardGeometry::along(track, 3, 1) == -1);
  CHECK(BoardGeometry::along(track, 0, -1) == -1);
  CHECK(BoardGeometry::along(track, 2, 0) == 2);

  BoardPath empty{"empty", {}, true};
  CHECK(BoardGeometry::along(empty, 0, 1) == -1);
}
