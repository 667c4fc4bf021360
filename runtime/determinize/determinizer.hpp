#pragma once
// Determinizations: full games that agree with everything one seat has
// observed, with what it could not tell apart resampled. Generic: no game
// needs to help.
//
// A determinization is made by replay (the way the runtime forks a game):
// a fresh game on the searching agent's own engine with the true game's
// players, chance seed and recorded answers, which reaches the seat's
// decision exactly as the true game did. There, the identities (type and
// face) of the components the seat has never observed are permuted among
// components of the same kind and start zone, drawn from the agent's
// stream, and the chance stream is reseeded from it too (the true future
// dice are not known either); the search's policy plays on from there.
// Components in a shuffle whose result the seat could not see count as
// unobserved again (the shuffle's order is redrawn with them), whatever it
// saw of them before. Dice rolled where the seat could not see them take
// fresh faces there,
// and the other seats' private answers that are no component are redrawn
// among their options, a draw the seat would have seen otherwise rejected
// (docs/architecture.md, "Every kind of secret").
//
// The replay is checked once per decision (prepare): it must show the seat
// every redacted event it received, and the same options. Permuting at
// the start instead and rejecting replays that show the seat something
// else (the design first considered) is rejected almost always in games
// whose setup picks components by identity before shuffling (Hao Hao sets
// tile types aside, then shuffles the bag: other ids reach the field).
//
// The determinizer never reads the true state: only the definition, the
// seat's own events (redacted, as the agent received them), the answers
// and the chance seed (which says where components went, not which they
// are). The no-peek tests prove it by swapping hidden identities in the
// true game.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "agents/game_cut_off.hpp"
#include "core/rng.hpp"
#include "lua/engine_pool.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"

namespace rulebook {

// What a determinization trades between components: each one's type and
// face, its identity. A snapshot of them, and the permutation that gives
// component i the identity component from[i] had in the snapshot (the
// determinizer's samples, and the worlds the Python door resamples).
using IdentitySnapshot = std::vector<std::pair<int, int>>;

// Into `was` (its capacity kept: a search takes one every simulation).
inline void identities_of(const GameState& state, IdentitySnapshot& was) {
  was.clear();
  was.reserve(static_cast<size_t>(state.component_count()));
  for (ComponentId id : ComponentId::all(state.component_count()))
    was.emplace_back(state.component(id).type, state.component(id).face);
}

inline IdentitySnapshot identities_of(const GameState& state) {
  IdentitySnapshot was;
  identities_of(state, was);
  return was;
}

inline void give_identities(GameState& state, const IdentitySnapshot& was, const std::vector<int>& from) {
  for (ComponentId id : ComponentId::all(state.component_count())) {
    const auto& [type, face] = was[static_cast<size_t>(from[id.index()])];
    Component& c = state.mutable_component(id);
    c.type = type;
    c.face = face;
  }
}

// What plays the simulated game's decisions after the replay: the tree
// policy and the rollout. Throw SearchCutoff to stop the game there (it is
// then scored with the game's evaluation).
class SimulationPolicy {
 public:
  virtual ~SimulationPolicy() = default;
  // `state` is the determinized game's state.
  virtual int choose(const Decision& d, GameState& state) = 0;
};

// One determinization: the generic draw, and the game's own deal when it
// gives a sampling hint (rules.deal_unseen).
struct Sample {
  // Component i takes, at the seat's decision, the identity component
  // identities[i] has there (a permutation among components of the same
  // kind and start zone that the seat never observed).
  std::vector<int> identities;
  // The hint's deal, in the same form, applied at the seat's decision
  // like `identities`; empty when the game gives no hint or it was turned
  // off.
  std::vector<int> dealt;
  // Dice the seat saw no roll of since their last roll it could not see:
  // each takes a fresh face, drawn uniformly from its faces (draw % faces)
  // at the seat's decision, whatever the true roll was.
  std::vector<std::pair<int, uint64_t>> faces;
  // Other seats' private answers that are no component (a number, a word,
  // a position): each replaced by an option drawn uniformly among those the
  // decision offered (answer index in the true game's log, new option),
  // whatever the seat saw of it since. The replay is then checked from the
  // start: the sample is rejected (and the search draws another) unless it
  // shows the seat what it saw; a draw is never put back to the true answer.
  std::vector<std::pair<size_t, int>> answers;
  // Whether the deal is checked: played from the start of the game with
  // `dealt` given before setup, and used only if that replay shows the seat
  // every event it saw and the same options (else the generic draw is
  // played instead). The first Determinizer::kFirstChecked deals of each
  // decision are, and then one in kAuditOneIn, picked by the hint's draw
  // from the bot's stream; after a rejection every deal of the decision is
  // checked, whatever this says.
  bool checked = false;
};

// What the sampling hint did, for diagnostics (SearchStats).
struct HintStats {
  long dealt = 0;     // samples the hint dealt
  long checked = 0;   // of which played from the start and compared with what the seat saw (Sample::checked)
  long rejected = 0;  // of those, the ones whose replay showed the seat something else (generic instead)
  long failures = 0;  // hint calls that failed or answered wrongly (the hint is then turned off)
  std::string problem;  // the first failure or rejection, in words
};

// Called with a warning (a sampling hint turned off or rejected): the CLI
// prints it on stderr. Null by default.
void set_search_warning_handler(std::function<void(const std::string&)> handler);
// Hands a warning to that handler (nothing when there is none).
void search_warning(const std::string& what);

struct SearchCutoff : GameCutOff {
  SearchCutoff() : GameCutOff("search rollout cut off") {}
};

// Answers the first decision with one option and cuts the game off at the
// next: what is scored is the position one decision deep (greedy, and the
// look-ahead of greedy rollouts).
class OneStepPolicy : public SimulationPolicy {
 public:
  explicit OneStepPolicy(int option) : option_(option) {}
  int choose(const Decision&, GameState&) override {
    if (used_) throw SearchCutoff();
    used_ = true;
    return option_;
  }

 private:
  int option_;
  bool used_ = false;
};

class Determinizer {
 public:
  enum class Outcome { Finished, Cutoff, Rejected, Failed };

  explicit Determinizer(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits = {});
  ~Determinizer();

  // A new decision of `seat` in `truth` (what replays it: GameAccess,
  // never its state): `observed` is every event the seat received
  // (redacted JSON, in order), `labels` the options asked. Replays the
  // game once to learn which components the seat has observed.
  void prepare(const TrueGame& truth, Seat seat, const std::vector<nlohmann::json>& observed,
               std::vector<std::string> labels);
  // The same for a searching agent's sealed handle (the record behind it
  // read here, never by the agent).
  void prepare(const GameAccess& seat_side, Seat seat, const std::vector<nlohmann::json>& observed,
               std::vector<std::string> labels) {
    prepare(*seat_side.record_, seat, observed, std::move(labels));
  }
  // The limits a seat's simulations run under (its game's).
  static EngineLimits limits_of(const GameAccess& seat_side) { return seat_side.record_->limits(); }
  // Components whose identity the seat has not observed (ascending ids):
  // never, or not since a roll or shuffle it could not see.
  const std::vector<int>& unobserved() const { return unobserved_; }
  // Whether a determinization resamples anything at all: identities, the
  // faces of dice rolled out of the seat's sight, or private answers.
  bool resamples() const { return !unobserved_.empty() || !free_answers_.empty(); }
  // The answers sample() redraws (indices in the true log, with how many
  // options each decision offered): every other seat's private answer that
  // is no component, whatever the seat saw of it since (a draw it saw
  // otherwise is rejected, never put back to the true answer).
  const std::vector<std::pair<size_t, int>>& free_answers() const { return free_answers_; }
  // Start identities for one determinization (Match::set_start_identities),
  // drawn from `rng`: a function of the definition and the unobserved set
  // only, never of the true identities.
  std::vector<int> sample_identities(Rng& rng) const;
  // The same draw into `into` (capacities kept: a search draws one every simulation).
  void sample_identities(Rng& rng, std::vector<int>& into) const;
  // One determinization: sample_identities, and, when the game defines
  // rules.deal_unseen(game, seat, unseen), the game's own deal of the
  // unseen components. The hint is called on the decision's game with the
  // generic draw already applied, so it never sees a true identity the
  // seat has not observed; its answer must be a permutation of `unseen`
  // within each kind and start zone (else the hint is turned off for the
  // rest of the game, with a warning). Draws nothing more from `rng` when
  // the game has no hint.
  Sample sample(Rng& rng);
  // The same sample into `into`, reusing its vectors' memory.
  void sample(Rng& rng, Sample& into);
  const HintStats& hint_stats() const { return hint_; }
  // Whether sample() may use the game's hint (from the next prepare() on);
  // on by default. `ismcts:hint=0` turns it off, to measure what it brings.
  void use_hint(bool on) { hint_wanted_ = on; }
  // Plays one simulated game with `identities`: replay, rejection, then
  // `policy` from the seat's decision on, with chance from `chance_seed`.
  // With `oracle`, `identities` are the true game's (GameAccess::true_identities),
  // given at the start instead.
  Outcome simulate(const std::vector<int>& identities, uint64_t chance_seed, SimulationPolicy& policy,
                   bool oracle = false);
  // A sample: the hint's deal when there is one, else the generic draw,
  // from the saved decision where there is one. A checked deal
  // (Sample::checked) is played from the start instead and rejected unless
  // its replay shows the seat exactly what it saw (then the generic draw
  // is played instead, the rejection counted, and every later deal of the
  // decision checked).
  Outcome simulate(const Sample& sample, uint64_t chance_seed, SimulationPolicy& policy);
  // The checked deals (Sample::checked): the first kFirstChecked of each
  // decision, then one in kAuditOneIn.
  static constexpr long kFirstChecked = 4;
  static constexpr uint32_t kAuditOneIn = 16;
  // The rejection test the issue first proposed, as a diagnostic: whether a
  // replay from the start with `identities` given to the components from
  // the start shows the seat every event it saw and the same options.
  bool replays_alike(const std::vector<int>& identities);
  // Whether the replay showed the seat exactly what it saw (prepare()).
  bool agrees() const { return agrees_; }
  // After Finished: each seat's share of the win (1/k for k winners).
  // After Cutoff: the game's evaluation (rules.evaluate) per seat, or 1/n
  // for every seat when the game defines none.
  std::vector<double> rewards();
  void rewards(std::vector<double>& into);  // the same, into a kept buffer

  // During a simulation (from the policy's choose): the value for `seat`
  // (rules.evaluate, or the outcome if the game ends) of taking `option`
  // at the decision the simulation asks now, one decision deep. The
  // simulation so far is replayed in a second game on the same identities
  // and chance (forks are by replay), so a look-ahead costs a replay of
  // the whole game: greedy rollouts (rollout=greedy) pay it for every
  // option of every rollout decision. 1/n when the game defines no
  // evaluation and the option does not end it.
  double look_ahead(int option, Seat seat);

  // The simulated game as it stands (after simulate): its estimate of
  // `seat`'s share of the win (rules.evaluate; none when the game defines
  // no evaluation). An error in rules.evaluate stops the game, reported.
  std::optional<double> evaluation(Seat seat) { return active_->evaluation(seat); }
  Match& match() { return *active_; }
  const GameDefinition& definition() const { return *definition_; }
  int players() const { return players_; }

  // What the first simulated game since prepare() that ran over the rules'
  // limits (its time or instruction budget, its memory cap) said, else "".
  // Such a game costs a whole budget, and a runaway script runs away in
  // every simulation that reaches it: the search agents stop searching.
  const std::string& over_limit() const { return over_limit_; }
  // What rules.evaluate said the first time it failed since prepare() (an
  // error, a value outside [0, 1], a decision or a change of the game
  // inside it), else "": a bug of the rules, which the search reports by
  // ending the game with it rather than scoring on without a word.
  const std::string& broken_evaluation() const { return broken_evaluation_; }
  bool same_limits(const EngineLimits& l) const { return l == limits_; }

  // Generic simulations start from the seat's decision saved once per
  // decision (a GameCheckpoint; a simultaneous decision's where it is
  // asked) instead of a replay from the game's start:
  // the same games, cheaper where a replay costs more than copying the Lua
  // heap back. On by default; off replays every simulation (to compare).
  void use_checkpoints(bool on) { checkpoints_wanted_ = on; }
  // Whether this decision's generic simulations restore a checkpoint.
  bool restores() const { return checkpoint_ready_; }
  // Whether the last simulation started from the checkpoint.
  bool last_restored() const;
  // The heap bytes the checkpoint of this decision copies back (0: none).
  size_t checkpoint_bytes() const;
  // Samples that redraw private answers (Sample::answers, and the checked
  // replays of draw_answers) start where the first redrawn answer is asked,
  // saved once per decision: the true answers before it are theirs too.
  // Whether this decision has that checkpoint, and whether the last
  // simulation started from it.
  bool restores_redrawn() const { return redrawn_ready_; }
  bool last_restored_redrawn() const;

 private:
  class Replayer;
  class Observer;
  class SavedPosition;  // saved_position.hpp: paused_, redrawn_at_ and ahead_at_

  std::shared_ptr<const GameDefinition> definition_;
  EngineLimits limits_;
  PooledEngine engine_;
  std::unique_ptr<Match> sim_;
  std::unique_ptr<Replayer> replayer_;
  std::unique_ptr<Observer> observer_;
  int players_ = 0;
  uint64_t seed_ = 0;
  std::vector<std::string> names_;
  std::vector<std::string> labels_;
  std::vector<int> unobserved_;
  std::vector<int> rolled_unseen_;          // dice whose face the seat never saw since their roll
  std::vector<std::pair<size_t, int>> free_answers_;  // (answer index, options) redrawn
  const std::vector<AnswerRecord>* truth_log_ = nullptr;
  std::vector<AnswerRecord> sampled_log_;   // the true answers with a sample's private ones redrawn
  const std::vector<std::pair<int, uint64_t>>* faces_ = nullptr;  // the simulation's redrawn faces
  std::vector<std::vector<int>> groups_;  // unobserved ids by (kind, start zone, rolled), by place
  std::vector<std::vector<int>> group_sources_;  // the same ids by identity
  std::vector<int> group_of_;             // component id -> its group among unobserved, -1 observed
  bool agrees_ = false;
  int has_evaluate_ = -1;                 // unknown / no / yes
  // The simulation under way (look_ahead retraces it).
  size_t truth_answers_ = 0;
  const std::vector<int>* identities_ = nullptr;
  uint64_t chance_seed_ = 0;
  bool oracle_ = false;
  // The look-ahead's own game, made on first use, with an observer of its
  // own. It holds the seat's decision, saved on the first look-ahead of a
  // decision (from a checkpointed simulation), kept while no replay ran on
  // its engine (ahead_ready_).
  std::unique_ptr<Observer> ahead_observer_;
  std::vector<AnswerRecord> ahead_log_;
  std::unique_ptr<SavedPosition> ahead_at_;
  enum class AheadSave { Unknown, Saved, Failed };
  AheadSave ahead_state_ = AheadSave::Unknown;
  bool ahead_ready_ = false;
  bool ahead_checkpoint();
  // Brings `at` to the seat's decision (the true answers up to it,
  // restored when it holds it already), handed over to its replayer at
  // every seat and the options' labels read, and saves it there: whether
  // it did (a decision of the seat alone, or a simultaneous one before any
  // of its seats answers: Replayer::answer_pending asks them after a
  // restore).
  bool bring_to_decision(SavedPosition& at);
  // The hint's game: the decision replayed once per decision, stopped there.
  PooledEngine deal_engine_;
  std::unique_ptr<Match> deal_;
  std::unique_ptr<Replayer> deal_replayer_;
  bool deal_ready_ = false;  // deal_ stands at this decision
  // The seat's decision, replayed once per decision on an engine of its
  // own, paused there and saved: generic simulations restore it.
  std::unique_ptr<SavedPosition> paused_;
  bool checkpoint_ready_ = false;
  bool checkpoints_wanted_ = true;
  // The position where the first redrawn answer is asked (the true
  // answers before it), on an engine of its own, with the number of events
  // the seat was shown until then: checked replays of samples that redraw
  // answers resume there (redrawn_checkpoint.cpp).
  std::unique_ptr<SavedPosition> redrawn_at_;
  bool redrawn_ready_ = false;
  size_t redrawn_from_ = 0;  // the first redrawn answer's index in the log
  size_t redrawn_seen_ = 0;  // the seat's events before it is asked
  Seat redrawn_seat_ = Seat::none();
  void save_redrawn();
  // Whether the simulation run() is asked for (a checked replay of the
  // sampled log) may resume at redrawn_at_: its answers before the first
  // redrawn one are the true game's.
  bool resumes_redrawn(bool at_start, bool checked) const;
  Outcome resume_redrawn(const std::vector<int>& identities, uint64_t chance_seed, SimulationPolicy& policy);
  // Brings `position` to where answer `from` of `log` is asked (the
  // answers before it given, what the seat is shown on the way checked)
  // and saves it there, with the count of the seat's events until then in
  // `seen` and the seat in `held_seat`: whether it holds that position
  // (saved now, or the same as last saved).
  bool save_checked(SavedPosition& position, const std::vector<AnswerRecord>& log, size_t from, Seat& held_seat,
                    size_t& seen);
  // The checked replay of the sampled log, from a position save_checked
  // saved at answer `from` with `seen` events of the seat shown before it.
  Outcome resume_checked(SavedPosition& position, size_t from, size_t seen, const std::vector<int>& identities,
                         uint64_t chance_seed, SimulationPolicy& policy);
  // Where agreeing_options' redrawn answer after the first is asked, the
  // ones before it drawn (one prefix at a time): each option's check
  // resumes there instead of replaying the earlier redrawn answers again.
  std::unique_ptr<SavedPosition> prefix_at_;
  size_t prefix_seen_ = 0;
  Seat prefix_seat_ = Seat::none();
  Match* active_ = nullptr;  // the game the last simulation played (sim_, paused_ or redrawn_at_)
  bool hint_off_ = false;    // the hint failed once: generic sampling for good
  long decision_deals_ = 0;  // deals drawn at this decision (the first ones are checked)
  bool check_every_deal_ = false;  // a checked deal of this decision was rejected
  static constexpr uint64_t kAuditSalt = 0x6175646974ull;  // "audit": which deals are checked
  bool hint_wanted_ = true;
  Seat seat_{0};
  HintStats hint_;
  std::string over_limit_;
  std::string broken_evaluation_;
  void note_over_limit(const ScriptLimitError& e);
  void note_broken_evaluation(const ScriptError& e);
  void hint_problem(const std::string& what, bool turn_off);
  // Replays the true answers on the definition's identities with `r` in
  // every seat, up to the seat's decision (no policy: it stops there).
  bool replay_to_decision(Match& match, Replayer& r);
  Outcome run(const std::vector<int>& identities, uint64_t chance_seed, SimulationPolicy& policy, bool at_start,
              bool checked);
  // Plays a replay with `r` at the seats (`play` starts or resumes it) and
  // says how it ended: finished, cut off by the policy, rejected (it showed
  // the seat something else, or left the game) or failed.
  Outcome replayed(Replayer& r, const std::function<void()>& play);
  // A generic simulation from the saved decision (checkpoint_ready_).
  Outcome resume_saved(const std::vector<int>& identities, uint64_t chance_seed, SimulationPolicy& policy);
  // Replays the decision on paused_ and saves it (prepare()).
  void save_decision();
  // Points `r` at the seat's decision: the true answers up to it, no
  // marking, no redrawn faces (the replays of prepare() and the saves).
  void aim_at_decision(Replayer& r) const;
  // The candidates' private answers, all redrawn (free_answers()).
  void find_free_answers(const std::vector<std::pair<size_t, int>>& candidates);
  // The redrawn answers of one sample (Sample::answers), drawn from `rng`.
  std::vector<std::pair<size_t, int>> draw_answers(Rng& rng);
  // The options of free answer number prefix.size() that agree with what
  // the seat saw until the next free answer is asked, the earlier ones
  // answered `prefix`: checked replays, kept for the decision.
  const std::vector<int>& agreeing_options(const std::vector<int>& prefix);
  std::map<std::vector<int>, std::vector<int>> agreeing_;
  static constexpr size_t kAgreeingCacheLimit = 100000;
};

// A search agent's determinizer at each of its decisions: the one in
// `cache`, made anew when `truth` plays another game definition or under
// other limits, prepared for decision `d` of `seat` (prepare()).
Determinizer& prepare_determinizer(std::unique_ptr<Determinizer>& cache, const GameAccess& truth, Seat seat,
                                   const std::vector<nlohmann::json>& observed, const Decision& d,
                                   bool hint = true, bool checkpoint = true);

}  // namespace rulebook
