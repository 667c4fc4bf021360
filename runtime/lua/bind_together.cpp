// game:choose_together(seats, prompt, options [, how]): a simultaneous
// decision. Every listed seat picks one of its options without seeing the
// others' answers (sealed bids, drafting, orders written at once); the call
// returns them all: answers[seat] = option, indices[seat] = its number.
//
// `options` is a list for every seat, or a function(seat) returning that
// seat's list, called for each listed seat (in the list's order) before
// anybody is asked. A seat with a single option takes it without asking.
// Synchronous agents are first told their decision (Agent::asked_together:
// a seat answered from outside is asked now, at the same time as the
// others), then answer seat by seat, in ascending order, each with only its
// own decision; seats without an agent make the game wait until every one
// of them has answered (GameRun::answer(seat, index), in any order).
//
// Nothing of an answer shows before the call returns: no event, no view,
// no request carries it (the rules only get them at the end). Then the
// answers are logged in ascending seat order with the decision's number
// (AnswerRecord::together) and recorded as choices, private unless the
// rules said {private = false}: the rules reveal what they choose.
#include <limits>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "lua/decision_options.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

constexpr int kSeats = 2;
// Seat s's options lie in stack slot kLists + s (nil: s is not listed).
constexpr int kLists = kFlags + 1;

int list_slot(Seat seat) { return kLists + seat.value(); }
int option_count(lua_State* L, Seat seat) { return static_cast<int>(lua_rawlen(L, list_slot(seat))); }

// Every answer is in: logged, recorded as choices, and returned.
int finish_together(lua_State* L) {
  GameRunImpl& game = current_game(L);
  const int number = game.together.number;
  for (Seat s : game.together.seats) {
    if (option_count(L, s) < 2) game.together.answers[s.index()] = 0;  // taken without asking
    else if (game.answer_log) game.answer_log->push_back(AnswerRecord{s, game.together.answers[s.index()], number});
  }
  for (Seat s : game.together.seats)
    record_choice_at(L, s, list_slot(s), game.together.answers[s.index()], option_count(L, s));
  const int n = static_cast<int>(game.together.seats.size());
  lua_createtable(L, 0, n);  // answers
  lua_createtable(L, 0, n);  // indices
  for (Seat s : game.together.seats) {
    const int index = game.together.answers[s.index()];
    lua_rawgeti(L, list_slot(s), index + 1);
    lua_rawseti(L, -3, s.value());
    lua_pushinteger(L, index + 1);
    lua_rawseti(L, -2, s.value());
  }
  game.together.seats.clear();
  game.together.answers.clear();
  game.together.number = 0;
  return 2;
}

int together_continue(lua_State* L, int /*status*/, lua_KContext /*unused*/) { return finish_together(L); }

// The listed seats, checked, replace the script's list by a copy of the
// call's own (an options function may change the script's list while the
// call gathers); raises a standard error for an item that is no seat, a
// seat listed twice, or an empty list.
void check_seat_list(lua_State* L) {
  luaL_checktype(L, kSeats, LUA_TTABLE);
  const int n = list_length_at(L, kSeats, kSeats);
  luaL_argcheck(L, n > 0, kSeats, "no seats to ask");
  lua_createtable(L, n, 0);
  seat_list_mask(L, kSeats, kSeats, n, true, -1);
  lua_replace(L, kSeats);
}

// Seat s's options, on top of the stack (a function's answer) or the shared
// list, checked and put in its slot.
void take_options(lua_State* L, Seat seat, bool per_seat) {
  if (per_seat) {
    if (lua_type(L, -1) != LUA_TTABLE)
      luaL_error(L, "bad argument #%d to 'choose_together' (the options of seat %d: a list expected, got %s)",
                 kOptions, seat.value(), luaL_typename(L, -1));
    lua_replace(L, list_slot(seat));
    plain_list(L, kOptions, list_slot(seat));
  } else {
    lua_pushvalue(L, kOptions);
    lua_replace(L, list_slot(seat));
  }
  const lua_Unsigned count = lua_rawlen(L, list_slot(seat));
  if (count == 0)
    luaL_error(L, "bad argument #%d to 'choose_together' (no options to choose from for seat %d)", kOptions,
               seat.value());
  if (count > static_cast<lua_Unsigned>(std::numeric_limits<int>::max()))
    luaL_error(L, "bad argument #%d to 'choose_together' (too many options for seat %d)", kOptions, seat.value());
}

Seat seat_at(lua_State* L, lua_Integer i) {
  lua_rawgeti(L, kSeats, i);
  const Seat seat{static_cast<int>(lua_tointeger(L, -1))};
  lua_pop(L, 1);
  return seat;
}

int ask_together(lua_State* L);
int gather_from(lua_State* L, lua_Integer i);

int gathered_continue(lua_State* L, int /*status*/, lua_KContext i) {
  take_options(L, seat_at(L, i), true);
  return gather_from(L, i + 1);
}

// Puts each listed seat's options in its slot, from the i-th seat of the
// list on; a function of the seat is called for each, in the list's order.
// That function may ask decisions of its own: the game may wait there (a
// seat without an agent, a search's saved decision) and go on from the
// continuation.
int gather_from(lua_State* L, lua_Integer i) {
  const bool per_seat = lua_type(L, kOptions) == LUA_TFUNCTION;
  const auto n = static_cast<lua_Integer>(lua_rawlen(L, kSeats));
  for (; i <= n; ++i) {
    const Seat seat = seat_at(L, i);
    if (per_seat) {
      lua_pushvalue(L, kOptions);
      lua_pushinteger(L, seat.value());
      lua_callk(L, 1, 1, i, gathered_continue);
    }
    take_options(L, seat, per_seat);
  }
  return ask_together(L);
}

int together_choose(lua_State* L) {
  check_game(L, 1);
  check_seat_list(L);
  check_text(L, 3);  // valid UTF-8 in its slot, where ask_together reads it
  luaL_argexpected(L, lua_type(L, kOptions) == LUA_TTABLE || lua_type(L, kOptions) == LUA_TFUNCTION, kOptions,
                   "table or function");
  bool said_private = false;
  lua_Integer f = check_style(L, said_private);
  if (!said_private) f |= kSecret;  // private until the rules tell
  refuse_inside_read_only_call(L, "game:choose_together");
  lua_settop(L, kStyle);
  lua_pushinteger(L, f);  // kFlags
  const int players = state_of(L).player_count();
  luaL_checkstack(L, players + LUA_MINSTACK, "too many seats");
  for (int s = 0; s < players; ++s) lua_pushnil(L);  // the seats' lists
  if (lua_type(L, kOptions) == LUA_TTABLE) plain_list(L, kOptions, kOptions);
  return gather_from(L, 1);
}

// Every listed seat's options are in: the agents are asked, or the game
// waits for the seats without one.
int ask_together(lua_State* L) {
  const char* prompt = lua_tostring(L, 3);
  const lua_Integer f = lua_tointeger(L, kFlags);
  const int players = state_of(L).player_count();
  GameRunImpl& game = current_game(L);
  game.together.seats.clear();
  for (Seat s : Seat::all(players))
    if (!lua_isnil(L, list_slot(s))) game.together.seats.push_back(s);
  game.together.answers.assign(static_cast<size_t>(players), -1);
  bool asked = false;
  for (Seat s : game.together.seats) asked = asked || option_count(L, s) > 1;
  game.together.number = asked ? ++game.together_count : 0;
  if (!asked) return finish_together(L);

  const bool seat_labels = (f & kSeatLabels) != 0;
  // The agents' C++ region: nothing in it raises a Lua error (see game:choose).
  catch_exceptions(L, Abort::Agent, [&] {
    const std::vector<Seat>& seats = game.together.seats;
    std::vector<Decision::LabelFn> labels;
    std::vector<Decision::ViewFn> views;
    std::vector<Decision::TargetFn> targets;
    std::vector<OptionLabels> readers;
    std::vector<Decision> decisions;
    std::vector<Agent*> agents;
    labels.reserve(seats.size());
    views.reserve(seats.size());
    targets.reserve(seats.size());
    readers.reserve(seats.size());
    decisions.reserve(seats.size());
    for (Seat seat : seats) {
      Agent* agent = game.agents[seat.index()];
      if (!agent || option_count(L, seat) < 2) continue;
      const int slot = list_slot(seat);
      labels.emplace_back([L, slot, seat_labels](int i) { return option_label(L, slot, i, seat_labels); });
      views.emplace_back([&game, seat]() { return game.view(seat); });
      targets.emplace_back([L, slot, seat](int i) { return option_target(L, slot, i, seat); });
      decisions.emplace_back(seat, prompt, option_count(L, seat), &labels.back(), &views.back(), &targets.back());
      readers.emplace_back(L, slot, seat_labels);
      decisions.back().set_together(&seats);
      decisions.back().set_label_reader(&readers.back());
      agents.push_back(agent);
    }
    for (size_t k = 0; k < decisions.size(); ++k) {
      const PauseBudget pause(agents[k]->answers_at_once() ? nullptr : L);
      agents[k]->asked_together(decisions[k]);
    }
    for (size_t k = 0; k < decisions.size(); ++k) {
      const Decision& d = decisions[k];
      int index;
      {
        const PauseBudget pause(agents[k]->answers_at_once() ? nullptr : L);
        index = agents[k]->choose(d);
      }
      if (index < 0 || index >= d.count())
        throw AgentFailure(fmt::format("{} agent for seat {} answered {} of {} options", agents[k]->kind(), d.seat(),
                                       index + 1, d.count()));
      game.together.answers[d.seat().index()] = index;
    }
    return 0;
  });

  // The seats without an agent: the game waits for all of them.
  game.pending.clear();
  for (Seat seat : game.together.seats) {
    if (game.agents[seat.index()] || option_count(L, seat) < 2) continue;
    GameRunImpl::Waiting w;
    w.request.seat = seat;
    w.request.prompt = prompt;
    w.request.labels.assign(static_cast<size_t>(option_count(L, seat)), std::string());
    w.request.together = game.together.seats;
    w.request.view = nullptr;
    w.built = game.bare_requests;  // bare: nobody will read them
    w.slot = list_slot(seat);
    game.pending.push_back(std::move(w));
  }
  if (game.pending.empty()) return finish_together(L);
  return lua_yieldk(L, 0, 0, together_continue);
}

const luaL_Reg kTogetherMethods[] = {
    {"choose_together", together_choose},
    {nullptr, nullptr},
};

}  // namespace

void register_together(lua_State* L) { add_methods(L, "game", kTogetherMethods); }

}  // namespace rulebook
