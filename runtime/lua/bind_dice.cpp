// Dice: rolling one die, or every die in a zone (a dice pool).
#include "core/game_state.hpp"
#include "core/dice.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

// die:roll() -> the face rolled
int die_roll(lua_State* L) {
  const ComponentId id = check_component(L, 1);
  GameState& state = state_of(L);
  roll_die(state, id);
  lua_pushstring(L, state.face_name(id).c_str());
  return 1;
}

// zone:roll() -> how many dice were rolled
// zone:roll(face, ...) -> how many dice were rolled, then how many show
// each face: zone:roll() and zone:count(face, ...) in one call (the same
// rolls, the same events), for rules that read the faces at once.
int zone_roll(lua_State* L) {
  const int zone = check_zone(L, 1);
  // Every face is checked before anything is rolled: a misspelt face
  // leaves the game as it was.
  FaceId faces[kMaxCountedFaces];
  const int count = check_face_ids(L, 2, faces, kMaxCountedFaces);
  GameState& state = state_of(L);
  roll_dice(state, zone);
  lua_pushinteger(L, state.zone_size(zone));
  push_face_counts(L, zone, 2, faces, count, kMaxCountedFaces);
  return count + 1;
}

const luaL_Reg kDieMethods[] = {{"roll", die_roll}, {nullptr, nullptr}};
const luaL_Reg kPoolMethods[] = {{"roll", zone_roll}, {nullptr, nullptr}};

}  // namespace

void register_dice(lua_State* L) {
  add_methods(L, "component", kDieMethods);
  add_methods(L, "zone", kPoolMethods);
}

}  // namespace rulebook
