#pragma once
// The calling thread's CPU time in seconds, for the benchmarks that time
// search work (CPU time, so other load on the machine counts less).
#include <ctime>

namespace rulebook::bench {

inline double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace rulebook::bench
