#include "cli/web_table.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/http_server.hpp"
#include "cli/web_assets.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using nlohmann::json;

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

// A page's stream of messages as Server-Sent Events, each message's index
// as its id. It waits without a thread: the table tells it when anything
// changed, and the server pulls what is new.
class TableEvents : public http::StreamSource {
 public:
  TableEvents(Table& table, Table::StreamId stream, size_t next) : table_(table), stream_(stream), next_(next) {}
  void watch(std::function<void()> wake) override {
    listener_ = table_.subscribe([wake = std::move(wake)](Table::Version) { wake(); });
  }
  void unwatch() override { table_.unsubscribe(listener_); }
  std::string pull(bool& done) override {
    done = table_.closed();  // read first: a message published before the close is still sent
    // A page that comes late gets the game so far in pieces of about 64
    // KiB, each sent when the client took the last: the server never holds
    // a whole stream for a reader.
    std::string chunk;
    for (const std::string& message : table_.messages(stream_, next_)) {
      if (chunk.size() >= kPiece) {
        done = false;  // there is more to send, at the next pull
        break;
      }
      chunk += fmt::format("id: {}\ndata: {}\n\n", next_++, message);
    }
    return chunk;
  }
  std::string keepalive() override { return ": still here\n\n"; }  // keeps proxies and dead peers honest

 private:
  static constexpr size_t kPiece = 64 * 1024;
  Table& table_;
  const Table::StreamId stream_;
  size_t next_;
  int listener_ = 0;
};

http::ServerLimits server_limits(const WebTableConfig& c) {
  http::ServerLimits limits;
  limits.threads = c.threads;
  limits.max_per_address = c.max_per_address;
  return limits;
}

}  // namespace

struct WebTable::Impl {
  explicit Impl(const WebTableConfig& c) : config(c), table(table_config(c)), server(server_limits(c)) {}
  WebTableConfig config;
  Table table;
  http::Server server;  // after the table: it stops (and its streams stop watching) first
  void routes();
};

void WebTable::Impl::routes() {
  using http::Request;
  using http::Response;
  auto page = [](const char* type, const char* body) {
    return [type, body](const Request&) {
      Response res;
      res.headers.emplace_back("Cache-Control", "no-store");
      res.content_type = type;
      res.body = body;
      return res;
    };
  };
  server.route("GET", "/", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/play", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/watch", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/table.js", page("text/javascript; charset=utf-8", kTableJs));
  server.route("GET", "/table.css", page("text/css; charset=utf-8", kTableCss));
  // The game's own images (game.yaml display:), by number.
  server.route_prefix("GET", "/display/", [this](const Request& req) {
    const std::string number = req.path.substr(std::string("/display/").size());
    const bool digits = !number.empty() && number.size() < 10 &&
                        std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) return Response::error(404, fmt::format("nothing here: {} {}", req.method, req.path));
    std::string type;
    const std::string* bytes = table.image(static_cast<size_t>(std::stoul(number)), type);
    if (!bytes) return Response::error(404, "no such image");
    Response res;
    res.headers.emplace_back("Cache-Control", "max-age=3600");
    res.content_type = type;
    res.body = *bytes;
    return res;
  });
  server.route("GET", "/favicon.ico", [](const Request&) {
    Response res;
    res.status = 204;
    res.content_type.clear();
    return res;
  });

  // The stream a request may read: its token's, or the spectators' when it gives none.
  auto stream_of = [this](const Request& req) { return table.stream_of(req.param("token")); };
  const Response unknown_token = Response::error(403, "unknown token: this link opens no seat at this table");
  // A refusal of the table as an HTTP status.
  auto reply = [](const TableReply& r, const nlohmann::json& ok) {
    static constexpr int kStatus[] = {200, 403, 409, 400, 404};
    if (!r.ok()) return Response::error(kStatus[static_cast<int>(r.refusal)], r.message);
    Response res;
    res.body = ok.dump();
    return res;
  };
  auto number = [](const std::string& text) { return static_cast<size_t>(std::strtoull(text.c_str(), nullptr, 10)); };

  // Everything a page has received so far, as one JSON array (?from=N: from
  // message N on). Pages use the event stream; this serves scripts and tests.
  server.route("GET", "/api/messages", [this, stream_of, unknown_token, number](const Request& req) {
    const Table::StreamId s = stream_of(req);
    if (s == Table::kNoStream) return unknown_token;
    std::string body = "[";
    const std::vector<std::string> messages = table.messages(s, req.has_param("from") ? number(req.param("from")) : 0);
    for (size_t i = 0; i < messages.size(); ++i) {
      if (i > 0) body += ",";
      body += messages[i];
    }
    body += "]";
    Response res;
    res.headers.emplace_back("Cache-Control", "no-store");
    res.body = std::move(body);
    return res;
  });

  // The stream as Server-Sent Events: a reconnecting EventSource sends
  // Last-Event-ID and resumes after it; a reloaded page starts from the
  // first message and redraws.
  server.route("GET", "/api/events", [this, stream_of, unknown_token, number](const Request& req) {
    const Table::StreamId s = stream_of(req);
    if (s == Table::kNoStream) return unknown_token;
    const size_t next = req.has_header("Last-Event-ID") ? number(req.header("Last-Event-ID")) + 1 : 0;
    Response res;
    res.content_type = "text/event-stream";
    res.headers.emplace_back("Cache-Control", "no-store");
    res.headers.emplace_back("X-Accel-Buffering", "no");
    res.stream = std::make_shared<TableEvents>(table, s, next);
    return res;
  });

  // An answer: {"choose": INDEX} (and "decision": N, the decision it
  // answers, so a late double click never answers the next one).
  server.route("POST", "/api/answer", [this, reply, stream_of](const Request& req) {
    const TableReply r = table.answer(stream_of(req), req.body);
    return reply(r, {{"ok", true}, {"decision", r.decision}});
  });

  // Undo: a refusal is a 409 with the reason and changes nothing. The
  // worker waits for the game thread's verdict (a moment: it is checked
  // while the game waits for a person).
  server.route("POST", "/api/undo", [this, reply, stream_of](const Request& req) {
    return reply(table.undo(stream_of(req)), {{"ok", true}});
  });
}

WebTable::WebTable(WebTableConfig config) : impl_(std::make_unique<Impl>(config)) { impl_->routes(); }

WebTable::~WebTable() { stop(); }

void WebTable::set_log(std::function<void(const std::string& line)> log) { impl_->server.set_log(std::move(log)); }

int WebTable::start() {
  const auto& c = impl_->config;
  try {
    port_ = impl_->server.start(c.host, c.port);
  } catch (const std::runtime_error&) {
    throw SetupError(fmt::format("--port: error: cannot listen on {}:{} (in use, or not an address of this machine)", c.host, c.port));
  }
  impl_->table.start();
  return port_;
}

void WebTable::stop() {
  impl_->table.stop();
  impl_->server.stop();
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
