#include "cli/web_table.hpp"

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/http_server.hpp"
#include "cli/table_routes.hpp"
#include "cli/web_assets.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

TableConfig table_config(const WebTableConfig& c) {
  TableConfig t;
  t.definition = c.definition;
  t.spec = c.spec;
  t.limits = c.limits;
  t.kinds = c.kinds;
  t.agent_settings = c.agent_settings;
  t.before_wait = c.before_wait;
  t.id = c.id;
  t.tokens = c.tokens;
  t.journal = c.journal;
  t.resume = c.resume;
  if (!c.log_file.empty()) {
    const std::string path = c.log_file;
    t.save_log = [path](const std::string& log) { write_file("--log", path, log); };
  }
  return t;
}

}  // namespace

struct WebTable::Impl {
  explicit Impl(const WebTableConfig& c) : config(c), table(table_config(c)), server(c.server) {}
  WebTableConfig config;
  Table table;
  http::Server server;  // after the table: it stops (and its streams stop watching) first
  void routes();
};

void WebTable::Impl::routes() {
  using http::Request;
  namespace routes = table_routes;
  auto page = [](const char* type, const char* body) { return [type, body](const Request&) { return routes::asset(type, body); }; };
  server.route("GET", "/", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/play", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/watch", page("text/html; charset=utf-8", kTableHtml));
  server.route("GET", "/table.js", page("text/javascript; charset=utf-8", kTableJs));
  server.route("GET", "/table.css", page("text/css; charset=utf-8", kTableCss));
  // The game's own images (game.yaml display:), by number.
  server.route_prefix("GET", "/display/", [this](const Request& req) {
    return routes::image(table, req.path.substr(std::string("/display/").size()), req);
  });
  server.route("GET", "/favicon.ico", [](const Request&) {
    http::Response res;
    res.status = 204;
    res.content_type.clear();
    return res;
  });
  // The table is the WebTable's own: the streams hold it without owning it
  // (the server stops, and they with it, before the table goes).
  const std::shared_ptr<Table> held(std::shared_ptr<Table>{}, &table);
  server.route("GET", "/api/messages", [this](const Request& req) { return routes::messages(table, req); });
  server.route("GET", "/api/events", [held](const Request& req) { return routes::events(held, req); });
  server.route("POST", "/api/answer", [this](const Request& req) { return routes::answer(table, req); });
  server.route("POST", "/api/undo", [this](const Request& req) { return routes::undo(table, req); });
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

std::string WebTable::hot_seat_link() const {
  const std::string watch = link(Seat::none());
  return watch.substr(0, watch.size() - std::string("watch").size()) + table_routes::hot_seat_page(impl_->table);
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
