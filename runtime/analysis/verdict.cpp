#include "analysis/verdict.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace rulebook::analysis {

int decimals_for(double half_width) {
  if (!(half_width > 0)) return 1;
  return std::clamp(static_cast<int>(-std::floor(std::log10(half_width))), 1, 4);
}

std::string plus_minus(const Interval& i, double scale, bool signed_value) {
  const double value = i.estimate * scale, half = i.half_width() * scale;
  const int d = decimals_for(half);
  return fmt::format(signed_value ? "{:+.{}f} ± {:.{}f}" : "{:.{}f} ± {:.{}f}", value, d, half, d);
}

std::string percent(const Interval& rate) {
  const double value = rate.estimate * 100, half = rate.half_width() * 100;
  const int d = decimals_for(half);
  return fmt::format("{:.{}f}% ± {:.{}f}%", value, d, half, d);
}

std::string short_percent(double rate) {
  std::string text = fmt::format("{:.1f}", rate * 100);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + "%";
}

std::string seat_advantage_sentence(const RunStatistics& s) {
  if (s.games() == 0 || s.players() == 0) return "no games played";
  const int seat = s.most_unequal_seat();
  return fmt::format("seat {} wins {} against a fair {}", seat, percent(s.win_rate(seat)),
                     short_percent(s.fair_win_rate()));
}

std::string p_value_text(double p) {
  if (p < 1e-300) return "p < 1e-300";
  if (p < 0.0001) return fmt::format("p = {:.1e}", p);
  return fmt::format("p = {:.4f}", p);
}

std::string equal_seats_sentence(const ChiSquareTest& t) {
  if (t.degrees_of_freedom == 0) return "no test (one seat)";
  return fmt::format("chi-square {:.2f}, {} degree{} of freedom, {}: {}", t.statistic, t.degrees_of_freedom,
                     t.degrees_of_freedom == 1 ? "" : "s", p_value_text(t.p_value),
                     t.significant() ? "the seats are not equal (5% level)"
                                     : "no evidence that the seats differ (5% level)");
}

namespace {

// The seat whose advantage changed most significantly (largest |mean| / margin), or -1.
int most_changed_seat(const PairedStatistics& d) {
  int best = -1;
  double best_score = 0;
  for (int s = 0; s < d.players(); ++s) {
    const Interval i = d.seat_advantage(s);
    if (!i.excludes_zero()) continue;
    const double score = std::fabs(i.estimate) / std::max(i.half_width(), 1e-12);
    if (score > best_score) {
      best_score = score;
      best = s;
    }
  }
  return best;
}

Interval absolute(const Interval& i) { return {std::fabs(i.estimate), i.low, i.high}; }

}  // namespace

std::string comparison_verdict(const std::string& change, const PairedStatistics& d) {
  if (d.games() == 0) return change + ": no games played";
  const Interval turns = d.turns();
  std::string text;
  if (turns.excludes_zero())
    text = fmt::format("{} {} the game by {} turns", change, turns.estimate > 0 ? "lengthens" : "shortens",
                       plus_minus(absolute(turns)));
  else
    text = fmt::format("{} does not change the game's length significantly ({} turns)", change,
                       plus_minus(turns, 1, true));
  const int seat = most_changed_seat(d);
  if (seat < 0) {
    text += "; seat advantage unchanged";
  } else {
    const Interval a = d.seat_advantage(seat);
    text += fmt::format("; seat {}'s advantage {} by {} points", seat, a.estimate > 0 ? "grows" : "shrinks",
                        plus_minus(absolute(a), 100));
  }
  const Interval none = d.no_winner_rate();
  if (none.excludes_zero())
    text += fmt::format("; games without a winner {} by {} points", none.estimate > 0 ? "rise" : "fall",
                        plus_minus(absolute(none), 100));
  return text;
}

}  // namespace rulebook::analysis
