#include "core/board_geometry.hpp"

#include <cstdlib>
#include <set>

namespace rulebook {
namespace {

const char* const kNames[kDirectionCount] = {"north", "northeast", "east", "southeast",
                                             "south", "southwest", "west", "northwest"};
const char* const kShort[kDirectionCount] = {"n", "ne", "e", "se", "s", "sw", "w", "nw"};

}  // namespace

const char* to_string(Direction d) { return kNames[static_cast<int>(d)]; }

bool parse_direction(const std::string& text, Direction& out) {
  for (int i = 0; i < kDirectionCount; ++i) {
    if (text.empty() || text[0] != kNames[i][0]) continue;  // rules name directions at every turn
    if (text == kNames[i] || text == kShort[i]) {
      out = static_cast<Direction>(i);
      return true;
    }
  }
  return false;
}

BoardGeometry::BoardGeometry(int width, int height) : width_(width), height_(height) {}

bool BoardGeometry::set_names(std::vector<std::string> columns, std::vector<std::string> rows) {
  if (static_cast<int>(columns.size()) != width_ || static_cast<int>(rows.size()) != height_) return false;
  std::swap(column_names_, columns);
  std::swap(row_names_, rows);
  std::set<std::string> seen;
  for (int cell = 0; cell < cell_count(); ++cell)
    if (!seen.insert(cell_name(cell)).second) {
      column_names_.clear();
      row_names_.clear();
      return false;
    }
  return true;
}

std::string BoardGeometry::cell_name(int cell) const {
  if (!named()) return {};
  return column_names_[static_cast<size_t>(x(cell))] + row_names_[static_cast<size_t>(y(cell))];
}

int BoardGeometry::cell_named(const std::string& name) const {
  // A name splits into a column's name and a row's at one place only where
  // every cell's name differs; boards are small (64x64 at most).
  for (int cx = 0; cx < static_cast<int>(column_names_.size()); ++cx) {
    const std::string& column = column_names_[static_cast<size_t>(cx)];
    if (name.compare(0, column.size(), column) != 0) continue;
    for (int cy = 0; cy < static_cast<int>(row_names_.size()); ++cy)
      if (name.size() == column.size() + row_names_[static_cast<size_t>(cy)].size() &&
          name.compare(column.size(), std::string::npos, row_names_[static_cast<size_t>(cy)]) == 0)
        return cell(cx, cy);
  }
  return -1;
}

int BoardGeometry::step(int cell, Direction d) const {
  const int i = static_cast<int>(d);
  return this->cell(x(cell) + kStepX[i], y(cell) + kStepY[i]);
}

std::vector<int> BoardGeometry::neighbours(int cell, bool diagonal) const {
  std::vector<int> out;
  for (int i = 0; i < kDirectionCount; ++i) {
    if (!diagonal && i % 2 == 1) continue;
    int n = step(cell, static_cast<Direction>(i));
    if (n >= 0) out.push_back(n);
  }
  return out;
}

bool BoardGeometry::adjacent(int a, int b, bool diagonal) const {
  const int dx = std::abs(x(a) - x(b)), dy = std::abs(y(a) - y(b));
  if (a == b) return false;
  return diagonal ? (dx <= 1 && dy <= 1) : (dx + dy == 1);
}

std::vector<int> BoardGeometry::line_of_sight(int cell, Direction d) const {
  std::vector<int> out;
  for (int c = step(cell, d); c >= 0; c = step(c, d)) out.push_back(c);
  return out;
}

bool BoardGeometry::direction_between(int a, int b, Direction& out) const {
  const int dx = x(b) - x(a), dy = y(b) - y(a);
  if (a == b || !(dx == 0 || dy == 0 || std::abs(dx) == std::abs(dy))) return false;
  const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
  for (int i = 0; i < kDirectionCount; ++i) {
    if (kStepX[i] == sx && kStepY[i] == sy) {
      out = static_cast<Direction>(i);
      return true;
    }
  }
  return false;
}

std::vector<int> BoardGeometry::ring(int x0, int y0, int w, int h) const {
  std::vector<int> out;
  if (w <= 0 || h <= 0) return out;
  if (w == 1 || h == 1) {
    for (int yy = y0; yy < y0 + h; ++yy)
      for (int xx = x0; xx < x0 + w; ++xx) out.push_back(cell(xx, yy));
    return out;
  }
  for (int xx = x0; xx < x0 + w - 1; ++xx) out.push_back(cell(xx, y0));          // top, eastwards
  for (int yy = y0; yy < y0 + h - 1; ++yy) out.push_back(cell(x0 + w - 1, yy));  // right, southwards
  for (int xx = x0 + w - 1; xx > x0; --xx) out.push_back(cell(xx, y0 + h - 1));  // bottom, westwards
  for (int yy = y0 + h - 1; yy > y0; --yy) out.push_back(cell(x0, yy));          // left, northwards
  return out;
}

void BoardGeometry::add_path(BoardPath path) { paths_.push_back(std::move(path)); }

const BoardPath* BoardGeometry::path(const std::string& name) const {
  for (const auto& p : paths_)
    if (p.name == name) return &p;
  return nullptr;
}

int BoardGeometry::position_on(const BoardPath& path, int cell) {
  for (size_t i = 0; i < path.cells.size(); ++i)
    if (path.cells[i] == cell) return static_cast<int>(i);
  return -1;
}

int BoardGeometry::along(const BoardPath& path, int cell, int64_t steps) {
  const int n = static_cast<int>(path.cells.size());
  const int at = position_on(path, cell);
  if (at < 0 || n == 0) return -1;
  // Reduced first, so that no step count overflows the sum.
  if (path.cyclic) steps %= n;
  else if (steps >= n || steps <= -n) return -1;
  int64_t to = at + steps;
  if (path.cyclic) to = ((to % n) + n) % n;
  else if (to < 0 || to >= n) return -1;
  return path.cells[static_cast<size_t>(to)];
}

}  // namespace rulebook
