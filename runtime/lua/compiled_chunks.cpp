// Rule files compiled once per process: every engine of a game (a search
// bot makes two or three a game) parsed the same rules.lua again, which
// was two thirds of building an engine. The first load of a file's text
// keeps lua_dump's bytes of the compiled function (debug information
// kept: the same source name, lines and local names in every message);
// later loads of the very same text under the same name undump them. Only
// bytes this process dumped are ever loaded as binary: the sandbox's own
// `load` still takes source text only.
#include "lua/compiled_chunks.hpp"

#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace rulebook {
namespace {

// At most this many bytes of keys and compiled code are kept; past it the
// cache starts again (a server reloading edited rules must not grow).
constexpr size_t kMaxCachedBytes = 8u << 20;

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::string> compiled;  // chunk name, '\0', text -> dumped function
  size_t bytes = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

std::string key_of(std::string_view text, const char* chunkname) {
  std::string key(chunkname);
  key.push_back('\0');
  key.append(text);
  return key;
}

int append_bytes(lua_State*, const void* p, size_t size, void* out) noexcept {
  try {
    static_cast<std::string*>(out)->append(static_cast<const char*>(p), size);
    return 0;
  } catch (const std::bad_alloc&) {
    return 1;  // lua_dump stops; nothing is kept
  }
}

}  // namespace

bool load_compiled_chunk(lua_State* L, std::string_view text, const char* chunkname) {
  std::string bytes;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto found = c.compiled.find(key_of(text, chunkname));
    if (found == c.compiled.end()) return false;
    bytes = found->second;  // copied: another thread may start the cache again
  }
  if (luaL_loadbufferx(L, bytes.data(), bytes.size(), chunkname, "b") == LUA_OK) return true;
  lua_pop(L, 1);  // the message: the caller parses the text instead
  return false;
}

void keep_compiled_chunk(lua_State* L, std::string_view text, const char* chunkname) {
  try {
    std::string bytes;
    if (lua_dump(L, append_bytes, &bytes, 0) != 0) return;
    std::string key = key_of(text, chunkname);
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    const size_t added = key.size() + bytes.size();
    if (c.bytes + added > kMaxCachedBytes) {
      c.compiled.clear();
      c.bytes = 0;
    }
    if (c.compiled.emplace(std::move(key), std::move(bytes)).second) c.bytes += added;
  } catch (const std::bad_alloc&) {  // only a cache: the next engine parses again
  }
}

}  // namespace rulebook
