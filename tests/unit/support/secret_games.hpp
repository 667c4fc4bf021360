#pragma once
// What the no-peek tests share (tests/unit/bots/test_no_peek.cpp,
// tests/unit/bots/test_search.cpp and tests/unit/check/test_check_worlds.cpp):
// a bot that reads the true state, the positive control, and games whose
// secret is a private number, a simultaneous bid or a shuffle.
#include <memory>
#include <set>
#include <string>
#include <vector>

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

// The games of the "same view, same choice" tests (tests/unit/bots/test_same_view.cpp),
// which tests/unit/check/test_same_view_games.cpp also runs `rulebook check` on.
inline const char* kTwoPlayers = "players: {min: 2, max: 2}\nscript: rules.lua\n";

// Goofspiel with private numbers (tests/data/private-goofspiel, issue
// 38's example) as the same-view tests play it: three prizes (1, 2, 3),
// each seat bids a number from its hand {1..4} privately, seat 0 then
// seat 1; only who took the prize is told.
inline std::string private_goofspiel_dir() { return std::string(RULEBOOK_TESTS_DIR) + "/data/private-goofspiel"; }
inline const std::vector<std::string> kPrivateGoofspielSets{"options.prizes=3", "options.hand=4"};

// Seat 1 hides at one of five spots; seat 0 searches three times and is
// told "found", "warm" (next to it) or "cold".
inline const char* kHideLua = R"(local rules = {}
function rules.setup(game) game.state.found = false end
function rules.play(game)
  local spot = game:choose(1, 'Hide where?', {1, 2, 3, 4, 5}, {private = true})
  for look = 1, 3 do
    local at = game:choose(0, 'Look where?', {1, 2, 3, 4, 5})
    if at == spot then
      game.state.found = true
      game:say('Found')
      break
    end
    game:say(math.abs(at - spot) == 1 and 'Warm' or 'Cold')
  end
  game:finish{winners = {game.state.found and 0 or 1}}
end
function rules.evaluate(game, seat)
  if game.state.found then return seat == 0 and 1 or 0 end
  return 0.5
end
return rules
)";

// Seat 1 chooses two numbers privately, one after the other; seat 0 guesses
// their sum twice, told "higher", "lower" or "right".
inline const char* kTwoSecretsLua = R"(local rules = {}
function rules.setup(game) game.state.right = false end
function rules.play(game)
  local x = game:choose(1, 'First number', {1, 2, 3}, {private = true})
  local y = game:choose(1, 'Second number', {1, 2, 3}, {private = true})
  for guess = 1, 2 do
    local g = game:choose(0, 'The sum?', {2, 3, 4, 5, 6})
    if g == x + y then
      game.state.right = true
      game:say('Right')
      break
    end
    game:say(g < x + y and 'Higher' or 'Lower')
  end
  game:finish{winners = {game.state.right and 0 or 1}}
end
function rules.evaluate(game, seat)
  if game.state.right then return seat == 0 and 1 or 0 end
  return 0.5
end
return rules
)";

// Six cards, two dealt to each hand; two tricks: seat 0 plays a card, then
// seat 1, the higher takes the trick.
inline const char* kDealtYaml =
    "name: dealt\ntitle: Dealt\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
    "zones:\n  - {name: deck, visibility: hidden}\n  - {name: table, visibility: public}\n"
    "  - {name: hand, per_player: true, visibility: owner}\n"
    "components:\n"
    "  - {name: c1, kind: card, title: One, zone: deck, attributes: {rank: 1}}\n"
    "  - {name: c2, kind: card, title: Two, zone: deck, attributes: {rank: 2}}\n"
    "  - {name: c3, kind: card, title: Three, zone: deck, attributes: {rank: 3}}\n"
    "  - {name: c4, kind: card, title: Four, zone: deck, attributes: {rank: 4}}\n"
    "  - {name: c5, kind: card, title: Five, zone: deck, attributes: {rank: 5}}\n"
    "  - {name: c6, kind: card, title: Six, zone: deck, attributes: {rank: 6}}\n";
inline const char* kDealtLua = R"(local rules = {}
function rules.setup(game) game.state.tricks = {0, 0} end
function rules.play(game)
  local deck = game:zone('deck')
  deck:shuffle()
  for _ = 1, 2 do
    deck:draw(game:zone('hand', 0))
    deck:draw(game:zone('hand', 1))
  end
  for trick = 1, 2 do
    local played = {}
    for seat = 0, 1 do
      local card = game:choose(seat, 'Play a card', game:zone('hand', seat):items())
      card:move(game:zone('table'))
      played[seat] = card:attr('rank')
    end
    local taker = played[0] > played[1] and 0 or 1
    game.state.tricks[taker + 1] = game.state.tricks[taker + 1] + 1
  end
  local t = game.state.tricks
  game:finish{winners = {t[1] > t[2] and 0 or (t[2] > t[1] and 1 or nil)}}
end
function rules.evaluate(game, seat)
  local t = game.state.tricks
  return (t[seat + 1] + 1) / (t[1] + t[2] + 2)
end
return rules
)";

// Each seat rolls a die in its own cup; seat 0 stays or rerolls twice
// (seat 1 rerolls between), then the higher die wins.
inline const char* kCupsYaml =
    "name: cups\ntitle: Cups\nplayers: {min: 2, max: 2}\nscript: rules.lua\n"
    "zones:\n  - {name: box, visibility: public}\n  - {name: cup, per_player: true, visibility: owner}\n"
    "components:\n  - {name: die, kind: die, faces: ['1', '2', '3', '4', '5', '6'], count: 2, zone: box}\n";
inline const char* kCupsLua = R"(local rules = {}
function rules.setup(game) end
local function die(game, seat) return game:zone('cup', seat):top() end
function rules.play(game)
  local box = game:zone('box')
  box:top():move(game:zone('cup', 0))
  box:top():move(game:zone('cup', 1))
  die(game, 0):roll()
  die(game, 1):roll()
  for round = 1, 2 do
    if game:choose(0, 'Reroll?', {'stay', 'reroll'}) == 'reroll' then die(game, 0):roll() end
    if game:choose(1, 'Reroll?', {'stay', 'reroll'}) == 'reroll' then die(game, 1):roll() end
  end
  local a, b = tonumber(die(game, 0):face()), tonumber(die(game, 1):face())
  game:finish{winners = {a > b and 0 or 1}}
end
function rules.evaluate(game, seat)
  local a, b = tonumber(die(game, 0):face()), tonumber(die(game, 1):face())
  local mine = seat == 0 and a or b
  local theirs = seat == 0 and b or a
  return mine > theirs and 0.8 or (mine == theirs and 0.5 or 0.2)
end
return rules
)";

inline const std::string kHideYaml = std::string("name: hide\ntitle: Hide\n") + kTwoPlayers;
inline const std::string kTwoSecretsYaml = std::string("name: two-secrets\ntitle: Two secrets\n") + kTwoPlayers;

}  // namespace rulebook::test
