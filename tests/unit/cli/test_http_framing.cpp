// Request smuggling (RFC 9112 §6.3): a request whose body the server cannot
// frame -- a Transfer-Encoding other than exactly "chunked", both
// Transfer-Encoding and Content-Length, Content-Length twice -- is answered
// 400 and its connection closed, so its body never runs as a second
// request. The framing decision alone (cli/http_framing.hpp), then the
// server spoken to in raw bytes.
#include <atomic>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/http_framing.hpp"
#include "cli/http_server.hpp"
#include "raw_client.hpp"

using namespace rulebook::cli::http;
using Kind = Framing::Kind;

namespace {

Framing framed(std::vector<std::pair<std::string, std::string>> fields, unsigned version = 11) {
  return frame_request(fields, version);
}

// The responses in what the server sent, read as a client reads them
// (head, then Content-Length bytes): their status lines, in order.
std::vector<std::string> responses_in(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    const size_t head_end = text.find("\r\n\r\n", at);
    if (head_end == std::string::npos) break;
    const std::string head = text.substr(at, head_end - at);
    out.push_back(head.substr(0, head.find("\r\n")));
    const size_t length = head.find("Content-Length: ");
    at = head_end + 4 + (length == std::string::npos ? 0 : std::stoul(head.substr(length + 16)));
  }
  return out;
}

// A server with two routes: what a smuggled request would reach is counted.
struct TwoRoutes {
  std::atomic<int> firsts{0}, smuggled{0};
  Server server;
  int port = 0;
  TwoRoutes() : server(limits()) {
    server.route("POST", "/first", [this](const Request& r) {
      ++firsts;
      Response res;
      res.body = nlohmann::json{{"body", r.body}}.dump();
      return res;
    });
    server.route("GET", "/second", [this](const Request&) {
      ++smuggled;
      return Response{};
    });
    port = server.start("127.0.0.1", 0);
  }
  // An idle connection closes soon: a test that fails does not wait long.
  static ServerLimits limits() {
    ServerLimits l;
    l.idle_timeout = Seconds(2);
    return l;
  }
};

const std::string kSecond = "GET /second HTTP/1.1\r\nHost: x\r\n\r\n";

}  // namespace

TEST_CASE("http framing: only a plain Content-Length or exactly \"chunked\" frames a body", "[serve][http]") {
  CHECK(framed({}).kind == Kind::none);
  CHECK(framed({{"Host", "x"}}).kind == Kind::none);
  const Framing length = framed({{"Content-Length", "42"}});
  CHECK(length.kind == Kind::length);
  CHECK(length.length == 42);
  CHECK(framed({{"content-length", " 0 "}}).kind == Kind::length);
  CHECK(framed({{"Transfer-Encoding", "chunked"}}).kind == Kind::chunked);
  CHECK(framed({{"TRANSFER-ENCODING", "Chunked"}}).kind == Kind::chunked);

  for (const char* coding : {"identity", "gzip", "chunked, identity", "gzip, chunked", "identity, chunked", "chunked, chunked",
                             "chunked,", ",chunked", "", " ", "chunkedx", "x-chunked"}) {
    INFO("Transfer-Encoding: " << coding);
    const Framing f = framed({{"Transfer-Encoding", coding}});
    CHECK(f.kind == Kind::refused);
    CHECK(!f.refusal.empty());
  }
  // A second field continues the list.
  CHECK(framed({{"Transfer-Encoding", "gzip"}, {"Transfer-Encoding", "chunked"}}).kind == Kind::refused);
  CHECK(framed({{"Transfer-Encoding", "chunked"}, {"Transfer-Encoding", "chunked"}}).kind == Kind::refused);
  // Both framings, in either order.
  CHECK(framed({{"Transfer-Encoding", "chunked"}, {"Content-Length", "5"}}).refusal ==
        "both Transfer-Encoding and Content-Length: the body cannot be framed");
  CHECK(framed({{"Content-Length", "5"}, {"Transfer-Encoding", "chunked"}}).kind == Kind::refused);
  // Content-Length twice, even the same, or as a list; or not a number.
  CHECK(framed({{"Content-Length", "5"}, {"Content-Length", "5"}}).refusal ==
        "Content-Length given more than once: the body cannot be framed");
  CHECK(framed({{"Content-Length", "5"}, {"Content-Length", "6"}}).kind == Kind::refused);
  for (const char* length : {"5, 5", "5,6", "-1", "+5", "0x10", "", "5 5", "99999999999999999999999"}) {
    INFO("Content-Length: " << length);
    CHECK(framed({{"Content-Length", length}}).kind == Kind::refused);
  }
  // HTTP/1.0 has no Transfer-Encoding.
  CHECK(framed({{"Transfer-Encoding", "chunked"}}, 10).kind == Kind::refused);
  CHECK(framed({{"Content-Length", "3"}}, 10).kind == Kind::length);
}

TEST_CASE("http framing: a body the server cannot frame is answered 400 and never runs as a second request",
          "[serve][http]") {
  TwoRoutes routes;
  struct Case {
    const char* what;
    std::string head;
  };
  const std::string length = std::to_string(kSecond.size());
  const std::vector<Case> cases = {
      {"identity", "Transfer-Encoding: identity\r\n"},
      {"gzip", "Transfer-Encoding: gzip\r\n"},
      {"chunked, identity", "Transfer-Encoding: chunked, identity\r\n"},
      {"two codings in two fields", "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"},
      {"both framings", "Transfer-Encoding: chunked\r\nContent-Length: " + length + "\r\n"},
      {"both framings, length first", "Content-Length: " + length + "\r\nTransfer-Encoding: chunked\r\n"},
      {"Content-Length twice, the same", "Content-Length: " + length + "\r\nContent-Length: " + length + "\r\n"},
      {"Content-Length twice, different", "Content-Length: 0\r\nContent-Length: " + length + "\r\n"},
      {"Content-Length as a list", "Content-Length: " + length + ", " + length + "\r\n"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    RawClient client(routes.port);
    REQUIRE(client.send_text("POST /first HTTP/1.1\r\nHost: x\r\n" + c.head + "\r\n" + kSecond));
    CHECK(read_until_closed(client));
    const auto responses = responses_in(client.received);
    REQUIRE(responses.size() == 1);
    CHECK(responses[0] == "HTTP/1.1 400 Bad Request");
    CHECK(client.received.find("Connection: close") != std::string::npos);
    CHECK(client.received.find("\"error\"") != std::string::npos);
  }
  // HTTP/1.0 with Transfer-Encoding.
  RawClient old(routes.port);
  REQUIRE(old.send_text("POST /first HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + kSecond));
  CHECK(read_until_closed(old));
  CHECK(responses_in(old.received) == std::vector<std::string>{"HTTP/1.0 400 Bad Request"});

  CHECK(routes.smuggled == 0);
  CHECK(routes.firsts == 0);
  CHECK(routes.server.counts().malformed == cases.size() + 1);
}

TEST_CASE("http framing: chunked and Content-Length bodies are read, and the next request on the connection answered",
          "[serve][http]") {
  TwoRoutes routes;
  RawClient client(routes.port);
  // A chunked body, a length body, then the second route: three answers, in order.
  REQUIRE(client.send_text("POST /first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                           "POST /first HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nde" +
                           kSecond));
  for (int round = 0; round < 3000 && responses_in(client.received).size() < 3; ++round) {
    client.read_ready();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(responses_in(client.received) == std::vector<std::string>(3, "HTTP/1.1 200 OK"));
  CHECK(client.received.find(R"({"body":"abc"})") != std::string::npos);
  CHECK(client.received.find(R"({"body":"de"})") != std::string::npos);
  CHECK(routes.firsts == 2);
  CHECK(routes.smuggled == 1);
  CHECK(!client.ended);
}
