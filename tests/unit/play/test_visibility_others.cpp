// `visibility: others` (issue 40): a zone whose contents everybody sees but
// its owner, a hand held facing out (Hanabi). One rule, GameState::visible_to,
// decides it for views, events, narration and what the rules ask
// (c:known_by), so each is read back here per seat.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "observation/event_recorder.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using nlohmann::json;
using namespace rulebook;
using rulebook::test::TempGame;

namespace {

const char* const kYaml = R"(name: facing-out
title: Facing out
script: rules.lua
players: {min: 2, max: 3, default: 3, names: [Ann, Bob, Cy]}
zones:
  - {name: deck, title: the deck, visibility: hidden}
  - {name: table, title: the table, visibility: public}
  - {name: hand, per_player: true, title: "{player}'s hand", visibility: others}
components:
  - {name: guard, kind: card, title: Guard, count: 2, zone: deck}
  - {name: king, kind: card, title: King, zone: deck}
)";

// Ann draws the King (the top of the deck); what each seat may know of it
// is kept in the result's details; then she plays it.
const char* const kPlay = R"(
  local hand = game:zone("hand", 0)
  game:begin_turn(0)
  game:zone("deck"):top():move(hand)
  local king = hand:top()
  local d = {}
  d.drawn = {king:known_by(0), king:known_by(1), king:known_by(2)}
  game:zone("deck"):top():move(game:zone("hand", 1), {seen_by = 1})
  d.seen = game:zone("hand", 1):top():known_by(1)
  game:choose(1, "Go on", {"yes", "no"})
  king:move(game:zone("table"))
  d.played = {king:known_by(0), king:known_by(1), king:known_by(2)}
  game:finish{details = d}
)";

struct Seats {
  explicit Seats(const TempGame& game) : match(load_game(game.dir())) {
    for (Seat s : Seat::range(-1, 3)) {
      texts.push_back(std::make_unique<std::ostringstream>());
      narrators.push_back(std::make_unique<Narrator>(*texts.back(), s, NarrationStyle{}, NarrationLevel::Full));
      recorders.push_back(std::make_unique<EventRecorder>(s));
      match.add_sink(narrators.back().get());
      match.add_sink(recorders.back().get());
    }
    firsts.resize(3);
    std::vector<Agent*> agents;
    for (auto& a : firsts) agents.push_back(&a);
    match.set_agents(agents);
  }
  std::string narration(int s) const { return texts[static_cast<size_t>(s + 1)]->str(); }
  const std::vector<json>& events(int s) const { return recorders[static_cast<size_t>(s + 1)]->events(); }

  Match match;
  std::vector<std::unique_ptr<std::ostringstream>> texts;
  std::vector<std::unique_ptr<Narrator>> narrators;
  std::vector<std::unique_ptr<EventRecorder>> recorders;
  std::vector<FirstAgent> firsts;
};

// The first move event of the King (component 2), as seat s received it.
json king_drawn(const Seats& t, int s) {
  for (const auto& e : t.events(s))
    if (e.at("type") == "move" && e.at("to") == "hand@0") return e;
  return json();
}

}  // namespace

TEST_CASE("others: everybody sees a card held facing out but its owner", "[visibility][others]") {
  TempGame game(kYaml, rulebook::test::rules_lua(kPlay));
  Seats t(game);
  GameResult r = t.match.play(3, 1);
  for (auto& n : t.narrators) n->flush();
  REQUIRE(r.finished);
  CHECK(r.details.at("drawn") == json({false, true, true}));
  // Seen as it moved (seen_by): the owner knows it in an `others` hand too.
  CHECK(r.details.at("seen") == true);
  // Played face up: everybody.
  CHECK(r.details.at("played") == json({true, true, true}));

  // Events: Ann's names no component; Bob's and Cy's name the King.
  CHECK(king_drawn(t, 0).at("component").is_null());
  CHECK(king_drawn(t, 1).at("name") == "king");
  CHECK(king_drawn(t, 2).at("name") == "king");
  CHECK(king_drawn(t, -1).at("name") == "king");
  // Narration: Ann reads that a card came to her hand, the others which.
  CHECK(t.narration(0).find("a card moves from the deck to Ann's hand") != std::string::npos);
  CHECK(t.narration(0).find("King moves from the deck to Ann's hand") == std::string::npos);
  CHECK(t.narration(1).find("King moves from the deck to Ann's hand") != std::string::npos);
  CHECK(t.narration(2).find("King moves from the deck to Ann's hand") != std::string::npos);
}

TEST_CASE("others: a seat's view shows the other hands and hides its own", "[visibility][others]") {
  TempGame game(kYaml, rulebook::test::rules_lua(R"(
  game:zone("deck"):top():move(game:zone("hand", 0))
  game:zone("deck"):top():move(game:zone("hand", 1))
  game:choose(0, "Look", {"a", "b"})
  game:finish{}
)"));
  Match match(load_game(game.dir()));
  json views[3];
  struct Looker : Agent {
    Match* m;
    json* views;
    std::string kind() const override { return "looker"; }
    int choose(const Decision&) override {
      for (int s = 0; s < 3; ++s) views[s] = m->view(Seat{s});
      return 0;
    }
  } looker;
  looker.m = &match;
  looker.views = views;
  FirstAgent first;
  match.set_agents({&looker, &first, &first});
  REQUIRE(match.play(3, 1).finished);
  auto hand = [&](int viewer, int owner) {
    return views[viewer].at("zones").at("hand@" + std::to_string(owner));
  };
  // Ann's own card: counted, not shown; Bob's: shown to Ann.
  CHECK(hand(0, 0).at("count") == 1);
  CHECK_FALSE(hand(0, 0).contains("components"));
  CHECK(hand(0, 1).at("components").at(0).at("type") == "guard");
  // Bob sees Ann's King and not his own Guard; Cy sees both.
  CHECK(hand(1, 0).at("components").at(0).at("type") == "king");
  CHECK_FALSE(hand(1, 1).contains("components"));
  CHECK(hand(2, 0).at("components").at(0).at("type") == "king");
  CHECK(hand(2, 1).at("components").at(0).at("type") == "guard");
}
