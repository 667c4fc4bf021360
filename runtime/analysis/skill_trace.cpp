#include "analysis/skill_trace.hpp"

#include <cmath>

namespace rulebook::analysis {

Interval rate_gain(const SkillPoint& a, const SkillPoint& b) {
  const Interval ra = a.win_rate(), rb = b.win_rate();
  const double d = rb.estimate - ra.estimate;
  // Newcombe (1998), method 10: each side's distance to its Wilson bound.
  const double low = d - std::sqrt(std::pow(rb.estimate - rb.low, 2) + std::pow(ra.high - ra.estimate, 2));
  const double high = d + std::sqrt(std::pow(rb.high - rb.estimate, 2) + std::pow(ra.estimate - ra.low, 2));
  return {d, low, high};
}

int levels_off_at(const std::vector<SkillPoint>& curve) {
  if (curve.empty()) return -1;
  for (size_t k = 0; k < curve.size(); ++k) {
    bool gains_later = false;
    for (size_t later = k + 1; later < curve.size(); ++later) gains_later = gains_later || rate_gain(curve[k], curve[later]).low > 0;
    if (!gains_later) return static_cast<int>(k);
  }
  return static_cast<int>(curve.size()) - 1;
}

bool still_climbing(const std::vector<SkillPoint>& curve) {
  return curve.size() >= 2 && rate_gain(curve[curve.size() - 2], curve.back()).low > 0;
}

}  // namespace rulebook::analysis
