#pragma once
// The conformance suite every game must pass, as a library: `rulebook
// check` and the CTest conformance test both run it (one implementation,
// two front ends). For every player count and variant set (the batch
// runner's items, batch/batch.hpp) it plays random games in one reused Lua
// state and checks that
// - "finishes": each game ends (game:finish) within the engine's budget;
// - "replay": each game's log replays field for field;
// - "isolation": a fresh Lua state plays the same game event for event;
// - "worlds": what a seat receives is the same in every world it cannot
//   tell apart from the game, the rules played again in each
//   (check/leak_worlds.hpp), until the game reveals something to it;
// - "view", "event", "decision": no view or event shows a seat a component
//   hidden from it, nor another seat's private answer;
// - "together": at a simultaneous decision a seat's options and view are
//   the same whatever the other seats answered.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

struct ConformanceOptions {
  int games = 3;        // random games per player count and variant set
  uint64_t seed = 1;    // game g of every configuration uses seed + g
  int jobs = 1;         // configurations checked in parallel (one Lua state each)
  int inspections = 200;  // decisions per game at which every seat's view is inspected
  EngineLimits limits;
  // Optional: once true (Ctrl-C), the configurations under way finish and
  // no more start; the report is of those checked, the first ones.
  const std::atomic<bool>* cancel = nullptr;
  // "bots": a fresh search bot (rulebook check gives ismcts with a small
  // budget); in the first `bot_games` games of every configuration, for
  // every seat, it must choose the same in worlds the seat cannot tell
  // apart (play/bot_worlds.hpp) at `bot_decisions` of the seat's decisions,
  // spread over its game. Null: not tested.
  std::function<std::unique_ptr<Agent>()> make_bot;
  // "worlds": every seat of every game receives the same in worlds it
  // cannot tell apart (check/leak_worlds.hpp), until the game reveals
  // something to it. `world_horizons` identity worlds per seat and game.
  bool worlds = true;
  int world_games = 1000000;  // the first games of every configuration tested so
  int world_horizons = 3;
  // Where a leak's two worlds are written (a file each, for `rulebook check
  // GAME --world FILE`); empty: not written.
  std::string leak_dir;
  std::string bot_kind;      // as the report names it
  int bot_games = 3;         // games of each configuration whose decisions are compared
  int bot_decisions = 4;     // decisions compared per seat and game
  // Setup values overridden in every configuration ("PATH=VALUE", as
  // `rulebook play --set`): `rulebook check GAME --set options.cards=5`.
  std::vector<std::string> sets;
  // Only this variant set, at every player count (`rulebook check GAME
  // --variant short`), instead of every configuration conformance_configs
  // lists; with no variant given, every one.
  std::vector<std::string> variants;
};

// One player count with one variant set.
struct ConformanceConfig {
  int players = 0;
  std::vector<std::string> variants;
  std::vector<std::string> sets;  // setup values overridden (ConformanceOptions::sets)
};

struct ConformanceFailure {
  std::string check;  // finishes, replay, isolation, view, hidden-identity, event, message, decision
  std::string game;   // as given (name or folder)
  int players = 0;
  std::vector<std::string> variants;
  std::vector<std::string> sets;  // setup values overridden ("PATH=VALUE")
  uint64_t seed = 0;
  Seat seat;           // the seat shown too much (none: not a leak)
  std::string where;   // the first decision or event where it went wrong
  std::string message;
  std::string reproduce;  // a command that plays that game
  // A leak found by the worlds test: a command that plays each of the two
  // worlds again and prints what the seat receives (empty: files not written).
  std::vector<std::string> reproduce_worlds;
};

// A variant whose YAML says `check: {skip: REASON}`: left out of every
// configuration, and reported so.
struct SkippedVariant {
  std::string name;
  std::string reason;
};

struct ConformanceReport {
  std::string game;
  std::string dir;
  std::vector<SkippedVariant> skipped;
  int configs = 0;
  int checked_configs = 0;  // fewer than configs when cancelled
  bool cancelled = false;
  int games = 0;
  std::vector<ConformanceFailure> failures;
  // Heuristics that cannot be made sound (a text naming a hidden title):
  // printed, never failing. Same shape as failures.
  std::vector<ConformanceFailure> warnings;
  // The bots test: its kind ("" when not run) and the decisions compared.
  std::string bot_kind;
  int decisions_compared = 0;
  int bot_worlds_compared = 0, bot_worlds_skipped = 0;
  // The worlds test (off: not run).
  bool worlds = false;
  int worlds_compared = 0, worlds_skipped = 0;
  bool ok() const { return failures.empty(); }
};

// The configurations a game is checked in: every player count times no
// variant, each variant alone, and the variant combinations game.yaml lists
// under check.combinations (default: every pair of variants); a variant
// that says `check: {skip: ...}` is in none; with `variants` given
// (ConformanceOptions::variants), that variant set alone. Each with `sets`
// overridden. Throws SetupError.
std::vector<ConformanceConfig> conformance_configs(const std::string& game, const std::vector<std::string>& sets = {},
                                                   const std::vector<std::string>& variants = {});
// The variants conformance_configs leaves out, with their reasons.
std::vector<SkippedVariant> skipped_variants(const std::string& game);

// Runs the suite on one game (a bundled name or a folder). Throws
// SetupError when the game does not load; script errors are failures.
ConformanceReport check_conformance(const std::string& game, const ConformanceOptions& options = {});

nlohmann::json to_json(const ConformanceFailure& failure);
nlohmann::json to_json(const ConformanceReport& report);
// "finishes: hai-noon, 3 players, variants short, seed 4: ... \n  at ...\n  reproduce: ..."
std::string describe(const ConformanceFailure& failure);

}  // namespace rulebook
