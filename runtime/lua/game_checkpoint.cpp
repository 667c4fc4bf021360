// A game saved at a decision and put back in place (GameCheckpoint): the
// engine's heap bytes, the run, the state and the answers recorded. The
// bytes are the Lua state itself at the same addresses, so nothing in it
// needs mending; the C++ around it is copied by value.
#include <atomic>
#include <optional>
#include <stdexcept>
#include <vector>

#include "lua/engine_impl.hpp"
#include "lua/lua_heap.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {
namespace {

std::atomic<uint64_t> saves{0};

}  // namespace

// Everything a checkpoint knows of the engine, by value: the heap's bytes,
// the run's fields (engine_impl.hpp marks those that point into the heap),
// the state, the answers' count and the engine's spare thread. Nothing
// else of the engine changes between a save and a restore but what
// EngineImpl::after_heap_restore resets.
struct GameCheckpointImpl {
  const GameRunImpl* of = nullptr;  // the run that saved it (only it may restore)
  uint64_t serial = 0;              // and its number (another run may reuse its address)
  uint64_t save = 0;                // this save's number, unique in the process (Waiting::copy_of_save)
  LuaHeap::Snapshot heap;
  // The run's fields, detached from the engine (engine = null) so that
  // dropping the copy touches no Lua state.
  std::optional<GameRunImpl> run;
  // The run's pending decisions and its result's details, kept apart from
  // `run` (whose own are empty): a restore copies them into the restoring
  // run's buffers (GameRunImpl::answered), where copying them with the run
  // would allocate every label and the details anew each simulation.
  std::vector<GameRunImpl::Waiting> pending;
  nlohmann::json details;
  std::optional<GameState> state;
  size_t answers = 0;
  lua_State* spare_co = nullptr;
  int spare_co_ref = LUA_NOREF;
};

GameCheckpoint::GameCheckpoint() = default;
GameCheckpoint::~GameCheckpoint() = default;
GameCheckpoint::GameCheckpoint(GameCheckpoint&&) noexcept = default;
GameCheckpoint& GameCheckpoint::operator=(GameCheckpoint&&) noexcept = default;
bool GameCheckpoint::empty() const { return !impl_ || !impl_->of; }
size_t GameCheckpoint::heap_bytes() const {
  if (!impl_) return 0;
  return impl_->heap.copied();
}

void GameRun::save(GameCheckpoint& into) {
  GameRunImpl& g = *impl_;
  if (g.phase != RunPhase::Waiting || !g.engine) throw std::logic_error("GameRun::save: no decision waits");
  EngineImpl& e = *g.engine;
  if (!into.impl_) into.impl_ = std::make_unique<GameCheckpointImpl>();
  GameCheckpointImpl& c = *into.impl_;
  // A full collection first: the garbage's blocks go back to the free
  // lists, so the heap carves no new memory for a while and a long game's
  // checkpoints stay as small as its live data (a restore copies every
  // byte carved). Rules cannot tell: no finalizers, and a weak table made
  // by a metatable changed after setmetatable fails the game here (as it
  // would at its end without a checkpoint), before the collection shows it.
  e.check_metatables();
  lua_gc(e.L, LUA_GCCOLLECT);
  c.of = &g;
  c.serial = g.serial;
  c.save = ++saves;
  e.ctx.heap->snapshot(c.heap);
  if (c.run) *c.run = g;
  else c.run.emplace(g);
  c.run->engine = nullptr;
  c.run->answered.clear();
  c.pending = std::move(c.run->pending);
  c.run->pending.clear();
  c.details = std::move(c.run->result.details);
  c.run->result.details = nullptr;
  // The labels that are the heap's alone, kept with it: a search reads
  // every option's label at the decision after each restore.
  for (GameRunImpl::Waiting& w : c.pending) {
    keep_heap_labels(*c.run, w);
  }
  if (c.state) *c.state = *g.state;
  else c.state.emplace(*g.state);
  c.answers = g.answer_log ? g.answer_log->size() : 0;
  c.spare_co = e.spare_co;
  c.spare_co_ref = e.spare_co_ref;
}

bool GameRun::can_restore(const GameCheckpoint& from) const {
  return !from.empty() && from.impl_->of == impl_.get() && from.impl_->serial == impl_->serial;
}

void GameRun::restore(const GameCheckpoint& from) {
  GameRunImpl& g = *impl_;
  if (!can_restore(from)) throw std::logic_error("GameRun::restore: a checkpoint of another game");
  const GameCheckpointImpl& c = *from.impl_;
  EngineImpl* engine = g.engine;
  EngineImpl& e = *engine;
  e.ctx.heap->restore(c.heap);
  e.after_heap_restore();
  // The run's own buffers (the decision it last answered or still waits
  // for, the details' object) take the checkpoint's copies in place.
  std::vector<GameRunImpl::Waiting> pending = std::move(g.pending.empty() ? g.answered : g.pending);
  nlohmann::json details = std::move(g.result.details);
  g = *c.run;
  g.engine = engine;
  pending.resize(c.pending.size());
  for (size_t i = 0; i < c.pending.size(); ++i) {
    GameRunImpl::Waiting& w = pending[i];
    if (w.copy_of_save == c.save && w.copy_of_index == i) continue;  // this save's, untouched since
    w = c.pending[i];
    w.copy_of_save = c.save;
    w.copy_of_index = i;
  }
  g.pending = std::move(pending);
  if (details.is_object() && c.details.is_object() && c.details.empty()) details.clear();
  else details = c.details;
  g.result.details = std::move(details);
  *g.state = *c.state;
  if (g.answer_log) g.answer_log->resize(c.answers);
  e.spare_co = c.spare_co;
  e.spare_co_ref = c.spare_co_ref;
}

void EngineImpl::after_heap_restore() {
  ctx.abort = Abort::None;
  ctx.refused = LuaContext::Refusal{};
  ctx.abort_message.clear();
  ctx.running = nullptr;
  // face_cache stays: it holds only the face names' strings of the faces
  // table (face_names), made while the rules loaded, before any save, and
  // alive at the same addresses in every heap a checkpoint holds. Emptying
  // it made every simulation look each face up in the table again.
}

}  // namespace rulebook
