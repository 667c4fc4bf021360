#include "cli/http_server.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/http_framing.hpp"

namespace rulebook::cli::http {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// application/x-www-form-urlencoded: %XX and '+'; a broken escape stays as sent.
std::string url_decode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_query(const std::string& query) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string part = query.substr(start, end - start);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      if (eq == std::string::npos) out.emplace_back(url_decode(part), "");
      else out.emplace_back(url_decode(part.substr(0, eq)), url_decode(part.substr(eq + 1)));
    }
    start = end + 1;
  }
  return out;
}

const char* reason(int status) {
  const auto text = bhttp::obsolete_reason(static_cast<bhttp::status>(status));
  return text.empty() ? "Status" : text.data();
}

}  // namespace

bool Request::has_param(const std::string& name) const {
  return std::any_of(query.begin(), query.end(), [&](const auto& p) { return p.first == name; });
}

std::string Request::param(const std::string& name) const {
  for (const auto& [key, value] : query)
    if (key == name) return value;
  return "";
}

bool Request::has_header(const std::string& name) const {
  const std::string key = lower(name);
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return h.first == key; });
}

std::string Request::header(const std::string& name) const {
  const std::string key = lower(name);
  for (const auto& [k, value] : headers)
    if (k == key) return value;
  return "";
}

Response Response::error(int status, const std::string& message) {
  Response r;
  r.status = status;
  r.body = nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

class Connection;

struct Server::Core {
  explicit Core(ServerLimits l) : limits(l) {}
  ServerLimits limits;
  net::io_context ioc{1};
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  tcp::acceptor acceptor{ioc};
  net::steady_timer accept_retry{ioc};
  net::steady_timer summary{ioc};
  std::unique_ptr<net::thread_pool> workers;
  std::thread io_thread;
  std::atomic<bool> running{false};

  struct Route {
    std::string method, path;
    bool prefix = false;
    Handler handler;
  };
  std::vector<Route> routes;
  std::function<void(const std::string&)> log;
  std::string failure_words = "the table could not answer this request";

  // The I/O thread's alone.
  bool stopping = false;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> connections;
  std::unordered_map<std::string, size_t> per_address;
  size_t admitted = 0;
  std::set<std::string> capped;  // addresses whose cap was logged this minute
  bool full_logged = false;
  ServerCounts last_summary;

  // Read by any thread.
  std::atomic<size_t> open{0}, streams{0}, requests{0}, refused_address{0}, refused_full{0}, timed_out{0},
      too_large{0}, malformed{0}, failed{0};

  void say(const std::string& line) {
    if (log) log(line);
  }
  void accept();
  void admit(tcp::socket socket);
  void forget(Connection* connection, const std::string& address, bool counted);
  void begin_stop();
  void summarize();
  Response handle(const Request& request);
  ServerCounts counts() const {
    return ServerCounts{open, streams, requests, refused_address, refused_full, timed_out, too_large, malformed, failed};
  }
};

// One client's connection: reads requests one after another, hands each to
// a worker, writes the answer; or, for a stream, sends what its source has
// whenever it is woken. Lives on the I/O thread only.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Server::Core& core, tcp::socket socket, std::string address, bool counted)
      : core_(core),
        stream_(std::move(socket)),
        buffer_(core.limits.max_header_bytes + core.limits.max_body_bytes + 4096),
        address_(std::move(address)),
        counted_(counted),
        keepalive_(core.ioc) {}

  void start() { read_request(); }

  // Answers at once and closes: the connection was not admitted.
  void refuse(const Response& response) {
    keep_alive_ = false;
    write(response);
  }

  // The server stops: a stream ends, an idle connection closes, an answer
  // under way is still written (then the connection closes).
  void stop_soon() {
    if (source_) {
      pump();
    } else if (!busy_ && !writing_) {
      close();
    }
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    if (source_) {
      source_->unwatch();
      source_.reset();
      --core_.streams;
    }
    keepalive_.cancel();
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.close();
    core_.forget(this, address_, counted_);
  }

 private:
  void read_request() {
    if (closed_) return;
    if (core_.stopping) return close();
    if (buffer_.size() > 0) return read_head();  // the next request is already here
    stream_.expires_after(core_.limits.idle_timeout);
    stream_.async_read_some(buffer_.prepare(2048), [self = shared_from_this()](beast::error_code ec, size_t n) {
      if (ec) return self->close();  // gone, or idle too long: nothing to answer
      self->buffer_.commit(n);
      self->read_head();
    });
  }

  void read_head() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(core_.limits.max_header_bytes));
    parser_->body_limit(core_.limits.max_body_bytes);
    stream_.expires_after(core_.limits.header_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->read_failed(ec);
      if (!self->framed()) return;
      self->stream_.expires_after(self->core_.limits.body_timeout);
      bhttp::async_read(self->stream_, self->buffer_, *self->parser_, [self](beast::error_code ec, size_t) {
        if (ec) return self->read_failed(ec);
        self->dispatch();
      });
    });
  }

  // Whether the body of the request whose head was just read can be framed
  // (http_framing.hpp); if not, it is answered 400 and the connection closes
  // without reading its body, which must never pass for a next request.
  bool framed() {
    const auto& head = parser_->get();
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& field : head) fields.emplace_back(std::string(field.name_string()), std::string(field.value()));
    Framing framing = frame_request(fields, head.version());
    // The parser reads the body: it must frame it as we do.
    const auto length = parser_->content_length();
    const bool agrees = framing.kind == Framing::Kind::chunked  ? parser_->chunked() && !length
                        : framing.kind == Framing::Kind::length ? !parser_->chunked() && length && *length == framing.length
                        : framing.kind == Framing::Kind::none   ? !parser_->chunked() && !length
                                                                : true;
    if (!agrees) framing = Framing{Framing::Kind::refused, 0, "a request whose body this server cannot frame"};
    if (framing.kind != Framing::Kind::refused) return true;
    ++core_.malformed;
    keep_alive_ = false;
    http10_ = head.version() < 11;
    parser_.reset();
    write(Response::error(400, framing.refusal));
    return false;
  }

  void read_failed(beast::error_code ec) {
    if (closed_) return;
    keep_alive_ = false;
    if (ec == beast::error::timeout) {
      ++core_.timed_out;
      return close();  // the socket is closed already: nothing can be answered
    }
    if (ec == bhttp::error::body_limit || ec == bhttp::error::buffer_overflow) {
      ++core_.too_large;
      return write(Response::error(413, fmt::format("the request is too large: at most {} bytes", core_.limits.max_body_bytes)));
    }
    if (ec == bhttp::error::header_limit) {
      ++core_.too_large;
      return write(Response::error(431, fmt::format("the request's headers are too large: at most {} bytes",
                                                    core_.limits.max_header_bytes)));
    }
    if (ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
        ec == net::error::operation_aborted || ec == bhttp::error::partial_message)
      return close();
    ++core_.malformed;
    write(Response::error(400, "a request this server cannot read"));
  }

  void dispatch() {
    auto& message = parser_->get();
    Request request;
    request.method = std::string(message.method_string());
    const std::string target(message.target());
    const size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = parse_query(target.substr(question + 1));
    for (const auto& field : message) request.headers.emplace_back(lower(std::string(field.name_string())), std::string(field.value()));
    request.body = std::move(message.body());
    request.remote = address_;
    keep_alive_ = message.keep_alive();
    http10_ = message.version() < 11;
    parser_.reset();
    busy_ = true;
    net::post(*core_.workers, [self = shared_from_this(), request = std::move(request)]() {
      Response response = self->core_.handle(request);
      net::post(self->core_.ioc, [self, response = std::move(response)]() mutable {
        self->busy_ = false;
        if (response.stream) return self->start_stream(std::move(response));
        self->write(response);
      });
    });
  }

  void write(const Response& r) {
    if (closed_) return;
    if (core_.stopping) keep_alive_ = false;
    auto response = std::make_shared<bhttp::response<bhttp::string_body>>();
    response->version(http10_ ? 10 : 11);
    response->result(static_cast<unsigned>(r.status));
    if (!r.content_type.empty()) response->set(bhttp::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) response->set(name, value);
    response->body() = r.body;
    response->keep_alive(keep_alive_);
    response->prepare_payload();
    writing_ = true;
    stream_.expires_after(core_.limits.write_timeout);
    bhttp::async_write(stream_, *response, [self = shared_from_this(), response](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (ec) return self->close();
      if (self->core_.stopping) return self->close();
      if (!self->keep_alive_) return self->linger();
      self->read_request();
    });
  }

  // After the last answer: stop sending, and read (and drop) what the
  // client still sends for a moment, so that an answer it has not read yet
  // (a 413 before its whole body) is not lost to a reset.
  void linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(2));
    drain();
  }
  void drain() {
    stream_.async_read_some(net::buffer(scratch_), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->drained_ += n;
      if (ec || self->drained_ > (1u << 20)) return self->close();
      self->drain();
    });
  }

  void start_stream(Response r) {
    if (closed_) return;
    source_ = std::move(r.stream);
    ++core_.streams;
    chunked_ = !http10_;
    std::string head = fmt::format("HTTP/1.{} {} {}\r\nContent-Type: {}\r\n", http10_ ? 0 : 1, r.status, reason(r.status),
                                   r.content_type);
    for (const auto& [name, value] : r.headers) head += fmt::format("{}: {}\r\n", name, value);
    head += chunked_ ? "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    std::weak_ptr<Connection> weak = shared_from_this();
    net::io_context& ioc = core_.ioc;
    source_->watch([weak, &ioc] {
      net::post(ioc, [weak] {
        if (auto self = weak.lock()) self->pump();
      });
    });
    send(std::move(head), false);
    // The client says nothing more on a stream: a read that ends is a
    // client gone, which frees the connection at once.
    stream_.socket().async_read_some(net::buffer(scratch_), [self = shared_from_this()](beast::error_code, size_t) {
      self->close();
    });
  }

  // Sends what the source has now, unless a piece is still being written
  // (then it is pulled when that write ends).
  void pump() {
    if (closed_ || writing_ || !source_) return;
    bool done = core_.stopping;
    std::string data = done ? std::string() : source_->pull(done);
    if (data.empty() && !done) return;
    std::string piece;
    if (chunked_ && !data.empty()) piece = fmt::format("{:x}\r\n{}\r\n", data.size(), data);
    else piece = std::move(data);
    if (chunked_ && done) piece += "0\r\n\r\n";
    send(std::move(piece), done);
  }

  void send(std::string piece, bool last) {
    out_ = std::move(piece);
    writing_ = true;
    stream_.expires_after(core_.limits.write_timeout);
    net::async_write(stream_, net::buffer(out_), [self = shared_from_this(), last](beast::error_code ec, size_t) {
      self->writing_ = false;
      std::string().swap(self->out_);  // a quiet stream holds no piece
      if (ec == beast::error::timeout) ++self->core_.timed_out;
      if (ec || last) return self->close();
      self->arm_keepalive();
      self->pump();
    });
  }

  void arm_keepalive() {
    keepalive_.expires_after(core_.limits.keepalive);
    keepalive_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_ || self->writing_ || !self->source_) return;
      std::string text = self->source_->keepalive();
      if (text.empty()) return self->arm_keepalive();
      self->send(self->chunked_ ? fmt::format("{:x}\r\n{}\r\n", text.size(), text) : text, false);
    });
  }

  Server::Core& core_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string address_;
  bool counted_;
  bool closed_ = false, busy_ = false, writing_ = false, keep_alive_ = true, http10_ = false, chunked_ = true;
  std::shared_ptr<StreamSource> source_;
  net::steady_timer keepalive_;
  std::string out_;
  std::array<char, 1024> scratch_{};
  size_t drained_ = 0;
};

void Server::Core::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (stopping || ec == net::error::operation_aborted) return;
    if (ec) {  // out of file descriptors, mostly: try again in a moment
      if (!full_logged) say("cannot accept a connection now (out of file descriptors?); trying again");
      full_logged = true;
      accept_retry.expires_after(std::chrono::milliseconds(100));
      accept_retry.async_wait([this](beast::error_code e) {
        if (!e) accept();
      });
      return;
    }
    admit(std::move(socket));
    accept();
  });
}

void Server::Core::admit(tcp::socket socket) {
  beast::error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) return;  // gone already
  socket.set_option(tcp::no_delay(true), ec);
  auto address = peer.address();
  if (address.is_v6() && address.to_v6().is_v4_mapped()) address = address.to_v6().to_v4();
  const std::string who = address.to_string();
  std::optional<Response> refusal;
  if (admitted >= limits.max_connections) {
    ++refused_full;
    if (!full_logged) say(fmt::format("{} connections open, the most this server takes: refusing more (503)", admitted));
    full_logged = true;
    refusal = Response::error(503, "the server is full: try again in a moment");
  } else if (limits.max_per_address > 0 && per_address[who] >= limits.max_per_address) {
    ++refused_address;
    if (capped.insert(who).second)
      say(fmt::format("{} has {} connections open, the most one address may: refusing more from it (429)", who,
                      limits.max_per_address));
    refusal = Response::error(429, fmt::format("too many connections from your address: at most {}", limits.max_per_address));
  }
  if (!refusal) {
    ++per_address[who];
    ++admitted;
  }
  auto connection = std::make_shared<Connection>(*this, std::move(socket), who, !refusal);
  connections.emplace(connection.get(), connection);
  ++open;
  if (refusal) connection->refuse(*refusal);
  else connection->start();
}

void Server::Core::forget(Connection* connection, const std::string& address, bool counted) {
  if (connections.erase(connection) == 0) return;
  --open;
  if (!counted) return;
  --admitted;
  auto it = per_address.find(address);
  if (it != per_address.end() && --it->second == 0) per_address.erase(it);
}

void Server::Core::begin_stop() {
  stopping = true;
  beast::error_code ec;
  acceptor.close(ec);
  accept_retry.cancel();
  summary.cancel();
  std::vector<std::shared_ptr<Connection>> all;
  for (auto& [pointer, weak] : connections)
    if (auto c = weak.lock()) all.push_back(c);
  for (auto& c : all) c->stop_soon();
}

// Once a minute, what was refused or cut short, when anything was: an
// operator sees a flood without a line per connection.
void Server::Core::summarize() {
  summary.expires_after(std::chrono::minutes(1));
  summary.async_wait([this](beast::error_code ec) {
    if (ec) return;
    const ServerCounts now = counts(), was = last_summary;
    std::vector<std::string> parts;
    auto part = [&](size_t n, size_t before, const char* what) {
      if (n > before) parts.push_back(fmt::format("{} {}", n - before, what));
    };
    part(now.refused_address, was.refused_address, "connections refused (too many from one address)");
    part(now.refused_full, was.refused_full, "connections refused (server full)");
    part(now.timed_out, was.timed_out, "connections closed for slowness");
    part(now.too_large, was.too_large, "requests too large");
    part(now.malformed, was.malformed, "requests not HTTP");
    part(now.failed, was.failed, "requests failed");
    if (!parts.empty()) {
      std::string line = "in the last minute:";
      for (size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " ") + parts[i];
      say(fmt::format("{}; {} connections open, {} of them streams", line, now.open, now.streams));
    }
    last_summary = now;
    capped.clear();
    full_logged = false;
    summarize();
  });
}

Response Server::Core::handle(const Request& request) {
  const Route* found = nullptr;
  bool other_method = false;
  for (const auto& exact : {true, false}) {
    for (const Route& r : routes) {
      if (r.prefix == exact) continue;
      const bool match = exact ? request.path == r.path : request.path.rfind(r.path, 0) == 0;
      if (!match) continue;
      if (r.method != request.method) {
        other_method = true;
        continue;
      }
      found = &r;
      break;
    }
    if (found) break;
  }
  if (!found) {
    if (other_method) return Response::error(405, fmt::format("{} is not a way to ask for {}", request.method, request.path));
    return Response::error(404, fmt::format("nothing here: {} {}", request.method, request.path));
  }
  ++requests;
  try {
    return found->handler(request);
  } catch (...) {
    // The details stay out of the answer (and the log): they are a library's words.
    ++failed;
    net::post(ioc, [this, line = fmt::format("could not answer {} {}", request.method, request.path)] { say(line); });
    return Response::error(500, failure_words);
  }
}

Server::Server(ServerLimits limits) : core_(std::make_shared<Core>(limits)) {}

Server::~Server() { stop(); }

void Server::route(const std::string& method, const std::string& path, Handler handler) {
  core_->routes.push_back({method, path, false, std::move(handler)});
}

void Server::route_prefix(const std::string& method, const std::string& prefix, Handler handler) {
  core_->routes.push_back({method, prefix, true, std::move(handler)});
}

void Server::set_log(std::function<void(const std::string&)> log) { core_->log = std::move(log); }

void Server::set_failure_words(std::string words) { core_->failure_words = std::move(words); }

const ServerLimits& Server::limits() const { return core_->limits; }

ServerCounts Server::counts() const { return core_->counts(); }

int Server::start(const std::string& host, int port) {
  if (core_->running) throw std::logic_error("the server is running already");
  auto& c = *core_;
  // Each connection is a file descriptor: take all the system allows.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
    if (files.rlim_cur < files.rlim_max) {
      files.rlim_cur = files.rlim_max;
      setrlimit(RLIMIT_NOFILE, &files);
      getrlimit(RLIMIT_NOFILE, &files);
    }
    if (files.rlim_cur != RLIM_INFINITY && files.rlim_cur > 128)
      c.limits.max_connections = std::min<size_t>(c.limits.max_connections, files.rlim_cur - 64);
  }
  const std::string where = fmt::format("cannot listen on {}:{}", host, port);
  beast::error_code ec;
  tcp::resolver resolver(c.ioc);
  const auto endpoints = resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) throw std::runtime_error(where + " (not an address of this machine)");
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  c.acceptor.open(endpoint.protocol(), ec);
  if (!ec) c.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) c.acceptor.bind(endpoint, ec);
  if (!ec) c.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    c.acceptor.close(ec);
    throw std::runtime_error(where + " (in use, or not an address of this machine)");
  }
  const int bound = c.acceptor.local_endpoint(ec).port();
  c.workers = std::make_unique<net::thread_pool>(std::max<size_t>(1, c.limits.threads));
  c.work.emplace(c.ioc.get_executor());
  c.running = true;
  c.accept();
  c.summarize();
  c.io_thread = std::thread([&c] { c.ioc.run(); });
  return bound;
}

void Server::stop() {
  auto& c = *core_;
  if (!c.running.exchange(false)) return;
  net::post(c.ioc, [&c] { c.begin_stop(); });
  const auto deadline = Clock::now() + c.limits.stop_grace;
  while (c.open > 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  c.workers->join();
  c.work.reset();
  c.ioc.stop();
  c.io_thread.join();
  // What the grace left open closes here (the I/O thread is gone): every
  // stream stops watching its source before the source can go away.
  std::vector<std::shared_ptr<Connection>> left;
  for (auto& [pointer, weak] : c.connections)
    if (auto connection = weak.lock()) left.push_back(connection);
  for (auto& connection : left) connection->close();
}

}  // namespace rulebook::cli::http
