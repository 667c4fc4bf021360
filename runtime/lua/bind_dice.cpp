// Dice: rolling one die, or every die in a zone (a dice pool).
#include "core/game_state.hpp"
#include "core/dice.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

// die:roll() -> the face rolled
int die_roll(lua_State* L) {
  const int id = check_component(L, 1);
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
  const int n = lua_gettop(L);
  // Every face is checked before anything is rolled: a misspelt face
  // leaves the game as it was. The first few are kept, not looked up twice.
  constexpr int kKept = 8;
  FaceId kept[kKept];
  for (int i = 2; i <= n; ++i) {
    const FaceId face = check_face_id(L, i);
    if (i - 2 < kKept) kept[i - 2] = face;
  }
  GameState& state = state_of(L);
  roll_dice(state, zone);
  lua_pushinteger(L, state.zone_size(zone));
  if (n < 2) return 1;
  luaL_checkstack(L, n, "too many faces");
  for (int i = 2; i <= n; ++i)
    lua_pushinteger(L, state.count_showing(zone, i - 2 < kKept ? kept[i - 2] : face_id_of(L, i)));
  return n;
}

const luaL_Reg kDieMethods[] = {{"roll", die_roll}, {nullptr, nullptr}};
const luaL_Reg kPoolMethods[] = {{"roll", zone_roll}, {nullptr, nullptr}};

}  // namespace

void register_dice(lua_State* L) {
  add_methods(L, "component", kDieMethods);
  add_methods(L, "zone", kPoolMethods);
}

}  // namespace rulebook
