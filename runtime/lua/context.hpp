#pragma once
// What the Lua side of the runtime knows about the game being run. One per
// Lua state, reached through the state's extra space (copied into every
// thread), so bindings find it without a table lookup.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <lua.hpp>

namespace rulebook {

class GameState;
struct LineCoverage;
class Agent;
class Rng;
struct EngineImpl;
struct GameRunImpl;

enum class Abort { None, Budget, Memory, Agent, Stopped, Finished };

struct LuaContext {
  // The sandbox.
  std::string game_dir;     // absolute folder that `require` may read from
  std::string display_dir;  // how that folder is named in messages
  uint64_t instructions = 0;
  uint64_t max_instructions = 0;  // exact count (a hook on every instruction); 0 = none
  double max_seconds = 0;         // CPU time per run of Lua (a watchdog); 0 = none
  struct BudgetRun* budget_run = nullptr;  // the watchdog's view of this state: the innermost run
  // One BudgetRun per level of runs nested on this state (an agent's view,
  // evaluation or fork run on the same engine during a decision): each
  // level has its own budget. budget_depth levels are under way.
  std::vector<struct BudgetRun*> budget_levels;
  int budget_depth = 0;
  lua_State* running = nullptr;            // the thread running Lua now (for messages)
  class LuaHeap* heap = nullptr;           // where every block of the state lies (lua_heap.hpp)
  size_t max_memory = 0;        // what the heap may hold (LuaHeap::footprint)
  bool memory_capped = false;  // off while the runtime itself builds tables
  Abort abort = Abort::None;
  std::string abort_message;
  // The allocation the cap refused last (memory_cap.cpp), until the next:
  // when Lua's emergency collection makes room and its second try of the
  // same one succeeds, the abort that refusal raised is withdrawn.
  struct Refusal {
    void* ptr = nullptr;
    size_t osize = 0, nsize = 0;
    bool pending = false;
    bool raised_abort = false;
  } refused;
  int env_ref = LUA_NOREF;  // the sandbox's global table
  struct SandboxLock* lock = nullptr;  // what every game starts from (game_isolation.cpp)
  // The metatables this game gave setmetatable (metatable_watch.cpp): a
  // full userdata of the state, null before the first game.
  struct GivenMetatables* given_metatables = nullptr;
  LineCoverage* coverage = nullptr;  // lines run, when asked for (mutation testing)

  // The rules loaded in this state, and the game being resumed (a state may
  // hold several games; each resume makes its game the current one).
  EngineImpl* engine = nullptr;
  GameRunImpl* game = nullptr;
  GameState* state = nullptr;  // the current game's state
  Rng* random = nullptr;       // math.random's stream
  std::string exception_message;  // kept here while a C++ exception becomes a Lua error
  // "rules.evaluate" while a rule function that must only read the game
  // runs (game_run.cpp's ReadOnlyCall): asking a decision or finishing the
  // game there is refused with that name.
  const char* read_only_call = nullptr;
  bool exception_cut_off = false;  // ... and it was a GameCutOff (agents/game_cut_off.hpp)
};

inline LuaContext* context(lua_State* L) { return *static_cast<LuaContext**>(lua_getextraspace(L)); }

// Sets the abort reason and raises a Lua error that sandboxed code cannot
// catch (pcall re-raises while an abort is pending).
[[noreturn]] void raise_abort(lua_State* L, Abort why, const char* message);
// Raises "game:choose cannot be called inside rules.evaluate ..." (with the
// script's position) when a read-only rule function runs; else nothing.
void refuse_inside_read_only_call(lua_State* L, const char* method);

}  // namespace rulebook
