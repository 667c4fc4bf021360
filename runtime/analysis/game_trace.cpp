#include "analysis/game_trace.hpp"

namespace rulebook::analysis {

void GameTrace::begin(int players) {
  players_ = players;
  seats_.clear();
  turns_.clear();
  out_.clear();
  values_.clear();
  winners_ = 0;
  final_turn_ = 0;
}

int GameTrace::sole_winner() const {
  if (winners_ == 0 || (winners_ & (winners_ - 1)) != 0) return -1;
  int seat = 0;
  while (!((winners_ >> seat) & 1)) ++seat;
  return seat;
}

int GameTrace::leader(int step) const {
  int best = -1;
  bool tied = false;
  for (int s = 0; s < players_; ++s) {
    if (best < 0 || value(step, s) > value(step, best)) {
      best = s;
      tied = false;
    } else if (value(step, s) == value(step, best)) {
      tied = true;
    }
  }
  return tied ? -1 : best;
}

}  // namespace rulebook::analysis
