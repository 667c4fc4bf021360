#pragma once
// What produced a result, so that it can travel: the rulebook version and
// a hash of the rules (rules_hash): SHA-256 (Nettle) over every file of the
// game's folder (path and content, in path order), the variants (name, and
// the content of a variant given as a file) and the --set settings, in
// order. Two results with the same hash were played by the same rules.
#include <string>
#include <vector>

namespace rulebook::cli {

// "0.1.0".
const char* rulebook_version();

// "sha256:..." of the game folder `dir`, `variants` and `sets`.
std::string rules_hash(const std::string& dir, const std::vector<std::string>& variants,
                       const std::vector<std::string>& sets);

}  // namespace rulebook::cli
