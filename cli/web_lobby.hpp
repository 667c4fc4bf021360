#pragma once
// The lobby served over HTTP (rulebook serve with no game): its page, its
// API (/api/games, /api/tables) and every table's routes under /t/ID/ (the
// single table's routes of web_table.hpp, the same page). Only the HTTP
// side: what the lobby does is runtime/table/lobby.hpp's. A thread sweeps
// the lobby every few seconds (its cleanup).
#include <functional>
#include <memory>
#include <string>

#include "cli/http_server.hpp"
#include "table/lobby.hpp"

namespace rulebook::cli {

struct WebLobbyConfig {
  LobbyConfig lobby;
  std::string host = "127.0.0.1";
  int port = 8080;       // 0: any free port
  http::ServerLimits server;  // the HTTP server's threads and caps (serve's --max-per-address)
  double sweep_seconds = 5;
  // Told one line for each table created, stopped for idleness or dropped
  // (the server prints them).
  std::function<void(const std::string& line)> report;
  // Where the HTTP server reports what an operator should know (see
  // http::Server::set_log).
  std::function<void(const std::string& line)> log;
};

class WebLobby {
 public:
  // Loads the catalogue (throws SetupError, as Lobby does).
  explicit WebLobby(WebLobbyConfig config);
  ~WebLobby();  // stops
  WebLobby(const WebLobby&) = delete;
  WebLobby& operator=(const WebLobby&) = delete;

  // Binds the port (throws SetupError, in our words, when it cannot),
  // starts the HTTP threads and the sweeper. Returns the port bound.
  int start();
  // Stops serving and every table.
  void stop();

  int port() const { return port_; }
  // The lobby page's address: http://HOST:PORT/.
  std::string url() const;
  Lobby& lobby();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace rulebook::cli
