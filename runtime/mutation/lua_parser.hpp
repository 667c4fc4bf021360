#pragma once
// A recursive-descent reader of Lua 5.4's grammar (after lparser.c) that
// keeps what tools need to change a script safely: where each statement
// starts and ends, which tokens belong to which statement, function bodies
// and the arguments of calls. It builds no expression tree.
#include <string>
#include <string_view>
#include <vector>

#include "mutation/lua_lexer.hpp"

namespace rulebook::mutation {

enum class StatementKind {
  Empty, Assignment, Call, Label, Break, Goto, Do, While, Repeat, If, NumericFor, GenericFor,
  Function, LocalFunction, Local, Return
};

struct Statement {
  StatementKind kind = StatementKind::Empty;
  size_t first_token = 0, last_token = 0;  // inclusive token indexes
  int first_line = 0, last_line = 0;       // of the whole statement
  // Lines of the tokens that belong to this statement itself and not to a
  // statement nested in it: an `if`'s condition, not its blocks.
  int own_first_line = 0, own_last_line = 0;
  int function = -1;  // the function body it is in (-1: the main chunk)
};

struct FunctionBody {
  size_t params_close = 0;  // index of the ')' closing the parameters
  size_t end_token = 0;     // index of its 'end'
  int first_statement = -1; // its first statement (-1: an empty body)
};

struct Call {
  size_t open = 0, close = 0;  // the '(' and ')' of its arguments
  std::vector<std::pair<size_t, size_t>> arguments;  // inclusive token ranges
};

struct LuaStructure {
  std::vector<Token> tokens;
  std::vector<Statement> statements;
  std::vector<FunctionBody> functions;
  std::vector<Call> calls;
  std::vector<int> token_statement;  // per token: the innermost statement holding it
};

// Throws LuaSyntaxError ("chunk:line: message") on source Lua would reject.
LuaStructure parse_lua(std::string_view source, const std::string& chunk);

}  // namespace rulebook::mutation
