// The determinizer's simulations: a sample played out from the seat's
// decision under the search's policy, a look-ahead one decision deep, the
// rewards at the end, and the runaway rules that stop a search.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "determinize/determinizer.hpp"
#include "determinize/saved_position.hpp"
#include "determinize/seat_replay.hpp"

namespace rulebook {

Determinizer::Outcome Determinizer::simulate(const std::vector<int>& identities, uint64_t chance_seed,
                                             SimulationPolicy& policy, bool oracle) {
  if (!oracle && checkpoint_ready_) return resume_saved(identities, chance_seed, policy);
  return run(identities, chance_seed, policy, oracle, false);
}

Determinizer::Outcome Determinizer::simulate(const Sample& sample, uint64_t chance_seed, SimulationPolicy& policy) {
  // Redrawn private answers: the replay follows them, checked.
  struct Restore {
    Determinizer& d;
    ~Restore() {
      d.replayer_->log = d.truth_log_;
      d.faces_ = nullptr;
      d.replayer_->faces = nullptr;
    }
  } restore{*this};
  const bool redrawn = !sample.answers.empty();
  if (redrawn) {
    sampled_log_ = *truth_log_;
    for (const auto& [at, index] : sample.answers) sampled_log_[at].index = index;
    replayer_->log = &sampled_log_;
  }
  faces_ = sample.faces.empty() ? nullptr : &sample.faces;
  replayer_->faces = faces_;
  // A deal permutes components the seat never observed, within kind and
  // start zone, like the generic draw: it is applied at the seat's
  // decision as the generic draw is (restored, or replayed to), so
  // checkpoint=0 and =1 play the same games. The checked deals
  // (Sample::checked, and every deal of a decision where a checked one
  // was rejected) are played from the start instead, given before setup,
  // with the seat's events compared.
  bool deal_used = !sample.dealt.empty();
  if (deal_used && (sample.checked || check_every_deal_)) {
    ++hint_.checked;
    const Outcome outcome = run(sample.dealt, chance_seed, policy, true, true);
    if (outcome != Outcome::Rejected) return outcome;
    deal_used = false;
    ++hint_.rejected;
    check_every_deal_ = true;  // this decision's deals are all checked from now on
    // A deal the replay contradicts now and then is what the check is
    // for (Hao Hao's advanced tiles decide which questions a seat was
    // asked): noted, said aloud only once most deals are.
    const std::string what = fmt::format("{}: rules.deal_unseen(game, {}) dealt the unseen components so that a "
                                         "replay showed seat {} something it did not see",
                                         definition_->name, seat_, seat_);
    if (hint_.problem.empty()) hint_.problem = what + "; that deal was not used (generic sampling instead)";
    if (hint_.rejected == 10 && 2 * hint_.rejected > hint_.checked)
      hint_problem(fmt::format("{}; {} of its {} checked deals were not used (generic sampling instead)", what,
                               hint_.rejected, hint_.checked),
                   false);
    // A hint whose checked deals are mostly rejected only costs replays.
    if (hint_.rejected >= 20 && 2 * hint_.rejected > hint_.checked)
      hint_problem(fmt::format("{}: rules.deal_unseen: {} of its {} checked deals were rejected; the hint is turned off",
                               definition_->name, hint_.rejected, hint_.checked),
                   true);
  }
  const std::vector<int>& identities = deal_used ? sample.dealt : sample.identities;
  if (!redrawn && checkpoint_ready_) return resume_saved(identities, chance_seed, policy);
  return run(identities, chance_seed, policy, false, redrawn);
}

Determinizer::Outcome Determinizer::resume_saved(const std::vector<int>& identities, uint64_t chance_seed,
                                                 SimulationPolicy& policy) {
  // The same game as run() plays for a generic sample (it replays the
  // true answers on the definition's identities, unchecked, to the same
  // decision), from the saved decision instead.
  Replayer& r = paused_->replayer();
  r.check = false;
  r.resume_at(truth_log_, r.switch_at, policy, chance_seed, &identities, faces_);
  identities_ = &identities;
  chance_seed_ = chance_seed;
  oracle_ = false;
  Match& m = paused_->match();
  active_ = &m;
  paused_->service().restore();
  return replayed(r, [&] { r.answer_pending(m); });
}

bool Determinizer::last_restored() const { return paused_ && active_ == &paused_->match(); }

size_t Determinizer::checkpoint_bytes() const {
  return checkpoint_ready_ ? paused_->service().snapshot_bytes() : 0;
}

bool Determinizer::replays_alike(const std::vector<int>& identities) {
  struct Stop : SimulationPolicy {
    int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
  } stop;
  return run(identities, 0, stop, true, true) == Outcome::Cutoff;
}

Determinizer::Outcome Determinizer::run(const std::vector<int>& identities, uint64_t chance_seed,
                                        SimulationPolicy& policy, bool at_start, bool checked) {
  Replayer& r = *replayer_;
  active_ = sim_.get();
  r.policy = &policy;
  r.check = checked;  // else the replay is the one prepare() checked
  identities_ = &identities;
  chance_seed_ = chance_seed;
  oracle_ = at_start;
  r.chance_seed = chance_seed;
  r.draws.reseed(chance_seed, kAgentStream);
  r.cursor = 0;
  r.handed_over = false;
  r.rejected = false;
  r.stopped = false;
  r.identities = at_start ? nullptr : &identities;
  if (resumes_redrawn(at_start, checked)) return resume_redrawn(identities, chance_seed, policy);
  if (checked) {
    observer_->learn(false);
    observer_->expect_again();
    sim_->add_sink(observer_.get());
  }
  sim_->set_agents(std::vector<Agent*>(static_cast<size_t>(players_), replayer_.get()));
  sim_->set_start_identities(at_start ? identities : std::vector<int>{});
  const Outcome outcome = replayed(r, [&] { sim_->start(players_, seed_, names_); });
  if (checked) sim_->clear_sinks();
  return outcome;
}

Determinizer::Outcome Determinizer::replayed(Replayer& r, const std::function<void()>& play) {
  try {
    play();
    if (!r.handed_over) return Outcome::Rejected;  // the game ended before the seat's decision
    return Outcome::Finished;
  } catch (const GameCutOff&) {  // the policy's SearchCutoff, rethrown by the rules engine
    return Outcome::Cutoff;
  } catch (const AgentFailure&) {
    if (r.rejected) return Outcome::Rejected;
    if (r.stopped) return !observer_->agrees() ? Outcome::Rejected : Outcome::Cutoff;
    return Outcome::Failed;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    return Outcome::Failed;
  } catch (const ScriptError&) {
    return r.handed_over ? Outcome::Failed : Outcome::Rejected;
  } catch (const std::out_of_range&) {  // the policy answered no option
    return Outcome::Failed;
  }
}

bool Determinizer::ahead_checkpoint() {
  if (ahead_state_ != AheadSave::Unknown && ahead_ready_) return ahead_state_ == AheadSave::Saved;
  // The decision brought on the look-ahead's engine and saved, as
  // save_decision does on paused_.
  ahead_ready_ = true;
  ahead_state_ = bring_to_decision(*ahead_at_) ? AheadSave::Saved : AheadSave::Failed;
  return ahead_state_ == AheadSave::Saved;
}

double Determinizer::look_ahead(int option, Seat seat) {
  if (!identities_) throw std::logic_error("look_ahead outside a simulation");
  if (!ahead_at_) {
    ahead_observer_ = std::make_unique<Observer>();
    ahead_at_ = std::make_unique<SavedPosition>(definition_, limits_, *ahead_observer_);
  }
  Match& ahead = ahead_at_->match();
  if (ahead.prepare_code() != sim_->prepare_code())
    ahead.set_prepare(sim_->prepare_code(), sim_->prepare_chunk(), sim_->prepare_at_first_turn());
  // A simulation that started from the decision's checkpoint looks ahead
  // from the look-ahead game's own checkpoint of that decision (saved on
  // first use), retracing only the simulation's answers since.
  const bool from_checkpoint = !oracle_ && last_restored() && ahead_checkpoint();
  // The simulation so far (the true game's answers, then its own), replayed
  // on the same identities and chance: the same position, then `option`.
  ahead_log_ = replayer_->log == nullptr ? std::vector<AnswerRecord>{} : *replayer_->log;
  ahead_log_.resize(truth_answers_);
  const auto& own = active_->answers();
  ahead_log_.insert(ahead_log_.end(), own.begin() + static_cast<std::ptrdiff_t>(std::min(own.size(), truth_answers_)),
                    own.end());
  OneStepPolicy policy(option);
  Replayer& r = ahead_at_->replayer();
  r.log = &ahead_log_;
  r.switch_at = truth_answers_;
  r.labels = replayer_->labels;
  r.seat = replayer_->seat;
  r.observer->learn(false);
  r.policy = &policy;
  r.check = false;
  r.chance_seed = chance_seed_;
  r.draws.reseed(chance_seed_, kAgentStream);
  r.cursor = 0;
  r.handed_over = false;
  r.rejected = false;
  r.identities = oracle_ ? nullptr : identities_;
  r.faces = faces_;
  bool cut = false;
  try {
    if (from_checkpoint) {
      r.cursor = truth_answers_;
      ahead_at_->service().restore();
      r.answer_pending(ahead);
    } else {
      ahead_ready_ = false;  // a new game on the look-ahead's engine: its checkpoint is gone
      ahead.set_agents(std::vector<Agent*>(static_cast<size_t>(players_), &r));
      ahead.set_start_identities(oracle_ ? *identities_ : std::vector<int>{});
      ahead.start(players_, seed_, names_);
    }
  } catch (const GameCutOff&) {
    if (r.rejected) return 1.0 / players_;
    cut = true;
  } catch (const AgentFailure&) {
    return 1.0 / players_;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    return 1.0 / players_;
  } catch (const ScriptError&) {
    return 1.0 / players_;
  } catch (const std::out_of_range&) {  // the retraced answer is no option
    return 1.0 / players_;
  }
  (void)cut;
  try {
    const std::optional<double> v = ahead.evaluation(seat);
    return v ? *v : 1.0 / players_;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    return 1.0 / players_;
  } catch (const ScriptError& e) {  // a broken rules.evaluate: the search ends the game with it
    note_broken_evaluation(e);
    return 1.0 / players_;
  }
}

std::vector<double> Determinizer::rewards() {
  std::vector<double> r;
  rewards(r);
  return r;
}

void Determinizer::rewards(std::vector<double>& r) {
  r.assign(static_cast<size_t>(players_), 0.0);
  const GameResult& result = active_->result();
  if (!result.finished && !result.stopped) {
    // Cut off: the game's own estimate (rules.evaluate, every seat in one
    // call under one budget), 1/n without one.
    std::fill(r.begin(), r.end(), 1.0 / players_);
    if (has_evaluate_ == 0) return;
    try {
      const std::optional<std::vector<double>> e = active_->evaluations();
      has_evaluate_ = e ? 1 : 0;
      if (e) r = *e;
    } catch (const ScriptLimitError& e) {
      note_over_limit(e);
    } catch (const ScriptError& e) {
      note_broken_evaluation(e);
    }
    return;
  }
  // The game's returns when it gives them, else each winner's share of the win.
  for (Seat s : Seat::all(players_)) r[s.index()] = seat_payoff(result, s);
}

void Determinizer::note_broken_evaluation(const ScriptError& e) {
  if (broken_evaluation_.empty()) broken_evaluation_ = e.what();
}

void Determinizer::note_over_limit(const ScriptLimitError& e) {
  if (!over_limit_.empty()) return;
  const std::string what = e.what();
  over_limit_ = what.substr(0, what.find('\n'));  // the message, not its traceback
}

}  // namespace rulebook
