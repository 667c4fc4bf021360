#pragma once
// "Did you mean ...?": the closest known name to a misspelt one, so that an
// error about an unknown method, key or option can be fixed in one step.
#include <string>
#include <vector>

namespace rulebook {

// Edit distance (insertions, deletions, substitutions, adjacent swaps).
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `wrong`, or "" when none is close enough to be
// a plausible typo (at most a third of the name's letters differ).
std::string closest_name(const std::string& wrong, const std::vector<std::string>& candidates);

// "; did you mean `name`?" or "" when closest_name finds nothing.
std::string did_you_mean(const std::string& wrong, const std::vector<std::string>& candidates);

}  // namespace rulebook
