#include "cli/sweep_settings.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "setup/setup_error.hpp"

namespace rulebook::cli {

namespace {

bool parse_number(const std::string& text, double& value, bool& integer) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(value)) return false;
  integer = text.find_first_of(".eE") == std::string::npos;
  return true;
}

std::string number_text(double v, bool integer) {
  if (integer) return fmt::format("{}", static_cast<long long>(std::llround(v)));
  std::string text = fmt::format("{:.10g}", v);
  return text;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t at = text.find(by, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

}  // namespace

std::vector<std::string> expand_set(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0)
    throw SetupError(fmt::format("--set: error: expected KEY=A..B[:STEP] or KEY=a,b,c, got '{}'", spec));
  const std::string key = spec.substr(0, eq), value = spec.substr(eq + 1);
  std::vector<std::string> out;
  const size_t dots = value.find("..");
  if (dots != std::string::npos) {
    const std::string from_text = value.substr(0, dots);
    std::string rest = value.substr(dots + 2), step_text = "1";
    if (const size_t colon = rest.find(':'); colon != std::string::npos) {
      step_text = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
    }
    double from = 0, to = 0, step = 0;
    bool from_int = false, to_int = false, step_int = false;
    if (!parse_number(from_text, from, from_int) || !parse_number(rest, to, to_int) ||
        !parse_number(step_text, step, step_int) || !(step > 0) || to < from)
      throw SetupError(fmt::format("--set: error: '{}' is not a range A..B[:STEP] with A <= B and STEP > 0", spec));
    const bool integer = from_int && to_int && step_int;
    // Counted in doubles and compared before any conversion: a tiny step
    // (or a span past the largest double) is a count no integer holds.
    const double steps = std::floor((to - from) / step + 1e-9);
    if (!(steps < static_cast<double>(kMaxSetValues))) {
      const std::string count = steps < 1e15 ? fmt::format("{} values, more than the {}", static_cast<int64_t>(steps) + 1,
                                                           kMaxSetValues)
                                             : fmt::format("more than the {} values", kMaxSetValues);
      throw SetupError(fmt::format("--set: error: '{}' has {} a --set may sweep; take a larger STEP", spec, count));
    }
    const auto count = static_cast<size_t>(steps) + 1;
    for (size_t i = 0; i < count; ++i) out.push_back(key + "=" + number_text(from + static_cast<double>(i) * step, integer));
    return out;
  }
  for (const auto& v : split(value, ',')) {
    if (out.size() == kMaxSetValues)
      throw SetupError(fmt::format("--set: error: '{}' lists more than the {} values a --set may sweep", spec, kMaxSetValues));
    out.push_back(key + "=" + v);
  }
  return out;
}

std::vector<std::vector<std::string>> parse_variant_sets(const std::string& text) {
  std::vector<std::vector<std::string>> sets;
  for (const auto& entry : split(text, ';')) {
    std::vector<std::string> variants;
    if (!entry.empty() && entry != "-")
      for (const auto& v : split(entry, '+')) {
        if (v.empty()) throw SetupError(fmt::format("--variant-sets: error: an empty variant name in '{}'", text));
        variants.push_back(v);
      }
    sets.push_back(variants);
  }
  return sets;
}

std::vector<SweepSetting> sweep_settings(const std::vector<std::string>& fixed_variants,
                                         const std::vector<std::vector<std::string>>& variant_sets,
                                         const std::vector<std::string>& set_specs, size_t limit) {
  const std::vector<std::vector<std::string>> variant_choices =
      variant_sets.empty() ? std::vector<std::vector<std::string>>{{}} : variant_sets;
  // Each --set expanded once; the combinations counted before any is built
  // (every factor is at most kMaxSetValues and the product stops past
  // `limit`, so it cannot overflow).
  std::vector<std::vector<std::string>> values;
  size_t combinations = variant_choices.size();
  for (const auto& spec : set_specs) {
    values.push_back(expand_set(spec));
    if (combinations <= limit) combinations *= values.back().size();
  }
  if (combinations > limit)
    throw SetupError(fmt::format("sweep: error: more than {} settings (the limit of a sweep); sweep fewer values", limit));
  std::vector<SweepSetting> settings;
  for (const auto& chosen : variant_choices) {
    SweepSetting base;
    base.variants = fixed_variants;
    base.variants.insert(base.variants.end(), chosen.begin(), chosen.end());
    std::vector<SweepSetting> grown{base};
    for (const auto& list : values) {
      std::vector<SweepSetting> next;
      for (const auto& partial : grown)
        for (const auto& value : list) {
          SweepSetting s = partial;
          s.sets.push_back(value);
          next.push_back(s);
        }
      grown = std::move(next);
    }
    settings.insert(settings.end(), grown.begin(), grown.end());
  }
  for (auto& s : settings) {
    std::vector<std::string> parts = s.variants;
    parts.insert(parts.end(), s.sets.begin(), s.sets.end());
    s.description = parts.empty() ? "the game as written" : fmt::format("{}", fmt::join(parts, ", "));
  }
  return settings;
}

}  // namespace rulebook::cli
