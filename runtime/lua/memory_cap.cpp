#include "lua/memory_cap.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "lua/error_report.hpp"
#include "lua/lua_heap.hpp"

namespace rulebook {

namespace {

// The cap counts what the heap holds (LuaHeap::footprint: pages and large
// blocks as they are taken, not what Lua asked for), so the memory the
// state really uses stays under it.
void refuse(LuaContext* ctx, void* ptr, size_t osize, size_t nsize) {
  // Lua collects all garbage at once and asks again (an emergency
  // collection): if that succeeds, the script never saw this refusal, and
  // the abort goes with it (settle_refusal).
  ctx->refused = LuaContext::Refusal{ptr, osize, nsize, true};
  if (ctx->abort != Abort::None) return;
  ctx->abort = Abort::Memory;
  ctx->refused.raised_abort = true;
  ctx->abort_message = (ctx->running ? script_position(ctx->running) : std::string()) +
                       "script exceeded its memory cap of " + std::to_string(ctx->max_memory / (1024 * 1024)) + " MiB";
}

// The first allocation after a refusal: when it is Lua's second try of the
// refused one and succeeds, the emergency collection made room, nothing
// failed, and the abort the refusal raised would end a game that ends
// well: it is withdrawn.
void settle_refusal(LuaContext* ctx, void* ptr, size_t osize, size_t nsize, bool taken) {
  const LuaContext::Refusal& r = ctx->refused;
  if (taken && r.raised_abort && r.ptr == ptr && r.osize == osize && r.nsize == nsize && ctx->abort == Abort::Memory) {
    ctx->abort = Abort::None;
    ctx->abort_message.clear();
  }
  ctx->refused = LuaContext::Refusal{};
}

void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* ctx = static_cast<LuaContext*>(ud);
  LuaHeap& heap = *ctx->heap;
  const size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (ptr) heap.give(ptr, old);
    return nullptr;
  }
  if (ptr && LuaHeap::same_class(old, nsize)) return ptr;  // the block has room already
  // A block that shrinks is never refused (Lua counts on that); it frees
  // more than it takes.
  heap.set_limit(ctx->memory_capped && (!ptr || nsize > old) ? ctx->max_memory : SIZE_MAX);
  void* p = heap.take(nsize);
  if (ctx->refused.pending) settle_refusal(ctx, ptr, osize, nsize, p != nullptr);
  if (!p) {
    if (heap.refused()) refuse(ctx, ptr, osize, nsize);
    return nullptr;
  }
  if (ptr) {
    std::memcpy(p, ptr, std::min(old, nsize));
    heap.give(ptr, old);
  }
  return p;
}

}  // namespace

lua_State* memory_capped_state(LuaContext* ctx) {
  ctx->heap = new LuaHeap;
  lua_State* L = lua_newstate(limited_alloc, ctx);
  if (!L) memory_cap_release(ctx);
  return L;
}

void memory_cap_release(LuaContext* ctx) {
  delete ctx->heap;
  ctx->heap = nullptr;
}

}  // namespace rulebook
