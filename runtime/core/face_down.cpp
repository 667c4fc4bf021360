#include "core/face_down.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void FaceDownCells::read(const GameState& state, BoardId board) {
  const GameDefinition& def = state.definition();
  const BoardDef& b = def.boards[static_cast<size_t>(board)];
  state_ = &state;
  geometry_ = &b.geometry;
  first_slot_ = def.zone_defs[static_cast<size_t>(b.zone_def)].first_slot;
  cells_.assign(static_cast<size_t>(geometry_->cell_count()), kUnread);
}

bool FaceDownCells::down(int cell) const {
  uint8_t& known = cells_[static_cast<size_t>(cell)];
  if (known == kUnread) {
    known = kUp;
    for (const ComponentId id : state_->zone(first_slot_ + cell)) {
      if (state_->component(id).visibility != Visibility::Public) {
        known = kDown;
        break;
      }
    }
  }
  return known == kDown;
}

void FaceDownCells::cells(int except, std::vector<int>& out) const {
  out.clear();
  const int n = geometry_->cell_count();
  for (int c = 0; c < n; ++c)
    if (c != except && down(c)) out.push_back(c);
}

int FaceDownCells::count_along(int cell, Direction d, int enough) const {
  const int dx = kStepX[static_cast<int>(d)], dy = kStepY[static_cast<int>(d)];
  const int w = geometry_->width(), h = geometry_->height();
  int n = 0;
  for (int x = geometry_->x(cell) + dx, y = geometry_->y(cell) + dy; x >= 0 && y >= 0 && x < w && y < h;
       x += dx, y += dy) {
    if (down(y * w + x) && ++n == enough) break;
  }
  return n;
}

void FaceDownCells::seeing(int sees, bool diagonal, int except, std::vector<int>& out) const {
  if (sees <= 0) return cells(except, out);
  out.clear();
  const int w = geometry_->width(), h = geometry_->height();
  // Orthogonally a cell sees the face-down cells before and after it in its
  // row and in its column: count each column once, then walk the rows
  // keeping how many of each were passed. Diagonals walk their lines.
  column_total_.assign(static_cast<size_t>(w), 0);
  column_passed_.assign(static_cast<size_t>(w), 0);
  for (int c = 0; c < w * h; ++c) column_total_[static_cast<size_t>(c % w)] += down(c);
  for (int y = 0; y < h; ++y) {
    int row_total = 0, row_passed = 0;
    for (int x = 0; x < w; ++x) row_total += down(y * w + x);
    for (int x = 0; x < w; ++x) {
      const int c = y * w + x;
      if (!down(c)) continue;
      int& column_passed = column_passed_[static_cast<size_t>(x)];
      const int column_total = column_total_[static_cast<size_t>(x)];
      bool seen = row_passed >= sees || row_total - row_passed - 1 >= sees || column_passed >= sees ||
                  column_total - column_passed - 1 >= sees;
      ++row_passed;
      ++column_passed;
      for (int d = 1; diagonal && !seen && d < kDirectionCount; d += 2)
        seen = count_along(c, static_cast<Direction>(d), sees) >= sees;
      if (seen && c != except) out.push_back(c);
    }
  }
}

void FaceDownCells::along(int cell, Direction d, std::vector<int>& out) const {
  out.clear();
  const int dx = kStepX[static_cast<int>(d)], dy = kStepY[static_cast<int>(d)];
  const int w = geometry_->width(), h = geometry_->height();
  for (int x = geometry_->x(cell) + dx, y = geometry_->y(cell) + dy; x >= 0 && y >= 0 && x < w && y < h;
       x += dx, y += dy) {
    if (down(y * w + x)) out.push_back(y * w + x);
  }
}

void FaceDownCells::directions(int cell, int sees, bool diagonal, std::vector<Direction>& out) const {
  out.clear();
  for (int d = 0; d < kDirectionCount; d += diagonal ? 1 : 2) {
    const Direction dir = static_cast<Direction>(d);
    if (count_along(cell, dir, sees) >= sees) out.push_back(dir);
  }
}

}  // namespace rulebook
