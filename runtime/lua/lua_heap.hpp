#pragma once
// The memory one sandboxed Lua state lives in. Every block Lua allocates
// comes from chunks this heap owns, by size class, and a freed block waits
// on its class's free list for the next one of its class. So the whole
// state -- its global_State, the string table, every table, closure and
// thread -- lies in the heap's chunks at addresses that never move, and the
// chunks' bytes with the heap's own bookkeeping are the state: copying
// them is a snapshot, copying them back restores the state exactly, to the
// last bit of the collector's (HeapSnapshot). Nothing here knows Lua.
//
// Classes: 16-byte steps up to 256 bytes (Lua's small objects), then
// powers of two. Blocks up to a quarter of a chunk are carved from 64 KiB
// chunks; larger ones get a chunk of their own. Memory goes back to the
// system when the heap is destroyed, and a large block's own chunk as
// soon as it is freed, unless a snapshot may still need it (pin()).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rulebook {

class LuaHeap {
 public:
  static constexpr size_t kChunk = 64 * 1024;
  static constexpr int kClasses = 64;

  LuaHeap() = default;
  ~LuaHeap();
  LuaHeap(const LuaHeap&) = delete;
  LuaHeap& operator=(const LuaHeap&) = delete;

  // The size a block of n bytes (n > 0) takes.
  static size_t block_size(size_t n) { return class_size(class_of(n)); }
  // Whether a block of n bytes can hold m bytes in place (the same class).
  static bool same_class(size_t n, size_t m) { return class_of(n) == class_of(m); }

  // A block of at least n bytes (n > 0), 16-byte aligned; nullptr when the
  // system has no memory left. (Inline: Lua allocates millions a second.)
  void* take(size_t n) {
    const int c = class_of(n);
    if (FreeBlock* b = free_lists_[c]) {
      free_lists_[c] = b->next;
      return b;
    }
    const size_t size = class_size(c);
    if (size <= kOwnChunk && bump_ != SIZE_MAX && chunks_[bump_].size - chunks_[bump_].used >= size) {
      Extent& e = chunks_[bump_];
      void* p = e.base + e.used;
      e.used += size;
      return p;
    }
    return take_new(size);
  }
  // Frees block p, taken for n bytes.
  void give(void* p, size_t n) {
    const int c = class_of(n);
    // A large block's own chunk goes back to the system at once (a memory
    // bomb's garbage does not stay with the state), unless a snapshot may
    // still be restored into it.
    if (!pinned_ && class_size(c) >= kReleaseAbove) {
      release_own_chunk(p);
      return;
    }
    auto* b = static_cast<FreeBlock*>(p);
    b->next = free_lists_[c];
    free_lists_[c] = b;
  }

  // Bytes in the chunks (used or not): what a snapshot copies at most.
  size_t footprint() const;

  // The state as it is now. Restoring needs the chunks it copied: while a
  // snapshot may be restored, no chunk goes back to the system (pin()).
  struct Snapshot {
    struct Extent {
      char* base;
      size_t size;
      size_t used;
    };
    std::vector<Extent> chunks;
    std::vector<char> bytes;  // each chunk's used bytes, in order
    void* free_lists[kClasses] = {};
    size_t bump = 0;
  };
  void snapshot(Snapshot& into);
  // Puts back exactly what `from` copied. Chunks taken since are kept for
  // later blocks (spares), not returned, and reused in the order they were
  // taken: the same allocations after a restore get the same addresses.
  void restore(const Snapshot& from);
  // While pinned, every chunk stays until the heap is destroyed, so any
  // snapshot taken may be restored. snapshot() pins; unpin() when no
  // snapshot will be restored any more.
  void unpin() { pinned_ = false; }
  bool pinned() const { return pinned_; }

 private:
  using Extent = Snapshot::Extent;
  struct FreeBlock {
    FreeBlock* next;
  };
  static constexpr size_t kGranule = 16;
  static constexpr size_t kSmallest = 256;       // the last 16-byte class
  static constexpr size_t kOwnChunk = kChunk / 4;  // larger blocks get a chunk of their own
  static constexpr size_t kReleaseAbove = 1024 * 1024;

  static int class_of(size_t n) {
    if (n <= kSmallest) return static_cast<int>((n + kGranule - 1) / kGranule) - 1;
    // Powers of two from 512: 257..512 is class 16.
    return 16 + (64 - __builtin_clzll(static_cast<unsigned long long>(n - 1))) - 9;
  }
  static size_t class_size(int c) {
    return c < 16 ? static_cast<size_t>(c + 1) * kGranule : size_t{1} << (c - 16 + 9);
  }
  void* take_new(size_t size);  // a block from a new chunk
  bool new_chunk(size_t size, bool own);
  void release_own_chunk(void* p);

  FreeBlock* free_lists_[kClasses] = {};
  std::vector<Extent> chunks_;
  size_t bump_ = SIZE_MAX;  // the chunk small blocks are carved from (SIZE_MAX: none yet)
  std::vector<Extent> spares_;  // chunks a restore left unused, for new ones
  bool pinned_ = false;
};

}  // namespace rulebook
