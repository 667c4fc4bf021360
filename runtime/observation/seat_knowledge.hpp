#pragma once
// What one seat knows of a game, built only from what the seat receives:
// the events it is shown (redacted by event_json, received when can_see
// says so), the components it can see (visible_to, as its view shows
// them), the questions it is asked. The one model behind the
// determinizer's replays, the no-peek worlds of `rulebook check` and the
// bots' test, undo's "revealed since", and the events a searching bot
// keeps (docs/architecture.md, "What a seat knows").
//
// Fed in either of two ways: as an EventSink of the game (each event as
// it happens, the state after it: the seat's part of it is taken), or, on
// the seat's side, with the redacted events its agent received
// (receive()). Each event the seat is shown is kept, compared in place
// with the events of another game (a replay's check: expect()), or
// dropped (only the components and answers noted).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/event.hpp"
#include "core/ids.hpp"

namespace rulebook {

class GameState;

// Another seat's private answer: the seat learns that a choice was made,
// not which.
struct HiddenAnswer {
  size_t at = 0;        // its place in the answer log (the choices asked, in order)
  int options = 0;      // how many options the decision offered
  bool component = false;  // the answer is a component (its identity is what stays hidden)
};

// A question the seat was asked: its text, and how many events it had been
// shown before.
struct AskedQuestion {
  std::string text;
  size_t after_events = 0;
};

class SeatKnowledge : public EventSink {
 public:
  static constexpr size_t kNever = static_cast<size_t>(-1);

  SeatKnowledge() = default;
  SeatKnowledge(Seat seat, int components) { begin(seat, components); }

  // A new game for `seat` with `components` components: nothing known yet,
  // nothing shown. Keeps the mode (learning, and what becomes of events).
  void begin(Seat seat, int components);
  Seat seat() const { return seat_; }

  // Whether events teach it which components the seat saw, which dice were
  // rolled and shuffles made out of its sight, and the other seats'
  // private answers (on by default). Off, it only keeps or compares the
  // events shown: the cheap check of a replay.
  void learn(bool on) { learning_ = on; }
  bool learning() const { return learning_; }
  // What becomes of each event the seat is shown: kept in events() (the
  // default), or dropped.
  void keep_events(bool on) { keep_ = on; }
  // Each event the seat is shown is compared with `expected`'s event at the
  // same place instead of being kept (nullptr: kept again); the comparison
  // starts afresh.
  void expect(const std::vector<nlohmann::json>* expected);
  // The same comparison started afresh (another replay).
  void expect_again() { expect(expected_); }
  // The comparison resumed after the first `shown` expected events: a game
  // restored where the seat had been shown those (compared() there).
  void expect_from(size_t shown) {
    expect(expected_);
    next_ = shown;
  }

  // ---- What it is fed
  // An event of the game, the state after it.
  void on_event(const GameState& state, const Event& e) override;
  // An event as the seat's agent received it (already redacted).
  void receive(const nlohmann::json& event);
  // A question the seat is asked (its prompt and options, as one text).
  void asked(std::string question);
  // What the seat sees of the table now (at a decision, the end): every
  // component it can see is observed. Events do it too while learning.
  void look(const GameState& state);
  // The place in its owner's stream recorded as first_seen() for what the
  // seat sees from now on (0 until set; the no-peek worlds count lines).
  void set_position(size_t position) { position_ = position; }

  // ---- What it gives
  // The events the seat was shown, in order (redacted JSON), when kept.
  const std::vector<nlohmann::json>& events() const { return events_; }
  // The questions it was asked, in order.
  const std::vector<AskedQuestion>& questions() const { return questions_; }
  // Whether the seat has observed the component's identity: it could see
  // it at some event or look, and has not since seen it rolled or shuffled
  // out of its sight.
  bool observed(ComponentId id) const { return seen_[id.index()] != 0; }
  // Where it first saw the component (set_position()), kNever if never;
  // a roll or shuffle out of its sight does not undo that.
  size_t first_seen(ComponentId id) const { return first_seen_[id.index()]; }
  bool ever_seen(ComponentId id) const { return first_seen(id) != kNever; }
  // A die rolled out of its sight and not seen since: its face is news to
  // the seat whatever it saw before.
  bool rolled_unseen(ComponentId id) const { return rolled_[id.index()] != 0 && seen_[id.index()] == 0; }
  // The other seats' private answers, a component or not, in the log's
  // order. A choice asked (of more than one option) is the log's next
  // answer, a simultaneous decision's too (recorded together once all are
  // in); a choice taken without asking (a lone option) is none.
  const std::vector<HiddenAnswer>& hidden_answers() const { return hidden_; }
  // Those that are no component, as (answer index, options).
  std::vector<std::pair<size_t, int>> private_answers() const;

  // ---- Whether another game shows the seat exactly what it saw
  // With expect(): every event shown so far was the expected one.
  bool agrees() const { return !mismatch_; }
  // ... and every expected event was shown.
  bool showed_all() const { return !mismatch_ && next_ == expected_->size(); }
  // How many expected events were shown so far.
  size_t compared() const { return next_; }
  // Whether both were shown the same events and asked the same questions
  // up to and including their question number `question` (kept events).
  bool same_until(const SeatKnowledge& other, size_t question) const;

  // ---- What is new to the seat (undo): components in its sight
  // Notes what it can see now, forgetting the rest.
  void note_in_sight(const GameState& state);
  // Whether the seat can see `id` now and could not when last noted; notes
  // it (hidden again, seeing it later is news again).
  bool sees_anew(const GameState& state, ComponentId id);

 private:
  void learn_from(const GameState& state, const Event& e);

  Seat seat_{0};
  bool learning_ = true;
  bool keep_ = true;
  size_t position_ = 0;
  std::vector<char> seen_;
  std::vector<char> rolled_;  // rolled out of its sight once (unobserved since: rolled_unseen)
  std::vector<size_t> first_seen_;
  std::vector<char> in_sight_;
  std::vector<HiddenAnswer> hidden_;
  size_t answers_ = 0;  // choices asked so far: the next one's place in the log
  std::vector<nlohmann::json> events_;
  std::vector<AskedQuestion> questions_;
  const std::vector<nlohmann::json>* expected_ = nullptr;
  size_t next_ = 0;
  bool mismatch_ = false;
};

}  // namespace rulebook
