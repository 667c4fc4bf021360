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
  const size_t from = free_answers_.front().first;
  redrawn_ready_ = save_checked(*redrawn_at_, *truth_log_, from, redrawn_seat_, redrawn_seen_);
  if (redrawn_ready_) redrawn_from_ = from;
}

bool Determinizer::save_checked(SavedPosition& position, const std::vector<AnswerRecord>& log, size_t from,
                                Seat& held_seat, size_t& seen) {
  PositionService& at = position.service();
  Replayer& r = position.replayer();
  aim_at_decision(r);
  // The count of events kept with the snapshot is the seat's: another
  // seat's decision brings it again.
  if (held_seat != seat_) at.forget();
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
    seen = observer_->compared();
    saved = true;
    return true;
  };
  try {
    at.bring(ReplayStart{players_, seed_, names_}, log, from, true, ready);
  } catch (const ReplayMismatch&) {
  } catch (const AgentFailure&) {
  } catch (const ScriptError&) {
  }
  m.clear_sinks();
  m.state().set_sink(nullptr);
  // Restored: the same position as last saved (same start and answers), so
  // the same count of the seat's events.
  if (!at.has_snapshot() || !(saved || at.last_restored())) return false;
  held_seat = seat_;
  return true;
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
  return resume_checked(*redrawn_at_, redrawn_from_, redrawn_seen_, identities, chance_seed, policy);
}

Determinizer::Outcome Determinizer::resume_checked(SavedPosition& position, size_t from, size_t seen,
                                                   const std::vector<int>& identities, uint64_t chance_seed,
                                                   SimulationPolicy& policy) {
  // The game run() plays for a checked sample (the sampled answers, the
  // definition's identities until the seat's decision), from a position
  // save_checked saved on its way.
  Replayer& r = position.replayer();
  r.switch_at = truth_answers_;
  r.labels = &labels_;
  r.seat = seat_;
  r.observer = observer_.get();
  r.check = true;
  r.stop_at = replayer_->stop_at;
  r.resume_at(replayer_->log, from, policy, chance_seed, &identities, faces_);
  identities_ = &identities;
  chance_seed_ = chance_seed;
  oracle_ = false;
  observer_->learn(false);
  observer_->expect_from(seen);
  Match& m = position.match();
  active_ = &m;
  position.service().restore();
  m.state().set_sink(observer_.get());
  const Outcome outcome = replayed(r, [&] { r.answer_pending(m); });
  m.state().set_sink(nullptr);
  return outcome;
}

}  // namespace rulebook
