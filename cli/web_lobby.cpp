#include "cli/web_lobby.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "cli/web_assets.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using nlohmann::json;

// Messages may quote what the client sent: never let its bytes break the JSON.
std::string error_body(const std::string& message) {
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

void fail(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_body(message), "application/json");
}

void send_json(httplib::Response& res, const json& body, int status = 200) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
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

// A page or asset compiled into the binary.
httplib::Server::Handler page(const char* type, const char* body) {
  return [type, body](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, type);
  };
}

std::string token_of(const httplib::Request& req) { return req.has_param("token") ? req.get_param_value("token") : ""; }

// A table's request is a few hundred bytes; answers fewer.
constexpr size_t kMaxRequest = 64 * 1024;

// A table's id in a path: the lobby draws 16 hex digits.
constexpr const char* kTable = "/t/([0-9a-f]{1,32})";

}  // namespace

struct WebLobby::Impl {
  explicit Impl(WebLobbyConfig c) : config(std::move(c)), lobby(config.lobby) {}
  WebLobbyConfig config;
  Lobby lobby;
  httplib::Server server;
  std::thread http_thread;
  std::thread sweeper;
  std::mutex sweeper_mutex;
  std::condition_variable sweeper_wake;
  bool stopping = false;
  int port = 0;

  void routes();
  void table_routes();
  void sweep_until_stopped();
  void report(const std::string& line) const {
    if (config.report) config.report(line);
  }
  // Where links point: the address the request came to (Host, and the
  // scheme a proxy in front says it used), else the one listened on.
  std::string base(const httplib::Request& req) const;
  json links(const httplib::Request& req, const Table& table) const;
  // The table of the path's id; null (and a 404 set) when there is none.
  std::shared_ptr<Table> table_of(const httplib::Request& req, httplib::Response& res) const;
};

std::string WebLobby::Impl::base(const httplib::Request& req) const {
  const std::string scheme = req.get_header_value("X-Forwarded-Proto") == "https" ? "https" : "http";
  std::string host = req.get_header_value("Host");
  if (host.empty()) {
    host = config.host == "0.0.0.0" || config.host.empty() ? "127.0.0.1" : config.host;
    if (host.find(':') != std::string::npos) host = "[" + host + "]";
    host += ":" + std::to_string(port);
  }
  return scheme + "://" + host;
}

json WebLobby::Impl::links(const httplib::Request& req, const Table& table) const {
  const std::string at = fmt::format("{}/t/{}/", base(req), table.id());
  json out = json::object();
  for (Seat s : Seat::all(table.config().spec.players)) {
    const std::string token = table.token(s);
    if (!token.empty()) out[std::to_string(s.value())] = at + "play?token=" + token;
  }
  out["spectators"] = at + "watch";
  return out;
}

std::shared_ptr<Table> WebLobby::Impl::table_of(const httplib::Request& req, httplib::Response& res) const {
  const std::string id = req.matches[1].str();
  std::shared_ptr<Table> table = lobby.find(id);
  if (!table) fail(res, 404, fmt::format("no table '{}' here (an ended table is cleaned up after a while)", id));
  return table;
}

void WebLobby::Impl::routes() {
  server.Get("/", page("text/html; charset=utf-8", kLobbyHtml));
  server.Get("/lobby.js", page("text/javascript; charset=utf-8", kLobbyJs));
  server.Get("/table.css", page("text/css; charset=utf-8", kTableCss));
  server.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });

  // The catalogue: games, the agents a seat may be given, the lobby's limits.
  server.Get("/api/games", [this](const httplib::Request&, httplib::Response& res) { send_json(res, lobby.games_json()); });

  // The tables held, each with its spectators' link (never a seat's).
  server.Get("/api/tables", [this](const httplib::Request& req, httplib::Response& res) {
    json tables = lobby.tables_json();
    for (json& t : tables) {
      const std::string at = fmt::format("{}/t/{}/", base(req), t["table"].get<std::string>());
      t["links"] = {{"spectators", at + "watch"}};
      if (t["state"] == "finished" || t["state"] == "abandoned") t["links"]["log"] = at + "log";
    }
    send_json(res, tables);
  });
  server.Get(std::string("/api/tables/([0-9a-f]{1,32})"), [this](const httplib::Request& req, httplib::Response& res) {
    try {
      send_json(res, lobby.table_json(req.matches[1].str()));
    } catch (const LobbyError& e) {
      fail(res, status_of(e.why), e.what());
    }
  });

  // A new table: {"game": NAME, ...} (Lobby::create); its links, one per
  // person's seat (a bot's seat has none) and the spectators'.
  server.Post("/api/tables", [this](const httplib::Request& req, httplib::Response& res) {
    try {
      const std::shared_ptr<Table> table = lobby.create(req.body);
      const TableConfig& c = table->config();
      json seats = json::array();
      for (Seat s : Seat::all(c.spec.players)) seats.push_back({{"seat", s.value()}, {"agent", c.kinds[s.index()]}});
      send_json(res, {{"table", table->id()}, {"links", links(req, *table)}, {"seats", seats}}, 201);
      report(fmt::format("table {} created: {} for {} players (seed {})", table->id(), c.definition->name, c.spec.players,
                         c.spec.seed));
    } catch (const LobbyError& e) {
      fail(res, status_of(e.why), e.what());
    }
  });

  table_routes();

  // Statuses the server sets itself, in our words too.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message = res.status == 404   ? fmt::format("nothing here: {} {}", req.method, req.path)
                                : res.status == 400 ? std::string("a request this server cannot read")
                                : res.status == 413 ? std::string("the request is too large")
                                                    : fmt::format("HTTP {}", res.status);
    res.set_content(error_body(message), "application/json");
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(error_body("the lobby could not answer this request"), "application/json");
  });
}

// Each table's routes under /t/ID/: those of the single table
// (web_table.cpp), on the table the id names.
void WebLobby::Impl::table_routes() {
  const std::string t = kTable;
  // The page only for a table that is there.
  auto table_page = [this](const httplib::Request& req, httplib::Response& res) {
    if (!table_of(req, res)) return;
    res.set_header("Cache-Control", "no-store");
    res.set_content(kTableHtml, "text/html; charset=utf-8");
  };
  server.Get(t + "/play", table_page);
  server.Get(t + "/watch", table_page);
  server.Get(t + "/table.js", page("text/javascript; charset=utf-8", kTableJs));
  server.Get(t + "/table.css", page("text/css; charset=utf-8", kTableCss));
  server.Get(t + R"(/display/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
    const auto table = table_of(req, res);
    if (!table) return;
    const size_t n = static_cast<size_t>(std::strtoull(req.matches[2].str().c_str(), nullptr, 10));
    std::string type;
    const std::string* bytes = table->image(n, type);
    if (!bytes) return fail(res, 404, "no such image");
    res.set_header("Cache-Control", "max-age=3600");
    res.set_content(*bytes, type.c_str());
  });

  // The stream a request may read: its token's, or the spectators' when it gives none.
  auto stream_of = [](const Table& table, const httplib::Request& req, httplib::Response& res) {
    const Table::StreamId s = table.stream_of(token_of(req));
    if (s == Table::kNoStream) fail(res, 403, "unknown token: this link opens no seat at this table");
    return s;
  };
  auto reply = [](httplib::Response& res, const TableReply& r, const json& ok) {
    static constexpr int kStatus[] = {200, 403, 409, 400, 404};
    if (!r.ok()) return fail(res, kStatus[static_cast<int>(r.refusal)], r.message);
    res.set_content(ok.dump(), "application/json");
  };

  server.Get(t + "/api/messages", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    const auto table = table_of(req, res);
    if (!table) return;
    const Table::StreamId s = stream_of(*table, req, res);
    if (s == Table::kNoStream) return;
    size_t from = 0;
    if (req.has_param("from")) from = static_cast<size_t>(std::strtoull(req.get_param_value("from").c_str(), nullptr, 10));
    std::string body = "[";
    const std::vector<std::string> messages = table->messages(s, from);
    for (size_t i = 0; i < messages.size(); ++i) body += (i > 0 ? "," : "") + messages[i];
    body += "]";
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, "application/json");
  });

  // Server-Sent Events, as the single table's; the stream holds its table
  // alive until the table closes (cleanup closes it).
  server.Get(t + "/api/events", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    const auto table = table_of(req, res);
    if (!table) return;
    const Table::StreamId s = stream_of(*table, req, res);
    if (s == Table::kNoStream) return;
    size_t next = 0;
    if (req.has_header("Last-Event-ID"))
      next = static_cast<size_t>(std::strtoull(req.get_header_value("Last-Event-ID").c_str(), nullptr, 10)) + 1;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider("text/event-stream", [table, s, next](size_t, httplib::DataSink& sink) mutable {
      table->wait_messages(s, next, std::chrono::seconds(15));
      std::string chunk;
      for (const std::string& message : table->messages(s, next)) chunk += fmt::format("id: {}\ndata: {}\n\n", next++, message);
      if (table->closed()) {
        if (!chunk.empty()) sink.write(chunk.data(), chunk.size());
        sink.done();
        return false;
      }
      if (chunk.empty()) chunk = ": still here\n\n";
      return sink.write(chunk.data(), chunk.size());
    });
  });

  server.Post(t + "/api/answer", [this, reply](const httplib::Request& req, httplib::Response& res) {
    const auto table = table_of(req, res);
    if (!table) return;
    const TableReply r = table->answer(table->stream_of(token_of(req)), req.body);
    reply(res, r, {{"ok", true}, {"decision", r.decision}});
  });
  server.Post(t + "/api/undo", [this, reply](const httplib::Request& req, httplib::Response& res) {
    const auto table = table_of(req, res);
    if (!table) return;
    reply(res, table->undo(table->stream_of(token_of(req))), {{"ok", true}});
  });

  // The log, once the game is over: a file `rulebook replay` verifies.
  server.Get(t + "/log", [this](const httplib::Request& req, httplib::Response& res) {
    try {
      const std::string id = req.matches[1].str();
      const std::string log = lobby.log(id);
      const auto table = lobby.find(id);
      const std::string game = table ? table->config().definition->name : "game";
      res.set_header("Cache-Control", "no-store");
      res.set_header("Content-Disposition", fmt::format("attachment; filename=\"{}-{}.json\"", game, id));
      res.set_content(log, "application/json");
    } catch (const LobbyError& e) {
      fail(res, status_of(e.why), e.what());
    }
  });
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
  const size_t threads = impl_->config.threads;
  impl_->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl_->server.set_payload_max_length(kMaxRequest);
  impl_->routes();
}

WebLobby::~WebLobby() { stop(); }

int WebLobby::start() {
  auto& server = impl_->server;
  const auto& c = impl_->config;
  port_ = c.port == 0 ? server.bind_to_any_port(c.host) : (server.bind_to_port(c.host, c.port) ? c.port : -1);
  if (port_ < 0) throw SetupError(fmt::format("--port: error: cannot listen on {}:{} (in use, or not an address of this machine)", c.host, c.port));
  impl_->port = port_;
  impl_->http_thread = std::thread([this] { impl_->server.listen_after_bind(); });
  for (int i = 0; i < 500 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
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
  // Tables first: their pages' streams end, so the HTTP threads can.
  impl_->lobby.stop_tables();
  impl_->server.stop();
  if (impl_->http_thread.joinable()) impl_->http_thread.join();
}

std::string WebLobby::url() const {
  std::string host = impl_->config.host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return fmt::format("http://{}:{}/", host, port_);
}

Lobby& WebLobby::lobby() { return impl_->lobby; }

}  // namespace rulebook::cli
