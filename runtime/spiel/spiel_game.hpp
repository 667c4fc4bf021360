#pragma once
// Any rulebook game in the shape of an OpenSpiel game (`pyspiel`): an
// immutable game that makes states; a state that says who moves, which
// actions are legal, applies one, and is cloned, serialised and resampled.
// The Python module (runtime/python/) is a thin binding of these classes,
// so that everything it does is tested in C++ too.
//
// An action is the index of an option of the decision asked (0-based), as
// in the replay log. Chance is sampled from the state's seed by default,
// like every other rulebook game; with ChanceMode::Explicit every roll and
// every shuffle draw is a chance node (play/explicit_chance.hpp), so that
// exact algorithms (CFR, expectimax) can walk the whole tree.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "lua/rule_engine.hpp"
#include "play/log_file.hpp"

namespace rulebook::spiel {

// OpenSpiel's special player ids, with the same values.
constexpr int kChancePlayer = -1;
constexpr int kSimultaneousPlayer = -2;
constexpr int kInvalidPlayer = -3;
constexpr int kTerminalPlayer = -4;

enum class ChanceMode { Sampled, Explicit };

// A bad action, an unknown player, a call the state cannot answer where it
// stands: the caller's mistake (Python's ValueError).
struct SpielUsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

class SpielState;

struct SpielGameOptions {
  std::string game;  // a bundled game's name or a folder
  int players = 0;   // 0: the game's default
  std::vector<std::string> variants;
  std::vector<std::string> sets;  // "path=value", as --set
  std::vector<std::string> names;
  EngineLimits limits;
};

class SpielGame : public std::enable_shared_from_this<SpielGame> {
 public:
  // Throws SetupError (a YAML or schema mistake), ScriptError (the rules
  // do not load) or SpielUsageError (a player count the game does not take).
  static std::shared_ptr<SpielGame> load(const SpielGameOptions& options);
  ~SpielGame();

  int num_players() const { return players_; }
  const GameDefinition& definition() const { return *definition_; }
  std::shared_ptr<const GameDefinition> definition_ptr() const { return definition_; }
  const GameSpec& spec() const { return spec_; }
  const std::vector<std::string>& names() const { return spec_.names; }

  std::unique_ptr<SpielState> new_initial_state(uint64_t seed, ChanceMode chance = ChanceMode::Sampled);
  // A state from serialize()'s text (a replay log, with "chance" when its
  // chance was explicit), played again to where it was.
  std::unique_ptr<SpielState> deserialize_state(const std::string& text);

  // Every state of the game runs on this one engine (one Lua state, the
  // rules loaded once); the lock is held while any state runs the rules,
  // so states may be used from several threads.
  RuleEngine& engine() { return *engine_; }
  std::mutex& engine_lock() { return engine_lock_; }

 private:
  SpielGame() = default;
  std::shared_ptr<const GameDefinition> definition_;
  GameSpec spec_;
  int players_ = 0;
  std::unique_ptr<RuleEngine> engine_;
  std::mutex engine_lock_;
};

}  // namespace rulebook::spiel
