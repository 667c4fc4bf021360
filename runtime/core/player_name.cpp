#include "core/player_name.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "core/safe_text.hpp"

namespace rulebook {

std::string player_name_problem(std::string_view name) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t len = utf8_sequence_length(name, i);
    if (len == 0) return "is not valid UTF-8";
    const auto c = static_cast<unsigned char>(name[i]);
    const bool c0 = len == 1 && (c < 0x20 || c == 0x7F);
    const bool c1 = len == 2 && c == 0xC2 && static_cast<unsigned char>(name[i + 1]) < 0xA0;
    if (c0 || c1)
      return fmt::format("holds a control character (U+{:04X})", c0 ? c : static_cast<unsigned char>(name[i + 1]));
    ++characters;
    i += len;
  }
  if (characters > kMaxPlayerNameLength)
    return fmt::format("is longer than {} characters ({})", kMaxPlayerNameLength, characters);
  return {};
}

}  // namespace rulebook
