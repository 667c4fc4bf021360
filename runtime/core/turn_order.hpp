#pragma once
// Seats around the table and whose turn it is. Clockwise means increasing
// seat numbers; eliminated seats, and seats sitting out the game's current
// round, are skipped.
//
// Two kinds of round: the turn order's round (a lap: it starts again when
// play comes back to the first seat) and the game's round (a hand, a deal:
// begun by the rules with begin_round, 0 until then). A new game round
// starts the laps again from its first seat and lets everybody play again.
#include <string>

#include "core/visibility.hpp"

namespace rulebook {

class TurnOrder {
 public:
  void reset(int seats, int first = 0, int direction = 1);

  int seats() const { return seats_; }
  int current() const { return current_; }
  int first() const { return first_; }
  int round() const { return round_; }
  int game_round() const { return game_round_; }
  bool first_round() const { return round_ <= 1; }
  int turns_started() const { return turns_started_; }
  // Tricks (a prize, a hand of cards played to the middle): counted within
  // the game's round (0 before its first), and over the whole game.
  int trick() const { return trick_; }
  int tricks_started() const { return tricks_started_; }
  void begin_trick() {
    ++trick_;
    ++tricks_started_;
  }
  // The phase the rules named last ("bidding"; "" before any).
  const std::string& phase() const { return phase_; }
  void set_phase(std::string phase) { phase_ = std::move(phase); }
  // The game's length in turns: its turns, or the tricks of a game that
  // never began a turn (everybody acts at once).
  int turns_played() const { return turns_started_ > 0 ? turns_started_ : tricks_started_; }
  int direction() const { return direction_; }
  void set_direction(int direction) { direction_ = direction < 0 ? -1 : 1; }

  // The next / previous seat still in the game and in this round, after `seat`.
  // Returns `seat` itself when it is the only one left, -1 when none is.
  int next(int seat) const;
  int previous(int seat) const;
  int active_count() const;
  bool eliminated(int seat) const { return (eliminated_ & seat_bit(seat)) != 0; }
  void eliminate(int seat) { eliminated_ |= seat_bit(seat); }
  void reinstate(int seat) { eliminated_ &= ~seat_bit(seat); }
  bool sitting_out(int seat) const { return (sitting_out_ & seat_bit(seat)) != 0; }
  void sit_out(int seat) { sitting_out_ |= seat_bit(seat); }
  // Skipped: out of the game, or out of this round.
  bool skipped(int seat) const { return ((eliminated_ | sitting_out_) & seat_bit(seat)) != 0; }

  // A new game round whose first turn goes to `first`: laps count again
  // from 1, nobody sits out, nobody's turn yet. `named`: the rules gave
  // `first` (else it is the first seat so far).
  void begin_round(int first, bool named);
  // Whether the game plays in turns: a turn has begun, or the rules named a
  // round's first seat. A game where everybody acts at once has no first player.
  bool in_use() const { return turns_started_ > 0 || first_named_; }

  // Makes `seat` current and counts a turn; a new round starts whenever the
  // turn comes back to (or passes) the first seat.
  void begin(int seat);

 private:
  // The first seat not skipped from `seat`, `step` (1 or -1) places at a time.
  int first_in_play(int seat, int step) const;
  int seats_ = 0, current_ = -1, first_ = 0, direction_ = 1;
  int round_ = 0, turns_started_ = 0, game_round_ = 0, trick_ = 0, tricks_started_ = 0;
  bool first_named_ = false;
  std::string phase_;
  SeatMask eliminated_ = 0, sitting_out_ = 0;
};

}  // namespace rulebook
