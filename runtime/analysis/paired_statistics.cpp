#include "analysis/paired_statistics.hpp"

#include <stdexcept>
#include <string>

namespace rulebook::analysis {

PairedStatistics::PairedStatistics(int players)
    : players_(players), wins_(static_cast<size_t>(std::max(0, players))), advantage_(wins_.size()) {}

namespace {
int winner_count(uint64_t winners, int players) {
  int n = 0;
  for (int s = 0; s < players; ++s) n += (winners >> s) & 1 ? 1 : 0;
  return n;
}
}  // namespace

void PairedStatistics::add(const GameOutcome& base, const GameOutcome& with) {
  turns_.add(int64_t{with.turns} - base.turns);
  decisions_.add(with.decisions - base.decisions);
  const int base_winners = winner_count(base.winners, players_), with_winners = winner_count(with.winners, players_);
  no_winner_.add(int64_t{with_winners == 0} - int64_t{base_winners == 0});
  shared_wins_.add(int64_t{with_winners > 1} - int64_t{base_winners > 1});
  for (int s = 0; s < players_; ++s) {
    const int64_t w = (with.winners >> s) & 1, b = (base.winners >> s) & 1;
    wins_[static_cast<size_t>(s)].add(w - b);
    advantage_[static_cast<size_t>(s)].add((players_ * w - with_winners) - (players_ * b - base_winners));
  }
}

void PairedStatistics::merge(const PairedStatistics& other) {
  if (other.players_ != players_) throw std::invalid_argument("cannot merge comparisons of different player counts");
  turns_.merge(other.turns_);
  decisions_.merge(other.decisions_);
  no_winner_.merge(other.no_winner_);
  shared_wins_.merge(other.shared_wins_);
  for (size_t s = 0; s < wins_.size(); ++s) {
    wins_[s].merge(other.wins_[s]);
    advantage_[s].merge(other.advantage_[s]);
  }
}

Interval PairedStatistics::seat_advantage(int seat) const {
  Interval scaled = advantage_.at(seat).mean();
  return {scaled.estimate / players_, scaled.low / players_, scaled.high / players_};
}

}  // namespace rulebook::analysis
