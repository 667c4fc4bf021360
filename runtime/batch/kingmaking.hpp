#pragma once
// Kingmaking (docs/judging-a-rule.md): in a game that was played, did a
// seat that could no longer win make a decision whose alternatives,
// played on from the same position with the same agents and seeds,
// change the winner? Each alternative is replayed from the game's start
// (its recorded answers up to the decision), answered differently there,
// and played to the end by fresh agents on the game's agent seeds. The
// seat "could no longer win" when it wins in none of them. Only the last
// few decisions of each seat that lost are tried (kingmaking happens at
// the end of a game, and each try costs a game per option).
#include <functional>
#include <memory>
#include <vector>

#include "agents/agent.hpp"
#include "play/match.hpp"

namespace rulebook::batch {

struct KingmakingSettings {
  int last_decisions = 3;  // of each seat that lost, the ones tried
  int max_options = 8;     // decisions with more options are not tried (each costs a game)
};

class KingmakingProbe {
 public:
  using AgentMaker = std::function<std::unique_ptr<Agent>(Seat seat)>;
  // Its own match on its own engine (the game's definition and limits).
  KingmakingProbe(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits, AgentMaker make_agent,
                  KingmakingSettings settings = {});

  // The game of `seed` that `answers` played (every answer, in order) and
  // ended with `winners`: whether a seat that lost, at one of its last
  // decisions, could no longer win yet chose the winner.
  bool kingmaking(int players, uint64_t seed, const std::vector<AnswerRecord>& answers, const std::vector<Seat>& winners);
  // Games played so far to try alternatives (the metric's cost).
  int64_t games_played() const { return games_played_; }

 private:
  // The winners when answer `at` is `option` instead, the game played on by the agents.
  std::vector<Seat> winners_with(int players, uint64_t seed, const std::vector<AnswerRecord>& answers, size_t at,
                                 int option);
  Match match_;
  AgentMaker make_agent_;
  KingmakingSettings settings_;
  std::vector<std::unique_ptr<Agent>> agents_;
  int64_t games_played_ = 0;
};

}  // namespace rulebook::batch
