#include "json/sourced_json.hpp"

#include <fmt/format.h>

namespace rulebook {

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

SourceLocation SourcedJson::locate(const std::string& pointer) const {
  std::string p = pointer;
  for (;;) {
    auto it = where.find(p);
    if (it != where.end()) return it->second;
    if (p.empty()) return {};
    auto slash = p.rfind('/');
    p = slash == std::string::npos ? std::string() : p.substr(0, slash);
  }
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string unescape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

std::string format_error(const SourceLocation& at, const std::string& message) {
  return fmt::format("{}: error: {}", at.str(), message);
}

}  // namespace rulebook
