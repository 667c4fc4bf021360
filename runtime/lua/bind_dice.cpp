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
int zone_roll(lua_State* L) {
  const int zone = check_zone(L, 1);
  GameState& state = state_of(L);
  roll_dice(state, zone);
  lua_pushinteger(L, state.zone_size(zone));
  return 1;
}

const luaL_Reg kDieMethods[] = {{"roll", die_roll}, {nullptr, nullptr}};
const luaL_Reg kPoolMethods[] = {{"roll", zone_roll}, {nullptr, nullptr}};

}  // namespace

void register_dice(lua_State* L) {
  add_methods(L, "component", kDieMethods);
  add_methods(L, "zone", kPoolMethods);
}

}  // namespace rulebook
