#include "setup/yaml_scalars.hpp"

#include <locale.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace rulebook::yaml_scalars {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

template <typename Pred>
bool all_chars(std::string_view s, Pred pred) {
  return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}

}  // namespace

std::string display_tag(const std::string& tag) {
  if (tag.compare(0, kCoreTag.size(), kCoreTag) == 0) {
    return "!!" + tag.substr(kCoreTag.size());
  }
  return tag;
}

bool is_core_tag(const std::string& tag, std::string_view name) {
  return tag.size() == kCoreTag.size() + name.size() &&
         tag.compare(0, kCoreTag.size(), kCoreTag) == 0 &&
         tag.compare(kCoreTag.size(), std::string::npos, name.data(), name.size()) == 0;
}

bool is_null_word(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

std::optional<bool> bool_word(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

// Core-schema integer: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+
Parsed parse_int(std::string_view s, std::int64_t& out) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();
  int base = 10;
  bool negative = false;
  std::string_view digits = s;
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
    base = 16;
    digits = s.substr(2);
    if (!all_chars(digits, is_hex)) return Parsed::no_match;
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'o') {
    base = 8;
    digits = s.substr(2);
    if (!all_chars(digits, is_octal)) return Parsed::no_match;
  } else {
    if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (!all_chars(digits, is_digit)) return Parsed::no_match;
  }
  std::uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec == std::errc::result_out_of_range) return Parsed::out_of_range;
  if (ec != std::errc() || end != digits.data() + digits.size()) return Parsed::no_match;
  if (negative) {
    if (magnitude > kMax + 1) return Parsed::out_of_range;
    out = magnitude == kMax + 1 ? std::numeric_limits<std::int64_t>::min()
                                : -static_cast<std::int64_t>(magnitude);
  } else {
    if (magnitude > kMax) return Parsed::out_of_range;
    out = static_cast<std::int64_t>(magnitude);
  }
  return Parsed::ok;
}

// Core-schema float:
//   [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
//   [-+]?(\.inf|\.Inf|\.INF)     \.nan|\.NaN|\.NAN
Parsed parse_float(std::string_view s, double& out) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") {
    out = negative ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
    return Parsed::ok;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    out = std::numeric_limits<double>::quiet_NaN();
    return Parsed::ok;
  }
  std::size_t i = 0;
  const std::size_t n = body.size();
  std::size_t int_digits = 0;
  while (i < n && is_digit(body[i])) ++i, ++int_digits;
  std::size_t frac_digits = 0;
  if (i < n && body[i] == '.') {
    ++i;
    while (i < n && is_digit(body[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return Parsed::no_match;
  if (i < n && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < n && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < n && is_digit(body[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return Parsed::no_match;
  }
  if (i != n) return Parsed::no_match;

  // from_chars accepts a leading '-' but not '+'.
  std::string_view number = s[0] == '+' ? s.substr(1) : s;
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Overflow or underflow: tell them apart with strtod in the C locale.
    static locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", static_cast<locale_t>(0));
    if (!c_locale) return Parsed::out_of_range;
    std::string copy(number);
    value = strtod_l(copy.c_str(), nullptr, c_locale);
    if (std::isinf(value)) return Parsed::out_of_range;
    out = value;
    return Parsed::ok;
  }
  if (ec != std::errc() || end != number.data() + number.size()) return Parsed::no_match;
  out = value;
  return Parsed::ok;
}

}  // namespace rulebook::yaml_scalars
