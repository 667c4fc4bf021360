#include "lua/error_report.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>

#include "core/folder_boundary.hpp"
#include "core/game_definition.hpp"
#include "core/safe_text.hpp"
#include "core/suggest.hpp"
#include "lua/engine_impl.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

// The text between `open` and the next quote after it, e.g. the NAME of
// "(method 'NAME')".
bool quoted_after(const std::string& message, const std::string& open, std::string& out) {
  const size_t at = message.find(open);
  if (at == std::string::npos) return false;
  const size_t start = at + open.size();
  const size_t end = message.find('\'', start);
  if (end == std::string::npos) return false;
  out = message.substr(start, end - start);
  return !out.empty();
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The first occurrence of `word` in `line` as a whole word, after `prefix`
// when one is given (":" for methods, "." for fields).
size_t find_word(const std::string& line, const std::string& word, const std::string& prefix = "") {
  const std::string needle = prefix + word;
  for (size_t at = line.find(needle); at != std::string::npos; at = line.find(needle, at + 1)) {
    const size_t start = at + prefix.size();
    const bool left_ok = !prefix.empty() || start == 0 || !is_word_char(line[start - 1]);
    const size_t end = start + word.size();
    const bool right_ok = end >= line.size() || !is_word_char(line[end]);
    if (left_ok && right_ok) return start;
  }
  return std::string::npos;
}

std::string source_line(const std::string& file, int number) {
  std::ifstream in(file);
  std::string line;
  for (int i = 1; std::getline(in, line); ++i)
    if (i == number) return line;
  return std::string();
}

}  // namespace

std::map<std::string, std::vector<std::string>> api_method_names(lua_State* L) {
  std::map<std::string, std::vector<std::string>> out;
  for (const char* type : {"game", "zone", "component", "board"}) {
    auto& names = out[type];
    if (luaL_getmetatable(L, type) == LUA_TTABLE && lua_getfield(L, -1, "__index") == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) names.emplace_back(lua_tostring(L, -2));
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    std::sort(names.begin(), names.end());
  }
  return out;
}

int error_column(const std::string& message, const std::string& line) {
  std::string name;
  size_t at = std::string::npos;
  if (quoted_after(message, "(method '", name)) at = find_word(line, name, ":");
  else if (quoted_after(message, "(field '", name)) at = find_word(line, name, ".");
  else if (quoted_after(message, "(local '", name) || quoted_after(message, "(global '", name) ||
           quoted_after(message, "(upvalue '", name) || quoted_after(message, "global '", name) ||
           quoted_after(message, " to '", name) || quoted_after(message, "near '", name))
    at = find_word(line, name);
  if (at == std::string::npos && !name.empty()) at = line.find(name);
  if (at == std::string::npos) at = line.find_first_not_of(" \t");
  return at == std::string::npos ? 1 : static_cast<int>(at) + 1;
}

std::string explain_script_error(lua_State* L, const std::string& script_text) {
  // A script's message is its own text: valid UTF-8 from here on, for it
  // reaches JSON (a table's page, the lobby's list).
  const std::string text = to_valid_utf8(script_text);
  const size_t first_end = std::min(text.find('\n'), text.size());
  std::string first = text.substr(0, first_end);
  const std::string rest = text.substr(first_end);

  // A misspelt method: suggest the closest one any API object has.
  std::string method;
  if (first.find("attempt to call a nil value (method '") != std::string::npos &&
      quoted_after(first, "(method '", method)) {
    std::vector<std::string> all;
    for (const auto& [type, names] : api_method_names(L)) all.insert(all.end(), names.begin(), names.end());
    first += did_you_mean(method, all);
  }

  // A misspelt name of the game's own things, or of a global.
  else if (const EngineImpl* e = context(L)->engine; e && e->def) {
    const GameDefinition& def = *e->def;
    std::string name;
    std::vector<std::string> known;
    if (quoted_after(first, "no zone named '", name)) {
      for (const auto& z : def.zone_defs)
        if (z.board < 0) known.push_back(z.name);
    } else if (quoted_after(first, "no board named '", name)) {
      for (const auto& b : def.boards) known.push_back(b.name);
    } else if (quoted_after(first, "no component named '", name)) {
      for (const auto& t : def.types) known.push_back(t.name);
    } else if (quoted_after(first, "no component has a face '", name)) {
      known = def.face_names;
    } else if (quoted_after(first, "undeclared global '", name)) {
      known = sandbox_global_names(L);
    }
    if (!name.empty()) {
      std::sort(known.begin(), known.end());
      // Inside the parenthesis Lua's argument errors end with.
      const std::string advice = did_you_mean(name, known);
      if (!advice.empty() && !first.empty() && first.back() == ')') first.insert(first.size() - 1, advice);
      else first += advice;
    }
  }

  // "file.lua:LINE: message" (or a scenario's "file.yaml:LINE: ..."): show
  // that line with a caret.
  size_t lua_end = first.find(".lua:");
  size_t ext = 4;
  if (lua_end == std::string::npos) {
    lua_end = first.find(".yaml:");
    ext = 5;
  }
  if (lua_end == std::string::npos) return first + rest;
  const std::string shown = first.substr(0, lua_end + ext);
  size_t digits_end = lua_end + ext + 1;
  while (digits_end < first.size() && std::isdigit(static_cast<unsigned char>(first[digits_end]))) ++digits_end;
  if (digits_end == lua_end + ext + 1 || digits_end >= first.size() || first[digits_end] != ':') return first + rest;
  const int number = std::stoi(first.substr(lua_end + ext + 1, digits_end - lua_end - ext - 1));
  const LuaContext* ctx = context(L);
  std::string file = shown;
  if (!ctx->display_dir.empty() && shown.rfind(ctx->display_dir + "/", 0) == 0)
    file = ctx->game_dir + shown.substr(ctx->display_dir.size());
  // A script's message may name any file: only a script of the game's folder is shown.
  if (ext == 4 && !ctx->game_dir.empty() && !inside_folder(ctx->game_dir, file)) return first + rest;
  std::string line = source_line(file, number);
  if (line.find_first_not_of(" \t") == std::string::npos) return first + rest;
  std::replace(line.begin(), line.end(), '\t', ' ');  // so the caret lines up
  const int column = error_column(first.substr(digits_end + 1), line);
  const std::string gutter(std::to_string(number).size(), ' ');
  return fmt::format("{}\n{}--> {}:{}:{}\n{} |\n{} | {}\n{} | {}^{}", first, gutter, shown, number, column, gutter,
                     number, line, gutter, std::string(column - 1, ' '), rest);
}

// "rules.lua:12:" for the innermost Lua function running (the hook may
// fire in a C function's call event).
std::string script_position(lua_State* L) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); ++level) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) return std::string(ar.short_src) + ":" + std::to_string(ar.currentline) + ": ";
  }
  return "";
}

}  // namespace rulebook
