#include "core/face_down.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void FaceDownCells::read(const GameState& state, BoardId board) {
  const GameDefinition& def = state.definition();
  const BoardDef& b = def.boards[static_cast<size_t>(board)];
  const int n = b.geometry.cell_count();
  const int first = def.zone_defs[static_cast<size_t>(b.zone_def)].first_slot;
  const uint64_t changes = state.changes();
  if (state.history() != history_ || board != board_ || &b.geometry != geometry_ ||
      cells_.size() != static_cast<size_t>(n) || changes - changes_ > GameState::kRecentChanges) {
    cells_.assign(static_cast<size_t>(n), kUnread);
  } else {
    // Only the cells changed since the last question are read again.
    for (uint64_t k = changes_; k < changes; ++k) {
      const int cell = state.changed_zone(k) - first;
      if (cell >= 0 && cell < n) cells_[static_cast<size_t>(cell)] = kUnread;
    }
  }
  state_ = &state;
  geometry_ = &b.geometry;
  board_ = board;
  history_ = state.history();
  changes_ = changes;
  first_slot_ = first;
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

const uint8_t* FaceDownCells::read_all() const {
  const int n = static_cast<int>(cells_.size());
  for (int c = 0; c < n; ++c) down(c);
  return cells_.data();
}

void FaceDownCells::cells(int except, std::vector<int>& out) const {
  out.clear();
  const uint8_t* known = read_all();
  const int n = static_cast<int>(cells_.size());
  for (int c = 0; c < n; ++c)
    if (known[c] == kDown && c != except) out.push_back(c);
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
  const uint8_t* known = read_all();  // kDown is 1, kUp 0: counts are sums
  const int w = geometry_->width(), h = geometry_->height();
  // Orthogonally a cell sees the face-down cells before and after it in its
  // row and in its column: count each column once, then walk the rows
  // keeping how many of each were passed. Diagonals walk their lines.
  column_total_.assign(static_cast<size_t>(w), 0);
  column_passed_.assign(static_cast<size_t>(w), 0);
  int* const column_total = column_total_.data();
  int* const column_passed = column_passed_.data();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) column_total[x] += known[y * w + x];
  for (int y = 0; y < h; ++y) {
    const uint8_t* row = known + y * w;
    int row_total = 0, row_passed = 0;
    for (int x = 0; x < w; ++x) row_total += row[x];
    for (int x = 0; x < w; ++x) {
      if (!row[x]) continue;
      const int c = y * w + x;
      bool seen = row_passed >= sees || row_total - row_passed - 1 >= sees || column_passed[x] >= sees ||
                  column_total[x] - column_passed[x] - 1 >= sees;
      ++row_passed;
      ++column_passed[x];
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
