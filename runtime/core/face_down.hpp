#pragma once
// The face-down cells of a board, read from the state: a cell is face down
// while a component on it is not public (a tile lying face down, a card only
// its owner may see; `c:is_public()` false). Rules ask these questions at
// every decision (Hao Hao: where the panda may stand, which tiles a player
// may flip), so they are answered here in one pass over the cells instead of
// a walk in Lua (docs/writing-a-game.md, "Fast rules").
#include <cstdint>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/ids.hpp"

namespace rulebook {

class GameState;

class FaceDownCells {
 public:
  // Reads which cells of `board` are face down now. An object may be read
  // again (its buffer is kept: no allocation once it has seen the board).
  void read(const GameState& state, BoardId board);

  const BoardGeometry& geometry() const { return *geometry_; }
  bool down(int cell) const { return down_[static_cast<size_t>(cell)] != 0; }

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
  const BoardGeometry* geometry_ = nullptr;
  std::vector<uint8_t> down_;
};

}  // namespace rulebook
