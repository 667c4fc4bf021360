#include "lua/memory_cap.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lua/error_report.hpp"
#include "lua/lua_heap.hpp"

namespace rulebook {

namespace {

// Small blocks count at their class's size, larger ones at the size asked
// (as when they came from malloc: the cap a script meets did not move).
constexpr size_t kChargedBySize = 256;
size_t charged(size_t n) { return n <= kChargedBySize ? LuaHeap::block_size(n) : n; }

void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* ctx = static_cast<LuaContext*>(ud);
  LuaHeap& heap = *ctx->heap;
  const size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (!ptr) return nullptr;
    ctx->memory -= charged(old);
    heap.give(ptr, old);
    return nullptr;
  }
  const size_t now = charged(nsize), before = ptr ? charged(old) : 0;
  if (ctx->memory_capped && now > before && ctx->memory - before + now > ctx->max_memory) {
    if (ctx->abort == Abort::None) {
      ctx->abort = Abort::Memory;
      ctx->abort_message = (ctx->running ? script_position(ctx->running) : std::string()) +
                           "script exceeded its memory cap of " +
                           std::to_string(ctx->max_memory / (1024 * 1024)) + " MiB";
    }
    return nullptr;
  }
  void* p;
  if (ptr && LuaHeap::same_class(old, nsize)) {
    p = ptr;  // the block has room already
  } else {
    p = heap.take(nsize);
    if (p && ptr) {
      std::memcpy(p, ptr, std::min(old, nsize));
      heap.give(ptr, old);
    }
  }
  if (p) ctx->memory = ctx->memory - before + now;
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
