#include "core/face_down.hpp"

#include "core/game_state.hpp"

namespace rulebook {
void FaceDownCells::read(const GameState& state, BoardId board) {
  const GameDefinition& def = state.definition();
  const BoardDef& b = def.boards[static_cast<size_t>(board)];
  geometry_ = &b.geometry;
  const int first = def.zone_defs[static_cast<size_t>(b.zone_def)].first_slot;
  const int cells = geometry_->cell_count();
  down_.assign(static_cast<size_t>(cells), 0);
  for (int c = 0; c < cells; ++c) {
    for (const ComponentId id : state.zone(first + c)) {
      if (state.component(id).visibility != Visibility::Public) {
        down_[static_cast<size_t>(c)] = 1;
        break;
      }
    }
  }
}

void FaceDownCells::cells(int except, std::vector<int>& out) const {
  out.clear();
  const int n = static_cast<int>(down_.size());
  for (int c = 0; c < n; ++c)
    if (down_[static_cast<size_t>(c)] && c != except) out.push_back(c);
}

int FaceDownCells::count_along(int cell, Direction d, int enough) const {
  int n = 0;
  for (int c = geometry_->step(cell, d); c >= 0; c = geometry_->step(c, d)) {
    if (down_[static_cast<size_t>(c)] && ++n == enough) break;
  }
  return n;
}

void FaceDownCells::seeing(int sees, bool diagonal, int except, std::vector<int>& out) const {
  if (sees <= 0) return cells(except, out);
  out.clear();
  const int n = static_cast<int>(down_.size());
  const int step = diagonal ? 1 : 2;
  for (int c = 0; c < n; ++c) {
    if (!down_[static_cast<size_t>(c)] || c == except) continue;
    for (int d = 0; d < kDirectionCount; d += step) {
      if (count_along(c, static_cast<Direction>(d), sees) >= sees) {
        out.push_back(c);
        break;
      }
    }
  }
}

void FaceDownCells::directions(int cell, int sees, bool diagonal, std::vector<Direction>& out) const {
  out.clear();
  for (int d = 0; d < kDirectionCount; d += diagonal ? 1 : 2) {
    const Direction dir = static_cast<Direction>(d);
    if (count_along(cell, dir, sees) >= sees) out.push_back(dir);
  }
}

void FaceDownCells::along(int cell, Direction d, std::vector<int>& out) const {
  out.clear();
  for (int c = geometry_->step(cell, d); c >= 0; c = geometry_->step(c, d)) {
    if (down_[static_cast<size_t>(c)]) out.push_back(c);
  }
}

}  // namespace rulebook
