#include "core/suggest.hpp"

#include <algorithm>

namespace rulebook {

size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: typos are mostly one slip or one swap.
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string closest_name(const std::string& wrong, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(1, (wrong.size() + 2) / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    if (c == wrong) continue;
    const size_t d = edit_distance(wrong, c);
    // Ties go to the first candidate in sorted order: the same advice every run.
    if (d < best_distance || (d == best_distance && c < best)) {
      best = c;
      best_distance = d;
    }
  }
  return best_distance <= limit ? best : std::string();
}

std::string did_you_mean(const std::string& wrong, const std::vector<std::string>& candidates) {
  const std::string name = closest_name(wrong, candidates);
  return name.empty() ? std::string() : "; did you mean `" + name + "`?";
}

}  // namespace rulebook
