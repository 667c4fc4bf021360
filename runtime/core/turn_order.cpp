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
  trick_ = 0;
  tricks_started_ = 0;
  first_named_ = false;
  phase_.clear();
}

void TurnOrder::begin_round(int first, bool named) {
  ++game_round_;
  first_ = first;
  first_named_ = first_named_ || named;
  current_ = -1;
  round_ = 0;
  sitting_out_ = 0;
  trick_ = 0;
}

int TurnOrder::next(int seat) const { return first_in_play(seat, direction_); }

int TurnOrder::previous(int seat) const { return first_in_play(seat, -direction_); }

int TurnOrder::first_in_play(int seat, int step) const {
  if (seats_ <= 0) return -1;
  if (seat < 0 || seat >= seats_) seat = (seat % seats_ + seats_) % seats_;
  // Around the table by compares, not divisions (this runs at every turn).
  for (int i = 1; i <= seats_; ++i) {
    seat += step;
    if (seat >= seats_) seat = 0;
    else if (seat < 0) seat = seats_ - 1;
    if (!skipped(seat)) return seat;
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
  // Seats in 0..seats-1 need no division (this runs at every turn).
  auto distance = [&](int s) {
    const int d = (s - first_) * direction_;
    if (d >= 0 && d < seats_) return d;
    if (d < 0 && d > -seats_) return d + seats_;
    return (d % seats_ + seats_) % seats_;
  };
  const bool wrapped = current_ >= 0 && (distance(seat) < distance(current_) ||
                                         (seat == current_ && active_count() <= 1));
  if (current_ < 0 || wrapped) ++round_;
  current_ = seat;
  ++turns_started_;
}

}  // namespace rulebook
