#include "table/table.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "agents/external_seat.hpp"
#include "bots/agent_factory.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "play/undo.hpp"
#include "table/table_page.hpp"

namespace rulebook {
namespace {

using nlohmann::json;
using Clock = Table::Clock;

// The spectators' stream is written as a seat that no player holds: it
// receives only events every seat receives and sees only public
// components (at most 31 players, so bit 31 is never a player's).
constexpr Seat kSpectatorSeat{31};

// A token nobody can guess: 128 bits from the operating system. Not game
// randomness (which is seeded and replayable): a secret.
std::string new_token() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", device());
  return token;
}


}  // namespace

// One reader of the game: a person's seat, or the spectators'.
struct Stream {
  Seat seat;  // kSpectatorSeat for spectators
  std::string token;
  std::vector<std::string> messages;  // JSON texts, in order; SSE ids are indexes
  // The game thread's own: the narration as this seat may know it.
  std::ostringstream narration_text;
  std::unique_ptr<Narrator> narrator;
  // The seat's decision being asked (seat protocol numbering: this seat's
  // decisions, from 1) and its option count; `open` while the game waits
  // for its answer, which answer() leaves in `answer`.
  int decision = 0;
  int count = 0;
  bool open = false;
  std::optional<std::string> answer;
};

// Thrown out of a person's seat's wait when its undo goes ahead: the game
// unwinds and is played again up to the decision taken back.
struct UndoGoesAhead : std::runtime_error {
  UndoGoesAhead() : std::runtime_error("undo") {}
};

struct Table::Impl : EventSink {
  TableConfig config;
  std::thread game_thread;
  TableState state = TableState::created;
  Clock::time_point last_activity = Clock::now();
  std::string log_text;
  std::vector<std::function<void()>> listeners;  // on_change, set before start

  mutable std::mutex mutex;
  mutable std::condition_variable changed;  // a message was added, an answer or undo came, or stopping
  std::vector<std::unique_ptr<Stream>> streams;  // human seats first, the spectators' last
  bool stopping = false;
  bool over = false;
  std::string error;
  json result;
  Stream* waiting_for = nullptr;  // the stream whose answer the game waits for
  int answered = 0;
  // An undo asked by a seat, checked by the game thread; its reply.
  Seat undo_asked;
  std::optional<UndoCheck> undo_reply;
  std::optional<UndoCheck> undo_going;  // the game thread's: an undo that goes ahead

  Match* match = nullptr;  // the game thread's, while it plays
  DisplayImages images;  // read when the table opens: served by number

  Stream* stream_for_token(const std::string& token) const {
    for (const auto& s : streams)
      if (s->token == token) return s.get();
    return nullptr;
  }
  Stream* stream_of_seat(Seat seat) const {
    for (const auto& s : streams)
      if (s->seat == seat) return s.get();
    return nullptr;
  }
  Stream* spectators() const { return streams.back().get(); }

  // Adds a message (a JSON text) to a stream.
  void push(Stream& stream, std::string text) {
    {
      std::lock_guard lock(mutex);
      stream.messages.push_back(std::move(text));
      last_activity = Clock::now();
      changed.notify_all();
    }
    tell_listeners();
  }
  // Outside the lock: a listener may read the table at once.
  void tell_listeners() const {
    for (const auto& listen : listeners) listen();
  }
  void push(Stream& stream, const json& message) { push(stream, message.dump()); }

  // The page's own first message (table/table_page.hpp).
  json table_message(const Stream& s) const {
    return page_message(config, images, s.seat == kSpectatorSeat ? Seat::none() : s.seat);
  }

  // The event sink (game thread): each stream's narration and, for the
  // spectators, the events (a seat's events come through its seat).
  void on_event(const GameState& state, const Event& e) override {
    for (auto& s : streams) {
      if (!can_see(e, s->seat)) continue;
      if (s->seat == kSpectatorSeat) push(*s, seat_protocol::event(event_json(state, e, s->seat)));
      s->narrator->on_event(state, e);
      send_narration(*s);
    }
  }

  // Lines the narrator completed since the last call (game thread).
  void send_narration(Stream& s, bool flush = false) {
    if (flush) s.narrator->flush();
    std::string text = s.narration_text.str();
    const auto end = text.rfind('\n');
    if (end == std::string::npos) return;
    json lines = json::array();
    std::istringstream in(text.substr(0, end));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    s.narration_text.str(text.substr(end + 1));
    s.narration_text.seekp(0, std::ios::end);
    push(s, json{{"type", "narration"}, {"lines", lines}});
  }

  // Every stream gets its view of the game now (game thread).
  void send_views() {
    for (auto& s : streams) {
      send_narration(*s, true);
      json view = match->view(s->seat);
      if (s->seat == kSpectatorSeat) view["seat"] = nullptr;
      push(*s, json{{"type", "view"}, {"view", std::move(view)}});
    }
  }

  // Before a human seat's decide (game thread): the views of the moment,
  // and the other pages learn whom the game waits for.
  void before_decide(Seat seat, int number, int count) {
    send_views();
    const std::string player = match->state().player(seat).name;
    for (auto& s : streams)
      if (s->seat != seat) push(*s, json{{"type", "waiting"}, {"seat", seat}, {"player", player}});
    // Open before the decide message goes out: a page may answer the moment
    // it reads it, before the game thread waits in await_answer.
    std::lock_guard lock(mutex);
    Stream& mine = *stream_of_seat(seat);
    mine.decision = number;
    mine.count = count;
    mine.answer.reset();
    mine.open = true;
    waiting_for = &mine;
  }

  // The seat's answer, as one line of the seat protocol (game thread). An
  // undo asked meanwhile (by any seat) is checked here, where the game is
  // still; when it goes ahead the wait ends with UndoGoesAhead.
  std::string await_answer(Stream& s) {
    std::unique_lock lock(mutex);
    s.open = true;  // since before_decide; an answer may be here already
    waiting_for = &s;
    struct Closed {
      Impl& t;
      Stream& s;
      ~Closed() { s.open = false; t.waiting_for = nullptr; }
    } closed{*this, s};
    for (;;) {
      changed.wait(lock, [&] { return s.answer || stopping || (!undo_asked.is_none() && !undo_reply); });
      if (s.answer) return *s.answer;
      if (stopping) throw TransportFault("the table closed while this seat was deciding");
      const Seat asker = undo_asked;
      const std::vector<AnswerRecord> answers = match->answers();
      lock.unlock();
      UndoCheck check;
      try {
        check = check_undo(config.definition, config.limits,
                           ReplayStart{config.spec.players, config.spec.seed, config.spec.names}, answers, asker);
      } catch (const std::exception& e) {
        check = UndoCheck{false, fmt::format("the game could not be replayed ({})", e.what()), 0};
      }
      lock.lock();
      undo_reply = check;
      changed.notify_all();
      if (check.allowed) {
        undo_going = check;
        throw UndoGoesAhead();
      }
    }
  }

  // Every stream hears that decisions were taken back (game thread).
  void announce_undo(const UndoCheck& undo, const std::vector<AnswerRecord>& answers) {
    const size_t taken = answers.size() - undo.keep;
    const std::string line = fmt::format("{} takes back {} decision{}.", match->state().player(answers[undo.keep].seat).name,
                                         taken, taken == 1 ? "" : "s");
    for (auto& s : streams) {
      send_narration(*s, true);
      push(*s, json{{"type", "narration"}, {"lines", json::array({line})}});
    }
  }

  void play() {
    GameResult game_result;
    EventRecorder full_log;
    std::unique_ptr<Match> owned;
    std::vector<std::unique_ptr<Agent>> agents;
    try {
      owned = std::make_unique<Match>(config.definition, config.limits);
      Match& m = *owned;
      std::vector<Agent*> seats;
      for (Seat s : Seat::all(config.spec.players)) {
        if (config.kinds[s.index()] == "human") agents.push_back(std::make_unique<PageSeat>(*this, *stream_of_seat(s)));
        else agents.push_back(build_agent(config.kinds[s.index()], config.agent_settings));
        seats.push_back(agents.back().get());
      }
      // Human seats may take decisions back: the game is played again up
      // to there, quietly (play/undo.hpp), as in rulebook play.
      Rewinder rewinder(m, seats);
      rewinder.install();
      m.add_sink(rewinder.gate(this));
      m.add_sink(&full_log);
      m.record_answers();
      match = &m;
      for (;;) {
        try {
          game_result = m.play(config.spec.players, config.spec.seed, config.spec.names);
          break;
        } catch (const AgentFailure&) {  // the engine rethrows an agent's exception as AgentFailure
          if (!undo_going) throw;
          announce_undo(*undo_going, m.answers());
          rewinder.rewind(m.answers(), undo_going->keep);
          undo_going.reset();
          full_log = EventRecorder();
        }
      }
      send_views();
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      error = e.what();
    }
    json end = seat_protocol::end(json(nullptr));
    if (owned) {
      try {
        end["result"] = result_json(owned->state(), game_result);
        // A page's seat is logged as "human": a person answered it.
        std::string text =
            dump_log(make_log(config.spec, owned->state(), game_result, owned->answers(), full_log.events(), config.kinds));
        if (config.save_log) config.save_log(text);
        std::lock_guard lock(mutex);
        log_text = std::move(text);
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        if (error.empty()) error = e.what();
      }
    }
    {
      std::lock_guard lock(mutex);
      if (!error.empty()) end["error"] = error;
      result = end.value("result", json(nullptr));
    }
    for (auto& s : streams) {
      if (owned) send_narration(*s, true);
      push(*s, end);
    }
    {
      std::lock_guard lock(mutex);
      over = true;
      state = TableState::over;
      match = nullptr;
      last_activity = Clock::now();
      changed.notify_all();
    }
    tell_listeners();
  }

  // A person's side of the seat protocol: what the seat sends goes to its
  // stream, the answers its page gives come back as lines.
  struct PageTransport : SeatTransport {
    PageTransport(Impl& table, Stream& stream) : table(table), stream(stream) {}
    void send(const std::string& line, Clock::time_point) override { table.push(stream, line); }
    // A person takes the time they need: no deadline.
    std::string receive(Clock::time_point) override {
      if (table.config.before_wait) table.config.before_wait(stream.seat);
      return table.await_answer(stream);
    }
    Impl& table;
    Stream& stream;
  };

  // A human seat: a seat answered from outside the process, like an exec
  // bot (agents/external_seat.hpp), over its page. The table sends the
  // end itself, to every page, after the last view.
  struct PageSeat : ExternalSeat {
    PageSeat(Impl& table, Stream& stream)
        : ExternalSeat(std::make_unique<PageTransport>(table, stream), "web", std::chrono::hours(24 * 365)),
          table(table),
          seat(stream.seat) {}
    int choose(const Decision& d) override {
      table.before_decide(seat, decisions() + 1, d.count());
      return ExternalSeat::choose(d);
    }
    void end_game(const nlohmann::json&) override {}
    Impl& table;
    Seat seat;
  };

};

Table::Table(TableConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  const auto& c = impl_->config;
  for (Seat s : Seat::all(c.spec.players)) {
    if (c.kinds[s.index()] != "human") continue;
    auto stream = std::make_unique<Stream>();
    stream->seat = s;
    stream->token = new_token();
    impl_->streams.push_back(std::move(stream));
  }
  auto spectators = std::make_unique<Stream>();
  spectators->seat = kSpectatorSeat;
  impl_->streams.push_back(std::move(spectators));
  impl_->images = DisplayImages(*c.definition);
  for (auto& s : impl_->streams) {
    s->narrator = std::make_unique<Narrator>(s->narration_text, s->seat);
    s->messages.push_back(impl_->table_message(*s).dump());
  }
}

Table::~Table() { stop(); }

void Table::start() {
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->state != TableState::created) return;
    impl_->state = TableState::playing;
  }
  impl_->game_thread = std::thread([this] { impl_->play(); });
}

void Table::stop() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
    if (impl_->state == TableState::created) impl_->state = TableState::over;
    impl_->changed.notify_all();
  }
  if (impl_->game_thread.joinable()) impl_->game_thread.join();
  impl_->tell_listeners();
}

const TableConfig& Table::config() const { return impl_->config; }

TableState Table::state() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->state;
}

Clock::time_point Table::last_activity() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->last_activity;
}

std::string Table::token(Seat seat) const {
  for (const auto& s : impl_->streams)
    if (s->seat == seat) return s->token;
  return "";
}

Table::StreamId Table::stream_of(const std::string& token) const {
  const auto& streams = impl_->streams;
  if (token.empty()) return static_cast<StreamId>(streams.size() - 1);
  for (size_t i = 0; i + 1 < streams.size(); ++i)
    if (streams[i]->token == token) return static_cast<StreamId>(i);
  return kNoStream;
}

bool Table::spectators(StreamId stream) const {
  return stream == static_cast<StreamId>(impl_->streams.size() - 1);
}

std::vector<std::string> Table::messages(StreamId stream, size_t from) const {
  std::lock_guard lock(impl_->mutex);
  const auto& all = impl_->streams.at(static_cast<size_t>(stream))->messages;
  if (from >= all.size()) return {};
  return std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(from), all.end());
}

size_t Table::wait_messages(StreamId stream, size_t next, Clock::duration timeout) const {
  std::unique_lock lock(impl_->mutex);
  const Stream& s = *impl_->streams.at(static_cast<size_t>(stream));
  impl_->changed.wait_for(lock, timeout, [&] { return impl_->stopping || next < s.messages.size(); });
  return s.messages.size();
}

bool Table::closed() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->stopping;
}

void Table::on_change(std::function<void()> listener) {
  std::lock_guard lock(impl_->mutex);
  impl_->listeners.push_back(std::move(listener));
}

TableReply Table::answer(StreamId stream, const std::string& text) {
  auto refuse = [](Refusal why, std::string message) { return TableReply{why, std::move(message), 0}; };
  if (stream == kNoStream) return refuse(Refusal::forbidden, "unknown token: this link opens no seat at this table");
  if (spectators(stream)) return refuse(Refusal::forbidden, "a spectator cannot answer: open a seat's link");
  // Parsed without exceptions: the reader is told what we expected, never a
  // parser's own words.
  const json body = json::parse(text, nullptr, false);
  if (body.is_discarded())
    return refuse(Refusal::malformed, R"(malformed JSON: expected an object like {"choose": 2, "decision": 1})");
  TableReply reply;
  {
    std::lock_guard lock(impl_->mutex);
    Stream& s = *impl_->streams[static_cast<size_t>(stream)];
    if (impl_->over) return refuse(Refusal::conflict, "the game is over");
    if (!s.open || s.answer) return refuse(Refusal::conflict, fmt::format("it is not seat {}'s decision", s.seat));
    if (body.is_object() && body.contains("decision") && body["decision"].is_number_integer() &&
        body["decision"].get<int64_t>() != s.decision)
      return refuse(Refusal::conflict, fmt::format("decision {} is no longer open (decision {} is)",
                                                   body["decision"].get<int64_t>(), s.decision));
    const seat_protocol::Answer answer = seat_protocol::check_answer(body, s.count, s.decision);
    if (!answer.ok()) return refuse(Refusal::malformed, answer.error);
    s.answer = json{{"choose", answer.index}, {"decision", s.decision}}.dump();
    ++impl_->answered;
    s.messages.push_back(json{{"type", "answered"}, {"decision", s.decision}, {"choose", answer.index}}.dump());
    impl_->last_activity = Clock::now();
    impl_->changed.notify_all();
    reply.decision = s.decision;
  }
  impl_->tell_listeners();
  return reply;
}

TableReply Table::undo(StreamId stream) {
  auto refuse = [](Refusal why, std::string message) { return TableReply{why, std::move(message), 0}; };
  if (stream == kNoStream) return refuse(Refusal::forbidden, "unknown token: this link opens no seat at this table");
  if (spectators(stream)) return refuse(Refusal::forbidden, "a spectator cannot undo: open a seat's link");
  auto& t = *impl_;
  std::unique_lock lock(t.mutex);
  if (t.over) return refuse(Refusal::conflict, "the game is over");
  if (!t.waiting_for || t.waiting_for->answer)
    return refuse(Refusal::conflict, "cannot undo now: a bot is deciding (try again in a moment)");
  if (!t.undo_asked.is_none()) return refuse(Refusal::conflict, "cannot undo now: another undo is being checked");
  t.undo_asked = t.streams[static_cast<size_t>(stream)]->seat;
  t.undo_reply.reset();
  t.last_activity = Clock::now();
  t.changed.notify_all();
  t.changed.wait(lock, [&] { return t.undo_reply.has_value() || t.stopping || t.over; });
  t.undo_asked = Seat::none();
  if (!t.undo_reply) return refuse(Refusal::conflict, t.stopping ? "the table closed" : "the game is over");
  const UndoCheck check = *t.undo_reply;
  t.undo_reply.reset();
  t.changed.notify_all();
  if (!check.allowed) return refuse(Refusal::conflict, "cannot undo: " + check.reason);
  return {};
}

const std::string* Table::image(size_t number, std::string& type) const {
  return impl_->images.image(number, type);
}

bool Table::wait_over(double seconds) const {
  std::unique_lock lock(impl_->mutex);
  return impl_->changed.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return impl_->over; });
}

bool Table::over() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->over;
}

std::string Table::error() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->error;
}

nlohmann::json Table::result() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->result;
}

std::string Table::log_text() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log_text;
}

int Table::answered() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->answered;
}

}  // namespace rulebook
