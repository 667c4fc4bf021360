#pragma once
// Internal to the Lua layer: what bindings share with the engine.
#include <memory>
#include <string>
#include <vector>

#include "core/game_log.hpp"
#include "lua/context.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

// Feeds agents that observe the events their seat may see.
class AgentFeed : public EventSink {
 public:
  std::vector<std::pair<int, Agent*>> observers;  // seat, agent
  void on_event(const GameState& state, const Event& e) override {
    for (auto& [seat, agent] : observers)
      if (e.audience & seat_bit(seat)) agent->observe(event_json(state, e, seat));
  }
};

struct EngineImpl {
  std::shared_ptr<const GameDefinition> def;
  LuaContext ctx;
  lua_State* L = nullptr;
  lua_State* co = nullptr;  // the thread running the current game
  int co_ref = LUA_NOREF;
  int rules_ref = LUA_NOREF;
  int upvalues_ref = LUA_NOREF;    // module-level locals, restored per game
  int driver_ref = LUA_NOREF;
  int options_ref = LUA_NOREF;
  int game_ref = LUA_NOREF;        // this game's `game` table
  int components_ref = LUA_NOREF;  // id -> handle
  int zones_ref = LUA_NOREF;       // slot -> handle
  int boards_ref = LUA_NOREF;      // index -> handle
  int prepare_ref = LUA_NOREF;     // scenario code run after setup
  int faces_ref = LUA_NOREF;       // face name -> face id
  const void* game_table = nullptr;  // this game's `game`, for argument checks
  struct FaceCacheSlot {
    const char* text = nullptr;  // address of a Lua string
    const char* name = nullptr;  // the face name it matched
    int id = -1;
  };
  static constexpr size_t kFaceCacheSize = 64;
  FaceCacheSlot face_cache[kFaceCacheSize];

  GameState* state = nullptr;
  std::vector<Agent*> agents;
  AgentFeed feed;
  EventTee tee;                    // the caller's sink and the feed
  EventSink* caller_sink = nullptr;
  std::vector<AnswerRecord>* answer_log = nullptr;
  int turn_limit = 0;
  GameResult result;
  PendingDecision pending;
  bool running = false;

  ~EngineImpl();
  void load_rules();
  bool resume(int nargs);
  // Puts back the module tables' fields a game changed; throws ScriptError
  // naming the first change.
  void check_guarded();
  // lua_pcall on L under the budget and the cap.
  int protected_run(int nargs, int nresults, int handler);
  nlohmann::json view(int seat) const;
};

inline EngineImpl& engine(lua_State* L) { return *context(L)->engine; }

// The userdata behind component, zone and board handles.
enum class HandleKind : int { Component = 0x636f6d70, Zone = 0x7a6f6e65, Board = 0x626f6172 };
struct Handle {
  HandleKind kind;
  int index;
};

// Binding helpers (binding.cpp). Argument checks raise standard Lua errors
// ("bad argument #2 to 'move' (zone expected, got nil)").
int check_component(lua_State* L, int arg);
int check_zone(lua_State* L, int arg);
int check_board(lua_State* L, int arg);
int check_seat(lua_State* L, int arg);
int check_face_id(lua_State* L, int arg);  // a face name known to the game
int face_id_of(lua_State* L, int arg);     // -1 when not a face name
void push_component(lua_State* L, int id);
void push_zone(lua_State* L, int slot);
void push_board(lua_State* L, int board);
void check_game(lua_State* L, int arg);
void push_json(lua_State* L, const nlohmann::json& value);
// Lua -> JSON, bounded (cycles, depth, number of values). to_json throws
// ScriptError: for C++ callers only. Bindings use to_json_checked, which
// reports instead, and raise the Lua error once no C++ object is alive.
nlohmann::json to_json(lua_State* L, int index, int depth = 0);
bool to_json_checked(lua_State* L, int index, nlohmann::json& out, std::string& error);
// Adds functions to the method table of a handle metatable.
void add_methods(lua_State* L, const char* metatable, const luaL_Reg* methods);

// One registration function per binding file.
void register_game(lua_State* L);
void register_turns(lua_State* L);
void register_decisions(lua_State* L);
void register_components(lua_State* L);
void register_dice(lua_State* L);
void register_zones(lua_State* L);
void register_decks(lua_State* L);
void register_boards(lua_State* L);

}  // namespace rulebook
