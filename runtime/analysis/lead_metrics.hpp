#pragma once
// Metrics of who leads, from one game's trace (game_trace.hpp): how often
// the lead changes hands, how far behind the eventual winner was (drama)
// and how much of the game was left once the winner led for good
// (decisiveness). The leader is the seat whose evaluation is strictly
// highest; a tie has no leader and changes nothing.
#include "analysis/game_trace.hpp"

namespace rulebook::analysis {

// Times the sole leader became another seat (the final position counts).
int lead_changes(const GameTrace& trace);
// After Ludii's Drama (its average form): the mean, over the decisions
// where the eventual sole winner trailed, of the leader's evaluation minus
// the winner's; 0 when it never trailed. Negative: no sole winner.
double drama(const GameTrace& trace);
// The share of the game's decisions made once the eventual sole winner led
// for good (1: it led from the first decision on; 0: only at the end).
// Negative: no sole winner, or no decision.
double decisiveness(const GameTrace& trace);

}  // namespace rulebook::analysis
