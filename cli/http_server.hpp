#pragma once
// rulebook serve's HTTP server: event-driven (Boost.Asio and Boost.Beast),
// so that an open connection costs memory, never a thread. One thread does
// all the sockets' I/O; a bounded pool of worker threads runs the routes'
// handlers; a stream (Server-Sent Events) waits without a thread and is
// woken when its source has more. Slow or idle clients meet deadlines,
// each address may hold a bounded number of connections, and requests are
// bounded in size. Every answer the server gives by itself (not found, too
// large, too many connections, a handler that failed) is a JSON error in
// our words, never a library's text.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rulebook::cli::http {

struct Request {
  std::string method;  // "GET", "POST", ...
  std::string path;    // the target before '?', as sent
  std::vector<std::pair<std::string, std::string>> query;    // decoded, in order
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  std::string body;
  std::string remote;  // the client's address

  bool has_param(const std::string& name) const;
  std::string param(const std::string& name) const;  // "" when absent
  bool has_header(const std::string& name) const;    // any case
  std::string header(const std::string& name) const;  // "" when absent
};

// A response that goes on: the server pulls what to send whenever the
// source says it may have more, and sends each piece as soon as the client
// takes the last one (what waits is kept by the source, not the server).
class StreamSource {
 public:
  virtual ~StreamSource() = default;
  // Calls `wake` (from any thread, without blocking) whenever pull may have
  // more. Called once, before the first pull.
  virtual void watch(std::function<void()> wake) = 0;
  // After it returns, `wake` is not called again. Called once, at the end.
  virtual void unwatch() = 0;
  // What to send now ("" for nothing yet); `done` when nothing will come after it.
  virtual std::string pull(bool& done) = 0;
  // Sent when nothing was sent for ServerLimits::keepalive ("" for nothing).
  virtual std::string keepalive() { return ""; }
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::shared_ptr<StreamSource> stream;  // set: a streamed response (body unused)

  // {"error": MESSAGE} with `status` (the client's bytes in MESSAGE are made safe).
  static Response error(int status, const std::string& message);
};

using Handler = std::function<Response(const Request&)>;
using Seconds = std::chrono::seconds;

struct ServerLimits {
  size_t threads = 4;               // worker threads for the handlers (a stream holds none)
  size_t max_connections = 10000;   // open at once, in all (more: 503); lowered to what the process may open
  size_t max_per_address = 128;     // open at once from one address (more: 429); 0: no cap
  size_t max_header_bytes = 8192;   // the request line and headers (more: 431)
  size_t max_body_bytes = 65536;    // the body (more: 413)
  Seconds idle_timeout{30};         // a connection waiting for its (next) request
  Seconds header_timeout{10};       // from a request's first byte to its last header
  Seconds body_timeout{10};         // from the last header to the body's end
  Seconds write_timeout{30};        // one write to the client (a stream whose reader stalls is closed)
  Seconds keepalive{15};            // a stream quiet this long sends its source's keepalive
  Seconds stop_grace{3};            // stop() waits this long for answers under way
};

// What the server has seen, for the log and the tests.
struct ServerCounts {
  size_t open = 0;            // connections open now
  size_t streams = 0;         // of which streaming
  size_t requests = 0;        // requests answered by a handler
  size_t refused_address = 0;  // connections refused: too many from their address
  size_t refused_full = 0;     // connections refused: too many in all
  size_t timed_out = 0;        // connections closed by a deadline
  size_t too_large = 0;        // requests refused for their size
  size_t malformed = 0;        // requests that were not HTTP
  size_t failed = 0;           // handlers that threw
};

class Server {
 public:
  explicit Server(ServerLimits limits = {});
  ~Server();  // stops
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Routes, before start(): an exact path, or every path that starts with
  // `prefix`. A path with no route is a 404, a route of another method a 405.
  void route(const std::string& method, const std::string& path, Handler handler);
  void route_prefix(const std::string& method, const std::string& prefix, Handler handler);
  // Where the server reports what an operator should know (caps reached,
  // handlers that failed, and once a minute what it refused, when it did).
  // Called from the I/O thread; default: nothing.
  void set_log(std::function<void(const std::string& line)> log);
  // What a 500 says when a handler throws (default: "the table could not
  // answer this request"); the exception's own text never goes out.
  void set_failure_words(std::string words);

  // Binds host:port (0: any free port) and starts the I/O and worker
  // threads; returns the port bound. Throws std::runtime_error, in our words,
  // when it cannot listen.
  int start(const std::string& host, int port);
  // Stops accepting, ends every stream, lets answers under way finish (at
  // most ServerLimits::stop_grace), closes every connection and joins the
  // threads. Idempotent.
  void stop();

  const ServerLimits& limits() const;
  ServerCounts counts() const;

  struct Core;  // http_server.cpp: the sockets, the routes, the counts

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace rulebook::cli::http
