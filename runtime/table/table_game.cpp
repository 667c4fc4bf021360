// The table's game thread: the match, its people's seats answered from
// their streams, the narration and views each stream receives, undo.
#include <algorithm>

#include <fmt/format.h>

#include "agents/external_seat.hpp"
#include "core/our_words.hpp"
#include "bots/agent_factory.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "play/match.hpp"
#include "table/public_words.hpp"
#include "table/table_core.hpp"

namespace rulebook {

using nlohmann::json;

namespace {

// Thrown out of a person's seat's wait when its undo goes ahead: the game
// unwinds and is played again up to the decision taken back.
struct UndoGoesAhead : std::runtime_error {
  UndoGoesAhead() : std::runtime_error("undo") {}
};

}  // namespace

// A person's side of the seat protocol, the same an exec bot speaks: what
// the seat sends goes to its stream, the answers its page gives come back
// as lines.
class PageTransport : public SeatTransport {
 public:
  PageTransport(TableCore& table, TableStream& stream) : table_(table), stream_(stream) {}
  void send(const std::string& line, Clock::time_point) override { table_.push(stream_, line); }
  // A person takes the time they need: no deadline.
  std::string receive(Clock::time_point) override {
    if (table_.config.before_wait) table_.config.before_wait(stream_.seat);
    return table_.await_answer(stream_);
  }

 private:
  TableCore& table_;
  TableStream& stream_;
};

// A person's seat: a seat answered from outside the process, like an exec
// bot (agents/external_seat.hpp), over its page. The table sends the end
// itself, to every stream, after the last view.
class PageSeat : public ExternalSeat {
 public:
  PageSeat(TableCore& table, TableStream& stream)
      : ExternalSeat(std::make_unique<PageTransport>(table, stream), "web", std::chrono::hours(24 * 365)),
        table_(table),
        seat_(stream.seat) {}
  int choose(const Decision& d) override {
    if (!asked_) table_.before_decide(seat_, decisions() + 1, d.count());
    asked_ = false;
    return ExternalSeat::choose(d);
  }
  // A simultaneous decision: the page is asked now, with the group's other
  // pages, and may answer before the game reads its answer.
  void asked_together(const Decision& d) override {
    const int number = decisions() + 1;
    table_.before_decide(seat_, number, d.count(), &d.together());
    asked_ = true;
    ExternalSeat::asked_together(d);
    // Brought back: the page answered it before the server stopped.
    if (const auto given = table_.take_resumed(seat_, number)) table_.give_answer(seat_, number, *given);
  }
  void taken_back(int kept, const nlohmann::json& view) override {
    asked_ = false;
    ExternalSeat::taken_back(kept, view);
  }
  void end_game(const nlohmann::json&) override {}

 private:
  TableCore& table_;
  Seat seat_;
  bool asked_ = false;
};

// A bot's seat at a table that keeps a journal: each answer is kept as it
// is given, and a table brought back answers the simultaneous decision
// under way as the bot had (it is not asked twice).
class JournaledBot : public Agent {
 public:
  JournaledBot(TableCore& table, Seat seat, std::unique_ptr<Agent> inner)
      : table_(table), seat_(seat), inner_(std::move(inner)) {}
  std::string kind() const override { return inner_->kind(); }
  void begin_game(uint64_t stream_seed, Seat seat) override { inner_->begin_game(stream_seed, seat); }
  void prepare_game(const seat_protocol::GameInfo& game) override { inner_->prepare_game(game); }
  int choose(const Decision& d) override {
    const int number = ++decisions_;
    if (const auto given = table_.take_resumed(seat_, number)) return *given;
    const int index = inner_->choose(d);
    table_.config.journal->answered(seat_, number, index);
    return index;
  }
  void asked_together(const Decision& d) override { inner_->asked_together(d); }
  bool answers_at_once() const override { return inner_->answers_at_once(); }
  bool wants_events() const override { return inner_->wants_events(); }
  void observe(const nlohmann::json& event) override { inner_->observe(event); }
  bool wants_game_access() const override { return inner_->wants_game_access(); }
  void attach(const GameAccess* game) override { inner_->attach(game); }
  void end_game(const nlohmann::json& result) override { inner_->end_game(result); }
  void taken_back(int kept, const nlohmann::json& view) override {
    decisions_ = kept;
    inner_->taken_back(kept, view);
  }

 private:
  TableCore& table_;
  Seat seat_;
  std::unique_ptr<Agent> inner_;
  int decisions_ = 0;
};

// An answer the page gave before the server stopped, given again as the
// page's (the game thread's; the decision is open).
void TableCore::give_answer(Seat seat, int number, int index) {
  TableStream& s = *stream_of_seat(seat);
  Table::Version now;
  {
    std::lock_guard lock(mutex);
    s.answer = json{{"choose", index}, {"decision", number}}.dump();
    ++answered;
    s.messages.push_back(json{{"type", "answered"}, {"decision", number}, {"choose", index}}.dump());
    touch();
    now = version;
  }
  changed.notify_all();
  tell_listeners(now);
}

// The event sink: each stream's narration and, for the spectators, the
// events (a seat's events come through its seat).
void TableCore::on_event(const GameState& state, const Event& e) {
  group_announced_ = false;  // the game moved on (a simultaneous decision ends with its choices)
  for (auto& s : streams) {
    if (!can_see(e, s->seat)) continue;
    if (s->seat == kSpectatorSeat) push(*s, seat_protocol::event(event_json(state, e, s->seat)).dump());
    s->narrator->on_event(state, e);
    send_narration(*s);
  }
}

// Lines the narrator completed since the last call.
void TableCore::send_narration(TableStream& s, bool flush) {
  if (flush) s.narrator->flush();
  std::string text = s.narration_text.str();
  const auto end = text.rfind('\n');
  if (end == std::string::npos) return;
  json lines = json::array();
  std::istringstream in(text.substr(0, end));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  s.narration_text.str(text.substr(end + 1));
  s.narration_text.seekp(0, std::ios::end);
  push(s, json{{"type", "narration"}, {"lines", lines}}.dump());
}

// Every stream gets its view of the game now.
void TableCore::send_views() {
  for (auto& s : streams) {
    send_narration(*s, true);
    json view = match_->view(s->seat);
    if (s->seat == kSpectatorSeat) view["seat"] = nullptr;
    push(*s, json{{"type", "view"}, {"view", std::move(view)}}.dump(), true);
  }
}

// Before a person's decide: the views of the moment, and the other
// streams learn whom the game waits for.
void TableCore::before_decide(Seat seat, int number, int count, const std::vector<Seat>* together) {
  if (!together) {
    group_announced_ = false;
    send_views();
    const std::string player = match_->state().player(seat).name;
    for (auto& s : streams)
      if (s->seat != seat) push(*s, json{{"type", "waiting"}, {"seat", seat}, {"player", player}}.dump());
  } else if (!group_announced_) {
    // A simultaneous decision: the views once, and the streams outside it
    // learn whom the game waits for (inside it, each page has its decide;
    // none learns whether another has answered).
    group_announced_ = true;
    send_views();
    json players = json::array();
    for (Seat s : *together) players.push_back(match_->state().player(s).name);
    for (auto& s : streams)
      if (std::find(together->begin(), together->end(), s->seat) == together->end())
        push(*s, json{{"type", "waiting"}, {"seat", together->front()}, {"player", players[0]}, {"seats", *together},
                      {"players", players}}.dump());
  }
  // Open before the decide message goes out: a page may answer the moment
  // it reads it, before the game thread waits in await_answer.
  std::lock_guard lock(mutex);
  TableStream& mine = *stream_of_seat(seat);
  mine.decision = number;
  mine.count = count;
  mine.answer.reset();
  mine.open = true;
  waiting_for = &mine;
}

// The seat's answer, as one line of the seat protocol. An undo asked
// meanwhile (by any seat) is checked here, where the game is still; when
// it goes ahead the wait ends with UndoGoesAhead.
std::string TableCore::await_answer(TableStream& s) {
  std::unique_lock lock(mutex);
  s.open = true;  // since before_decide; an answer may be here already
  waiting_for = &s;
  struct Closed {
    TableCore& t;
    TableStream& s;
    ~Closed() {
      s.open = false;
      t.waiting_for = nullptr;
    }
  } closed{*this, s};
  for (;;) {
    changed.wait(lock, [&] { return s.answer || stopping || (undo_asked && !undo_asked->checking); });
    if (s.answer) return *s.answer;
    if (stopping) throw TransportFault("the table closed while this seat was deciding");
    undo_asked->checking = true;
    const Seat asker = undo_asked->asker;
    const std::vector<AnswerRecord> answers = match_->answers();
    std::vector<Seat> together;  // who has answered the simultaneous decision under way
    for (const AnswerRecord& a : match_->together_answers()) together.push_back(a.seat);
    for (const auto& other : streams)
      if (other->open && other->answer) together.push_back(other->seat);
    lock.unlock();
    UndoCheck check;
    try {
      check = check_undo(config.definition, config.limits,
                         ReplayStart{config.spec.players, config.spec.seed, config.spec.names}, answers, asker,
                         together);
    } catch (const std::exception& e) {
      check = worded_by_a_library(e) ? UndoCheck{false, "the game could not be replayed", 0, Seat{}}
                                     : UndoCheck{false, fmt::format("the game could not be replayed ({})", e.what()), 0, Seat{}};
    }
    lock.lock();
    const Table::UndoDone done = std::move(undo_asked->done);
    undo_asked.reset();
    if (check.allowed) undo_going_ = check;
    lock.unlock();
    done(check.allowed ? TableReply{} : TableReply{Refusal::conflict, "cannot undo: " + check.reason, 0});
    lock.lock();  // the seat closes under the lock, on the way out too
    if (check.allowed) throw UndoGoesAhead();
  }
}

// Every stream hears that decisions were taken back.
void TableCore::announce_undo(const UndoCheck& undo, const std::vector<AnswerRecord>& answers) {
  const size_t taken = answers.size() - undo.keep;
  const std::string line = undo_line(match_->state().player(undo.seat).name, taken);
  for (auto& s : streams) {
    send_narration(*s, true);
    push(*s, json{{"type", "narration"}, {"lines", json::array({line})}}.dump());
  }
}

// An undo still asked when the game ends is refused (it was never checked).
void TableCore::end_pending_undo() {
  std::unique_lock lock(mutex);
  if (!undo_asked) return;
  const Table::UndoDone done = std::move(undo_asked->done);
  undo_asked.reset();
  const std::string why = stopping ? "the table closed" : "the game is over";
  lock.unlock();
  done(TableReply{Refusal::conflict, why, 0});
}

void TableCore::play() {
  GameResult game_result;
  EventRecorder full_log;
  std::unique_ptr<Match> owned;
  std::vector<std::unique_ptr<Agent>> agents;
  bool finished = false;
  try {
    owned = std::make_unique<Match>(config.definition, config.limits);
    Match& m = *owned;
    std::vector<Agent*> seats;
    for (Seat s : Seat::all(config.spec.players)) {
      if (config.kinds[s.index()] == "human") agents.push_back(std::make_unique<PageSeat>(*this, *stream_of_seat(s)));
      else if (config.journal)
        agents.push_back(std::make_unique<JournaledBot>(*this, s, build_agent(config.kinds[s.index()], config.agent_settings)));
      else agents.push_back(build_agent(config.kinds[s.index()], config.agent_settings));
      seats.push_back(agents.back().get());
    }
    // People may take decisions back: the game is played again up to
    // there, quietly (play/undo.hpp), as in rulebook play.
    Rewinder rewinder(m, seats);
    rewinder.install();
    m.add_sink(rewinder.gate(this));
    m.add_sink(&full_log);
    m.record_answers();
    match_ = &m;
    // Brought back: the game is played again quietly up to where it stood.
    if (!config.resume.answers.empty()) rewinder.rewind(config.resume.answers, config.resume.answers.size());
    for (;;) {
      try {
        game_result = m.play(config.spec.players, config.spec.seed, config.spec.names);
        break;
      } catch (const AgentFailure&) {  // the engine rethrows an agent's exception as AgentFailure
        if (!undo_going_) throw;
        announce_undo(*undo_going_, m.answers());
        if (config.journal)
          config.journal->taken_back(std::vector<AnswerRecord>(
              m.answers().begin(), m.answers().begin() + static_cast<std::ptrdiff_t>(undo_going_->keep)));
        rewinder.rewind(m.answers(), undo_going_->keep);
        undo_going_.reset();
        full_log = EventRecorder();
      }
    }
    send_views();
    finished = true;
    if (config.journal) config.journal->finished();
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex);
    error = in_our_words(e, "the game stopped on an internal error");  // every page reads it
  }
  json end = seat_protocol::end(json(nullptr));
  if (owned) {
    try {
      end["result"] = result_json(owned->state(), game_result);
      // A page's seat is logged as "human": a person answered it.
      std::string text =
          dump_log(make_log(config.spec, owned->state(), game_result, owned->answers(), full_log.events(), config.kinds));
      {
        std::lock_guard lock(mutex);
        log_text = text;
      }
      if (config.save_log) config.save_log(text);
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      if (error.empty()) error = in_our_words(e, "the game's log could not be made");
    }
  }
  {
    std::lock_guard lock(mutex);
    if (!error.empty()) end["error"] = public_words(error, config.definition->dir);  // pages are network clients
    result = end.value("result", json(nullptr));
  }
  for (auto& s : streams) {
    if (owned) send_narration(*s, true);
    push(*s, end.dump());
  }
  Table::Version now;
  {
    std::lock_guard lock(mutex);
    over = true;
    state = finished && error.empty() ? TableState::finished : TableState::abandoned;
    match_ = nullptr;
    touch();
    now = version;
  }
  changed.notify_all();
  tell_listeners(now);
  end_pending_undo();
}

}  // namespace rulebook
