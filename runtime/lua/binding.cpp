#include <cmath>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int handle_index(lua_State* L, int arg, const char* tname) {
  return *static_cast<int*>(luaL_checkudata(L, arg, tname));
}

void push_cached(lua_State* L, int ref, int index) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_rawgeti(L, -1, index + 1);
  lua_remove(L, -2);
}

}  // namespace

int check_component(lua_State* L, int arg) { return handle_index(L, arg, "component"); }
int check_zone(lua_State* L, int arg) { return handle_index(L, arg, "zone"); }
int check_board(lua_State* L, int arg) { return handle_index(L, arg, "board"); }

void check_game(lua_State* L, int arg) {
  if (!lua_istable(L, arg) || !lua_getmetatable(L, arg)) luaL_typeerror(L, arg, "game");
  luaL_getmetatable(L, "game");
  const bool ok = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!ok) luaL_typeerror(L, arg, "game");
}

int check_seat(lua_State* L, int arg) {
  const lua_Integer seat = luaL_checkinteger(L, arg);
  const int players = context(L)->state->player_count();
  luaL_argcheck(L, seat >= 0 && seat < players, arg,
                lua_pushfstring(L, "seat %d is not in 0..%d", static_cast<int>(seat), players - 1));
  return static_cast<int>(seat);
}

int check_face_id(lua_State* L, int arg) {
  const char* face = luaL_checkstring(L, arg);
  const int id = engine(L).def->face_id(face);
  luaL_argcheck(L, id >= 0, arg, lua_pushfstring(L, "no component has a face '%s'", face));
  return id;
}

void push_component(lua_State* L, int id) { push_cached(L, engine(L).components_ref, id); }
void push_zone(lua_State* L, int slot) { push_cached(L, engine(L).zones_ref, slot); }
void push_board(lua_State* L, int board) { push_cached(L, engine(L).boards_ref, board); }

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

nlohmann::json to_json(lua_State* L, int index, int depth) {
  index = lua_absindex(L, index);
  switch (lua_type(L, index)) {
    case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0;
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) return static_cast<int64_t>(lua_tointeger(L, index));
      return std::isfinite(lua_tonumber(L, index)) ? nlohmann::json(lua_tonumber(L, index)) : nlohmann::json();
    case LUA_TSTRING: return std::string(lua_tostring(L, index));
    case LUA_TUSERDATA: {
      if (luaL_testudata(L, index, "component")) return nlohmann::json{{"component", *static_cast<int*>(lua_touserdata(L, index))}};
      if (luaL_testudata(L, index, "zone"))
        return nlohmann::json{{"zone", context(L)->state->zone_id(*static_cast<int*>(lua_touserdata(L, index)))}};
      return nullptr;
    }
    case LUA_TTABLE: {
      if (depth > 20) return nullptr;
      const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, index));
      bool array = true;
      lua_pushnil(L);
      while (lua_next(L, index)) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) array = false;
      }
      if (array && n > 0) {
        nlohmann::json out = nlohmann::json::array();
        for (lua_Integer i = 1; i <= n; ++i) {
          lua_rawgeti(L, index, i);
          out.push_back(to_json(L, -1, depth + 1));
          lua_pop(L, 1);
        }
        return out;
      }
      nlohmann::json out = nlohmann::json::object();  // keys sorted: deterministic
      lua_pushnil(L);
      while (lua_next(L, index)) {
        std::string key;
        if (lua_type(L, -2) == LUA_TSTRING) key = lua_tostring(L, -2);
        else if (lua_isinteger(L, -2)) key = std::to_string(lua_tointeger(L, -2));
        if (!key.empty() && lua_type(L, -1) != LUA_TFUNCTION) out[key] = to_json(L, -1, depth + 1);
        lua_pop(L, 1);
      }
      return out;
    }
    default: return nullptr;
  }
}

void add_methods(lua_State* L, const char* metatable, const luaL_Reg* methods) {
  luaL_getmetatable(L, metatable);
  lua_getfield(L, -1, "__index");
  luaL_setfuncs(L, methods, 0);
  lua_pop(L, 2);
}

}  // namespace rulebook
