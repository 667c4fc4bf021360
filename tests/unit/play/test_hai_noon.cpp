// Hai Noon: hands are private (a seat's view shows its own cards and only
// the counts of the others'), and game.state holds public data only.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

void check_hands(const json& view, int seat, int players) {
  const json& zones = view.at("zones");
  for (int s = 0; s < players; ++s) {
    const std::string key = fmt::format("hand@{}", s);
    INFO("view of seat " << seat << ", " << key);
    REQUIRE(zones.contains(key));
    const json& hand = zones.at(key);
    if (s == seat) {
      REQUIRE(hand.contains("components"));
      CHECK(hand.at("components").size() == hand.at("count").get<size_t>());
      for (const auto& c : hand.at("components")) CHECK(c.contains("type"));
    } else {
      CHECK_FALSE(hand.contains("components"));
    }
  }
  // The draw pile shows only its count to everybody.
  CHECK_FALSE(zones.at("deck").contains("components"));
}

}  // namespace

TEST_CASE("hai-noon: a view shows one's own hand and only the count of the others'", "[hai-noon]") {
  for (int players = 2; players <= 4; ++players) {
    Match match(load_game("hai-noon"));  // no agents: every decision pauses
    bool pending = match.start(players, 7);
    for (int step = 0; pending && step < 60; ++step) {
      for (Seat seat : Seat::all(players)) check_hands(match.view(seat), seat.value(), players);
      // Everyone watching (-1) sees every hand's count.
      const json all = match.view(Seat::none());
      for (int s = 0; s < players; ++s) CHECK(all.at("zones").contains(fmt::format("hand@{}", s)));
      // Public data only: no card of any hand is named in game.state.
      CHECK(all.at("state").dump().find("_harpoon") == std::string::npos);
      pending = match.answer(0);
    }
  }
}

TEST_CASE("hai-noon: every side's colour and the owners are public state", "[hai-noon]") {
  Match match(load_game("hai-noon"));
  REQUIRE(match.start(4, 3));
  const json v = match.view(Seat{1});
  REQUIRE(v.contains("state"));
  CHECK(v.at("state").at("owners").at("pink") == 0);
  CHECK(v.at("state").at("side_colours").at("top") == "none");
  // The board: 12 sharks on the ring, 4 divers in the centre.
  int tiles = 0;
  for (const auto& [cell, items] : v.at("boards").at("sea").items()) tiles += static_cast<int>(items.size());
  CHECK(tiles == 16);
}
