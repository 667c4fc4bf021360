#pragma once
// Rule engines kept for the process, by game definition and limits: a
// search agent (the determinizer) builds two to six engines, and a new
// agent per game would otherwise load the rules that many times a game.
// An engine given back is emptied of what its games left (its garbage
// collected, its heap trimmed: RuleEngine::trim_memory), so it holds what
// a fresh one holds plus its live blocks' pages, and each game on it
// restores the rules' module-level locals: the next taker plays exactly
// the games a fresh engine plays (as `simulate` plays all its games on one
// engine per worker). Safe from any thread; an engine is one taker's at a
// time.
#include <memory>

#include "core/game_definition.hpp"
#include "lua/engine_limits.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

// Gives the engine back to the pool (or destroys it when the pool is full).
struct ReturnEngineToPool {
  void operator()(RuleEngine* engine) const noexcept;
};
using PooledEngine = std::unique_ptr<RuleEngine, ReturnEngineToPool>;

// An engine of `definition` (this very object) under `limits`: one given
// back, else a new one. Throws ScriptError as RuleEngine's constructor.
PooledEngine pooled_engine(const std::shared_ptr<const GameDefinition>& definition, const EngineLimits& limits);

// Engines the pool holds now (for tests).
size_t pooled_engine_count();

}  // namespace rulebook
