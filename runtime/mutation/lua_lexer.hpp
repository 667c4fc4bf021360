#pragma once
// Lua 5.4's lexical rules (after llex.c), for tools that read rule scripts
// without running them: long strings and comments of any level, escapes,
// hexadecimal and float numerals, shebang lines. Comments and whitespace
// are skipped; every token keeps its byte range and line.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rulebook::mutation {

enum class TokenKind { Name, Keyword, Number, String, Symbol, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // the exact source bytes (a string keeps its quotes)
  size_t offset = 0;      // byte offset in the source
  int line = 1;           // line of the token's first byte
  int last_line = 1;      // line of its last byte (long strings span lines)

  bool is(std::string_view s) const { return (kind == TokenKind::Keyword || kind == TokenKind::Symbol) && text == s; }
  size_t end() const { return offset + text.size(); }
};

// "chunk:line: message", like Lua's own syntax errors.
struct LuaSyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The tokens of `source`, ending with one End token. `chunk` names the
// source in error messages. Throws LuaSyntaxError.
std::vector<Token> tokenize(std::string_view source, const std::string& chunk);

// A numeral's value: true and `value` set when it is an integer that fits
// (decimal or hexadecimal, as Lua reads it).
bool integer_value(std::string_view numeral, long long& value);

}  // namespace rulebook::mutation
