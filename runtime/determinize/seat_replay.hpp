#pragma once
// Inside the determinizer (determinizer.cpp, rollouts.cpp): how a
// simulated game replays the true one for a seat. The Observer is what the
// seat knows (SeatKnowledge); the Replayer answers every seat from the true game's
// log, then hands over to the search's policy at the seat's decision. Not a
// header for the determinizer's users.
#include <algorithm>
#include <utility>
#include <vector>

#include "determinize/determinizer.hpp"
#include "observation/seat_knowledge.hpp"

namespace rulebook {

inline constexpr size_t kNoStop = static_cast<size_t>(-1);

// The event sink of the simulated game while it replays the true one: what
// the seat knows (SeatKnowledge), learnt on the first replay of a decision
// (which components it saw, dice rolled and shuffles out of its sight, the
// other seats' private answers), and on the checked replays only the
// comparison of what the seat is shown with what it saw.
class Determinizer::Observer : public SeatKnowledge {
 public:
  Observer() { learn(false); }
};

// Every seat of the simulated game: the position service's replaying
// agent answers from the true game's log, checked; this one hands over to
// the search's policy at the seat's decision, draws the answers of the
// other seats of a simultaneous decision, and stops (reached, stopped,
// rejected).
class Determinizer::Replayer : public LogReplayAgent {
 public:
  // The answers to replay (LogReplayAgent's log, keep and next, under the
  // names the determinizer uses): the true game's up to `switch_at` (the
  // seat's decision, where the determinization begins), then, in a
  // look-ahead, the simulation's own up to where it asks.
  const std::vector<AnswerRecord>*& log = cursor_.log;
  size_t& switch_at = cursor_.keep;
  size_t& cursor = cursor_.next;
  const std::vector<std::string>* labels = nullptr;
  Observer* observer = nullptr;
  SimulationPolicy* policy = nullptr;
  GameState* state = nullptr;
  Seat seat{0};
  bool check = true;
  uint64_t chance_seed = 0;
  bool handed_over = false;
  bool rejected = false;
  bool reached = false;  // the first replay: stops at the seat's decision
  // A checked replay of a sample's first redrawn answers: it stops where
  // the answer at `stop_at` (in the log) is asked (stopped), what the seat
  // was shown so far checked.
  size_t stop_at = kNoStop;
  bool stopped = false;

  // LogReplayAgent answers at once; the search's policy does too (its
  // time is the search's).
  // Draws the answers of the other seats of a simultaneous decision the
  // seat is in: never read from the true game (reseeded per simulation).
  Rng draws;

  int choose(const Decision& d) override {
    if (handed_over) {
      if (cursor < log->size()) return (*log)[cursor++].index;  // a look-ahead retraces the simulation
      // The rest of the seat's simultaneous decision: the others decide
      // without knowing its answer, so the search does not let them reply
      // to it (a uniform draw among their options).
      if (group_open && d.together() == group && d.seat() > group_last) {
        group_last = d.seat();
        return static_cast<int>(draws.below(static_cast<uint32_t>(d.count())));
      }
      group_open = false;
      return policy->choose(d, *state);
    }
    if (observer->learning()) observer->look(*state);
    if (cursor == stop_at) {
      stopped = true;
      throw AgentFailure("determinization checked so far");
    }
    if (replaying()) {
      const int index = cursor_.take(d);  // the position service's check of a logged answer
      if (index < 0) reject();
      return index;
    }
    // Another seat of the simultaneous decision the seat is in, asked
    // before it: its answer is in no log the seat may read (nobody sees it
    // before all are in), so it is drawn among its options (or retraced,
    // in a look-ahead).
    if (d.seat() < seat && std::find(d.together().begin(), d.together().end(), seat) != d.together().end()) {
      if (cursor < log->size()) return (*log)[cursor++].index;
      return static_cast<int>(draws.below(static_cast<uint32_t>(d.count())));
    }
    // The seat's decision: the same question, or this is another game.
    if (d.seat() != seat || d.count() != static_cast<int>(labels->size())) reject();
    if (check) {
      if (!observer->showed_all()) reject();
      for (int i = 0; i < d.count(); ++i)
        if (d.label(i) != (*labels)[static_cast<size_t>(i)]) reject();
    }
    if (!policy) {
      // The first replay stops here (the saves go through the position
      // service, which pauses at the decision: bring_to_decision).
      reached = true;
      throw AgentFailure("determinization reached");
    }
    hand_over(d);
    if (cursor < log->size()) return (*log)[cursor++].index;
    return policy->choose(d, *state);
  }

  // Ready for one simulation resumed at answer `from` of `answers` (a
  // restored position): `p` plays from the seat's decision, with chance
  // and the simultaneous others' draws from `seed`, and the sample's
  // identities and faces.
  void resume_at(const std::vector<AnswerRecord>* answers, size_t from, SimulationPolicy& p, uint64_t seed,
                 const std::vector<int>* ids, const std::vector<std::pair<int, uint64_t>>* sample_faces) {
    log = answers;
    cursor = from;
    policy = &p;
    chance_seed = seed;
    draws.reseed(seed, kAgentStream);
    handed_over = false;
    rejected = false;
    stopped = false;
    identities = ids;
    faces = sample_faces;
  }

  // The game restored at the seat's decision (saved where it is asked):
  // every seat it waits for answers as its agent would be asked there, in
  // ascending order (the seat alone, or each seat of a simultaneous
  // decision: the others' answers drawn or retraced, the seat handed over
  // to the policy), so a restored simulation is the replayed one.
  void answer_pending(Match& m) {
    m.pending_seats(pending_);
    for (Seat s : pending_) m.answer(s, m.decide_pending(s, [this](const Decision& d) { return choose(d); }));
  }

  // From the seat's decision on, the search's policy plays: the rollout
  // builds no events, chance comes from the simulation's seed (which is
  // the state's seed() from then on), and the
  // identities the seat never observed are permuted.
  void hand_over(const Decision& d) {
    handed_over = true;
    group = d.together();
    group_open = !group.empty();
    group_last = seat;
    state->set_sink(nullptr);
    state->reseed_chance(chance_seed);  // seed() too: the true game's never reaches the policy
    permute();
  }

  // Component i takes the identity (type and face) component
  // identities[i] has now: the seat never observed either. Then the dice
  // rolled out of its sight show fresh faces.
  void permute() {
    if (identities != nullptr && !identities->empty()) {
      identities_of(*state, was_);
      give_identities(*state, was_, *identities);
    }
    if (faces == nullptr) return;
    for (const auto& [id, draw] : *faces) {
      Component& c = state->mutable_component(ComponentId{id});
      const auto count = state->definition().types[static_cast<size_t>(c.type)].faces.size();
      if (count > 0) c.face = static_cast<int>(draw % count);
    }
  }

  const std::vector<int>* identities = nullptr;
  const std::vector<std::pair<int, uint64_t>>* faces = nullptr;

 private:
  IdentitySnapshot was_;        // permute()'s, kept between simulations
  std::vector<Seat> pending_;   // answer_pending()'s, kept between simulations
  std::vector<Seat> group;  // the simultaneous decision handed over in
  bool group_open = false;
  Seat group_last{0};
  [[noreturn]] void reject() {
    rejected = true;
    throw AgentFailure("determinization rejected");
  }
};

}  // namespace rulebook
