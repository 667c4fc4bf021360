#include "cli/usage_words.hpp"

#include <cstdlib>
#include <regex>

#include <fmt/format.h>

namespace rulebook::cli {

namespace {

bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

}  // namespace

std::string usage_words(const std::string& parser_message) {
  static const std::regex range(R"(^(\S+): Value (.*) not in range (\S+) to (\S+)$)");
  std::smatch m;
  if (!std::regex_match(parser_message, m, range)) return parser_message;
  const std::string option = m[1], value = m[2], low = m[3], high = m[4];
  if (!is_number(value)) return fmt::format("{}: '{}' is not a number: give one from {} to {}", option, value, low, high);
  return fmt::format("{}: {} is out of range: give a number from {} to {}", option, value, low, high);
}

}  // namespace rulebook::cli
