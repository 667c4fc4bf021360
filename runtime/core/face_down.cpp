#include "core/face_down.hpp"

#include <algorithm>

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
    unread_ = n;
  } else {
    // Only the cells changed since the last question are read again.
    for (uint64_t k = changes_; k < changes; ++k) {
      const int cell = state.changed_zone(k) - first;
      if (cell >= 0 && cell < n && cells_[static_cast<size_t>(cell)] != kUnread) {
        cells_[static_cast<size_t>(cell)] = kUnread;
        ++unread_;
      }
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
    --unread_;
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
  // Between two questions a turn changes a few cells: only those are read
  // (most questions find none left to read).
  const int n = static_cast<int>(cells_.size());
  for (int c = 0; c < n && unread_ > 0; ++c)
    if (cells_[static_cast<size_t>(c)] == kUnread) down(c);
  return cells_.data();
}

void FaceDownCells::cells(int except, std::vector<int>& out) const {
  const uint8_t* known = read_all();
  const int n = static_cast<int>(cells_.size());
  // Written without a branch per cell (which way a cell goes is a coin
  // toss to the processor): room for every cell, then cut to size.
  out.resize(static_cast<size_t>(n));
  int* const first = out.data();
  int* next = first;
  for (int c = 0; c < n; ++c) {
    *next = c;
    next += known[c];  // kDown is 1, kUp 0
  }
  if (except >= 0 && except < n && known[except] == kDown)
    next = std::remove(first, next, except);
  out.resize(static_cast<size_t>(next - first));
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

namespace {
// Face-down cells of a row or a column as bits: boards are at most 64 by 64
// (schemas/game.schema.json). Whether at least n bits are set (n >= 1):
// clearing the lowest bit n - 1 times leaves some (n is 2 in Hao Hao: one
// step, where counting them all would be a dozen).
bool at_least(uint64_t bits, int n) {
  for (int i = 1; i < n && bits != 0; ++i) bits &= bits - 1;
  return bits != 0;
}
uint64_t bits_below(uint64_t line, int at) { return line & ((uint64_t{1} << at) - 1); }
uint64_t bits_above(uint64_t line, int at) { return line >> at >> 1; }
}  // namespace

void FaceDownCells::seeing(int sees, bool diagonal, int except, std::vector<int>& out) const {
  if (sees <= 0) return cells(except, out);
  out.clear();
  const uint8_t* known = read_all();  // kDown is 1, kUp 0
  const int w = geometry_->width(), h = geometry_->height();
  if (w > 64 || h > 64) {  // not a board the schema allows: the slow walk
    for (int c = 0; c < w * h; ++c) {
      if (!known[c] || c == except) continue;
      bool seen = false;
      for (int d = 0; d < kDirectionCount && !seen; d += diagonal ? 1 : 2)
        seen = count_along(c, static_cast<Direction>(d), sees) >= sees;
      if (seen) out.push_back(c);
    }
    return;
  }
  // Orthogonally a cell sees the face-down cells before and after it in its
  // row and in its column: each row and column as bits, looked at on either
  // side of the cell, and a step only for each face-down cell (which cells
  // are face down is a coin toss to the processor: a test per cell is a
  // branch it often guesses wrong). Diagonals walk their lines.
  rows_.assign(static_cast<size_t>(h), 0);
  columns_.assign(static_cast<size_t>(w), 0);
  uint64_t* const rows = rows_.data();
  uint64_t* const columns = columns_.data();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint64_t down = known[y * w + x];
      rows[y] |= down << x;
      columns[x] |= down << y;
    }
  for (int y = 0; y < h; ++y) {
    for (uint64_t left = rows[y]; left != 0; left &= left - 1) {
      const int x = __builtin_ctzll(left);
      const int c = y * w + x;
      bool seen = at_least(bits_below(rows[y], x), sees) || at_least(bits_above(rows[y], x), sees) ||
                  at_least(bits_below(columns[x], y), sees) || at_least(bits_above(columns[x], y), sees);
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
