#pragma once
// Seats around the table and whose turn it is. Clockwise means increasing
// seat numbers; eliminated seats are skipped.
#include "core/visibility.hpp"

namespace rulebook {

class TurnOrder {
 public:
  void reset(int seats, int first = 0, int direction = 1);

  int seats() const { return seats_; }
  int current() const { return current_; }
  int first() const { return first_; }
  int round() const { return round_; }
  bool first_round() const { return round_ <= 1; }
  int turns_started() const { return turns_started_; }
  int direction() const { return direction_; }
  void set_direction(int direction) { direction_ = direction < 0 ? -1 : 1; }

  // The next / previous seat still in the game, after `seat`.
  // Returns `seat` itself when it is the only one left, -1 when none is.
  int next(int seat) const;
  int previous(int seat) const;
  int active_count() const;
  bool eliminated(int seat) const { return (eliminated_ & seat_bit(seat)) != 0; }
  void eliminate(int seat) { eliminated_ |= seat_bit(seat); }
  void reinstate(int seat) { eliminated_ &= ~seat_bit(seat); }

  // Makes `seat` current and counts a turn; a new round starts whenever the
  // turn comes back to (or passes) the first seat.
  void begin(int seat);

 private:
  int seats_ = 0, current_ = -1, first_ = 0, direction_ = 1;
  int round_ = 0, turns_started_ = 0;
  SeatMask eliminated_ = 0;
};

}  // namespace rulebook
