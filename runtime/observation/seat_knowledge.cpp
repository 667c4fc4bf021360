#include "observation/seat_knowledge.hpp"

#include <algorithm>

#include "core/game_state.hpp"
#include "observation/event_view.hpp"

namespace rulebook {

void SeatKnowledge::begin(Seat seat, int components) {
  seat_ = seat;
  const auto n = static_cast<size_t>(components);
  seen_.assign(n, 0);
  rolled_.assign(n, 0);
  first_seen_.assign(n, kNever);
  in_sight_.assign(n, 0);
  hidden_.clear();
  answers_ = 0;
  position_ = 0;
  events_.clear();
  questions_.clear();
  next_ = 0;
  mismatch_ = false;
}

void SeatKnowledge::expect(const std::vector<nlohmann::json>* expected) {
  expected_ = expected;
  next_ = 0;
  mismatch_ = false;
}

void SeatKnowledge::on_event(const GameState& state, const Event& e) {
  if (learning_) learn_from(state, e);
  if (e.type == EventType::GameStart || !can_see(e, seat_)) return;
  if (expected_) {
    // A replay's check, on every replay of a search: the first difference
    // decides, nothing is built after it.
    if (mismatch_) return;
    if (next_ >= expected_->size() || event_json(state, e, seat_) != (*expected_)[next_]) mismatch_ = true;
    ++next_;
    return;
  }
  if (keep_) events_.push_back(event_json(state, e, seat_));
}

void SeatKnowledge::learn_from(const GameState& state, const Event& e) {
  look(state);
  // A die rolled where the seat could not see the roll: a fresh outcome,
  // whatever it saw of the die before.
  if (e.type == EventType::Roll && !e.component.is_none() && !state.visible_to(e.component, seat_)) {
    seen_[e.component.index()] = 0;
    rolled_[e.component.index()] = 1;
  }
  // A shuffle whose result the seat cannot see: which of the shuffled
  // components lies where is a fresh outcome, whatever it knew of them
  // before (a card seen face up, then shuffled back into the deck).
  if (e.type == EventType::Shuffle && e.from >= 0)
    for (ComponentId id : state.zone(e.from))
      if (!state.visible_to(id, seat_)) seen_[id.index()] = 0;
  if (e.type == EventType::Choice && e.from > 1) {
    const size_t at = answers_++;
    if (hides_choice(e, seat_)) hidden_.push_back(HiddenAnswer{at, e.from, !e.component.is_none()});
  }
}

void SeatKnowledge::receive(const nlohmann::json& event) {
  if (expected_) {
    if (!mismatch_ && (next_ >= expected_->size() || event != (*expected_)[next_])) mismatch_ = true;
    ++next_;
    return;
  }
  if (keep_) events_.push_back(event);
}

void SeatKnowledge::asked(std::string question) { questions_.push_back(AskedQuestion{std::move(question), events_.size()}); }

void SeatKnowledge::look(const GameState& state) {
  for (ComponentId id : ComponentId::all(state.component_count())) {
    if (seen_[id.index()] || !state.visible_to(id, seat_)) continue;
    seen_[id.index()] = 1;
    if (first_seen_[id.index()] == kNever) first_seen_[id.index()] = position_;
  }
}

std::vector<std::pair<size_t, int>> SeatKnowledge::private_answers() const {
  std::vector<std::pair<size_t, int>> out;
  for (const HiddenAnswer& a : hidden_)
    if (!a.component) out.emplace_back(a.at, a.options);
  return out;
}

bool SeatKnowledge::same_until(const SeatKnowledge& other, size_t question) const {
  if (questions_.size() <= question || other.questions_.size() <= question) return false;
  for (size_t q = 0; q <= question; ++q)
    if (questions_[q].text != other.questions_[q].text || questions_[q].after_events != other.questions_[q].after_events)
      return false;
  const auto shown = static_cast<std::ptrdiff_t>(questions_[question].after_events);
  return std::equal(events_.begin(), events_.begin() + shown, other.events_.begin());
}

void SeatKnowledge::note_in_sight(const GameState& state) {
  for (ComponentId id : ComponentId::all(state.component_count())) in_sight_[id.index()] = state.visible_to(id, seat_);
}

bool SeatKnowledge::sees_anew(const GameState& state, ComponentId id) {
  const bool now = state.visible_to(id, seat_);
  const bool news = now && !in_sight_[id.index()];
  in_sight_[id.index()] = now;
  return news;
}

}  // namespace rulebook
