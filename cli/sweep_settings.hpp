#pragma once
// The settings of `rulebook sweep`: each --set KEY=A..B[:STEP] or KEY=a,b,c
// expands to its values, --variant-sets "v1;v1+v2" to its variant lists,
// and a sweep plays every combination.
#include <cstddef>
#include <string>
#include <vector>

namespace rulebook::cli {

struct SweepSetting {
  std::vector<std::string> variants;
  std::vector<std::string> sets;  // "KEY=VALUE"
  std::string description;        // "panda-monium, options.points_target=6"
};

// The most values one --set may sweep (a range's or a list's).
constexpr size_t kMaxSetValues = 1000;

// "options.x=2..8:2" -> {"options.x=2", ..., "options.x=8"}; "k=a,b" -> {"k=a", "k=b"};
// "k=5" -> {"k=5"}. Throws SetupError for a malformed range or more than
// kMaxSetValues values (exit 2).
std::vector<std::string> expand_set(const std::string& spec);

// "v1;v1+v2;" -> {{"v1"}, {"v1", "v2"}, {}} ("" or "-" is the game without variants).
std::vector<std::vector<std::string>> parse_variant_sets(const std::string& text);

// Every combination: variant sets (outermost) x each --set's values, in order.
// Throws SetupError past `limit` settings.
std::vector<SweepSetting> sweep_settings(const std::vector<std::string>& fixed_variants,
                                         const std::vector<std::vector<std::string>>& variant_sets,
                                         const std::vector<std::string>& set_specs, size_t limit = 200);

}  // namespace rulebook::cli
