// Components (dice, tiles, cards, pieces, tokens): faces, attributes,
// visibility, facing and moves. Rolling lives in bind_dice.cpp.
#include "core/game_state.hpp"
#include "core/piece.hpp"
#include "core/tile.hpp"
#include "core/zone.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int component_id(lua_State* L) {
  lua_pushinteger(L, check_component(L, 1).value());
  return 1;
}

int component_type(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  lua_pushstring(L, state_of(L).type_of(id).name.c_str());
  return 1;
}

int component_kind(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  lua_pushstring(L, state_of(L).type_of(id).kind.c_str());
  return 1;
}

int component_title(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  lua_pushstring(L, state_of(L).type_of(id).title.c_str());
  return 1;
}

int component_face(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  lua_pushstring(L, state_of(L).face_name(id).c_str());
  return 1;
}

// c:is(face): does it show that face? (cheaper than comparing strings)
int component_is(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const FaceId face = check_face_id(L, 2);
  lua_pushboolean(L, state_of(L).face_id(id) == face);
  return 1;
}

int component_faces(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const auto& faces = state_of(L).type_of(id).faces;
  lua_createtable(L, static_cast<int>(faces.size()), 0);
  for (size_t i = 0; i < faces.size(); ++i) {
    lua_pushstring(L, faces[i].c_str());
    lua_rawseti(L, -2, static_cast<int>(i) + 1);
  }
  return 1;
}

int component_set_face(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const char* face = luaL_checkstring(L, 2);
  GameState& state = state_of(L);
  const int index = state.definition().face_index(state.component(id).type, face);
  luaL_argcheck(L, index >= 0, 2,
                lua_pushfstring(L, "'%s' has no face '%s'", state.type_of(id).name.c_str(), face));
  if (index != state.component(id).face) set_face(state, id, index);
  return 0;
}

// c:turn_over(): the next face (the other side of a two-sided tile).
int component_turn_over(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  GameState& state = state_of(L);
  turn_over(state, id);
  lua_pushstring(L, state.face_name(id).c_str());
  return 1;
}

// c:attr(key). Attributes belong to the definition, so their Lua values
// are kept per type in the engine's cache (built on first read, reused by
// every later game): a read is a table lookup, not a JSON conversion.
// Only values that cannot be changed are kept (a table attribute is built
// fresh on each call, since the rules may write to it), and only keys the
// type has, so the cache stays as small as the definition.
int component_attr(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const char* key = luaL_checkstring(L, 2);
  EngineImpl& e = engine(L);
  GameState& state = state_of(L);
  const int type = state.component(id).type;
  lua_rawgeti(L, LUA_REGISTRYINDEX, e.attrs_ref);
  if (lua_rawgeti(L, -1, type + 1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, type + 1);
  }
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  const auto& attrs = state.type_of(id).attributes;
  auto it = attrs.find(key);
  if (it == attrs.end()) {
    lua_pushnil(L);
    return 1;
  }
  push_json(L, *it);
  if (!it->is_structured() && !it->is_null()) {
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  return 1;
}

int component_zone(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const int zone = state_of(L).component(id).zone;
  if (zone < 0) lua_pushnil(L);
  else push_zone(L, zone);
  return 1;
}

int component_owner(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const Seat owner = state_of(L).component(id).owner;
  if (owner.is_none()) lua_pushnil(L);
  else lua_pushinteger(L, owner.value());
  return 1;
}

int component_set_owner(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const Seat seat = lua_isnoneornil(L, 2) ? Seat::none() : check_seat(L, 2);
  set_owner(state_of(L), id, seat);
  return 0;
}

int component_reveal(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  if (state_of(L).component(id).visibility != Visibility::Public) reveal(state_of(L), id);
  return 0;
}

int component_hide(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  if (state_of(L).component(id).visibility != Visibility::Hidden) hide(state_of(L), id);
  return 0;
}

// c:peek(seat): that player alone learns what the component is.
int component_peek(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const Seat seat = check_seat(L, 2);
  peek(state_of(L), id, seat);
  return 0;
}

int component_is_public(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  lua_pushboolean(L, state_of(L).component(id).visibility == Visibility::Public);
  return 1;
}

int component_known_by(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const Seat seat = check_seat(L, 2);
  lua_pushboolean(L, state_of(L).visible_to(id, seat));
  return 1;
}

int component_facing(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const int facing = state_of(L).component(id).facing;
  if (facing < 0) lua_pushnil(L);
  else lua_pushstring(L, to_string(static_cast<Direction>(facing)));
  return 1;
}

int component_face_to(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const char* name = luaL_checkstring(L, 2);
  Direction d;
  luaL_argcheck(L, parse_direction(name, d), 2, "direction expected (north, east, south, west, northeast, ...)");
  face_to(state_of(L), id, d);
  return 0;
}

// c:move(zone [, "top" | "bottom" | {position =, seen_by =}]): onto the top
// of a zone (or its bottom); `seen_by` seats know it afterwards.
int component_move(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  const int zone = check_zone(L, 2);
  MoveOptions how;
  check_move_options(L, 3, how);
  move_component(state_of(L), id, zone, how);
  return 0;
}

const luaL_Reg kComponentMethods[] = {
    {"id", component_id},
    {"type", component_type},
    {"kind", component_kind},
    {"title", component_title},
    {"face", component_face},
    {"is", component_is},
    {"faces", component_faces},
    {"set_face", component_set_face},
    {"turn_over", component_turn_over},
    {"attr", component_attr},
    {"zone", component_zone},
    {"owner", component_owner},
    {"set_owner", component_set_owner},
    {"reveal", component_reveal},
    {"hide", component_hide},
    {"peek", component_peek},
    {"is_public", component_is_public},
    {"known_by", component_known_by},
    {"facing", component_facing},
    {"face_to", component_face_to},
    {"move", component_move},
    {nullptr, nullptr},
};

}  // namespace

void register_components(lua_State* L) { add_methods(L, "component", kComponentMethods); }

}  // namespace rulebook
