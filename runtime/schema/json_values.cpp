#include "schema/json_values.hpp"

#include "json/sourced_json.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace rulebook::schema::detail {


std::optional<unsigned> type_bit(const std::string& name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "integer") return kInteger;
  if (name == "number") return kNumber;
  if (name == "string") return kString;
  if (name == "array") return kArray;
  if (name == "object") return kObject;
  return std::nullopt;
}

bool is_integral(const json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

// Name of the instance's type, as used in messages.
std::string type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return is_integral(v) ? "integer" : "number";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return "unknown";
  }
}

bool type_matches(const json& v, unsigned types) {
  switch (v.type()) {
    case json::value_t::null: return types & kNull;
    case json::value_t::boolean: return types & kBoolean;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return (types & kNumber) || ((types & kInteger) && is_integral(v));
    case json::value_t::string: return types & kString;
    case json::value_t::array: return types & kArray;
    case json::value_t::object: return types & kObject;
    default: return false;
  }
}

// long double represents every int64, uint64 and double exactly on the
// platforms we build for (x86-64 80-bit, aarch64 128-bit).
long double num(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

// JSON equality: numbers compare by value (1 == 1.0), never equal to booleans.
bool json_equal(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return num(a) == num(b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!json_equal(a[i], b[i])) return false;
      return true;
    }
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto jt = b.find(it.key());
        if (jt == b.end() || !json_equal(it.value(), *jt)) return false;
      }
      return true;
    }
    default: return a == b;
  }
}

bool is_multiple_of(const json& v, const json& m) {
  if (is_integral(v) && is_integral(m)) {
    long double r = std::fmod(num(v), num(m));  // exact
    return r == 0;
  }
  double q = v.get<double>() / m.get<double>();
  if (!std::isfinite(q)) return false;
  double tolerance = std::max(1e-9, std::fabs(q) * 8 * DBL_EPSILON);
  return std::fabs(q - std::round(q)) <= tolerance;
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The value at a JSON pointer (segments escaped with ~0/~1), or nullptr.
const json* at_pointer(const json& root, const std::string& pointer) {
  const json* cur = &root;
  std::size_t pos = 0;
  if (pointer.empty()) return cur;
  if (pointer[0] != '/') return nullptr;
  while (pos < pointer.size()) {
    std::size_t next = pointer.find('/', pos + 1);
    if (next == std::string::npos) next = pointer.size();
    std::string seg = unescape_pointer_token(pointer.substr(pos + 1, next - pos - 1));
    if (cur->is_object()) {
      auto it = cur->find(seg);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      if (seg.empty() || seg.size() > 18 ||
          !std::all_of(seg.begin(), seg.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          (seg.size() > 1 && seg[0] == '0'))
        return nullptr;
      std::size_t idx = std::stoull(seg);
      if (idx >= cur->size()) return nullptr;
      cur = &(*cur)[idx];
    } else {
      return nullptr;
    }
    pos = next;
  }
  return cur;
}

// Short, single-line rendering of a value for messages.
std::string show(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (code_points(s) > 60) {
    std::size_t cut = 57;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "...";
  }
  return s;
}

std::string join_values(const std::vector<json>& values) {
  std::string out;
  const std::size_t limit = 20;
  for (std::size_t i = 0; i < values.size() && i < limit; ++i) {
    if (i) out += ", ";
    out += show(values[i]);
  }
  if (values.size() > limit) out += fmt::format(", ... ({} more)", values.size() - limit);
  return out;
}

// "a", "a or b", "a, b or c"
std::string join_or(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}
}  // namespace rulebook::schema::detail
