#pragma once
// Internal to the Lua layer: what bindings share with the engine.
//
// EngineImpl is one Lua state with a game's rules loaded (one per worker,
// reused by every game it plays); GameRunImpl is one running game on it
// (its thread, its `game` table, its agents, pending decision and result).
// A worker may hold several games at once; the one being resumed is the
// context's `game`, which is what bindings act on.
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "agents/decision.hpp"
#include "agents/game_cut_off.hpp"
#include "core/event_tee.hpp"
#include "core/game_definition.hpp"
#include "core/game_state.hpp"
#include "core/visibility.hpp"
#include "lua/context.hpp"
#include "lua/game_result.hpp"
#include "lua/game_run_settings.hpp"
#include "lua/script_error.hpp"
#include "observation/event_view.hpp"

namespace rulebook {

// Feeds agents that observe the events their seat may see.
class AgentFeed : public EventSink {
 public:
  std::vector<std::pair<Seat, Agent*>> observers;
  void on_event(const GameState& state, const Event& e) override {
    for (auto& [seat, agent] : observers)
      if (can_see(e, seat)) agent->observe(event_json(state, e, seat));
  }
};

struct EngineImpl {
  std::shared_ptr<const GameDefinition> def;
  LuaContext ctx;
  lua_State* L = nullptr;
  int rules_ref = LUA_NOREF;
  int evaluate_ref = LUA_NOREF;    // rules.evaluate, when the rules define it
  int describe_ref = LUA_NOREF;    // rules.describe, when the rules define it
  int deal_unseen_ref = LUA_NOREF; // rules.deal_unseen (a sampling hint for search bots), when defined
  int upvalues_ref = LUA_NOREF;    // module-level locals, restored per game
  int driver_ref = LUA_NOREF;
  int options_ref = LUA_NOREF;
  int components_ref = LUA_NOREF;  // id -> handle
  int zones_ref = LUA_NOREF;       // slot -> handle
  int boards_ref = LUA_NOREF;      // index -> handle
  int faces_ref = LUA_NOREF;       // face name -> face id
  // zone:id() texts by zone slot, formatted on first use (ids never change).
  std::vector<std::string> zone_ids;
  int attrs_ref = LUA_NOREF;       // type index + 1 -> {attribute -> value} (bind_component.cpp)
  // Lua heap: a finished game's thread, for the next (and its registry
  // reference). Saved and restored with a checkpoint (game_checkpoint.cpp):
  // a restored heap holds the thread as it was at the save.
  lua_State* spare_co = nullptr;
  int spare_co_ref = LUA_NOREF;
  // The ..._ref fields above are registry slots made while the rules
  // load, before any checkpoint: a restore never moves them.
  // Keyed by the addresses of Lua strings, and only of the face names'
  // strings in faces_ref (face_names, made with it while the rules load):
  // right after a restore too, as every heap a checkpoint holds has them
  // where they were made (face_id_of caches no other string).
  struct FaceCacheSlot {
    const void* name = nullptr;  // a face name's Lua string object (a key of faces_ref): lua_topointer
    FaceId id;
  };
  static constexpr size_t kFaceCacheSize = 64;
  static size_t face_slot(const void* name) { return (reinterpret_cast<uintptr_t>(name) >> 4) % kFaceCacheSize; }
  FaceCacheSlot face_cache[kFaceCacheSize];
  std::vector<const void*> face_names;  // face id -> its name's string object in faces_ref (alive as long as the engine)

  ~EngineImpl();
  // After its heap was put back (GameRun::restore): the context's error
  // state cleared and every C++ cache of Lua addresses emptied.
  void after_heap_restore();
  void load_rules();
  // Puts back the module tables' fields a game changed; throws ScriptError
  // naming the first change.
  void check_guarded();
  // Throws ScriptError when a metatable given during the game got a
  // `__mode` field afterwards (sandbox_late_weak_metatable).
  void check_metatables();
  // lua_pcall on L under the budget and the cap.
  int protected_run(int nargs, int nresults, int handler);
  // Loads `code` as a chunk with `game` as its first parameter; pushes it.
  void load_game_chunk(const std::string& code, const std::string& chunk_name);
};

// Where a run is in its life. Only these transitions happen (game_run.cpp):
//
//   Ready --begin()--> Running --a seat without an agent must decide--> Waiting
//                      Running <--answer()------------------------------ Waiting
//                      Running --play returned, game:finish, the turn limit,
//                                a script error or an agent's failure--> Over
//
// Running covers begin()'s set-up and the rules' thread at work (agents
// answer inside it). begin() is refused but in Ready, answer() but in
// Waiting. How the game ended is the result's (finished, stopped).
enum class RunPhase : unsigned char { Ready, Running, Waiting, Over };

// A checkpoint (game_checkpoint.cpp) copies every field below by value with
// the engine's heap: the fields marked "Lua heap" point into that heap (a
// lua_State, a registry slot, an object's address, a stack slot), and are
// right after a restore only because the heap comes back at the same
// addresses with them. A field added here that points into the heap needs
// the same mark; one that points at C++ outside the run (state, agents,
// answer_log, caller_sink) is the run's own and stays valid while it lives.
struct GameRunImpl {
  // The seats rules.evaluate is being asked about (game_run.cpp), each
  // with its own stream, the one being asked, and each answer's Lua type
  // and number; kept between calls so that asking allocates nothing.
  struct SeatsToEvaluate {
    std::vector<Seat> seats;
    std::vector<Rng> streams;
    std::vector<int> answers;
    std::vector<double> values;
    size_t at = 0;
  };
  SeatsToEvaluate evaluating;

  EngineImpl* engine = nullptr;  // not taken from a checkpoint: the restoring run's own
  uint64_t serial = 0;  // unique in the process: which run a checkpoint is of
  GameState* state = nullptr;
  lua_State* co = nullptr;  // Lua heap: the thread running this game
  int co_ref = LUA_NOREF;   // Lua heap: its registry slot
  int game_ref = LUA_NOREF;          // Lua heap: this game's `game` table
  int prepare_ref = LUA_NOREF;       // Lua heap: the settings' prepare code, compiled
  // Lua heap: the prepare code while it waits for the first turn (an alias
  // of prepare_ref, cleared when game:begin_turn runs it).
  int first_turn_prepare_ref = LUA_NOREF;
  const void* game_table = nullptr;  // Lua heap: this game's `game`, for argument checks
  uint64_t instructions = 0;         // budget used by this game so far

  std::vector<Agent*> agents;
  AgentFeed feed;
  EventTee tee;  // the caller's sink and the feed
  EventSink* caller_sink = nullptr;
  std::vector<AnswerRecord>* answer_log = nullptr;
  // The GameRunSettings it plays by. Its prepare code is kept compiled
  // (prepare_ref), never as text: starting a game copies no string.
  int turn_limit = -1;
  bool prepare_at_first_turn = false;
  bool bare_requests = false;  // may change between answers (GameRun::set_bare_requests)
  bool keep_details = true;
  RunPhase phase = RunPhase::Ready;
  GameResult result;
  // The decisions the game waits for (RunPhase::Waiting): game:choose's
  // one, or every seat of a game:choose_together without an agent that
  // has not answered yet, in ascending seat order. Each entry's labels,
  // targets and view are built on first read (`built`; bare requests never
  // are); `slot` is where its options lie on the waiting thread's stack
  // (Lua heap: a stack index of `co`, right with the thread it indexes).
  struct Waiting {
    DecisionRequest request;
    bool built = true;
    int slot = 0;
    // Options (the first 64) whose label request.labels holds already, read
    // from the Lua heap alone (a string option, or a table's own string
    // field `label`): set in a checkpoint's copy of the run at its save, so
    // that every restore of the decision reads them without Lua. Such a
    // label is the heap's, and a restore brings the heap back byte for byte.
    uint64_t kept_labels = 0;
    // A restore's copy of entry `copy_of_index` of the checkpoint save
    // `copy_of_save` (GameCheckpointImpl::save), untouched since: the next
    // restore of that save skips copying it again (a search restores the
    // same decision every simulation). 0: not such a copy. Whatever writes
    // an entry's request clears it.
    uint64_t copy_of_save = 0;
    size_t copy_of_index = 0;
  };
  std::vector<Waiting> pending;
  // The decision last answered, kept for its buffers (never read): a
  // restore (GameRun::restore) copies a checkpoint's pending decisions
  // into these, so a search's simulation allocates no labels anew.
  std::vector<Waiting> answered;
  // The simultaneous decision under way (game:choose_together): its seats,
  // each seat's answer so far (-1: none yet), its number in the game.
  struct Together {
    std::vector<Seat> seats;
    std::vector<int> answers;  // by seat index
    int number = 0;            // 0: none under way
  } together;
  int together_count = 0;  // simultaneous decisions asked so far in this game

  // Begun and not over: the rules' thread is at work or waits at a decision.
  bool in_progress() const { return phase == RunPhase::Running || phase == RunPhase::Waiting; }

  ~GameRunImpl();
  bool resume(int nargs);
  nlohmann::json view(Seat seat) const;
  // rules.describe(game, seat), checked: the public state in words for the
  // seat (a list of lines and {label, value} fields). Sandboxed, on its own
  // random stream, and it may not change the game; throws ScriptError.
  nlohmann::json describe(Seat seat) const;
};

// Builds the labels and targets of pending decision `w` of the game
// waiting in game:choose or game:choose_together (bind_decision.cpp):
// asked for by GameRun::pending.
void fill_waiting_options(GameRunImpl& g, GameRunImpl::Waiting& w);
// Option i's label of pending decision `w`, read the same way (one label).
std::string waiting_option_label(GameRunImpl& g, const GameRunImpl::Waiting& w, int i);
// The labels of pending decision `w`, all at once, as waiting_option_label
// reads each: a kept one (Waiting::kept_labels) compared or copied where
// it is kept.
class WaitingLabels final : public LabelReader {
 public:
  WaitingLabels(GameRunImpl& g, const GameRunImpl::Waiting& w) : g_(g), w_(w) {}
  void read(std::vector<std::string>& out) const override;
  bool same(const std::vector<std::string>& labels) const override;
  // A restore's untouched copy of a saved entry whose labels are all kept:
  // they are that save's (which no later change reaches).
  uint64_t token() const override;

 private:
  bool kept(size_t i) const { return i < 64 && ((w_.kept_labels >> i) & 1) != 0; }
  GameRunImpl& g_;
  const GameRunImpl::Waiting& w_;
};
// Keeps in `w` (GameRunImpl::Waiting::kept_labels) the labels of its
// options that are the Lua heap's alone, read without running Lua.
void keep_heap_labels(GameRunImpl& g, GameRunImpl::Waiting& w);

// Makes `g` the run bindings act on (the context's game, its state and
// math.random's stream) for a scope, and puts back the run that was
// current before on every way out: how C++ outside a resume (labels read
// on demand, an expression evaluated) enters a run.
class CurrentRun {
 public:
  CurrentRun(EngineImpl& e, GameRunImpl& g)
      : ctx_(e.ctx), game_(ctx_.game), state_(ctx_.state), random_(ctx_.random) {
    ctx_.game = &g;
    ctx_.state = g.state;
    ctx_.random = &g.state->chance();
  }
  ~CurrentRun() {
    ctx_.game = game_;
    ctx_.state = state_;
    ctx_.random = random_;
  }
  CurrentRun(const CurrentRun&) = delete;
  CurrentRun& operator=(const CurrentRun&) = delete;

 private:
  LuaContext& ctx_;
  GameRunImpl* game_;
  GameState* state_;
  Rng* random_;
};

inline EngineImpl& engine(lua_State* L) { return *context(L)->engine; }
// The game being resumed: bindings act on it.
inline GameRunImpl& current_game(lua_State* L) { return *context(L)->game; }
inline GameState& state_of(lua_State* L) { return *context(L)->state; }

// The userdata behind component, zone and board handles.
enum class HandleKind : int { Component = 0x636f6d70, Zone = 0x7a6f6e65, Board = 0x626f6172 };
struct Handle {
  HandleKind kind;
  int index;
};

// Binding helpers (binding.cpp). Argument checks raise standard Lua errors
// ("bad argument #2 to 'move' (zone expected, got nil)").
// The checks every binding call makes are inline, a few instructions each;
// their errors are raised out of line (binding.cpp).
[[noreturn]] void raise_handle_error(lua_State* L, int arg, HandleKind kind);
[[noreturn]] void raise_seat_error(lua_State* L, int arg);
[[noreturn]] void raise_game_error(lua_State* L, int arg);
// Scripts cannot make userdata, so every userdata is one of our handles and
// its tag tells which kind: one API call instead of a metatable lookup.
inline int check_handle(lua_State* L, int arg, HandleKind kind) {
  const auto* h = static_cast<const Handle*>(lua_touserdata(L, arg));
  if (!h || h->kind != kind) raise_handle_error(L, arg, kind);
  return h->index;
}
inline ComponentId check_component(lua_State* L, int arg) {
  return ComponentId{check_handle(L, arg, HandleKind::Component)};
}
inline ZoneSlot check_zone(lua_State* L, int arg) { return check_handle(L, arg, HandleKind::Zone); }
inline BoardId check_board(lua_State* L, int arg) { return check_handle(L, arg, HandleKind::Board); }
inline Seat check_seat(lua_State* L, int arg) {
  int isnum = 0;
  const lua_Integer seat = lua_tointegerx(L, arg, &isnum);
  if (!isnum || seat < 0 || seat >= state_of(L).player_count()) raise_seat_error(L, arg);
  return Seat{static_cast<int>(seat)};
}
FaceId check_face_id(lua_State* L, int arg);  // a face name known to the game
FaceId face_id_of(lua_State* L, int arg);     // none when not a face name
// Face names from argument `first` to the top, checked (a standard error
// names the first unknown one); the first `room` ids are kept in `ids`.
// Returns how many there are.
constexpr int kMaxCountedFaces = 8;
int check_face_ids(lua_State* L, int first, FaceId* ids, int room);
// Pushes how many components of `zone` show each face: `count` faces given
// as arguments from `first`, of which the first `room` ids are in `ids`.
// Up to kMaxCountedFaces counts are pushed into the LUA_MINSTACK slots a C
// function starts with, unchecked: the caller pushes at most a few values
// before.
void push_face_counts(lua_State* L, ZoneSlot zone, int first, const FaceId* ids, int count, int room);
// luaL_checkinteger in one API call when the argument is an integer (its
// standard error otherwise).
inline lua_Integer check_integer(lua_State* L, int arg) {
  int isnum = 0;
  const lua_Integer value = lua_tointegerx(L, arg, &isnum);
  return isnum ? value : luaL_checkinteger(L, arg);
}
// An integer argument that must fit an int: a clear argument error
// ("bad argument #2 to 'add_score' (number has no integer representation
// in 32 bits)") instead of a silent truncation.
int check_int(lua_State* L, int arg);
// A count or a limit where anything past INT_MAX means "all": clamped.
int clamp_to_int(lua_Integer value);
// A seat, or a list of seats (any table whose length and items Lua reads,
// a read-only module table included): as a mask. Raises a standard error.
SeatMask check_seats(lua_State* L, int arg);
// The same for a value at stack index `value` (a table's field), reported
// as argument `arg`.
SeatMask check_seats_at(lua_State* L, int arg, int value);
// The first n items of the list at stack index `value`, each a seat, as a
// mask (reported as argument `arg`); with `once_each`, a seat listed twice
// is an error too. With `copy_to` (a stack index), each seat as read goes
// to that table at its place (the list read once: metamethods may answer
// differently the next time).
SeatMask seat_list_mask(lua_State* L, int arg, int value, int n, bool once_each, int copy_to = 0);
// Checks that the table at `arg` has no string key outside `allowed`
// (a null-terminated list): "bad argument #3 to 'move' (unknown field
// 'seenby'; fields: seen_by, position)".
void check_fields(lua_State* L, int arg, const char* const* allowed);
// The length of a list argument, its metamethods honoured (lua_len), checked
// to fit an int.
int check_list_length(lua_State* L, int arg);
int list_length_at(lua_State* L, int arg, int value);
// How a move is made (zone.hpp's MoveOptions) from an optional argument:
// nil, "top" / "bottom", or {position = "top" | "bottom", seen_by = seats}.
struct MoveOptions;
void check_move_options(lua_State* L, int arg, MoveOptions& out);
void push_component(lua_State* L, ComponentId id);
void push_zone(lua_State* L, ZoneSlot slot);
void push_board(lua_State* L, BoardId board);
inline void check_game(lua_State* L, int arg) {
  // The game being played is the only valid one. Only that table has its
  // address (scripts make no light userdata): no type check needed.
  if (lua_topointer(L, arg) != current_game(L).game_table) raise_game_error(L, arg);
}
// Script text as the runtime takes it (core/safe_text.hpp): the string at
// `index`, each ill-formed UTF-8 sequence replaced by U+FFFD -- in its stack
// slot, so that every later read of the slot sees the same valid text.
// text_at gives null for a value that is no string or number;
// check_text raises luaL_checkstring's error.
const char* text_at(lua_State* L, int index);
const char* check_text(lua_State* L, int arg);
void push_json(lua_State* L, const nlohmann::json& value);
// Lua -> JSON, bounded (cycles, depth, number of values). to_json throws
// ScriptError: for C++ callers only. Bindings use to_json_checked, which
// reports instead, and raise the Lua error once no C++ object is alive.
nlohmann::json to_json(lua_State* L, int index, int depth = 0);
bool to_json_checked(lua_State* L, int index, nlohmann::json& out, std::string& error);
// Whether to_json_checked would convert the value, and its error if not,
// without building anything.
bool converts_to_json(lua_State* L, int index, std::string& error);
// Adds functions to the method table of a handle metatable. Each has the
// handle tables as upvalues 1 to 3 (push_component, ...), then, from
// kOwnUpvalue on, a copy of each of the `own_upvalues` values on the top
// of the stack (popped): what a function keeps between calls.
constexpr int kOwnUpvalue = 4;
void add_methods(lua_State* L, const char* metatable, const luaL_Reg* methods, int own_upvalues = 0);

// Runs `fn` (C++ that may throw) and returns its result; a C++ exception
// becomes a Lua error carrying its message, raised only after every C++
// object of the region is gone (after LÖVE's luax_catchexcept). `why`
// other than Abort::None makes the error an abort scripts cannot catch
// (an agent's failure). Nothing inside `fn` may raise a Lua error itself.
template <typename Fn>
int catch_exceptions(lua_State* L, Abort why, Fn&& fn) {
  LuaContext& ctx = *context(L);
  ctx.exception_cut_off = false;
  try {
    return fn();
  } catch (const GameCutOff& e) {
    ctx.exception_message = e.what();
    ctx.exception_cut_off = true;
  } catch (const std::exception& e) {
    ctx.exception_message = e.what();
  } catch (...) {
    ctx.exception_message = "unknown C++ exception";
  }
  if (why != Abort::None) raise_abort(L, why, ctx.exception_message.c_str());
  lua_pushstring(L, ctx.exception_message.c_str());
  return lua_error(L);
}
template <typename Fn>
int catch_exceptions(lua_State* L, Fn&& fn) {
  return catch_exceptions(L, Abort::None, std::forward<Fn>(fn));
}

// One registration function per binding file.
void register_game(lua_State* L);
void register_turns(lua_State* L);
void register_decisions(lua_State* L);
void register_together(lua_State* L);
void register_components(lua_State* L);
void register_dice(lua_State* L);
void register_zones(lua_State* L);
void register_decks(lua_State* L);
void register_boards(lua_State* L);

}  // namespace rulebook
