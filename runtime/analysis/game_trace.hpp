#pragma once
// How one game went, decision by decision, as the per-game metrics of
// game_metrics.hpp need it: at each decision, the seat that made it, the
// turn, every seat's evaluation of the position just before it (the
// rules' evaluate, or the scores) and which seats were already out. The
// last row is the final position (the outcome, seat -1). No game code:
// a layer that sees the game fills it (cli/simulation_runner.cpp, the
// logs of played games), so the metrics are computed and tested alone.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rulebook::analysis {

class GameTrace {
 public:
  void begin(int players);  // a new game; keeps the memory of the last (no allocation per game)
  // A decision of `seat` (or, with seat -1, the final position) at `turn`;
  // `values` holds one number per seat (higher is better for that seat).
  template <typename Values>
  void add(int seat, int turn, const Values& values, uint64_t out_seats) {
    seats_.push_back(seat);
    turns_.push_back(turn);
    out_.push_back(out_seats);
    for (int s = 0; s < players_; ++s) values_.push_back(static_cast<double>(values[static_cast<std::size_t>(s)]));
  }
  void finish(uint64_t winners, int turns) {
    winners_ = winners;
    final_turn_ = turns;
  }

  int players() const { return players_; }
  int steps() const { return static_cast<int>(seats_.size()); }
  int seat(int step) const { return seats_[static_cast<std::size_t>(step)]; }
  int turn(int step) const { return turns_[static_cast<std::size_t>(step)]; }
  double value(int step, int seat) const {
    return values_[static_cast<std::size_t>(step) * static_cast<std::size_t>(players_) + static_cast<std::size_t>(seat)];
  }
  bool out(int step, int seat) const { return (out_[static_cast<std::size_t>(step)] >> seat) & 1; }
  uint64_t winners() const { return winners_; }
  int turns() const { return final_turn_; }
  // The one winner, or -1 (no winner, or a shared win).
  int sole_winner() const;
  // The seat strictly ahead of every other at `step`, or -1 on a tie.
  int leader(int step) const;

 private:
  int players_ = 0;
  std::vector<int> seats_, turns_;
  std::vector<uint64_t> out_;
  std::vector<double> values_;  // steps × players
  uint64_t winners_ = 0;
  int final_turn_ = 0;
};

}  // namespace rulebook::analysis
