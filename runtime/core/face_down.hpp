#pragma once
// The face-down cells of a board, read from the state: a cell is face down
// while a component on it is not public (a tile lying face down, a card only
// its owner may see; `c:is_public()` false). Rules ask these questions at
// every decision (Hao Hao: where the panda may stand, which tiles a player
// may flip, which way he may look), so they are answered here in one call
// instead of a walk in Lua (docs/writing-a-game.md, "Fast rules").
#include <cstdint>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/ids.hpp"

namespace rulebook {

class GameState;

class FaceDownCells {
 public:
  // Looks at `board` in the state as it is now. The object may be pointed
  // at a state again: for the same state and board it reads again only the
  // cells that changed since (GameState::changes; a turn changes a few
  // cells of the board between two questions), else every cell.
  void read(const GameState& state, BoardId board);

  const BoardGeometry& geometry() const { return *geometry_; }
  bool down(int cell) const { return cells_[static_cast<size_t>(cell)] != 0; }

  // The face-down cells, row by row, `except` left out (-1: none); `out` is
  // cleared first.
  void cells(int except, std::vector<int>& out) const;
  // Those from which at least `sees` face-down cells lie along one of the
  // four orthogonal directions (eight with `diagonal`), each line to the
  // board's edge with nothing blocking it; `sees` <= 0 keeps them all.
  void seeing(int sees, bool diagonal, int except, std::vector<int>& out) const;
  // The face-down cells seen from `cell` towards `d`, nearest first (the
  // face-down part of BoardGeometry::line_of_sight).
  void along(int cell, Direction d, std::vector<int>& out) const;
  // How many of them, stopping at `enough` (no limit when <= 0).
  int count_along(int cell, Direction d, int enough = 0) const;
  // The directions from `cell`, clockwise from north, along which at least
  // `sees` face-down cells lie (orthogonal ones, all eight with `diagonal`).
  void directions(int cell, int sees, bool diagonal, std::vector<Direction>& out) const;

 private:
  void read_cell(int cell);
  const GameState* state_ = nullptr;
  const BoardGeometry* geometry_ = nullptr;
  int first_slot_ = 0;
  BoardId board_ = -1;
  uint64_t history_ = 0;  // the state's history the cells were read in (0: none)
  uint64_t changes_ = 0;  // the state's count of changes when last pointed at it
  std::vector<uint8_t> cells_;  // 1: face down, 0: not
  // The same picture as bits, row by row and column by column, on boards
  // of at most 64 by 64 (every board the schema allows): whole-board
  // questions look at a row or a column at once. Empty on a larger board.
  std::vector<uint64_t> rows_, columns_;
};

}  // namespace rulebook
