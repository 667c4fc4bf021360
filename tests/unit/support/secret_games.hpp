#pragma once
// What the no-peek tests share (tests/unit/bots/test_no_peek.cpp,
// tests/unit/bots/test_search.cpp and tests/unit/check/test_check_worlds.cpp):
// a bot that reads the true state, the positive control, and games whose
// secret is a private number, a simultaneous bid or a shuffle.
#include <memory>
#include <set>
#include <string>

#include "agents/agent.hpp"
#include "core/rng.hpp"
#include "play/match.hpp"
#include "truth_door.hpp"

namespace rulebook::test {

// Cheats on purpose: its answer depends on what its seat may not know --
// the identity and face of every component hidden from it, where each
// lies, and the other seats' answers, read from the true game.
class TrueStateReader : public Agent {
 public:
  std::string kind() const override { return "peeking"; }
  bool wants_game_access() const override { return true; }
  void attach(const GameAccess* g) override { match_ = TruthDoor::match(g); }
  void begin_game(uint64_t, Seat seat) override { seat_ = seat; }
  int choose(const Decision& d) override {
    const GameState& s = match_->state();
    std::set<int> zones;  // the zones components lie in now
    for (ComponentId id : ComponentId::all(s.component_count()))
      if (s.component(id).zone >= 0) zones.insert(s.component(id).zone);
    uint64_t h = 7;
    for (ComponentId id : ComponentId::all(s.component_count()))
      if (!s.visible_to(id, seat_))
        h = Rng::mix(h, static_cast<uint64_t>(s.component(id).type * 31 + s.component(id).face) * (id.index() + 1));
    // Where each hidden identity lies: the order of a shuffle the seat did
    // not see.
    for (int slot : zones) {
      uint64_t position = 1;
      for (ComponentId id : s.zone(slot))
        if (!s.visible_to(id, seat_)) h = Rng::mix(h, (position++ << 20) + static_cast<uint64_t>(s.component(id).type));
    }
    for (const AnswerRecord& a : match_->answers())
      if (a.seat != seat_) h = Rng::mix(h, static_cast<uint64_t>(a.index + 1));
    // The simultaneous decision under way: the answers given before its own.
    for (const AnswerRecord& a : match_->together_answers())
      if (a.seat != seat_) h = Rng::mix(h, static_cast<uint64_t>(a.index + 101));
    return static_cast<int>(h % static_cast<uint64_t>(d.count()));
  }

 private:
  const Match* match_ = nullptr;
  Seat seat_{0};
};

// A sealed bid: seat 1 seals a number, then seat 0; seat 0 wins with
// exactly one more. A bot that knows seat 1's number bids it plus one.
inline const char* kSealedBidYaml = "name: sealed-bid\ntitle: Sealed bid\nplayers: {min: 2, max: 2}\nscript: rules.lua\n";
inline const char* kSealedBidLua =
    "local rules = {}\n"
    "function rules.setup(game) end\n"
    "function rules.play(game)\n"
    "  local first = game:choose(1, 'Seal a bid', {1, 2, 3, 4, 5}, {private = true})\n"
    "  local second = game:choose(0, 'Seal a bid', {1, 2, 3, 4, 5}, {private = true})\n"
    "  game:say('The bids: %d and %d', second, first)\n"
    "  game:finish{winners = {second == first + 1 and 0 or 1}}\n"
    "end\n"
    "return rules\n";

// Sealed bids at once (game:choose_together), two rounds: seat 1 takes a
// round with exactly one more than seat 0, seat 0 takes it otherwise; only
// who took it is told. Seat 1 is asked after seat 0 has answered: a bot
// at seat 1 that read seat 0's bid would bid it plus one.
inline const char* kTogetherBidYaml = "name: together-bid\ntitle: Together bid\nplayers: {min: 2, max: 2}\nscript: rules.lua\n";
inline const char* kTogetherBidLua =
    "local rules = {}\n"
    "function rules.setup(game) game.state.wins = {0, 0} end\n"
    "function rules.play(game)\n"
    "  for round = 1, 2 do\n"
    "    local bids = game:choose_together({0, 1}, 'Seal a bid', {1, 2, 3, 4, 5})\n"
    "    local winner = bids[1] == bids[0] + 1 and 1 or 0\n"
    "    game.state.wins[winner + 1] = game.state.wins[winner + 1] + 1\n"
    "    game:say('Round %d goes to seat %d', round, winner)\n"
    "  end\n"
    "  local w = game.state.wins\n"
    "  game:finish{winners = {w[2] > w[1] and 1 or 0}}\n"
    "end\n"
    "function rules.evaluate(game, seat)\n"
    "  local w = game.state.wins\n"
    "  return (w[seat + 1] + 1) / (w[1] + w[2] + 2)\n"
    "end\n"
    "return rules\n";

// A shuffle the seat saw the cards of but not the result: four cards lie
// face up on the table, are gathered into the face-down deck and shuffled;
// seat 1 draws the top card, seat 0 the next, and seat 0, once ready, names
// seat 1's card (winning if right). Seat 0 has seen every card, so nothing
// it never observed is hidden: only the shuffle's order is. A bot that
// keeps the cards where the true shuffle put them names seat 1's card.
inline const char* kSeenThenShuffledYaml =
    "name: seen-then-shuffled\ntitle: Seen then shuffled\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
    "zones:\n"
    "  - {name: table, visibility: public}\n"
    "  - {name: deck, visibility: hidden}\n"
    "  - {name: hand, per_player: true, visibility: owner}\n"
    "components:\n"
    "  - {name: ace, kind: card, title: Ace, zone: table}\n"
    "  - {name: king, kind: card, title: King, zone: table}\n"
    "  - {name: queen, kind: card, title: Queen, zone: table}\n"
    "  - {name: jack, kind: card, title: Jack, zone: table}\n";
inline const char* kSeenThenShuffledLua =
    "local rules = {}\n"
    "function rules.setup(game) end\n"
    "function rules.play(game)\n"
    "  local deck = game:zone('deck')\n"
    "  for _, card in ipairs(game:zone('table'):items()) do card:move(deck) end\n"
    "  deck:shuffle()\n"
    "  deck:draw(game:zone('hand', 1))\n"
    "  deck:draw(game:zone('hand', 0))\n"
    "  game:choose(0, 'Ready?', {'yes', 'no'})\n"
    "  local named = game:choose(0, 'Which card did seat 1 draw?', {'ace', 'king', 'queen', 'jack'})\n"
    "  local drawn = game:zone('hand', 1):top():type()\n"
    "  game:finish{winners = {drawn == named and 0 or 1}}\n"
    "end\n"
    "return rules\n";

}  // namespace rulebook::test
