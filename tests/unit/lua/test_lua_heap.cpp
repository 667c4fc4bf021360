// The heap a sandboxed Lua state lives in (lua/lua_heap.hpp): size
// classes, reuse, and snapshots that put every byte and the bookkeeping
// back, so that the same allocations follow a restore.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "lua/lua_heap.hpp"

using namespace rulebook;

namespace {

void fill(void* p, size_t n, unsigned char byte) { std::memset(p, byte, n); }
bool filled(const void* p, size_t n, unsigned char byte) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != byte) return false;
  return true;
}

}  // namespace

TEST_CASE("the heap's size classes: 16-byte steps to 256, then powers of two", "[lua][heap]") {
  CHECK(LuaHeap::block_size(1) == 16);
  CHECK(LuaHeap::block_size(16) == 16);
  CHECK(LuaHeap::block_size(17) == 32);
  CHECK(LuaHeap::block_size(256) == 256);
  CHECK(LuaHeap::block_size(257) == 512);
  CHECK(LuaHeap::block_size(4096) == 4096);
  CHECK(LuaHeap::block_size(4097) == 8192);
  CHECK(LuaHeap::block_size(3u << 20) == (4u << 20));
  CHECK(LuaHeap::same_class(300, 500));
  CHECK_FALSE(LuaHeap::same_class(500, 600));
}

TEST_CASE("a freed block is the next one of its class; blocks are 16-byte aligned", "[lua][heap]") {
  LuaHeap heap;
  for (size_t n : {1u, 24u, 200u, 300u, 5000u, 40000u, 2u << 20}) {
    void* a = heap.take(n);
    REQUIRE(a != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(a) % 16 == 0);
    fill(a, n, 0xab);
    heap.give(a, n);
    if (n < (1u << 20)) CHECK(heap.take(n) == a);  // a released own chunk may come back anywhere
  }
}

TEST_CASE("restoring a snapshot puts back every byte and the same allocations follow", "[lua][heap]") {
  LuaHeap heap;
  // A state's worth of blocks of every kind: small, carved, own chunks.
  const std::vector<size_t> sizes{16, 40, 256, 257, 1000, 4096, 16384, 16385, 70000, 200000};
  std::vector<void*> live;
  for (int round = 0; round < 30; ++round)
    for (size_t k = 0; k < sizes.size(); ++k) {
      void* p = heap.take(sizes[k]);
      REQUIRE(p != nullptr);
      fill(p, sizes[k], static_cast<unsigned char>(k + 1));
      live.push_back(p);
    }
  for (size_t i = 0; i < live.size(); i += 3) heap.give(live[i], sizes[i % sizes.size()]);

  LuaHeap::Snapshot saved;
  heap.snapshot(saved);
  CHECK(heap.pinned());
  const size_t footprint = heap.footprint();
  // The allocations a game makes after the save, recorded once...
  auto play = [&](unsigned char byte) {
    std::vector<void*> made;
    for (size_t k = 0; k < 200; ++k) {
      const size_t n = sizes[k % sizes.size()] + k;
      void* p = heap.take(n);
      REQUIRE(p != nullptr);
      fill(p, n, byte);
      made.push_back(p);
      if (k % 4 == 0) {
        heap.give(p, n);  // freed again, even a large own chunk (pinned: kept)
        made.back() = nullptr;
      }
    }
    for (size_t i = 1; i < live.size(); i += 3) fill(live[i], sizes[i % sizes.size()], byte);  // old blocks written
    return made;
  };
  const std::vector<void*> first = play(0xee);
  CHECK(heap.footprint() > footprint);
  heap.restore(saved);
  CHECK(heap.footprint() == footprint);
  for (size_t i = 1; i < live.size(); i += 3) CHECK(filled(live[i], sizes[i % sizes.size()], static_cast<unsigned char>(i % sizes.size() + 1)));
  // ... and again after the restore: the same addresses, in the same order.
  const std::vector<void*> second = play(0x77);
  CHECK(first == second);
  heap.restore(saved);
  for (size_t i = 2; i < live.size(); i += 3) CHECK(filled(live[i], sizes[i % sizes.size()], static_cast<unsigned char>(i % sizes.size() + 1)));
}

TEST_CASE("a snapshot cannot be restored into another heap", "[lua][heap]") {
  LuaHeap a, b;
  REQUIRE(a.take(100) != nullptr);
  REQUIRE(b.take(100) != nullptr);
  LuaHeap::Snapshot saved;
  a.snapshot(saved);
  CHECK_THROWS_AS(b.restore(saved), std::logic_error);
}

TEST_CASE("unpinned, a large block's own chunk goes back to the system when freed", "[lua][heap]") {
  LuaHeap heap;
  const size_t big = 4u << 20;
  void* p = heap.take(big);
  REQUIRE(p != nullptr);
  const size_t with = heap.footprint();
  heap.give(p, big);
  CHECK(heap.footprint() == with - big);
  // Pinned (a snapshot may still need it), it stays for the next.
  LuaHeap::Snapshot saved;
  void* q = heap.take(big);
  heap.snapshot(saved);
  heap.give(q, big);
  CHECK(heap.footprint() == with);
  CHECK(heap.take(big) == q);
}
