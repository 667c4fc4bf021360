#include "analysis/wait_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace rulebook::analysis {

std::vector<int> waits(const GameTrace& trace, int seat) {
  std::vector<int> out;
  int others = -1;  // -1: the seat has not decided yet
  for (int step = 0; step < trace.steps(); ++step) {
    const int who = trace.seat(step);
    if (who < 0) continue;
    if (who == seat) {
      if (others >= 0) out.push_back(others);
      others = 0;
    } else if (others >= 0) {
      ++others;
    }
  }
  return out;
}

SitOut sit_out(const GameTrace& trace) {
  SitOut result;
  int decisions = 0;
  for (int step = 0; step < trace.steps(); ++step) decisions += trace.seat(step) >= 0 ? 1 : 0;
  if (decisions == 0) return result;
  double shares = 0;
  for (int seat = 0; seat < trace.players(); ++seat) {
    int after = 0;  // decisions made since the seat went out
    bool out = false;
    for (int step = 0; step < trace.steps(); ++step) {
      if (trace.seat(step) < 0) continue;
      out = out || trace.out(step, seat);
      after += out ? 1 : 0;
    }
    if (after == 0) continue;
    ++result.seats;
    result.out_seats |= uint64_t{1} << seat;
    shares += static_cast<double>(after) / decisions;
  }
  if (result.seats) result.wait_share = shares / result.seats;
  return result;
}

double nearest_rank(std::vector<int>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<size_t>(std::max(1.0, std::ceil(q * static_cast<double>(values.size()))));
  return values[std::min(rank, values.size()) - 1];
}

}  // namespace rulebook::analysis
