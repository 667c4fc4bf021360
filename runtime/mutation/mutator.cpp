#include "mutation/mutator.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mutation/lua_parser.hpp"

namespace rulebook::mutation {
namespace {

// Source text on one line, shortened, for reports.
std::string excerpt(std::string_view text, size_t limit = 48) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

struct Builder {
  const LuaStructure& lua;
  std::string_view source;
  const std::string& file;
  std::vector<Mutant> out;

  // The lines that must run for a change inside statement `id` to matter.
  void reach(Mutant& m, int id) const {
    if (id < 0) {
      m.reached_from = m.reached_to = m.line;
      return;
    }
    const Statement& s = lua.statements[id];
    m.reached_from = s.own_first_line;
    m.reached_to = s.own_last_line;
  }

  void token_mutant(size_t index, std::string kind, std::string replacement, std::string change) {
    const Token& t = lua.tokens[index];
    Mutant m;
    m.file = file;
    m.line = t.line;
    m.kind = std::move(kind);
    m.change = std::move(change);
    m.offset = t.offset;
    m.length = t.text.size();
    m.replacement = std::move(replacement);
    reach(m, lua.token_statement[index]);
    out.push_back(std::move(m));
  }

  void replace_token(size_t index, const char* kind, std::string_view to) {
    const Token& t = lua.tokens[index];
    token_mutant(index, kind, std::string(to), fmt::format("`{}` -> `{}`", t.text, to));
  }

  void tokens() {
    // Comparisons: negated (==/~=, </>=, <=/>) and moved by one (</<=, >/>=).
    static const std::pair<std::string_view, std::string_view> negate[] = {
        {"==", "~="}, {"~=", "=="}, {"<", ">="}, {"<=", ">"}, {">", "<="}, {">=", "<"}};
    static const std::pair<std::string_view, std::string_view> boundary[] = {
        {"<", "<="}, {"<=", "<"}, {">", ">="}, {">=", ">"}};
    for (size_t i = 0; i < lua.tokens.size(); ++i) {
      const Token& t = lua.tokens[i];
      if (t.kind == TokenKind::Symbol) {
        for (const auto& [from, to] : negate)
          if (t.text == from) replace_token(i, "comparison", to);
        for (const auto& [from, to] : boundary)
          if (t.text == from) replace_token(i, "boundary", to);
      } else if (t.kind == TokenKind::Keyword) {
        if (t.text == "and") replace_token(i, "logical", "or");
        if (t.text == "or") replace_token(i, "logical", "and");
        if (t.text == "true") replace_token(i, "boolean", "false");
        if (t.text == "false") replace_token(i, "boolean", "true");
      } else if (t.kind == TokenKind::Number) {
        long long v = 0;
        if (!integer_value(t.text, v)) continue;
        for (long long delta : {1LL, -1LL}) {
          // "(-1)": a bare "-1" after a minus sign would start a comment.
          const std::string to = v + delta < 0 ? "(" + std::to_string(v + delta) + ")" : std::to_string(v + delta);
          token_mutant(i, "number", to, fmt::format("{} -> {}", t.text, to));
        }
      }
    }
  }

  void deletions() {
    for (size_t id = 0; id < lua.statements.size(); ++id) {
      const Statement& s = lua.statements[id];
      switch (s.kind) {
        case StatementKind::Assignment: case StatementKind::Call: case StatementKind::Do:
        case StatementKind::While: case StatementKind::Repeat: case StatementKind::If:
        case StatementKind::NumericFor: case StatementKind::GenericFor: case StatementKind::Break:
        case StatementKind::Goto:
          break;
        default:
          continue;  // declarations and returns: deleting them mostly breaks the script, not its rules
      }
      const size_t from = lua.tokens[s.first_token].offset, to = lua.tokens[s.last_token].end();
      const std::string_view text = source.substr(from, to - from);
      // Shown from its tokens, so that comments inside it are left out.
      std::string shown;
      for (size_t t = s.first_token; t <= s.last_token && shown.size() < 64; ++t) {
        if (t > s.first_token && lua.tokens[t].offset > lua.tokens[t - 1].end()) shown += ' ';
        shown += lua.tokens[t].text;
      }
      Mutant m;
      m.file = file;
      m.line = s.first_line;
      m.kind = "delete";
      m.change = fmt::format("deleted `{}`", excerpt(shown));
      m.offset = from;
      m.length = to - from;
      // ";" is an empty statement; the newlines keep every later line where it was.
      m.replacement = ";" + std::string(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), '\n');
      // Lua compiles `if c then break end` into the if's own jump: the
      // break's line never runs by itself, the enclosing statement's does.
      int reached = static_cast<int>(id);
      if (s.kind == StatementKind::Break || s.kind == StatementKind::Goto)
        for (int parent = reached - 1; parent >= 0; --parent)
          if (lua.statements[parent].last_token >= s.last_token) {
            reached = parent;
            break;
          }
      reach(m, reached);
      out.push_back(std::move(m));
    }
  }

  void early_returns() {
    for (const auto& f : lua.functions) {
      if (f.first_statement < 0) continue;
      const Statement& first = lua.statements[f.first_statement];
      if (first.kind == StatementKind::Return) continue;  // returns at once already
      const Token& close = lua.tokens[f.params_close];
      Mutant m;
      m.file = file;
      m.line = close.line;
      m.kind = "return";
      m.change = "returns at once (`do return end` before its first statement)";
      m.offset = close.end();
      m.length = 0;
      m.replacement = " do return end";
      reach(m, f.first_statement);
      out.push_back(std::move(m));
    }
  }

  void swaps() {
    for (const auto& call : lua.calls) {
      if (call.arguments.size() < 2) continue;
      auto text = [&](std::pair<size_t, size_t> r) {
        const size_t from = lua.tokens[r.first].offset;
        return source.substr(from, lua.tokens[r.second].end() - from);
      };
      const std::string_view a = text(call.arguments[0]), b = text(call.arguments[1]);
      if (a == b) continue;
      const size_t from = lua.tokens[call.arguments[0].first].offset;
      const size_t to = lua.tokens[call.arguments[1].second].end();
      const size_t between = a.size();
      const std::string_view middle = source.substr(from + between, to - from - between - b.size());
      // A swap that moves an argument across lines would shift line numbers: skip it.
      if (std::string(a).find('\n') != std::string::npos || std::string(b).find('\n') != std::string::npos ||
          std::string(middle).find('\n') != std::string::npos)
        continue;
      Mutant m;
      m.file = file;
      m.line = lua.tokens[call.open].line;
      m.kind = "swap";
      m.change = fmt::format("arguments swapped: ({}, {}) -> ({}, {})", excerpt(a, 24), excerpt(b, 24), excerpt(b, 24),
                             excerpt(a, 24));
      m.offset = from;
      m.length = to - from;
      m.replacement = std::string(b) + std::string(middle) + std::string(a);
      reach(m, lua.token_statement[call.open]);
      out.push_back(std::move(m));
    }
  }
};

}  // namespace

std::vector<Mutant> make_mutants(std::string_view source, const std::string& file) {
  const LuaStructure lua = parse_lua(source, file);
  Builder b{lua, source, file, {}};
  b.tokens();
  b.deletions();
  b.early_returns();
  b.swaps();
  std::stable_sort(b.out.begin(), b.out.end(), [](const Mutant& x, const Mutant& y) { return x.offset < y.offset; });
  return std::move(b.out);
}

std::string apply_mutant(std::string_view source, const Mutant& mutant) {
  std::string out(source.substr(0, mutant.offset));
  out += mutant.replacement;
  out += source.substr(mutant.offset + mutant.length);
  return out;
}

}  // namespace rulebook::mutation
