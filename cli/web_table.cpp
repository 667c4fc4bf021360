#include "cli/web_table.hpp"

#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "cli/commands.hpp"
#include "cli/web_assets.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using nlohmann::json;

// Messages may quote what the client sent: never let its bytes break the JSON.
std::string error_body(const std::string& message) {
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

TableConfig table_config(const WebTableConfig& c) {
  TableConfig t;
  t.definition = c.definition;
  t.spec = c.spec;
  t.limits = c.limits;
  t.kinds = c.kinds;
  t.agent_settings = c.agent_settings;
  t.before_wait = c.before_wait;
  if (!c.log_file.empty()) {
    const std::string path = c.log_file;
    t.save_log = [path](const std::string& log) { write_file("--log", path, log); };
  }
  return t;
}

}  // namespace

struct WebTable::Impl {
  explicit Impl(const WebTableConfig& c) : config(c), table(table_config(c)) {}
  WebTableConfig config;
  Table table;
  httplib::Server server;
  std::thread http_thread;
  void routes();
};

void WebTable::Impl::routes() {
  auto page = [](const char* type, const char* body) {
    return [type, body](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-store");
      res.set_content(body, type);
    };
  };
  server.Get("/", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/play", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/watch", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/table.js", page("text/javascript; charset=utf-8", kTableJs));
  server.Get("/table.css", page("text/css; charset=utf-8", kTableCss));
  // The game's own images (game.yaml display:), by number.
  server.Get(R"(/display/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
    const size_t n = static_cast<size_t>(std::strtoull(req.matches[1].str().c_str(), nullptr, 10));
    std::string type;
    const std::string* bytes = table.image(n, type);
    if (!bytes) {
      res.status = 404;
      res.set_content(error_body("no such image"), "application/json");
      return;
    }
    res.set_header("Cache-Control", "max-age=3600");
    res.set_content(*bytes, type.c_str());
  });
  server.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });

  auto fail = [](httplib::Response& res, int status, const std::string& message) {
    res.status = status;
    res.set_content(error_body(message), "application/json");
  };
  // The stream a request may read: its token's, or the spectators' when it
  // gives none. kNoStream (and a 403 set) for a wrong token.
  auto stream_of = [this, fail](const httplib::Request& req, httplib::Response& res) {
    const Table::StreamId s = table.stream_of(req.has_param("token") ? req.get_param_value("token") : "");
    if (s == Table::kNoStream) fail(res, 403, "unknown token: this link opens no seat at this table");
    return s;
  };
  // A refusal of the table as an HTTP status.
  auto reply = [fail](httplib::Response& res, const TableReply& r, const nlohmann::json& ok) {
    static constexpr int kStatus[] = {200, 403, 409, 400, 404};
    if (!r.ok()) return fail(res, kStatus[static_cast<int>(r.refusal)], r.message);
    res.set_content(ok.dump(), "application/json");
  };

  // Everything a page has received so far, as one JSON array (?from=N: from
  // message N on). Pages use the event stream; this serves scripts and tests.
  server.Get("/api/messages", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    const Table::StreamId s = stream_of(req, res);
    if (s == Table::kNoStream) return;
    size_t from = 0;
    if (req.has_param("from")) from = static_cast<size_t>(std::strtoull(req.get_param_value("from").c_str(), nullptr, 10));
    std::string body = "[";
    const std::vector<std::string> messages = table.messages(s, from);
    for (size_t i = 0; i < messages.size(); ++i) {
      if (i > 0) body += ",";
      body += messages[i];
    }
    body += "]";
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, "application/json");
  });

  // The stream as Server-Sent Events, each message's index as its id: a
  // reconnecting EventSource sends Last-Event-ID and resumes after it; a
  // reloaded page starts from the first message and redraws.
  server.Get("/api/events", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    const Table::StreamId s = stream_of(req, res);
    if (s == Table::kNoStream) return;
    size_t next = 0;
    if (req.has_header("Last-Event-ID"))
      next = static_cast<size_t>(std::strtoull(req.get_header_value("Last-Event-ID").c_str(), nullptr, 10)) + 1;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider("text/event-stream", [this, s, next](size_t, httplib::DataSink& sink) mutable {
      table.wait_messages(s, next, std::chrono::seconds(15));
      std::string chunk;
      for (const std::string& message : table.messages(s, next)) chunk += fmt::format("id: {}\ndata: {}\n\n", next++, message);
      if (table.closed()) {
        sink.done();
        return false;
      }
      if (chunk.empty()) chunk = ": still here\n\n";  // keeps proxies and dead peers honest
      return sink.write(chunk.data(), chunk.size());
    });
  });

  // An answer: {"choose": INDEX} (and "decision": N, the decision it
  // answers, so a late double click never answers the next one).
  server.Post("/api/answer", [this, reply](const httplib::Request& req, httplib::Response& res) {
    const TableReply r = table.answer(table.stream_of(req.has_param("token") ? req.get_param_value("token") : ""), req.body);
    reply(res, r, {{"ok", true}, {"decision", r.decision}});
  });

  // Undo: a refusal is a 409 with the reason and changes nothing.
  server.Post("/api/undo", [this, reply](const httplib::Request& req, httplib::Response& res) {
    reply(res, table.undo(table.stream_of(req.has_param("token") ? req.get_param_value("token") : "")), {{"ok", true}});
  });

  // Statuses the server sets itself, in our words too.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message = res.status == 404   ? fmt::format("nothing here: {} {}", req.method, req.path)
                                : res.status == 400 ? std::string("a request this server cannot read")
                                : res.status == 413 ? std::string("the request is too large")
                                                    : fmt::format("HTTP {}", res.status);
    res.set_content(error_body(message), "application/json");
  });
  // A route that throws: httplib would put the exception's text in a
  // header; say what happened instead, and keep the details out.
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(error_body("the table could not answer this request"), "application/json");
  });
}

WebTable::WebTable(WebTableConfig config) : impl_(std::make_unique<Impl>(config)) {
  const size_t threads = impl_->config.threads;
  impl_->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl_->routes();
}

WebTable::~WebTable() { stop(); }

int WebTable::start() {
  auto& server = impl_->server;
  const auto& c = impl_->config;
  port_ = c.port == 0 ? server.bind_to_any_port(c.host) : (server.bind_to_port(c.host, c.port) ? c.port : -1);
  if (port_ < 0) throw SetupError(fmt::format("--port: error: cannot listen on {}:{} (in use, or not an address of this machine)", c.host, c.port));
  impl_->http_thread = std::thread([this] { impl_->server.listen_after_bind(); });
  // stop() only stops a server that is listening: wait until it is.
  for (int i = 0; i < 500 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  impl_->table.start();
  return port_;
}

void WebTable::stop() {
  impl_->table.stop();
  impl_->server.stop();
  if (impl_->http_thread.joinable()) impl_->http_thread.join();
}

std::string WebTable::token(Seat seat) const { return impl_->table.token(seat); }

std::string WebTable::link(Seat seat) const {
  std::string host = impl_->config.host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  if (seat.is_none()) return fmt::format("http://{}:{}/watch", host, port_);
  return fmt::format("http://{}:{}/play?token={}", host, port_, token(seat));
}

bool WebTable::wait_over(double seconds) const { return impl_->table.wait_over(seconds); }
bool WebTable::over() const { return impl_->table.over(); }
std::string WebTable::error() const { return impl_->table.error(); }
nlohmann::json WebTable::result() const { return impl_->table.result(); }
int WebTable::answered() const { return impl_->table.answered(); }

std::vector<std::string> WebTable::messages(const std::string& token) const {
  const Table::StreamId s = impl_->table.stream_of(token);
  if (s == Table::kNoStream) throw std::out_of_range("unknown token");
  return impl_->table.messages(s);
}

}  // namespace rulebook::cli
