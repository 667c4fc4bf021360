// Decks: shuffling and drawing, with the discard pile reshuffled into an
// empty draw pile when asked.
#include "core/game_state.hpp"
#include "core/deck.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int deck_shuffle(lua_State* L) {
  const int zone = check_zone(L, 1);
  shuffle_zone(state_of(L), zone);
  return 0;
}

// deck:draw(dest [, discard]) -> the card drawn, or nil when none is left.
// With `discard`, an empty deck is first refilled from it and shuffled.
int deck_draw(lua_State* L) {
  const int deck = check_zone(L, 1);
  const int dest = check_zone(L, 2);
  const int discard = lua_isnoneornil(L, 3) ? -1 : check_zone(L, 3);
  luaL_argcheck(L, dest != deck, 2, "cannot draw into the deck itself");
  const ComponentId card = draw_top(state_of(L), deck, dest, discard);
  if (card.is_none()) lua_pushnil(L);
  else push_component(L, card);
  return 1;
}

const luaL_Reg kDeckMethods[] = {
    {"shuffle", deck_shuffle},
    {"draw", deck_draw},
    {nullptr, nullptr},
};

}  // namespace

void register_decks(lua_State* L) { add_methods(L, "zone", kDeckMethods); }

}  // namespace rulebook
