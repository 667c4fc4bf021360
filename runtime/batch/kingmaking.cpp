#include "batch/kingmaking.hpp"

#include <algorithm>

namespace rulebook::batch {

KingmakingProbe::KingmakingProbe(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits,
                                 AgentMaker make_agent, KingmakingSettings settings)
    : match_(std::move(definition), limits), make_agent_(std::move(make_agent)), settings_(settings) {}

std::vector<Seat> KingmakingProbe::winners_with(int players, uint64_t seed, const std::vector<AnswerRecord>& answers,
                                                size_t at, int option) {
  ++games_played_;
  bool pending = match_.start(players, seed);
  for (size_t k = 0; k < at && pending; ++k) pending = match_.answer(answers[k].seat, answers[k].index);
  if (!pending) return match_.result().winners;  // cannot happen for a deterministic game
  pending = match_.answer(answers[at].seat, option);
  // Fresh agents on the game's agent seeds play it out.
  agents_.resize(static_cast<size_t>(players));
  for (Seat s : Seat::all(players)) {
    agents_[s.index()] = make_agent_(s);
    agents_[s.index()]->begin_game(agent_stream_seed(seed, s), s);
  }
  while (pending) {
    const Seat seat = match_.pending_seat();
    Agent& agent = *agents_[seat.index()];
    const int answer = match_.decide_pending(seat, [&](const Decision& d) { return agent.choose(d); });
    pending = match_.answer(seat, answer);
  }
  return match_.result().winners;
}

bool KingmakingProbe::kingmaking(int players, uint64_t seed, const std::vector<AnswerRecord>& answers,
                                 const std::vector<Seat>& winners) {
  std::vector<int> tried(static_cast<size_t>(players), 0);
  for (size_t at = answers.size(); at-- > 0;) {
    const AnswerRecord& a = answers[at];
    if (a.together != 0) continue;  // a simultaneous decision is not one seat's to make
    if (std::find(winners.begin(), winners.end(), a.seat) != winners.end()) continue;
    if (tried[a.seat.index()] >= settings_.last_decisions) continue;
    ++tried[a.seat.index()];
    // The options of that decision: the position again, to count them.
    bool pending = match_.start(players, seed);
    for (size_t k = 0; k < at && pending; ++k) pending = match_.answer(answers[k].seat, answers[k].index);
    if (!pending) continue;
    const int options = match_.pending(a.seat).count();
    if (options < 2 || options > settings_.max_options) continue;
    bool could_win = false, changes_winner = false;
    for (int option = 0; option < options && !could_win; ++option) {
      const std::vector<Seat> w = option == a.index ? winners : winners_with(players, seed, answers, at, option);
      could_win = std::find(w.begin(), w.end(), a.seat) != w.end();
      changes_winner = changes_winner || w != winners;
    }
    if (!could_win && changes_winner) return true;
  }
  return false;
}

}  // namespace rulebook::batch
