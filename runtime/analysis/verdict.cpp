#include "analysis/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace rulebook::analysis {

int decimals_for(double half_width) {
  if (!(half_width > 0)) return 1;
  return std::clamp(static_cast<int>(-std::floor(std::log10(half_width))), 1, 4);
}

namespace {

// The interval in text, numbers scaled, each followed by `suffix`.
std::string interval_text(const Interval& i, double scale, bool signed_value, const std::string& suffix) {
  const double value = i.estimate * scale, low = i.low * scale, high = i.high * scale;
  const double half = (high - low) / 2;
  const int d = decimals_for(half);
  const std::string below = fmt::format("{:.{}f}", value - low, d), above = fmt::format("{:.{}f}", high - value, d);
  const std::string number = signed_value ? "{:+.{}f}" : "{:.{}f}";
  const std::string shown = fmt::format(fmt::runtime(number), value, d) + suffix;
  if (below == above) return fmt::format("{} ± {:.{}f}{}", shown, half, d, suffix);
  return fmt::format("{} [{}{}, {}{}]", shown, fmt::format(fmt::runtime(number), low, d), suffix,
                     fmt::format(fmt::runtime(number), high, d), suffix);
}

}  // namespace

std::string plus_minus(const Interval& i, double scale, bool signed_value) {
  return interval_text(i, scale, signed_value, "");
}

std::string percent(const Interval& rate) { return interval_text(rate, 100, false, "%"); }

std::string short_percent(double rate) {
  std::string text = fmt::format("{:.1f}", rate * 100);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + "%";
}

std::string difference_text(const Difference& d, double scale, const std::string& unit) {
  const std::string figure = interval_text(d.interval, scale, true, "") + (unit.empty() ? "" : " " + unit);
  return d.no_game_differed() ? "no game differed (" + figure + ")" : figure;
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
  return fmt::format("Cochran's Q {:.2f}, {} degree{} of freedom, {}: {}", t.statistic, t.degrees_of_freedom,
                     t.degrees_of_freedom == 1 ? "" : "s", p_value_text(t.p_value),
                     t.significant() ? "the seats are not equal (5% level)"
                                     : "no evidence that the seats differ (5% level)");
}

std::string unfairness_sentence(const RunStatistics& s) {
  if (s.games() == 0 || s.players() < 2) return "no games played";
  return interval_text(s.unfairness(), 100, false, "") + " points (root mean square seat advantage; 0 is fair)";
}

namespace {

Interval absolute(const Interval& i) {
  return i.estimate >= 0 ? i : Interval{-i.estimate, -i.high, -i.low};
}

double advantage(const RunStatistics& s, int seat) { return s.win_rate(seat).estimate - s.fair_win_rate(); }

}  // namespace

std::string comparison_verdict(const std::string& change, const RunStatistics& base, const RunStatistics& with,
                               const PairedStatistics& d, const Difference& unfairness) {
  if (d.games() == 0) return change + ": no games played";
  const Difference turns = d.turns();
  std::string text;
  if (turns.significant())
    text = fmt::format("{} {} the game by {} turns", change, turns.interval.estimate > 0 ? "lengthens" : "shortens",
                       plus_minus(absolute(turns.interval)));
  else
    text = fmt::format("{} does not change the game's length significantly ({})", change,
                       difference_text(turns, 1, "turns"));
  const double before = base.unfairness().estimate * 100, after = with.unfairness().estimate * 100;
  const std::string change_of_unfairness =
      fmt::format("unfairness {:.1f} -> {:.1f} points, {}", before, after, difference_text(unfairness, 100, "points"));
  if (unfairness.significant())
    text += fmt::format("; {}: {}", unfairness.interval.estimate < 0 ? "fairer" : "less fair", change_of_unfairness);
  else
    text += fmt::format("; no significant change in fairness ({})", change_of_unfairness);
  std::vector<std::string> moved;
  for (int s = 0; s < d.players(); ++s) {
    if (!d.seat_advantage(s).significant()) continue;
    const double from = advantage(base, s) * 100, to = advantage(with, s) * 100;
    moved.push_back(fmt::format("seat {} {} ({:+.1f} -> {:+.1f} points)", s,
                                std::fabs(to) < std::fabs(from) ? "moves toward fair" : "moves away from fair", from, to));
  }
  if (!moved.empty()) text += fmt::format("; {}", fmt::join(moved, ", "));
  const Difference none = d.no_winner_rate();
  if (none.significant())
    text += fmt::format("; games without a winner {} by {} points", none.interval.estimate > 0 ? "rise" : "fall",
                        plus_minus(absolute(none.interval), 100));
  return text;
}

}  // namespace rulebook::analysis
