#include "cli/progress_bar.hpp"

#include <chrono>
#include <iostream>

#include <fmt/format.h>

namespace rulebook::cli {
namespace {

// "1:23" or "0:05".
std::string clock_text(double seconds) {
  const auto s = static_cast<int64_t>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60) : fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

ProgressBar::ProgressBar(const std::atomic<int64_t>& done, int64_t total) : done_(done), total_(total) {
  thread_ = std::thread([this] { loop(); });
}

ProgressBar::~ProgressBar() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
}

void ProgressBar::loop() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; })) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed < 1.0) continue;
    const int64_t done = done_.load();
    const double rate = done / elapsed;
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done / total_) : width;
    std::cerr << fmt::format("\r[{}{}] {}/{} games, {} games/s, {} left\033[K", std::string(filled, '#'),
                             std::string(width - filled, '.'), done, total_,
                             rate >= 10 ? fmt::format("{:.0f}", rate) : fmt::format("{:.2f}", rate),
                             rate > 0 ? clock_text((total_ - done) / rate) : "?")
              << std::flush;
    drawn_ = true;
  }
}

}  // namespace rulebook::cli
