#include "bots/seat_agent.hpp"

#include <fmt/format.h>

#include "determinize/determinizer.hpp"

namespace rulebook {

SeatSearchAgent::SeatSearchAgent() = default;
SeatSearchAgent::~SeatSearchAgent() = default;

void SeatSearchAgent::begin_game(uint64_t stream_seed, Seat seat) {
  rng_.reseed(stream_seed, kAgentStream);
  seat_ = seat;
  knowledge_.begin(seat, 0);  // only its events: the components are the determinizer's to learn
  gave_up_ = false;
  said_no_world_ = false;
}

void SeatSearchAgent::attach(const GameAccess* game) { truth_ = game; }

Determinizer& SeatSearchAgent::determinizer_for(const Decision& d, const std::string& name, const char* what,
                                                bool hint, bool checkpoint) {
  if (!truth_) throw AgentFailure(fmt::format("the {} agent needs a match to {} (it plays through Match)", name, what));
  return prepare_determinizer(determinizer_, *truth_, seat_, knowledge_.events(), d, hint, checkpoint);
}

bool SeatSearchAgent::give_up_if_over_limit(const Determinizer& det, const std::string& name) {
  if (!det.broken_evaluation().empty()) throw ScriptError(det.broken_evaluation());
  if (gave_up_ || det.over_limit().empty()) return gave_up_;
  gave_up_ = true;
  search_warning(fmt::format("{} (seat {}): a simulated game ran over the rules' limits ({}); the bot stops "
                             "searching and chooses at random for the rest of the game",
                             name, seat_, det.over_limit()));
  return true;
}

int SeatSearchAgent::no_world_found(const Decision& d, const std::string& name) {
  if (!said_no_world_) {
    said_no_world_ = true;
    search_warning(fmt::format("{} (seat {}): no sampled game agreed with what the seat saw within the bot's budget; "
                               "it chooses at random there (said once a game)",
                               name, seat_));
  }
  return random_choice(d);
}

int SeatSearchAgent::random_choice(const Decision& d) {
  return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count())));
}

}  // namespace rulebook
