#pragma once
// The figures of a simulation or a comparison in words: numbers with their
// 95% margin, the seat advantage, the test of equal seats and the verdict
// of a comparison ("Panda-monium lengthens the game by 31.2 ± 0.9 turns;
// seat advantage unchanged").
#include <string>

#include "analysis/paired_statistics.hpp"
#include "analysis/run_statistics.hpp"

namespace rulebook::analysis {

// Decimals that show a margin to one or two significant digits (1 to 4).
int decimals_for(double half_width);
// "31.2 ± 0.9" (signed: "+31.2 ± 0.9"); `scale` multiplies both (100: percent).
std::string plus_minus(const Interval& i, double scale = 1, bool signed_value = false);
// "27.5% ± 0.4%".
std::string percent(const Interval& rate);
// "25%", "33.3%": a rate with at most one decimal, no trailing ".0".
std::string short_percent(double rate);

// "seat 0 wins 27.5% ± 0.4% against a fair 25%", for the seat furthest from fair.
std::string seat_advantage_sentence(const RunStatistics& s);
// "chi-square 12.34, 3 degrees of freedom, p = 0.0063: the seats are not equal (5% level)".
std::string equal_seats_sentence(const ChiSquareTest& t);
// "p = 0.0063", "p < 1e-300".
std::string p_value_text(double p);

// The verdict of a comparison; `change` names what the "with" side changes
// ("Panda-monium").
std::string comparison_verdict(const std::string& change, const PairedStatistics& d);

}  // namespace rulebook::analysis
