#include "lua/lua_heap.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "lua/changed_lines.hpp"

namespace rulebook {
namespace {

// Memory straight from the system, aligned to `align` (a power of two, at
// least a system page): what the heap gives back is gone from the
// process at once, so the process holds what the heap holds (malloc would
// keep freed memory, fragmented, in its own arenas).
constexpr size_t kSystemPage = 4096;

char* system_map(size_t size, size_t align) {
  const size_t span = align > kSystemPage ? size + align : size;  // mmap aligns to a system page
  void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (start + align - 1) & ~static_cast<uintptr_t>(align - 1);
  if (aligned > start) munmap(p, aligned - start);
  const uintptr_t end = start + span, used_end = aligned + size;
  if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
  return reinterpret_cast<char*>(aligned);
}

void system_unmap(void* p, size_t size) { munmap(p, size); }

}  // namespace

LuaHeap::~LuaHeap() {
  for (Page* p : pages_) system_unmap(p, kChunk);
  for (const Large& l : large_) system_unmap(l.base, l.size);
  for (const Spare& s : spares_) system_unmap(s.base, s.size);
}

char* LuaHeap::acquire(size_t size, bool page) {
  // Kept empty pages go back before the limit refuses (never those a
  // snapshot may need).
  while (!pinned_ && !empty_.empty() && footprint_ + size > limit_) {
    release_page(empty_.back());
    empty_.pop_back();
  }
  if (footprint_ + size > limit_ || footprint_ + size < footprint_) {
    refused_ = true;
    return nullptr;
  }
  refused_ = false;
  // The first spare of the kind: after a restore, the memory the game
  // took since the snapshot comes back in the order it was taken, so the
  // same allocations get the same addresses again.
  for (size_t i = 0; i < spares_.size(); ++i) {
    if (spares_[i].size != size || spares_[i].page != page) continue;
    char* base = spares_[i].base;
    spares_.erase(spares_.begin() + static_cast<std::ptrdiff_t>(i));
    footprint_ += size;
    return base;
  }
  // Pages are aligned to their size: a block finds its page's header by
  // masking its address.
  char* base = system_map(size, page ? kChunk : kSystemPage);
  if (base) footprint_ += size;
  return base;
}

void LuaHeap::list(Page* p) {
  Page*& head = rooms_[p->cls];
  Page* const was = head;
  p->prev = nullptr;
  p->next = head;
  if (head) head->prev = p;
  head = p;
  p->listed = true;
  // The class's head kept although empty (give) is not the page it takes
  // from next any more: it serves any class now.
  if (was && was->live == 0) page_emptied(was);
}

void LuaHeap::unlist(Page* p) {
  if (p->prev) p->prev->next = p->next;
  else rooms_[p->cls] = p->next;
  if (p->next) p->next->prev = p->prev;
  p->next = p->prev = nullptr;
  p->listed = false;
}

void* LuaHeap::take_from_new_page(int c) {
  Page* p;
  if (!empty_.empty()) {
    p = empty_.back();
    empty_.pop_back();
  } else {
    p = reinterpret_cast<Page*>(acquire(kChunk, true));
    if (!p) return nullptr;
    p->index = static_cast<uint32_t>(pages_.size());
    pages_.push_back(p);
  }
  p->free = nullptr;
  p->carved = kHeader;
  p->live = 0;
  p->cls = c;
  list(p);
  return take(class_size(c));
}

void LuaHeap::page_emptied(Page* p) {
  if (p->listed) unlist(p);
  p->cls = -1;
  p->free = nullptr;
  p->carved = kHeader;  // a snapshot copies only its header
  if (pinned_ || empty_.size() < kKeptEmpty) {
    empty_.push_back(p);
    return;
  }
  release_page(p);
}

void LuaHeap::release_page(Page* p) {
  // Back to the system. Unpinned, the order of pages_ no longer matters.
  Page* last = pages_.back();
  pages_[p->index] = last;
  last->index = p->index;
  pages_.pop_back();
  footprint_ -= kChunk;
  system_unmap(p, kChunk);
}

void* LuaHeap::take_large(size_t n) {
  if (n > SIZE_MAX / 2) {  // no rounding overflows
    refused_ = true;
    return nullptr;
  }
  const size_t size = block_size(n);
  if (pinned_) {
    // Memory kept for a snapshot: the first free block of the size, else
    // the smallest larger one.
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < large_.size(); ++i) {
      const Large& l = large_[i];
      if (!l.free || l.size < size) continue;
      if (best == SIZE_MAX || l.size < large_[best].size) best = i;
      if (l.size == size) break;
    }
    if (best != SIZE_MAX) {
      large_[best].free = false;
      return large_[best].base;
    }
  }
  char* base = acquire(size, false);
  if (!base) return nullptr;
  large_at_[base] = large_.size();
  large_.push_back(Large{base, size, false});
  return base;
}

void LuaHeap::give_large(void* ptr) {
  char* base = static_cast<char*>(ptr);
  const auto it = large_at_.find(base);
  if (it == large_at_.end()) return;
  const size_t i = it->second;
  if (pinned_) {
    large_[i].free = true;
    return;
  }
  footprint_ -= large_[i].size;
  system_unmap(base, large_[i].size);
  large_at_.erase(it);
  if (i + 1 != large_.size()) {
    large_[i] = large_.back();
    large_at_[large_[i].base] = i;
  }
  large_.pop_back();
}

void LuaHeap::trim() {
  pinned_ = false;
  for (Page* p : empty_) release_page(p);
  empty_.clear();
  // Large blocks a pinned heap kept free: given back as give_large does.
  for (size_t i = large_.size(); i-- > 0;)
    if (large_[i].free) {
      large_[i].free = false;
      give_large(large_[i].base);
    }
  for (const Spare& s : spares_) system_unmap(s.base, s.size);
  spares_.clear();
}

size_t LuaHeap::Snapshot::copied() const {
  size_t total = 0;
  for (const Extent& e : pages) total += e.used;
  for (const Extent& e : large) total += e.used;
  return total;
}

void LuaHeap::snapshot(Snapshot& into) {
  pinned_ = true;
  into.pages.clear();
  into.large.clear();
  // A class's page kept although empty (give) holds only freed blocks:
  // carved afresh from its start, it serves the same takes, and a restore
  // copies its header instead of every block it ever carved (a search
  // restores the snapshot before every simulation).
  for (Page* p : pages_)
    if (p->cls >= 0 && p->live == 0) {
      p->free = nullptr;
      p->carved = kHeader;
    }
  for (Page* p : pages_) into.pages.push_back(Snapshot::Extent{reinterpret_cast<char*>(p), kChunk, p->carved});
  for (const Large& l : large_) into.large.push_back(Snapshot::Extent{l.base, l.size, l.free ? 0 : l.size});
  const size_t total = into.copied();
  if (into.bytes.size() < total) into.bytes.resize(total);
  char* out = into.bytes.data();
  for (const auto* list : {&into.pages, &into.large})
    for (const Snapshot::Extent& e : *list) {
      std::memcpy(out, e.base, e.used);
      out += e.used;
    }
  std::memcpy(into.rooms, rooms_, sizeof rooms_);
  into.empty.assign(empty_.begin(), empty_.end());
  into.footprint = footprint_;
}

void LuaHeap::restore(const Snapshot& from) {
  // Pinned since the snapshot, the heap only added memory: what it held
  // then comes first, in the same order.
  if (pages_.size() < from.pages.size() || large_.size() < from.large.size())
    throw std::logic_error("LuaHeap::restore: memory of the snapshot is gone");
  for (size_t i = 0; i < from.pages.size(); ++i)
    if (reinterpret_cast<char*>(pages_[i]) != from.pages[i].base)
      throw std::logic_error("LuaHeap::restore: the snapshot is of another heap");
  for (size_t i = 0; i < from.large.size(); ++i)
    if (large_[i].base != from.large[i].base) throw std::logic_error("LuaHeap::restore: the snapshot is of another heap");
  // A simulation writes few of these bytes: only the lines it changed
  // are written back.
  const char* in = from.bytes.data();
  for (const auto* list : {&from.pages, &from.large})
    for (const Snapshot::Extent& e : *list) {
      copy_changed_lines(e.base, in, e.used);
      in += e.used;
    }
  // Memory taken since, first in the order it was taken, then the spares
  // left from before (put in place in spares_, which keeps its capacity:
  // a search restores before every simulation).
  const size_t new_pages = pages_.size() - from.pages.size();
  const size_t since = new_pages + (large_.size() - from.large.size());
  if (since > 0) {
    spares_.insert(spares_.begin(), since, Spare{});
    for (size_t i = 0; i < new_pages; ++i)
      spares_[i] = Spare{reinterpret_cast<char*>(pages_[from.pages.size() + i]), kChunk, true};
    for (size_t i = from.large.size(); i < large_.size(); ++i) {
      spares_[new_pages + i - from.large.size()] = Spare{large_[i].base, large_[i].size, false};
      large_at_.erase(large_[i].base);
    }
  }
  pages_.resize(from.pages.size());
  large_.resize(from.large.size());
  for (size_t i = 0; i < large_.size(); ++i) large_[i].free = from.large[i].used == 0;
  std::memcpy(rooms_, from.rooms, sizeof rooms_);
  empty_.clear();
  for (void* p : from.empty) empty_.push_back(static_cast<Page*>(p));
  footprint_ = from.footprint;
  refused_ = false;
}

}  // namespace rulebook
