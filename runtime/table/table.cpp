#include "table/table.hpp"

#include <future>
#include <random>

#include <fmt/format.h>

#include "table/public_words.hpp"
#include "table/table_core.hpp"

namespace rulebook {
namespace {

using nlohmann::json;
using Clock = Table::Clock;

// A secret nobody can guess: 32 bits a word from the operating system. Not
// game randomness (which is seeded and replayable).
std::string random_hex(int words) {
  std::random_device device;
  std::string text;
  for (int i = 0; i < words; ++i) text += fmt::format("{:08x}", device());
  return text;
}

TableReply refuse(Refusal why, std::string message) { return TableReply{why, std::move(message), 0}; }

}  // namespace

const char* state_name(TableState state) {
  switch (state) {
    case TableState::created: return "created";
    case TableState::playing: return "playing";
    case TableState::finished: return "finished";
    case TableState::abandoned: return "abandoned";
  }
  return "?";
}

// ---- TableCore: what both threads share --------------------------------

TableCore::TableCore(TableConfig c)
    : config(std::move(c)), instance(random_hex(1)), images(*config.definition), resumed_together(config.resume.together) {
  for (Seat s : Seat::all(config.spec.players)) {
    if (config.kinds[s.index()] != "human") continue;
    auto stream = std::make_unique<TableStream>();
    stream->seat = s;
    const bool kept = s.index() < config.tokens.size() && !config.tokens[s.index()].empty();
    stream->token = kept ? config.tokens[s.index()] : random_hex(4);  // 128 bits
    streams.push_back(std::move(stream));
  }
  auto watchers = std::make_unique<TableStream>();
  watchers->seat = kSpectatorSeat;
  streams.push_back(std::move(watchers));
  for (auto& s : streams) {
    s->narrator = std::make_unique<Narrator>(s->narration_text, s->seat);
    const Seat shown = s->seat == kSpectatorSeat ? Seat::none() : s->seat;
    s->messages.push_back(page_message(config, images, shown).dump());
  }
}

std::optional<int> TableCore::take_resumed(Seat seat, int number) {
  for (auto it = resumed_together.begin(); it != resumed_together.end(); ++it)
    if (it->seat == seat && it->decision == number) {
      const int index = it->index;
      resumed_together.erase(it);
      return index;
    }
  return std::nullopt;
}

void TableCore::touch() {
  ++version;
  last_activity = Clock::now();
}

void TableCore::push(TableStream& stream, std::string text, bool is_view) {
  Table::Version now;
  {
    std::lock_guard lock(mutex);
    stream.messages.push_back(std::move(text));
    if (is_view) stream.last_view = stream.messages.size() - 1;
    touch();
    now = version;
  }
  changed.notify_all();
  tell_listeners(now);
}

void TableCore::tell_listeners(Table::Version now) {
  std::lock_guard lock(listeners_mutex);
  if (now <= told) return;
  told = now;
  for (const auto& [number, listen] : listeners) listen(now);
}

TableStream& TableCore::stream(Table::StreamId id) const {
  if (id < 0 || static_cast<size_t>(id) >= streams.size())
    throw std::invalid_argument(fmt::format("no stream {} at this table", id));
  return *streams[static_cast<size_t>(id)];
}

TableStream* TableCore::stream_of_seat(Seat seat) const {
  for (const auto& s : streams)
    if (s->seat == seat) return s.get();
  return nullptr;
}

// ---- Table --------------------------------------------------------------

Table::Table(TableConfig config) {
  if (!config.definition) throw std::invalid_argument("a table needs a game definition");
  if (config.spec.players < 1 || static_cast<size_t>(config.spec.players) != config.kinds.size())
    throw std::invalid_argument(fmt::format("a table of {} players needs {} seat kinds, got {}", config.spec.players,
                                            config.spec.players, config.kinds.size()));
  if (config.id.empty()) config.id = random_hex(2);
  core_ = std::make_unique<TableCore>(std::move(config));
}

Table::~Table() { stop(); }

void Table::start() {
  {
    std::lock_guard lock(core_->mutex);
    if (core_->state != TableState::created || core_->stopping) return;
    core_->state = TableState::playing;
    core_->touch();
  }
  core_->game_thread = std::thread([this] { core_->play(); });
}

void Table::stop() {
  Version now;
  {
    std::lock_guard lock(core_->mutex);
    if (core_->stopping && !core_->game_thread.joinable()) return;
    core_->stopping = true;
    if (core_->state == TableState::created) {  // never started: nothing will come
      core_->state = TableState::abandoned;
      core_->over = true;
    }
    core_->touch();
    now = core_->version;
  }
  core_->changed.notify_all();
  core_->tell_listeners(now);
  if (core_->game_thread.joinable()) core_->game_thread.join();
}

const std::string& Table::id() const { return core_->config.id; }

const std::string& Table::instance() const { return core_->instance; }

const TableConfig& Table::config() const { return core_->config; }

TableState Table::state() const {
  std::lock_guard lock(core_->mutex);
  return core_->state;
}

Clock::time_point Table::last_activity() const {
  std::lock_guard lock(core_->mutex);
  return core_->last_activity;
}

std::string Table::token(Seat seat) const {
  const TableStream* s = core_->stream_of_seat(seat);
  return s ? s->token : "";
}

Table::StreamId Table::stream_of(const std::string& token) const {
  const auto& streams = core_->streams;
  if (token.empty()) return static_cast<StreamId>(streams.size() - 1);
  for (size_t i = 0; i + 1 < streams.size(); ++i)
    if (streams[i]->token == token) return static_cast<StreamId>(i);
  return kNoStream;
}

bool Table::spectators(StreamId stream) const {
  return stream == static_cast<StreamId>(core_->streams.size() - 1);
}

Table::Seen Table::seen(StreamId stream) const {
  std::lock_guard lock(core_->mutex);
  const TableStream& s = core_->stream(stream);
  Seen seen;
  seen.seat = s.seat == TableCore::kSpectatorSeat ? Seat::none() : s.seat;
  seen.version = core_->version;
  seen.messages = s.messages.size();
  if (s.open && !s.answer) {
    seen.decision = s.decision;
    seen.options = s.count;
  }
  if (s.last_view > 0) seen.view = s.messages[s.last_view];
  return seen;
}

std::vector<std::string> Table::messages(StreamId stream, size_t from) const {
  std::lock_guard lock(core_->mutex);
  const auto& all = core_->stream(stream).messages;
  if (from >= all.size()) return {};
  return std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(from), all.end());
}

size_t Table::wait_messages(StreamId stream, size_t next, Clock::duration timeout) const {
  std::unique_lock lock(core_->mutex);
  const TableStream& s = core_->stream(stream);
  core_->changed.wait_for(lock, timeout, [&] { return core_->stopping || next < s.messages.size(); });
  return s.messages.size();
}

Table::Version Table::version() const {
  std::lock_guard lock(core_->mutex);
  return core_->version;
}

Table::Version Table::wait_changed(Version seen, Clock::duration timeout) const {
  std::unique_lock lock(core_->mutex);
  core_->changed.wait_for(lock, timeout, [&] { return core_->version > seen; });
  return core_->version;
}

int Table::subscribe(Listener listener) {
  if (!listener) throw std::invalid_argument("subscribe: an empty listener");
  std::lock_guard lock(core_->listeners_mutex);
  const int number = core_->next_listener++;
  core_->listeners.emplace(number, std::move(listener));
  return number;
}

void Table::unsubscribe(int number) {
  std::lock_guard lock(core_->listeners_mutex);
  core_->listeners.erase(number);
}

bool Table::closed() const {
  std::lock_guard lock(core_->mutex);
  return core_->stopping;
}

TableReply Table::answer(StreamId stream, const std::string& text) {
  if (stream == kNoStream) return refuse(Refusal::forbidden, "unknown token: this link opens no seat at this table");
  if (spectators(stream)) return refuse(Refusal::forbidden, "a spectator cannot answer: open a seat's link");
  // Parsed without exceptions: the reader is told what we expected, never a
  // parser's own words.
  const json body = json::parse(text, nullptr, false);
  if (body.is_discarded())
    return refuse(Refusal::malformed, R"(malformed JSON: expected an object like {"choose": 2, "decision": 1})");
  TableReply reply;
  Version now;
  {
    std::lock_guard lock(core_->mutex);
    TableStream& s = core_->stream(stream);
    if (core_->over) return refuse(Refusal::conflict, "the game is over");
    if (!s.open || s.answer) return refuse(Refusal::conflict, fmt::format("it is not seat {}'s decision", s.seat));
    if (body.is_object() && body.contains("decision") && body["decision"].is_number_integer() &&
        body["decision"].get<int64_t>() != s.decision)
      return refuse(Refusal::conflict, fmt::format("decision {} is no longer open (decision {} is)",
                                                   body["decision"].get<int64_t>(), s.decision));
    const seat_protocol::Answer answer = seat_protocol::check_answer(body, s.count, s.decision);
    if (!answer.ok()) return refuse(Refusal::malformed, answer.error);
    // On disk before anybody hears of it: a server that dies now brings it back.
    if (core_->config.journal) {
      try {
        core_->config.journal->answered(s.seat, s.decision, answer.index);
      } catch (const std::exception& e) {
        return refuse(Refusal::conflict, fmt::format("the table could not keep this answer: {}", e.what()));
      }
    }
    s.answer = json{{"choose", answer.index}, {"decision", s.decision}}.dump();
    ++core_->answered;
    s.messages.push_back(json{{"type", "answered"}, {"decision", s.decision}, {"choose", answer.index}}.dump());
    core_->touch();
    now = core_->version;
    reply.decision = s.decision;
  }
  core_->changed.notify_all();
  core_->tell_listeners(now);
  return reply;
}

void Table::undo(StreamId stream, UndoDone done) {
  if (!done) throw std::invalid_argument("undo: an empty callback");
  if (stream == kNoStream) return done(refuse(Refusal::forbidden, "unknown token: this link opens no seat at this table"));
  if (spectators(stream)) return done(refuse(Refusal::forbidden, "a spectator cannot undo: open a seat's link"));
  TableCore& t = *core_;
  std::optional<TableReply> refused;
  {
    std::lock_guard lock(t.mutex);
    const Seat asker = t.stream(stream).seat;
    if (t.over) refused = refuse(Refusal::conflict, "the game is over");
    else if (!t.waiting_for || t.waiting_for->answer)
      refused = refuse(Refusal::conflict, "cannot undo now: a bot is deciding (try again in a moment)");
    else if (t.undo_asked) refused = refuse(Refusal::conflict, "cannot undo now: another undo is being checked");
    else {
      t.undo_asked = TableCore::AskedUndo{asker, std::move(done), false};
      t.last_activity = Clock::now();
    }
  }
  if (refused) return done(*refused);
  t.changed.notify_all();
}

TableReply Table::undo(StreamId stream) {
  auto reply = std::make_shared<std::promise<TableReply>>();
  std::future<TableReply> answered = reply->get_future();
  undo(stream, [reply](const TableReply& r) { reply->set_value(r); });
  return answered.get();
}

const std::string* Table::image(size_t number, std::string& type) const { return core_->images.image(number, type); }

bool Table::wait_over(double seconds) const {
  std::unique_lock lock(core_->mutex);
  return core_->changed.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return core_->over; });
}

bool Table::over() const {
  std::lock_guard lock(core_->mutex);
  return core_->over;
}

std::string Table::error() const {
  std::lock_guard lock(core_->mutex);
  return core_->error;
}

std::string Table::public_error() const { return public_words(error(), core_->config.definition->dir); }

nlohmann::json Table::result() const {
  std::lock_guard lock(core_->mutex);
  return core_->result;
}

std::string Table::log_text() const {
  std::lock_guard lock(core_->mutex);
  return core_->log_text;
}

int Table::answered() const {
  std::lock_guard lock(core_->mutex);
  return core_->answered;
}

}  // namespace rulebook
