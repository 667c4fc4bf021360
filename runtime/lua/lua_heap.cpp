#include "lua/lua_heap.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace rulebook {

namespace {
char* system_block(size_t size) { return static_cast<char*>(std::aligned_alloc(16, size)); }
}  // namespace

LuaHeap::~LuaHeap() {
  for (const Extent& e : chunks_) std::free(e.base);
  for (const Extent& e : spares_) std::free(e.base);
}

bool LuaHeap::new_chunk(size_t size, bool own) {
  // The first spare of the size: after a restore, the chunks the game
  // took since the snapshot come back in the order it took them, so the
  // same allocations get the same addresses again.
  for (size_t i = 0; i < spares_.size(); ++i) {
    if (spares_[i].size != size) continue;
    Extent e = spares_[i];
    spares_.erase(spares_.begin() + static_cast<std::ptrdiff_t>(i));
    e.used = own ? size : 0;
    chunks_.push_back(e);
    return true;
  }
  char* base = system_block(size);
  if (!base) return false;
  chunks_.push_back(Extent{base, size, own ? size : 0});
  return true;
}

void* LuaHeap::take_new(size_t size) {
  if (size > kOwnChunk) return new_chunk(size, true) ? chunks_.back().base : nullptr;
  if (!new_chunk(kChunk, false)) return nullptr;
  bump_ = chunks_.size() - 1;
  Extent& e = chunks_[bump_];
  e.used = size;
  return e.base;
}

void LuaHeap::release_own_chunk(void* p) {
  for (size_t i = chunks_.size(); i-- > 0;) {
    if (chunks_[i].base != p) continue;
    std::free(chunks_[i].base);
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(i));
    if (bump_ != SIZE_MAX && bump_ > i) --bump_;
    return;
  }
}

size_t LuaHeap::footprint() const {
  size_t total = 0;
  for (const Extent& e : chunks_) total += e.size;
  return total;
}

void LuaHeap::snapshot(Snapshot& into) {
  pinned_ = true;
  into.chunks = chunks_;
  size_t total = 0;
  for (const Extent& e : chunks_) total += e.used;
  if (into.bytes.size() < total) into.bytes.resize(total);
  char* out = into.bytes.data();
  for (const Extent& e : chunks_) {
    std::memcpy(out, e.base, e.used);
    out += e.used;
  }
  std::memcpy(into.free_lists, free_lists_, sizeof free_lists_);
  into.bump = bump_;
}

void LuaHeap::restore(const Snapshot& from) {
  const size_t kept = from.chunks.size();
  if (chunks_.size() < kept) throw std::logic_error("LuaHeap::restore: a chunk of the snapshot is gone");
  for (size_t i = 0; i < kept; ++i)
    if (chunks_[i].base != from.chunks[i].base) throw std::logic_error("LuaHeap::restore: the snapshot is of another heap");
  const char* in = from.bytes.data();
  for (size_t i = 0; i < kept; ++i) {
    const Extent& e = from.chunks[i];
    std::memcpy(e.base, in, e.used);
    in += e.used;
    chunks_[i].used = e.used;
  }
  // Chunks taken since, first in the order they were taken, then the
  // spares left from before.
  spares_.insert(spares_.begin(), chunks_.begin() + static_cast<std::ptrdiff_t>(kept), chunks_.end());
  chunks_.resize(kept);
  std::memcpy(free_lists_, from.free_lists, sizeof free_lists_);
  bump_ = from.bump;
}

}  // namespace rulebook
