#pragma once
// Tables that survive the server (rulebook serve --state-dir DIR). Each
// table that has not ended is a file DIR/ID.table of JSON lines: its setup
// first (game, variants, options, players, seed, names, seats' kinds and
// tokens), then every answer, each written and synced (the file, and the
// folder when a file comes or goes) before the table accepts it. An undo
// rewrites the file whole (a new file renamed over the old); the game's
// end removes it.
//
// Started again on DIR, the server reads every file back: the game is
// replayed from its setup and answers to the decision it stood at, with
// the same id and tokens. A file that is not a table's, is damaged, or
// whose game no longer loads or replays is moved to DIR/set-aside/ with a
// NAME.reason beside it saying why; the other tables come back.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "table/table.hpp"

namespace rulebook {

class TableStore {
 public:
  // Makes DIR and DIR/set-aside when missing. Throws std::runtime_error
  // (in our words, naming DIR) when it cannot, or DIR is not a folder.
  explicit TableStore(std::string dir);
  const std::string& dir() const { return dir_; }

  struct Saved {
    TableConfig config;   // id, definition, spec, kinds, tokens, resume and journal; limits as given to load()
    std::string game;     // the lobby's name of the game ("" for a single table's)
    std::string created;  // when the table was opened (UTC, ISO 8601)
  };
  struct SetAside {
    std::string file;    // where it went (DIR/set-aside/NAME)
    std::string reason;  // why
  };
  // Every table kept in DIR, oldest first, each ready to start where it
  // stood. What could not be brought back is set aside (see the top).
  std::vector<Saved> load(const EngineLimits& limits, std::vector<SetAside>& set_aside);
  // Sets a table aside after load() (a lobby that does not offer its game
  // any more, a kind of bot it does not seat), with the reason.
  SetAside set_aside(const std::string& id, const std::string& reason);

  // Starts keeping a new table: its setup is on disk when this returns, and
  // `config` gets its journal (config.id must be set). Throws std::runtime_error.
  void keep(TableConfig& config, const std::string& game, const std::string& created);
  // Forgets a table that will not be played on (stopped for idleness): its file goes.
  void forget(const std::string& id) noexcept;
  // The ids of the tables kept now.
  std::vector<std::string> kept() const;

 private:
  std::string path_of(const std::string& id) const;
  SetAside move_aside(const std::string& name, const std::string& reason);
  std::string dir_;
  mutable std::mutex mutex_;  // the folder's: files coming and going
};

}  // namespace rulebook
