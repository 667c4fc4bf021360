// One running game on a RuleEngine's Lua state: its thread, its `game`
// table, its agents, its pending decision and its result.
#include <algorithm>
#include <atomic>
#include <cmath>

#include <fmt/format.h>

#include "lua/decision_options.hpp"
#include "lua/engine_impl.hpp"
#include "lua/error_report.hpp"
#include "lua/rule_engine.hpp"
#include "lua/sandbox.hpp"
#include "observation/view.hpp"

namespace rulebook {
namespace {

// rules.evaluate only reads the game: any event but a log line while it
// runs means it changed something, which would corrupt the game searched.
struct ChangeDetector : EventSink {
  bool changed = false;
  EventType type = EventType::Message;
  void on_event(const GameState&, const Event& e) override {
    if (e.type == EventType::Message || changed) return;
    changed = true;
    type = e.type;
  }
};

// A read-only rule function's call on a game that is not running
// (rules.evaluate, rules.deal_unseen): the game's context with a budget of
// its own and `random` behind math.random, and a detector for changes. The
// game's sink and chance come back when the call ends, on every way out.
// `nested`: asked while the game's own thread waits in game:choose, the call
// runs inside that game's context and budget, and only `random` changes.
class ReadOnlyCall {
 public:
  ReadOnlyCall(EngineImpl& engine, GameRunImpl& g, Rng& random, const char* function, bool nested = false)
      : e_(engine), state_(*g.state), sink_(g.state->sink()),
        random_after_(nested ? engine.ctx.random : &g.state->chance()), read_only_after_(engine.ctx.read_only_call) {
    e_.ctx.read_only_call = function;
    if (!nested) {
      e_.ctx.game = &g;
      e_.ctx.state = &state_;
      e_.ctx.instructions = 0;
      e_.ctx.abort = Abort::None;
    }
    e_.ctx.random = &random;
    state_.set_sink(&detector_);
  }
  ~ReadOnlyCall() { end(); }
  ReadOnlyCall(const ReadOnlyCall&) = delete;
  ReadOnlyCall& operator=(const ReadOnlyCall&) = delete;

  // The rule function has returned: the game's own sink and chance again.
  void end() {
    if (ended_) return;
    ended_ = true;
    state_.set_sink(sink_);
    e_.ctx.random = random_after_;
    e_.ctx.read_only_call = read_only_after_;
  }
  bool changed() const { return detector_.changed; }
  // `where` (the call, for the message) must only have read the game.
  void require_unchanged(const std::string& where) const {
    if (detector_.changed)
      throw ScriptError(fmt::format("{} changed the game (a {} event); it must only read it", where,
                                    to_string(detector_.type)));
  }

 private:
  EngineImpl& e_;
  GameState& state_;
  ChangeDetector detector_;
  EventSink* sink_;
  Rng* random_after_;
  const char* read_only_after_;
  bool ended_ = false;
};

// Whether an agent asks while the game's thread waits in game:choose: a
// rule function then runs on that thread (a protected call inside it).
bool asked_inside(const GameRunImpl& g) {
  return g.phase == RunPhase::Running && g.co && lua_status(g.co) == LUA_OK;
}

// Runs the function under nargs arguments on L (the game's thread when
// `inside`, a protected call within it; else the state), with the error
// handler at `handler`; one result. Returns the call's status.
int protected_rule_call(EngineImpl& e, lua_State* L, bool inside, int nargs, int handler) {
  if (!inside) return e.protected_run(nargs, 1, handler);
  const bool capped = e.ctx.memory_capped;
  e.ctx.memory_capped = true;
  sandbox_begin_run(L);
  const int status = lua_pcall(L, nargs, 1, handler);
  sandbox_end_run(L);
  e.ctx.memory_capped = capped;
  return status;
}

// "rules.lua: rules.describe(game, 1)": a rule function's call, in messages.
std::string rule_call(const EngineImpl& e, const char* function, Seat seat) {
  return fmt::format("{}{}: rules.{}(game, {})", e.ctx.display_dir.empty() ? "" : e.ctx.display_dir + "/", e.def->script,
                     function, seat);
}

// A rule function's protected call failed: its error, with a traceback.
[[noreturn]] void fail_rule_call(lua_State* L, int handler, const std::string& where) {
  sandbox_restore_guarded(L);
  std::string msg = lua_tostring(L, -1) ? explain_script_error(L, lua_tostring(L, -1)) : "error object is not a string";
  lua_settop(L, handler - 1);
  const Abort why = context(L)->abort;
  if (why == Abort::Budget || why == Abort::Memory) throw ScriptLimitError(where + " failed: " + msg);
  throw ScriptError(where + " failed: " + msg);
}

// The `game` table's and game.state's starting sizes (hash slots).
constexpr int kGameTableFields = 8;
constexpr int kStateTableFields = 4;
constexpr int kGameStackSlots = 160;  // Lua stack slots a game starts with

}  // namespace

double outcome_share(const GameResult& result, Seat seat) {
  for (Seat w : result.winners)
    if (w == seat) return 1.0 / static_cast<double>(result.winners.size());
  return 0.0;
}

double seat_payoff(const GameResult& result, Seat seat) {
  if (!result.returns.empty()) return seat.index() < result.returns.size() ? result.returns[seat.index()] : 0.0;
  return outcome_share(result, seat);
}

GameRunImpl::~GameRunImpl() {
  if (!engine || !engine->L) return;
  lua_State* L = engine->L;
  if (in_progress() && !feed.observers.empty() && state) state->set_sink(caller_sink);
  // The thread goes back to the engine for its next game, which resets it
  // first (threads unwound by a script error never come back: see resume).
  if (co && !engine->spare_co) {
    engine->spare_co = co;
    engine->spare_co_ref = co_ref;
  } else {
    luaL_unref(L, LUA_REGISTRYINDEX, co_ref);
  }
  luaL_unref(L, LUA_REGISTRYINDEX, game_ref);
  luaL_unref(L, LUA_REGISTRYINDEX, prepare_ref);
  if (engine->ctx.game == this) {
    engine->ctx.game = nullptr;
    engine->ctx.state = nullptr;
    engine->ctx.random = nullptr;
  }
}

bool GameRunImpl::resume(int nargs) {
  EngineImpl& e = *engine;
  LuaContext& ctx = e.ctx;
  lua_State* L = e.L;
  // This game becomes the one bindings act on, with its own budget.
  ctx.game = this;
  ctx.state = state;
  ctx.random = &state->chance();
  ctx.instructions = instructions;
  ctx.abort = Abort::None;
  ctx.abort_message.clear();
  // Once the game is over, the caller's sink is restored.
  struct RestoreSink {
    GameRunImpl& run;
    ~RestoreSink() {
      run.instructions = run.engine->ctx.instructions;
      if (!run.in_progress() && !run.feed.observers.empty() && run.state) {
        run.state->set_sink(run.caller_sink);
        run.feed.observers.clear();
      }
    }
  } restore{*this};
  int nres = 0;
  ctx.memory_capped = true;
  sandbox_begin_run(co);
  const int status = lua_resume(co, L, nargs, &nres);
  sandbox_end_run(co);
  ctx.memory_capped = false;
  if (status == LUA_OK) {
    lua_pop(co, nres);
    phase = RunPhase::Over;
    e.check_guarded();
    if (!result.finished)
      throw ScriptError(fmt::format("{}: the rules' play function returned without calling "
                                    "game:finish", e.def->script));
    return false;
  }
  if (status == LUA_YIELD) {
    lua_pop(co, nres);
    phase = RunPhase::Waiting;
    if (pending.empty()) throw ScriptError("a rule script yielded outside a decision");
    // Its labels, targets and view are built when the request is first
    // read (GameRun::pending): never for a caller that only answers.
    return true;
  }
  phase = RunPhase::Over;
  const Abort why = ctx.abort;
  if (why == Abort::Finished || why == Abort::Stopped) {
    result.stopped = why == Abort::Stopped;
    e.check_guarded();
    return false;
  }
  sandbox_restore_guarded(L);  // the script's own error is the one to report
  if (why == Abort::Agent && ctx.exception_cut_off) throw GameCutOff(ctx.abort_message);
  if (why == Abort::Agent) throw AgentFailure(ctx.abort_message);
  std::string message = lua_tostring(co, -1) ? lua_tostring(co, -1) : "error object is not a string";
  if (why == Abort::Budget || why == Abort::Memory) message = ctx.abort_message;
  luaL_traceback(L, co, message.c_str(), 0);
  std::string text = explain_script_error(L, lua_tostring(L, -1));
  lua_pop(L, 1);
  // Never reuse a thread a script error unwound: when the error came from
  // the count hook (the budget), Lua leaves hooks disabled on that thread,
  // and the next game would run without any instruction budget.
  luaL_unref(L, LUA_REGISTRYINDEX, co_ref);
  co_ref = LUA_NOREF;
  co = nullptr;
  // And free what the failed game left (a memory bomb's garbage), or the
  // next game would start next to the memory cap.
  lua_gc(L, LUA_GCCOLLECT);
  if (why == Abort::Budget || why == Abort::Memory) throw ScriptLimitError(text);
  throw ScriptError(text);
}

nlohmann::json GameRunImpl::view(Seat seat) const {
  nlohmann::json v = seat_view(*state, seat);
  if (game_ref != LUA_NOREF) {
    lua_State* L = engine->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref);
    lua_getfield(L, -1, "state");
    nlohmann::json s;
    std::string error;
    const bool converted = to_json_checked(L, -1, s, error);
    lua_pop(L, 2);
    if (!converted) throw ScriptError("game.state: cannot convert it to JSON: " + error);
    if (!s.empty()) v["state"] = std::move(s);
    if (engine->describe_ref != LUA_NOREF) v["describe"] = describe(seat);
  }
  return v;
}

namespace {

// What is wrong with rules.describe's answer ("" when nothing): a list
// whose items are lines (strings) or fields {label = TEXT, value = TEXT,
// number or boolean}.
std::string description_error(const nlohmann::json& d) {
  if (d.is_object() && d.empty()) return "";  // an empty table
  if (!d.is_array()) return fmt::format("a {}", d.type_name());
  for (size_t i = 0; i < d.size(); ++i) {
    const auto& item = d[i];
    if (item.is_string()) continue;
    const bool field = item.is_object() && item.size() == 2 && item.contains("label") && item.contains("value") &&
                       item["label"].is_string() && (item["value"].is_primitive() && !item["value"].is_null());
    if (!field) return fmt::format("item {} is {}", i + 1, item.dump().substr(0, 60));
  }
  return "";
}

}  // namespace

nlohmann::json GameRunImpl::describe(Seat seat) const {
  EngineImpl& e = *engine;
  GameRunImpl& g = const_cast<GameRunImpl&>(*this);
  const bool inside = asked_inside(g);
  lua_State* L = inside ? co : e.L;
  // Its own fixed stream, never the game's chance: describing the game
  // changes nothing in it, the same position reads the same.
  Rng scratch(Rng::mix(0x6465736372696265ull, static_cast<uint64_t>(seat.value())));
  ReadOnlyCall call(e, g, scratch, "rules.describe", inside);
  lua_checkstack(L, 4);
  lua_pushcfunction(L, sandbox_traceback);
  const int handler = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.describe_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref);
  lua_pushinteger(L, seat.value());
  const int status = protected_rule_call(e, L, inside, 2, handler);
  call.end();
  const std::string where = rule_call(e, "describe", seat);
  if (status != LUA_OK) fail_rule_call(L, handler, where);
  nlohmann::json d;
  std::string error;
  const bool converted = to_json_checked(L, -1, d, error);
  lua_settop(L, handler - 1);
  call.require_unchanged(where);
  if (!converted) throw ScriptError(fmt::format("{}: cannot convert its answer to JSON: {}", where, error));
  const std::string wrong = description_error(d);
  if (!wrong.empty())
    throw ScriptError(fmt::format("{} returned {}; it must return a list of lines (strings) and fields "
                                  "({{label = TEXT, value = TEXT or number}})", where, wrong));
  if (d.is_object()) d = nlohmann::json::array();
  return d;
}

GameRun::GameRun(RuleEngine& engine, GameState& state, std::vector<Agent*> agents, const GameRunSettings& settings)
    : impl_(std::make_unique<GameRunImpl>()) {
  static std::atomic<uint64_t> runs{0};
  GameRunImpl& g = *impl_;
  g.engine = engine.impl_.get();
  g.serial = ++runs;
  g.state = &state;
  g.agents = std::move(agents);
  g.agents.resize(static_cast<size_t>(state.player_count()), nullptr);
  g.turn_limit = settings.turn_limit;
  g.prepare_at_first_turn = settings.prepare.at_first_turn;
  g.bare_requests = settings.bare_requests;
  g.keep_details = settings.keep_details;
  if (!settings.prepare.code.empty()) {
    g.engine->load_game_chunk(settings.prepare.code, settings.prepare.chunk_name);
    g.prepare_ref = luaL_ref(g.engine->L, LUA_REGISTRYINDEX);
  }
}

GameRun::~GameRun() = default;

void GameRun::set_bare_requests(bool on) { impl_->bare_requests = on; }
void GameRun::hand_over(const std::vector<Agent*>& agents) {
  GameRunImpl& g = *impl_;
  g.agents.assign(agents.begin(), agents.end());  // its capacity reused: a search hands over every simulation
  g.agents.resize(static_cast<size_t>(g.state->player_count()), nullptr);
}
void GameRun::set_answer_log(std::vector<AnswerRecord>* log) { impl_->answer_log = log; }
namespace {

GameRunImpl::Waiting* waiting_of(GameRunImpl& g, Seat seat) {
  for (auto& w : g.pending)
    if (w.request.seat == seat) return &w;
  return nullptr;
}

}  // namespace

const DecisionRequest& GameRun::pending() const {
  const GameRunImpl& g = *impl_;
  if (g.pending.empty()) {
    static const DecisionRequest none;
    return none;
  }
  return pending(g.pending.front().request.seat);
}

const DecisionRequest& GameRun::pending(Seat seat) const {
  GameRunImpl& g = *impl_;
  GameRunImpl::Waiting* w = waiting_of(g, seat);
  if (!w) throw std::logic_error(fmt::format("seat {} has no decision pending", seat));
  if (!w->built && g.phase == RunPhase::Waiting) {
    // Built on first read, whole (a remote seat needs no callback), under
    // the rules' budget; reading a label must not change the game (whether
    // one is read cannot change the game). Built again if this throws.
    {
      Rng scratch(Rng::mix(0x6c6162656c73ull, static_cast<uint64_t>(seat.value())));
      ReadOnlyCall call(*g.engine, g, scratch, "an option's label");
      fill_waiting_options(g, *w);
      call.end();
      call.require_unchanged("reading the labels of the options of \"" + w->request.prompt + "\"");
    }
    w->request.view = g.view(seat);
    w->built = true;
    w->copy_of_save = 0;
  }
  return w->request;
}

int GameRun::decide_pending(Seat seat, const std::function<int(const Decision&)>& decide) {
  GameRunImpl& g = *impl_;
  GameRunImpl::Waiting* w = waiting_of(g, seat);
  if (!w || g.phase != RunPhase::Waiting) throw std::logic_error(fmt::format("seat {} has no decision pending", seat));
  // Labels run Lua (a metatable's) as this game's, as in game:choose.
  const CurrentRun current(*g.engine, g);
  const Decision::LabelFn label = [&g, w](int i) { return waiting_option_label(g, *w, i); };
  const Decision::ViewFn view = [&g, seat]() { return g.view(seat); };
  // Captures that fit std::function's own storage: no allocation per decision.
  const Decision::TargetFn target = [co = g.co, slot = w->slot, seat](int i) { return option_target(co, slot, i, seat); };
  const WaitingLabels labels(g, *w);
  Decision d(seat, w->request.prompt.c_str(), w->request.count(), &label, &view, &target);
  d.set_label_reader(&labels);
  // A seat of a simultaneous decision is asked as the agents are (together()).
  if (!w->request.together.empty()) d.set_together(&w->request.together);
  return decide(d);
}

Seat GameRun::pending_seat() const {
  return impl_->pending.empty() ? Seat::none() : impl_->pending.front().request.seat;
}

std::vector<Seat> GameRun::pending_seats() const {
  std::vector<Seat> seats;
  pending_seats(seats);
  return seats;
}

void GameRun::pending_seats(std::vector<Seat>& into) const {
  into.clear();
  for (const auto& w : impl_->pending) into.push_back(w.request.seat);
}

std::vector<AnswerRecord> GameRun::together_answers() const {
  const GameRunImpl& g = *impl_;
  std::vector<AnswerRecord> given;
  if (g.together.number == 0) return given;
  for (Seat s : g.together.seats)
    if (g.together.answers[s.index()] >= 0) given.push_back(AnswerRecord{s, g.together.answers[s.index()], g.together.number});
  return given;
}

const GameResult& GameRun::result() const { return impl_->result; }
GameState& GameRun::state() { return *impl_->state; }
nlohmann::json GameRun::view(Seat seat) const { return impl_->view(seat); }

bool GameRun::begin() {
  GameRunImpl& g = *impl_;
  EngineImpl& e = *g.engine;
  lua_State* L = e.L;
  GameState& state = *g.state;
  if (g.phase != RunPhase::Ready) throw std::logic_error("this game has already begun");
  g.phase = RunPhase::Running;
  g.result = GameResult{};
  g.pending.clear();
  g.together = GameRunImpl::Together{};
  g.together_count = 0;
  g.instructions = 0;
  e.ctx.memory_capped = false;
  // Agents get their own stream seed, never the seed of the game's chance.
  for (Seat seat : Seat::all(state.player_count()))
    if (g.agents[seat.index()]) g.agents[seat.index()]->begin_game(agent_stream_seed(state.seed(), seat), seat);
  // Observing agents get the events their seat may see, besides whoever
  // already listens. Without them the state's sink is left alone, so a
  // silent simulation builds no events at all.
  g.feed.observers.clear();
  for (Seat seat : Seat::all(state.player_count()))
    if (g.agents[seat.index()] && g.agents[seat.index()]->wants_events()) g.feed.observers.emplace_back(seat, g.agents[seat.index()]);
  if (!g.feed.observers.empty()) {
    g.caller_sink = state.sink();
    g.tee = EventTee();
    g.tee.add(g.caller_sink);
    g.tee.add(&g.feed);
    state.set_sink(&g.tee);
  }

  // Module-level locals and the module cache start every game as they were
  // loaded, and a fresh `game` table: nothing a game writes reaches the next.
  sandbox_restore_modules(L);
  sandbox_restore_upvalues(L, e.upvalues_ref);
  sandbox_forget_metatables(L);
  // Sized for the fields rules usually add (game.talk, zones looked up
  // once, ...; game.state's few): growing a table rehashes it at every
  // power of two. The size is invisible to scripts (pairs is sorted, next
  // is not theirs) and the same every game.
  lua_createtable(L, 0, kGameTableFields);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.options_ref);
  lua_setfield(L, -2, "options");
  lua_createtable(L, 0, kStateTableFields);
  lua_setfield(L, -2, "state");
  luaL_setmetatable(L, "game");
  g.game_table = lua_topointer(L, -1);
  g.game_ref = luaL_ref(L, LUA_REGISTRYINDEX);

  // The engine's thread, when a previous game left one; after an error or
  // game:finish it is reset first.
  g.co = e.spare_co;
  g.co_ref = e.spare_co_ref;
  e.spare_co = nullptr;
  e.spare_co_ref = LUA_NOREF;
  if (g.co && (lua_status(g.co) != LUA_OK || lua_gettop(g.co) != 0)) {
    // Resetting runs the __close handlers a finished game left pending:
    // Lua code, so under the budget like any other.
    e.ctx.game = &g;
    e.ctx.state = &state;
    e.ctx.random = &state.chance();
    e.ctx.instructions = 0;
    e.ctx.abort = Abort::None;
    e.ctx.abort_message.clear();
    e.ctx.memory_capped = true;
    sandbox_begin_run(g.co);
    const int reset = lua_resetthread(g.co);
    sandbox_end_run(g.co);
    e.ctx.memory_capped = false;
    if (reset != LUA_OK) lua_settop(g.co, 0);
    e.ctx.abort = Abort::None;
    e.ctx.abort_message.clear();
  }
  if (!g.co || lua_status(g.co) != LUA_OK || lua_gettop(g.co) != 0) {
    luaL_unref(L, LUA_REGISTRYINDEX, g.co_ref);
    g.co = lua_newthread(L);
    g.co_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    sandbox_arm_hook(g.co);
  }
  // Resetting a thread shrinks its stack to a few slots, and a game would
  // grow it again by doubling (two reallocations and copies a Pass the
  // Pandas game): room for a game's usual depth at once.
  lua_checkstack(g.co, kGameStackSlots);
  lua_rawgeti(g.co, LUA_REGISTRYINDEX, e.driver_ref);
  lua_rawgeti(g.co, LUA_REGISTRYINDEX, e.rules_ref);
  lua_rawgeti(g.co, LUA_REGISTRYINDEX, g.game_ref);
  if (g.prepare_ref != LUA_NOREF && !g.prepare_at_first_turn) lua_rawgeti(g.co, LUA_REGISTRYINDEX, g.prepare_ref);
  else lua_pushnil(g.co);
  if (g.prepare_at_first_turn) g.first_turn_prepare_ref = g.prepare_ref;  // game:begin_turn runs it
  const bool pending = g.resume(3);
  if (!pending) g.result.turns = state.turns().turns_played();
  return pending;
}

bool GameRun::answer(int index) {
  const Seat seat = pending_seat();
  if (impl_->phase != RunPhase::Waiting || seat.is_none()) throw std::logic_error("no decision is pending");
  return answer(seat, index);
}

bool GameRun::answer(Seat seat, int index) {
  GameRunImpl& g = *impl_;
  if (g.phase != RunPhase::Waiting || g.pending.empty()) throw std::logic_error("no decision is pending");
  GameRunImpl::Waiting* w = waiting_of(g, seat);
  if (!w) throw std::logic_error(fmt::format("seat {} has no decision pending", seat));
  if (index < 0 || index >= w->request.count()) throw std::out_of_range("answer out of range");
  int nargs = 1;
  if (g.together.number != 0) {
    // One seat of a simultaneous decision: the game goes on once every
    // seat has answered (the continuation reads them all).
    g.together.answers[seat.index()] = index;
    g.pending.erase(g.pending.begin() + (w - g.pending.data()));
    if (!g.pending.empty()) return true;
    nargs = 0;
  } else {
    lua_pushinteger(g.co, index);
    std::swap(g.pending, g.answered);  // its buffers, for the next restore
    g.pending.clear();
  }
  g.phase = RunPhase::Running;
  const bool pending = g.resume(nargs);
  if (!pending) g.result.turns = g.state->turns().turns_played();
  return pending;
}

nlohmann::json GameRun::evaluate(const std::string& expression, const std::string& chunk_name) {
  GameRunImpl& g = *impl_;
  EngineImpl& e = *g.engine;
  lua_State* L = e.L;
  if (g.game_ref == LUA_NOREF) throw std::logic_error("no game to evaluate against");
  const CurrentRun current(e, g);
  e.ctx.abort = Abort::None;
  e.ctx.instructions = 0;
  e.load_game_chunk("return " + expression, chunk_name);
  lua_pushcfunction(L, sandbox_traceback);
  lua_insert(L, -2);
  const int handler = lua_gettop(L) - 1;
  lua_rawgeti(L, LUA_REGISTRYINDEX, g.game_ref);
  const int status = e.protected_run(1, 1, handler);
  sandbox_restore_guarded(L);  // an expression cannot change the next game
  if (status != LUA_OK) {
    // Named and shown like a rules error: "e4.yaml:11: ..." with that line.
    std::string msg = lua_tostring(L, -1) ? explain_script_error(L, lua_tostring(L, -1)) : "error";
    lua_settop(L, handler - 1);
    throw ScriptError(msg);
  }
  nlohmann::json value;
  std::string error;
  const bool converted = to_json_checked(L, -1, value, error);
  lua_settop(L, handler - 1);
  if (!converted) throw ScriptError(chunk_name + ": cannot convert the value to JSON: " + error);
  return value;
}

namespace {

// rules.evaluate for every seat in turn, in one protected call (one budget
// for all: a looping evaluate costs one budget, not one per player). Each
// seat's call draws math.random from its own stream. A light C function
// (nothing to allocate); arguments: the GameRunImpl::SeatsToEvaluate, as
// light userdata, evaluate, game. Each answer's type and number go to
// `answers` and `values`, checked by the caller once the call is over.
int evaluate_every_seat(lua_State* L) {
  auto& to = *static_cast<GameRunImpl::SeatsToEvaluate*>(lua_touserdata(L, 1));
  for (to.at = 0; to.at < to.seats.size(); ++to.at) {
    context(L)->random = &to.streams[to.at];
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_pushinteger(L, to.seats[to.at].value());
    lua_call(L, 2, 1);
    to.answers[to.at] = lua_type(L, -1);
    to.values[to.at] = to.answers[to.at] == LUA_TNUMBER ? static_cast<double>(lua_tonumber(L, -1)) : 0.0;
    lua_pop(L, 1);
  }
  lua_pushnil(L);  // the one result protected_rule_call expects
  return 1;
}

}  // namespace

std::optional<double> GameRun::evaluation(Seat seat) {
  GameRunImpl& g = *impl_;
  if (!g.state) throw std::logic_error("no game to evaluate");
  if (seat.is_none() || seat.value() >= g.state->player_count()) throw std::out_of_range(fmt::format("no seat {}", seat));
  const std::optional<std::vector<double>> all = evaluations(seat);
  if (!all) return std::nullopt;
  return (*all)[seat.index()];
}

std::optional<std::vector<double>> GameRun::evaluations(Seat only) {
  GameRunImpl& g = *impl_;
  EngineImpl& e = *g.engine;
  if (g.game_ref == LUA_NOREF || !g.state) throw std::logic_error("no game to evaluate");
  const int players = g.state->player_count();
  std::vector<double> values(static_cast<size_t>(players), 0.0);
  if (g.phase == RunPhase::Over && g.result.finished) {
    for (Seat s : Seat::all(players)) values[s.index()] = seat_payoff(g.result, s);
    return values;
  }
  if (e.evaluate_ref == LUA_NOREF) return std::nullopt;
  // Asked by an agent during the game (a simulation's metrics), it runs on
  // the game's thread as rules.describe does.
  const bool inside = asked_inside(g);
  lua_State* L = inside ? g.co : e.L;
  // Each seat's own fixed stream, never the game's chance nor its seed (a
  // bot's fork must not learn it): the same position always gets the same
  // value.
  // Kept between calls (streams reseeded): a simulation's metrics ask at
  // every decision, and the asking allocates nothing.
  GameRunImpl::SeatsToEvaluate& to = g.evaluating;
  to.seats.clear();
  if (only.is_none()) {
    for (Seat s : Seat::all(players)) to.seats.push_back(s);
  } else {
    to.seats.push_back(only);
  }
  to.streams.resize(to.seats.size());
  for (size_t k = 0; k < to.seats.size(); ++k)
    to.streams[k].reseed(Rng::mix(0x6576616c75617465ull, static_cast<uint64_t>(to.seats[k].value())));
  to.answers.assign(to.seats.size(), LUA_TNIL);
  to.values.assign(to.seats.size(), 0.0);
  ReadOnlyCall call(e, g, to.streams.front(), "rules.evaluate", inside);
  lua_checkstack(L, 8);
  lua_pushcfunction(L, sandbox_traceback);
  const int handler = lua_gettop(L);
  lua_pushcfunction(L, evaluate_every_seat);
  lua_pushlightuserdata(L, &to);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.evaluate_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, g.game_ref);
  const int status = protected_rule_call(e, L, inside, 3, handler);
  call.end();
  // "rules.lua:12: rules.evaluate(game, 1)": where the function is, in messages.
  auto where = [&](Seat seat) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, e.evaluate_ref);
    lua_Debug ar{};
    lua_getinfo(L, ">S", &ar);
    const std::string call_text = rule_call(e, "evaluate", seat);
    if (ar.linedefined <= 0) return call_text;
    const size_t colon = call_text.find(": rules.");
    return fmt::format("{}:{}{}", call_text.substr(0, colon), ar.linedefined, call_text.substr(colon));
  };
  if (status != LUA_OK) fail_rule_call(L, handler, where(to.seats[std::min(to.at, to.seats.size() - 1)]));
  lua_settop(L, handler - 1);
  for (size_t k = 0; k < to.seats.size(); ++k) {
    const double value = to.values[k];
    const bool is_number = to.answers[k] == LUA_TNUMBER;
    if (!is_number || !std::isfinite(value) || value < 0.0 || value > 1.0) {
      const std::string got = is_number ? fmt::format("{}", value) : lua_typename(L, to.answers[k]);
      throw ScriptError(fmt::format("{} returned {}; it must return a number from 0 to 1 "
                                    "(the seat's estimated share of the win)", where(to.seats[k]), got));
    }
    values[to.seats[k].index()] = value;
  }
  // The message only when it is needed: a simulation's metrics ask at
  // every decision, and building it took longer than the answer.
  if (call.changed()) call.require_unchanged(where(to.seats.front()));
  return values;
}

std::vector<int> GameRun::deal_unseen(Seat seat, const std::vector<int>& unseen, uint64_t stream_seed) {
  GameRunImpl& g = *impl_;
  EngineImpl& e = *g.engine;
  if (g.game_ref == LUA_NOREF || !g.state) throw std::logic_error("no game to deal");
  if (e.deal_unseen_ref == LUA_NOREF) throw std::logic_error("the rules define no deal_unseen");
  if (seat.is_none() || seat.value() >= g.state->player_count()) throw std::out_of_range(fmt::format("no seat {}", seat));
  lua_State* L = e.L;
  // The bot's stream, never the game's chance: a deal is one draw of the
  // search, the same draw deals alike.
  Rng scratch(Rng::mix(0x6465616c756e7365ull, stream_seed));
  ReadOnlyCall call(e, g, scratch, "rules.deal_unseen");
  lua_checkstack(L, 8);
  lua_pushcfunction(L, sandbox_traceback);
  const int handler = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.deal_unseen_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, g.game_ref);
  lua_pushinteger(L, seat.value());
  lua_createtable(L, static_cast<int>(unseen.size()), 0);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.components_ref);
  for (size_t k = 0; k < unseen.size(); ++k) {
    lua_rawgeti(L, -1, unseen[k] + 1);
    lua_rawseti(L, -3, static_cast<lua_Integer>(k) + 1);
  }
  lua_pop(L, 1);  // the handles
  const int status = e.protected_run(3, 1, handler);
  call.end();
  const std::string where = rule_call(e, "deal_unseen", seat);
  if (status != LUA_OK) fail_rule_call(L, handler, where);
  // A list of exactly #unseen component handles.
  std::vector<int> dealt;
  std::string wrong;
  if (!lua_istable(L, -1)) {
    wrong = fmt::format("a {}", luaL_typename(L, -1));
  } else if (lua_rawlen(L, -1) != unseen.size()) {
    wrong = fmt::format("a list of {} items for {} unseen components", lua_rawlen(L, -1), unseen.size());
  } else {
    for (size_t k = 0; k < unseen.size() && wrong.empty(); ++k) {
      lua_rawgeti(L, -1, static_cast<lua_Integer>(k) + 1);
      const auto* h = static_cast<const Handle*>(lua_touserdata(L, -1));
      if (h && h->kind == HandleKind::Component) dealt.push_back(h->index);
      else wrong = fmt::format("item {} is a {}, not a component", k + 1, luaL_typename(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_settop(L, handler - 1);
  call.require_unchanged(where);
  if (!wrong.empty())
    throw ScriptError(fmt::format("{} returned {}; it must return the unseen components, each once, in a new order",
                                  where, wrong));
  return dealt;
}

}  // namespace rulebook
