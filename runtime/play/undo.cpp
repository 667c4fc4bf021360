#include "play/undo.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "observation/event_view.hpp"
#include "observation/seat_knowledge.hpp"
#include "play/match.hpp"

namespace rulebook {
namespace {

std::string with_article(const std::string& noun) {
  const bool vowel = !noun.empty() && std::string("aeiou").find(noun[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + noun;
}

// Watches the events after a decision for the first thing revealed.
class RevealWatch : public EventSink {
 public:
  // The seats' knowledge and the chance stream where the decision is asked.
  // `asker`: the seat asking to undo; it is told what it could see.
  void arm(const GameState& state, Seat asker) {
    armed_ = true;
    asker_ = asker;
    chance_ = state.chance();
    knows_.clear();
    for (Seat seat : Seat::all(state.player_count())) {
      knows_.emplace_back(seat, state.component_count());
      knows_.back().note_in_sight(state);
    }
  }

  void on_event(const GameState& state, const Event& e) override {
    if (!armed_ || !reason_.empty()) return;
    const bool seen = e.audience != 0;
    if (state.chance() != chance_) {  // drawn for this event, or by the rules just before it
      if (e.type == EventType::Roll) reason_ = fmt::format("{} was rolled since", with_article(kind(state, e.component)));
      else if (e.type == EventType::Shuffle) reason_ = fmt::format("{} was shuffled since", state.zone_title(e.from));
      else reason_ = "the rules drew at random since";
      return;
    }
    if (e.component.is_none() || !seen) return;
    for (Seat seat : Seat::all(state.player_count())) {
      // New to the seat: in its sight now, not when last noted (hidden
      // again since, seeing it later is news again).
      if (knows_[seat.index()].sees_anew(state, e.component)) {
        // A move into the seat's own zone is a draw; into anybody's view, a reveal.
        const char* what = e.type == EventType::Move && state.zone_owner(e.to) != seat ? "revealed" : verb(e.type);
        reason_ = fmt::format("{} was {} since", with_article(kind(state, e.component)), what);
        // What the asker did not see is not named to it (that would tell it
        // what another seat was shown): only that something was.
        if (!can_see(e, asker_)) reason_ = "something was shown to another player since";
        return;
      }
    }
  }

  // After the last answer: chance drawn with no event to name it.
  void finish(const GameState& state) {
    if (armed_ && reason_.empty() && state.chance() != chance_) reason_ = "the rules drew at random since";
  }
  const std::string& reason() const { return reason_; }

 private:
  static std::string kind(const GameState& state, ComponentId id) {
    if (id.is_none()) return "component";
    const std::string& k = state.type_of(id).kind;
    return k.empty() ? "component" : k;
  }
  static const char* verb(EventType type) {
    switch (type) {
      case EventType::Move: return "drawn";
      case EventType::Reveal: return "revealed";
      case EventType::SetFace: return "flipped";
      case EventType::Peek: return "peeked at";
      case EventType::Roll: return "rolled";
      default: return "shown";
    }
  }

  bool armed_ = false;
  Seat asker_;
  Rng chance_;
  std::vector<SeatKnowledge> knows_;  // each seat's, from the decision on
  std::string reason_;
};

UndoCheck refused(std::string reason) { return UndoCheck{false, std::move(reason), 0, Seat::none()}; }

}  // namespace

std::string undo_line(const std::string& player, size_t taken) {
  if (taken == 0) return fmt::format("{} takes back an answer.", player);
  return fmt::format("{} takes back {} decision{}.", player, taken, taken == 1 ? "" : "s");
}

int decisions_of(const std::vector<AnswerRecord>& answers, size_t count, Seat seat) {
  int n = 0;
  for (size_t i = 0; i < count && i < answers.size(); ++i) n += answers[i].seat == seat;
  return n;
}

bool replay_answers(Match& match, const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep) {
  return bring_to(match, start, answers, keep);
}

UndoCheck check_undo(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine, const ReplayStart& start,
                     const std::vector<AnswerRecord>& answers, Seat seat, const std::vector<Seat>& together) {
  bool mine = false;
  for (Seat s : together) {
    if (s != seat) return refused("another player's answer to this simultaneous decision is in");
    mine = true;
  }
  if (mine) return UndoCheck{true, {}, answers.size(), seat};  // only its own answer, not read by the rules yet
  size_t last = answers.size();
  while (last > 0 && answers[last - 1].seat != seat) --last;
  if (last == 0) return refused("you have made no decision to take back");
  const size_t k = last - 1;
  if (answers[k].together)
    for (const AnswerRecord& a : answers)
      if (a.together == answers[k].together && a.seat != seat)
        return refused("the other players answered that simultaneous decision too");
  Match match(std::move(definition), engine);
  RevealWatch watch;
  match.add_sink(&watch);
  if (!replay_answers(match, start, answers, k)) throw std::runtime_error("the game does not replay: it ends early");
  watch.arm(match.state(), seat);
  for (size_t i = k; i < answers.size(); ++i) {
    if (match.pending_seat() != answers[i].seat)
      throw std::runtime_error(fmt::format("the game does not replay: answer {} is seat {}'s", i + 1, answers[i].seat));
    if (!match.answer(answers[i].index) && i + 1 < answers.size())
      throw std::runtime_error("the game does not replay: it ends early");
  }
  watch.finish(match.state());
  if (!watch.reason().empty()) return refused(watch.reason());
  return UndoCheck{true, {}, k, seat};
}

class Rewinder::SeatAgent : public Agent {
 public:
  SeatAgent(Rewinder& owner, Seat seat, Agent* inner) : owner_(owner), seat_(seat), inner_(inner) {}
  std::string kind() const override { return inner_->kind(); }
  void prepare_game(const seat_protocol::GameInfo& game) override {
    if (!owner_.replaying_) inner_->prepare_game(game);
  }
  void begin_game(uint64_t stream_seed, Seat seat) override {
    if (!owner_.replaying_) inner_->begin_game(stream_seed, seat);
  }
  bool wants_events() const override { return inner_->wants_events(); }
  void observe(const nlohmann::json& event) override {
    if (!owner_.replaying_) inner_->observe(event);
  }
  bool wants_game_access() const override { return inner_->wants_game_access(); }
  void attach(const GameAccess* game) override { inner_->attach(game); }
  void end_game(const nlohmann::json& result) override { inner_->end_game(result); }
  void taken_back(int kept, const nlohmann::json& view) override { inner_->taken_back(kept, view); }
  // While the kept decisions replay, the one replaying agent answers
  // (checked against the record); it hands the seat back to `inner_` at
  // the first decision after them, once every agent heard of the undo.
  void asked_together(const Decision& d) override {
    if (owner_.replaying_) return owner_.replay_.asked_together(d);
    inner_->asked_together(d);
  }
  int choose(const Decision& d) override {
    if (owner_.replaying_) return owner_.replay_.choose(d);
    return inner_->choose(d);
  }

 private:
  Rewinder& owner_;
  Seat seat_;
  Agent* inner_;
};

class Rewinder::Gate : public EventSink {
 public:
  Gate(const Rewinder& owner, EventSink* inner) : owner_(owner), inner_(inner) {}
  void on_event(const GameState& state, const Event& e) override {
    if (!owner_.replaying_) inner_->on_event(state, e);
  }

 private:
  const Rewinder& owner_;
  EventSink* inner_;
};

Rewinder::Rewinder(Match& match, std::vector<Agent*> agents) : match_(match), agents_(std::move(agents)) {
  for (Seat s : Seat::all(static_cast<int>(agents_.size())))
    seats_.push_back(std::make_unique<SeatAgent>(*this, s, agents_[s.index()]));
  replay_.hand_over_to(agents_);
}

Rewinder::~Rewinder() = default;

void Rewinder::install() {
  for (Seat s : Seat::all(static_cast<int>(seats_.size()))) match_.set_agent(s, seats_[s.index()].get());
}

EventSink* Rewinder::gate(EventSink* sink) {
  gates_.push_back(std::make_unique<Gate>(*this, sink));
  return gates_.back().get();
}

void Rewinder::rewind(std::vector<AnswerRecord> answers, size_t keep) {
  answers_ = std::move(answers);
  keep_ = keep;
  replay_.replay(&answers_, keep_);
  replay_.on_hand_over([this] { finish(); });
  replaying_ = true;
}

void Rewinder::finish() {
  replaying_ = false;
  for (Seat seat : Seat::all(static_cast<int>(agents_.size())))
    agents_[seat.index()]->taken_back(decisions_of(answers_, keep_, seat), match_.view(seat));
}

UndoCheck check_undo(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits,
                     const ReplayStart& start, const std::vector<AnswerRecord>& answers, Seat seat,
                     const std::vector<Seat>& together) {
  RuleEngine engine(definition, limits);
  return check_undo(std::move(definition), engine, start, answers, seat, together);
}

}  // namespace rulebook
