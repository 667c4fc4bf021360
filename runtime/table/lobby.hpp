#pragma once
// A lobby: many tables on one server (rulebook serve with no game). It
// holds the game catalogue (the bundled games and the game folders of
// --games-dir), creates tables from a request a page or a script sends
// (JSON, checked field by field, refused in our words), finds them by id,
// lists them, hands out each finished table's log, and cleans up: a table
// where nothing happened for `idle_limit` is stopped (abandoned), and a
// finished or abandoned table is dropped `keep_ended` after its end. Like
// Table, it knows nothing of HTTP: cli/web_lobby.cpp maps requests onto it.
//
// Thread-safe: every method may be called from any thread. Tables are
// shared, so a request still reading a table keeps it alive after the
// lobby dropped it.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"
#include "table/table.hpp"
#include "table/table_store.hpp"

namespace rulebook {

struct LobbyConfig {
  using Clock = Table::Clock;
  // Folders holding game folders (each with its game.yaml), or game folders
  // themselves: their games join the bundled ones, by folder name.
  std::vector<std::string> games_dirs;
  EngineLimits limits;             // every table's rules budget
  AgentSettings agent_settings;
  size_t max_tables = 100;         // tables held at once (playing or ended)
  // A playing table where nothing happened (no message, no answer) this
  // long is stopped: its people left.
  Clock::duration idle_limit = std::chrono::hours(2);
  // An ended table (finished or stopped) stays this long, so that its
  // pages show the result and its log can be downloaded, then goes.
  Clock::duration keep_ended = std::chrono::hours(1);
  // Tests: a clock they move. Default: Clock::now.
  std::function<Clock::time_point()> clock;
  // Called on the table's game thread with its id and log when its game
  // ends (the server may keep it on disk); what it throws becomes the
  // table's error.
  std::function<void(const std::string& id, const std::string& log)> save_log;
  // Where tables are kept as they are played (--state-dir); null: nowhere.
  // A table ended or stopped for idleness is forgotten there.
  std::shared_ptr<TableStore> store;
};

// One game the lobby offers.
struct LobbyGame {
  std::string name;    // how requests name it (its folder's name)
  std::string source;  // how it is loaded and logged: a bundled name, or the folder's path
  std::string origin;  // "bundled" or the --games-dir it came from
  std::shared_ptr<const GameDefinition> definition;  // without variants or overrides
  std::vector<VariantInfo> variants;                  // the variants it offers
};

// Why the lobby refused: malformed (a bad request: 400), missing (no such
// table: 404), not_yet (no log before the end: 409), full (503).
struct LobbyError : std::runtime_error {
  enum class Why { malformed, missing, not_yet, full };
  LobbyError(Why why, const std::string& message) : std::runtime_error(message), why(why) {}
  // A request the lobby cannot take as it is (HTTP 400).
  static LobbyError malformed_request(const std::string& message) { return LobbyError(Why::malformed, message); }
  Why why;
};

class Lobby {
 public:
  using Clock = Table::Clock;

  // Loads the catalogue. Throws SetupError for a games dir that does not
  // exist, a game in it that does not load, or two games of one name.
  explicit Lobby(LobbyConfig config);
  ~Lobby();  // stops every table
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  const LobbyConfig& config() const { return config_; }
  const std::vector<LobbyGame>& games() const { return games_; }
  // The catalogue as JSON (a list: name, title, description, players
  // {min, max, default}, variants [{name, title, description}], options
  // {NAME: {default, help}}, origin).
  nlohmann::json games_json() const;

  // Creates a table from a request and starts it:
  //   {"game": NAME, "players": N, "variants": [NAME...], "set": ["options.NAME=VALUE"...],
  //    "agents": {"SEAT": KIND, "all": KIND}, "seed": S, "names": [NAME...]}
  // Only "game" is required; seats not given to a bot are people's (KIND
  // "human"), and one seat at least must be. A bot is a kind of the agent
  // registry by its name alone (random, first, greedy, mcts, ismcts):
  // nothing that reads the server's files or runs its programs. Throws
  // LobbyError (malformed or full).
  std::shared_ptr<Table> create(const std::string& request);
  // What create checks before it starts anything: the table a request
  // describes (its definition loaded, no Lua run, no id), or LobbyError.
  // What a network client may ask is only what the lobby's page offers:
  // a game of the catalogue, its players, variants it offers by name,
  // values of its options (lobby_settings.hpp), seats by kind, names, a
  // seed; never a path, a file or a program.
  TableConfig check(const std::string& request) const;
  // Brings back and starts every table the store kept (at the decision it
  // stood at, under its id and tokens). What cannot come back is set aside
  // and listed in `set_aside`. Returns the tables brought back.
  std::vector<std::shared_ptr<Table>> bring_back(std::vector<TableStore::SetAside>& set_aside);

  // The table of this id; null when there is none (never was, or cleaned up).
  std::shared_ptr<Table> find(const std::string& id) const;
  // Every table held, oldest first (table, game, title, players, state,
  // created, seats [{seat, agent, name}], result or error once ended).
  nlohmann::json tables_json() const;
  // One of them; throws LobbyError (missing).
  nlohmann::json table_json(const std::string& id) const;
  // A table's log (JSON text, as rulebook play --log writes it). Throws
  // LobbyError: missing (no such table), not_yet (still playing, or a game
  // that never began).
  std::string log(const std::string& id) const;

  // Cleans up (see the top): stops idle tables, drops ended tables whose
  // time is up. The server calls it every few seconds; it notes activity
  // and ends as it sees them, so its granularity is the time between calls.
  struct Swept {
    std::vector<std::string> ended;    // ids of the tables seen over for the first time
    std::vector<std::string> stopped;  // ids of the tables stopped for idleness
    std::vector<std::string> dropped;  // ids of the ended tables dropped
  };
  Swept sweep();
  size_t size() const;
  // Stops every table (the server is closing); they stay held.
  void stop_tables();

 private:
  struct Held {
    std::shared_ptr<Table> table;
    std::string game;                  // the catalogue's name
    std::string created;               // UTC, ISO 8601 (for people)
    uint64_t order = 0;                // creation order
    Table::Version seen_version = 0;   // the version the last sweep saw
    Clock::time_point active;          // when the lobby last saw it change
    Clock::time_point ended{};         // when the lobby saw it over (ended_seen)
    bool ended_seen = false;
  };

  Clock::time_point now() const;
  const LobbyGame& game_named(const std::string& name) const;
  static nlohmann::json parse_request(const std::string& request);
  TableConfig table_config(const nlohmann::json& request, const std::string& id) const;
  static nlohmann::json held_json(const Held& held);
  // Makes room for one more table (lock held); false when every table held is playing.
  bool make_room(std::vector<std::shared_ptr<Table>>& dropped);

  LobbyConfig config_;
  std::vector<LobbyGame> games_;
  mutable std::mutex mutex_;
  std::map<std::string, Held> tables_;
  uint64_t created_ = 0;
};

}  // namespace rulebook
