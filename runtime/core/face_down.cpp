#include "core/face_down.hpp"

#include "core/game_state.hpp"

namespace rulebook {

namespace {
// Face-down cells of a row or a column as bits: boards are at most 64 by 64
// (schemas/game.schema.json), a line's cells fit one word.
constexpr int kLineBits = 64;
void set_bit(uint64_t& line, int at, uint8_t on) {
  line = (line & ~(uint64_t{1} << at)) | uint64_t{on} << at;
}
// Whether at least n bits are set (n >= 1): clearing the lowest bit n - 1
// times leaves some (n is 2 in Hao Hao: one step, where counting them all
// would be a dozen).
bool at_least(uint64_t bits, int n) {
  for (int i = 1; i < n && bits != 0; ++i) bits &= bits - 1;
  return bits != 0;
}
uint64_t bits_below(uint64_t line, int at) { return line & ((uint64_t{1} << at) - 1); }
uint64_t bits_above(uint64_t line, int at) { return line >> at >> 1; }
}  // namespace

void FaceDownCells::read(const GameState& state, BoardId board) {
  const GameDefinition& def = state.definition();
  const BoardDef& b = def.boards[static_cast<size_t>(board)];
  const int n = b.geometry.cell_count();
  const int first = def.zone_defs[static_cast<size_t>(b.zone_def)].first_slot;
  const uint64_t changes = state.changes();
  const bool same = state.history() == history_ && board == board_ && &b.geometry == geometry_ &&
                    cells_.size() == static_cast<size_t>(n) && changes - changes_ <= GameState::kRecentChanges;
  state_ = &state;
  geometry_ = &b.geometry;
  board_ = board;
  history_ = state.history();
  first_slot_ = first;
  if (same) {
    // Only the cells changed since the last question are read again.
    for (uint64_t k = changes_; k < changes; ++k) {
      const int cell = state.changed_zone(k) - first;
      if (cell >= 0 && cell < n) read_cell(cell);
    }
  } else {
    const int w = b.geometry.width(), h = b.geometry.height();
    cells_.assign(static_cast<size_t>(n), 0);
    const bool bits = w <= kLineBits && h <= kLineBits;
    rows_.assign(bits ? static_cast<size_t>(h) : 0, 0);
    columns_.assign(bits ? static_cast<size_t>(w) : 0, 0);
    for (int c = 0; c < n; ++c) read_cell(c);
  }
  changes_ = changes;
}

void FaceDownCells::read_cell(int cell) {
  uint8_t down = 0;
  for (const ComponentId id : state_->zone(first_slot_ + cell)) {
    if (state_->component(id).visibility != Visibility::Public) {
      down = 1;
      break;
    }
  }
  cells_[static_cast<size_t>(cell)] = down;
  if (rows_.empty()) return;
  const int x = geometry_->x(cell), y = geometry_->y(cell);
  set_bit(rows_[static_cast<size_t>(y)], x, down);
  set_bit(columns_[static_cast<size_t>(x)], y, down);
}

void FaceDownCells::cells(int except, std::vector<int>& out) const {
  out.clear();
  const int w = geometry_->width();
  if (rows_.empty()) {  // a board wider or taller than 64: cell by cell
    for (int c = 0; c < static_cast<int>(cells_.size()); ++c)
      if (down(c) && c != except) out.push_back(c);
    return;
  }
  // A step for each face-down cell and none for the others: which cells are
  // face down is a coin toss to the processor, so a test per cell is a
  // branch it often guesses wrong.
  for (int y = 0; y < static_cast<int>(rows_.size()); ++y)
    for (uint64_t left = rows_[static_cast<size_t>(y)]; left != 0; left &= left - 1) {
      const int c = y * w + __builtin_ctzll(left);
      if (c != except) out.push_back(c);
    }
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
  if (rows_.empty()) {  // a board wider or taller than 64: every line walked
    for (int c = 0; c < w * h; ++c) {
      if (!down(c) || c == except) continue;
      bool seen = false;
      for (int d = 0; d < kDirectionCount && !seen; d += diagonal ? 1 : 2)
        seen = count_along(c, static_cast<Direction>(d), sees) >= sees;
      if (seen) out.push_back(c);
    }
    return;
  }
  // Orthogonally a cell sees the face-down cells before and after it in its
  // row and in its column: bits on either side of the cell, a step only for
  // each face-down cell. Diagonals walk their lines.
  for (int y = 0; y < h; ++y) {
    const uint64_t row = rows_[static_cast<size_t>(y)];
    for (uint64_t left = row; left != 0; left &= left - 1) {
      const int x = __builtin_ctzll(left);
      const uint64_t column = columns_[static_cast<size_t>(x)];
      const int c = y * w + x;
      bool seen = at_least(bits_below(row, x), sees) || at_least(bits_above(row, x), sees) ||
                  at_least(bits_below(column, y), sees) || at_least(bits_above(column, y), sees);
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
