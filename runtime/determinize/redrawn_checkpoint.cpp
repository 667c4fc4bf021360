// Samples that redraw other seats' private answers (Sample::answers, and
// draw_answers' checked replays) resume where the first redrawn answer is
// asked instead of replaying the game from its start: the true answers
// before it are every such sample's too, so that position is saved once per
// decision. What the seat was shown up to there was checked when it was
// saved (the count of its events then); a resumed replay checks the rest,
// as a replay from the start would.
#include <algorithm>

#include "determinize/determinizer.hpp"
#include "determinize/saved_position.hpp"
#include "determinize/seat_replay.hpp"

namespace rulebook {

void Determinizer::save_redrawn() {
  redrawn_ready_ = false;
  if (!checkpoints_wanted_ || free_answers_.empty()) return;
  if (!redrawn_at_) redrawn_at_ = std::make_unique<SavedPosition>(definition_, limits_, *observer_);
  PositionService& at = redrawn_at_->service();
  Replayer& r = redrawn_at_->replayer();
  aim_at_decision(r);
  const size_t from = free_answers_.front().first;
  // The count of events kept with the snapshot is the seat's: another
  // seat's decision brings it again.
  if (redrawn_seat_ != seat_) at.forget();
  at.follow(*sim_);
  Match& m = at.match();
  observer_->learn(false);
  observer_->expect_again();
  m.add_sink(observer_.get());  // counts (and checks) what the seat is shown on the way
  const std::vector<Agent*> agents(static_cast<size_t>(players_), &r);
  bool saved = false;
  auto ready = [&](Match& g) {
    if (!observer_->agrees()) return false;
    g.state().set_sink(nullptr);  // saved silent: a resumed replay listens again
    g.hand_over(agents);
    redrawn_seen_ = observer_->compared();
    saved = true;
    return true;
  };
  try {
    at.bring(ReplayStart{players_, seed_, names_}, *truth_log_, from, true, ready);
  } catch (const ReplayMismatch&) {
  } catch (const AgentFailure&) {
  } catch (const ScriptError&) {
  }
  m.clear_sinks();
  m.state().set_sink(nullptr);
  // Restored: the same position as last saved (same start and answers), so
  // the same count of the seat's events.
  redrawn_ready_ = at.has_snapshot() && (saved || at.last_restored());
  if (!redrawn_ready_) return;
  redrawn_from_ = from;
  redrawn_seat_ = seat_;
}

bool Determinizer::last_restored_redrawn() const {
  return redrawn_at_ && active_ == &redrawn_at_->match();
}

bool Determinizer::resumes_redrawn(bool at_start, bool checked) const {
  if (!redrawn_ready_ || at_start || !checked || replayer_->log != &sampled_log_) return false;
  // A checkpoint goes only into a game it was made for: the sample's
  // answers before the first redrawn one are the true game's.
  const auto same = [](const AnswerRecord& a, const AnswerRecord& b) { return a.seat == b.seat && a.index == b.index; };
  const auto end = static_cast<std::ptrdiff_t>(redrawn_from_);
  return sampled_log_.size() >= redrawn_from_ && truth_log_->size() >= redrawn_from_ &&
         std::equal(sampled_log_.begin(), sampled_log_.begin() + end, truth_log_->begin(), same);
}

Determinizer::Outcome Determinizer::resume_redrawn(const std::vector<int>& identities, uint64_t chance_seed,
                                                   SimulationPolicy& policy) {
  // The game run() plays for a checked sample (the sampled answers, the
  // definition's identities until the seat's decision), from the position
  // where the first redrawn answer is asked.
  Replayer& r = redrawn_at_->replayer();
  r.switch_at = truth_answers_;
  r.labels = &labels_;
  r.seat = seat_;
  r.observer = observer_.get();
  r.check = true;
  r.stop_at = replayer_->stop_at;
  r.resume_at(replayer_->log, redrawn_from_, policy, chance_seed, &identities, faces_);
  identities_ = &identities;
  chance_seed_ = chance_seed;
  oracle_ = false;
  observer_->learn(false);
  observer_->expect_from(redrawn_seen_);
  Match& m = redrawn_at_->match();
  active_ = &m;
  redrawn_at_->service().restore();
  m.state().set_sink(observer_.get());
  const Outcome outcome = replayed(r, [&] { r.answer_pending(m); });
  m.state().set_sink(nullptr);
  return outcome;
}

}  // namespace rulebook
