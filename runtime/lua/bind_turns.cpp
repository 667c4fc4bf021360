// Turn order: whose turn it is, next and previous seats, rounds, eliminations.
#include "core/game_state.hpp"

#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int opt_seat(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return state_of(L).turns().current();
  return check_seat(L, arg).value();
}

void push_seat_or_nil(lua_State* L, int seat) {
  if (seat < 0) lua_pushnil(L);
  else lua_pushinteger(L, seat);
}

// game:begin_turn(seat): `seat` takes its turn now.
int turns_begin(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  GameRunImpl& game = current_game(L);
  // A scenario's prepare that waits for the first turn (the deal is done).
  if (game.first_turn_prepare_ref != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, game.first_turn_prepare_ref);
    game.first_turn_prepare_ref = LUA_NOREF;  // once
    lua_pushvalue(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, engine(L).rules_ref);
    lua_call(L, 2, 0);
  }
  if (game.turn_limit >= 0 && state_of(L).turns().turns_started() >= game.turn_limit)
    raise_abort(L, Abort::Stopped, "turn limit reached");
  state_of(L).begin_turn(seat);
  return 0;
}

int turns_current(lua_State* L) {
  check_game(L, 1);
  push_seat_or_nil(L, state_of(L).turns().current());
  return 1;
}

int turns_next(lua_State* L) {
  check_game(L, 1);
  const int seat = opt_seat(L, 2);
  push_seat_or_nil(L, seat < 0 ? state_of(L).turns().first() : state_of(L).turns().next(seat));
  return 1;
}

int turns_previous(lua_State* L) {
  check_game(L, 1);
  const int seat = opt_seat(L, 2);
  push_seat_or_nil(L, seat < 0 ? -1 : state_of(L).turns().previous(seat));
  return 1;
}

int turns_first_seat(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().first());
  return 1;
}

int turns_round(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().round());
  return 1;
}

int turns_first_round(lua_State* L) {
  check_game(L, 1);
  lua_pushboolean(L, state_of(L).turns().first_round());
  return 1;
}

int turns_started(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().turns_started());
  return 1;
}

int turns_active_count(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().active_count());
  return 1;
}

int turns_eliminate(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  if (!state_of(L).turns().eliminated(seat.value())) eliminate(state_of(L), seat);
  return 0;
}

// game:reinstate(seat): an eliminated seat plays again (a new round).
int turns_reinstate(lua_State* L) {
  check_game(L, 1);
  reinstate(state_of(L), check_seat(L, 2));
  return 0;
}

int turns_is_eliminated(lua_State* L) {
  check_game(L, 1);
  lua_pushboolean(L, state_of(L).turns().eliminated(check_seat(L, 2).value()));
  return 1;
}

// game:begin_round([first_seat]): a new round of the game (a hand, a
// deal): nobody sits out any more, and the laps of the turn order count
// again from `first_seat` (by default the first seat so far; a game that
// does not play in turns has no first player to name).
int turns_begin_round(lua_State* L) {
  check_game(L, 1);
  const Seat first = lua_isnoneornil(L, 2) ? Seat::none() : check_seat(L, 2);
  begin_round(state_of(L), first);
  return 0;
}

// game:begin_trick([leader]): a new trick of the round (counted from 1
// in each game round), led by `leader` or by nobody (everybody plays at once).
int turns_begin_trick(lua_State* L) {
  check_game(L, 1);
  const Seat leader = lua_isnoneornil(L, 2) ? Seat::none() : check_seat(L, 2);
  begin_trick(state_of(L), leader);
  return 0;
}

int turns_trick(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().trick());
  return 1;
}

// game:begin_phase(name): a named phase of the game ("bidding", "scoring").
int turns_begin_phase(lua_State* L) {
  check_game(L, 1);
  size_t length = 0;
  luaL_checklstring(L, 2, &length);
  luaL_argcheck(L, length > 0 && length <= 64, 2, "a name of 1 to 64 characters expected");
  const char* name = text_at(L, 2);
  lua_tolstring(L, 2, &length);  // the repaired text's length
  begin_phase(state_of(L), std::string(name, length));
  return 0;
}

int turns_phase(lua_State* L) {
  check_game(L, 1);
  const std::string& phase = state_of(L).turns().phase();
  if (phase.empty()) lua_pushnil(L);
  else lua_pushlstring(L, phase.data(), phase.size());
  return 1;
}

int turns_game_round(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).turns().game_round());
  return 1;
}

// game:sit_out(seat): out of this round only (game:eliminate is for the game).
int turns_sit_out(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  if (!state_of(L).turns().sitting_out(seat.value())) sit_out(state_of(L), seat);
  return 0;
}

int turns_is_sitting_out(lua_State* L) {
  check_game(L, 1);
  lua_pushboolean(L, state_of(L).turns().sitting_out(check_seat(L, 2).value()));
  return 1;
}

int turns_set_direction(lua_State* L) {
  check_game(L, 1);
  const lua_Integer d = luaL_checkinteger(L, 2);
  luaL_argcheck(L, d == 1 || d == -1, 2, "1 (clockwise) or -1 expected");
  state_of(L).turns().set_direction(static_cast<int>(d));
  return 0;
}

const luaL_Reg kTurnMethods[] = {
    {"begin_turn", turns_begin},
    {"current_seat", turns_current},
    {"next_seat", turns_next},
    {"previous_seat", turns_previous},
    {"first_seat", turns_first_seat},
    {"round", turns_round},
    {"first_round", turns_first_round},
    {"turns_started", turns_started},
    {"active_count", turns_active_count},
    {"eliminate", turns_eliminate},
    {"is_eliminated", turns_is_eliminated},
    {"reinstate", turns_reinstate},
    {"set_direction", turns_set_direction},
    {"begin_round", turns_begin_round},
    {"game_round", turns_game_round},
    {"begin_trick", turns_begin_trick},
    {"trick", turns_trick},
    {"begin_phase", turns_begin_phase},
    {"phase", turns_phase},
    {"sit_out", turns_sit_out},
    {"is_sitting_out", turns_is_sitting_out},
    {nullptr, nullptr},
};

}  // namespace

void register_turns(lua_State* L) { add_methods(L, "game", kTurnMethods); }

}  // namespace rulebook
