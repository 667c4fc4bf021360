#pragma once
// A table: one game played by people (each at their own page, answering
// over any transport) and bots, with no notion of HTTP. The server in cli/
// maps requests onto these methods, so that the same table could be served
// by another front end, and one server can hold many tables.
//
// The game runs in a thread of its own through a Match. Each person's seat
// is an agent whose choose() publishes the decision and blocks until the
// seat's answer comes in; bots play in the same thread. Every reader (a
// seat, or the spectators) has its own stream of JSON messages (table,
// hello, event, narration, view, decide, waiting, answered, end), built on
// the game thread from what that seat may know (observation/). A seat's
// token opens its own stream only; the spectators' stream carries the
// public view (what no seat's secret shows). Readers wait on a stream
// without holding a thread of the table: wait_messages() returns when
// there is something new, and on_change() tells an event loop to look.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent_registry.hpp"
#include "core/game_definition.hpp"
#include "lua/rule_engine.hpp"
#include "play/log_file.hpp"

namespace rulebook {

struct TableConfig {
  std::shared_ptr<const GameDefinition> definition;
  GameSpec spec;                   // players and seed resolved
  EngineLimits limits;
  std::vector<std::string> kinds;  // per seat: "human" (a person's page) or a bot kind
  AgentSettings agent_settings;    // --agent-timeout for exec: bots
  // Called on the game thread with the finished game's log (JSON text);
  // what it throws becomes the table's error. Empty: the log is kept only
  // in memory (log_text()).
  std::function<void(const std::string& log)> save_log;
  // Tests only: runs on the game thread after a person's decide message
  // is out and before the game waits for its answer (the moment a quick
  // page's answer may arrive first).
  std::function<void(Seat seat)> before_wait;
};

// Why a table refused a request; the front end words it for its protocol
// (HTTP: forbidden 403, conflict 409, malformed 400, missing 404).
enum class Refusal { none, forbidden, conflict, malformed, missing };

struct TableReply {
  Refusal refusal = Refusal::none;
  std::string message;  // what went wrong, in our words (empty when accepted)
  int decision = 0;     // answer: the decision answered
  bool ok() const { return refusal == Refusal::none; }
};

// Where a table is in its life: set up (not started), playing, or over
// (finished, or stopped by an error or by stop()).
enum class TableState { created, playing, over };

class Table {
 public:
  using Clock = std::chrono::steady_clock;
  // A reader's stream: a seat's, or the spectators'.
  using StreamId = int;
  static constexpr StreamId kNoStream = -1;

  explicit Table(TableConfig config);
  ~Table();  // stops the table
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // Starts the game thread.
  void start();
  // Ends the game: streams close, a seat still deciding fails the game
  // ("the table closed"), the game thread is joined.
  void stop();

  const TableConfig& config() const;
  TableState state() const;
  // When anything last happened at the table: a message, an answer, an undo.
  Clock::time_point last_activity() const;

  // A person's seat's secret token ("" for a bot's seat).
  std::string token(Seat seat) const;
  // The stream a token opens: "" the spectators', a seat's token its
  // seat's, anything else kNoStream.
  StreamId stream_of(const std::string& token) const;
  // Is this the spectators' stream (which may not answer or undo)?
  bool spectators(StreamId stream) const;

  // Messages of a stream from index `from` on (JSON texts; indexes are the
  // stream's message numbers, stable for reconnecting readers).
  std::vector<std::string> messages(StreamId stream, size_t from = 0) const;
  // Waits until the stream has a message at index `next`, the table stops,
  // or `timeout` passes; returns the stream's message count then.
  size_t wait_messages(StreamId stream, size_t next, Clock::duration timeout) const;
  // Has the table stopped (no message will ever come again)?
  bool closed() const;
  // Called (from any thread, without the table's lock) after every new
  // message or stop: how an event loop learns to look at its readers.
  void on_change(std::function<void()> listener);

  // A seat's answer: the text a page sent, {"choose": INDEX, "decision": N}
  // (the seat protocol's answer, checked by its own parser).
  TableReply answer(StreamId stream, const std::string& body);
  // The seat takes back its last decision and every one after it, unless
  // something was revealed to anybody since (play/undo.hpp). Blocks until
  // the game thread has checked it.
  TableReply undo(StreamId stream);

  // The game's own images (game.yaml display:), by number: their bytes and
  // MIME type; null when there is no such image.
  const std::string* image(size_t number, std::string& type) const;

  // Waits until the game is over (true) or `seconds` passed (false).
  bool wait_over(double seconds) const;
  bool over() const;
  // After the end: "" when the game finished, else what stopped it.
  std::string error() const;
  // The end message's result object (null until the end).
  nlohmann::json result() const;
  // The finished game's log (JSON text; empty until the end).
  std::string log_text() const;
  // Decisions answered so far (for tests: a game that moved on).
  int answered() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rulebook
