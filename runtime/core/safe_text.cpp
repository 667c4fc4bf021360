#include "core/safe_text.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace rulebook {

std::size_t utf8_sequence_length(std::string_view s, std::size_t at) {
  const auto c = static_cast<unsigned char>(s[at]);
  if (c < 0x80) return 1;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (at + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[at + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

bool valid_utf8(std::string_view s) {
  // ASCII first, eight bytes at a time (labels and names mostly are).
  std::size_t ascii = 0;
  for (std::uint64_t word; ascii + 8 <= s.size(); ascii += 8) {
    std::memcpy(&word, s.data() + ascii, 8);
    if (word & 0x8080808080808080ull) break;
  }
  for (std::size_t i = ascii; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string to_valid_utf8(std::string_view s) {
  if (valid_utf8(s)) return std::string(s);  // the usual case: one scan, one copy
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      out += kReplacementCharacter;
      ++i;
    } else {
      out.append(s.data() + i, len);
      i += len;
    }
  }
  return out;
}

void make_valid_utf8(std::string& s) {
  if (!valid_utf8(s)) s = to_valid_utf8(s);
}

std::string terminal_text(std::string_view s, bool one_line) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    const auto c = static_cast<unsigned char>(s[i]);
    if (len == 0) {
      out += kReplacementCharacter;
      ++i;
      continue;
    }
    if (len == 1 && (c < 0x20 || c == 0x7F)) {
      if ((c == '\n' || c == '\t') && !one_line) out += static_cast<char>(c);
      else if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else out += fmt::format("\\x{:02x}", c);
    } else if (len == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[i + 1]));  // C1: U+0080..U+009F
    } else {
      out.append(s.data() + i, len);
    }
    i += len;
  }
  return out;
}

}  // namespace rulebook
