#pragma once
// The "worlds" test of `rulebook check`: a seat must receive the same in
// every world it cannot tell apart from the game played, until the game
// reveals something to it through the API. The rules are played again in
// each world (nothing is exchanged in a live state, no text is judged by
// its words):
// - identity worlds: the components the seat had not seen up to a point of
//   its game (a horizon) exchange identities among those of their kind and
//   start zone; compared up to that horizon;
// - an answers world: the other seats' private answers (no component)
//   redrawn; what the rules tell about them (a message, the narration, a
//   view: "warm", "higher") is theirs to tell, but not a question or an
//   answer the seat sees;
// - chance worlds: every roll and shuffle redrawn (the seed kept).
// Every world replays the game's answers where they are still legal: an
// answer is the option with the same label (its position may move, which
// the seat sees), else, for another seat, the same position. A world whose
// rules take another path (an answer no longer legal) before its horizon
// is skipped and counted.
//
// What a seat receives, line by line: every event it may see (as JSON, as
// event_view.hpp redacts it), the narration of each action, its view at
// each of its decisions and at the end (game.state and rules.describe
// included), every decision it is asked (prompt and labels); the other seats' decisions reach it as
// their answers' events (label and position, unless private). The first line that differs
// between two worlds is a leak unless it is a reveal: an event about a
// component the seat knows (shown, moved where it sees it, rolled in its
// sight), a message said to it alone (game:say_to), its own private
// answer, the game's result, or what the rules say after another seat's
// private decision, up to the end of the action that says it (the decision
// announced, at once or once every sealed bid is in).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lua/rule_engine.hpp"
#include "observation/seat_knowledge.hpp"

namespace rulebook {

// One world: how the game began and the answers it replays.
struct LeakWorld {
  uint64_t seed = 0;
  uint64_t chance = 0;  // nonzero: every roll and shuffle drawn from this stream instead of the seed's
  std::vector<int> identities;  // start identities (empty: the definition's)
  std::vector<AnswerRecord> answers;
  // The chosen option's label of each answer (the game played's); none:
  // replayed by position (a redrawn private answer).
  std::vector<std::optional<std::string>> labels;
  std::string what;  // how it differs from the game played, in words
  size_t horizon = SIZE_MAX;  // lines of the seat's stream compared (SIZE_MAX: all)
  // Only other seats' private answers differ: what the rules tell of them
  // (messages, narration, views) is theirs to tell.
  bool redrawn_answers = false;
};

// A world as a file (`rulebook check GAME --world FILE` plays it again).
nlohmann::json to_json(const LeakWorld& world, Seat seat, int players, const std::vector<std::string>& variants);
// Throws std::runtime_error naming the missing or wrong field.
LeakWorld leak_world_from_json(const nlohmann::json& j);

// What a seat received in a world, line by line.
struct SeatStream {
  std::vector<std::string> lines;
  std::vector<char> reveal;     // line i: 1 reveals something to the seat through the API; 2 the rules tell it
  // What the seat knows (its events are the lines): where it first could see
  // each component (first_seen: the line count then), the other seats'
  // private answers.
  SeatKnowledge knows;
  std::vector<size_t> asked_at; // the line count at each of the seat's decisions
  std::vector<std::string> chosen;  // every answer's chosen label, in order
  // Every choice event: its seat, whether it was asked (options > 1), its prompt.
  struct Step {
    int seat = 0;
    bool asked = false;
    std::string prompt;
    bool operator==(const Step& o) const { return seat == o.seat && asked == o.asked && prompt == o.prompt; }
    bool operator!=(const Step& o) const { return !(*this == o); }
  };
  std::vector<Step> choices;
  bool complete = false;        // played to its end with every answer legal
  size_t stopped_at = SIZE_MAX; // the line count where an answer was no longer legal
  std::string error;            // a script error in this world
};

// Plays `world` and records what `seat` receives. With `path` (the game
// played's stream), the world stops where its decisions leave that path.
SeatStream play_seat_stream(const std::shared_ptr<const GameDefinition>& definition, RuleEngine& engine, int players,
                            const LeakWorld& world, Seat seat, const SeatStream* path = nullptr);

struct LeakWorldsOptions {
  int horizons = 3;       // identity worlds, at points spread over the seat's game (the last at its end)
  int chance_worlds = 1;  // other seeds
};

struct LeakWorldsResult {
  int compared = 0;  // worlds compared with the game played
  int skipped = 0;   // worlds whose rules took another path first
  bool leaked = false;
  size_t line = 0;          // the first line (1-based) where the seat's streams differ
  std::string played_line, world_line;  // that line in each world
  std::string what;         // which hidden fact differs
  LeakWorld world;          // the other world
  LeakWorld played;         // the game played, as a world
};

// Seat `seat` in the game of `seed` whose answers are `answers` (every
// seat's, in order). Plays on `engine` (reused, like the check's).
LeakWorldsResult compare_seat_in_worlds(const std::shared_ptr<const GameDefinition>& definition, RuleEngine& engine,
                                        int players, uint64_t seed, const std::vector<AnswerRecord>& answers, Seat seat,
                                        const LeakWorldsOptions& options = {});

}  // namespace rulebook
