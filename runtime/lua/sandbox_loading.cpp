// Loading in the sandbox: chunks of source text only (never binary), with
// the sandbox's globals as their environment, and `require` confined to the
// game's folder. A module's table is guarded (game_isolation.cpp) as it
// loads.
#include <cctype>
#include <cstring>
#include <string>

#include "core/folder_boundary.hpp"
#include "core/input_file.hpp"
#include "lua/compiled_chunks.hpp"
#include "lua/line_coverage.hpp"
#include "lua/sandbox_internal.hpp"

namespace rulebook {
namespace {

// The line where brackets nest deepest in Lua source (strings and
// comments skipped): where a "C stack overflow" of the parser comes from,
// since Lua's message for it has no line.
int deepest_line(const char* text, size_t size) {
  int line = 1, depth = 0, best_depth = -1, best_line = 1;
  auto long_bracket = [&](size_t i) -> int {  // level of "[==[" at i, or -1
    if (text[i] != '[') return -1;
    size_t j = i + 1;
    while (j < size && text[j] == '=') ++j;
    return (j < size && text[j] == '[') ? static_cast<int>(j - i - 1) : -1;
  };
  auto skip_long = [&](size_t& i, int level) {  // i at the opening '['
    i += static_cast<size_t>(level) + 2;
    for (; i < size; ++i) {
      if (text[i] == '\n') ++line;
      if (text[i] == ']') {
        size_t j = i + 1;
        while (j < size && text[j] == '=') ++j;
        if (j < size && text[j] == ']' && static_cast<int>(j - i - 1) == level) {
          i = j;
          return;
        }
      }
    }
  };
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '-' && i + 1 < size && text[i + 1] == '-') {
      i += 2;
      const int level = i < size ? long_bracket(i) : -1;
      if (level >= 0) skip_long(i, level);
      else
        while (i < size && text[i] != '\n') ++i;
      if (i < size && text[i] == '\n') ++line;
    } else if (c == '"' || c == '\'') {
      for (++i; i < size && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\' && i + 1 < size) {
          if (text[i + 1] == '\n') ++line;
          ++i;
        }
      if (i < size && text[i] == '\n') ++line;
    } else if (c == '[' && long_bracket(i) >= 0) {
      skip_long(i, long_bracket(i));
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > best_depth) {
        best_depth = depth;
        best_line = line;
      }
    } else if (c == '}' || c == ')' || c == ']') {
      --depth;
    }
  }
  return best_line;
}

// Loads source text with the sandbox as its environment; on failure leaves
// the message, which always names the chunk and a line. The message of a
// parser's "C stack overflow" has neither: it gets the deepest line.
bool load_text(lua_State* L, const char* text, size_t size, const char* chunkname) {
  if (luaL_loadbufferx(L, text, size, chunkname, "t") != LUA_OK) {
    const char* message = lua_tostring(L, -1);
    const char* shown = chunkname[0] == '@' || chunkname[0] == '=' ? chunkname + 1 : chunkname;
    if (message && std::strncmp(message, shown, std::strlen(shown)) != 0 &&
        std::strstr(message, "stack overflow")) {
      lua_pushfstring(L, "%s:%d: nesting too deep (%s)", shown, deepest_line(text, size), message);
      lua_replace(L, -2);
    }
    return false;
  }
  return true;
}

// sandbox_load_file for C strings. Scripts are read like every other input
// file, up to kMaxInputFileBytes (a rules.lua of /dev/zero is an error, not an
// exhausted machine). No C++ object is alive when a Lua call that may raise
// an error runs (luaL_loadbufferx is protected).
bool load_file(lua_State* L, const char* path, const char* display_name) {
  std::string error;
  if (LineCoverage* coverage = context(L)->coverage) {
    try {
      coverage->files.insert(path);
    } catch (const std::exception&) {  // only a record for mutation testing: never unwinds through Lua
    }
  }
  {
    const InputFile file = read_input_file(path);
    if (file.ok) {
      const std::string chunkname = std::string("@") + display_name;
      if (!load_compiled_chunk(L, file.text, chunkname.c_str())) {
        if (!load_text(L, file.text.data(), file.text.size(), chunkname.c_str())) return false;
        keep_compiled_chunk(L, file.text, chunkname.c_str());
      }
    } else {
      error = file.error;
    }
  }
  if (!error.empty()) {
    lua_pushfstring(L, "%s: %s", display_name, error.c_str());
    return false;
  }
  sandbox_push_env(L);
  lua_setupvalue(L, -2, 1);
  return true;
}

}  // namespace

// load() of text chunks only, in the sandbox by default.
int safe_load(lua_State* L) {
  size_t len;
  const char* s = lua_tolstring(L, 1, &len);
  luaL_argcheck(L, s != nullptr, 1, "load only accepts source text in rule scripts");
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
  const char* mode = luaL_optstring(L, 3, "t");
  luaL_argcheck(L, std::strcmp(mode, "t") == 0, 3, "binary chunks are not allowed");
  if (!load_text(L, s, len, chunkname)) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  if (!lua_isnone(L, 4)) lua_pushvalue(L, 4);
  else sandbox_push_env(L);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}

// require("name") loads name.lua (dots for folders) from the game folder.
// Paths are built as Lua strings: a Lua error (the module's own, or the
// memory cap) unwinds with longjmp, past any C++ destructor.
int safe_require(lua_State* L) {
  size_t len;
  const char* name = luaL_checklstring(L, 1, &len);
  bool ok = len > 0 && len < 200 && name[0] != '.' && name[len - 1] != '.';
  for (size_t i = 0; ok && i < len; ++i) {
    const char c = name[i];
    ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
         (c == '.' && name[i + 1] != '.');
  }
  luaL_argcheck(L, ok, 1, "module names are letters, digits, '_', '-' and single dots");
  lua_settop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "rulebook.loaded");  // 2
  lua_getfield(L, 2, name);
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  LuaContext* ctx = context(L);
  luaL_gsub(L, name, ".", "/");
  const char* rel = lua_pushfstring(L, "%s.lua", lua_tostring(L, -1));  // 4
  const char* display = ctx->display_dir.empty() ? rel : lua_pushfstring(L, "%s/%s", ctx->display_dir.c_str(), rel);
  const char* path = lua_pushfstring(L, "%s/%s", ctx->game_dir.c_str(), rel);
  // A symbolic link out of the game folder reaches nothing (no C++ object
  // is alive when luaL_error unwinds).
  bool inside = false;
  try {
    inside = inside_folder(ctx->game_dir, path);
  } catch (...) {
  }
  if (!inside)
    return luaL_error(L, "module '%s' is outside the game folder (%s is a symbolic link out of it): a game's files stay in its folder",
                      name, display);
  if (!load_file(L, path, display))
    return luaL_error(L, "module '%s' not found in the game folder: %s", name, lua_tostring(L, -1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  if (lua_istable(L, -1)) {
    lua_pushfstring(L, "module '%s'", name);
    guard_table(L, -2, -1, 0);
    lua_pop(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, 2, name);
  return 1;
}

bool sandbox_load_file(lua_State* L, const std::string& path, const std::string& display_name) {
  return load_file(L, path.c_str(), display_name.c_str());
}

}  // namespace rulebook
