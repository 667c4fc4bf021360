#include "core/input_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

#include <fmt/format.h>

namespace rulebook {

InputFile read_input_file(const std::string& path) {
  InputFile result;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    result.error = fmt::format("cannot read file ({})", std::strerror(EISDIR));
    return result;
  }
  errno = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    result.error = fmt::format("cannot read file ({})", std::strerror(errno));
    return result;
  }
  char buffer[1 << 16];
  std::size_t n = 0;
  // Read one byte past the limit to tell "exactly at the limit" from "over".
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    if (result.text.size() + n > kMaxInputFileBytes) {
      result.text.clear();
      result.error = fmt::format("file is larger than {} MiB, the limit for input files",
                                 kMaxInputFileBytes >> 20);
      return result;
    }
    result.text.append(buffer, n);
  }
  if (std::ferror(file.get())) {
    result.error = fmt::format("cannot read file ({})", std::strerror(errno));
    result.text.clear();
    return result;
  }
  result.ok = true;
  return result;
}

namespace {

struct Position {
  int line = 1;
  int column = 1;
};

Position position_of(const std::string& text, std::size_t offset) {
  Position p;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++p.column;
    }
  }
  return p;
}

// Offset of the bracket that opens level kMaxInputNesting + 1, or npos.
// Brackets inside strings do not count.
std::size_t too_deep_at(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxInputNesting) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string::npos;
}

// nlohmann's messages read "[json.exception.parse_error.101] parse error at
// line 1, column 5: syntax error while parsing value - invalid literal; last
// read: 'tru'": keep what follows the location, which is the useful part.
std::string describe(const std::string& what) {
  std::string s = what;
  if (!s.empty() && s[0] == '[') {
    const auto close = s.find("] ");
    if (close != std::string::npos) s = s.substr(close + 2);
  }
  const auto colon = s.find(": ");
  if (s.rfind("parse error", 0) == 0 && colon != std::string::npos) s = s.substr(colon + 2);
  return s;
}

}  // namespace

bool parse_json_input(const std::string& text, const std::string& file, nlohmann::json& out,
                      std::string& error) {
  const std::size_t deep = too_deep_at(text);
  if (deep != std::string::npos) {
    const Position p = position_of(text, deep);
    error = fmt::format("{}:{}:{}: error: nesting deeper than {} levels", file, p.line, p.column,
                        kMaxInputNesting);
    return false;
  }
  try {
    out = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::parse_error& e) {
    const Position p = position_of(text, e.byte == 0 ? 0 : e.byte - 1);
    error = fmt::format("{}:{}:{}: error: not valid JSON: {}", file, p.line, p.column, describe(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // out_of_range.406: a number such as 1e400 that no double can hold.
    error = fmt::format("{}: error: not valid JSON: {}", file, describe(e.what()));
  }
  return false;
}

}  // namespace rulebook
