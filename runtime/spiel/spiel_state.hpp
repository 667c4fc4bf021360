#pragma once
// One position of a game, OpenSpiel-shaped (spiel_game.hpp). A state is a
// Match paused at a decision (or at a chance node, or over) together with
// the steps that led there, so that it can be played again exactly: a
// clone, a serialised state and a state after a chance outcome are replays
// of those steps on the game's one engine.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "play/explicit_chance.hpp"
#include "play/match.hpp"
#include "spiel/spiel_game.hpp"

namespace rulebook::spiel {

// What each seat has been told so far, one redacted event (JSON) a line:
// its information state, built as the game emits events.
class SeatStreams : public EventSink {
 public:
  void reset(int players) { lines_.assign(players, std::string()); }
  void on_event(const GameState& state, const Event& event) override;
  const std::string& of(Seat seat) const { return lines_[seat.index()]; }

 private:
  std::vector<std::string> lines_;
};

class SpielState {
 public:
  // One step of the game's history: a seat's answer, or a chance outcome
  // (seat none).
  struct Step {
    Seat seat;
    int action = 0;
    int together = 0;  // the simultaneous decision's number, for the log
  };

  // A world the bots' sampler drew (resample_from_infostate): the game's
  // seed and the steps up to a seat's decision (other seats' private
  // answers redrawn), where, as in a determinization, the identities the
  // seat never observed are exchanged, dice it did not see take fresh
  // faces and chance is reseeded; the steps after it follow.
  struct World {
    std::vector<int> start_identities;  // the game's hint's deal, from the start (empty: none)
    std::vector<int> identities;        // exchanged at the decision (empty: none)
    std::vector<std::pair<int, uint64_t>> faces;
    uint64_t chance_seed = 0;
    size_t at = 0;  // how many seats' answers come before the decision
  };

  // A new game, played through `steps` (a clone's, a log's); in `world`
  // when given.
  SpielState(std::shared_ptr<SpielGame> game, uint64_t seed, ChanceMode chance, const std::vector<Step>& steps = {},
             std::shared_ptr<const World> world = nullptr);
  // A state about to receive a fork of another (clone()).
  struct Forked {};
  SpielState(std::shared_ptr<SpielGame> game, uint64_t seed, ChanceMode chance, Forked)
      : game_(std::move(game)), players_(game_->num_players()), seed_(seed), chance_mode_(chance) {}
  ~SpielState();
  SpielState(const SpielState&) = delete;
  SpielState& operator=(const SpielState&) = delete;

  int num_players() const { return players_; }
  ChanceMode chance_mode() const { return chance_mode_; }
  uint64_t seed() const { return seed_; }

  // A seat (0..n-1), kChancePlayer, kSimultaneousPlayer or kTerminalPlayer.
  int current_player() const;
  bool is_terminal() const { return where_ == Where::Terminal; }
  bool is_chance_node() const { return where_ == Where::Chance; }
  bool is_simultaneous_node() const;
  // The seats the game waits for (empty at a chance node or the end).
  std::vector<int> deciding_players() const;

  // The options of `player`'s decision (empty if it has none); at a chance
  // node, kChancePlayer gives the outcomes. Without a player: the current
  // one (an error at a simultaneous node, where each seat has its own).
  std::vector<int> legal_actions(int player) const;
  std::vector<int> legal_actions() const { return legal_actions(current_player_for_actions()); }
  std::string action_to_string(int player, int action) const;
  // The prompt of `player`'s decision, or the chance node's kind.
  std::string prompt(int player) const;
  // (outcome, probability) pairs at a chance node: every outcome equally likely.
  std::vector<std::pair<int, double>> chance_outcomes() const;

  // Applies the current player's action (or a chance outcome). Throws
  // SpielUsageError for an action that is not legal, ScriptError when the
  // rules fail (the state is then as it was before the call).
  void apply_action(int action);
  // At a simultaneous node: one action per seat (kInvalidAction, -1, for a
  // seat that does not decide). Elsewhere: the current player's action.
  void apply_actions(const std::vector<int>& actions);

  // After the end: each seat's return -- the game's own returns when it
  // gives them, else its share of the win (1/k for k winners, 0 for a
  // loss). Zeros before the end.
  std::vector<double> returns() const;
  // Every step so far: seats' actions and chance outcomes, in order.
  std::vector<int> history() const;
  const std::vector<Step>& steps() const { return steps_; }

  // What `player` knows: every event it was told, redacted, in order (its
  // own answers included, others' private answers not), one JSON a line.
  // Two states give a seat the same string exactly when nothing it was
  // shown tells them apart.
  std::string information_state_string(int player) const;
  // What `player` sees now: its view (zones, components it may know,
  // players, the rules' public game.state), as JSON.
  std::string observation_string(int player) const;
  // The whole position as an onlooker who sees everything would see it.
  std::string to_string() const;

  // An independent copy at the same position.
  std::unique_ptr<SpielState> clone() const;
  // A state `player` cannot tell apart from this one, drawn by the sampler
  // the bots use (determinize/determinizer.hpp) from a stream seeded with
  // `seed`: what the player never observed is resampled, never read from
  // this state. At a decision of that player, with sampled chance.
  std::unique_ptr<SpielState> resample_from_infostate(int player, uint64_t seed) const;
  bool is_resampled() const { return world_ != nullptr; }
  // The replay log of the game so far ("chance": the outcomes, when chance
  // is explicit); SpielGame::deserialize_state reads it back.
  std::string serialize() const;

  const Match& match() const { return *match_; }
  const std::shared_ptr<SpielGame>& game() const { return game_; }

 private:
  enum class Where { Decision, Chance, Terminal };
  int current_player_for_actions() const;
  // Plays the game from its start through `steps` (answers, and chance
  // outcomes when explicit). Throws SpielUsageError when they do not fit
  // the game; the state is then at the start.
  void play_steps(const std::vector<Step>& steps);
  // Plays the game again from its start up to steps_ (explicit chance:
  // the outcomes among them), with `extra` listening too.
  void rebuild(EventSink* extra = nullptr);
  // Runs a step of the match (start or answer), noting where it stopped.
  template <typename Fn>
  void advance(Fn&& fn);
  int option_count(Seat seat) const;
  void check_player(int player) const;
  std::vector<int> chance_outcomes_so_far() const;
  // At the world's decision: identities exchanged, faces redrawn, chance reseeded.
  void enter_world();

  std::shared_ptr<SpielGame> game_;
  int players_;
  uint64_t seed_;
  ChanceMode chance_mode_;
  std::vector<Step> steps_;
  std::unique_ptr<ExplicitChance> chance_;
  std::unique_ptr<Match> match_;
  SeatStreams streams_;
  Where where_ = Where::Decision;
  int togethers_ = 0;  // simultaneous decisions answered so far
  std::shared_ptr<const World> world_;
};

}  // namespace rulebook::spiel
