#include "cli/table_routes.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace rulebook::cli::table_routes {
namespace {

using http::Request;
using http::Response;

// A page's stream of messages as Server-Sent Events, each message's index
// as its id. It waits without a thread: the table tells it when anything
// changed, and the server pulls what is new.
class TableEvents : public http::StreamSource {
 public:
  TableEvents(std::shared_ptr<Table> table, Table::StreamId stream, size_t next)
      : table_(std::move(table)), stream_(stream), next_(next) {}
  void watch(std::function<void()> wake) override {
    listener_ = table_->subscribe([wake = std::move(wake)](Table::Version) { wake(); });
  }
  void unwatch() override { table_->unsubscribe(listener_); }
  std::string pull(bool& done) override {
    done = table_->closed();  // read first: a message published before the close is still sent
    // A page that comes late gets the game so far in pieces of about 64
    // KiB, each sent when the client took the last: the server never holds
    // a whole stream for a reader.
    std::string chunk;
    for (const std::string& message : table_->messages(stream_, next_)) {
      if (chunk.size() >= kPiece) {
        done = false;  // there is more to send, at the next pull
        break;
      }
      chunk += fmt::format("id: {}.{}\ndata: {}\n\n", next_++, table_->instance(), message);
    }
    return chunk;
  }
  std::string keepalive() override { return ": still here\n\n"; }  // keeps proxies and dead peers honest

 private:
  static constexpr size_t kPiece = 64 * 1024;
  const std::shared_ptr<Table> table_;
  const Table::StreamId stream_;
  size_t next_;
  int listener_ = 0;
};

const Response& unknown_token() {
  static const Response r = Response::error(403, "unknown token: this link opens no seat at this table");
  return r;
}

size_t number(const std::string& text) { return static_cast<size_t>(std::strtoull(text.c_str(), nullptr, 10)); }

// A refusal of the table as an HTTP status.
Response reply(const TableReply& r, const nlohmann::json& ok) {
  static constexpr int kStatus[] = {200, 403, 409, 400, 404};
  if (!r.ok()) return Response::error(kStatus[static_cast<int>(r.refusal)], r.message);
  Response res;
  res.body = ok.dump();
  return res;
}

}  // namespace

Response asset(const char* type, const char* body) {
  Response res;
  res.headers.emplace_back("Cache-Control", "no-store");
  res.content_type = type;
  res.body = body;
  return res;
}

Response image(const Table& table, const std::string& digits, const Request& request) {
  const bool ok = !digits.empty() && digits.size() < 10 &&
                  std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!ok) return Response::error(404, fmt::format("nothing here: {} {}", request.method, request.path));
  std::string type;
  const std::string* bytes = table.image(number(digits), type);
  if (!bytes) return Response::error(404, "no such image");
  Response res;
  res.headers.emplace_back("Cache-Control", "max-age=3600");
  res.content_type = type;
  res.body = *bytes;
  return res;
}

Response messages(const Table& table, const Request& request) {
  const Table::StreamId s = table.stream_of(request.param("token"));
  if (s == Table::kNoStream) return unknown_token();
  std::string body = "[";
  const std::vector<std::string> all = table.messages(s, request.has_param("from") ? number(request.param("from")) : 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0) body += ",";
    body += all[i];
  }
  body += "]";
  Response res;
  res.headers.emplace_back("Cache-Control", "no-store");
  res.body = std::move(body);
  return res;
}

Response events(std::shared_ptr<Table> table, const Request& request) {
  const Table::StreamId s = table->stream_of(request.param("token"));
  if (s == Table::kNoStream) return unknown_token();
  // A reconnecting EventSource sends Last-Event-ID (INDEX.INSTANCE) and
  // resumes after it; a reloaded page starts from the first message and
  // redraws, and so does a page that followed this table before the server
  // restarted (another instance: its indexes count other messages).
  const std::string last = request.has_header("Last-Event-ID") ? request.header("Last-Event-ID") : "";
  const size_t dot = last.find('.');
  const bool same = dot != std::string::npos && last.substr(dot + 1) == table->instance();
  const size_t next = same ? number(last.substr(0, dot)) + 1 : 0;
  Response res;
  res.content_type = "text/event-stream";
  res.headers.emplace_back("Cache-Control", "no-store");
  res.headers.emplace_back("X-Accel-Buffering", "no");
  res.stream = std::make_shared<TableEvents>(std::move(table), s, next);
  return res;
}

// {"choose": INDEX} (and "decision": N, the decision it answers, so a late
// double click never answers the next one).
Response answer(Table& table, const Request& request) {
  const TableReply r = table.answer(table.stream_of(request.param("token")), request.body);
  return reply(r, {{"ok", true}, {"decision", r.decision}});
}

// A refusal is a 409 with the reason and changes nothing. The worker waits
// for the game thread's verdict (a moment: it is checked while the game
// waits for a person).
Response undo(Table& table, const Request& request) {
  return reply(table.undo(table.stream_of(request.param("token"))), {{"ok", true}});
}

std::string hot_seat_page(const Table& table) {
  std::string seats;
  for (Seat s : Seat::all(table.config().spec.players)) {
    const std::string token = table.token(s);
    if (token.empty()) continue;
    seats += fmt::format("{}{}:{}", seats.empty() ? "" : ",", s.value(), token);
  }
  return "play?seats=" + seats;
}

}  // namespace rulebook::cli::table_routes
