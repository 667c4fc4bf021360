// FaceDownCells: which cells of a board hold a component that is not
// public, and what a piece sees of them along its lines, on a small board
// laid out by hand.
#include <catch2/catch.hpp>

#include <vector>

#include <nlohmann/json.hpp>

#include "core/face_down.hpp"
#include "core/rng.hpp"
#include "core/game_state.hpp"
#include "core/tile.hpp"
#include "core/zone.hpp"
#include "setup/definition_builder.hpp"

using nlohmann::json;
using namespace rulebook;

namespace {

// Zone slots: grid cells 0..11 (4 wide, 3 high; boards come first), deck
// 12, hand@0..1 13..14, supply 15. Component ids: cards 0..7, die 8..9.
const char* const kDocument = R"({
  "name": "face-down",
  "title": "Face down",
  "script": "rules.lua",
  "players": {"min": 2, "max": 2, "default": 2},
  "boards": [{"name": "grid", "title": "the grid", "width": 4, "height": 3}],
  "zones": [
    {"name": "deck", "visibility": "hidden"},
    {"name": "hand", "per_player": true, "visibility": "owner"},
    {"name": "supply"}
  ],
  "components": [
    {"name": "card", "kind": "card", "faces": ["front"], "count": 8, "zone": "deck"},
    {"name": "die", "kind": "die", "faces": ["one", "two"], "count": 2, "zone": "supply"}
  ]
})";

constexpr int kHand0 = 13;

// The grid, x across and y down (0-based cells, row by row):
//   0 D   1 .   2 D   3 D+die
//   4 D   5 D   6 die 7 .
//   8 D   9 up 10 .  11 D
// D: a card face down (hidden, or seen only by its owner, or peeked at);
// up: a card revealed.
struct Grid {
  GameDefinition def = build_game_definition(json::parse(kDocument), "/nonexistent/face-down", {});
  GameState state{def};
  Grid() {
    state.reset(2, 1);
    const int hidden[] = {0, 2, 3, 5, 8, 11};
    for (int k = 0; k < 6; ++k) move_component(state, ComponentId{k}, hidden[k]);
    peek(state, ComponentId{0}, Seat{1});                   // a secret look leaves it face down
    move_component(state, ComponentId{6}, kHand0);     // only its owner sees it...
    move_component(state, ComponentId{6}, 4);          // ...and the board keeps that
    move_component(state, ComponentId{7}, 9);
    reveal(state, ComponentId{7});
    move_component(state, ComponentId{8}, 3);          // a public die on a face-down card
    move_component(state, ComponentId{9}, 6);
  }
  FaceDownCells read() {
    FaceDownCells cells;
    cells.read(state, 0);
    return cells;
  }
};

using Cells = std::vector<int>;

}  // namespace

TEST_CASE("face-down cells: a cell with a component that is not public", "[face_down]") {
  Grid g;
  const FaceDownCells f = g.read();
  Cells out{99};
  f.cells(-1, out);
  CHECK(out == Cells{0, 2, 3, 4, 5, 8, 11});
  f.cells(3, out);
  CHECK(out == Cells{0, 2, 4, 5, 8, 11});
  CHECK(f.down(4));
  CHECK_FALSE(f.down(9));
  CHECK_FALSE(f.down(6));

  // Read again after a change: the cell turned over shows.
  reveal(g.state, ComponentId{0});
  FaceDownCells again = g.read();
  again.cells(-1, out);
  CHECK(out == Cells{2, 3, 4, 5, 8, 11});
  hide(g.state, ComponentId{0});
  again.read(g.state, 0);
  again.cells(-1, out);
  CHECK(out == Cells{0, 2, 3, 4, 5, 8, 11});
}

TEST_CASE("face-down cells: a picture kept between questions reads again what changed", "[face_down]") {
  Grid g;
  FaceDownCells f = g.read();
  Cells out;
  f.cells(-1, out);
  REQUIRE(out == Cells{0, 2, 3, 4, 5, 8, 11});

  // A few changes: only those cells are read again.
  reveal(g.state, ComponentId{1});                      // cell 2 turned over
  move_component(g.state, ComponentId{5}, 10);         // cell 11's card moves to 10
  f.read(g.state, 0);
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 5, 8, 10});

  // More changes than the state remembers: everything is read again.
  for (int k = 0; k < 2 * GameState::kRecentChanges; ++k) {
    reveal(g.state, ComponentId{2});
    hide(g.state, ComponentId{2});
  }
  reveal(g.state, ComponentId{4});                      // cell 8
  f.read(g.state, 0);
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 5, 10});

  // A copy has a history of its own: what changes in it is not taken for
  // the original, and the other way round, even when both have changed as
  // many times since the copy.
  GameState copy = g.state;
  reveal(copy, ComponentId{0});                         // cell 0, in the copy only
  f.read(copy, 0);
  f.cells(-1, out);
  CHECK(out == Cells{3, 4, 5, 10});
  reveal(g.state, ComponentId{3});                      // cell 5, in the original only
  f.read(g.state, 0);
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 10});
  copy = g.state;
  f.read(copy, 0);
  hide(g.state, ComponentId{3});                        // cell 5 again, in the original only
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 10});
  f.read(copy, 0);
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 10});
  f.read(g.state, 0);
  f.cells(-1, out);
  CHECK(out == Cells{0, 3, 4, 5, 10});

  // A reset puts every card back in the deck.
  g.state.reset(2, 1);
  f.read(g.state, 0);
  f.cells(-1, out);
  CHECK(out.empty());
}

TEST_CASE("face-down cells: seeing at least n face-down cells in one direction", "[face_down]") {
  Grid g;
  const FaceDownCells f = g.read();
  Cells out;
  // 0 sees 2 and 3 eastwards; 3 sees 2 and 0 westwards; 4 sees 5 east, 0
  // north and 8 south (one each way); 5 sees only 4; 8 sees 4 and 0
  // northwards; 11 sees 3 north and 8 west (one each way); 2 one each way.
  f.seeing(2, false, -1, out);
  CHECK(out == Cells{0, 3, 8});
  f.seeing(2, false, 3, out);
  CHECK(out == Cells{0, 8});
  // Diagonals too: 2 sees 5 and 8 south-westwards.
  f.seeing(2, true, -1, out);
  CHECK(out == Cells{0, 2, 3, 8});
  f.seeing(3, true, -1, out);
  CHECK(out.empty());
  // One is enough for every face-down cell here; none keeps them all.
  f.seeing(1, false, -1, out);
  CHECK(out == Cells{0, 2, 3, 4, 5, 8, 11});
  f.seeing(0, false, 5, out);
  CHECK(out == Cells{0, 2, 3, 4, 8, 11});
}

TEST_CASE("face-down cells: along a line and the directions that see enough", "[face_down]") {
  Grid g;
  const FaceDownCells f = g.read();
  Cells out;
  f.along(0, Direction::East, out);
  CHECK(out == Cells{2, 3});
  f.along(11, Direction::West, out);
  CHECK(out == Cells{8});  // the revealed card at 9 neither counts nor blocks
  f.along(0, Direction::North, out);
  CHECK(out.empty());
  f.along(8, Direction::NorthEast, out);
  CHECK(out == Cells{5, 2});
  CHECK(f.count_along(0, Direction::East) == 2);
  CHECK(f.count_along(0, Direction::East, 1) == 1);
  CHECK(f.count_along(6, Direction::West, 5) == 2);

  std::vector<Direction> dirs;
  f.directions(4, 1, false, dirs);
  CHECK(dirs == std::vector<Direction>{Direction::North, Direction::East, Direction::South});
  f.directions(5, 1, false, dirs);
  CHECK(dirs == std::vector<Direction>{Direction::West});
  f.directions(5, 1, true, dirs);
  CHECK(dirs == std::vector<Direction>{Direction::NorthEast, Direction::SouthWest, Direction::West,
                                       Direction::NorthWest});
  f.directions(8, 2, false, dirs);
  CHECK(dirs == std::vector<Direction>{Direction::North});
  f.directions(5, 2, true, dirs);
  CHECK(dirs.empty());
}

namespace {

// A width x height board whose cells hold a card each, every other one (or
// so: a seeded pattern) face down; card k lies on cell k.
struct BigBoard {
  GameDefinition def;
  GameState state;
  BigBoard(int width, int height, uint64_t seed)
      : def(build_game_definition(
            json{{"name", "big"},
                 {"title", "Big"},
                 {"script", "rules.lua"},
                 {"players", {{"min", 2}, {"max", 2}, {"default", 2}}},
                 {"boards", json::array({{{"name", "field"}, {"width", width}, {"height", height}}})},
                 {"zones", json::array({{{"name", "bag"}, {"visibility", "hidden"}}})},
                 {"components", json::array({{{"name", "tile"},
                                              {"kind", "tile"},
                                              {"faces", {"front"}},
                                              {"count", width * height},
                                              {"zone", "bag"}}})}},
            "/nonexistent/big", {})),
        state(def) {
    state.reset(2, seed);
    Rng rng(seed);
    for (int k = 0; k < width * height; ++k) {
      move_component(state, ComponentId{k}, k);  // the board's cells are the first zones
      if (rng.below(3) == 0) reveal(state, ComponentId{k});
    }
  }
};

// seeing() by its definition: every face-down cell, and each of its lines
// walked to the edge.
Cells seeing_by_walking(const FaceDownCells& f, int sees, bool diagonal, int except) {
  Cells out;
  const int n = f.geometry().cell_count();
  for (int c = 0; c < n; ++c) {
    if (!f.down(c) || c == except) continue;
    bool seen = sees <= 0;
    for (int d = 0; d < kDirectionCount && !seen; d += diagonal ? 1 : 2)
      seen = f.count_along(c, static_cast<Direction>(d)) >= sees;
    if (seen) out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("face-down cells: seeing agrees with walking every line, up to a 64 by 64 board", "[face_down]") {
  // Rows and columns are counted as 64-bit masks: the edges of the largest
  // board the schema allows are where a shift could go wrong. A board wider
  // than that (which the schema refuses) is still answered, by walking.
  const int sizes[][2] = {{1, 1}, {5, 5}, {64, 3}, {3, 64}, {64, 64}, {70, 2}};
  for (const auto& size : sizes) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      BigBoard b(size[0], size[1], seed);
      FaceDownCells f;
      f.read(b.state, 0);
      const int last = size[0] * size[1] - 1;
      for (int sees = 1; sees <= 3; ++sees) {
        for (const bool diagonal : {false, true}) {
          for (const int except : {-1, 0, last}) {
            CAPTURE(size[0], size[1], seed, sees, diagonal, except);
            Cells out{-7};
            f.seeing(sees, diagonal, except, out);
            CHECK(out == seeing_by_walking(f, sees, diagonal, except));
          }
        }
      }
    }
  }
}
