// The `game` object: players, zones, boards, messages, scores and the end.
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "core/game_state.hpp"

#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

int game_player_count(lua_State* L) {
  check_game(L, 1);
  lua_pushinteger(L, state_of(L).player_count());
  return 1;
}

// The names' Lua strings are kept by seat in the function's upvalue (a
// table, not the rules'): pushing a name anew hashed it, and allocated it
// again after every checkpoint's full collection had freed it. A kept
// string is used only while it is the seat's name of the game being played.
int game_player_name(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  const std::string& name = state_of(L).player(seat).name;
  size_t length = 0;
  const char* kept =
      lua_rawgeti(L, lua_upvalueindex(kOwnUpvalue), seat.value() + 1) == LUA_TSTRING ? lua_tolstring(L, -1, &length)
                                                                                    : nullptr;
  if (kept && length == name.size() && memcmp(kept, name.data(), length) == 0) return 1;
  lua_pop(L, 1);
  lua_pushstring(L, name.c_str());
  lua_pushvalue(L, -1);
  lua_rawseti(L, lua_upvalueindex(kOwnUpvalue), seat.value() + 1);
  return 1;
}

int game_seats(lua_State* L) {
  check_game(L, 1);
  const int n = state_of(L).player_count();
  lua_createtable(L, n, 0);
  for (int s = 0; s < n; ++s) {
    lua_pushinteger(L, s);
    lua_rawseti(L, -2, s + 1);
  }
  return 1;
}

int game_zone(lua_State* L) {
  check_game(L, 1);
  const char* name = luaL_checkstring(L, 2);
  const GameDefinition& def = *engine(L).def;
  const int zd = def.find_zone_def(name);
  luaL_argcheck(L, zd >= 0 && def.zone_defs[zd].board < 0, 2,
                lua_pushfstring(L, "no zone named '%s'", name));
  int key = 0;
  if (def.zone_defs[zd].per_player) {
    luaL_argcheck(L, !lua_isnoneornil(L, 3), 3,
                  lua_pushfstring(L, "zone '%s' is per player: give a seat", name));
    key = check_seat(L, 3).value();
  }
  push_zone(L, def.zone_slot(zd, key));
  return 1;
}

int game_board(lua_State* L) {
  check_game(L, 1);
  const char* name = luaL_checkstring(L, 2);
  const int b = engine(L).def->find_board(name);
  luaL_argcheck(L, b >= 0, 2, lua_pushfstring(L, "no board named '%s'", name));
  push_board(L, b);
  return 1;
}

int game_components(lua_State* L) {
  check_game(L, 1);
  const GameDefinition& def = *engine(L).def;
  const char* name = luaL_optstring(L, 2, nullptr);
  int type = -1;
  if (name) {
    type = def.find_type(name);
    luaL_argcheck(L, type >= 0, 2, lua_pushfstring(L, "no component named '%s'", name));
  }
  lua_newtable(L);
  int n = 0;
  // The live type: a determinization (or the no-peek test) may have given
  // a component another's identity.
  const GameState& state = state_of(L);
  for (ComponentId id : ComponentId::all(def.component_count())) {
    if (type >= 0 && state.component(id).type != type) continue;
    push_component(L, id);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

int game_listening(lua_State* L) {
  check_game(L, 1);
  lua_pushboolean(L, state_of(L).listening());
  return 1;
}

// Formats arguments from..top with string.format; leaves the text on the stack.
const char* format_text(lua_State* L, int from) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(L, -1, "string");
  lua_getfield(L, -1, "format");
  lua_replace(L, -3);
  lua_pop(L, 1);
  const int n = lua_gettop(L) - 1;  // the arguments' last index
  for (int i = from; i <= n; ++i) lua_pushvalue(L, i);
  lua_call(L, n - from + 1, 1);
  return text_at(L, -1);
}

// game:say(format, ...): a line of narration. Formats only when somebody
// listens, so bulk simulation pays nothing for it.
int game_say(lua_State* L) {
  check_game(L, 1);
  luaL_checkstring(L, 2);
  GameState& state = state_of(L);
  if (!state.listening()) return 0;
  state.message(Seat::none(), format_text(L, 2));
  return 0;
}

// game:say_to(seats, format, ...): a line only those seats (a seat or a
// list of seats) hear; logs and views filter it like any event.
int game_say_to(lua_State* L) {
  check_game(L, 1);
  const SeatMask to = check_seats(L, 2);
  luaL_checkstring(L, 3);
  GameState& state = state_of(L);
  if (!state.listening()) return 0;
  state.message(Seat::none(), format_text(L, 3), to);
  return 0;
}

int game_add_score(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  const int delta = check_int(L, 3);
  int total = 0;
  if (__builtin_add_overflow(state_of(L).player(seat).score, delta, &total))
    return luaL_argerror(L, 3, lua_pushfstring(L, "seat %d's score %d plus %d overflows", seat.value(),
                                              state_of(L).player(seat).score, delta));
  add_score(state_of(L), seat, delta);
  lua_pushinteger(L, state_of(L).player(seat).score);
  return 1;
}

int game_score(lua_State* L) {
  check_game(L, 1);
  const Seat seat = check_seat(L, 2);
  lua_pushinteger(L, state_of(L).player(seat).score);
  return 1;
}

// The fields game:finish reads, in the order it reads them.
enum FinishField { kWinners, kLosers, kSummary, kReason, kDetails, kStats, kReturns, kFinishFields };
constexpr std::string_view kFinishFieldNames[kFinishFields] = {"winners", "losers", "summary", "reason",
                                                               "details", "stats",  "returns"};

// game:finish's table (argument 2), its fields pushed one at a time as
// the function reads them. lua_getfield interned each key anew (a C string
// looked up and compared) to find most fields absent: while the table has
// no metatable, and no Lua code has run since that was seen, a raw read
// with the key's string, kept as game_finish's own upvalue
// kOwnUpvalue + field, finds the same value for less.
struct FinishTable {
  lua_State* L;
  bool raw;

  // Pushes field f's value; returns its type.
  int push(FinishField f) const {
    if (!raw) return lua_getfield(L, 2, kFinishFieldNames[f].data());  // a literal: NUL-terminated
    lua_pushvalue(L, lua_upvalueindex(kOwnUpvalue + f));
    return lua_rawget(L, 2);
  }
};

void read_seats(FinishTable& finish, FinishField field, std::vector<Seat>& out) {
  lua_State* L = finish.L;
  const int table = 2;
  const char* name = kFinishFieldNames[field].data();
  if (finish.push(field) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1)) luaL_argerror(L, table, lua_pushfstring(L, "field '%s' must be a list of seats", name));
  // Length and items through their metamethods: a read-only list will do.
  // A list without any is read raw: the same values, for less.
  const bool raw = !lua_getmetatable(L, -1);
  if (!raw) {
    lua_pop(L, 1);
    finish.raw = false;  // the metamethods may change the finish table
  }
  const lua_Unsigned raw_length = raw ? lua_rawlen(L, -1) : 0;
  if (raw_length > static_cast<lua_Unsigned>(std::numeric_limits<int>::max()))
    luaL_argerror(L, table, "the list's length is not a count");
  const int n = raw ? static_cast<int>(raw_length) : list_length_at(L, table, -1);
  const int players = state_of(L).player_count();
  for (int i = 1; i <= n; ++i) {
    if (raw) lua_rawgeti(L, -1, i);
    else lua_geti(L, -1, i);
    int isnum = 0;
    const lua_Integer s = lua_tointegerx(L, -1, &isnum);
    if (!isnum || s < 0 || s >= players)
      luaL_argerror(L, table, lua_pushfstring(L, "%s[%d] is not a seat", name, i));
    out.push_back(Seat{static_cast<int>(s)});
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

// As analysis/stat_tally.hpp's valid_stat_name (this layer does not see analysis/).
// The most statistics one game gives: each becomes a column of --export
// and a tally of every report.
constexpr size_t kMaxGameStats = 64;

bool is_stat_name(const char* name) {
  const size_t n = strlen(name);
  if (n == 0 || n > 64) return false;
  for (size_t i = 0; i < n; ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && (i == 0 || c < '0' || c > '9')) return false;
  }
  return true;
}

// Converts details (stack top) into r.details; on failure leaves the
// problem on the stack, for the caller's luaL_argerror once the C++
// objects here are gone.
bool finish_details(lua_State* L, GameResult& r, bool keep) {
  char message[256] = "";
  {
    std::string error;
    // Nobody reads them (simulate): checked all the same, built not.
    if (!(keep ? to_json_checked(L, -1, r.details, error) : converts_to_json(L, -1, error))) {
      r.details = nlohmann::json::object();
      snprintf(message, sizeof message, "%s", error.c_str());
    }
  }
  if (!message[0]) return true;
  lua_pushfstring(L, "details: %s", message);
  return false;
}

// Reads stats (stack top, a table) into `out`: finite numbers by names
// that read as stats.NAME. Raises an argument error for anything else.
void read_stats(lua_State* L, std::map<std::string, double>& out) {
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_argerror(L, 2, lua_pushfstring(L, "field 'stats' must map names to numbers, got a %s key",
                                          luaL_typename(L, -2)));
    const char* name = lua_tostring(L, -2);
    if (!is_stat_name(name))
      luaL_argerror(L, 2, lua_pushfstring(L, "stats: '%s' cannot name a statistic (a letter or _, then letters, "
                                             "digits or _, at most 64)", name));
    const double value = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !std::isfinite(value))
      luaL_argerror(L, 2, lua_pushfstring(L, "stats.%s must be a finite number, got %s", name,
                                          lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1)));
    if (out.size() == kMaxGameStats && !out.count(name))
      luaL_argerror(L, 2, lua_pushfstring(L, "stats: more than %d statistics", static_cast<int>(kMaxGameStats)));
    out[name] = value == 0 ? 0.0 : value;
    lua_pop(L, 1);
  }
}

// Reads returns (stack top, a table) into `out`: exactly one finite number
// for each seat, in seat order. Raises an argument error for anything else.
void read_returns(lua_State* L, std::vector<double>& out) {
  const int players = state_of(L).player_count();
  const int n = list_length_at(L, 2, -1);
  if (n != players)
    luaL_argerror(L, 2, lua_pushfstring(L, "field 'returns' must hold a number for each of the %d seats, got %d",
                                        players, n));
  for (int i = 1; i <= n; ++i) {
    lua_geti(L, -1, i);
    const double value = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !std::isfinite(value))
      luaL_argerror(L, 2, lua_pushfstring(L, "returns[%d] (seat %d) must be a finite number, got %s", i, i - 1,
                                          lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1)));
    out.push_back(value == 0 ? 0.0 : value);  // -0 and 0 are one return
    lua_pop(L, 1);
  }
}

// game:finish{winners = {...}, losers = {...}, summary = "...", reason = "...", details = {...}, stats = {...},
//             returns = {...}}
// ends the game at once, wherever the rules are.
int game_finish(lua_State* L) {
  check_game(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  refuse_inside_read_only_call(L, "game:finish");  // before the result changes
  FinishTable finish{L, !lua_getmetatable(L, 2)};
  if (!finish.raw) lua_pop(L, 1);
  GameResult& r = current_game(L).result;
  r.winners.clear();
  r.losers.clear();
  read_seats(finish, kWinners, r.winners);
  read_seats(finish, kLosers, r.losers);
  if (finish.push(kSummary) == LUA_TSTRING) r.summary = text_at(L, -1);
  lua_pop(L, 1);
  const int reason_type = finish.push(kReason);
  if (reason_type != LUA_TNIL && reason_type != LUA_TSTRING)
    luaL_argerror(L, 2, lua_pushfstring(L, "field 'reason' must be a string, got %s", lua_typename(L, reason_type)));
  r.reason = reason_type == LUA_TSTRING ? text_at(L, -1) : "";
  lua_pop(L, 1);
  if (finish.push(kDetails) == LUA_TTABLE && !finish_details(L, r, current_game(L).keep_details))
    return luaL_argerror(L, 2, lua_tostring(L, -1));
  lua_pop(L, 1);
  r.stats.clear();
  const int stats_type = finish.push(kStats);
  if (stats_type != LUA_TNIL && stats_type != LUA_TTABLE)
    luaL_argerror(L, 2, lua_pushfstring(L, "field 'stats' must be a table, got %s", lua_typename(L, stats_type)));
  if (stats_type == LUA_TTABLE) read_stats(L, r.stats);
  lua_pop(L, 1);
  r.returns.clear();
  const int returns_type = finish.push(kReturns);
  if (returns_type != LUA_TNIL && returns_type != LUA_TTABLE)
    luaL_argerror(L, 2, lua_pushfstring(L, "field 'returns' must be a list of numbers, got %s",
                                        lua_typename(L, returns_type)));
  if (returns_type == LUA_TTABLE) read_returns(L, r.returns);
  lua_pop(L, 1);
  r.finished = true;
  GameState& state = state_of(L);
  if (state.listening()) {  // its strings are gone before raise_abort unwinds
    std::string text = r.summary;
    if (text.empty()) {
      for (size_t i = 0; i < r.winners.size(); ++i)
        text += (i ? ", " : "") + state.player(r.winners[i]).name;
      text = r.winners.empty() ? "nobody wins" : text + (r.winners.size() == 1 ? " wins" : " win");
    }
    state.emit(Event::game_end(std::move(text)));
  }
  raise_abort(L, Abort::Finished, "game finished");
}

const luaL_Reg kGameMethods[] = {
    {"player_count", game_player_count},
    {"seats", game_seats},
    {"zone", game_zone},
    {"board", game_board},
    {"components", game_components},
    {"listening", game_listening},
    {"say", game_say},
    {"say_to", game_say_to},
    {"add_score", game_add_score},
    {"score", game_score},
    {nullptr, nullptr},
};

// With the names of the finish table's fields as their own upvalues.
const luaL_Reg kFinishMethods[] = {
    {"finish", game_finish},
    {nullptr, nullptr},
};

// With the names kept by seat as their own upvalue.
const luaL_Reg kKeptNameMethods[] = {
    {"player_name", game_player_name},
    {nullptr, nullptr},
};

}  // namespace

// The message game:finish ends the game with, interned for the state's
// life: a checkpoint's full collection frees the strings no rule holds,
// and every simulation restored from it made it again (a string allocated
// and hashed). The fields' names are game_finish's upvalues.
const char kFinishWordsKept = 0;

void register_game(lua_State* L) {
  add_methods(L, "game", kGameMethods);
  for (const std::string_view name : kFinishFieldNames) lua_pushlstring(L, name.data(), name.size());
  add_methods(L, "game", kFinishMethods, kFinishFields);
  // The kept names, those a game is mostly given from the start (a game of
  // other names keeps them as it reads them): a search's simulations then
  // find them kept even in a heap saved before any was read.
  const GameDefinition& def = *engine(L).def;
  lua_createtable(L, def.max_players, 0);
  for (int seat = 0; seat < def.max_players; ++seat) {
    const std::string name = def.default_name(seat);
    lua_pushstring(L, name.c_str());
    lua_rawseti(L, -2, seat + 1);
  }
  add_methods(L, "game", kKeptNameMethods, 1);
  lua_pushliteral(L, "game finished");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kFinishWordsKept);
}

}  // namespace rulebook
