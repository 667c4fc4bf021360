#pragma once
// Draws "[#####.....] 4500/10000 games, 9000 games/s, 0:01 left" on
// stderr, from the second second of a run on, and erases it at the end:
// simulate's and arena's progress line (callers check stderr is a terminal).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace rulebook::cli {

class ProgressBar {
 public:
  ProgressBar(const std::atomic<int64_t>& done, int64_t total);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void loop();

  const std::atomic<int64_t>& done_;
  int64_t total_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace rulebook::cli
