#include "cli/web_lobby.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "cli/http_server.hpp"
#include "cli/table_routes.hpp"
#include "cli/web_assets.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using http::Request;
using http::Response;
using nlohmann::json;

Response send_json(const json& body, int status = 200) {
  Response res;
  res.status = status;
  res.headers.emplace_back("Cache-Control", "no-store");
  res.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return res;
}

int status_of(LobbyError::Why why) {
  switch (why) {
    case LobbyError::Why::malformed: return 400;
    case LobbyError::Why::missing: return 404;
    case LobbyError::Why::not_yet: return 409;
    case LobbyError::Why::full: return 503;
  }
  return 500;
}

Response nothing_here(const Request& req) {
  return Response::error(404, fmt::format("nothing here: {} {}", req.method, req.path));
}

// A table's id in a path: the lobby draws 16 hex digits.
bool is_table_id(const std::string& id) {
  return !id.empty() && id.size() <= 32 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

struct WebLobby::Impl {
  explicit Impl(WebLobbyConfig c) : config(std::move(c)), lobby(config.lobby), server(config.server) {}
  WebLobbyConfig config;
  Lobby lobby;
  http::Server server;  // after the lobby: it stops (and its streams release their tables) first
  std::thread sweeper;
  std::mutex sweeper_mutex;
  std::condition_variable sweeper_wake;
  bool stopping = false;
  int port = 0;

  void routes();
  // GET or POST /t/ID/REST: the single table's routes (table_routes.hpp) on
  // the table the id names.
  Response table_route(const Request& req);
  void sweep_until_stopped();
  void report(const std::string& line) const {
    if (config.report) config.report(line);
  }
  // Where links point: the address the request came to (Host, and the
  // scheme a proxy in front says it used), else the one listened on.
  std::string base(const Request& req) const;
  json links(const Request& req, const Table& table) const;
};

std::string WebLobby::Impl::base(const Request& req) const {
  const std::string scheme = req.header("X-Forwarded-Proto") == "https" ? "https" : "http";
  std::string host = req.header("Host");
  if (host.empty()) {
    host = config.host == "0.0.0.0" || config.host.empty() ? "127.0.0.1" : config.host;
    if (host.find(':') != std::string::npos) host = "[" + host + "]";
    host += ":" + std::to_string(port);
  }
  return scheme + "://" + host;
}

json WebLobby::Impl::links(const Request& req, const Table& table) const {
  const std::string at = fmt::format("{}/t/{}/", base(req), table.id());
  json out = json::object();
  for (Seat s : Seat::all(table.config().spec.players)) {
    const std::string token = table.token(s);
    if (!token.empty()) out[std::to_string(s.value())] = at + "play?token=" + token;
  }
  out["spectators"] = at + "watch";
  out["hot_seat"] = at + table_routes::hot_seat_page(table);  // every person's seat at one screen
  return out;
}

void WebLobby::Impl::routes() {
  auto page = [](const char* type, const char* body) {
    return [type, body](const Request&) { return table_routes::asset(type, body); };
  };
  server.route("GET", "/", page("text/html; charset=utf-8", kLobbyHtml));
  server.route("GET", "/lobby.js", page("text/javascript; charset=utf-8", kLobbyJs));
  server.route("GET", "/table.css", page("text/css; charset=utf-8", kTableCss));
  server.route("GET", "/favicon.ico", [](const Request&) {
    Response res;
    res.status = 204;
    res.content_type.clear();
    return res;
  });

  // The catalogue: games, the agents a seat may be given, the lobby's limits.
  server.route("GET", "/api/games", [this](const Request&) { return send_json(lobby.games_json()); });

  // The tables held, each with its spectators' link (never a seat's).
  server.route("GET", "/api/tables", [this](const Request& req) {
    json tables = lobby.tables_json();
    for (json& t : tables) {
      const std::string at = fmt::format("{}/t/{}/", base(req), t["table"].get<std::string>());
      t["links"] = {{"spectators", at + "watch"}};
      if (t["state"] == "finished" || t["state"] == "abandoned") t["links"]["log"] = at + "log";
    }
    return send_json(tables);
  });
  server.route_prefix("GET", "/api/tables/", [this](const Request& req) {
    const std::string id = req.path.substr(std::string("/api/tables/").size());
    if (!is_table_id(id)) return nothing_here(req);
    try {
      return send_json(lobby.table_json(id));
    } catch (const LobbyError& e) {
      return Response::error(status_of(e.why), e.what());
    }
  });

  // A new table: {"game": NAME, ...} (Lobby::create); its links, one per
  // person's seat (a bot's seat has none) and the spectators'.
  server.route("POST", "/api/tables", [this](const Request& req) {
    try {
      const std::shared_ptr<Table> table = lobby.create(req.body);
      const TableConfig& c = table->config();
      json seats = json::array();
      for (Seat s : Seat::all(c.spec.players)) seats.push_back({{"seat", s.value()}, {"agent", c.kinds[s.index()]}});
      report(fmt::format("table {} created: {} for {} players (seed {})", table->id(), c.definition->name, c.spec.players,
                         c.spec.seed));
      return send_json({{"table", table->id()}, {"links", links(req, *table)}, {"seats", seats}}, 201);
    } catch (const LobbyError& e) {
      return Response::error(status_of(e.why), e.what());
    }
  });

  // Each table's routes under /t/ID/.
  server.route_prefix("GET", "/t/", [this](const Request& req) { return table_route(req); });
  server.route_prefix("POST", "/t/", [this](const Request& req) { return table_route(req); });
}

Response WebLobby::Impl::table_route(const Request& req) {
  const size_t slash = req.path.find('/', 3);
  if (slash == std::string::npos) return nothing_here(req);
  const std::string id = req.path.substr(3, slash - 3), rest = req.path.substr(slash + 1);
  if (!is_table_id(id)) return nothing_here(req);
  const bool get = req.method == "GET";
  // Assets that are the same for every table.
  if (get && rest == "table.js") return table_routes::asset("text/javascript; charset=utf-8", kTableJs);
  if (get && rest == "table.css") return table_routes::asset("text/css; charset=utf-8", kTableCss);
  // The log, once the game is over: a file `rulebook replay` verifies.
  if (get && rest == "log") {
    try {
      const std::string log = lobby.log(id);
      const auto table = lobby.find(id);
      const std::string game = table ? table->config().definition->name : "game";
      Response res;
      res.headers.emplace_back("Cache-Control", "no-store");
      res.headers.emplace_back("Content-Disposition", fmt::format("attachment; filename=\"{}-{}.json\"", game, id));
      res.body = log;
      return res;
    } catch (const LobbyError& e) {
      return Response::error(status_of(e.why), e.what());
    }
  }
  const bool known = get ? rest == "play" || rest == "watch" || rest.rfind("display/", 0) == 0 || rest == "api/messages" ||
                               rest == "api/events"
                         : rest == "api/answer" || rest == "api/undo";
  if (!known) return nothing_here(req);
  // The rest only for a table that is there.
  const std::shared_ptr<Table> table = lobby.find(id);
  if (!table) return Response::error(404, fmt::format("no table '{}' here (an ended table is cleaned up after a while)", id));
  if (rest == "play" || rest == "watch") return table_routes::asset("text/html; charset=utf-8", kTableHtml);
  if (rest.rfind("display/", 0) == 0) return table_routes::image(*table, rest.substr(8), req);
  if (rest == "api/messages") return table_routes::messages(*table, req);
  // The stream holds its table alive until the table closes (cleanup closes it).
  if (rest == "api/events") return table_routes::events(table, req);
  if (rest == "api/answer") return table_routes::answer(*table, req);
  return table_routes::undo(*table, req);
}

void WebLobby::Impl::sweep_until_stopped() {
  std::unique_lock lock(sweeper_mutex);
  while (!sweeper_wake.wait_for(lock, std::chrono::duration<double>(config.sweep_seconds), [this] { return stopping; })) {
    lock.unlock();
    const Lobby::Swept swept = lobby.sweep();
    for (const std::string& id : swept.ended) {
      const auto table = lobby.find(id);
      if (!table) continue;
      const std::string error = table->error();
      report(error.empty() ? fmt::format("table {} finished: {}", id, table->result().value("summary", ""))
                           : fmt::format("table {} ended: {}", id, error));
    }
    for (const std::string& id : swept.stopped) report(fmt::format("table {} stopped: nobody played at it for a while", id));
    for (const std::string& id : swept.dropped) report(fmt::format("table {} cleaned up", id));
    lock.lock();
  }
}

WebLobby::WebLobby(WebLobbyConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {
  if (impl_->config.log) impl_->server.set_log(impl_->config.log);
  impl_->server.set_failure_words("the lobby could not answer this request");
  impl_->routes();
}

WebLobby::~WebLobby() { stop(); }

int WebLobby::start() {
  const auto& c = impl_->config;
  try {
    port_ = impl_->server.start(c.host, c.port);
  } catch (const std::runtime_error&) {
    throw SetupError(fmt::format("--port: error: cannot listen on {}:{} (in use, or not an address of this machine)", c.host, c.port));
  }
  impl_->port = port_;
  impl_->sweeper = std::thread([this] { impl_->sweep_until_stopped(); });
  return port_;
}

void WebLobby::stop() {
  {
    std::lock_guard lock(impl_->sweeper_mutex);
    impl_->stopping = true;
  }
  impl_->sweeper_wake.notify_all();
  if (impl_->sweeper.joinable()) impl_->sweeper.join();
  // Tables first: their pages' streams end, and the server closes them.
  impl_->lobby.stop_tables();
  impl_->server.stop();
}

std::string WebLobby::url() const {
  std::string host = impl_->config.host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return fmt::format("http://{}:{}/", host, port_);
}

Lobby& WebLobby::lobby() { return impl_->lobby; }

}  // namespace rulebook::cli
