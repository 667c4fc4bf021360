#pragma once
// The memory one sandboxed Lua state lives in. Every block Lua allocates
// comes from memory this heap owns, so the whole state -- its
// global_State, the string table, every table, closure and thread -- lies
// at addresses that never move, and those bytes with the heap's own
// bookkeeping are the state: copying them is a snapshot, copying them back
// restores the state exactly, to the last bit of the collector's
// (HeapSnapshot). Nothing here knows Lua.
//
// Small blocks (up to 16 KiB) come in size classes (16-byte steps up to 256
// bytes, then four classes between powers of two: a block wastes at most a
// fifth of itself) carved from 64 KiB pages. A page serves one class at a
// time and keeps its own free list and count of blocks in use: a page whose
// last block is freed is empty and serves any class next, so memory freed
// by one class is reused by another. Larger blocks get memory of their own,
// rounded to 4 KiB, given back to the system as soon as they are freed.
//
// footprint() is every byte the heap holds (pages, used or empty, and large
// blocks): what a block "takes", and what the memory cap counts. A limit
// (set_limit) refuses any take that would make the heap hold more.
//
// While a snapshot may be restored (pin()), nothing goes back to the
// system: a freed large block waits for the next of its size, and empty
// pages wait for any class.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace rulebook {

class LuaHeap {
 public:
  static constexpr size_t kChunk = 64 * 1024;   // a page of small blocks
  static constexpr size_t kLargest = 16 * 1024;  // larger blocks get memory of their own
  static constexpr size_t kLargeStep = 4096;     // which is rounded to this
  static constexpr int kClasses = 40;

  LuaHeap() = default;
  ~LuaHeap();
  LuaHeap(const LuaHeap&) = delete;
  LuaHeap& operator=(const LuaHeap&) = delete;

  // The size a block of n bytes (n > 0) takes.
  static size_t block_size(size_t n) {
    return n <= kLargest ? class_size(class_of(n)) : (n + kLargeStep - 1) / kLargeStep * kLargeStep;
  }
  // Whether a block of n bytes can hold m bytes in place (the same size taken).
  static bool same_class(size_t n, size_t m) { return block_size(n) == block_size(m); }

  // Takes that would make the heap hold more than `bytes` are refused.
  void set_limit(size_t bytes) { limit_ = bytes; }
  // Whether the last take that failed was refused by the limit (else the
  // system had no memory left).
  bool refused() const { return refused_; }

  // A block of at least n bytes (n > 0), 16-byte aligned; nullptr when the
  // limit refuses it or the system has no memory left. (Inline: Lua
  // allocates millions a second.)
  void* take(size_t n) {
    if (n > kLargest) return take_large(n);
    const int c = class_of(n);
    Page* p = rooms_[c];
    if (!p) return take_from_new_page(c);
    const size_t size = class_size(c);
    void* b;
    if (p->free) {
      b = p->free;
      p->free = p->free->next;
    } else {
      b = reinterpret_cast<char*>(p) + p->carved;
      p->carved += static_cast<uint32_t>(size);
    }
    ++p->live;
    if (!p->free && p->carved + size > kChunk) unlist(p);  // full
    return b;
  }
  // Frees block p, taken for n bytes.
  void give(void* ptr, size_t n) {
    if (n > kLargest) return give_large(ptr);
    Page* p = page_of(ptr);
    auto* b = static_cast<FreeBlock*>(ptr);
    b->next = p->free;
    p->free = b;
    // The page its class takes from next stays, even empty: a block taken
    // and freed again and again would otherwise empty and refill it each
    // time (at most one such page a class).
    if (--p->live == 0 && p != rooms_[p->cls]) page_emptied(p);
    else if (!p->listed) list(p);
  }

  // Bytes the heap holds (pages and large blocks, used or not).
  size_t footprint() const { return footprint_; }

  // The state as it is now. Restoring needs the memory it copied: while a
  // snapshot may be restored, nothing goes back to the system (pin()).
  struct Snapshot {
    struct Extent {
      char* base;
      size_t size;
      size_t used;  // bytes copied from its start (0: a free large block)
    };
    std::vector<Extent> pages, large;
    std::vector<char> bytes;  // each extent's used bytes, pages first, in order
    void* rooms[kClasses] = {};
    std::vector<void*> empty;
    size_t footprint = 0;
    size_t copied() const;  // bytes copied
  };
  void snapshot(Snapshot& into);
  // Puts back exactly what `from` copied. Memory taken since is kept for
  // later takes (spares), not returned, and reused in the order it was
  // taken: the same allocations after a restore get the same addresses.
  void restore(const Snapshot& from);
  // While pinned, nothing goes back to the system until the heap is
  // destroyed, so any snapshot taken may be restored. snapshot() pins;
  // unpin() when no snapshot will be restored any more.
  void unpin() { pinned_ = false; }
  bool pinned() const { return pinned_; }
  // Unpins, and gives back to the system all it holds and no block uses:
  // empty pages, free large blocks and the spares of restores. What is
  // left is what the live blocks need (a page's free blocks stay), so the
  // memory cap counts what the state holds, as for a heap never pinned
  // (an engine used again by another search: engine_pool.hpp).
  void trim();

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  // At the start of every page: the page's own bookkeeping, so that a
  // snapshot of its bytes holds it.
  struct Page {
    FreeBlock* free;  // this page's freed blocks
    Page* next;       // the class's pages with room (listed)
    Page* prev;
    uint32_t carved;  // bytes carved from the page's start, header included
    uint32_t live;    // blocks in use
    int32_t cls;      // the class it serves (-1: empty)
    uint32_t index;   // its place in pages_
    bool listed;
  };
  static constexpr uint32_t kHeader = 64;
  static_assert(sizeof(Page) <= kHeader, "a page's header must fit its reserved bytes");
  static constexpr size_t kGranule = 16;
  static constexpr size_t kSmallest = 256;  // the last 16-byte class
  // Empty pages an unpinned heap keeps for the next (4 MiB): giving a page
  // back and mapping it again after every collection costs system calls
  // and page faults. They count in footprint(), and go back to the system
  // before the limit refuses a take.
  static constexpr size_t kKeptEmpty = 64;

  static int class_of(size_t n) {
    if (n <= kSmallest) return static_cast<int>((n + kGranule - 1) / kGranule) - 1;
    // 2^b < n <= 2^(b+1), b >= 8: four classes each 2^(b-2) apart.
    const int b = 63 - __builtin_clzll(static_cast<unsigned long long>(n - 1));
    return 16 + (b - 8) * 4 + static_cast<int>(((n - 1) - (size_t{1} << b)) >> (b - 2));
  }
  static size_t class_size(int c) {
    if (c < 16) return static_cast<size_t>(c + 1) * kGranule;
    const int b = 8 + (c - 16) / 4;
    return (size_t{1} << b) + static_cast<size_t>((c - 16) % 4 + 1) * (size_t{1} << (b - 2));
  }
  static Page* page_of(void* p) {
    return reinterpret_cast<Page*>(reinterpret_cast<uintptr_t>(p) & ~static_cast<uintptr_t>(kChunk - 1));
  }

  void* take_from_new_page(int c);
  void* take_large(size_t n);
  void give_large(void* p);
  void page_emptied(Page* p);
  void release_page(Page* p);
  void list(Page* p);
  void unlist(Page* p);
  // Memory of `size` bytes (a page when `page`): a spare, else the
  // system's, within the limit.
  char* acquire(size_t size, bool page);

  struct Large {
    char* base;
    size_t size;
    bool free;
  };
  struct Spare {
    char* base;
    size_t size;
    bool page;
  };

  Page* rooms_[kClasses] = {};  // per class, the pages with room
  std::vector<Page*> empty_;    // pages serving no class
  std::vector<Page*> pages_;    // every page held (in the order taken, while pinned)
  std::vector<Large> large_;    // every large block held (in the order taken, while pinned)
  std::unordered_map<char*, size_t> large_at_;  // a large block's place in large_
  std::vector<Spare> spares_;   // memory a restore left unused, for new takes
  size_t footprint_ = 0;
  size_t limit_ = SIZE_MAX;
  bool refused_ = false;
  bool pinned_ = false;
};

}  // namespace rulebook
