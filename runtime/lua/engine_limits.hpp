#pragma once
// The limits a RuleEngine's games run under (rule_engine.hpp).
#include <cstddef>
#include <cstdint>

namespace rulebook {

struct EngineLimits {
  uint64_t max_instructions = 0;           // exact count per game, 0 = none (costs a hook)
  size_t max_memory = 256u * 1024 * 1024;  // per Lua state, in bytes
  double max_seconds = 5.0;                // CPU time per run of the rules, 0 = none

  bool operator==(const EngineLimits& o) const {
    return max_instructions == o.max_instructions && max_memory == o.max_memory && max_seconds == o.max_seconds;
  }
  bool operator!=(const EngineLimits& o) const { return !(*this == o); }
};

}  // namespace rulebook
