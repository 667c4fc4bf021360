#pragma once
// Components shaped by options: a component's `count` and its `faces` may
// follow integer options of the game, so that "N cards" or "a die of S
// sides" is one line of game.yaml whatever N and S a variant or --set
// chooses:
//
//   count: 12                                   a number, as ever
//   count: {option: cards}                      the value of options.cards
//   count: {option: dice, per_player: true}     options.dice for each of players.max seats
//   faces: [heads, tails]                       names, as ever
//   faces: {from: 1, to: {option: sides}}       "1", "2", ..., options.sides
//   count: {option: cards, plus: 2}             options.cards + 2
//   count: {players: true, plus: 1}             one more than the players (Kuhn poker's deck)
//   faces: {from: 1, to: {players: true, plus: 1}}
//   boards: width: {option: size}               a board's width and height follow options too
//
// (`from` and `to` are each a number, {option: NAME} or {players: true},
// each with an optional integer `plus`.) A size that follows the player
// count is resolved for players.max here: the type has that many copies
// and faces; each game puts only players + plus copies in their start
// zone (the rest are out of the game: in no zone), and with `face:
// {in_order: true}` those show the first players + plus faces. The shapes are
// resolved once, from the options after every variant and --set, when the
// definition is built: the runtime and the rules see ordinary components.
// A reference to an option the game does not have, an option that is not
// an integer, or a count or range out of bounds is a SetupError at the
// reference's file:line:col that names the option and where its value was
// set.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rulebook {

struct ShapeLimits {
  static constexpr int kMaxCount = 10000;         // components of one type (as the schema's `count`)
  static constexpr int kMaxFaces = 10000;         // faces of one type
  static constexpr int kMaxFaceNumber = 1000000;  // |from|, |to| of a range
  static constexpr int kMaxBoardSide = 64;        // a board's width or height (as the schema's)
};

class ComponentShapes {
 public:
  // Reports an error at a JSON pointer of the merged document (throws).
  using Fail = std::function<void(const std::string& pointer, const std::string& message)>;
  // Names where a JSON pointer of the merged document was written.
  using Locate = std::function<std::string(const std::string& pointer)>;

  // `setup` is the merged game document (its `options` decide the shapes);
  // `max_players` is players.max, the seats a per_player count is for.
  // `locate` (may be empty) names where an option's value was set.
  // `min_players` (players.min; -1: max_players) bounds a size that
  // follows the player count from below.
  ComponentShapes(const nlohmann::json& setup, int max_players, Fail fail, Locate locate, int min_players = -1);

  // The component at pointer `at` ("/components/3"): how many there are
  // (1 when `count` is not given) and its faces (empty when not given).
  int count(const nlohmann::json& component, const std::string& at) const;
  std::vector<std::string> faces(const nlohmann::json& component, const std::string& at) const;
  // When the component's count follows the player count: its `plus` (the
  // copies in play are players + plus); else nullopt.
  std::optional<int> count_plus_players(const nlohmann::json& component) const;
  // The board at pointer `at` ("/boards/0"): its `key` ("width" or
  // "height"), a number or {option: NAME} (with plus), 1..kMaxBoardSide.
  int board_size(const nlohmann::json& board, const std::string& at, const char* key) const;

 private:
  // A size as written: a number, {option: NAME, plus: K} or {players: true, plus: K}.
  struct Reference {
    long long value = 0;  // for players.max when it follows the player count
    long long least = 0;  // for players.min when it follows the player count, else value
    bool players = false;
    long long plus = 0;
    std::string pointer;  // where it was written (its option, players or plus)
    std::string said;     // "count follows option 'cards' = 6 (set at game.yaml:9:9)"
  };
  // `what` opens its errors ("component 'die': faces' to"), `said_as`
  // (default: what) opens its `said` ("to").
  Reference reference(const nlohmann::json& v, const std::string& pointer, const std::string& what,
                      bool players_allowed, const std::string& said_as = "") const;
  long long plus_of(const nlohmann::json& reference, const std::string& pointer, const std::string& what) const;
  long long option_value(const std::string& name, const std::string& at, const std::string& what) const;
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const;
  std::string set_at(const std::string& name) const;  // " (set at file:line:col)"

  const nlohmann::json& setup_;
  int max_players_;
  int min_players_;
  Fail fail_;
  Locate locate_;
};

// How a component's shape was written, for `rulebook info`:
// "count: options.cards; faces: 1..options.cards", or "" when fixed.
std::string shape_summary(const nlohmann::json& component);

// A face name a range-shaped type may have under some options (a decimal
// integer), so that `display:` may style faces the current options leave out.
bool may_be_range_face(const std::string& face);

}  // namespace rulebook
