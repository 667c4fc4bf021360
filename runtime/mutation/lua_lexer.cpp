#include "mutation/lua_lexer.hpp"

#include <array>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

namespace rulebook::mutation {
namespace {

constexpr std::array<std::string_view, 22> kKeywords = {
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
    "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"};

// Longest first, so that "..." wins over ".." and "." (llex.c reads the same way).
constexpr std::array<std::string_view, 12> kLongSymbols = {"...", "..", "==", "~=", "<=", ">=",
                                                           "<<", ">>", "//", "::"};

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_xdigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& chunk) : s_(src), chunk_(chunk) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    // A first line starting with '#' is skipped (lua.c and luaL_loadfile do).
    if (!s_.empty() && s_[0] == '#')
      while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
    for (;;) {
      skip_space_and_comments();
      if (pos_ >= s_.size()) {
        out.push_back(Token{TokenKind::End, s_.substr(s_.size()), s_.size(), line_, line_});
        return out;
      }
      const size_t start = pos_;
      const int line = line_;
      const TokenKind kind = next_token();
      out.push_back(Token{kind, s_.substr(start, pos_ - start), start, line, line_});
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what, int line) const {
    throw LuaSyntaxError(fmt::format("{}:{}: {}", chunk_, line, what));
  }
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
  char cur() const { return at(pos_); }

  // A newline is \n, \r, \n\r or \r\n: one line each (llex.c inclinenumber).
  bool newline_here() const { return cur() == '\n' || cur() == '\r'; }
  void skip_newline() {
    const char first = cur();
    ++pos_;
    if ((cur() == '\n' || cur() == '\r') && cur() != first) ++pos_;
    ++line_;
  }

  void skip_space_and_comments() {
    while (pos_ < s_.size()) {
      const char c = cur();
      if (newline_here()) {
        skip_newline();
      } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '-' && at(pos_ + 1) == '-') {
        pos_ += 2;
        const int level = long_bracket_level();
        if (level >= 0) {
          read_long(level, "comment");
        } else {
          while (pos_ < s_.size() && !newline_here()) ++pos_;
        }
      } else {
        return;
      }
    }
  }

  // At '[': the level of a long bracket "[==[" (2), or -1 when it is not one.
  int long_bracket_level() const {
    if (cur() != '[') return -1;
    size_t p = pos_ + 1;
    int level = 0;
    while (at(p) == '=') ++p, ++level;
    return at(p) == '[' ? level : -1;
  }

  // From the opening bracket to past the matching closing one.
  void read_long(int level, const char* what) {
    const int start_line = line_;
    pos_ += static_cast<size_t>(level) + 2;
    for (;;) {
      if (pos_ >= s_.size()) fail(fmt::format("unfinished long {} (starting at line {})", what, start_line), line_);
      if (cur() == ']') {
        size_t p = pos_ + 1;
        int l = 0;
        while (at(p) == '=') ++p, ++l;
        if (l == level && at(p) == ']') {
          pos_ = p + 1;
          return;
        }
        ++pos_;
      } else if (newline_here()) {
        skip_newline();
      } else {
        ++pos_;
      }
    }
  }

  void read_string(char quote) {
    const int start_line = line_;
    ++pos_;
    for (;;) {
      if (pos_ >= s_.size() || newline_here()) fail("unfinished string", start_line);
      const char c = cur();
      if (c == quote) {
        ++pos_;
        return;
      }
      if (c != '\\') {
        ++pos_;
        continue;
      }
      ++pos_;  // the backslash
      const char e = cur();
      if (newline_here()) {
        skip_newline();
      } else if (e == 'z') {  // skips the following whitespace, newlines included
        ++pos_;
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(cur()))) {
          if (newline_here()) skip_newline();
          else ++pos_;
        }
      } else if (e == 'x') {
        ++pos_;
        for (int i = 0; i < 2; ++i, ++pos_)
          if (!is_xdigit(cur())) fail("hexadecimal digit expected", line_);
      } else if (e == 'u') {
        ++pos_;
        if (cur() != '{') fail("missing '{' in \\u{xxxx}", line_);
        ++pos_;
        if (!is_xdigit(cur())) fail("hexadecimal digit expected", line_);
        while (is_xdigit(cur())) ++pos_;
        if (cur() != '}') fail("missing '}' in \\u{xxxx}", line_);
        ++pos_;
      } else if (is_digit(e)) {
        int value = 0;
        for (int i = 0; i < 3 && is_digit(cur()); ++i, ++pos_) value = value * 10 + (cur() - '0');
        if (value > 255) fail("decimal escape too large", line_);
      } else if (std::string_view("abfnrtv\\\"'").find(e) != std::string_view::npos && e != '\0') {
        ++pos_;
      } else {
        fail("invalid escape sequence", line_);
      }
    }
  }

  // llex.c read_numeral: digits, '.', and an exponent mark with its sign.
  void read_number() {
    const size_t start = pos_;
    const char* exponent = "Ee";
    if (cur() == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X')) {
      pos_ += 2;
      exponent = "Pp";
    }
    for (;;) {
      const char c = cur();
      if (c != '\0' && (c == exponent[0] || c == exponent[1])) {
        ++pos_;
        if (cur() == '+' || cur() == '-') ++pos_;
      } else if (is_xdigit(c) || c == '.') {
        ++pos_;
      } else {
        break;
      }
    }
    // What Lua's own conversion would reject ("3abc", "1e", "0x").
    const std::string_view text = s_.substr(start, pos_ - start);
    const bool hex = exponent[0] == 'P';
    bool digits = false, bad = false;
    for (size_t i = hex ? 2 : 0; i < text.size(); ++i) {
      const char c = text[i];
      if (hex ? is_xdigit(c) : is_digit(c)) digits = true;
      else if (c == exponent[0] || c == exponent[1]) bad = bad || i + 1 == text.size() || !digits;
      else if (c != '.' && c != '+' && c != '-') bad = true;
    }
    if (!digits || bad || is_alpha(cur())) fail(fmt::format("malformed number near '{}'", s_.substr(start, pos_ + 1 - start)), line_);
  }

  TokenKind next_token() {
    const char c = cur();
    if (is_alpha(c)) {
      const size_t start = pos_;
      while (is_alnum(cur())) ++pos_;
      const std::string_view word = s_.substr(start, pos_ - start);
      for (auto k : kKeywords)
        if (k == word) return TokenKind::Keyword;
      return TokenKind::Name;
    }
    if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      read_number();
      return TokenKind::Number;
    }
    if (c == '"' || c == '\'') {
      read_string(c);
      return TokenKind::String;
    }
    if (c == '[') {
      const int level = long_bracket_level();
      if (level >= 0) {
        read_long(level, "string");
        return TokenKind::String;
      }
      if (at(pos_ + 1) == '=') fail("invalid long string delimiter", line_);
    }
    for (auto sym : kLongSymbols)
      if (!sym.empty() && s_.substr(pos_, sym.size()) == sym) {
        pos_ += sym.size();
        return TokenKind::Symbol;
      }
    if (std::string_view("+-*/%^#&~|<>=(){}[];:,.").find(c) != std::string_view::npos) {
      ++pos_;
      return TokenKind::Symbol;
    }
    fail(fmt::format("unexpected symbol near '{}'", c), line_);
  }

  std::string_view s_;
  const std::string& chunk_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& chunk) { return Lexer(source, chunk).run(); }

bool integer_value(std::string_view numeral, long long& value) {
  const std::string text(numeral);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    if (text.find_first_of(".pP", 2) != std::string::npos) return false;
    // Lua wraps hexadecimal integers around; tools only need the usual ones.
    if (text.size() - 2 > 15) return false;
    value = static_cast<long long>(std::strtoull(text.c_str() + 2, nullptr, 16));
    return true;
  }
  if (text.find_first_of(".eE") != std::string::npos) return false;
  if (text.size() > 18) return false;  // may not fit: Lua would read a float
  value = std::strtoll(text.c_str(), nullptr, 10);
  return true;
}

}  // namespace rulebook::mutation
