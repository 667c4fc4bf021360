#pragma once
// A JSON value read from YAML (or built from several YAML files), together
// with where each of its parts came from, so that every later error --
// schema validation, overlay conflicts, a bad option seen by the engine --
// can be reported as `file:line:col: error: ...`.
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rulebook {

struct SourceLocation {
  std::string file;  // as given by the caller (a path, or "--set")
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown

  // "file:line:col" (or just "file" when line is unknown).
  std::string str() const;
};

struct SourcedJson {
  nlohmann::json value;
  // JSON pointer ("" for the root, "/options/target", "/dice/0") -> where
  // that value was written.
  std::map<std::string, SourceLocation> where;

  // Location of the pointer, or of its nearest recorded ancestor.
  SourceLocation locate(const std::string& pointer) const;
};

// One JSON-pointer reference token: '~' -> "~0", '/' -> "~1".
std::string escape_pointer_token(std::string_view token);
// And back: "~0" -> '~', "~1" -> '/'.
std::string unescape_pointer_token(std::string_view token);

// "file:line:col: error: message"
std::string format_error(const SourceLocation& at, const std::string& message);

}  // namespace rulebook
