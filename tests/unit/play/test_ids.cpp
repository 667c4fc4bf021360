// The typed ids (core/ids.hpp): a seat, a component and a face are
// different types that never convert into each other or from or to an int
// without saying so, yet hash, compare, print and serialise as their number.
#include <catch2/catch.hpp>

#include <type_traits>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/event.hpp"
#include "core/game_state.hpp"
#include "core/ids.hpp"
#include "core/visibility.hpp"
#include "play/match.hpp"

using namespace rulebook;

namespace {

template <class A, class B>
constexpr bool converts_either_way = std::is_convertible_v<A, B> || std::is_convertible_v<B, A>;

// The typed ids are kept apart from each other...
static_assert(!converts_either_way<ComponentId, FaceId>);
static_assert(!std::is_assignable_v<ComponentId&, FaceId> && !std::is_assignable_v<FaceId&, ComponentId>);
static_assert(!std::is_constructible_v<ComponentId, FaceId> && !std::is_constructible_v<FaceId, ComponentId>);
static_assert(!converts_either_way<Seat, ComponentId> && !converts_either_way<Seat, FaceId>);
static_assert(!std::is_assignable_v<Seat&, ComponentId> && !std::is_assignable_v<ComponentId&, Seat>);
static_assert(!std::is_assignable_v<Seat&, FaceId> && !std::is_assignable_v<FaceId&, Seat>);
static_assert(!std::is_constructible_v<Seat, ComponentId> && !std::is_constructible_v<ComponentId, Seat>);
static_assert(!std::is_constructible_v<Seat, FaceId> && !std::is_constructible_v<FaceId, Seat>);

// ...and from bare numbers, both ways; explicit construction from the
// number is the way in, .value() the way out. As cheap as the int they hold.
template <class Id>
constexpr bool is_typed_id = !converts_either_way<Id, int> && !converts_either_way<Id, unsigned> &&
                             !converts_either_way<Id, long long> && !converts_either_way<Id, std::size_t> &&
                             !converts_either_way<Id, bool> && !std::is_assignable_v<Id&, int> &&
                             std::is_constructible_v<Id, int> && sizeof(Id) == sizeof(int) &&
                             std::is_trivially_copyable_v<Id>;
static_assert(is_typed_id<ComponentId>);
static_assert(is_typed_id<FaceId>);
static_assert(is_typed_id<Seat>);

// So a seat passed where a component, or a bare count, is expected does not
// compile (detected here rather than written as code that must not build).
template <class S, class = void>
constexpr bool player_takes = false;
template <class S>
constexpr bool player_takes<S, std::void_t<decltype(std::declval<const GameState&>().player(std::declval<S>()))>> =
    true;
template <class C, class S, class = void>
constexpr bool visible_to_takes = false;
template <class C, class S>
constexpr bool visible_to_takes<
    C, S, std::void_t<decltype(std::declval<const GameState&>().visible_to(std::declval<C>(), std::declval<S>()))>> =
    true;
static_assert(player_takes<Seat>);
static_assert(!player_takes<int> && !player_takes<ComponentId> && !player_takes<FaceId>);
static_assert(visible_to_takes<ComponentId, Seat>);
static_assert(!visible_to_takes<Seat, Seat> && !visible_to_takes<ComponentId, ComponentId>);
static_assert(!visible_to_takes<ComponentId, int> && !visible_to_takes<Seat, ComponentId>);
// Across the layers: an agent's seat, a match's view and its seats' agents.
static_assert(std::is_invocable_v<decltype(&Agent::begin_game), Agent&, uint64_t, Seat>);
static_assert(!std::is_invocable_v<decltype(&Agent::begin_game), Agent&, uint64_t, int>);
static_assert(!std::is_invocable_v<decltype(&Agent::begin_game), Agent&, uint64_t, ComponentId>);
static_assert(std::is_invocable_v<decltype(&Match::view), const Match&, Seat>);
static_assert(!std::is_invocable_v<decltype(&Match::view), const Match&, int>);
static_assert(!std::is_invocable_v<decltype(&Match::view), const Match&, FaceId>);
static_assert(!std::is_invocable_v<decltype(&agent_stream_seed), uint64_t, int>);
static_assert(std::is_same_v<decltype(DecisionRequest::seat), Seat> && std::is_same_v<decltype(Event::seat), Seat>);
static_assert(std::is_same_v<decltype(GameResult::winners), std::vector<Seat>>);

}  // namespace

TEST_CASE("typed ids: none, compare, hash, print and JSON as their number", "[ids]") {
  CHECK(FaceId{}.is_none());
  CHECK(FaceId::none().value() == -1);
  CHECK_FALSE(FaceId{0}.is_none());
  CHECK(FaceId{3}.value() == 3);
  CHECK(FaceId{3}.index() == 3u);

  CHECK(FaceId{2} == FaceId{2});
  CHECK(FaceId{2} != FaceId{3});
  CHECK(FaceId{2} < FaceId{3});
  CHECK_FALSE(FaceId{3} < FaceId{2});
  CHECK(FaceId{3} > FaceId{2});
  CHECK(FaceId{2} <= FaceId{2});
  CHECK(FaceId{3} >= FaceId{2});

  std::unordered_set<FaceId> faces{FaceId{1}, FaceId{2}, FaceId{1}};
  CHECK(faces.size() == 2);
  CHECK(faces.count(FaceId{2}) == 1);
  CHECK(faces.count(FaceId{7}) == 0);
  CHECK(std::hash<FaceId>{}(FaceId{5}) == std::hash<int>{}(5));

  CHECK(fmt::format("{}|{:>3}|{}", FaceId{4}, FaceId{12}, FaceId::none()) == "4| 12|-1");

  nlohmann::json j;
  j["face"] = FaceId{6};
  j["faces"] = std::vector<FaceId>{FaceId{1}, FaceId::none()};
  CHECK(j.dump() == R"({"face":6,"faces":[1,-1]})");
  CHECK(j.at("face").get<FaceId>() == FaceId{6});
}

TEST_CASE("typed ids: events say none for what they are not about", "[ids]") {
  const Event shuffle = Event::shuffle(3, 10);
  CHECK(shuffle.component.is_none());
  const Event roll = Event::roll(ComponentId{4}, Seat::none(), 2, 5);
  CHECK(roll.component == ComponentId{4});
  CHECK(roll.component != ComponentId{5});
}

TEST_CASE("typed ids: ranges name every id from the first to the end", "[ids]") {
  std::vector<int> seen;
  for (FaceId f : FaceId::all(3)) seen.push_back(f.value());
  CHECK(seen == std::vector<int>{0, 1, 2});
  seen.clear();
  for (FaceId f : FaceId::range(2, 5)) seen.push_back(f.value());
  CHECK(seen == std::vector<int>{2, 3, 4});
  seen.clear();
  for (FaceId f : FaceId::all(0)) seen.push_back(f.value());
  for (FaceId f : FaceId::range(4, 1)) seen.push_back(f.value());
  CHECK(seen.empty());
}

TEST_CASE("typed ids: Seat::all counts the seats, a seat prints and serialises as its number", "[ids]") {
  std::vector<Seat> seats;
  for (Seat s : Seat::all(4)) seats.push_back(s);
  CHECK(seats == std::vector<Seat>{Seat{0}, Seat{1}, Seat{2}, Seat{3}});
  int n = 0;
  for (Seat s : Seat::all(0)) n += s.value() + 1;
  CHECK(n == 0);
  std::vector<Seat> from_one;
  for (Seat s : Seat::range(1, 3)) from_one.push_back(s);
  CHECK(from_one == std::vector<Seat>{Seat{1}, Seat{2}});
  // A list of seats needs Seat{...} items: std::vector<Seat>{2} would be
  // two default (none) seats, not seat 2.
  CHECK(std::vector<Seat>(2) == std::vector<Seat>{Seat::none(), Seat::none()});

  CHECK(Seat{}.is_none());
  CHECK(Seat::none() != Seat{0});
  CHECK(fmt::format("seat {}, {:>2}, {}", Seat{2}, Seat{3}, Seat::none()) == "seat 2,  3, -1");
  CHECK(seat_bit(Seat{3}) == seat_bit(3));

  nlohmann::json j{{"seat", Seat{1}}, {"winners", std::vector<Seat>{Seat{2}, Seat{0}}}};
  CHECK(j.dump() == R"({"seat":1,"winners":[2,0]})");
  const nlohmann::json back = nlohmann::json::parse(j.dump());
  CHECK(back.at("seat").get<Seat>() == Seat{1});
  CHECK(back.at("winners").get<std::vector<Seat>>() == std::vector<Seat>{Seat{2}, Seat{0}});

  const Event score = Event::score(Seat{2}, 3, 7);
  CHECK(score.seat == Seat{2});
  CHECK(Event::shuffle(3, 10).seat.is_none());
}
