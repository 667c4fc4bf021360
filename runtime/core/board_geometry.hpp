#pragma once
#include <cstdint>
// Geometry of a rectangular grid board: coordinates, the eight directions,
// adjacency, lines of sight and named paths (e.g. the ring of cells around a
// centre, walked clockwise). What lies on a cell is not geometry: each cell
// is a zone of its own (see GameDefinition).
#include <string>
#include <vector>

namespace rulebook {

// Clockwise from north; y grows downwards (row 0 is the top edge).
enum class Direction : int { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };
constexpr int kDirectionCount = 8;

const char* to_string(Direction d);
bool parse_direction(const std::string& text, Direction& out);  // "north", "n", ...
inline bool is_diagonal(Direction d) { return static_cast<int>(d) % 2 == 1; }
// One step in each direction, in Direction's order: x grows eastwards, y southwards.
inline constexpr int kStepX[kDirectionCount] = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr int kStepY[kDirectionCount] = {-1, -1, 0, 1, 1, 1, 0, -1};

struct BoardPath {
  std::string name;
  std::vector<int> cells;
  bool cyclic = true;
};

class BoardGeometry {
 public:
  BoardGeometry() = default;
  BoardGeometry(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  int cell_count() const { return width_ * height_; }
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  int cell(int x, int y) const { return contains(x, y) ? y * width_ + x : -1; }
  int x(int cell) const { return cell % width_; }
  int y(int cell) const { return cell / width_; }

  // The neighbouring cell in a direction, or -1 off the board.
  int step(int cell, Direction d) const;
  // Orthogonal neighbours (and diagonal ones too when asked), clockwise from north.
  std::vector<int> neighbours(int cell, bool diagonal) const;
  bool adjacent(int a, int b, bool diagonal) const;
  // Cells seen from `cell` looking in `d`, nearest first, up to the edge.
  // The cell itself is not included. What blocks sight is the rules' call.
  std::vector<int> line_of_sight(int cell, Direction d) const;
  // Direction from a to b if they share a row, column or diagonal.
  bool direction_between(int a, int b, Direction& out) const;

  // The cells of a rectangle's border, clockwise from its top-left corner:
  // the ring of a 4x4 board around its 2x2 centre is ring(0,0,4,4).
  std::vector<int> ring(int x0, int y0, int w, int h) const;

  // Named squares (columns a..h, rows 8..1): a cell's name is its column's
  // name then its row's ("a1"). Unnamed boards write cells as (x,y).
  // Returns false (and names nothing) unless there is a name per column and
  // per row and every cell's name differs from every other's.
  bool set_names(std::vector<std::string> columns, std::vector<std::string> rows);
  bool named() const { return !column_names_.empty(); }
  // "a1", or "" on an unnamed board.
  std::string cell_name(int cell) const;
  // The cell with that name, or -1.
  int cell_named(const std::string& name) const;

  void add_path(BoardPath path);
  const std::vector<BoardPath>& paths() const { return paths_; }
  const BoardPath* path(const std::string& name) const;
  // Position of a cell on a path, or -1.
  static int position_on(const BoardPath& path, int cell);
  // The cell `steps` further along a path (negative = backwards); -1 if it
  // runs off a path that is not cyclic.
  static int along(const BoardPath& path, int cell, int64_t steps);

 private:
  int width_ = 0, height_ = 0;
  std::vector<BoardPath> paths_;
  std::vector<std::string> column_names_, row_names_;  // west to east, north to south
};

}  // namespace rulebook
