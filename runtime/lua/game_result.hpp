#pragma once
// What a game run leaves: the answers given and the result.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ids.hpp"

namespace rulebook {

struct AnswerRecord {
  Seat seat{0};
  int index = 0;
  // The answers of a simultaneous decision (game:choose_together) carry
  // its number in the game (1, 2, ...; the same for every answer of one
  // decision) and are recorded once every answer is in, in ascending seat
  // order. 0: a decision of one seat.
  int together = 0;
};

struct GameResult {
  bool finished = false;  // game:finish was called
  bool stopped = false;   // stopped early by a turn limit (scenarios)
  std::vector<Seat> winners;
  std::vector<Seat> losers;
  std::string summary;
  // How the game ended, in the rules' own words ("dead-field"): games that
  // can end in several ways name the way, so statistics can count them.
  std::string reason;
  int turns = 0;
  nlohmann::json details = nlohmann::json::object();
  // The game's own statistics (game:finish{stats = {margin = 3}}): finite
  // numbers by name, tallied by simulate, compare and sweep.
  std::map<std::string, double> stats;
  // What each seat earns, in seat order (game:finish{returns = {...}}): the
  // game's own payoff, any scale, zero-sum or not. Empty: the rules gave
  // none, and a win shared among the winners is the payoff (outcome_share).
  std::vector<double> returns;
};

// A seat's share of a finished game's win: 1 for a sole winner, 1/k for
// each of k winners, 0 otherwise (a loss, or a game with no winner).
double outcome_share(const GameResult& result, Seat seat);

// What `seat` earns from a finished game: its return when the rules gave
// returns, else its share of the win (outcome_share).
double seat_payoff(const GameResult& result, Seat seat);

}  // namespace rulebook
