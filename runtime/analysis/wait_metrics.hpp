#pragma once
// Metrics of waiting, from one game's trace (game_trace.hpp): how many of
// the other seats' decisions a seat waits between two of its own
// (downtime), and how long a seat that is out before the end waits for
// the others to finish (sit-out).
#include <vector>

#include "analysis/game_trace.hpp"

namespace rulebook::analysis {

// One seat's waits in a game: the other seats' decisions between each two
// of its own consecutive decisions.
std::vector<int> waits(const GameTrace& trace, int seat);

struct SitOut {
  int seats = 0;          // seats out while others still decided
  double wait_share = 0;  // their mean share of the game's decisions made after they went out
  uint64_t out_seats = 0;  // which
};
SitOut sit_out(const GameTrace& trace);

// The nearest-rank quantile q in [0, 1] of `values` (sorted here); 0 when empty.
double nearest_rank(std::vector<int>& values, double q);

}  // namespace rulebook::analysis
