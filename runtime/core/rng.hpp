#pragma once
// Portable seeded randomness: xoshiro256** seeded through splitmix64, with
// Lemire's unbiased bounded integers. Never std::*_distribution or
// std::shuffle: their output differs between standard libraries, and a game
// log must be byte-identical everywhere.
#include <cstdint>

namespace rulebook {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }

  // Seeds from (seed, stream): the game's chance and each bot get their own
  // stream so that a bot change never changes the dice.
  void reseed(uint64_t seed, uint64_t stream = 0);

  uint64_t next();
  // Uniform integer in [0, n); n > 0.
  uint32_t below(uint32_t n);
  // Uniform double in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Mixes values into one 64-bit seed (game i of a simulation from S and i).
  static uint64_t mix(uint64_t a, uint64_t b);

  // Same position in the same stream: nothing was drawn in between (undo
  // uses it to see whether chance was drawn since a decision).
  bool operator==(const Rng& other) const {
    return s_[0] == other.s_[0] && s_[1] == other.s_[1] && s_[2] == other.s_[2] && s_[3] == other.s_[3];
  }
  bool operator!=(const Rng& other) const { return !(*this == other); }

 private:
  uint64_t s_[4];
};

// Streams used by the runtime.
enum RngStream : uint64_t { kChanceStream = 0x6368616e6365ull, kAgentStream = 0x6167656e74ull };

}  // namespace rulebook
