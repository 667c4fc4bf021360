#include "lua/memory_cap.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lua/error_report.hpp"

namespace rulebook {

// Lua allocates millions of small blocks per second (tables, closures,
// short strings); a free list per 16-byte size class, carved from 64 KiB
// slabs, spares malloc/free most of them. Slabs go back to the system when
// the state closes. Blocks count against the cap at their class size.
struct SmallBlockPool {
  static constexpr size_t kGranule = 16;
  static constexpr size_t kLargest = 256;
  static constexpr size_t kSlab = 64 * 1024;
  struct FreeBlock { FreeBlock* next; };
  FreeBlock* free_lists[kLargest / kGranule] = {};
  std::vector<void*> slabs;
  char* cursor = nullptr;
  size_t left = 0;

  static size_t class_of(size_t n) { return (n + kGranule - 1) / kGranule - 1; }
  static size_t block_size(size_t n) { return (class_of(n) + 1) * kGranule; }
  static bool small(size_t n) { return n <= kLargest; }

  void* take(size_t n) {
    FreeBlock*& head = free_lists[class_of(n)];
    if (head) {
      FreeBlock* b = head;
      head = b->next;
      return b;
    }
    const size_t size = block_size(n);
    if (left < size) {
      void* slab = std::malloc(kSlab);
      if (!slab) return nullptr;
      slabs.push_back(slab);
      cursor = static_cast<char*>(slab);
      left = kSlab;
    }
    void* b = cursor;
    cursor += size;
    left -= size;
    return b;
  }
  void give(void* p, size_t n) {
    auto* b = static_cast<FreeBlock*>(p);
    FreeBlock*& head = free_lists[class_of(n)];
    b->next = head;
    head = b;
  }
  ~SmallBlockPool() {
    for (void* s : slabs) std::free(s);
  }
};

namespace {

size_t charged(size_t n) { return SmallBlockPool::small(n) ? SmallBlockPool::block_size(n) : n; }

void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* ctx = static_cast<LuaContext*>(ud);
  SmallBlockPool* pool = ctx->pool;
  const size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (!ptr) return nullptr;
    ctx->memory -= charged(old);
    if (pool && SmallBlockPool::small(old)) pool->give(ptr, old);
    else std::free(ptr);
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
  const bool was_small = pool && ptr && SmallBlockPool::small(old);
  const bool is_small = pool && SmallBlockPool::small(nsize);
  if (ptr && was_small && is_small && SmallBlockPool::class_of(old) == SmallBlockPool::class_of(nsize)) {
    p = ptr;  // the block has room already
  } else if (!was_small && !is_small) {
    p = std::realloc(ptr, nsize);
  } else {
    p = is_small ? pool->take(nsize) : std::malloc(nsize);
    if (p && ptr) {
      std::memcpy(p, ptr, std::min(old, nsize));
      if (was_small) pool->give(ptr, old);
      else std::free(ptr);
    }
  }
  if (p) ctx->memory = ctx->memory - before + now;
  return p;
}

}  // namespace

lua_State* memory_capped_state(LuaContext* ctx) {
  ctx->pool = new SmallBlockPool;
  lua_State* L = lua_newstate(limited_alloc, ctx);
  if (!L) memory_cap_release(ctx);
  return L;
}

void memory_cap_release(LuaContext* ctx) {
  delete ctx->pool;
  ctx->pool = nullptr;
}

}  // namespace rulebook
