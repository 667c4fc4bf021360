// Mutation testing: the Lua lexer and parser it relies on and each mutation
// operator (`rulebook test --mutate` itself: tests/unit/cli/test_mutation.cpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "mutation/lua_lexer.hpp"
#include "mutation/lua_parser.hpp"
#include "mutation/mutator.hpp"

using namespace rulebook::mutation;

namespace {

std::vector<std::string> texts(const std::string& src) {
  std::vector<std::string> out;
  for (const auto& t : tokenize(src, "test.lua"))
    if (t.kind != TokenKind::End) out.emplace_back(t.text);
  return out;
}

// The mutants of `src` of one kind, as the mutated sources.
std::vector<std::string> mutated(const std::string& src, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& m : make_mutants(src, "test.lua"))
    if (m.kind == kind) out.push_back(apply_mutant(src, m));
  return out;
}

}  // namespace

TEST_CASE("lua lexer: long strings and comments of any level", "[mutation]") {
  CHECK(texts("a = [==[ ]] ]=] x < y ]==] b") == std::vector<std::string>{"a", "=", "[==[ ]] ]=] x < y ]==]", "b"});
  CHECK(texts("--[[ x < y\n and ]] z") == std::vector<std::string>{"z"});
  CHECK(texts("--[==[ ]] ]==] z") == std::vector<std::string>{"z"});
  CHECK(texts("--[ not long\nz") == std::vector<std::string>{"z"});
  CHECK(texts("-- x and y\nz -- true") == std::vector<std::string>{"z"});
  CHECK(texts("#!/usr/bin/lua\nx") == std::vector<std::string>{"x"});
  const auto tokens = tokenize("a = [[\nline\n]]\nb", "t");
  CHECK(tokens[2].line == 1);
  CHECK(tokens[2].last_line == 3);
  CHECK(tokens[3].line == 4);
  CHECK_THROWS_AS(tokenize("x = [==[ never closed ]=]", "t"), LuaSyntaxError);
  CHECK_THROWS_WITH(tokenize("x = 1\n--[[ open", "t.lua"), Catch::Contains("t.lua:2:"));
}

TEST_CASE("lua lexer: strings with escapes", "[mutation]") {
  CHECK(texts(R"(s = "a \" and \\" .. 'b \' or' x)") ==
        std::vector<std::string>{"s", "=", R"("a \" and \\")", "..", R"('b \' or')", "x"});
  CHECK(texts("s = \"\\z\n   skipped\" y") == std::vector<std::string>{"s", "=", "\"\\z\n   skipped\"", "y"});
  CHECK(texts("s = \"line\\\nnext\" y").size() == 4);
  CHECK(texts(R"(s = "\x41\u{48}\065\n" y)").size() == 4);
  CHECK_THROWS_AS(tokenize("s = \"open\nx\"", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(tokenize(R"(s = "\q")", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(tokenize(R"(s = "\300")", "t"), LuaSyntaxError);
}

TEST_CASE("lua lexer: numbers and symbols", "[mutation]") {
  CHECK(texts("x = 0x1F + 3.5e-2 + .5 + 1e+10 + 0x1p4 + 7") ==
        std::vector<std::string>{"x", "=", "0x1F", "+", "3.5e-2", "+", ".5", "+", "1e+10", "+", "0x1p4", "+", "7"});
  CHECK(texts("a...b..c.d") == std::vector<std::string>{"a", "...", "b", "..", "c", ".", "d"});
  CHECK(texts("a<=b>=c~=d==e<<f>>g//h::i") ==
        std::vector<std::string>{"a", "<=", "b", ">=", "c", "~=", "d", "==", "e", "<<", "f", ">>", "g", "//", "h", "::", "i"});
  CHECK_THROWS_AS(tokenize("x = 3abc", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(tokenize("x = 3x", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(tokenize("x = 0x", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(tokenize("x = 1e", "t"), LuaSyntaxError);
  long long v = 0;
  CHECK(integer_value("0x1F", v));
  CHECK(v == 31);
  CHECK(integer_value("12", v));
  CHECK(v == 12);
  CHECK_FALSE(integer_value("1.5", v));
  CHECK_FALSE(integer_value("1e3", v));
}

TEST_CASE("lua parser: statements, function bodies and calls", "[mutation]") {
  const std::string src =
      "local t = {a = 1, [2] = 'x'; 3}\n"
      "function t.f(a, ...)\n"
      "  if a then return end\n"
      "  for i = 1, 3 do g(i, a) end\n"
      "end\n"
      "repeat local x = 1 until x\n"
      "t:m 'str' {1} (2)\n"
      "x, t[1] = 1, 2\n";
  const LuaStructure lua = parse_lua(src, "t");
  std::vector<StatementKind> kinds;
  for (const auto& s : lua.statements) kinds.push_back(s.kind);
  CHECK(kinds == std::vector<StatementKind>{StatementKind::Local, StatementKind::Function, StatementKind::If,
                                            StatementKind::Return, StatementKind::NumericFor, StatementKind::Call,
                                            StatementKind::Repeat, StatementKind::Local, StatementKind::Call,
                                            StatementKind::Assignment});
  REQUIRE(lua.functions.size() == 1);
  CHECK(lua.functions[0].first_statement == 2);
  CHECK(lua.statements[1].first_line == 2);
  CHECK(lua.statements[1].last_line == 5);
  CHECK(lua.statements[1].own_last_line == 5);   // its 'end'
  CHECK(lua.statements[2].own_first_line == 3);
  // g(i, a) and the (2) of the last call
  REQUIRE(lua.calls.size() == 2);
  CHECK(lua.calls[0].arguments.size() == 2);
  CHECK_THROWS_AS(parse_lua("x = ", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(parse_lua("if x then", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(parse_lua("x", "t"), LuaSyntaxError);
  CHECK_THROWS_AS(parse_lua("return 1 x = 2", "t"), LuaSyntaxError);
}

TEST_CASE("mutator: each operator", "[mutation]") {
  auto c = mutated("return a < b", "comparison");
  CHECK(c == std::vector<std::string>{"return a >= b"});
  CHECK(mutated("return a < b", "boundary") == std::vector<std::string>{"return a <= b"});
  CHECK(mutated("return a <= b", "boundary") == std::vector<std::string>{"return a < b"});
  CHECK(mutated("return a > b", "boundary") == std::vector<std::string>{"return a >= b"});
  CHECK(mutated("return a >= b", "comparison") == std::vector<std::string>{"return a < b"});
  CHECK(mutated("return a == b", "comparison") == std::vector<std::string>{"return a ~= b"});
  CHECK(mutated("return a ~= b", "comparison") == std::vector<std::string>{"return a == b"});
  CHECK(mutated("return a and b or c", "logical") == std::vector<std::string>{"return a or b or c", "return a and b and c"});
  CHECK(mutated("return true, false", "boolean") == std::vector<std::string>{"return false, false", "return true, true"});
  CHECK(mutated("return 0x10", "number") == std::vector<std::string>{"return 17", "return 15"});
  // A negative number is bracketed: "a-(-1)", never the comment "a--1".
  CHECK(mutated("return a-0", "number") == std::vector<std::string>{"return a-1", "return a-(-1)"});
  CHECK(mutated("return 1.5", "number").empty());
  CHECK(mutated("f(a, b)\nlocal x = 1\nreturn x", "delete") == std::vector<std::string>{";\nlocal x = 1\nreturn x"});
  // A deleted statement keeps the lines after it where they were.
  CHECK(mutated("if a then\n  b()\nend\nc()", "delete") ==
        std::vector<std::string>{";\n\n\nc()", "if a then\n  ;\nend\nc()", "if a then\n  b()\nend\n;"});
  CHECK(mutated("local function f(x)\n  g(x)\nend", "return") ==
        std::vector<std::string>{"local function f(x) do return end\n  g(x)\nend"});
  CHECK(mutated("local function f() return 1 end", "return").empty());
  CHECK(mutated("f(a + 1, g(b, c), d)", "swap") == std::vector<std::string>{"f(g(b, c), a + 1, d)", "f(a + 1, g(c, b), d)"});
  CHECK(mutated("f(a, a)", "swap").empty());
}

TEST_CASE("mutator: strings and comments are never mutated", "[mutation]") {
  const std::string src = "local s = \"a < b and true\" -- x == 1 or false\nlocal t = [[ 1 < 2 ]]\nreturn s, t\n";
  CHECK(make_mutants(src, "t").empty());
}

TEST_CASE("mutator: what a mutant needs to run to matter", "[mutation]") {
  const auto ms = make_mutants("if a\n  and b then\n  c = 1\nend\n", "t");
  const auto it = std::find_if(ms.begin(), ms.end(), [](const Mutant& m) { return m.kind == "logical"; });
  REQUIRE(it != ms.end());
  CHECK(it->line == 2);
  CHECK(it->reached_from == 1);  // the if's own lines: its condition and 'end'
  CHECK(it->reached_to == 4);
  const auto n = std::find_if(ms.begin(), ms.end(), [](const Mutant& m) { return m.kind == "number"; });
  REQUIRE(n != ms.end());
  CHECK(n->reached_from == 3);
  CHECK(n->reached_to == 3);
}
