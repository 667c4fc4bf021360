#include "core/turn_order.hpp"

namespace rulebook {

void TurnOrder::reset(int seats, int first, int direction) {
  seats_ = seats;
  first_ = first;
  direction_ = direction < 0 ? -1 : 1;
  current_ = -1;
  round_ = 0;
  turns_started_ = 0;
  eliminated_ = 0;
  game_round_ = 0;
  sitting_out_ = 0;
}

void TurnOrder::begin_round(int first) {
  ++game_round_;
  first_ = first;
  current_ = -1;
  round_ = 0;
  sitting_out_ = 0;
}

int TurnOrder::next(int seat) const {
  for (int i = 1; i <= seats_; ++i) {
    int s = ((seat + i * direction_) % seats_ + seats_) % seats_;
    if (!skipped(s)) return s;
  }
  return -1;
}

int TurnOrder::previous(int seat) const {
  for (int i = 1; i <= seats_; ++i) {
    int s = ((seat - i * direction_) % seats_ + seats_) % seats_;
    if (!skipped(s)) return s;
  }
  return -1;
}

int TurnOrder::active_count() const {
  int n = 0;
  for (int s = 0; s < seats_; ++s) n += !skipped(s);
  return n;
}

void TurnOrder::begin(int seat) {
  // Distance from the first seat in play order: a wrap means a new round.
  auto distance = [&](int s) { return ((s - first_) * direction_ % seats_ + seats_) % seats_; };
  const bool wrapped = distance(seat) < distance(current_) ||
                       (seat == current_ && active_count() <= 1);
  if (current_ < 0 || wrapped) ++round_;
  current_ = seat;
  ++turns_started_;
}

}  // namespace rulebook
