// Zones: ordered collections (piles, hands, dice pools, board cells).
// Position 1 is the top.
#include <vector>

#include "core/game_state.hpp"
#include "core/zone.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int zone_name(lua_State* L) {
  const int zone = check_zone(L, 1);
  const GameDefinition& def = state_of(L).definition();
  lua_pushstring(L, def.zone_defs[def.zone_def_of[zone]].name.c_str());
  return 1;
}

int zone_id(lua_State* L) {
  const int zone = check_zone(L, 1);
  std::vector<std::string>& ids = engine(L).zone_ids;
  if (ids.size() <= static_cast<size_t>(zone)) ids.resize(static_cast<size_t>(zone) + 1);
  std::string& id = ids[static_cast<size_t>(zone)];
  if (id.empty()) id = state_of(L).zone_id(zone);
  lua_pushlstring(L, id.data(), id.size());
  return 1;
}

int zone_title(lua_State* L) {
  const int zone = check_zone(L, 1);
  lua_pushstring(L, state_of(L).zone_title(zone).c_str());
  return 1;
}

int zone_owner(lua_State* L) {
  const int zone = check_zone(L, 1);
  const Seat owner = state_of(L).zone_owner(zone);
  if (owner.is_none()) lua_pushnil(L);
  else lua_pushinteger(L, owner.value());
  return 1;
}

// zone:count() -> number of components
// zone:count(face, ...) -> how many show each face, one result per face
int zone_count(lua_State* L) {
  const int zone = check_zone(L, 1);
  GameState& state = state_of(L);
  const int n = lua_gettop(L);
  if (n < 2) {
    lua_pushinteger(L, state.zone_size(zone));
    return 1;
  }
  FaceId faces[kMaxCountedFaces];
  const int count = check_face_ids(L, 2, faces, kMaxCountedFaces);
  push_face_counts(L, zone, 2, faces, count, kMaxCountedFaces);
  return count;
}

int zone_empty(lua_State* L) {
  const int zone = check_zone(L, 1);
  lua_pushboolean(L, state_of(L).zone_size(zone) == 0);
  return 1;
}

int zone_get(lua_State* L) {
  const int zone = check_zone(L, 1);
  const lua_Integer i = check_integer(L, 2);
  const auto& items = state_of(L).zone(zone);
  const lua_Integer n = static_cast<lua_Integer>(items.size());
  if (i < 1 || i > n) lua_pushnil(L);
  else push_component(L, items[static_cast<size_t>(n - i)]);
  return 1;
}

int zone_top(lua_State* L) {
  const int zone = check_zone(L, 1);
  const auto& items = state_of(L).zone(zone);
  if (items.empty()) lua_pushnil(L);
  else push_component(L, items.back());
  return 1;
}

int zone_bottom(lua_State* L) {
  const int zone = check_zone(L, 1);
  const auto& items = state_of(L).zone(zone);
  if (items.empty()) lua_pushnil(L);
  else push_component(L, items.front());
  return 1;
}

// zone:items() -> array of components, top first
int zone_items(lua_State* L) {
  const int zone = check_zone(L, 1);
  const auto& items = state_of(L).zone(zone);
  const int n = static_cast<int>(items.size());
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; ++i) {
    push_component(L, items[n - 1 - i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

// A face name or a component type name.
ComponentMatch check_matcher(lua_State* L, int arg) {
  ComponentMatch m;
  m.face = face_id_of(L, arg);  // a face name seen before: no text read
  if (!m.face.is_none()) return m;
  const char* name = luaL_checkstring(L, arg);
  m.type = state_of(L).definition().find_type(name);
  luaL_argcheck(L, m.type >= 0, arg, lua_pushfstring(L, "'%s' is neither a face nor a component name", name));
  return m;
}

// zone:find(face_or_type) -> first matching component from the top, or nil
int zone_find(lua_State* L) {
  const int zone = check_zone(L, 1);
  const ComponentMatch m = check_matcher(L, 2);
  const ComponentId found = find_matching(state_of(L), zone, m);
  if (found.is_none()) lua_pushnil(L);
  else push_component(L, found);
  return 1;
}

int zone_contains(lua_State* L) {
  const int zone = check_zone(L, 1);
  const ComponentId id = check_component(L, 2);
  lua_pushboolean(L, state_of(L).component(id).zone == zone);
  return 1;
}

// zone:move_all(dest [, how]) -> number moved (keeps their order); `how`
// as for c:move ("top", "bottom" or {position =, seen_by =}).
int zone_move_all(lua_State* L) {
  const int zone = check_zone(L, 1);
  const int dest = check_zone(L, 2);
  luaL_argcheck(L, dest != zone, 2, "a zone cannot move into itself");
  MoveOptions how;
  check_move_options(L, 3, how);
  lua_pushinteger(L, move_all(state_of(L), zone, dest, how));
  return 1;
}

// zone:move_top(n, dest [, how]) -> number moved
int zone_move_top(lua_State* L) {
  const int zone = check_zone(L, 1);
  const lua_Integer count = luaL_checkinteger(L, 2);
  const int dest = check_zone(L, 3);
  luaL_argcheck(L, count >= 0, 2, "count must not be negative");
  luaL_argcheck(L, dest != zone, 3, "a zone cannot move into itself");
  MoveOptions how;
  check_move_options(L, 4, how);
  lua_pushinteger(L, move_top(state_of(L), zone, clamp_to_int(count), dest, how));
  return 1;
}

// zone:move_matching(face_or_type, dest [, n] [, how]) -> number moved (from the top)
int zone_move_matching(lua_State* L) {
  const int zone = check_zone(L, 1);
  const ComponentMatch m = check_matcher(L, 2);
  const int dest = check_zone(L, 3);
  // (zone, match, dest [, limit] [, how]): one look at argument 4.
  const int fourth = lua_type(L, 4);
  const int how_arg = fourth == LUA_TTABLE || fourth == LUA_TSTRING ? 4 : 5;
  lua_Integer limit = -1;
  if (how_arg == 5 && fourth != LUA_TNONE && fourth != LUA_TNIL) {
    int isnum = 0;
    limit = lua_tointegerx(L, 4, &isnum);
    if (!isnum) limit = luaL_checkinteger(L, 4);  // the standard error
  }
  luaL_argcheck(L, dest != zone, 3, "a zone cannot move into itself");
  MoveOptions how;
  check_move_options(L, how_arg, how);
  lua_pushinteger(L, move_matching(state_of(L), zone, m, dest, limit < 0 ? -1 : clamp_to_int(limit), how));
  return 1;
}

// zone:exchange(other): the two zones swap their contents (each keeps the
// order it had). Returns how many moved each way.
int zone_exchange(lua_State* L) {
  const int zone = check_zone(L, 1);
  const int other = check_zone(L, 2);
  luaL_argcheck(L, other != zone, 2, "a zone cannot exchange with itself");
  const auto [given, taken] = exchange_zones(state_of(L), zone, other);
  lua_pushinteger(L, given);
  lua_pushinteger(L, taken);
  return 2;
}

// zone:cell() -> board, x, y when the zone is a board's cell
int zone_cell(lua_State* L) {
  const int zone = check_zone(L, 1);
  const GameDefinition& def = state_of(L).definition();
  const ZoneDef& z = def.zone_defs[def.zone_def_of[zone]];
  if (z.board < 0) return 0;
  const auto& g = def.boards[z.board].geometry;
  const int cell = def.zone_key_of[zone];
  push_board(L, z.board);
  lua_pushinteger(L, g.x(cell) + 1);
  lua_pushinteger(L, g.y(cell) + 1);
  return 3;
}

const luaL_Reg kZoneMethods[] = {
    {"name", zone_name},
    {"id", zone_id},
    {"title", zone_title},
    {"owner", zone_owner},
    {"count", zone_count},
    {"empty", zone_empty},
    {"get", zone_get},
    {"top", zone_top},
    {"bottom", zone_bottom},
    {"items", zone_items},
    {"find", zone_find},
    {"contains", zone_contains},
    {"move_all", zone_move_all},
    {"move_top", zone_move_top},
    {"move_matching", zone_move_matching},
    {"exchange", zone_exchange},
    {"cell", zone_cell},
    {nullptr, nullptr},
};

}  // namespace

void register_zones(lua_State* L) { add_methods(L, "zone", kZoneMethods); }

}  // namespace rulebook
