// The Lua sandbox: fuzzed Lua text runs as a rule function (the engine's
// "prepare" hook, with `game` in scope) under a small instruction budget
// and memory cap, in one engine reused across inputs as games reuse it.
// It must end in a ScriptError or normally: no crash, no hang, no leak.
#include <memory>

#include "agents/agent.hpp"
#include "fuzz_input.hpp"
#include "lua/rule_engine.hpp"
#include "setup/game_loader.hpp"
#include "setup/yaml_source.hpp"

#ifndef RULEBOOK_FUZZ_LUA_GAME
#error "RULEBOOK_FUZZ_LUA_GAME must name tests/fuzz/lua_game"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto def = rulebook::load_game(RULEBOOK_FUZZ_LUA_GAME);
  static rulebook::RuleEngine engine(def, rulebook::EngineLimits{1'000'000, 32u << 20});
  static rulebook::FirstAgent first;
  rulebook::GameState state(*def);
  state.reset(2, 1);
  std::vector<rulebook::Agent*> agents{&first, &first};
  try {
    rulebook::GameRunSettings settings;
    settings.prepare = {rulebook::fuzz::text(data, size), "fuzz.lua"};
    rulebook::GameRun run(engine, state, agents, settings);  // compiles it: may be a syntax error
    (void)run.begin();
  } catch (const rulebook::ScriptError&) {
  } catch (const rulebook::AgentFailure&) {
  }
  return 0;
}
