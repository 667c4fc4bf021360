#include "play/position_service.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "play/match.hpp"

namespace rulebook {

std::string answer_check(const AnswerRecord& a, size_t number, const Decision& d) {
  if (a.seat != d.seat())
    return fmt::format("log answer {} was given by seat {}, but seat {} is asked \"{}\"", number, a.seat, d.seat(),
                       d.prompt());
  if ((a.together != 0) != !d.together().empty())
    return fmt::format("log answer {} is {}, but \"{}\" asks seat {} {}", number,
                       a.together ? "an answer to a simultaneous decision" : "an answer of one seat", d.prompt(),
                       d.seat(), d.together().empty() ? "alone" : "in a simultaneous decision");
  if (a.index < 0 || a.index >= d.count())
    return fmt::format("log answer {} picks option {} of {}", number, a.index + 1, d.count());
  return {};
}

void LogReplayAgent::handing_over() {
  if (!on_hand_over_) return;
  auto f = std::move(on_hand_over_);
  on_hand_over_ = nullptr;
  f();
}

void LogReplayAgent::asked_together(const Decision& d) {
  if (cursor_.replaying()) return;  // answered from the log
  handing_over();
  if (Agent* a = after(d.seat())) a->asked_together(d);
}

int LogReplayAgent::choose(const Decision& d) {
  if (cursor_.replaying()) {
    const int index = cursor_.take(d);
    if (index < 0) throw AgentFailure(answer_check(cursor_.last(), cursor_.next, d));
    return index;
  }
  handing_over();
  if (Agent* a = after(d.seat())) return a->choose(d);
  throw AgentFailure(fmt::format("the log has no answer left for \"{}\" (seat {})", d.prompt(), d.seat()));
}

bool bring_to(Match& match, const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep) {
  auto retraced = [&](bool pending, size_t i) {
    if (pending && match.pending_seat() == answers[i].seat) return;
    throw ReplayMismatch(fmt::format("the game does not replay: answer {} is seat {}'s, but {}", i + 1,
                                         answers[i].seat,
                                         pending ? fmt::format("seat {} decides", match.pending_seat())
                                                 : std::string("the game is over")));
  };
  // Only the last decision's request is read: the others stay bare.
  match.set_bare_requests(keep > 0);
  bool pending = false;
  try {
    pending = match.start(start.players, start.seed, start.names);
    for (size_t i = 0; i < keep; ++i) {
      retraced(pending, i);
      if (i + 1 == keep) match.set_bare_requests(false);
      pending = match.answer(answers[i].index);
    }
  } catch (...) {
    match.set_bare_requests(false);
    throw;
  }
  match.set_bare_requests(false);
  return pending;
}

PositionService::PositionService(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine)
    : match_(std::make_unique<Match>(std::move(definition), engine)) {
  match_->record_answers();  // a position it reached can be forked or retraced
}

PositionService::~PositionService() = default;

void PositionService::follow(const Match& original) {
  if (match_->prepare_code() != original.prepare_code())
    match_->set_prepare(original.prepare_code(), original.prepare_chunk(), original.prepare_at_first_turn());
  match_->set_turn_limit(original.settings().turn_limit);
}

static bool same_start(const ReplayStart& a, const ReplayStart& b) {
  return a.players == b.players && a.seed == b.seed && a.names == b.names;
}

static bool same_answers(const std::vector<AnswerRecord>& held, const std::vector<AnswerRecord>& asked, size_t keep) {
  if (held.size() != keep) return false;
  for (size_t i = 0; i < keep; ++i)
    if (held[i].seat != asked[i].seat || held[i].index != asked[i].index) return false;
  return true;
}

bool PositionService::bring(const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep,
                            bool save, const std::function<bool(Match&)>& ready) {
  restored_ = false;
  // A snapshot goes back only into the run that made it: another game
  // started on the match since makes it useless.
  if (!snapshot_.empty() && match_->can_restore(snapshot_) && same_start(at_start_, start) && at_prepare_ == match_->prepare_code() &&
      same_answers(at_answers_, answers, keep)) {
    match_->restore(snapshot_);
    restored_ = true;
    return true;
  }
  forget();
  // The step API's replay: no agents at the seats (a caller hands the game
  // over once there), the definition's identities.
  match_->set_agents({});
  match_->set_start_identities({});
  const bool pending = bring_to(*match_, start, answers, keep);
  if (pending && save && (!ready || ready(*match_))) {
    match_->save(snapshot_);
    at_start_ = start;
    at_answers_.assign(answers.begin(), answers.begin() + static_cast<std::ptrdiff_t>(keep));
    at_prepare_ = match_->prepare_code();
  }
  return pending;
}

void PositionService::restore() {
  if (snapshot_.empty()) throw std::logic_error("PositionService::restore: no position saved");
  match_->restore(snapshot_);
  restored_ = true;
}

void PositionService::forget() {
  snapshot_ = GameCheckpoint();
  at_answers_.clear();
}

}  // namespace rulebook
