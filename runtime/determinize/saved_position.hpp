#pragma once
// Inside the determinizer (determinizer.cpp, rollouts.cpp,
// redrawn_checkpoint.cpp): a position it saves once and restores many
// times, on a game of its own. Three are: the seat's decision (generic
// samples resume there), where the first redrawn answer is asked (samples
// that redraw private answers), and the look-ahead's copy of the decision.
// Each is built here, one way: an engine from the process's pool (so a new
// search agent on the same game loads the rules no more than the last
// one's engines did), a position service on it that keeps no details (a
// search reads the winners only), and the replaying seat agent pointed at
// its game.
#include <memory>

#include "determinize/seat_replay.hpp"
#include "lua/engine_pool.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"

namespace rulebook {

class Determinizer::SavedPosition {
 public:
  // `observer` is what the replays of this position compare with what the
  // seat saw (the determinizer's, or the look-ahead's own).
  SavedPosition(const std::shared_ptr<const GameDefinition>& definition, const EngineLimits& limits,
                Observer& observer)
      : engine_(pooled_engine(definition, limits)), service_(definition, *engine_) {
    service_.match().set_keep_details(false);
    replayer_.state = &service_.match().state();
    replayer_.observer = &observer;
  }
  SavedPosition(const SavedPosition&) = delete;
  SavedPosition& operator=(const SavedPosition&) = delete;

  PositionService& service() { return service_; }
  Match& match() { return service_.match(); }
  // The agent at every seat of its game.
  Replayer& replayer() { return replayer_; }

 private:
  PooledEngine engine_;      // given back to the pool with the position
  PositionService service_;  // on engine_ alone (declared after it: gone first)
  Replayer replayer_;
};

}  // namespace rulebook
