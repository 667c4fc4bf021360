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
  // Looks at `board` in the state as it is now. Each cell is read when a
  // question first needs it (a line reads only its own cells); the object
  // may be pointed at a state again, keeping its buffer and, for the same
  // state and board, what it read of the cells that have not changed since
  // (GameState::changes): a turn changes a few cells of the board between
  // two questions.
  void read(const GameState& state, BoardId board);

  const BoardGeometry& geometry() const { return *geometry_; }
  bool down(int cell) const;

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
  // kDown is 1 and kUp 0, so that a row's or a column's count is a sum.
  enum : uint8_t { kUp = 0, kDown = 1, kUnread = 2 };
  // Every cell read: cells() and seeing() look at the whole board.
  const uint8_t* read_all() const;
  const GameState* state_ = nullptr;
  const BoardGeometry* geometry_ = nullptr;
  int first_slot_ = 0;
  BoardId board_ = -1;
  uint64_t history_ = 0;  // the state's history the cells were read in (0: none)
  uint64_t changes_ = 0;  // the state's count of changes when last pointed at it
  mutable std::vector<uint8_t> cells_;  // kUnread until a question reads the cell
  mutable int unread_ = 0;              // how many cells are kUnread
  mutable std::vector<uint64_t> rows_, columns_;  // seeing()'s face-down bits, kept for their buffers
};

}  // namespace rulebook
