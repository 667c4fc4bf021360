// Copying a snapshot back line by line (lua/changed_lines.hpp): whatever
// differs, wherever and however long, the destination ends equal to the
// source, and bytes outside [0, n) are never touched.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "core/rng.hpp"
#include "lua/changed_lines.hpp"

using namespace rulebook;

TEST_CASE("a copy of changed lines leaves the destination equal to the source", "[lua][heap]") {
  Rng rng;
  rng.reseed(5, 1);
  // Lengths around the 64-byte lines and the 256-byte steps, offsets that
  // align neither (heap pages copy from 16-byte boundaries).
  for (size_t n : {0u, 1u, 15u, 63u, 64u, 65u, 255u, 256u, 257u, 320u, 1000u, 4096u, 65536u}) {
    for (size_t offset : {0u, 8u, 16u, 33u}) {
      for (int changes : {0, 1, 3, 200}) {
        INFO(n << " bytes at offset " << offset << ", " << changes << " changes");
        std::vector<char> source(n + 64), target(n + 64);
        for (char& c : source) c = static_cast<char>(rng.below(256));
        target = source;
        // Changed since: single bytes anywhere, the first and the last.
        for (int k = 0; k < changes && n > 0; ++k) target[offset + rng.below(static_cast<uint32_t>(n))] ^= 0x5a;
        if (n > 0 && changes > 0) {
          target[offset] ^= 1;
          target[offset + n - 1] ^= 1;
        }
        // Outside the range: must stay as it is.
        std::vector<char> outside(target.begin(), target.end());
        for (size_t i = 0; i < offset; ++i) target[i] = outside[i] = static_cast<char>(0x11);
        for (size_t i = offset + n; i < target.size(); ++i) target[i] = outside[i] = static_cast<char>(0x22);
        copy_changed_lines(target.data() + offset, source.data() + offset, n);
        CHECK(std::memcmp(target.data() + offset, source.data() + offset, n) == 0);
        CHECK(std::memcmp(target.data(), outside.data(), offset) == 0);
        CHECK(std::memcmp(target.data() + offset + n, outside.data() + offset + n, target.size() - offset - n) == 0);
      }
    }
  }
}
