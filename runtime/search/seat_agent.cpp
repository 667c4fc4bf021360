#include "search/seat_agent.hpp"

#include <fmt/format.h>

#include "search/determinizer.hpp"

namespace rulebook {

SeatSearchAgent::SeatSearchAgent() = default;
SeatSearchAgent::~SeatSearchAgent() = default;

void SeatSearchAgent::begin_game(uint64_t stream_seed, Seat seat) {
  rng_.reseed(stream_seed, kAgentStream);
  seat_ = seat;
  observed_.clear();
}

void SeatSearchAgent::attach(const GameAccess* game) { truth_ = dynamic_cast<const Match*>(game); }

Determinizer& SeatSearchAgent::determinizer_for(const Decision& d, const std::string& name, const char* what,
                                                bool hint) {
  if (!truth_) throw AgentFailure(fmt::format("the {} agent needs a match to {} (it plays through Match)", name, what));
  return prepare_determinizer(determinizer_, *truth_, seat_, observed_, d, hint);
}

}  // namespace rulebook
