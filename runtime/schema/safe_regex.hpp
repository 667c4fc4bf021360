#pragma once
// JSON Schema "pattern" and "patternProperties" matching that is safe on any
// input: RE2 matches in time linear in the text and without recursion, so a
// 60,000-character name cannot overflow the stack the way std::regex's
// backtracking matcher does (it recurses once per character).
//
// Patterns are ECMA-262 regular expressions in JSON Schema; RE2 accepts the
// common subset (classes, anchors, repetition, \d \w \s, Unicode) and refuses
// backreferences and lookaround, which no rulebook schema uses.
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace rulebook::schema {

class SafeRegex {
 public:
  // Throws std::runtime_error naming the pattern when RE2 refuses it.
  explicit SafeRegex(const std::string& pattern);

  // True when the pattern matches somewhere in `text` (JSON Schema semantics:
  // unanchored unless the pattern says ^ or $).
  bool search(std::string_view text) const;

  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace rulebook::schema
