#pragma once
// The seat protocol: how a seat answered from outside the process (a bot
// program over its stdin/stdout, a web page) hears the game and answers.
// One message a line, each a JSON object with a "type":
//
//   runtime -> seat   hello   the game, the seat, the players, the options
//                     event   one event the seat may see, already redacted
//                     decide  a decision: prompt, options with labels, view
//                     undo    decisions from number N on were taken back
//                     end     the game is over: its result
//   seat -> runtime   {"choose": INDEX}   the answer to the last decide
//
// docs/bot-protocol.md describes it for bot authors and
// schemas/bot-protocol/*.json is its JSON Schema; these builders and the
// answer parser are the only code that writes or reads it, whatever the
// transport (a child process, a web connection).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/decision.hpp"
#include "core/ids.hpp"

namespace rulebook {
class GameState;
}

namespace rulebook::seat_protocol {

// Bumped on a change a bot could notice; bots should refuse a version they
// do not know.
constexpr int kVersion = 1;

// What a seat is told about the game it joins.
struct GameInfo {
  std::string game;   // the game's name ("hai-noon")
  std::string title;  // its title, for people
  std::vector<std::string> names;  // player names, in seat order
  nlohmann::json options = nlohmann::json::object();  // game.options after variants and --set
};

// The game a state is set up for (after reset()): name, title, names, options.
GameInfo game_info(const GameState& state);

// `stream_seed` seeds the seat's own randomness (agent_stream_seed): never
// the seed of the game's chance.
nlohmann::json hello(const GameInfo& game, Seat seat, uint64_t stream_seed);
// `event` is event_json(state, event, seat): already redacted for the seat.
nlohmann::json event(const nlohmann::json& redacted_event);
// `number` counts the game's decisions asked of this seat, from 1; an answer
// may name it so that a late answer cannot land on the next decision.
nlohmann::json decide(const DecisionRequest& request, int number);
// Decisions from `number` on (this seat's numbering) were taken back: the
// game is again where this seat's decision `number` is about to be asked.
// `view` is the seat's view there.
nlohmann::json undo(int number, const nlohmann::json& view);
// `result` is the game's result as the log writes it (result_json).
nlohmann::json end(const nlohmann::json& result);

// An answer as read from a seat: the chosen index, or why it was refused.
struct Answer {
  int index = -1;
  std::string error;  // empty when the answer is good
  bool ok() const { return error.empty(); }
};

// Reads one answer line to decision `number` of `option_count` options:
// a JSON object {"choose": INDEX} (0-based), optionally with "decision":
// NUMBER, which must then be `number`. Every refusal says what was wrong
// ("not JSON: ...", "\"choose\" is 7 but there are 3 options (0 to 2)").
Answer parse_answer(std::string_view line, int option_count, int number);
// The same for an answer already parsed as JSON (a web request's body).
Answer check_answer(const nlohmann::json& answer, int option_count, int number);

}  // namespace rulebook::seat_protocol
