#include "mutation/lua_parser.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rulebook::mutation {
namespace {

class Parser {
 public:
  Parser(LuaStructure& out, const std::string& chunk) : out_(out), chunk_(chunk) {}

  void chunk() {
    block();
    if (tok().kind != TokenKind::End) fail(fmt::format("'<eof>' expected near '{}'", tok().text));
    // Own lines: the lines of the tokens each statement holds directly.
    for (size_t i = 0; i < out_.tokens.size(); ++i) {
      const int id = out_.token_statement[i];
      if (id < 0) continue;
      Statement& s = out_.statements[id];
      const Token& t = out_.tokens[i];
      if (s.own_first_line == 0 || t.line < s.own_first_line) s.own_first_line = t.line;
      s.own_last_line = std::max(s.own_last_line, t.last_line);
    }
  }

 private:
  const Token& tok() const { return out_.tokens[p_]; }
  const Token& peek() const { return out_.tokens[std::min(p_ + 1, out_.tokens.size() - 1)]; }
  [[noreturn]] void fail(const std::string& what) const {
    throw LuaSyntaxError(fmt::format("{}:{}: {}", chunk_, tok().line, what));
  }
  void advance() {
    if (tok().kind == TokenKind::End) fail("unexpected end of script");
    out_.token_statement[p_] = statements_.empty() ? -1 : statements_.back();
    ++p_;
  }
  bool accept(std::string_view s) {
    if (!tok().is(s)) return false;
    advance();
    return true;
  }
  void expect(std::string_view s) {
    if (!accept(s)) fail(fmt::format("'{}' expected near '{}'", s, tok().kind == TokenKind::End ? "<eof>" : tok().text));
  }
  void name() {
    if (tok().kind != TokenKind::Name) fail(fmt::format("<name> expected near '{}'", tok().text));
    advance();
  }

  bool block_follows() const {
    const Token& t = tok();
    return t.kind == TokenKind::End || t.is("else") || t.is("elseif") || t.is("end") || t.is("until");
  }

  // Returns the index of the block's first statement, or -1.
  int block() {
    const size_t before = out_.statements.size();
    while (!block_follows()) {
      if (tok().is("return")) {
        statement();
        break;
      }
      statement();
    }
    return out_.statements.size() > before ? static_cast<int>(before) : -1;
  }

  void statement() {
    const int id = static_cast<int>(out_.statements.size());
    out_.statements.emplace_back();
    out_.statements[id].first_token = p_;
    out_.statements[id].function = functions_.empty() ? -1 : functions_.back();
    statements_.push_back(id);
    const StatementKind kind = statement_body();
    statements_.pop_back();
    Statement& s = out_.statements[id];
    s.kind = kind;
    s.last_token = p_ - 1;
    s.first_line = out_.tokens[s.first_token].line;
    s.last_line = out_.tokens[s.last_token].last_line;
  }

  StatementKind statement_body() {
    const Token& t = tok();
    if (accept(";")) return StatementKind::Empty;
    if (accept("::")) {
      name();
      expect("::");
      return StatementKind::Label;
    }
    if (accept("break")) return StatementKind::Break;
    if (accept("goto")) {
      name();
      return StatementKind::Goto;
    }
    if (accept("do")) {
      block();
      expect("end");
      return StatementKind::Do;
    }
    if (accept("while")) {
      expression();
      expect("do");
      block();
      expect("end");
      return StatementKind::While;
    }
    if (accept("repeat")) {
      block();
      expect("until");
      expression();
      return StatementKind::Repeat;
    }
    if (accept("if")) {
      expression();
      expect("then");
      block();
      while (accept("elseif")) {
        expression();
        expect("then");
        block();
      }
      if (accept("else")) block();
      expect("end");
      return StatementKind::If;
    }
    if (accept("for")) {
      name();
      if (accept("=")) {
        expression();
        expect(",");
        expression();
        if (accept(",")) expression();
        expect("do");
        block();
        expect("end");
        return StatementKind::NumericFor;
      }
      while (accept(",")) name();
      expect("in");
      expression_list(nullptr);
      expect("do");
      block();
      expect("end");
      return StatementKind::GenericFor;
    }
    if (accept("function")) {
      name();
      while (accept(".")) name();
      if (accept(":")) name();
      function_body();
      return StatementKind::Function;
    }
    if (accept("local")) {
      if (accept("function")) {
        name();
        function_body();
        return StatementKind::LocalFunction;
      }
      do {
        name();
        if (accept("<")) {
          name();
          expect(">");
        }
      } while (accept(","));
      if (accept("=")) expression_list(nullptr);
      return StatementKind::Local;
    }
    if (accept("return")) {
      if (!block_follows() && !tok().is(";")) expression_list(nullptr);
      accept(";");
      return StatementKind::Return;
    }
    (void)t;
    // An expression statement: a call, or the targets of an assignment.
    bool is_call = suffixed_expression();
    if (tok().is("=") || tok().is(",")) {
      while (accept(",")) suffixed_expression();
      expect("=");
      expression_list(nullptr);
      return StatementKind::Assignment;
    }
    if (!is_call) fail(fmt::format("syntax error near '{}'", tok().text));
    return StatementKind::Call;
  }

  void function_body() {
    const int id = static_cast<int>(out_.functions.size());
    out_.functions.emplace_back();
    expect("(");
    if (!tok().is(")")) {
      do {
        if (accept("...")) break;
        name();
      } while (accept(","));
    }
    out_.functions[id].params_close = p_;
    expect(")");
    functions_.push_back(id);
    const int first = block();
    functions_.pop_back();
    out_.functions[id].first_statement = first;
    out_.functions[id].end_token = p_;
    expect("end");
  }

  void expression_list(std::vector<std::pair<size_t, size_t>>* ranges) {
    do {
      const size_t start = p_;
      expression();
      if (ranges) ranges->emplace_back(start, p_ - 1);
    } while (accept(","));
  }

  bool binary_operator() const {
    static constexpr std::string_view ops[] = {"+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=",
                                               ">", ">=", "and", "or", "&", "|", "~", "<<", ">>"};
    for (auto op : ops)
      if (tok().is(op)) return true;
    return false;
  }

  void expression() {
    operand();
    while (binary_operator()) {
      advance();
      operand();
    }
  }

  void operand() {
    while (tok().is("not") || tok().is("-") || tok().is("#") || tok().is("~")) advance();
    simple_expression();
  }

  void simple_expression() {
    const Token& t = tok();
    if (t.kind == TokenKind::Number || t.kind == TokenKind::String || t.is("nil") || t.is("true") ||
        t.is("false") || t.is("...")) {
      advance();
    } else if (t.is("{")) {
      table();
    } else if (accept("function")) {
      function_body();
    } else {
      suffixed_expression();
    }
  }

  // Returns whether it ends with a call.
  bool suffixed_expression() {
    if (tok().kind == TokenKind::Name) {
      advance();
    } else if (accept("(")) {
      expression();
      expect(")");
    } else {
      fail(fmt::format("unexpected symbol near '{}'", tok().kind == TokenKind::End ? "<eof>" : tok().text));
    }
    bool call = false;
    for (;;) {
      if (accept(".")) {
        name();
        call = false;
      } else if (accept("[")) {
        expression();
        expect("]");
        call = false;
      } else if (accept(":")) {
        name();
        arguments();
        call = true;
      } else if (tok().is("(") || tok().is("{") || tok().kind == TokenKind::String) {
        arguments();
        call = true;
      } else {
        return call;
      }
    }
  }

  void arguments() {
    if (tok().kind == TokenKind::String) {
      advance();
      return;
    }
    if (tok().is("{")) {
      table();
      return;
    }
    Call call;
    call.open = p_;
    expect("(");
    if (!tok().is(")")) expression_list(&call.arguments);
    call.close = p_;
    expect(")");
    out_.calls.push_back(std::move(call));
  }

  void table() {
    expect("{");
    while (!tok().is("}")) {
      if (accept("[")) {
        expression();
        expect("]");
        expect("=");
        expression();
      } else if (tok().kind == TokenKind::Name && peek().is("=")) {
        advance();
        advance();
        expression();
      } else {
        expression();
      }
      if (!accept(",") && !accept(";")) break;
    }
    expect("}");
  }

  LuaStructure& out_;
  const std::string& chunk_;
  size_t p_ = 0;
  std::vector<int> statements_;  // open statements, innermost last
  std::vector<int> functions_;   // open function bodies, innermost last
};

}  // namespace

LuaStructure parse_lua(std::string_view source, const std::string& chunk) {
  LuaStructure out;
  out.tokens = tokenize(source, chunk);
  out.token_statement.assign(out.tokens.size(), -1);
  Parser(out, chunk).chunk();
  return out;
}

}  // namespace rulebook::mutation
