#include "core/rng.hpp"

namespace rulebook {
namespace {

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

void Rng::reseed(uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ rotl(stream * 0xd1342543de82ef95ull, 17);
  for (auto& word : s_) word = splitmix64(x);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint32_t Rng::below(uint32_t n) {
  // Lemire, "Fast Random Integer Generation in an Interval" (2019).
  uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
  uint32_t low = static_cast<uint32_t>(m);
  if (low < n) {
    const uint32_t threshold = static_cast<uint32_t>(-n) % n;
    while (low < threshold) {
      m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

uint64_t Rng::mix(uint64_t a, uint64_t b) {
  uint64_t x = a;
  uint64_t h = splitmix64(x);
  x = h ^ b;
  return splitmix64(x);
}

}  // namespace rulebook
