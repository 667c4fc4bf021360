#pragma once
// How a game runs, fixed before it begins: one value that GameRun takes
// and Match keeps for every game it starts (rule_engine.hpp, play/match.hpp).
#include <string>

namespace rulebook {

// Lua code run with `game` in scope to arrange a situation (a scenario's
// `prepare`): between the rules' setup and play, or as the first turn
// begins (after `play` has dealt, for a mid-round situation).
struct GamePrepare {
  std::string code;        // empty: none
  std::string chunk_name;  // how errors name it ("scenarios/x.yaml")
  bool at_first_turn = false;
};

struct GameRunSettings {
  // Stop the game when turn N+1 would begin (-1 = no limit; 0 = stop as
  // the first turn would begin, right after setup and the first deal).
  int turn_limit = -1;
  GamePrepare prepare;
  // Bare requests: a paused decision has its seat, prompt and number of
  // options, but empty labels and no view, even when read (no label, view
  // or JSON is built). For replaying answers chosen already (Match::fork);
  // the one setting that may change during a game (GameRun::set_bare_requests).
  // (A request nobody reads is never built either way.)
  bool bare_requests = false;
  // Off: game:finish still checks that its details convert to JSON (the
  // same error when they do not), but keeps none: the result's details stay
  // empty. For callers that read only winners, turns and reason (simulate).
  bool keep_details = true;
};

}  // namespace rulebook
