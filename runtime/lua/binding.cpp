#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>
#include <limits>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "core/safe_text.hpp"
#include "core/zone.hpp"
#include "lua/engine_impl.hpp"
#include "lua/sandbox.hpp"

namespace rulebook {
namespace {

// Every binding function carries the three handle tables as upvalues
// (see add_methods), so pushing a handle is one table read.
enum HandleUpvalue { kComponents = 1, kZones = 2, kBoards = 3 };

void push_cached(lua_State* L, int upvalue, int index) {
  lua_rawgeti(L, lua_upvalueindex(upvalue), index + 1);
}

}  // namespace

void raise_handle_error(lua_State* L, int arg, HandleKind kind) {
  luaL_typeerror(L, arg, kind == HandleKind::Component ? "component" : kind == HandleKind::Zone ? "zone" : "board");
  std::abort();  // unreachable: luaL_typeerror does not return
}

int check_int(lua_State* L, int arg) {
  const lua_Integer value = check_integer(L, arg);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    luaL_argerror(L, arg, "number has no integer representation in 32 bits");
  return static_cast<int>(value);
}

int clamp_to_int(lua_Integer value) {
  if (value > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  if (value < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
  return static_cast<int>(value);
}

void raise_game_error(lua_State* L, int arg) {
  luaL_typeerror(L, arg, "game");
  std::abort();  // unreachable
}

void raise_seat_error(lua_State* L, int arg) {
  const lua_Integer seat = luaL_checkinteger(L, arg);  // the standard error when no integer
  const int players = state_of(L).player_count();
  luaL_argerror(L, arg, lua_pushfstring(L, "seat %I is not in 0..%d", seat, players - 1));
  std::abort();  // unreachable
}

int check_list_length(lua_State* L, int arg) { return list_length_at(L, arg, arg); }

int list_length_at(lua_State* L, int arg, int value) {
  lua_len(L, value);
  int isnum = 0;
  const lua_Integer n = lua_tointegerx(L, -1, &isnum);
  lua_pop(L, 1);
  if (!isnum || n < 0 || n > std::numeric_limits<int>::max())
    luaL_argerror(L, arg, "the list's length is not a count");
  return static_cast<int>(n);
}

SeatMask check_seats(lua_State* L, int arg) { return check_seats_at(L, arg, arg); }

const char* text_at(lua_State* L, int index) {
  index = lua_absindex(L, index);
  size_t len = 0;
  const char* s = lua_tolstring(L, index, &len);
  const std::string_view text(s ? s : "", len);
  if (!s || valid_utf8(text)) return s;
  // Built in a Lua buffer: nothing here has a destructor a Lua error
  // (the memory cap) would skip.
  luaL_Buffer fixed;
  luaL_buffinit(L, &fixed);
  for (size_t i = 0; i < len;) {
    const size_t n = utf8_sequence_length(text, i);
    if (n == 0) luaL_addlstring(&fixed, kReplacementCharacter.data(), kReplacementCharacter.size());
    else luaL_addlstring(&fixed, s + i, n);
    i += n == 0 ? 1 : n;
  }
  luaL_pushresult(&fixed);
  lua_replace(L, index);
  return lua_tostring(L, index);
}

const char* check_text(lua_State* L, int arg) {
  luaL_checkstring(L, arg);
  return text_at(L, arg);
}

SeatMask check_seats_at(lua_State* L, int arg, int value) {
  arg = lua_absindex(L, arg);
  value = lua_absindex(L, value);
  const int players = state_of(L).player_count();
  if (lua_type(L, value) != LUA_TTABLE) {
    int isnum = 0;
    const lua_Integer seat = lua_tointegerx(L, value, &isnum);
    if (value == arg) return seat_bit(check_seat(L, arg));  // the standard wording
    if (!isnum || seat < 0 || seat >= players)
      luaL_argerror(L, arg, lua_pushfstring(L, "%s is not a seat in 0..%d", luaL_tolstring(L, value, nullptr), players - 1));
    return seat_bit(static_cast<int>(seat));
  }
  return seat_list_mask(L, arg, value, list_length_at(L, arg, value), false);
}

SeatMask seat_list_mask(lua_State* L, int arg, int value, int n, bool once_each, int copy_to) {
  const int players = state_of(L).player_count();
  copy_to = copy_to ? lua_absindex(L, copy_to) : 0;
  SeatMask mask = 0;
  for (int i = 1; i <= n; ++i) {
    lua_geti(L, value, i);
    int isnum = 0;
    const lua_Integer seat = lua_tointegerx(L, -1, &isnum);
    if (!isnum || seat < 0 || seat >= players)
      luaL_argerror(L, arg, lua_pushfstring(L, "item %d is not a seat in 0..%d", i, players - 1));
    if (copy_to) lua_rawseti(L, copy_to, i);
    else lua_pop(L, 1);
    if (once_each && (mask & seat_bit(static_cast<int>(seat))))
      luaL_argerror(L, arg, lua_pushfstring(L, "seat %I is listed twice", seat));
    mask |= seat_bit(static_cast<int>(seat));
  }
  return mask;
}

void check_fields(lua_State* L, int arg, const char* const* allowed) {
  arg = lua_absindex(L, arg);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    bool known = false;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (const char* const* a = allowed; *a && !known; ++a) known = std::strcmp(*a, lua_tostring(L, -1)) == 0;
    if (!known) {  // no C++ object lives here: the error unwinds past this frame
      const char* key = luaL_tolstring(L, -1, nullptr);
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (const char* const* a = allowed; *a; ++a) {
        if (a != allowed) luaL_addstring(&b, ", ");
        luaL_addstring(&b, *a);
      }
      luaL_pushresult(&b);
      luaL_argerror(L, arg, lua_pushfstring(L, "unknown field '%s' (fields: %s)", key, lua_tostring(L, -1)));
    }
  }
}

namespace {

bool check_position(lua_State* L, int arg, int value) {
  const char* where = lua_tostring(L, value);
  if (!where || (std::strcmp(where, "bottom") != 0 && std::strcmp(where, "top") != 0))
    luaL_argerror(L, arg, "'top' or 'bottom' expected");
  return std::strcmp(where, "bottom") == 0;
}

}  // namespace

void check_move_options(lua_State* L, int arg, MoveOptions& out) {
  out = MoveOptions{};
  if (lua_isnoneornil(L, arg)) return;
  arg = lua_absindex(L, arg);
  if (lua_type(L, arg) == LUA_TSTRING) {
    out.to_bottom = check_position(L, arg, arg);
    return;
  }
  if (lua_type(L, arg) != LUA_TTABLE) luaL_typeerror(L, arg, "'top', 'bottom' or a table of move options");
  static const char* const kFields[] = {"position", "seen_by", nullptr};
  check_fields(L, arg, kFields);
  if (lua_getfield(L, arg, "position") != LUA_TNIL) out.to_bottom = check_position(L, arg, lua_gettop(L));
  lua_pop(L, 1);
  if (lua_getfield(L, arg, "seen_by") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TTABLE && !lua_isinteger(L, -1))
      luaL_argerror(L, arg, "field 'seen_by' must be a seat or a list of seats");
    out.seen_by = check_seats_at(L, arg, lua_gettop(L));
  }
  lua_pop(L, 1);
}

namespace {

// Lua interns short strings, so the face names a script passes come back
// as the same few string objects: a tiny cache keyed by the object's
// address (lua_topointer, one API call) avoids reading the text and the
// table lookup. The names are the keys of the engine's faces table, so
// each lives as long as the engine: no other value can be at the address
// of one of them, and a hit needs no type check and no strcmp. Only those
// objects are cached (a name too long to be interned is another string
// each time: it is looked up in the table).
FaceId cached_face(lua_State* L, int arg) {
  const void* name = lua_topointer(L, arg);
  const auto& slot = engine(L).face_cache[EngineImpl::face_slot(name)];
  return name && slot.name == name ? slot.id : FaceId::none();
}

}  // namespace

FaceId face_id_of(lua_State* L, int arg) {
  const FaceId cached = cached_face(L, arg);
  if (!cached.is_none()) return cached;
  size_t len = 0;
  if (!lua_tolstring(L, arg, &len)) return FaceId::none();
  EngineImpl& e = engine(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.faces_ref);
  lua_pushvalue(L, arg);
  int isnum = 0;
  lua_rawget(L, -2);
  const FaceId id{static_cast<int>(lua_tointegerx(L, -1, &isnum))};
  lua_pop(L, 2);
  if (!isnum) return FaceId::none();
  const void* name = lua_topointer(L, arg);
  if (e.face_names[id.index()] == name) {
    auto& slot = e.face_cache[EngineImpl::face_slot(name)];
    slot.name = name;
    slot.id = id;
  }
  return id;
}

int check_face_ids(lua_State* L, int first, FaceId* ids, int room) {
  const int last = lua_gettop(L);
  for (int i = first; i <= last; ++i) {
    const FaceId id = check_face_id(L, i);
    if (i - first < room) ids[i - first] = id;
  }
  return last < first ? 0 : last - first + 1;
}

void push_face_counts(lua_State* L, ZoneSlot zone, int first, const FaceId* ids, int count, int room) {
  static_assert(2 * kMaxCountedFaces <= LUA_MINSTACK, "the counts kept fit a C function's stack unchecked");
  const GameState& state = state_of(L);
  if (count > room) {  // rare: more faces than kept, each counted on its own
    luaL_checkstack(L, count, "too many faces");
    for (int i = 0; i < count; ++i)
      lua_pushinteger(L, state.count_showing(zone, i < room ? ids[i] : face_id_of(L, first + i)));
    return;
  }
  // One pass over the zone, whatever the number of faces asked for.
  int counts[kMaxCountedFaces] = {};
  for (const ComponentId component : state.zone(zone)) {
    const FaceId face = state.face_id(component);
    for (int i = 0; i < count; ++i) counts[i] += face == ids[i];
  }
  for (int i = 0; i < count; ++i) lua_pushinteger(L, counts[i]);
}

FaceId check_face_id(lua_State* L, int arg) {
  const FaceId cached = cached_face(L, arg);
  if (!cached.is_none()) return cached;
  if (lua_type(L, arg) != LUA_TSTRING) luaL_typeerror(L, arg, "string");
  const FaceId id = face_id_of(L, arg);
  luaL_argcheck(L, !id.is_none(), arg, lua_pushfstring(L, "no component has a face '%s'", lua_tostring(L, arg)));
  return id;
}

void push_component(lua_State* L, ComponentId id) { push_cached(L, kComponents, id.value()); }
void push_zone(lua_State* L, ZoneSlot slot) { push_cached(L, kZones, slot); }
void push_board(lua_State* L, BoardId board) { push_cached(L, kBoards, board); }

void push_json(lua_State* L, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: lua_pushnil(L); break;
    case nlohmann::json::value_t::boolean: lua_pushboolean(L, v.get<bool>()); break;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: lua_pushinteger(L, v.get<lua_Integer>()); break;
    case nlohmann::json::value_t::number_float: lua_pushnumber(L, v.get<double>()); break;
    case nlohmann::json::value_t::string: lua_pushstring(L, v.get_ref<const std::string&>().c_str()); break;
    case nlohmann::json::value_t::array: {
      lua_createtable(L, static_cast<int>(v.size()), 0);
      int i = 0;
      for (const auto& item : v) {
        push_json(L, item);
        lua_rawseti(L, -2, ++i);
      }
      break;
    }
    case nlohmann::json::value_t::object: {
      lua_createtable(L, 0, static_cast<int>(v.size()));
      for (const auto& [key, item] : v.items()) {
        push_json(L, item);
        lua_setfield(L, -2, key.c_str());
      }
      break;
    }
    default: lua_pushnil(L); break;
  }
}

namespace {

// Lua -> JSON with bounds: a table met again on the path is a cycle, and
// the whole value may hold at most kMaxJsonValues values, so that tables
// shared many times over (each copied where it appears) cannot take
// exponential time. Errors are reported, never raised: C++ objects are
// alive here, and a Lua error would unwind past them.
constexpr size_t kMaxJsonValues = 100000;
constexpr int kMaxJsonDepth = 64;

// Lua -> JSON. With `build` off it only walks what a conversion would
// visit, in the same order and with the same limits, and builds nothing:
// the same answer to "would it convert?" at a fraction of the cost.
struct JsonWalk {
  JsonWalk(lua_State* state, bool building) : L(state), build(building) {}
  lua_State* L;
  bool build;
  size_t values = 0;
  int depth = 0;
  const void* path[kMaxJsonDepth];  // the tables being converted
  std::string error;

  nlohmann::json convert(int index) {
    index = lua_absindex(L, index);
    if (!error.empty()) return nullptr;
    if (++values > kMaxJsonValues) {
      error = fmt::format("more than {} values (a table shared many times over?)", kMaxJsonValues);
      return nullptr;
    }
    const int type = lua_type(L, index);
    if (type == LUA_TTABLE) return table(index);
    if (!build) return nullptr;
    switch (type) {
      case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0;
      case LUA_TNUMBER:
        if (lua_isinteger(L, index)) return static_cast<int64_t>(lua_tointeger(L, index));
        return std::isfinite(lua_tonumber(L, index)) ? nlohmann::json(lua_tonumber(L, index)) : nlohmann::json();
      case LUA_TSTRING: {
        size_t len = 0;
        const char* text = lua_tolstring(L, index, &len);
        return to_valid_utf8(std::string_view(text, len));  // JSON holds UTF-8 only
      }
      case LUA_TUSERDATA: {
        const auto* h = static_cast<const Handle*>(lua_touserdata(L, index));
        if (h->kind == HandleKind::Component) return nlohmann::json{{"component", h->index}};
        if (h->kind == HandleKind::Zone) return nlohmann::json{{"zone", state_of(L).zone_id(h->index)}};
        return nullptr;
      }
      default: return nullptr;
    }
  }

  nlohmann::json table(int index) {
    const void* id = lua_topointer(L, index);
    if (std::find(path, path + depth, id) != path + depth) {
      error = "a table contains itself";
      return nullptr;
    }
    if (depth >= kMaxJsonDepth) {
      error = fmt::format("tables nested deeper than {}", kMaxJsonDepth);
      return nullptr;
    }
    if (!lua_checkstack(L, 6)) {
      error = "tables nested too deep";
      return nullptr;
    }
    path[depth++] = id;
    // A frozen table (game.options, ...) holds its fields in a shadow.
    sandbox_push_contents(L, index);
    index = lua_gettop(L);
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, index));
    bool array = true;
    lua_pushnil(L);
    while (lua_next(L, index)) {
      lua_pop(L, 1);
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
        array = false;
        lua_pop(L, 1);  // one key is enough to know
        break;
      }
    }
    nlohmann::json out;
    if (array && n > 0) {
      if (build) {
        out = nlohmann::json::array();
        out.get_ref<nlohmann::json::array_t&>().reserve(static_cast<size_t>(n));
      }
      for (lua_Integer i = 1; i <= n && error.empty(); ++i) {
        lua_rawgeti(L, index, i);
        if (build) out.push_back(convert(-1));
        else convert(-1);
        lua_pop(L, 1);
      }
    } else {
      if (build) out = nlohmann::json::object();  // keys sorted: deterministic
      lua_pushnil(L);
      while (lua_next(L, index)) {
        // A string key is read as a C string (up to a NUL); an empty name
        // is skipped, as are keys neither strings nor integers.
        const int key_type = lua_type(L, -2);
        const char* name = key_type == LUA_TSTRING ? lua_tostring(L, -2) : nullptr;
        const bool named = name ? name[0] != '\0' : lua_isinteger(L, -2);
        if (named && lua_type(L, -1) != LUA_TFUNCTION && error.empty()) {
          if (build) out[name ? to_valid_utf8(name) : std::to_string(lua_tointeger(L, -2))] = convert(-1);
          else convert(-1);
        }
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);  // the contents
    --depth;
    return out;
  }
};

}  // namespace

bool to_json_checked(lua_State* L, int index, nlohmann::json& out, std::string& error) {
  JsonWalk walk(L, true);
  out = walk.convert(index);
  error = std::move(walk.error);
  return error.empty();
}

bool converts_to_json(lua_State* L, int index, std::string& error) {
  JsonWalk walk(L, false);
  walk.convert(index);
  error = std::move(walk.error);
  return error.empty();
}

nlohmann::json to_json(lua_State* L, int index, int) {
  nlohmann::json out;
  std::string error;
  if (!to_json_checked(L, index, out, error)) throw ScriptError("cannot convert a Lua value to JSON: " + error);
  return out;
}

void add_methods(lua_State* L, const char* metatable, const luaL_Reg* methods, int own_upvalues) {
  static_assert(kOwnUpvalue == kBoards + 1, "a function's own upvalues come after the handle tables");
  EngineImpl& e = engine(L);
  const int own = lua_gettop(L) - own_upvalues + 1;
  luaL_getmetatable(L, metatable);
  lua_getfield(L, -1, "__index");
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.components_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.zones_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.boards_ref);
  for (int i = 0; i < own_upvalues; ++i) lua_pushvalue(L, own + i);
  luaL_setfuncs(L, methods, 3 + own_upvalues);
  lua_settop(L, own - 1);
}

}  // namespace rulebook
