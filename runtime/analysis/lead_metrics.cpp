#include "analysis/lead_metrics.hpp"

#include <algorithm>

namespace rulebook::analysis {

int lead_changes(const GameTrace& trace) {
  int changes = 0, last = -1;
  for (int step = 0; step < trace.steps(); ++step) {
    const int leader = trace.leader(step);
    if (leader < 0) continue;
    if (last >= 0 && leader != last) ++changes;
    last = leader;
  }
  return changes;
}

double drama(const GameTrace& trace) {
  const int winner = trace.sole_winner();
  if (winner < 0) return -1;
  double behind = 0;
  int trailing = 0;
  for (int step = 0; step < trace.steps(); ++step) {
    if (trace.seat(step) < 0) continue;  // the final position: the outcome, not the game
    double best = trace.value(step, winner);
    for (int s = 0; s < trace.players(); ++s) best = std::max(best, trace.value(step, s));
    if (best > trace.value(step, winner)) {
      behind += best - trace.value(step, winner);
      ++trailing;
    }
  }
  return trailing ? behind / trailing : 0.0;
}

double decisiveness(const GameTrace& trace) {
  const int winner = trace.sole_winner();
  if (winner < 0) return -1;
  int decisions = 0, since = 0;  // decisions in all, and since the winner last did not lead
  for (int step = 0; step < trace.steps(); ++step) {
    const bool leads = trace.leader(step) == winner;
    if (!leads) since = 0;
    if (trace.seat(step) >= 0) {
      ++decisions;
      if (leads) ++since;
    }
  }
  // A final position where the winner does not lead (a tie) has reset `since`.
  if (decisions == 0) return -1;
  return static_cast<double>(since) / decisions;
}

}  // namespace rulebook::analysis
