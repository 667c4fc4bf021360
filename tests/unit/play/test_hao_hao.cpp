// Hao Hao: what each player's view shows of the field. Face-down tiles are
// hidden from everybody except the players who looked at them; face-up
// tiles are public; a secret look stays in the looker's view.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

// The tile (not Hao Hao) a view shows on a cell, or null.
json tile_in_view(const json& view, const std::string& xy) {
  const json& field = view.at("boards").at("field");
  if (!field.contains(xy)) return json();
  for (const auto& c : field.at(xy))
    if (!(c.contains("type") && c.at("type") == "hao_hao")) return c;
  return json();
}

// Every tile on the field shows its identity to exactly the seats that may
// know it: public tiles to all, hidden ones to the seats that peeked.
void check_field(const GameState& state, const Match& match, const std::string& where) {
  const auto& def = state.definition();
  for (Seat seat : Seat::range(-1, state.player_count())) {
    const json view = match.view(seat);
    for (int slot = 0; slot < def.zone_count(); ++slot) {
      const std::string id = state.zone_id(slot);
      if (id.rfind("field@", 0) != 0) continue;
      for (ComponentId c : state.zone(slot)) {
        if (state.type_of(c).kind != "tile") continue;
        const json shown = tile_in_view(view, id.substr(6));
        INFO(where << ": seat " << seat << " looks at " << id);
        REQUIRE(shown.is_object());
        if (state.visible_to(c, seat)) {
          CHECK(shown.value("type", "") == state.type_of(c).name);
        } else {
          CHECK(shown.value("hidden", false));
          CHECK_FALSE(shown.contains("type"));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("hao-hao: each player's secret look is in their view only", "[hao-hao]") {
  Match match(load_game("hao-hao"));  // no agents: every decision pauses
  const GameState& state = match.state();
  REQUIRE(match.start(3, 11));
  // The three secret looks, seat 0 first: (1,1), (2,1), (3,1).
  for (Seat seat : Seat::all(3)) {
    REQUIRE(match.pending().seat == seat);
    REQUIRE(match.pending().prompt == "Take a secret look at a tile");
    REQUIRE(match.pending().labels.at(seat.index()) == fmt::format("the field ({},1)", seat.value() + 1));
    REQUIRE(match.answer(seat.value()));
  }
  // Seat 2, right of seat 0, places Hao Hao now.
  REQUIRE(match.pending().seat == Seat{2});
  for (Seat seat : Seat::all(3)) {
    const json view = match.view(seat);
    for (int x = 1; x <= 3; ++x) {
      const json tile = tile_in_view(view, fmt::format("{},1", x));
      INFO("seat " << seat << " at (" << x << ",1)");
      if (x == seat.value() + 1) {
        CHECK(tile.contains("type"));
        CHECK(tile.value("known", false));
      } else {
        CHECK(tile.value("hidden", false));
      }
    }
    // Every other tile is face down and hidden.
    CHECK(tile_in_view(view, "5,5").value("hidden", false));
  }
  check_field(state, match, "after the secret looks");
}

TEST_CASE("hao-hao: face-down tiles stay hidden through whole games", "[hao-hao]") {
  for (const auto& variants : std::vector<std::vector<std::string>>{{}, {"full", "advanced"}}) {
    auto def = load_game("hao-hao", LoadOptions{variants, {}});
    for (int players = 2; players <= 6; players += 2) {
      Match match(def);  // no agents: every decision pauses
      const GameState& state = match.state();
      bool pending = match.start(players, 40 + players);
      int face_up_seen = 0;
      for (int step = 0; pending && step < 400; ++step) {
        check_field(state, match, fmt::format("{} players, decision {}: {}", players, step, match.pending().prompt));
        // Count tiles face up in the middle of a turn: they are public.
        for (ComponentId id : ComponentId::all(state.component_count()))
          if (state.type_of(id).kind == "tile" && state.component(id).visibility == Visibility::Public &&
              state.zone_id(state.component(id).zone).rfind("field@", 0) == 0)
            ++face_up_seen;
        const int n = static_cast<int>(match.pending().labels.size());
        pending = match.answer((step * 7 + 3) % n);
      }
      CHECK(face_up_seen > 0);
      // Public state never names a face-down tile's place with its identity
      // unless it was flipped this turn (state.revealed) - check the keys.
      const json st = match.view(Seat{0}).at("state");
      for (const auto& [key, value] : st.items())
        CHECK((key == "revealed" || key == "hao_hao" || key == "sees_all" || key == "won_tiles" ||
               key == "effect_tiles" || key == "round_limit_reached" || key == "hao_hao_winner"));
    }
  }
}
