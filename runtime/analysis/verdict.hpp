#pragma once
// The figures of a simulation or a comparison in words: numbers with their
// 95% interval (± half its width when it is symmetric at the shown
// precision, [low, high] when it is not: "100.0% [83.9%, 100%]"), the seat
// advantage, the test of equal seats, the unfairness and the verdict of a
// comparison ("Panda-monium lengthens the game by 31.2 ± 0.9 turns; fairer: ...").
#include <string>

#include "analysis/paired_statistics.hpp"
#include "analysis/run_statistics.hpp"

namespace rulebook::analysis {

// Decimals that show a margin to one or two significant digits (1 to 4).
int decimals_for(double half_width);
// "31.2 ± 0.9" (signed: "+31.2 ± 0.9"), or "31.2 [30.1, 32.9]" when the
// interval is lopsided; `scale` multiplies every number (100: percent).
std::string plus_minus(const Interval& i, double scale = 1, bool signed_value = false);
// "27.5% ± 0.4%", "100.0% [83.9%, 100.0%]".
std::string percent(const Interval& rate);
// "25%", "33.3%": a rate with at most one decimal, no trailing ".0".
std::string short_percent(double rate);
// A paired difference: "+1.2 ± 0.4 points" or, when no game differed,
// "no game differed (+0.0 ± 0.4 points)"; `unit` follows the numbers.
std::string difference_text(const Difference& d, double scale, const std::string& unit);

// "seat 0 wins 27.5% ± 0.4% against a fair 25%", for the seat furthest from fair.
std::string seat_advantage_sentence(const RunStatistics& s);
// "Cochran's Q 12.34, 3 degrees of freedom, p = 0.0063: the seats are not equal (5% level)".
std::string equal_seats_sentence(const ChiSquareTest& t);
// "1.2 [0.4, 1.9] points (root mean square seat advantage)".
std::string unfairness_sentence(const RunStatistics& s);
// "p = 0.0063", "p < 1e-300".
std::string p_value_text(double p);

// The verdict of a comparison; `change` names what the "with" side changes
// ("Panda-monium"). Fairness is judged on the unfairness (fairer, less fair
// or no significant change), and the seats whose advantage moved are named
// with the direction that matters: toward fair or away from it.
std::string comparison_verdict(const std::string& change, const RunStatistics& base, const RunStatistics& with,
                               const PairedStatistics& d, const Difference& unfairness);

}  // namespace rulebook::analysis
