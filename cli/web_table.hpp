#pragma once
// A web table: one game (runtime/table/table.hpp) served over HTTP to
// browsers (rulebook serve). This file holds only the HTTP side: the page,
// its assets, and routes that map requests onto the table's methods and
// its refusals onto status codes. Each page follows its seat's stream of
// messages as Server-Sent Events, which cost the server memory, not a
// thread (cli/http_server.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/http_server.hpp"
#include "table/table.hpp"

namespace rulebook::cli {

struct WebTableConfig {
  std::shared_ptr<const GameDefinition> definition;
  GameSpec spec;                   // players and seed resolved
  EngineLimits limits;
  std::vector<std::string> kinds;  // per seat: "human" (a browser) or a bot kind
  AgentSettings agent_settings;     // --agent-timeout for exec: bots
  std::string host = "127.0.0.1";
  int port = 8080;                 // 0: any free port
  std::string log_file;            // written when the game ends (empty: none)
  http::ServerLimits server;       // the HTTP server's threads and caps (serve's --max-per-address)
  // A table kept (--state-dir) or brought back: see TableConfig.
  std::string id;
  std::vector<std::string> tokens;
  std::shared_ptr<TableJournal> journal;
  TableResume resume;
  // Tests only: see TableConfig::before_wait.
  std::function<void(Seat seat)> before_wait;
};

class WebTable {
 public:
  explicit WebTable(WebTableConfig config);
  ~WebTable();  // stops the table
  WebTable(const WebTable&) = delete;
  WebTable& operator=(const WebTable&) = delete;

  // Binds the port (throws SetupError, in our words, when it cannot),
  // starts the HTTP threads and the game. Returns the port bound.
  int start();
  // Ends everything: pages' streams close, a seat still deciding fails the
  // game ("the table closed"), the game thread and HTTP threads are joined.
  void stop();

  int port() const { return port_; }
  // A human seat's secret token ("" for a bot's seat).
  std::string token(Seat seat) const;
  // The link a seat's player opens, or the spectators' link (seat none).
  std::string link(Seat seat) const;
  // The link of one page for every person's seat at one screen (--hot-seat).
  std::string hot_seat_link() const;

  // Waits until the game is over (true) or `seconds` passed (false).
  bool wait_over(double seconds) const;
  bool over() const;
  // After the end: "" when the game finished, else what stopped it.
  std::string error() const;
  // The end message's result object (null until the end).
  nlohmann::json result() const;
  // Decisions answered so far (for tests: a game that moved on).
  int answered() const;

  // The messages of a stream so far (token "": the spectators' stream).
  // Throws std::out_of_range for an unknown token.
  std::vector<std::string> messages(const std::string& token) const;

  // Where the HTTP server reports what an operator should know (see
  // http::Server::set_log); before start().
  void set_log(std::function<void(const std::string& line)> log);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace rulebook::cli
