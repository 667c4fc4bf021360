#pragma once
// A table: one game played by people (each at their own page, answering
// over any transport) and bots, with no notion of HTTP. A server maps its
// requests onto these methods, so that another front end could serve the
// same table, and one server can hold many tables, each with its own id.
//
// The game runs in a thread of its own through a Match. Each person's seat
// is an agent whose choose() publishes the decision and blocks until the
// seat's answer comes in; bots play in the same thread. Every reader (a
// seat, or the spectators) has its own stream of JSON messages (table,
// hello, event, narration, view, decide, waiting, answered, undo, end),
// built on the game thread from what that seat may know (observation/).
// A seat's token opens its own stream only; the spectators' stream
// carries the public view (what no seat's secret shows).
//
// Nothing here needs a thread per reader: every change raises the table's
// version, and a server either waits for a version past the one it saw
// (wait_changed, wait_messages) or subscribes a callback that tells its
// event loop to look; undo can answer through a callback too.
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
#include "table/table_journal.hpp"

namespace rulebook {

class TableCore;  // table_core.hpp: the table's state and game thread

struct TableConfig {
  std::string id;                  // how a server names the table; empty: the table draws one
  std::shared_ptr<const GameDefinition> definition;
  GameSpec spec;                   // players and seed resolved
  EngineLimits limits;
  std::vector<std::string> kinds;  // per seat: "human" (a person's page) or a bot kind
  AgentSettings agent_settings;    // --agent-timeout for exec: bots
  // Called on the game thread with the finished game's log (JSON text);
  // what it throws becomes the table's error. The log is kept in memory
  // too (log_text()).
  std::function<void(const std::string& log)> save_log;
  // Each seat's token (people's seats; "" for a bot's): a table brought
  // back keeps its links. Empty: the table draws them.
  std::vector<std::string> tokens;
  // Where the table keeps its answers as they come (rulebook serve
  // --state-dir); null: nowhere.
  std::shared_ptr<TableJournal> journal;
  // A table brought back: where its game stood (played again quietly first).
  TableResume resume;
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

// A table's life: created (not started), playing, then finished (the game
// reached its end) or abandoned (stopped before, by stop() or an error;
// error() says which).
enum class TableState { created, playing, finished, abandoned };
const char* state_name(TableState state);

class Table {
 public:
  using Clock = std::chrono::steady_clock;
  // A reader's stream: a seat's, or the spectators'.
  using StreamId = int;
  static constexpr StreamId kNoStream = -1;
  // Raised by every change a reader could see (a message, the end, stop).
  using Version = uint64_t;
  using Listener = std::function<void(Version)>;
  using UndoDone = std::function<void(const TableReply&)>;

  // What a reader sees now.
  struct Seen {
    Seat seat;              // none for the spectators
    Version version = 0;    // the table's version when this was read
    size_t messages = 0;    // the stream's message count
    int decision = 0;       // the seat's decision open for its answer (0: none)
    int options = 0;        // its option count
    std::string view;       // the stream's last view message (JSON text; "" before the first)
  };

  explicit Table(TableConfig config);
  ~Table();  // stops the table
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // Starts the game thread (created -> playing; once).
  void start();
  // Ends the game: a seat still deciding fails the game ("the table
  // closed"), the game thread is joined, readers are told. A table that has
  // not finished is abandoned. Waits for a game of bots alone to end.
  void stop();

  const std::string& id() const;
  // Drawn anew for every Table object: a page's stream position (its SSE
  // id) counts in this table's messages only, not in the ones of the same
  // table before the server restarted.
  const std::string& instance() const;
  const TableConfig& config() const;
  TableState state() const;
  // When anything last happened at the table: a message, an answer, an
  // undo asked, the end.
  Clock::time_point last_activity() const;

  // A person's seat's secret token ("" for a bot's seat).
  std::string token(Seat seat) const;
  // The stream a token opens: "" the spectators', a seat's token its
  // seat's, anything else kNoStream.
  StreamId stream_of(const std::string& token) const;
  // Is this the spectators' stream (which may not answer or undo)?
  bool spectators(StreamId stream) const;

  // Streams' reading methods throw std::invalid_argument for a StreamId
  // that is not this table's.
  Seen seen(StreamId stream) const;
  // Messages of a stream from index `from` on (JSON texts; indexes are the
  // stream's message numbers, stable for reconnecting readers).
  std::vector<std::string> messages(StreamId stream, size_t from = 0) const;
  // Waits until the stream has a message at index `next`, the table closes,
  // or `timeout` passes; returns the stream's message count then.
  size_t wait_messages(StreamId stream, size_t next, Clock::duration timeout) const;

  Version version() const;
  // Waits until the version passes `seen` or `timeout` passes; returns the
  // version then.
  Version wait_changed(Version seen, Clock::duration timeout) const;
  // Calls `listener` after every change, from the thread that made it and
  // outside the table's lock (it may read the table at once, but must not
  // subscribe or unsubscribe from inside), with versions that only rise: a
  // change whose notice would come after a later change's is covered by
  // that one (the version says the table holds both). Returns its number.
  int subscribe(Listener listener);
  // After it returns, the listener is not called again.
  void unsubscribe(int number);
  // Has the table closed (no message will ever come again)?
  bool closed() const;

  // A seat's answer: the text a page sent, {"choose": INDEX, "decision": N}
  // (the seat protocol's answer, checked by its own parser).
  TableReply answer(StreamId stream, const std::string& body);
  // The seat takes back its last decision and every one after it, unless
  // something was revealed to anybody since (play/undo.hpp). The game
  // thread checks it while a person decides; `done` is called once, from
  // the game thread or at once for a refusal, without the table's lock.
  void undo(StreamId stream, UndoDone done);
  // The same, waiting for the reply.
  TableReply undo(StreamId stream);

  // The game's own images (game.yaml display:), by number: their bytes and
  // MIME type; null when there is no such image.
  const std::string* image(size_t number, std::string& type) const;

  // Waits until the game is over (true) or `seconds` passed (false).
  bool wait_over(double seconds) const;
  // Finished or abandoned: nothing more will be played (a started game's
  // end message is out).
  bool over() const;
  // After the end: "" when the game finished, else what stopped it, whole
  // (for the operator: a script error's source line, traceback and paths).
  std::string error() const;
  // The same as a network client may read it (public_words.hpp): what
  // pages, the end message and the lobby's lists show.
  std::string public_error() const;
  // The end message's result object (null until the end).
  nlohmann::json result() const;
  // The game's log (JSON text; empty until the end, or when it never began).
  std::string log_text() const;
  // Decisions answered so far (for tests: a game that moved on).
  int answered() const;

 private:
  std::unique_ptr<TableCore> core_;
};

}  // namespace rulebook
